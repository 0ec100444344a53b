"""Upgrade tiles (rulebook 'Upgrade Tiles' pp.12-13) and the journal track ('Journaling' p.7)."""

from __future__ import annotations

from conftest import can, leaves, play

from wayfarers_env.rules.actions import CATALOG, action_id
from wayfarers_env.rules.journal import moves
from wayfarers_env.rules.scenario import build_scenario


def _buy_tile(kind, **player):
    spec = {"players": [dict({"dice": [5], "silver": 5, "board": 1}, **player)]}
    g = build_scenario(spec)
    play(g, ("die", 5), ("space", "capital.reserve"), ("do", "tile_basic"))
    return g


def _positions(g):
    return [a for a in g.legal_actions() if a in CATALOG.TILE_AT]


def test_tiles_fit_on_the_paper_without_overlap():
    """p.12: tiles must fit into the caravan, cannot cover other tiles and must not sit off the
    paper (the printed camel and telescope cells are off it)."""
    g = _buy_tile("basic")
    play(g, ("tile_design", "tile.basic3"), ("tile_pay", "silver"))
    assert len(_positions(g)) == 16  # 18 cells minus the two printed ones; no flip for basic tiles
    assert not can(g, "tile_at", 1, 1) and not can(g, "tile_at", 1, 6)
    g = _buy_tile("basic", tiles=[["tile.land1", 2, 1]])
    play(g, ("tile_design", "tile.basic3"), ("tile_pay", "silver"))
    assert not can(g, "tile_at", 2, 1) and not can(g, "tile_at", 2, 2) and can(g, "tile_at", 2, 3)


def test_only_land_and_water_tiles_flip_and_nothing_rotates():
    """p.12: 'Tiles can be flipped (only relevant for Land and Water Upgrades), but can never be
    rotated.' A Space tile is always tall (1x2), a Land tile always wide (2x1)."""
    spec = {"players": [{"dice": [6], "silver": 6, "board": 1, "land": ["land.11"], "tucked": {"land.11": "townsfolk.30"}}]}
    g = build_scenario(spec)
    play(g, ("die", 6), ("space", "land.11"), ("do", "tile_space"), ("tile_design", "tile.space2"), ("tile_pay", "silver"))
    spots = _positions(g)
    rows_cols = {divmod((CATALOG.at[a]) // 2, 6) for a in spots}
    assert all((CATALOG.at[a]) % 2 == 0 for a in spots)  # never flipped
    assert {r for r, _c in rows_cols} == {0, 1}  # a tall tile anchors in the top two rows only
    g = build_scenario({"players": [{"dice": [1], "silver": 3, "board": 1, "land": ["land.1"]}]})
    play(g, ("die", 1), ("space", "land.1"), ("do", "tile_land"), ("tile_design", "tile.land1"), ("tile_pay", "silver"))
    assert can(g, "tile_at", 2, 1, True) and can(g, "tile_at", 2, 1, False)
    assert not can(g, "tile_at", 1, 6, False)  # would stick out of the grid


def test_flipped_land_tile_swaps_halves_and_reverses_the_arrow():
    g = build_scenario({"players": [{"tiles": [["tile.land1", 2, 1, 1]]}]})
    p = g.state.players[0]
    assert p.col[0][0] == 2 and p.col[1][5] == 1  # [camel | down]: a second camel on 1s, 2s go down


def test_covering_a_printed_bonus_pays_it_out():
    """p.12: 'Many spaces on the Caravan show pre-printed icons. These are immediate effects that
    players gain when covering them.' Board 1 prints a silver on row 1, column 3."""
    g = _buy_tile("basic")
    play(g, ("tile_design", "tile.basic3"), ("tile_pay", "silver"), ("tile_at", 1, 3))
    assert leaves(g) == {"silver"}


def test_special_tile_tags_count_like_card_tags():
    """p.13: special tile tags count for scoring, journaling and Vistas; primary tags score."""
    g = build_scenario({"players": [{"tiles": [["tile.special.city", 2, 2], ["tile.special.two_comets", 2, 3]]}]})
    p = g.state.players[0]
    assert p.counts[0] == 2 and p.counts[10] == 2  # capital city + special city; two comets
    assert g.scores()[0]["primary_tags"] == 2  # two cities


def test_full_caravan_takes_no_more_tiles():
    tiles = [["tile.basic1", r, c] for r, c in [(1, 2), (1, 3), (1, 4), (1, 5)]]
    tiles += [["tile.basic2", 2, c] for c in (1, 2)] + [["tile.basic3", 2, c] for c in (3, 4)] + [["tile.basic4", 2, c] for c in (5, 6)]
    tiles += [["tile.special.city", 3, 1], ["tile.special.vista", 3, 2], ["tile.special.harbour", 3, 3]]
    tiles += [["tile.special.open_water", 3, 4], ["tile.special.planet", 3, 5], ["tile.special.stars", 3, 6]]
    # four tile.basic1: the box holds one per player, so this caravan needs a 4-player game
    g = build_scenario({"config": {"num_players": 4}, "players": [{"dice": [5], "silver": 5, "tiles": tiles}]})
    play(g, ("die", 5), ("space", "capital.reserve"))
    assert leaves(g) == {"silver"}


# ------------------------------------------------------------------------- journal


def test_splotch_requirements_follow_the_board_side():
    """p.7: to cross an ink splotch the printed requirement must be met; each section's side
    prints different ones (10->20: side A 2 cities, side B 2 townsfolk cards)."""
    base = {"players": [{"node": "journal.1.1", "workers": {"green": 1}, "land": ["land.1"]}]}
    g = build_scenario(dict(base, sides="aaa"))
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"))
    assert can(g, "journal_to", "journal.2.1")  # two cities
    g = build_scenario(dict(base, sides="baa"))
    play(g, ("worker", "green"), ("card", "townsfolk", 4))
    assert "journal" not in leaves(g)  # side B: 2 townsfolk (has 1) or a land tile (has none)


def test_influence_splotch_spends_it():
    """p.7: 'Some ink splatches require players to spend Influence.'"""
    spec = {"sides": "aaa", "players": [{"node": "journal.4.1", "workers": {"green": 1}, "guild": {"black": 1}}]}
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.5.1"))
    assert g.state.players[0].guild[0] == 0
    spec["players"][0]["guild"] = {"black": 0}
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4))
    assert "journal" not in leaves(g)


