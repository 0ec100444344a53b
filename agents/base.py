"""The one interface every bot implements, and the seat-limited view it decides from.

A bot never receives the true game. ``View`` wraps a *determinized* copy: deck orders the seat
has not seen, other players' private draws and the game's random generator are resampled from
the bot's own generator, so no code path (not even introspection) can reach hidden information.
Lookahead uses ``view.sample(rng)`` for further independent determinizations.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from wayfarers_env import Game


class View:
    """What one seat may know about a game, as a playable (determinized) Game."""

    __slots__ = ("seat", "_source", "_seed", "_game")

    def __init__(self, game: Game, seat: int, rng: random.Random):
        self.seat = seat
        self._source = game  # private: only ever read through determinize()
        self._seed = rng.getrandbits(64)
        self._game: Game | None = None

    @property
    def game(self) -> Game:
        """A determinized copy, built on first use (a random bot never pays for it)."""
        if self._game is None:
            self._game = self._source.determinize(self.seat, random.Random(self._seed))
            self._source = None
        return self._game

    def sample(self, rng: random.Random) -> Game:
        """Another independent determinization, for search."""
        return self.game.determinize(self.seat, rng)

    # conveniences that bots use a lot
    @property
    def state(self):
        return self.game.state

    @property
    def me(self):
        return self.game.state.players[self.seat]

    def decision(self) -> tuple[str, tuple]:
        return self.game.decision()


@runtime_checkable
class Bot(Protocol):
    """``decide(view, legal_actions, rng) -> action``; ``name`` identifies it in results."""

    name: str

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int: ...


def choose(bot: Bot, game: Game, rng: random.Random) -> int:
    """Ask ``bot`` for the current decision of ``game``, through a seat-limited view."""
    seat = game.current_player
    legal = game.legal_actions()
    action = bot.decide(View(game, seat, rng), legal, rng)
    if action not in legal:
        raise ValueError(f"bot {bot.name!r} chose illegal action {action!r}; legal: {legal}")
    return action
