"""Tides of Trade's scoring ("Scoring", ToT l.276-301): secondary sets, 2x2 squares in the caravans,
the full hourglass and the Red majority, added to the base game's (line numbers of
../shared/rules/tides-of-trade-rulebook.txt)."""

from __future__ import annotations

from wayfarers_env import build_scenario
from wayfarers_env.content.measures import TERM_INDEX
from wayfarers_env.rules.scoring import filled_squares, score_player
from wayfarers_env.vocabulary import RED

TIDES = {"num_players": 2, "tides_of_trade": True}


def test_three_vp_per_observatory_library_trading_post_set():
    """ToT l.282 "3VP for each complete set of 1 Observatory, 1 Library, and 1 Trading Post.
    Remember to also count any Tags in the Caravans." A worker tile's Trading Post counts."""
    g = build_scenario({"config": TIDES}).state
    p = g.players[0]
    p.counts[TERM_INDEX["observatory"]], p.counts[TERM_INDEX["library"]], p.counts[TERM_INDEX["trading_post"]] = 2, 3, 1
    assert score_player(g, 0)["secondary_sets"] == 3
    p.counts[TERM_INDEX["trading_post"]] = 2
    assert score_player(g, 0)["secondary_sets"] == 6
    plain = build_scenario({"config": TIDES}).state.players[0]
    tiled = build_scenario({"config": TIDES, "players": [{"worker_tiles": {"green": ["worker_tile.top1", "worker_tile.bottom9"]}}]})
    q = tiled.state.players[0]
    assert q.counts[TERM_INDEX["trading_post"]] == plain.counts[TERM_INDEX["trading_post"]] + 1  # bottom9 prints a Trading Post


def test_the_player_board_extension_prints_a_trading_post():
    """ToT l.106 Trading Posts appear "on the Player Board Extensions" (reading TIDES-QUESTIONS 16:
    one, counted for sets)."""
    base = build_scenario({"config": {"num_players": 2}}).state.players[0]
    tides = build_scenario({"config": TIDES}).state.players[0]
    assert tides.counts[TERM_INDEX["trading_post"]] == base.counts[TERM_INDEX["trading_post"]] + 1


def test_filled_squares_count_each_cell_in_several_squares():
    """ToT l.287 "Each Upgrade Tile may be used to help complete multiple squares": a 2x3 block
    holds two squares sharing a column."""
    block = 0b111 | 0b111 << 6  # rows 0-1, columns 0-2 of a 6-wide caravan
    assert filled_squares(block, 6, 3) == 2
    assert filled_squares((1 << 18) - 1, 6, 3) == 10


def test_caravan_squares_are_capped_at_8_and_2():
    """ToT l.289-291 "The maximum scoring for the Worker Caravan is 2VP. The maximum scoring for the
    Dice Caravan is 8VP." A full worker caravan (3 columns of 2) holds 2 squares."""
    full = {
        "yellow": ["worker_tile.top1", "worker_tile.bottom1"],
        "blue": ["worker_tile.top2", "worker_tile.bottom2"],
        "green": ["worker_tile.top3", "worker_tile.bottom3"],
    }
    g = build_scenario({"config": TIDES, "players": [{"worker_tiles": full}]}).state
    assert score_player(g, 0)["caravan_squares"] == 2
    two = {k: full[k] for k in ("yellow", "green")}  # not side by side: no square
    assert score_player(build_scenario({"config": TIDES, "players": [{"worker_tiles": two}]}).state, 0)["caravan_squares"] == 0
    g.players[0].cells = (1 << 18) - 1  # every dice-caravan cell covered: 10 squares, 8 VP
    assert score_player(g, 0)["caravan_squares"] == 8 + 2


def test_a_full_hourglass_scores_two():
    """ToT l.295 "2VP for having a Full Hourglass"."""
    g = build_scenario({"config": TIDES, "players": [{"hourglass": True}, {"hourglass": False}]}).state
    assert score_player(g, 0)["hourglass"] == 2 and score_player(g, 1)["hourglass"] == 0


def test_red_majority_scores_five_for_the_sole_leader():
    """ToT l.299 "5VP to the player with the most Influence in the Red Guild"; reading
    TIDES-QUESTIONS 9: a tie scores nobody, like the base game's guild majorities."""
    g = build_scenario({"config": TIDES, "players": [{"guild": {"red": 2}}, {"guild": {"red": 1}}]}).state
    assert [score_player(g, s)["red_guild"] for s in (0, 1)] == [5, 0]
    g.players[1].guild[RED] = 2
    assert [score_player(g, s)["red_guild"] for s in (0, 1)] == [0, 0]


def test_base_games_report_no_expansion_sources():
    """The base game is unchanged: its score sheet has no expansion lines."""
    s = score_player(build_scenario({"config": {"num_players": 2}}).state, 0)
    assert not {"secondary_sets", "caravan_squares", "hourglass", "red_guild"} & set(s)
    t = score_player(build_scenario({"config": TIDES}).state, 0)
    assert t["total"] == sum(v for k, v in t.items() if k != "total")
