"""Random solo games against each AI board, with and without Tides of Trade, checking the conservation
laws (tests/invariants.py, the AI's pieces included) after every action, that every legal action
applies and illegal ones raise and change nothing, and that every game ends with the AI's score.

The default suite plays 100 games per AI board; ``pytest -m slow`` plays 1,000 more per board.
"""

from __future__ import annotations

import random

import pytest
from invariants import check
from invariants_tides import check_tides

from wayfarers_env import NUM_ACTIONS, Game, GameConfig, IllegalActionError
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.solo import AI

PASSIVE = {CATALOG.DONE, CATALOG.SKIP, CATALOG.REST}


def play_solo(board: int, seed: int, full_every: int) -> Game:
    tides = seed % 2 == 1
    game = Game(GameConfig(num_players=1, solo_ai_board=board, tides_of_trade=tides), seed=seed)
    rng = random.Random(seed)
    steps = 0
    wants = 0
    while not game.is_over:
        check(game)
        if tides:
            check_tides(game)
        legal = game.legal_actions()
        assert game.current_player == 0
        wants += CATALOG.SOLO[0] in legal
        if steps % full_every == 0:
            for a in legal:
                game.clone().apply(a)  # must not raise
            before = game.to_dict()
            for a in rng.sample(range(NUM_ACTIONS), 8):
                if a not in legal:
                    with pytest.raises(IllegalActionError):
                        game.apply(a)
            assert game.to_dict() == before
        active = [a for a in legal if a not in PASSIVE]
        game.apply(rng.choice(active) if active and rng.random() < 0.95 else rng.choice(legal))
        steps += 1
        assert steps < 50_000, "game did not end"
    check(game)
    scores = game.scores()
    assert set(scores[AI]) - {"total"} <= {"ai_cards", "caravan", "guilds", "red_guild"}
    assert all(s["total"] == sum(v for k, v in s.items() if k != "total") for s in scores)
    assert game.winners()
    return game


@pytest.mark.parametrize("board", [1, 2, 3, 4])
def test_fuzz_solo_games(board):
    """100 games per AI board (every other one with Tides of Trade); the AI scores and the game ends by
    the journal, never by the turn limit."""
    ended = 0
    for seed in range(100):
        game = play_solo(board, seed, full_every=1 if seed == 0 else 40)
        ended += not game.ended_by_turn_limit
        assert game.scores()[AI]["total"] > 0
    assert ended == 100


@pytest.mark.slow
@pytest.mark.parametrize("board", [1, 2, 3, 4])
@pytest.mark.parametrize("chunk", range(5))
def test_fuzz_solo_games_slow(board, chunk):
    for seed in range(1000 + chunk * 200, 1000 + chunk * 200 + 200):
        play_solo(board, seed, full_every=10)