def test_journal_tiles_are_never_removed_and_green_workers_go_to_the_first_arrival():
    """p.7: every player entering a tile's space resolves it; a green worker goes to the first
    player entering either space of its column."""
    spec = {
        "sides": "aaa",
        "players": [{"workers": {"green": 1}}, {"dice": [1], "tiles": [["tile.basic4", 2, 1]]}],
        "journal_tiles": {"journal.1.1": "journal_tile.6", "journal.1.2": "journal_tile.8"},
        "green": [True, False, True, True],  # seat 0's green worker is column 3's: column 1's is still there
    }
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.1.1"))
    assert g.state.players[0].workers[2] == 1 and g.state.green[0] is False
    assert leaves(g) == {"silver"}
    play(g, ("do", "silver"), ("done",))
    assert g.current_player == 1
    play(g, ("die", 1), ("space", "capital.library"), ("do", "journal"), ("journal_to", "journal.1.2"))
    assert g.state.players[1].workers[2] == 0  # the column's green worker is gone
    assert leaves(g) == {"provisions"}


def test_new_die_is_mandatory_on_the_die_columns():
    """p.15: 'When moving into these spaces, players must take a new Die from the reserve.'"""
    spec = {"sides": "aaa", "players": [{"node": "journal.1.1", "workers": {"green": 1}, "land": ["land.1"]}]}
    g = build_scenario(spec)
    p = g.state.players[0]
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.2.1"))
    assert p.dice_loc.count(-1) == 4 and p.dice_loc.count(-2) == 1
    assert leaves(g) == {"inspiration"}


