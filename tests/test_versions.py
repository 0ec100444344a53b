"""The engine's change counters: ``GameState.seat_ver`` and ``GameState.board_ver``.

The observation encoder trusts them to skip players and board sections that did not change, so
a write the engine forgets to count would leave a stale observation. These tests play random
games and check, after every action, that whatever the counters call unchanged really is.
"""

from __future__ import annotations

import random

import pytest

from wayfarers_env import Game, GameConfig
from wayfarers_env.rules.state import GameState, PlayerState

# everything in the state but the players, the stack and what never changes or is not state;
# a new field is covered unless it is named here
NOT_BOARD = {"config", "tables", "n", "rng", "sides", "players", "stack", "decisions", "space_memo", "seat_ver", "board_ver"}
BOARD = tuple(name for name in GameState.__slots__ if name not in NOT_BOARD)


def _frozen(value):
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted(value.items()))
    return value


def board_of(g) -> tuple:
    return tuple(_frozen(getattr(g, name)) for name in BOARD)


def player_of(p) -> tuple:
    return tuple(_frozen(getattr(p, name)) for name in PlayerState.__slots__)


TIDES = {"tides_of_trade": True}


@pytest.mark.parametrize(
    "players,options,auto_forced,tides",
    [
        (2, (), False, {}),
        (3, ("tides_inspiration",), False, {}),
        (4, (), True, {}),
        (2, (), True, {}),
        (2, (), False, TIDES),
        (3, (), False, {**TIDES, "card_influence": "ink_well"}),
        (4, (), True, {**TIDES, "card_influence": "cards"}),
    ],
)
def test_counters_cover_every_change(players, options, auto_forced, tides):
    config = GameConfig(num_players=players, content_options=frozenset(options), auto_forced=auto_forced, **tides)
    checked_board = checked_seats = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(config, seed=100 + seed)
        g = game.state
        while not game.is_over:
            board, board_ver = board_of(g), g.board_ver
            seats, seat_ver = [player_of(p) for p in g.players], g.seat_ver[:]
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            if g.board_ver == board_ver:
                assert board_of(g) == board, f"seed {seed}, decision {g.decisions}: the board changed without board_ver"
                checked_board += 1
            for s, p in enumerate(g.players):
                if g.seat_ver[s] == seat_ver[s]:
                    assert player_of(p) == seats[s], f"seed {seed}, decision {g.decisions}: seat {s} changed without seat_ver"
                    checked_seats += 1
    # the counters must also be quiet often enough to be worth having
    assert checked_board > 1000 and checked_seats > 1000


def test_counters_are_not_saved():
    """Transient: a clone or a loaded game starts them afresh (its caches start empty too)."""
    game = Game(GameConfig(num_players=2), seed=3)
    for _ in range(40):
        game.apply(game.legal_actions()[0])
    assert game.state.board_ver > 0 and any(game.state.seat_ver)
    for other in (game.clone(), Game.from_dict(game.to_dict())):
        assert other.state.board_ver == 0 and other.state.seat_ver == [0, 0]
        assert "board_ver" not in game.to_dict() and "seat_ver" not in game.to_dict()


@pytest.mark.parametrize("players,tides", [(2, False), (4, False), (2, True), (3, True)])
def test_cached_legality_matches_a_cold_copy(players, tides):
    """The engine's legality caches (die-space needs, host tags, tile fits, sorted effect parts)
    are keyed by player identity and by what moves them; a loaded copy has new players and a
    cold memo, so its legal set is computed from scratch and must be the same at every decision."""
    config = GameConfig(num_players=players, tides_of_trade=tides)
    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        game = Game(config, seed=200 + seed)
        while not game.is_over:
            legal = game.legal_actions()
            cold = Game.from_dict(game.to_dict())
            assert cold.legal_actions() == legal, f"seed {seed}, decision {game.state.decisions}"
            compared += 1
            game.apply(legal[rng.randrange(len(legal))])
    assert compared > 5000
