"""sb3-contrib's MaskablePPO trains directly on SingleAgentEnv, in-process and under SubprocVecEnv."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")
sb3_contrib = pytest.importorskip("sb3_contrib")

from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv  # noqa: E402

from wayfarers_env.envs.wrappers import make_env  # noqa: E402

pytestmark = pytest.mark.train


def _learn(vec_env, steps: int):
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy",
        vec_env,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [32]},
    )
    model.learn(total_timesteps=steps)
    return model


def test_maskable_ppo_single_env():
    env = make_env(num_players=2, max_cycles=300)()
    model = _learn(DummyVecEnv([lambda: env]), 128)
    obs, _ = env.reset(seed=0)
    for _ in range(20):  # the trained policy only ever picks legal actions
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=False)
        assert mask[int(action)]
        obs, _r, term, trunc, _ = env.step(action)
        if term or trunc:
            obs, _ = env.reset()


def test_maskable_ppo_subproc_vec_env():
    fns = [make_env(num_players=n, seat="rotate", max_cycles=150) for n in (2, 3)]
    vec = SubprocVecEnv(fns)
    try:
        vec.seed(0)
        vec.reset()
        masks = np.stack(vec.env_method("action_masks"))
        assert masks.shape[0] == 2 and masks.any(axis=1).all()
        model = _learn(vec, 256)
        assert model.num_timesteps >= 256
    finally:
        vec.close()
