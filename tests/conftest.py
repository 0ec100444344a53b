"""Shared helpers for the rules tests."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from wayfarers_env import Game
from wayfarers_env.content.loader import DATA_DIR
from wayfarers_env.rules.actions import action_id
from wayfarers_env.rules.scenario import build_scenario


def play(game: Game, *steps) -> Game:
    """Apply named actions: each step is (kind, *args) as for action_id, or a raw int id."""
    for step in steps:
        a = step if isinstance(step, int) else action_id(step[0], *step[1:])
        game.apply(a)
    return game


def can(game: Game, kind: str, *args) -> bool:
    return action_id(kind, *args) in game.legal_actions()


def leaves(game: Game) -> set[str]:
    """Names of the effect parts the current bag offers."""
    from wayfarers_env.rules.actions import CATALOG, LEAVES

    return {LEAVES[CATALOG.at[a]] for a in game.legal_actions() if a in CATALOG.LEAF}


def with_effect(spec: dict, text: str) -> Game:
    """The scenario's position with an effect waiting to be resolved by the current player (a
    resting ability's bag: no die context), loaded back through the save so that it is checked."""
    from wayfarers_env.content.effects import flatten, parse
    from wayfarers_env.rules.frames import FROM_REST, EffectBag

    game = build_scenario(spec)
    game.state.stack[:] = [EffectBag(tuple(flatten(parse(text))), FROM_REST)]  # as after the turn's main action
    return Game.from_dict(game.to_dict())


@pytest.fixture
def scenario():
    return build_scenario


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory):
    """An untrained MaskablePPO saved as `wayfarers train` saves one (its prior is not uniform):
    a policy file for the tests of what reads one (the guided search, the clone benchmark)."""
    pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from wayfarers_env.envs.wrappers import make_env

    env = make_env(num_players=2)()
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0, device="cpu", policy_kwargs={"net_arch": [16]})
    path = tmp_path_factory.mktemp("policy") / "tiny.zip"
    model.save(path)
    return path


def broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    """A copy of the data directory with one exact edit in one file (the edit must apply exactly once)."""
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    path = data / file
    source = path.read_text()
    assert source.count(old) == 1, f"test edit {old!r} does not match {file} exactly once"
    path.write_text(source.replace(old, new))
    return data


def shuffle_hidden(d: dict, seat: int, rng: random.Random) -> dict:
    """Permute each deck's cards at positions ``seat`` does not know (with their known-by masks)."""
    bit = 1 << seat
    for r, deck in enumerate(d["decks"]):
        known = d["known"][r]
        pos = [i for i in range(len(deck)) if not known[i] & bit]
        pairs = [(deck[i], known[i]) for i in pos]
        rng.shuffle(pairs)
        for i, (c, k) in zip(pos, pairs):
            deck[i], known[i] = c, k
    return d
