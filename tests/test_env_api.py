"""PettingZoo API conformance of the AEC environment, seeding, truncation and rewards."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

import wayfarers_env
from wayfarers_env import Game, GameConfig, env, raw_env
from wayfarers_env.envs.aec import SCORE_SCALE, final_rewards, rewards_from_keys
from wayfarers_env.envs.observation import OBS_SIZE
from wayfarers_env.rules.actions import NUM_ACTIONS
from wayfarers_env.rules.state import ConfigError

# api_test warns about these by design: our observation is the Dict that PettingZoo's own
# masked (classic) environments use, which it only exempts by name.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def play_random(e, rng: np.random.Generator, max_steps: int = 10**6, check_space: bool = False) -> int:
    """Play masked random actions through the AEC loop; return the number of steps."""
    steps = 0
    for agent in e.agent_iter(max_steps):
        obs, _rew, term, trunc, _info = e.last()
        if check_space:
            assert obs in e.observation_space(agent)
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_api_test(n):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(num_players=n), num_cycles=4000)  # long enough for a whole game
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_seed_test(n):
    seed_test(lambda: env(num_players=n), num_cycles=300)


def test_exports_and_spaces():
    assert wayfarers_env.env is env and wayfarers_env.raw_env is raw_env
    for n in (2, 3, 4):
        e = env(num_players=n)
        e.reset(seed=1)
        assert e.possible_agents == [f"player_{i}" for i in range(n)]
        for a in e.possible_agents:
            assert e.observation_space(a) is e.observation_space(a)
            assert e.action_space(a) is e.action_space(a)
            assert e.action_space(a).n == NUM_ACTIONS
            assert e.observation_space(a)["observation"].shape == (OBS_SIZE,)
            assert e.observation_space(a)["action_mask"].dtype == np.int8


def test_agent_selection_follows_the_decision_owner():
    e = env(num_players=3)
    e.reset(seed=5)
    game = e.unwrapped.game
    rng = np.random.default_rng(0)
    repeats = 0
    previous = None
    for agent in e.agent_iter(600):
        assert agent == f"player_{game.current_player}"
        obs, *_ = e.last()
        assert obs["action_mask"].sum() == len(game.legal_actions())
        repeats += agent == previous
        previous = agent
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert repeats > 100  # multi-decision turns are consecutive steps of one agent


@pytest.mark.parametrize("n", [2, 3, 4])
def test_max_cycles_truncates_every_agent(n):
    """What pettingzoo.test.max_cycles_test checks, with max_cycles counted in decisions.

    PettingZoo's own max_cycles_test cannot run here: it needs ``mod.parallel_env`` (a parallel
    view requires agents that act in a fixed cycle, but a turn here is several decisions of one
    agent), steps unmasked random ids (illegal here), and expects every agent to act max_cycles
    times, i.e. cycles counted per agent rather than in decisions as this env's spec says."""
    for k in (1, 4, 37):
        e = env(num_players=n, max_cycles=k)
        e.reset(seed=k)
        counts = dict.fromkeys(e.possible_agents, 0)
        live = 0
        for agent in e.agent_iter():
            counts[agent] += 1
            obs, reward, term, trunc, info = e.last()
            assert not term
            if trunc:
                assert info["truncated_at"] == k and "scores" in info
                assert reward == 0
                assert not obs["action_mask"].any()
                e.step(None)
            else:
                live += 1
                e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert live == k
        assert e.agents == []
        # every agent steps once more to be removed; nobody steps after the cut
        assert sum(counts.values()) == k + n
    e = env(num_players=n, max_cycles=None)
    e.reset(seed=3)
    play_random(e, np.random.default_rng(3))
    assert e.unwrapped.game.is_over


def test_rewards_arrive_at_the_end_with_cumulative_semantics():
    e = env(num_players=3, reward="rank")
    e.reset(seed=11)
    rng = np.random.default_rng(11)
    seen: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            seen[agent] = reward
            assert set(info["scores"]) == set(e.possible_agents)
            assert info["score"] == info["scores"][agent]
            assert info["score"]["total"] == sum(v for k, v in info["score"].items() if k != "total")
            assert 1 <= info["rank"] <= 3
            e.step(None)
            continue
        assert reward == 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = e.unwrapped.game
    expected = final_rewards(game, "rank")
    assert seen == {f"player_{i}": expected[i] for i in range(3)}
    assert sorted(seen.values()) == pytest.approx([-1.0, 0.0, 1.0]) or len(set(seen.values())) < 3


