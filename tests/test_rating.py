"""The whole-run ratings (``experiments.stats.Rating``) that rank a tournament's leaderboard.

The online openskill ratings they replace ranked the loser of a 200-game match first when it
won the last games (docs/RESULTS.md, stop 34); a whole-run fit must depend on the results only.
"""

from __future__ import annotations

import math
import random

import pytest

from experiments.stats import Rating, SkillTable, fitted_ratings


def match(wins: int, losses: int, late_losses: int) -> list[tuple[list[str], list[int]]]:
    """A two-bot match: "a" wins ``wins`` games first, then loses ``losses``, the last
    ``late_losses`` of them at the very end (the order an online rating is swayed by)."""
    early = [(["a", "b"], [1, 2])] * wins + [(["a", "b"], [2, 1])] * (losses - late_losses)
    return early + [(["b", "a"], [1, 2])] * late_losses


def test_the_winner_of_a_match_is_rated_first_whatever_the_order_of_its_games():
    games = match(wins=119, losses=81, late_losses=60)  # 59.5% for "a", but its losses come last
    online = SkillTable()
    for names, places in games:
        online.rate(names, places)
    assert online.result()["a"]["mu"] < online.result()["b"]["mu"]  # the flaw this class fixes
    fit = fitted_ratings(games)
    assert fit["a"]["mu"] > fit["b"]["mu"] and fit["a"]["ordinal"] > fit["b"]["ordinal"]
    shuffled = list(games)
    random.Random(7).shuffle(shuffled)
    assert fitted_ratings(shuffled) == fit


def test_two_bots_are_rated_by_their_win_rate_on_openskill_s_scale():
    fit = fitted_ratings(match(wins=150, losses=50, late_losses=0))
    gap = fit["a"]["mu"] - fit["b"]["mu"]
    # the posterior mode is the logit of the win rate on the logistic scale, pulled in a little
    # by the prior (mu 25, sigma 25/3): a 75% win rate is a gap just under c * ln 3
    assert 0.9 * Rating.SCALE * math.log(3) < gap < Rating.SCALE * math.log(3)
    assert fit["a"]["mu"] + fit["b"]["mu"] == pytest.approx(2 * Rating.MU)
    # sigma is that of a rating against the field's mean: about half the gap's standard error
    se_gap = Rating.SCALE / math.sqrt(200 * 0.75 * 0.25)
    assert fit["a"]["sigma"] == pytest.approx(se_gap / 2, rel=0.05)


def test_more_games_shrink_sigma_and_a_lone_game_ranks_low():
    few = fitted_ratings(match(wins=6, losses=4, late_losses=0))
    many = fitted_ratings(match(wins=60, losses=40, late_losses=0))
    assert many["a"]["sigma"] < few["a"]["sigma"] / 2.5
    table = Rating()
    for names, places in match(wins=60, losses=40, late_losses=0):
        table.rate(names, places)
    table.rate(["c", "b"], [1, 2])  # one win for a newcomer
    r = table.result()
    assert r["c"]["mu"] > r["b"]["mu"] and r["c"]["ordinal"] < r["a"]["ordinal"]


def test_larger_tables_are_broken_into_pairs_with_shared_places_as_halves():
    table = Rating()
    table.rate(["a", "b", "c"], [1, 2, 2])
    games, ahead = table.pairs[(0, 1)]
    assert (games, ahead) == (0.5, 0.5)  # a ahead of b, weighted 1/(k-1)
    assert table.pairs[(1, 2)] == [0.5, 0.25]  # b and c share second place
    for _ in range(20):
        table.rate(["c", "b", "a"], [3, 2, 1])
    r = table.result()
    assert r["a"]["mu"] > r["b"]["mu"] > r["c"]["mu"]


def test_an_entrant_in_two_seats_and_an_empty_table():
    assert Rating().result() == {}
    table = Rating()
    table.rate(["random", "random"], [1, 2])
    assert table.pairs == {} and table.result() == {"random": {"mu": 25.0, "sigma": 0.0, "ordinal": 25.0}}
