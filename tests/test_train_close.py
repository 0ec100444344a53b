"""Stopping the training envs' worker processes after a Ctrl-C (``experiments.train.close_vec_env``)."""

from __future__ import annotations

import importlib.util
import threading

import pytest

HAVE_TRAIN = importlib.util.find_spec("torch") is not None and importlib.util.find_spec("sb3_contrib") is not None


@pytest.mark.train
@pytest.mark.skipif(not HAVE_TRAIN, reason="needs the [train] extra")
def test_an_interrupted_step_does_not_hang_closing_the_workers():
    """A Ctrl-C between two workers' replies left SubprocVecEnv waiting; its own close then read a
    second reply from the worker already read, and blocked for ever (train hung on Ctrl-C)."""
    from experiments.train import close_vec_env, load_config, make_vec_env

    env = make_vec_env(load_config("experiments/configs/ppo_2p_vs_bots.yaml"), 2, seed=3)
    vec = env.venv.venv  # VecMonitor(MasksInInfo(SubprocVecEnv))
    env.reset()
    masks = vec.env_method("action_masks")
    vec.step_async([int(m.nonzero()[0][0]) for m in masks])
    vec.remotes[0].recv()  # worker 0's reply read; the interruption comes before worker 1's
    assert vec.waiting
    closer = threading.Thread(target=close_vec_env, args=(env,), kwargs={"interrupted": True}, daemon=True)
    closer.start()
    closer.join(timeout=60)
    assert not closer.is_alive(), "closing the interrupted workers blocked"
    assert vec.closed and not any(p.is_alive() for p in vec.processes)
    close_vec_env(env)  # the train command's finally: closing again is a no-op


@pytest.mark.train
@pytest.mark.skipif(not HAVE_TRAIN, reason="needs the [train] extra")
def test_workers_that_finished_their_step_close_the_usual_way():
    from experiments.train import close_vec_env, load_config, make_vec_env

    env = make_vec_env(load_config("experiments/configs/ppo_2p_vs_bots.yaml"), 2, seed=4)
    vec = env.venv.venv
    env.reset()
    close_vec_env(env)
    assert vec.closed and not any(p.is_alive() for p in vec.processes)
    assert all(p.exitcode == 0 for p in vec.processes)  # told to stop, not terminated
