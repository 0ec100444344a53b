"""Misuse raises a clear error that names what was wrong and what is allowed, and changes nothing."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from wayfarers_env import IllegalActionError, env
from wayfarers_env.envs.aec import EnvStateError
from wayfarers_env.envs.wrappers import SingleAgentEnv


def state_of(e) -> tuple:
    raw = e.unwrapped
    return (
        raw.game.to_dict(),
        raw.agent_selection,
        list(raw.agents),
        dict(raw._cumulative_rewards),
        dict(raw.terminations),
        dict(raw.truncations),
        copy.deepcopy(raw.infos),
        raw.decisions,
    )


@pytest.fixture
def started():
    e = env(num_players=3)
    e.reset(seed=2)
    return e


def test_illegal_id_names_the_agent_decision_and_legal_ids(started):
    e = started
    before = state_of(e)
    agent = e.agent_selection
    legal = e.unwrapped.game.legal_actions()
    illegal = next(a for a in range(500) if a not in legal)
    with pytest.raises(IllegalActionError) as info:
        e.step(illegal)
    msg = str(info.value)
    assert agent in msg and "turn" in msg and str(legal) in msg and str(illegal) in msg
    assert state_of(e) == before
    for bad in (-1, 10**6, 2.5, "3", True):
        with pytest.raises(IllegalActionError, match="catalog|int id|not legal"):
            e.step(bad)
        assert state_of(e) == before
    e.step(np.int64(legal[0]))  # numpy integers are fine


def test_wrong_agent_and_none_for_a_live_agent(started):
    e = started
    before = state_of(e)
    cur = e.agent_selection
    other = next(a for a in e.agents if a != cur)
    legal = e.unwrapped.game.legal_actions()
    with pytest.raises(IllegalActionError, match=f"{other!r} cannot act now: it is {cur!r}"):
        e.step(legal[0], agent=other)
    assert state_of(e) == before
    with pytest.raises(IllegalActionError, match="None is only for done agents; legal ids"):
        e.step(None)
    assert state_of(e) == before
    e.step(legal[0], agent=cur)
    assert state_of(e) != before


def test_after_the_end():
    e = env(num_players=2, max_cycles=3)
    e.reset(seed=0)
    for _ in range(3):
        obs, *_ = e.last()
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(e.truncations.values())
    before = state_of(e)
    with pytest.raises(IllegalActionError, match="is done .* only valid action is None"):
        e.step(0)
    assert state_of(e) == before
    e.step(None)
    e.step(None)
    assert e.agents == []
    with pytest.raises(EnvStateError, match="episode is over.*reset"):
        e.step(None)
    e.reset(seed=1)
    assert len(e.agents) == 2


def test_before_reset():
    e = env(num_players=2)
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    raw = env(num_players=2).unwrapped
    with pytest.raises(EnvStateError, match="reset"):
        raw.step(0)
    with pytest.raises(EnvStateError, match="reset"):
        raw.observe("player_0")


def test_single_agent_env_errors():
    s = SingleAgentEnv(num_players=2, illegal_action="raise")
    with pytest.raises(EnvStateError, match="reset"):
        s.step(0)
    s.reset(seed=4)
    before = s.game.to_dict()
    illegal = int(np.flatnonzero(~s.action_masks())[0])
    with pytest.raises(IllegalActionError, match="not legal now"):
        s.step(illegal)
    assert s.game.to_dict() == before
    # the default ends the episode instead (Gymnasium tools step unmasked random actions)
    t = SingleAgentEnv(num_players=2)
    t.reset(seed=4)
    obs, reward, terminated, truncated, info = t.step(illegal)
    assert terminated and not truncated and reward == -1.0 and "not legal now" in info["illegal_action"]
    with pytest.raises(EnvStateError, match="episode is over"):
        t.step(0)
