"""Random games over 2, 3 and 4 players and random board sides, checking the conservation laws
(tests/invariants.py) after every action, that every legal action applies, that illegal ones
raise and change nothing, and that every game ends.

The default suite plays 1,000 games; ``pytest -m slow`` plays 5,000 more. Most games use an
"eager" random policy (it prefers doing something over declining or resting) because purely
uniform play wanders for ~1,000 turns; every tenth game is purely uniform.
"""

from __future__ import annotations

import random

import pytest
from invariants import check
from invariants_tides import check_tides

from wayfarers_env import NUM_ACTIONS, Game, GameConfig, IllegalActionError
from wayfarers_env.rules.actions import CATALOG

PASSIVE = {CATALOG.DONE, CATALOG.SKIP, CATALOG.REST}
MAX_DECISIONS = 200_000


CARD_INFLUENCE = ("both", "ink_well", "cards")


def play_checked(seed: int, full_every: int, tides: bool = False) -> Game:
    config = GameConfig(num_players=2 + seed % 3, board_sides="random")
    if tides:  # the three card-influence settings in turn, across 2-4 players
        config = GameConfig(
            num_players=2 + seed % 3, board_sides="random", tides_of_trade=True, card_influence=CARD_INFLUENCE[seed // 3 % 3]
        )
    g = Game(config, seed=seed)
    rng = random.Random(seed)
    uniform = seed % 10 == 0
    steps = 0
    while not g.is_over:
        check(g)
        if tides:
            check_tides(g)
            if seed % 5 == 0 and steps % 97 == 0:  # a save mid-game loads back to the same game
                saved = g.to_dict()
                g = Game.from_dict(saved)
                assert g.to_dict() == saved
        legal = g.legal_actions()
        if steps % full_every == 0:
            for a in legal:
                g.clone().apply(a)  # must not raise
            before = g.to_dict()
            for a in rng.sample(range(NUM_ACTIONS), 8):
                if a not in legal:
                    with pytest.raises(IllegalActionError):
                        g.apply(a)
            assert g.to_dict() == before
        active = [a for a in legal if a not in PASSIVE]
        if not uniform and active and rng.random() < 0.95:
            a = rng.choice(active)
        else:
            a = rng.choice(legal)
        g.apply(a)
        steps += 1
        assert steps < MAX_DECISIONS, "game did not end"
    check(g)
    scores = g.scores()
    assert all(s["total"] == sum(v for k, v in s.items() if k != "total") for s in scores)
    assert g.winners()
    return g


def play_chunk(seeds: range, full_every: int, tides: bool = False, full_first: bool = True) -> None:
    """Play and check each seed's game; with ``full_first`` the chunk's first game tries every legal
    action at every step."""
    limited = 0
    for seed in seeds:
        every = 1 if full_first and seed == seeds[0] else full_every
        limited += play_checked(seed, full_every=every, tides=tides).ended_by_turn_limit
    # the turn limit is a safety net for games whose decks ran dry with no open route: rare
    assert limited <= 3


@pytest.mark.parametrize("chunk", range(20))
def test_fuzz_random_games(chunk):
    """1,000 games in 20 chunks of 50 (small chunks keep both test workers busy to the end)."""
    play_chunk(range(chunk * 50, chunk * 50 + 50), full_every=25)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(50))
def test_fuzz_random_games_slow(chunk):
    play_chunk(range(10_000 + chunk * 100, 10_000 + chunk * 100 + 100), full_every=5, full_first=False)


@pytest.mark.parametrize("chunk", range(6))
def test_fuzz_tides_of_trade_games(chunk):
    """300 Tides of Trade games (2-4 players, the three card-influence settings, random board and
    extension sides) with the expansion's conservation laws (tests/invariants_tides.py) too; every
    fifth game saved and loaded back mid-game."""
    play_chunk(range(chunk * 50, chunk * 50 + 50), full_every=25, tides=True)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(50))
def test_fuzz_tides_of_trade_games_slow(chunk):
    play_chunk(range(20_000 + chunk * 100, 20_000 + chunk * 100 + 100), full_every=5, tides=True, full_first=False)


def test_turn_limit_ends_a_game_nobody_can_finish():
    """Found by this fuzz run (seed 641, 4 players): every deck ran dry with no open route to a
    final space. GameConfig.max_turns ends such a game and scores it as it stands."""
    g = Game(GameConfig(num_players=2, max_turns=12), seed=0)
    rng = random.Random(0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.ended_by_turn_limit and g.state.turn == 12
    assert g.winners() and all(s["total"] >= 0 for s in g.scores())
