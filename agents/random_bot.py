"""Uniform random play over the legal actions: the floor every other bot must beat."""

from __future__ import annotations

import random

from .base import View


class RandomBot:
    name = "random"

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int:
        return rng.choice(legal_actions)
