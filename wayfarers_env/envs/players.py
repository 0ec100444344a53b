"""Who plays a seat that is not the learner: the bot interface, and the seat-limited view a bot
decides from.

A bot never receives the true game. ``View`` wraps a *determinized* copy: deck orders the seat
has not seen, other players' private draws and the game's random generator are resampled from
the bot's own generator, so no code path (not even introspection) can reach hidden information.
Lookahead uses ``view.sample(rng)`` for further independent determinizations. The environments
ask every opponent through ``choose``; the bots themselves live in the ``agents`` package.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from wayfarers_env.rules.engine import Game
from wayfarers_env.rules.state import GameState, PlayerState


class View:
    """What one seat may know about a game, as a playable (determinized) Game."""

    __slots__ = ("seat", "_source", "_seed", "_game")

    def __init__(self, game: Game, seat: int, rng: random.Random):
        self.seat = seat
        self._source: Game | None = game  # private: only ever read through determinize()
        self._seed = rng.getrandbits(64)
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """A determinized copy, built on first use (a random bot never pays for it)."""
        if self._game is None:
            assert self._source is not None
            self._game = self._source.determinize(self.seat, random.Random(self._seed))
            self._source = None
        return self._game

    def sample(self, rng: random.Random) -> Game:
        """Another independent determinization, for search."""
        return self.game.determinize(self.seat, rng)

    # conveniences that bots use a lot
    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def me(self) -> PlayerState:
        return self.game.state.players[self.seat]

    def decision(self) -> tuple[str, tuple]:
        return self.game.decision()


@runtime_checkable
class Bot(Protocol):
    """``decide(view, legal_actions, rng) -> action``; ``name`` identifies it in results."""

    name: str

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int: ...


class RandomBot:
    """Uniform random play over the legal actions: the floor every other bot must beat."""

    name = "random"

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int:
        return rng.choice(legal_actions)


def choose(bot: Bot, game: Game, rng: random.Random) -> int:
    """Ask ``bot`` for the current decision of ``game``, through a seat-limited view."""
    seat = game.current_player
    legal = game.legal_actions()
    action = bot.decide(View(game, seat, rng), legal, rng)
    if action not in legal:
        raise ValueError(f"bot {bot.name!r} chose illegal action {action!r}; legal: {legal}")
    return action
