"""The single-agent Gymnasium view: Gymnasium's checker, opponents, seats, end-of-game rewards."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents.random_bot import RandomBot
from wayfarers_env.envs.aec import final_rewards
from wayfarers_env.envs.wrappers import SingleAgentEnv, make_env
from wayfarers_env.rules.state import ConfigError


def play(env: SingleAgentEnv, seed: int, max_steps: int = 10**6):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert obs in env.observation_space
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if terminated or truncated or steps >= max_steps:
            return reward, terminated, truncated, info, steps


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_gymnasium_check_env(n, render_mode):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(SingleAgentEnv(num_players=n, seat="rotate", render_mode=render_mode))
    # the only warning: no registry spec to build other render modes from
    assert all("spec" in str(w.message) for w in caught), [str(w.message) for w in caught]


def test_learner_gets_the_final_reward_even_when_an_opponent_ends_the_game():
    ended_by_opponent = 0
    for seed in range(6):
        calls: list[int] = []
        learner_steps = [0]

        def opponent(view, legal, rng, calls=calls, learner_steps=learner_steps):
            calls.append(learner_steps[0])
            return rng.choice(legal)

        env = SingleAgentEnv(opponents=opponent, num_players=2, seat=seed % 2, reward="score")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while True:
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            learner_steps[0] += 1
            if terminated or truncated:
                break
        assert terminated
        assert reward == pytest.approx(final_rewards(env.game, "score")[env.seat])
        assert info["scores"][env.agent] == info["score"]
        ended_by_opponent += calls[-1] == learner_steps[0] - 1  # an opponent moved after our last step
        assert not env.action_masks().any()
    assert ended_by_opponent > 0


@pytest.mark.parametrize("n", [3, 4])
def test_several_opponents_and_seat_modes(n):
    names = [f"bot{i}" for i in range(n - 1)]
    bots = []
    for name in names:
        bot = RandomBot()
        bot.name = name
        bots.append(bot)
    env = SingleAgentEnv(opponents=bots, seat="random", num_players=n, max_cycles=400)
    seats = set()
    for seed in range(8):
        env.reset(seed=seed)
        seats.add(env.seat)
        assert env.game.current_player == env.seat  # opponents moved first if needed
        reward, terminated, truncated, _info, _ = play(env, seed)
        assert truncated and reward == 0.0
    assert len(seats) > 1
    rot = SingleAgentEnv(seat="rotate", num_players=n, max_cycles=50)
    got = []
    for k in range(n + 1):
        rot.reset(seed=3 if k == 0 else None)
        got.append(rot.seat)
    assert got == [*range(n), 0]


def test_opponent_specs():
    assert SingleAgentEnv(opponents="random").opponents[0].name == "random"
    env = SingleAgentEnv(opponents=lambda view, legal, rng: legal[-1], num_players=3)
    assert len(env.opponents) == 2
    env.reset(seed=1)
    with pytest.raises(ConfigError, match="opponent"):
        SingleAgentEnv(opponents=["random"], num_players=3)
    with pytest.raises(ConfigError, match="unknown opponent name .nobody.*agents.make_bot"):
        SingleAgentEnv(opponents="nobody")
    from agents import make_bot  # named bots come from the agents package (the env layer does not import it)

    assert SingleAgentEnv(opponents=[make_bot("greedy"), "random"], num_players=3).opponents[0].name == "greedy"
    with pytest.raises(ConfigError, match="seat"):
        SingleAgentEnv(seat=2, num_players=2)


def test_determinism_and_global_random_independence():
    def run(seed):
        env = make_env(num_players=3, seat="random", max_cycles=600)()
        obs, _ = env.reset(seed=seed)
        out = [obs.tobytes()]
        rng = np.random.default_rng(0)
        done = False
        while not done:
            obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append((obs.tobytes(), reward))
            done = term or trunc
        return out

    random.seed(1)
    a = run(5)
    random.seed(2)
    np.random.seed(2)
    assert run(5) == a
    assert run(6) != a
