"""The cyclic / parallel view (wayfarers_env.cyclic): PettingZoo conformance (max_cycles_test,
api_test, parallel_api_test, seed tests), the cycle order and pass masks, illegal-action modes,
and that the view never changes the rules (a whole game replays identically on a plain Game)."""

from __future__ import annotations

import functools
import types
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, seed_test

import wayfarers_env
from wayfarers_env import Game, GameConfig, IllegalActionError
from wayfarers_env.envs.aec import final_rewards
from wayfarers_env.envs.cyclic import CyclicEnv, CyclicParallelEnv, cyclic_env, parallel_env
from wayfarers_env.envs.observation import OBS_SIZE, encode
from wayfarers_env.rules.actions import CATALOG, NUM_ACTIONS
from wayfarers_env.rules.state import ConfigError

# api_test warns about these by design (see test_env_api.py): the observation is a Dict with a mask
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def masked(obs: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def illegal_for(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


# ------------------------------------------------------------------ PettingZoo's own tests


@pytest.mark.parametrize("n", [2, 3, 4])
def test_pettingzoo_max_cycles_test(n):
    # max_cycles_test samples UNMASKED actions from the action spaces, so it needs the
    # "substitute" mode: an illegal id becomes a random legal one (SKIP for a passing agent)
    mod = types.SimpleNamespace(
        env=functools.partial(cyclic_env, num_players=n, illegal_action="substitute"),
        parallel_env=functools.partial(parallel_env, num_players=n, illegal_action="substitute"),
    )
    max_cycles_test(mod)


@pytest.mark.parametrize("n", [2, 3])
def test_pettingzoo_api_test_through_a_whole_game(n, monkeypatch):
    ends = []
    real_end = CyclicEnv._end
    monkeypatch.setattr(CyclicEnv, "_end", lambda self, *args, **kw: ends.append(kw["rewards"]) or real_end(self, *args, **kw))
    e = cyclic_env(num_players=n)
    e.reset(seed=n)  # api_test's own resets are unseeded: seed the env and the samplers to pin the games
    for i, a in enumerate(e.possible_agents):
        e.action_space(a).seed(i)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(e, num_cycles=6000)  # random games take 1,300-4,400 cycles
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected
    assert len(ends) == 1 and ends[0] is not None  # the game ended (rewards given), not truncated


@pytest.mark.parametrize("n", [2, 4])
def test_pettingzoo_parallel_api_test(n):
    e = parallel_env(num_players=n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(e, num_cycles=400)  # it sets e.max_cycles = 400: the truncation path
    assert not {str(w.message) for w in caught}
    assert e.cycles == 400 and not e.game.is_over and e.agents == []


@pytest.mark.parametrize("n", [2, 3])
def test_pettingzoo_seed_tests(n):
    seed_test(lambda: cyclic_env(num_players=n), num_cycles=200)
    # parallel_seed_test samples unmasked actions: substitution must be seeded too
    parallel_seed_test(lambda: parallel_env(num_players=n, illegal_action="substitute"), num_cycles=200)


def test_exports_spaces_and_config_errors():
    assert wayfarers_env.cyclic_env is cyclic_env and wayfarers_env.parallel_env is parallel_env
    assert isinstance(cyclic_env().unwrapped, CyclicEnv) and isinstance(parallel_env(), CyclicParallelEnv)
    p = parallel_env(num_players=3)
    assert p.possible_agents == ["player_0", "player_1", "player_2"]
    for a in p.possible_agents:
        assert p.observation_space(a)["observation"].shape == (OBS_SIZE,)
        assert p.action_space(a).n == NUM_ACTIONS
    for kwargs, word in (({"illegal_action": "ignore"}, "illegal_action"), ({"max_cycles": 0}, "max_cycles"), ({"reward": "x"}, "reward")):
        with pytest.raises(ConfigError, match=word):
            cyclic_env(**kwargs)
        with pytest.raises(ConfigError, match=word):
            parallel_env(**kwargs)


# -------------------------------------------------------------- cycle order and pass masks


def test_aec_cycles_in_seat_order_and_only_the_owner_decides():
    e = cyclic_env(num_players=3, max_cycles=None)
    e.reset(seed=5)
    raw = e.unwrapped
    game = raw.game
    rng = np.random.default_rng(5)
    order, decisions_per_cycle, decided = [], [], 0
    for agent in e.agent_iter(3 * 400):
        obs, reward, term, trunc, info = e.last()
        order.append(agent)
        assert reward == 0 and not term and not trunc
        if agent == f"player_{game.current_player}":
            assert sorted(np.flatnonzero(obs["action_mask"])) == sorted(game.legal_actions())
            decided += 1
        else:
            assert np.flatnonzero(obs["action_mask"]).tolist() == [CATALOG.SKIP]  # a pass, nothing else
        e.step(masked(obs, rng))
        if agent == "player_2":
            decisions_per_cycle.append(decided)
            decided = 0
    assert order == ["player_0", "player_1", "player_2"] * 400
    assert raw.cycles == 400
    assert min(decisions_per_cycle) >= 1  # a cycle always moves the game
    assert max(decisions_per_cycle) >= 2  # a decision handing over to a later seat is taken in the same cycle
    assert sum(decisions_per_cycle) == raw._core.inner.decisions


@pytest.mark.parametrize("k", [1, 7])
def test_max_cycles_counts_cycles(k):
    e = cyclic_env(num_players=4, max_cycles=k)
    e.reset(seed=k)
    counts = dict.fromkeys(e.possible_agents, 0)
    rng = np.random.default_rng(k)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        counts[agent] += 1
        if trunc:
            assert info["truncated_at"] == info["cycles"] == k and set(info["scores"]) == set(e.possible_agents)
            assert reward == 0 and not obs["action_mask"].any() and not term
            e.step(None)
        else:
            e.step(masked(obs, rng))
    assert counts == dict.fromkeys(e.possible_agents, k + 1)  # k live steps and one dead step each

    p = parallel_env(num_players=4, max_cycles=k)
    obs, _ = p.reset(seed=k)
    for cycle in range(1, k + 1):
        obs, rewards, terms, truncs, infos = p.step({a: masked(o, rng) for a, o in obs.items()})
        assert all(truncs.values()) == (cycle == k) and not any(terms.values())
    assert p.agents == [] and p.cycles == k and p._core.inner.decisions == k  # one decision per cycle
    assert infos["player_0"]["truncated_at"] == k


def test_parallel_owner_and_pass_masks():
    p = parallel_env(num_players=4)
    obs, infos = p.reset(seed=2)
    assert infos == {a: {} for a in p.possible_agents}
    rng = np.random.default_rng(2)
    handovers = 0
    for _ in range(300):
        owner = p.owner()
        assert owner == f"player_{p.game.current_player}"
        for a, o in obs.items():
            if a == owner:
                assert sorted(np.flatnonzero(o["action_mask"])) == sorted(p.game.legal_actions())
            else:
                assert np.flatnonzero(o["action_mask"]).tolist() == [CATALOG.SKIP]
        obs, rewards, terms, truncs, infos = p.step({owner: masked(obs[owner], rng)})  # passes may be omitted
        handovers += p.owner() != owner
        assert rewards == dict.fromkeys(p.possible_agents, 0.0)
    assert handovers > 10


# ------------------------------------------------------------- the view never changes the rules


def test_parallel_whole_game_replays_on_a_plain_game():
    p = parallel_env(num_players=3, reward="score", max_cycles=None)
    obs, _ = p.reset(seed=21)
    rng = np.random.default_rng(21)
    applied = []
    while p.agents:
        owner = p.owner()
        actions = {a: masked(o, rng) for a, o in obs.items()}
        applied.append(actions[owner])
        obs, rewards, terms, truncs, infos = p.step(actions)
    assert all(terms.values()) and not any(truncs.values())
    info = infos["player_0"]
    replay = Game(GameConfig(num_players=3), seed=info["game_seed"])
    for a in applied:
        replay.apply(a)
    assert replay.is_over and info["decisions"] == info["cycles"] == len(applied)
    assert info["scores"] == {f"player_{i}": s for i, s in enumerate(replay.scores())}
    assert info["winners"] == [f"player_{i}" for i in replay.winners()]
    expected = final_rewards(replay, "score")
    assert rewards == {f"player_{i}": expected[i] for i in range(3)}
    assert any(r != 0 for r in rewards.values())
    for i in range(3):
        assert np.array_equal(obs[f"player_{i}"]["observation"], encode(replay, i))
        assert not obs[f"player_{i}"]["action_mask"].any()


def test_aec_whole_game_rewards_arrive_once_at_the_end():
    e = cyclic_env(num_players=2, reward="rank", max_cycles=None)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    applied, final = [], {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            final[agent] = reward
            assert info["rank"] in (1, 2) and info["score"] == info["scores"][agent]
            e.step(None)
            continue
        assert reward == 0 and not trunc
        action = masked(obs, rng)
        if agent == f"player_{e.unwrapped.game.current_player}":
            applied.append(action)
        e.step(action)
    replay = Game(GameConfig(num_players=2), seed=info["game_seed"])
    for a in applied:
        replay.apply(a)
    assert replay.is_over
    expected = final_rewards(replay, "rank")
    assert final == {"player_0": expected[0], "player_1": expected[1]}


# --------------------------------------------------------------------- illegal actions


def test_raise_mode_names_the_id_and_the_legal_set_and_changes_nothing():
    e = cyclic_env(num_players=3)
    e.reset(seed=4)
    raw = e.unwrapped
    owner = e.agent_selection
    assert owner == f"player_{raw.game.current_player}"
    bad = illegal_for(e.last()[0]["action_mask"])
    before = raw.game.to_dict()
    with pytest.raises(IllegalActionError, match=rf"{owner}: action {bad} .*legal ids: \[") as exc:
        e.step(bad)
    assert str(raw.game.legal_actions()) in str(exc.value)
    with pytest.raises(IllegalActionError, match="not an action id"):
        e.step(None)
    with pytest.raises(IllegalActionError, match="outside the catalog"):
        e.step(NUM_ACTIONS)
    assert raw.game.to_dict() == before and e.agent_selection == owner and raw.cycles == 0
    # walk to a passing agent and give it the owner's legal action
    rng = np.random.default_rng(0)
    while e.agent_selection == f"player_{raw.game.current_player}":
        e.step(masked(e.last()[0], rng))
    passer, legal = e.agent_selection, raw.game.legal_actions()
    with pytest.raises(IllegalActionError, match=rf"{passer}: action {legal[0]} .*only legal id is SKIP = {CATALOG.SKIP}"):
        e.step(legal[0])
    assert e.agent_selection == passer

    p = parallel_env(num_players=3)
    obs, _ = p.reset(seed=4)
    owner = p.owner()
    before = p.game.to_dict()
    others = [a for a in p.agents if a != owner]
    good = masked(obs[owner], rng)
    with pytest.raises(IllegalActionError, match=others[0]):  # one bad pass stops the owner's move too
        p.step({owner: good, others[0]: good if good != CATALOG.SKIP else 0})
    with pytest.raises(IllegalActionError, match=owner):
        p.step({owner: illegal_for(obs[owner]["action_mask"])})
    with pytest.raises(IllegalActionError, match="not live"):
        p.step({owner: good, "player_9": CATALOG.SKIP})
    assert p.game.to_dict() == before and p.cycles == 0


def test_substitute_mode_applies_a_legal_action_and_reports_it():
    p = parallel_env(num_players=2, illegal_action="substitute")
    obs, _ = p.reset(seed=6)
    owner = first_owner = p.owner()
    passer = next(a for a in p.agents if a != owner)
    bad = illegal_for(obs[owner]["action_mask"])
    legal = p.game.legal_actions()
    obs, rewards, terms, truncs, infos = p.step({owner: bad, passer: legal[0]})
    sub = infos[owner]["substituted"]
    assert sub["requested"] == bad and sub["applied"] in legal
    assert infos[passer]["substituted"] == {"requested": legal[0], "applied": CATALOG.SKIP}
    replay = Game(GameConfig(num_players=2), seed=p._core.inner.game_seed)
    replay.apply(sub["applied"])
    assert p.game.to_dict() == replay.to_dict()  # exactly the substituted decision was applied
    # a legal step carries no report
    owner = p.owner()
    obs, *_, infos = p.step({owner: masked(obs[owner], np.random.default_rng(0))})
    assert all("substituted" not in i for i in infos.values())

    e = cyclic_env(num_players=2, illegal_action="substitute")
    e.reset(seed=6)
    assert e.agent_selection == first_owner
    e.step(bad)
    owner = first_owner
    assert e.infos[owner]["substituted"] == sub  # same seed, same substitution in both views


def test_substitution_is_uniform_over_the_legal_actions():
    e = cyclic_env(num_players=2, illegal_action="substitute")
    e.reset(seed=123)
    positions = []
    for _ in range(600):
        e.reset()
        legal = e.unwrapped.game.legal_actions()
        owner = e.agent_selection
        e.step(NUM_ACTIONS + 5)
        if len(legal) == 6:
            positions.append(legal.index(e.infos[owner]["substituted"]["applied"]))
    counts = np.bincount(positions, minlength=6)
    assert len(positions) > 200
    assert counts.min() > len(positions) / 6 * 0.6 and counts.max() < len(positions) / 6 * 1.4, counts
