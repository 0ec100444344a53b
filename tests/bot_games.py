"""Playing bots against each other in tests: one shared loop, so every bot's tests mean the same
thing by "the game seed S gives"."""

from __future__ import annotations

import random

from agents.base import Bot, choose
from wayfarers_env import Game, GameConfig


def play(bots: list[Bot], seed: int, limit: int) -> list[int]:
    """The first ``limit`` actions of a game of ``bots`` (one per seat) on deal ``seed``, each
    seat's bot deciding with its own generator seeded from the deal."""
    game = Game(GameConfig(num_players=len(bots)), seed)
    rngs = [random.Random(seed * 31 + k) for k in range(len(bots))]
    actions: list[int] = []
    while not game.is_over and len(actions) < limit:
        seat = game.current_player
        a = choose(bots[seat], game, rngs[seat])
        game.apply(a)
        actions.append(a)
    return actions