def test_final_spaces_hold_one_marker_and_trigger_the_end():
    """p.7 and 'End of the game' p.18: the 5 final spaces take one marker each; reaching one
    triggers the end, then everyone, the trigger player included, has one more turn."""
    spec = {
        "sides": "aaa",
        "players": [
            {"node": "journal.9.1", "workers": {"green": 1}, "guild": {"black": 1}, "land": ["land.9", "land.10", "land.11"]},
            {"node": "journal.10.2"},
            {"node": "journal.0.1"},
        ],
        "config": {"num_players": 3},
        "end_trigger": 1,  # player 1 reached a final space first: the end is under way
    }
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"))
    assert not can(g, "journal_to", "journal.10.2")  # taken by player 1
    # the same table with nobody on a final space yet: player 0 triggers the end
    del spec["end_trigger"]
    spec["players"][1] = {}
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.10.1"))
    assert g.state.end_trigger == 0
    turns = []
    while not g.is_over:
        if g.decision()[0] == "turn":
            turns.append(g.current_player)
            play(g, ("rest",))
        else:
            g.apply(g.legal_actions()[-1])
    assert turns == [1, 2, 0]


def test_science_guild_extra_step_once_per_turn():
    """p.8 Guilds: Science 'When Journaling, move 1 additional space', and 'Players may only use
    each Guild's ability at most once per turn' (RULES-FACTS §7.4: offered after every journal
    step while unused this turn). After the extra step into journal.2.2 the player still has
    black influence and an open route on (2.2 -> 3.2 on side A needs 2 townsfolk cards: the
    capital's and the Messenger), so only the once-per-turn rule keeps a second step away."""
    spec = {
        "sides": "aaa",
        "players": [{"workers": {"green": 1}, "guild": {"black": 3}, "land": ["land.19"], "tucked": {"capital.city": "townsfolk.22"}}],
        "journal_tiles": {"journal.1.1": "journal_tile.6"},
    }
    g = build_scenario(spec)
    st = g.state
    p = st.players[0]
    nodes = st.tables.content.node_by_id
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.1.1"), ("done",))
    assert g.decision()[0] == "science_guild"
    play(g, ("black_guild",), ("journal_to", "journal.2.2"))  # 1.1 -> 2.2 needs a vista: land.19
    assert p.guild[0] == 2
    play(g, ("done",))  # decline 2.2's inspiration: the node's effects are over
    assert moves(st, black_reserved=1) == [nodes["journal.3.2"].index]  # a second step would be open and payable...
    assert g.decision()[0] != "science_guild"  # ...but is not offered
    assert leaves(g) == {"provisions"}  # back to the worker spot's other part
    play(g, ("done",))
    assert g.current_player == 1
    assert p.node == nodes["journal.2.2"].index and p.guild[0] == 2


def test_caravan_silver_discount_counts_once_on_a_tile():
    """p.13: 'When placing a Die with a discount icon shown in its column of the Caravan, that
    Die's entire action is discounted by 1 of the depicted resource.' (RULES-FACTS §7.6, §8.5:
    a Basic tile costs 2 Silver, the discount lowers it by 1 per icon). One icon on the 5s: the
    Reserve's Basic tile costs 1 Silver, not 0."""
    discount = [["tile.land3", 2, 4]]  # [ - | silver discount ] on columns 4-5
    g = build_scenario({"players": [{"dice": [5], "silver": 1, "tiles": discount}]})
    p = g.state.players[0]
    assert p.col[4][6] == 1
    play(g, ("die", 5), ("space", "capital.reserve"), ("do", "tile_basic"), ("tile_design", "tile.basic3"))
    assert g.legal_actions() == [action_id("tile_pay", "silver")]
    play(g, ("tile_pay", "silver"))
    assert p.silver == 0  # 2 - 1
    # with no Silver the discounted price is out of reach: the Reserve offers only its 2 Silver
    g = build_scenario({"players": [{"dice": [5], "silver": 0, "tiles": discount}]})
    play(g, ("die", 5), ("space", "capital.reserve"))
    assert leaves(g) == {"silver"}
