"""Bots by name, so that the command line, tournaments and configs can name a bot as a string.

``make_bot("greedy")`` builds a fresh bot; ``make_bot("policy:runs/ppo/model.zip")`` loads a
trained MaskablePPO policy; ``make_bot("net:models/cartographer-worth.pt")`` a trained candidate
net with the cartographer's rules for the rest (``agents.net_bot``); ``make_bot("ismcts:sims=200")`` builds the search bot with options
(``NAME:KEY=VALUE:...``, for the bots in ``WITH_OPTIONS``); ``make_bot("cartographer:estimate=w.json")``
plays a strategy with the weights of an estimate file (``agents.estimate_file``), and
``cartographer:worlds=4`` values its choices in four determinizations instead of one. Each call returns a new object, so a
process (or a tournament worker) can hold one per seat without bots sharing state.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot

POLICY_PREFIX = "policy:"
NET_PREFIX = "net:"
ISMCTS_OPTIONS = "ismcts:KEY=VALUE"
ROLLOUT_OPTIONS = "rollout:KEY=VALUE"
STRATEGY_OPTIONS = "STRATEGY:estimate=PATH:worlds=K"


def _random() -> Bot:
    from .random_bot import RandomBot

    return RandomBot()


def _greedy() -> Bot:
    from .greedy import GreedyBot

    return GreedyBot()


def _strategy(name: str) -> Callable[[], Bot]:
    def build() -> Bot:
        from .strategies import STRATEGIES

        return STRATEGIES[name]()

    return build


def _strategy_with(name: str) -> Callable[[str], Bot]:
    def build(options: str) -> Bot:
        from .estimate_file import load
        from .strategies import STRATEGIES

        bot = STRATEGIES[name]()
        allowed = "estimate=PATH (a JSON file of Estimate fields) and worlds=1..64 (determinizations a choice is valued in)"
        for part in options.split(":"):
            key, eq, value = (x.strip() for x in part.partition("="))
            if key == "estimate" and value:
                bot.estimate = load(value, bot.estimate)  # fields the file leaves out keep the strategy's own
            elif key == "worlds" and value.isdigit() and 1 <= int(value) <= 64:
                bot.worlds = int(value)
            else:
                raise UnknownBotError(f"{name}: bad option {part.strip()!r} in {options!r}; options: {allowed}")
        bot.name = f"{name}:{options.strip()}"
        return bot

    return build


def _ismcts() -> Bot:
    from .ismcts import IsmctsBot

    return IsmctsBot()


def _rollout_with(options: str) -> Bot:
    from .rollout import RolloutBot, parse_options

    return RolloutBot(**parse_options(options))


def _rollout() -> Bot:
    from .rollout import RolloutBot

    return RolloutBot()


def _ismcts_with(options: str) -> Bot:
    from .ismcts import IsmctsBot, parse_options

    return IsmctsBot(parse_options(options))


BOTS: dict[str, Callable[[], Bot]] = {
    "random": _random,
    "greedy": _greedy,
    "journal": _strategy("journal"),
    "astronomer": _strategy("astronomer"),
    "cartographer": _strategy("cartographer"),
    "ismcts": _ismcts,
    "rollout": _rollout,
}
WITH_OPTIONS: dict[str, Callable[[str], Bot]] = {
    "ismcts": _ismcts_with,
    "rollout": _rollout_with,
    **{name: _strategy_with(name) for name in ("journal", "astronomer", "cartographer")},
}


class UnknownBotError(ValueError):
    """A bot name that names no bot we can build: not registered (the message lists the names
    that are), or a ``policy:PATH`` or ``net:PATH`` whose file is missing or not a model."""


def known_bots() -> list[str]:
    return [*BOTS, ISMCTS_OPTIONS, ROLLOUT_OPTIONS, STRATEGY_OPTIONS, POLICY_PREFIX + "PATH", NET_PREFIX + "PATH"]


def make_bot(name: str) -> Bot:
    """A new bot for ``name``: one of ``known_bots()``, ``policy:PATH`` to a saved MaskablePPO .zip,
    ``net:PATH`` to a candidate net file (``agents.net_bot``),
    ``ismcts:KEY=VALUE:...`` (agents.ismcts.OPTIONS), or ``STRATEGY:estimate=PATH:worlds=K``."""
    if not isinstance(name, str):
        raise UnknownBotError(f"a bot name is a string, got {name!r}; known bots: {', '.join(known_bots())}")
    key = name.strip()
    if key.startswith(POLICY_PREFIX):
        path = key[len(POLICY_PREFIX) :]
        if not path:
            raise UnknownBotError(f"{name!r}: give the model file after 'policy:', e.g. policy:runs/ppo/model.zip")
        from .policy_bot import PolicyBot

        return PolicyBot(path)  # a bad file raises policy_bot.ModelFileError, an UnknownBotError
    if key.startswith(NET_PREFIX):
        path = key[len(NET_PREFIX) :]
        if not path:
            raise UnknownBotError(f"{name!r}: give the net file after 'net:', e.g. net:models/cartographer-worth.pt")
        from .net_bot import NetBot

        return NetBot(path)  # a bad file raises net_bot.NetFileError, an UnknownBotError
    base, colon, options = key.partition(":")
    if colon and base.strip().lower() in WITH_OPTIONS:
        return WITH_OPTIONS[base.strip().lower()](options)
    build = BOTS.get(key.lower())
    if build is None:
        raise UnknownBotError(f"unknown bot {name!r}; known bots: {', '.join(known_bots())}")
    return build()
