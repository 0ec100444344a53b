"""Opponent pools for training: heuristic bots and frozen copies of the learner (self-play).

A training environment draws its opponents afresh at every episode from a pool. Bots are named
as in ``agents.registry``; a frozen policy is a saved MaskablePPO ``.zip``, loaded once per
process and then used read-only, so subprocess workers can share a pool by file paths only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import gymnasium

from wayfarers_env.envs.wrappers import SingleAgentEnv


@lru_cache(maxsize=16)
def _load(path: str):
    from agents.policy_bot import load_model

    return load_model(path)


def FrozenPolicy(path: str, deterministic: bool = False):  # noqa: N802  (reads as a class)
    """A saved policy playing one seat, sampling its moves with the bot's own generator.
    Models are loaded once per process, so a self-play pool costs one load per snapshot."""
    from agents.policy_bot import PolicyBot

    return PolicyBot(_load(path), deterministic=deterministic, name=f"policy:{path}")


def make_opponent(spec: str) -> Any:
    """``spec``: a bot name (``random``, ``journal``...) or ``frozen:PATH`` for a saved policy."""
    if spec.startswith("frozen:"):
        return FrozenPolicy(spec[len("frozen:") :])
    from agents.registry import make_bot

    return make_bot(spec)


class PoolEnv(SingleAgentEnv):
    """SingleAgentEnv whose opponents are drawn from a pool at every reset.

    ``bots``: bot names; ``frozen``: saved policies (updated during self-play through
    ``set_frozen``, which SB3 vector envs reach with ``env_method``); ``bot_rate``: probability
    that an opponent is a bot rather than a frozen policy (1.0 when there is no frozen policy).
    ``shaping``: optional potential-based shaping for training only: each learner step also pays
    ``shaping`` times the change of (own VP - best opponent VP); over a whole game this adds
    ``shaping * final margin``, a dense hint towards the terminal win/loss reward.
    """

    def __init__(self, bots: list[str], bot_rate: float = 1.0, frozen: list[str] | None = None, shaping: float = 0.0, **kwargs: Any):
        self.bot_names = list(bots)
        self.bot_rate = float(bot_rate)
        self.frozen = list(frozen or [])
        self.shaping = float(shaping)
        self._margin = 0.0
        super().__init__(opponents="random", **kwargs)
        self._made: dict[str, Any] = {}
        self.last_opponents: list[str] = []

    def set_frozen(self, paths: list[str]) -> None:
        self.frozen = list(paths)

    def _opponent(self, spec: str) -> Any:
        if spec not in self._made:
            self._made[spec] = make_opponent(spec)
        return self._made[spec]

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is not None:
            self.np_random, _ = gymnasium.utils.seeding.np_random(seed)
        rng = self.np_random
        chosen = []
        for _ in range(self.num_players - 1):
            if self.frozen and rng.random() >= self.bot_rate:
                chosen.append("frozen:" + self.frozen[int(rng.integers(len(self.frozen)))])
            else:
                chosen.append(self.bot_names[int(rng.integers(len(self.bot_names)))])
        self.opponents = [self._opponent(s) for s in chosen]
        self.last_opponents = chosen
        obs, info = super().reset(seed=None, options=options)
        info["opponents"] = chosen
        self._margin = self._current_margin() if self.shaping else 0.0
        return obs, info

    def _current_margin(self) -> float:
        totals = [s["total"] for s in self.game.scores()]
        mine = totals[self.seat]
        return float(mine - max(t for k, t in enumerate(totals) if k != self.seat))

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = super().step(action)
        if self.shaping and "illegal_action" not in info:
            margin = self._current_margin()
            reward += self.shaping * (margin - self._margin)
            self._margin = margin
        if terminated or truncated:
            info["agent"] = self.agent
            info["opponents"] = list(self.last_opponents)
        return obs, reward, terminated, truncated, info
