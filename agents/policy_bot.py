"""A trained policy (a saved sb3-contrib MaskablePPO ``.zip``) playing as an ordinary bot.

The policy sees exactly what the environment showed it in training: the observation of its own
seat (``wayfarers_env.envs.observation.encode``) built from the bot's determinized view, and the
action mask of the legal actions. By default it plays its most likely legal action; with
``deterministic=False`` it samples from the masked distribution with the bot's own generator,
so a seeded game still replays exactly.
"""

from __future__ import annotations

import random
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from wayfarers_env import Game
from wayfarers_env.rules.actions import NUM_ACTIONS

from .base import View
from .registry import UnknownBotError

Observer = Callable[[Game, int], Any]


def default_observer() -> Observer:
    """``wayfarers_env.envs.observation.encode``: the observation the training environment uses."""
    try:
        from wayfarers_env.envs.observation import encode
    except ImportError as exc:  # pragma: no cover - the module ships with the package
        raise ImportError(f"PolicyBot needs wayfarers_env.envs.observation.encode ({exc})") from None
    return encode


TRAIN_EXTRA = 'pip install -e ".[train]"'


class ModelFileError(UnknownBotError):
    """A model path that is not a MaskablePPO model for this game, so no policy bot can be built
    from it; the message names the path as the user gave it (SB3's own name ``PATH.zip.zip``)."""


class MissingModelError(ModelFileError, FileNotFoundError):
    """No file at the model path (also a FileNotFoundError, as callers of a missing path expect)."""


def model_file(path: str | Path) -> Path:
    """The saved model at ``path`` (or ``path.zip``, as SB3 looks it up), checked as a complete
    zip archive holding a policy, without loading torch: a bad file is reported before any wait."""
    given = str(path)
    p = Path(given)
    if not p.exists() and p.suffix != ".zip" and Path(given + ".zip").is_file():
        p = Path(given + ".zip")
    if not p.exists():
        raise MissingModelError(f"no trained policy at {given!r} (expected a MaskablePPO .zip saved by `wayfarers train`)")
    if not p.is_file():
        raise ModelFileError(f"{given!r} is a folder, not a model file (a run folder holds final_model.zip)")
    try:
        with zipfile.ZipFile(p) as archive:
            names = set(archive.namelist())
            broken = archive.testzip()
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise ModelFileError(f"{given!r} is not a readable model file: corrupt or truncated zip ({exc})") from None
    if broken is not None:
        raise ModelFileError(f"{given!r} is corrupt: {broken!r} inside it fails its checksum (a truncated copy?)")
    if not {"data", "policy.pth"} <= names:
        raise ModelFileError(f"{given!r} is a zip but not a model saved by `wayfarers train` (no data and policy.pth inside)")
    return p


def load_model(path: str | Path):
    """Load a MaskablePPO model on the CPU, with errors that say what to install or fix."""
    p = model_file(path)
    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError as exc:
        raise ImportError(f"a trained policy needs torch and sb3-contrib ({exc.name} is missing): {TRAIN_EXTRA}") from None
    torch.set_num_threads(1)  # tournaments run one game per process; threads would only contend
    try:
        model = MaskablePPO.load(str(p), device="cpu")
    except Exception as exc:  # noqa: BLE001 - SB3 raises many kinds for a file it cannot read
        detail = " ".join(str(exc).split()).split(". ")[0][:160]  # torch's messages run to paragraphs
        raise ModelFileError(f"{str(path)!r} could not be loaded as a MaskablePPO model ({type(exc).__name__}: {detail})") from None
    from wayfarers_env.envs.observation import OBS_SIZE, observation_bounds

    shape, n = getattr(model.observation_space, "shape", None), getattr(model.action_space, "n", None)
    if shape != (OBS_SIZE,) or n != NUM_ACTIONS:
        raise ModelFileError(
            f"{str(path)!r} was trained for observations {shape} and {n} actions; this game has ({OBS_SIZE},) and {NUM_ACTIONS}"
        )
    low, high = observation_bounds()  # the same size can hold another layout (v3's and v4's do): its bounds tell
    space: Any = model.observation_space
    if not (np.array_equal(space.low, low) and np.array_equal(space.high, high)):
        raise ModelFileError(f"{str(path)!r} was trained on another version of the observation (its bounds differ); retrain it")
    return model


def action_probs(policy: Any, obs: Any, mask: np.ndarray) -> np.ndarray:
    """The masked distribution a MaskablePPO policy samples from, over the whole catalog (0 off the
    mask): what a sampling bot draws from and what a search takes as its prior."""
    import torch

    with torch.inference_mode():
        dist = policy.get_distribution(policy.obs_to_tensor(obs)[0], action_masks=mask)
        return dist.distribution.probs.cpu().numpy()[0]


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
        probs = action_probs(self.model.policy, obs, mask)
        r = rng.random() * float(sum(probs[a] for a in legal_actions))
        acc = 0.0
        for a in legal_actions:
            acc += float(probs[a])
            if r <= acc:
                return a
        return legal_actions[-1]
