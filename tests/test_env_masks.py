"""The action mask is exactly the legal set, over many seeded random episodes played through the
AEC API: every masked id applies on a clone, unmasked ids raise and change nothing, and the
cached observation always equals one built from scratch."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from wayfarers_env import IllegalActionError, env
from wayfarers_env.envs.observation import encode


def snapshot(raw) -> tuple:
    return (
        raw.game.to_dict(),
        raw.agent_selection,
        list(raw.agents),
        dict(raw.rewards),
        dict(raw._cumulative_rewards),
        dict(raw.terminations),
        dict(raw.truncations),
        copy.deepcopy(raw.infos),
        raw.decisions,
    )


def check_episode(n: int, seed: int, every: int, unmasked_samples: int) -> int:
    e = env(num_players=n)
    e.reset(seed=seed)
    raw = e.unwrapped
    rng = np.random.default_rng(seed)
    checked = 0
    for step, agent in enumerate(e.agent_iter()):
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask)
        assert len(legal) > 0, "a live agent always has a legal action"
        seat = raw.possible_agents.index(agent)
        # other agents see an all-zero mask
        for other in raw.agents:
            if other != agent:
                assert not raw.observe(other)["action_mask"].any()
        if step % every == 0:
            checked += 1
            game = raw.game
            assert sorted(legal.tolist()) == sorted(game.legal_actions())
            for a in legal:
                game.clone().apply(int(a))  # must not raise
            before = snapshot(raw)
            for a in rng.choice(np.flatnonzero(mask == 0), size=unmasked_samples, replace=False):
                with pytest.raises(IllegalActionError, match="not legal now"):
                    e.step(int(a))
                assert snapshot(raw) == before
            assert np.array_equal(obs["observation"], encode(game, seat))
        e.step(int(rng.choice(legal)))
    assert raw.game.is_over
    return checked


@pytest.mark.parametrize("n,seed", [(2, 0), (2, 1), (3, 2), (3, 3), (4, 4), (4, 5)])
def test_masks_both_ways_over_random_episodes(n, seed):
    assert check_episode(n, seed, every=4, unmasked_samples=2) > 200


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10, 40))
def test_masks_both_ways_long(seed):
    check_episode(2 + seed % 3, seed, every=1, unmasked_samples=5)


def test_each_mask_is_a_fresh_writable_array():
    """Masks are copied from ones kept per legal set (aec._legal_mask), so a caller that edits
    the mask it got (e.g. to forbid an action itself) must not change any later mask."""
    e = env(num_players=2)
    e.reset(seed=3)
    raw = e.unwrapped
    first = raw.observe(raw.agent_selection)["action_mask"]
    legal = np.flatnonzero(first).tolist()
    assert first.flags.writeable and first.dtype == np.int8
    first[:] = 0  # a caller's own edit
    again = raw.observe(raw.agent_selection)["action_mask"]
    assert again is not first
    assert np.flatnonzero(again).tolist() == legal == sorted(raw.game.legal_actions())
    # a second game reaching the same legal set gets a clean mask too
    other = env(num_players=2)
    other.reset(seed=3)
    assert np.flatnonzero(other.unwrapped.observe(other.unwrapped.agent_selection)["action_mask"]).tolist() == legal


def test_catalog_read_before_its_build_names_the_cause_and_the_built_one_has_no_hook():
    """An unbuilt catalog says when it is built; once built it is a plain ``Catalog`` (no
    ``__getattr__`` hook on the rules' hot attribute reads), and a wrong name is a plain
    AttributeError."""
    from wayfarers_env.rules import actions

    with pytest.raises(AttributeError, match="yet: it is built when wayfarers_env.rules.engine is imported"):
        actions._UnbuiltCatalog().REST  # noqa: B018
    assert type(actions.CATALOG) is actions.Catalog
    assert not hasattr(actions.Catalog, "__getattr__")
    with pytest.raises(AttributeError, match="NO_SUCH_SECTION"):
        actions.CATALOG.NO_SUCH_SECTION  # noqa: B018