def test_reward_schemes():
    win = rewards_from_keys([(50, 1, 0, 0), (40, 3, 0, 0)], "win")
    assert win == [1.0, -1.0]
    # tie on VP broken by black influence
    assert rewards_from_keys([(50, 1, 0, 0), (50, 2, 0, 0)], "win") == [-1.0, 1.0]
    # a shared win: k winners get 1/k each, all tied: 0
    assert rewards_from_keys([(50, 1, 0, 0), (50, 1, 0, 0), (30, 0, 0, 0)], "win") == [0.5, 0.5, -1.0]
    assert rewards_from_keys([(50, 1, 0, 0)] * 2, "win") == [0.0, 0.0]
    assert rewards_from_keys([(50, 0, 0, 0), (35, 0, 0, 0), (52, 0, 0, 0)], "score") == pytest.approx(
        [-2 / SCORE_SCALE, -17 / SCORE_SCALE, 2 / SCORE_SCALE]
    )
    rank = rewards_from_keys([(10, 0, 0, 0), (40, 0, 0, 0), (20, 0, 0, 0), (30, 0, 0, 0)], "rank")
    assert rank == pytest.approx([-1.0, 1.0, -1 / 3, 1 / 3])
    tied = rewards_from_keys([(40, 0, 0, 0), (40, 0, 0, 0), (20, 0, 0, 0), (10, 0, 0, 0)], "rank")
    assert tied == pytest.approx([2 / 3, 2 / 3, -1 / 3, -1.0])
    with pytest.raises(ConfigError):
        rewards_from_keys([(1, 0, 0, 0)] * 2, "money")


def test_seeded_reset_is_the_engine_game_and_independent_of_global_random():
    e = raw_env(num_players=2)
    random.seed(1)
    np.random.seed(1)
    e.reset(seed=42)
    assert e.game.to_dict() == Game(GameConfig(num_players=2), seed=42).to_dict()
    first = [e.observe(a)["observation"] for a in e.agents]
    e.reset()
    follow_up = e.game.to_dict()
    random.seed(2)
    np.random.seed(2)
    e2 = raw_env(num_players=2)
    e2.reset(seed=42)
    assert all(np.array_equal(x, e2.observe(a)["observation"]) for x, a in zip(first, e2.agents))
    e2.reset()
    assert e2.game.to_dict() == follow_up


def test_same_seed_and_actions_give_same_observations_and_rewards():
    def trace(seed: int, max_cycles: int | None = None) -> list:
        e = env(num_players=2, reward="score", max_cycles=max_cycles)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out = []
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            out.append((agent, obs["observation"].tobytes(), reward))
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return out

    random.seed(0)
    a = trace(8)
    random.seed(99)
    np.random.seed(99)
    b = trace(8)
    assert a == b
    assert a != trace(9, max_cycles=100)


def test_config_errors_name_the_field():
    for kwargs, word in (
        ({"num_players": 5}, "num_players"),
        ({"board_sides": "abc"}, "board_sides"),
        ({"reward": "money"}, "reward"),
        ({"render_mode": "human"}, "render_mode"),
        ({"max_cycles": 0}, "max_cycles"),
    ):
        with pytest.raises(ConfigError, match=word):
            raw_env(**kwargs)


def test_terminate_illegal_wrapper_is_an_opt_in():
    e = TerminateIllegalWrapper(raw_env(num_players=2), illegal_reward=-1)
    e.reset(seed=0)
    agent = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert e.terminations[agent] and e._cumulative_rewards[agent] == -1


@pytest.mark.parametrize("extra", [{"content_options": ["tides_inspiration"]}, {"auto_forced": True}, {"board_sides": "bab"}])
def test_other_game_options_keep_the_same_spaces(extra):
    e = env(num_players=3, **extra)
    e.reset(seed=4)
    assert e.observation_space("player_0")["observation"].shape == (OBS_SIZE,)
    play_random(e, np.random.default_rng(4), check_space=True)
    raw = e.unwrapped
    assert raw.game.is_over and raw.agents == []
