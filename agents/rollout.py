"""Rollout improvement: the cartographer's few best main actions, each played on by cartographers.

Why. The lookahead bots and the search all stop one turn (or one reply) after a choice and read
the rest off the cartographer's ``Estimate``; re-weighting that estimate, or searching more of
it, stays level with the cartographer (docs/RESULTS.md). What the estimate cannot see is what a
choice leads to once both players go on playing well. Rollout improvement (Tesauro and Galperin's
"on-line policy improvement", Bertsekas's rollout algorithm) asks exactly that: for each of the
base policy's ``k`` best main actions, play on with the base policy for every seat for ``turns``
more turns in ``worlds`` determinizations of the bot's view, and take the action whose
continuations end best by the same estimate. With enough rollouts, an exact model of the other
seats and an exact value where the rollouts stop, a policy that takes the best of them is at
least as good as the base policy; here the model of the other seats is the cartographer itself
(the issue's opponent), and the estimate where they stop is the one approximation.

Only the main action ("turn") is rolled out: it is the decision that shapes a turn, and the
other decisions cost too little to be worth the budget. Every candidate is played in the same
worlds from the same generator state (common random numbers), so the comparison is not swamped
by which cards each happened to draw.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .base import InnerView, View
from .evaluation import evaluate, horizon
from .lookahead import best_candidates
from .registry import UnknownBotError
from .strategies import Cartographer

MAX_DECISIONS = 400  # per rollout: guards against a rule loop, never reached by a real one

# key: (type, lowest, highest, what the user is told)
OPTIONS: dict[str, tuple[type, float, float, str]] = {
    "k": (int, 1, 64, "main actions rolled out, the base's best first, 1..64"),
    "worlds": (int, 1, 256, "determinizations each candidate is played in, 1..256"),
    "turns": (int, 0, 16, "turns after the bot's own played out before scoring, 0..16"),
    "margin": (float, 0.0, 1000.0, "VP below the base's best value a candidate may be, 0..1000 (logits for a net: lead=FILE)"),
}
PATH_OPTIONS = {"lead": "a net file (python -m experiments.net_pack) whose bot is the base instead of the cartographer"}


def parse_options(text: str) -> dict[str, Any]:
    """``"k=4:worlds=8"`` -> keyword arguments of ``RolloutBot``; a bad key or value raises
    ``UnknownBotError`` naming it and what is allowed."""
    numbers = [f"{k}={what}" for k, (_t, _lo, _hi, what) in OPTIONS.items()]
    allowed = "; ".join([*numbers, *(f"{k}=PATH, {what}" for k, what in PATH_OPTIONS.items())])
    out: dict[str, Any] = {}
    for part in text.split(":"):
        key, eq, raw = (x.strip() for x in part.partition("="))
        key = key.lower()
        if key in PATH_OPTIONS and key not in out:
            if not raw:
                raise UnknownBotError(f"rollout: {key} needs a path, e.g. {key}=models/cartographer-worth.pt")
            out[key] = raw
            continue
        if key not in OPTIONS and key not in PATH_OPTIONS:
            raise UnknownBotError(f"rollout: unknown option {part.strip()!r} in {text!r}; allowed options: {allowed}")
        if key in out:
            raise UnknownBotError(f"rollout: option {key!r} is given twice")
        kind, lo, hi, what = OPTIONS[key]
        try:
            value = kind(raw) if eq else None
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or not lo <= value <= hi:
            raise UnknownBotError(
                f"rollout: bad value {part.strip()!r}; {key} is the number of {what}"
                if kind is int
                else f"rollout: bad value {part.strip()!r}; {key} is {what}"
            )
        out[key] = value
    return out


class RolloutBot:
    """See the module docstring. ``searches`` and ``changed`` count the decisions rolled out and
    those where the rollouts overruled the base's choice (for reports; they never steer one)."""

    name = "rollout"

    def __init__(self, k: int = 3, worlds: int = 4, turns: int = 2, margin: float = 3.0, lead: str | None = None):
        self.k = k
        self.worlds = worlds
        self.turns = turns
        self.margin = margin  # below the base's best (VP, or a net's logits) that a candidate may be and still be rolled out
        self.judge = Cartographer()  # its estimate scores where the rollouts stop
        self.base: Any = self.judge
        if lead is not None:
            from .net_bot import NetBot

            self.base = NetBot(lead)  # a bad file raises NetFileError, an UnknownBotError
        self.model = Cartographer()  # plays the other seats inside the rollouts
        given = {"k": k, "worlds": worlds, "turns": turns, "margin": margin, "lead": lead}
        defaults = RolloutBot.__init__.__defaults__ or ()
        self.name = ":".join(["rollout", *(f"{n}={v}" for (n, v), d in zip(given.items(), defaults) if v != d)])
        # (candidates, their summed continuation values over the worlds / worlds) of the last
        # decision rolled out, else None: the values a DAgger file records as the teacher's
        self.last_values: tuple[list[int], list[float]] | None = None
        self.searches = 0
        self.changed = 0

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int:
        self.last_values = None
        choice = self.base.decide(view, legal_actions, rng)
        last = getattr(self.base, "last_logits", None) or getattr(self.base, "last_values", None)
        if last is None or view.game.decision()[0] != "turn":
            return choice
        cands = best_candidates(last, choice, self.k, self.margin)
        if len(cands) < 2:
            return choice
        self.searches += 1
        best = self.roll(view, cands, rng)
        self.changed += best != choice
        return best

    def roll(self, view: View, cands: list[int], rng: random.Random) -> int:
        """The candidate whose continuations score best summed over the worlds (ties: the earlier
        candidate in ``cands``, the base's best values first)."""
        game = view.game
        seat = view.seat
        h = horizon(game.state)
        last_turn = game.state.turn + self.turns
        totals = dict.fromkeys(cands, 0.0)
        worlds = [game, *(view.sample(rng) for _ in range(self.worlds - 1))]
        for world in worlds:
            seed = rng.getrandbits(32)
            for a in cands:
                g = world.clone()
                g.apply(a)
                r = random.Random(seed)
                st = g.state
                for _ in range(MAX_DECISIONS):
                    if st.over or st.turn > last_turn:
                        break
                    legal = g.legal_actions()
                    if len(legal) == 1:
                        g.apply(legal[0])
                        continue
                    bot = self.base if st.current == seat else self.model
                    g.apply(bot.decide(InnerView(g, st.current), legal, r))  # type: ignore[arg-type]
                totals[a] += evaluate(g, seat, self.judge.estimate, h)
        self.last_values = (list(cands), [totals[a] / len(worlds) for a in cands])
        return max(cands, key=lambda a: (totals[a], -cands.index(a)))
