"""The one interface every bot implements (``Bot``: ``decide(view, legal_actions, rng)``), the
seat-limited ``View`` it decides from, and ``choose``, which asks a bot through such a view.

They are defined by the environment layer (``wayfarers_env.envs.players``), which plays bots as
opponents; this module is where bot authors find them.
"""

from __future__ import annotations

from wayfarers_env import Game
from wayfarers_env.envs.players import Bot, View, choose

__all__ = ["Bot", "InnerView", "View", "choose"]


class InnerView:
    """The part of a ``View`` that a bot reads (a playable game and whose seat it is), for the bots
    a search plays inside its rollouts: their game is already one of the searcher's worlds, so a
    second determinization would only cost time."""

    __slots__ = ("game", "seat")

    def __init__(self, game: Game, seat: int):
        self.game = game
        self.seat = seat
