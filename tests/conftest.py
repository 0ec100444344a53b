"""Shared helpers for the rules tests."""

from __future__ import annotations

import pytest

from wayfarers_env import Game
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
