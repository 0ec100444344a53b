"""The training loop's bookkeeping for ``wayfarers train`` (experiments/train.py), as an SB3
callback: checkpoints, self-play snapshots, evaluations, the fade of the potential shaping, the
per-opponent statistics written to TensorBoard, and the opponent shares leaning toward losses.
Kept apart from train.py so that reading a config needs no torch or SB3."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from experiments.opponents import SELF


class StepMajorBuffer(MaskableRolloutBuffer):
    """MaskablePPO's rollout buffer, flattened for the update without a copy. SB3 flattens every
    field env-major (swap the step and env axes, then reshape), which copies the whole rollout:
    4,096 observations of 9,633 floats (158 MB) a rollout, ~30% of the default config's update
    (``python -m benchmarks.train_split``). Step-major flattening is a view; every field is
    flattened the same way and the minibatches are drawn by a random permutation anyway, so only
    which random permutation picks a sample changes."""

    @staticmethod
    def swap_and_flatten(arr: np.ndarray) -> np.ndarray:
        shape = arr.shape if arr.ndim >= 3 else (*arr.shape, 1)
        return arr.reshape(shape[0] * shape[1], *shape[2:])


def shaping_scale(cfg: dict[str, Any], steps: int) -> float:
    """The potential shaping's weight after ``steps`` learner steps: 1, falling linearly to 0 at
    shaping.fade_steps (0: always 1). The shaping only hints where the win lies; left on, it would
    keep pulling the policy toward the bots' own idea of a good position."""
    fade = cfg["shaping"]["fade_steps"]
    return 1.0 if not fade else max(0.0, 1.0 - steps / fade)


class OpponentStats:
    """Episode outcomes per opponent: what the last rollout saw (TensorBoard) and the last
    ``window`` results (the shares leaning toward losses)."""

    def __init__(self, window: int):
        self.window = window
        self.recent: dict[str, deque[float]] = {}
        self.clear()

    def clear(self) -> None:
        self.rollout: dict[str, dict[str, float]] = {}

    def add(self, info: dict[str, Any]) -> None:
        name = info["opponent"]
        row = self.rollout.setdefault(name, {"episodes": 0, "won": 0.0, "margin": 0.0, "decisions": 0})
        row["episodes"] += 1
        row["won"] += info.get("won", 0.0)
        row["margin"] += info.get("margin", 0.0)
        row["decisions"] += info.get("decisions", 0)
        self.recent.setdefault(name, deque(maxlen=self.window)).append(info.get("won", 0.0))

    def win_rate(self, name: str) -> float | None:
        got = self.recent.get(name)
        return sum(got) / len(got) if got else None

    def shares(self, base: dict[str, float], floor: float) -> dict[str, float]:
        """``base x ((1 - win rate) + floor)``: an opponent not yet met counts as never beaten."""
        out = {name: share * ((1.0 - (self.win_rate(name) or 0.0)) + floor) for name, share in base.items()}
        return out if sum(out.values()) > 0 else dict(base)

    def state(self) -> dict[str, list[float]]:
        return {name: list(d) for name, d in self.recent.items()}

    def restore(self, state: dict[str, list[float]]) -> None:
        self.recent = {name: deque(values, maxlen=self.window) for name, values in state.items()}


