"""A trained policy (a saved sb3-contrib MaskablePPO ``.zip``) playing as an ordinary bot.

The policy sees exactly what the environment showed it in training: the observation of its own
seat (``wayfarers_env.observation.encode``) built from the bot's determinized view, and the
action mask of the legal actions. By default it plays its most likely legal action; with
``deterministic=False`` it samples from the masked distribution with the bot's own generator,
so a seeded game still replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from wayfarers_env import Game
from wayfarers_env.rules.actions import NUM_ACTIONS

from .base import View

Observer = Callable[[Game, int], Any]


def default_observer() -> Observer:
    """``wayfarers_env.observation.encode``: the observation the training environment uses."""
    try:
        from wayfarers_env.envs.observation import encode
    except ImportError as exc:  # pragma: no cover - the module ships with the package
        raise ImportError(f"PolicyBot needs wayfarers_env.observation.encode ({exc})") from None
    return encode


def load_model(path: str | Path):
    """Load a MaskablePPO model on the CPU, with errors that say what to install or fix."""
    p = Path(path)
    if not p.exists() and not p.with_suffix(".zip").exists():
        raise FileNotFoundError(f"no trained policy at {str(p)!r} (expected a MaskablePPO .zip saved by `wayfarers train`)")
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ImportError("a policy bot needs torch and sb3-contrib: pip install 'wayfarers[train]'") from None
    torch.set_num_threads(1)  # tournaments run one game per process; threads would only contend
    return MaskablePPO.load(str(p), device="cpu")


class PolicyBot:
    """``PolicyBot(path_or_model)``: a bot that asks a MaskablePPO policy for each decision."""

    def __init__(self, model: str | Path | Any, observe: Observer | None = None, deterministic: bool = True, name: str | None = None):
        if isinstance(model, (str, Path)):
            self.name = name or f"policy:{model}"
            self.model = load_model(model)
        else:
            if not hasattr(model, "predict"):
                raise TypeError(f"PolicyBot needs a path or a model with predict(), got {type(model).__name__}")
            self.name = name or "policy"
            self.model = model
        self.observe = observe or default_observer()
        self.deterministic = deterministic

    def mask(self, legal_actions: list[int]) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[legal_actions] = True
        return mask

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = self.observe(view.game, view.seat)
        mask = self.mask(legal_actions)
        if self.deterministic:
            action, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
            action = int(action)
        else:
            action = self._sample(obs, mask, legal_actions, rng)
        # a masked policy only picks legal ids; a model trained for another catalog might not
        return action if action in legal_actions else legal_actions[0]

    def _sample(self, obs: Any, mask: np.ndarray, legal_actions: list[int], rng: random.Random) -> int:
        import torch

        policy = self.model.policy
        with torch.no_grad():
            dist = policy.get_distribution(policy.obs_to_tensor(obs)[0], action_masks=mask)
            probs = dist.distribution.probs.cpu().numpy()[0]
        r = rng.random() * float(sum(probs[a] for a in legal_actions))
        acc = 0.0
        for a in legal_actions:
            acc += float(probs[a])
            if r <= acc:
                return a
        return legal_actions[-1]
