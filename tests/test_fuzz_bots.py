"""The heuristic bots' games, with the conservation laws (tests/invariants.py, and
tests/invariants_tides.py in expansion games) checked after every action.

Why beside tests/test_fuzz.py: random play rarely builds what a strategy builds on purpose (a
trader employed turn after turn, worker tiles stacked in one caravan, a Market Overseer resting,
the journal raced to its end), and the laws must hold on those lines too. Three games in four
are Tides of Trade games (2-4 players, the three card-influence settings in turn); the seats are
the four strategies, one in ten a random seat.

The default suite plays 8 games; ``pytest -m slow`` plays 200 more (seeds 1000-1399 and 2000-2299
of this loop were also played once by hand on 2026-11-27: 700 games, no failure).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from invariants import check
from invariants_tides import check_tides

from agents.base import choose
from agents.registry import make_bot
from wayfarers_env import Game, GameConfig

STRATEGIES = ("cartographer", "greedy", "journal", "astronomer")
CARD_INFLUENCE = ("both", "ink_well", "cards")
BOTS = {name: make_bot(name) for name in (*STRATEGIES, "random")}


def deal(seed: int) -> tuple[GameConfig, list[str]]:
    """The game of ``seed``: its setting and one bot per seat."""
    n = 2 + seed % 3
    if seed % 4:
        config = GameConfig(num_players=n, board_sides="random", tides_of_trade=True, card_influence=CARD_INFLUENCE[seed // 4 % 3])
    else:
        config = GameConfig(num_players=n, board_sides="random")
    r = random.Random(seed)
    return config, [r.choice(STRATEGIES) if r.random() < 0.9 else "random" for _ in range(n)]


def play_bots(seed: int) -> tuple[Game, Counter[str]]:
    """Play ``seed``'s game to its end, checking the laws after every action; returns the game and
    how often each decision kind was met."""
    config, players = deal(seed)
    game = Game(config, seed=seed)
    rngs = [random.Random(seed * 10 + k) for k in range(len(players))]
    kinds: Counter[str] = Counter()
    steps = 0
    while not game.is_over:
        check(game)
        if config.tides_of_trade:
            check_tides(game)
        seat = game.current_player
        kinds[game.decision()[0]] += 1
        game.apply(choose(BOTS[players[seat]], game, rngs[seat]))
        steps += 1
        assert steps < 100_000, f"seed {seed}: no end after {steps} decisions ({players})"
    check(game)
    for s in game.scores():
        assert s["total"] == sum(v for k, v in s.items() if k != "total")
    assert game.winners()
    return game, kinds


def test_bot_games_keep_the_laws_and_use_the_expansion():
    """Eight games (six of them Tides of Trade); the bots employ traders and take worker tiles in
    them, so the laws were checked where those pieces move, not only where they lie still."""
    kinds: Counter[str] = Counter()
    for seed in range(8):
        game, met = play_bots(seed)
        assert game.is_over and not game.ended_by_turn_limit
        kinds += met
    assert kinds["employ_trader"] > 0 and kinds["worker_tile_price"] > 0, kinds


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(8))
def test_bot_games_keep_the_laws_slow(chunk):
    for seed in range(5_000 + chunk * 25, 5_000 + chunk * 25 + 25):
        play_bots(seed)
