"""A trained policy's opinion of a position, for a search to lean on (``ismcts:policy=PATH``).

Why apart from ``policy_bot``: a search asks two things a playing bot never does, the masked
probabilities of every legal action (a prior over the root's children) and the value head's
estimate of a position it reached in a rollout, and it asks them of games it cloned, not of the
view a bot is given. Torch is imported only when a guide is built, so the search bot without a
policy stays torch-free.

The observation is the training environment's (``wayfarers_env.envs.observation.encode``), for
the searching seat: what the network was trained on. The value is in the env's ``reward: win``
units (about +1 a sure win, -1 a sure loss, in two-player games).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from wayfarers_env import Game
from wayfarers_env.envs.observation import encode
from wayfarers_env.rules.actions import NUM_ACTIONS

from .policy_bot import action_probs, load_model


class Guide:
    """``Guide(path)``: a saved MaskablePPO model's policy and value, asked one position at a time."""

    def __init__(self, path: str | Path):
        import torch

        self.model = load_model(path)  # names a missing or foreign file in a ModelFileError (an UnknownBotError)
        self.policy = self.model.policy
        self.policy.set_training_mode(False)
        self._torch = torch
        self.calls = 0  # forward passes, for timing reports

    def _obs(self, game: Game, seat: int):
        return self.policy.obs_to_tensor(encode(game, seat))[0]

    def prior(self, game: Game, seat: int, legal: list[int]) -> dict[int, float]:
        """The policy's probability of each legal action (masked: they sum to 1)."""
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[legal] = True
        self.calls += 1
        probs = action_probs(self.policy, encode(game, seat), mask)
        return {a: float(probs[a]) for a in legal}

    def value(self, game: Game, seat: int) -> float:
        """The value head's estimate of ``seat``'s outcome from this position."""
        self.calls += 1
        with self._torch.inference_mode():
            return float(self.policy.predict_values(self._obs(game, seat))[0, 0])