class Trainer(BaseCallback):
    """The training loop's bookkeeping, as an SB3 callback: checkpoints, self-play snapshots,
    evaluations (each at its ``every``, counted from where a resumed run starts), the shaping's
    fade, per-opponent statistics for TensorBoard (``opponents/NAME/...``) and the shares
    leaning toward the opponents the learner loses to."""

    def __init__(self, cfg: dict[str, Any], out: Path | None, on_eval=None, on_checkpoint=None):
        super().__init__()
        self.cfg, self.out = cfg, out
        self.on_eval, self.on_checkpoint = on_eval, on_checkpoint
        opp = cfg["opponents"]
        self.stats = OpponentStats(opp["window"])
        self.selfplay_mix = SELF in opp["mix"] and opp["mix"][SELF] > 0
        self.pool: list[str] = []

    def _next(self, every: int) -> int:
        return (self.num_timesteps // every + 1) * every

    def _on_training_start(self) -> None:
        tr, ev, sp = self.cfg["training"], self.cfg["evaluation"], self.cfg["selfplay"]
        self.next_eval = self._next(ev["every"])
        self.next_ckpt = self._next(tr["checkpoint_every"])
        self.next_snap = self._next(sp["snapshot_every"])

    def _on_rollout_start(self) -> None:
        if self.cfg["shaping"]["potential"]:
            self.training_env.env_method("set_shaping_scale", shaping_scale(self.cfg, self.num_timesteps))

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"]):
            if done and "opponent" in info:
                self.stats.add(info)
        if self.out is None:
            return True
        steps = self.num_timesteps
        tr, ev, sp = self.cfg["training"], self.cfg["evaluation"], self.cfg["selfplay"]
        if steps >= self.next_ckpt:
            if self.on_checkpoint is not None:
                self.on_checkpoint(steps, self.stats)
            self.next_ckpt = self._next(tr["checkpoint_every"])
        if (sp["enabled"] or self.selfplay_mix) and steps >= self.next_snap:
            path = self.out / "checkpoints" / f"selfplay_{steps}.zip"
            self.model.save(path)
            self.pool.append(str(path))
            del self.pool[: -sp["pool_size"]]
            self.training_env.env_method("set_frozen", list(self.pool))
            self.next_snap = self._next(sp["snapshot_every"])
        if steps >= self.next_eval:
            if self.on_eval is not None:
                self.on_eval(steps)
            self.next_eval = self._next(ev["every"])
        return True

    def _on_rollout_end(self) -> None:
        """Log what the rollout's finished episodes saw per opponent; lean the shares."""
        opp = self.cfg["opponents"]
        total = sum(r["decisions"] for r in self.stats.rollout.values()) or 1
        for name, r in sorted(self.stats.rollout.items()):
            n = r["episodes"]
            self.logger.record(f"opponents/{name}/win_rate", r["won"] / n)
            self.logger.record(f"opponents/{name}/margin", r["margin"] / n)
            self.logger.record(f"opponents/{name}/episode_decisions", r["decisions"] / n)
            self.logger.record(f"opponents/{name}/decision_share", r["decisions"] / total)
        self.stats.clear()
        if self.cfg["shaping"]["potential"]:
            self.logger.record("shaping/scale", shaping_scale(self.cfg, self.num_timesteps))
        if opp["mix"] and opp["toward_losses"]:
            shares = self.stats.shares(opp["mix"], opp["floor"])
            self.training_env.env_method("set_shares", shares)
            for name, share in shares.items():
                self.logger.record(f"opponents/{name}/share_set", share / sum(shares.values()))


class MasksInInfo(VecEnvWrapper):
    """The legal-action masks come back with each step (in the info, or the reset info after an
    episode ends), so MaskablePPO's ``env_method("action_masks")`` is answered here instead of by
    a second round trip to every env process per step (8 pipe writes and reads, and 8 processes
    woken, for a few hundred bytes each)."""

    def __init__(self, venv: VecEnv):
        super().__init__(venv)
        self._masks: list[np.ndarray] = []

    def reset(self):
        obs = self.venv.reset()
        self._masks = [info["action_mask"] for info in self.venv.reset_infos]
        return obs

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, dones, infos = self.venv.step_wait()
        self._masks = [
            self.venv.reset_infos[i]["action_mask"] if done else info.pop("action_mask") for i, (done, info) in enumerate(zip(dones, infos))
        ]
        return obs, rewards, dones, infos

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        if method_name == "action_masks" and not args and not kwargs and indices is None:
            return list(self._masks)
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)
