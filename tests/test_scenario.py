"""build_scenario: every key sets what docs/SCENARIOS.md says (read back from the state and the
save, which loads again unchanged), the per-turn keys change legality as the rules say, and
every impossible position is refused with a one-line error naming the key."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from conftest import can, play
from invariants import check

from wayfarers_env import Game
from wayfarers_env.rules.scenario import ScenarioError, build_scenario
from wayfarers_env.rules.tables import tables_for

T = tables_for(frozenset())
IDX = {card.id: card.index for card in T.content.cards}
DESIGN = {d.id: d.index for d in T.designs}
LAND_ROW = ["land.5", "land.6", "land.7", "land.8"]


def built(spec: dict) -> Game:
    """Build, check the engine's conservation laws, and check the save loads back unchanged."""
    g = build_scenario(spec)
    check(g)
    d = g.to_dict()
    assert Game.from_dict(d).to_dict() == d
    return g


def finish_turn(g: Game) -> None:
    """Decline or take the last legal option until the turn passes to the next seat."""
    seat = g.current_player
    while g.current_player == seat and not g.is_over:
        g.apply(g.legal_actions()[-1])


def turns_until_over(g: Game) -> list[int]:
    """Seats that got a turn, each resting, until the game ends."""
    turns = []
    while not g.is_over:
        if g.decision()[0] == "turn":
            turns.append(g.current_player)
            play(g, ("rest",))
        else:
            g.apply(g.legal_actions()[-1])
    return turns


# ------------------------------------------------------------------ keys read back


def test_every_new_key_reads_back_from_the_state_and_the_save():
    spec = {
        "seed": 3,
        "current": 1,
        "turn": 5,
        "players": [
            {"node": "journal.10.1", "tiles": [["tile.basic1", 1, 2]]},
            {"land": ["land.19"], "workers": {"yellow": 0}},
        ],
        "market": {"land": LAND_ROW},
        "decks": {"land": ["land.30", "land.31"], "water": ["water.30"]},
        "known": {"land.31": [0, 1]},
        "workers_on": {"land.6": ["yellow"]},
        "this_turn": {"workers_placed": {"land.6": ["yellow"]}, "acquired": ["land.19"], "guild_used": ["yellow"], "ship_hired": True},
        "end_trigger": 0,
        "tile_supply": {"tile.basic1": 1},
    }
    g = built(spec)
    st, d = g.state, g.to_dict()
    land, water = IDX["land.30"], IDX["water.30"]
    assert st.decks[1][-2:] == [IDX["land.31"], land] == d["decks"][1][-2:]  # top of the deck last
    assert st.decks[2][-1] == water == d["decks"][2][-1]
    assert st.known[1][-2:] == [0b11, 0] == d["known"][1][-2:]
    assert st.market_workers[5] == 1 and st.market_placed[5] == 1 == d["market_placed"][5]
    assert st.players[1].acquired == [IDX["land.19"]] == d["players"][1]["acquired"]
    assert st.guild_used == [False, True, True, False] == d["guild_used"]  # the hired ship is the blue guild's
    assert st.ship_hired is True and d["ship_hired"] is True
    assert (st.end_trigger, st.final_turns) == (0, 2) == (d["end_trigger"], d["final_turns"])
    assert st.tile_supply[DESIGN["tile.basic1"]] == 1 == d["tile_supply"][DESIGN["tile.basic1"]]
    assert (st.current, st.turn) == (1, 5) == (d["current"], d["turn"])


def test_the_documented_example_builds_and_an_empty_spec_is_the_plain_setup():
    text = (Path(__file__).parent.parent / "docs" / "SCENARIOS.md").read_text()
    example = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    names: dict = {}
    exec(example, names)
    g = names["game"]
    check(g)
    assert Game.from_dict(g.to_dict()).to_dict() == g.to_dict()
    assert (g.current_player, g.state.turn, g.state.end_trigger, g.state.final_turns) == (1, 5, 0, 2)
    assert build_scenario({}).to_dict() == Game(seed=0).to_dict()


def test_decks_put_the_named_cards_on_top_and_keep_the_rest_below():
    plain = build_scenario({}).state.decks[3]
    named = [plain[0], plain[1]]  # the two bottom cards of seed 0's Space deck
    g = built({"decks": {"space": [T.cards[c].id for c in named]}})
    deck = g.state.decks[3]
    assert deck[-2:] == named[::-1]  # the first named is the top card: drawn first, listed last
    assert deck[:-2] == plain[2:]  # the rest keeps its shuffled order below
    assert g.state.known[3][-2:] == [0, 0]  # by default nobody has seen them


def test_deck_order_decides_the_next_draw():
    spec = {"players": [{"dice": [1], "provisions": 3}], "decks": {"land": ["land.30", "land.31", "land.32"]}}
    g = built(spec)
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"), ("draw_three",))
    assert g.decision() == ("draw_keep", (1, (IDX["land.30"], IDX["land.31"], IDX["land.32"])))


def test_deck_order_decides_the_next_refill():
    spec = {"players": [{"dice": [1], "provisions": 2}], "market": {"land": LAND_ROW}, "decks": {"land": ["land.30", "land.31"]}}
    g = built(spec)
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"), ("take_slot", 1))
    finish_turn(g)
    assert g.state.market[4:8] == [IDX[c] for c in ("land.6", "land.7", "land.8", "land.30")]
    assert g.state.decks[1][-1] == IDX["land.31"]


def test_known_cards_stay_in_place_for_the_seat_that_saw_them():
    g = built({"decks": {"land": ["land.30", "land.31"]}, "known": {"land.31": [1]}})
    spot = len(g.state.decks[1]) - 2
    assert g.state.known[1][spot] == 0b10
    assert all(g.determinize(1, r).state.decks[1][spot] == IDX["land.31"] for r in range(20))
    assert any(g.determinize(0, r).state.decks[1][spot] != IDX["land.31"] for r in range(20))


def test_a_card_named_elsewhere_leaves_no_hole_in_an_unlisted_market_slot():
    seeded = build_scenario({}).state.market[4]  # land slot 1 of seed 0
    g = built({"players": [{"land": [T.cards[seeded].id]}]})
    assert g.state.market[4] >= 0 and g.state.market[4] != seeded


def test_an_empty_market_slot_once_its_deck_is_empty():
    """The 16 Inspiration cards: 14 in panoramas (on capital stars and Space cards), 2 face up."""
    spaces = [c.id for c in T.content.cards if c.kind == "space"][:12]
    insp = [c.id for c in T.content.cards if c.kind == "inspiration"]
    players = []
    for k in range(2):
        land = [f"land.{i}" for i in range(1 + 6 * k, 7 + 6 * k)]
        above = dict(zip(land, spaces[6 * k : 6 * k + 6]))
        targets = ["capital.star", *above.values()]
        players.append({"land": land, "above": above, "inspired": dict(zip(targets, insp[7 * k : 7 * k + 7]))})
    g = built({"players": players, "market": {"inspiration": [insp[14], insp[15], None, None]}})
    assert g.state.decks[4] == [] and g.state.market[16:20] == [IDX[insp[14]], IDX[insp[15]], -1, -1]


def test_workers_sets_the_supply_of_the_colours_it_names():
    g = built({"players": [{"workers": {"green": 1}}]})
    assert g.state.players[0].workers == [1, 1, 1]  # yellow and blue keep their starting count
    assert g.state.green == [False, True, True, True]  # the green worker came off the first column
    g = built({"players": [{"workers": {"yellow": 0}}], "market": {"land": LAND_ROW}, "workers_on": {"land.7": ["yellow", "green"]}})
    assert g.state.players[0].workers == [0, 1, 0] and g.state.market_workers[6] == 0b101
    g = built({"players": [{"workers": {"green": 2}}], "green": [False, True, False, True]})
    assert g.state.green == [False, True, False, True]


def test_influence_supply_is_what_guilds_and_cards_leave():
    g = built({"players": [{"guild": {"black": 3}}], "market": {"land": LAND_ROW}, "influence_on": {"land.5": 0, "land.6": 1}})
    p0, p1 = g.state.players
    assert p0.guild == [3, 0, 1, 0] and p0.supply == 15 - 4 - 1  # seat 0 starts with 1 blue
    assert p1.supply == 15 - sum(p1.guild) - 1
    assert built({"players": [{"guild": {"black": 3}, "supply": 11}]}).state.players[0].supply == 11


def test_a_named_board_moves_the_seat_that_had_it():
    dealt = build_scenario({}).state.players[1].board
    g = built({"players": [{"board": dealt + 1}]})
    assert g.state.players[0].board == dealt and g.state.players[1].board != dealt


def test_turn_and_current_follow_each_other():
    assert (built({"turn": 7}).state.current, built({"current": 1}).state.turn) == (1, 1)
    g = built({"config": {"num_players": 3}, "turn": 7})
    assert g.state.current == 1 and g.current_player == 1


def test_a_built_game_is_independent_of_its_spec():
    spec = {"players": [{"land": ["land.3"], "workers": {"green": 1}}], "market": {"land": LAND_ROW}}
    before = copy.deepcopy(spec)
    g = build_scenario(spec)
    assert spec == before
    g.state.players[0].land.append(IDX["land.9"])
    assert build_scenario(spec).to_dict() == build_scenario(before).to_dict()


# ------------------------------------------------------------- per-turn legality


def test_a_worker_placed_this_turn_cannot_be_retrieved():
    """p.16: never place and retrieve the same worker in one turn."""
    spec = {
        "players": [
            {"dice": [1], "silver": 1, "provisions": 0, "workers": {"yellow": 0}, "tiles": [["tile.basic2", 2, 1]], "water": ["water.10"]}
        ],
        "market": {"land": LAND_ROW},
        "workers_on": {"land.6": ["yellow"], "land.7": ["green"]},
    }
    steps = (("die", 1), ("hire_ship",), ("space", "water.10"), ("do", "retrieve_worker"))
    g = play(built(spec), *steps)
    assert can(g, "retrieve", "land", 2, "yellow") and can(g, "retrieve", "land", 3, "green")
    spec["this_turn"] = {"workers_placed": {"land.7": ["green"]}}
    g = play(built(spec), *steps)
    assert can(g, "retrieve", "land", 2, "yellow") and not can(g, "retrieve", "land", 3, "green")


def test_guild_used_yellow_withholds_the_trade_guild():
    spec = {"players": [{"dice": [3, 5], "guild": {"yellow": 1}}]}
    assert can(built(spec), "yellow_guild")
    spec["this_turn"] = {"guild_used": ["yellow"]}
    assert not can(built(spec), "yellow_guild") and can(built(spec), "die", 3)


def test_a_hired_ship_is_not_offered_again_and_still_counts():
    """p.15: the Exploration guild lends one ship, once per turn. water.4 needs two ships; the
    caravan's column 1 has one."""
    spec = {"players": [{"dice": [1], "provisions": 3, "water": ["water.4"], "tiles": [["tile.basic2", 2, 1]], "guild": {"blue": 1}}]}
    g = play(built(spec), ("die", 1))
    assert can(g, "hire_ship") and not can(g, "space", "water.4")
    spec["this_turn"] = {"ship_hired": True}
    g = play(built(spec), ("die", 1))
    assert not can(g, "hire_ship") and can(g, "space", "water.4")


def test_guild_used_black_withholds_the_science_step():
    spec = {
        "sides": "aaa",
        "players": [{"workers": {"green": 1}, "guild": {"black": 2}, "land": ["land.19"]}],
        "journal_tiles": {"journal.1.1": "journal_tile.6"},
    }
    steps = (("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.1.1"), ("done",))
    assert play(built(spec), *steps).decision()[0] == "science_guild"
    spec["this_turn"] = {"guild_used": ["black"]}
    assert play(built(spec), *steps).decision()[0] != "science_guild"


def test_a_card_acquired_this_turn_gives_nothing_yet():
    """p.11: benefits never work in the turn a card was acquired. land.16's die space needs a
    pigeon, which only the Messenger tucked under it gives."""
    spec = {"players": [{"dice": [2], "land": ["land.16"], "tucked": {"land.16": "townsfolk.22"}, "guild": {"yellow": 0}}]}
    assert can(play(built(spec), ("die", 2)), "space", "land.16")
    for fresh in ("land.16", "townsfolk.22"):
        spec["this_turn"] = {"acquired": [fresh]}
        assert not can(play(built(spec), ("die", 2)), "space", "land.16"), fresh


@pytest.mark.parametrize(("current", "left", "turns"), [(0, 2, [0, 1]), (2, 3, [2, 0, 1]), (1, 1, [1])])
def test_the_end_game_countdown_ends_the_game_after_seat_end_trigger_plays_again(current, left, turns):
    """p.18: after the trigger every seat, the trigger seat included, has one more turn."""
    spec = {"config": {"num_players": 3}, "players": [{}, {"node": "journal.10.2"}], "end_trigger": 1, "current": current}
    g = built(spec)
    assert g.state.final_turns == left
    assert built(dict(spec, final_turns=left)).to_dict() == g.to_dict()
    assert turns_until_over(g) == turns and g.state.end_trigger == 1


# --------------------------------------------------------------- refused positions

TILES_ROW1 = [["tile.basic1", 1, 2], ["tile.basic1", 1, 3]]
REFUSED = [
    # (spec, the message starts with)
    ([], "a scenario is a dict"),
    ({"bogus": 1}, "scenario: unknown key(s) ['bogus']"),
    ({"config": {"num_players": 5}}, "config: num_players must be 1, 2, 3 or 4"),
    ({"seed": True}, "seed: an int"),
    ({"players": [{}, {}, {}]}, "players: 3 player dicts for a 2-player game"),
    ({"players": ["x"]}, "players[0]: a dict"),
    ({"players": [{"gold": 1}]}, "players[0]: unknown key(s) ['gold']"),
    ({"this_turn": {"moved": 1}}, "this_turn: unknown key(s) ['moved']"),
    ({"sides": "abc"}, "sides: three letters a/b"),
    ({"config": {"board_sides": "aaa"}, "sides": "bbb"}, "sides: 'bbb' contradicts config.board_sides"),
    # cards: kind, existence, once
    ({"players": [{"land": "land.5"}]}, "players[0].land: a list of Land card ids"),
    ({"players": [{"land": ["water.4"]}]}, "players[0].land: water.4 is a water card; this key takes land cards"),
    ({"players": [{"water": ["water.999"]}]}, "players[0].water: unknown card id 'water.999'"),
    ({"players": [{"land": ["land.5", "land.5"]}]}, "players[0].land: land.5 is already placed by players[0].land"),
    ({"players": [{"land": ["land.5"]}], "market": {"land": LAND_ROW}}, "market.land slot 1: land.5 is already placed by players[0].land"),
    ({"players": [{}, {"land": ["land.5"]}], "decks": {"land": ["land.5"]}}, "decks.land: land.5 is already placed by players[1].land"),
    ({"market": {"land": ["water.4"]}}, "market.land slot 1: water.4 is a water card"),
    ({"market": {"lands": LAND_ROW}}, "market: unknown row 'lands'"),
    ({"market": {"land": [*LAND_ROW, "land.9"]}}, "market.land: 5 cards; a row has 4 slots"),
    ({"market": {"land": ["land.5", None, "land.7", "land.8"]}}, "market.land: slot 2 is empty but a later slot holds a card"),
    ({"market": {"land": ["land.5", "land.6", "land.7", None]}}, "market.land: slot 4 is empty while the land deck holds"),
    ({"decks": {"water": ["land.3"]}}, "decks.water: land.3 is a land card"),
    ({"known": {"land.3": [0]}}, "known['land.3']: land.3 is not listed in `decks`"),
    ({"decks": {"land": ["land.3"]}, "known": {"land.3": [2]}}, "known['land.3']: a seat 0..1, got 2"),
    # panorama structure
    ({"players": [{"above": {"land.3": "space.star2"}}]}, "players[0].above['land.3']: land.3 is not in this player's land or water"),
    ({"players": [{"land": ["land.3"], "above": {"land.3": "land.4"}}]}, "players[0].above['land.3']: land.4 is a land card"),
    ({"players": [{"tucked": {"land.3": "townsfolk.22"}}]}, "players[0].tucked['land.3']: land.3 is not in this player's panorama"),
    (
        {"players": [{"land": ["land.19"], "tucked": {"land.19": "townsfolk.22"}}]},
        "players[0].tucked['land.19']: townsfolk.22 goes under a card with a city or harbour tag; land.19 has vista",
    ),
    (
        {"players": [{"inspired": {"space.star2": "inspiration.4"}}]},
        "players[0].inspired['space.star2']: space.star2 is neither capital.star",
    ),
    ({"players": [{"inspired": {"capital.city": "inspiration.4"}}]}, "players[0].inspired['capital.city']: capital.city is neither"),
    ({"players": [{"inspired": {"capital.star": "space.star2"}}]}, "players[0].inspired['capital.star']: space.star2 is a space card"),
    # dice
    ({"players": [{"dice": [7]}]}, "players[0].dice: an int 1..6, got 7"),
    ({"players": [{"placed": {"capital.market": 0}}]}, "players[0].placed['capital.market']: an int 1..6, got 0"),
    ({"players": [{"placed": {"land.16": 3}}]}, "players[0].placed['land.16']: land.16 is not in this player's land or water"),
    ({"players": [{"placed": {"capital.star": 3}}]}, "players[0].placed['capital.star']: not a die space"),
    (
        {"players": [{"dice": [1, 2, 3, 4], "placed": {"capital.market": 1, "capital.city": 2}}]},
        "players[0]: 4 dice in supply and 2 placed",
    ),
    # tiles
    (
        {"players": [{"tiles": [["tile.basic1", 1, 2], ["tile.land1", 1, 2]]}]},
        "players[0].tiles[1]: tile.land1 at row 1, column 2 overlaps",
    ),
    ({"players": [{"tiles": [["tile.basic1", 1, 1]]}]}, "players[0].tiles[0]: tile.basic1 at row 1, column 1 covers a printed cell"),
    ({"players": [{"tiles": [["tile.land1", 3, 6]]}]}, "players[0].tiles[0]: tile.land1 (2 wide, 1 high) at row 3, column 6 leaves"),
    ({"players": [{"tiles": [["tile.basic1", 0, 2]]}]}, "players[0].tiles[0] row: an int 1..3, got 0"),
    ({"players": [{"tiles": [["tile.basic1", 1, 2, 1]]}]}, "players[0].tiles[0] flipped (tile.basic1 has 1 face(s)): an int 0..0"),
    ({"players": [{"tiles": [["tile.gold", 1, 2]]}]}, "players[0].tiles[0]: unknown tile design 'tile.gold'"),
    (
        {"players": [{"tiles": [*TILES_ROW1, ["tile.basic1", 1, 4]]}]},
        "players[0].tiles: 3 tile.basic1 tiles in caravans; a 2-player game has 2",
    ),
    ({"players": [{"tiles": TILES_ROW1}, {"tiles": [["tile.basic1", 1, 2]]}]}, "players[1].tiles: 3 tile.basic1 tiles"),
    ({"tile_supply": {"tile.basic1": 1}}, "tile_supply['tile.basic1']: 1 left, but a 2-player game has 2 and the caravans hold 0"),
    ({"tile_supply": {"tile.gold": 1}}, "tile_supply['tile.gold']: unknown tile design"),
    # influence
    ({"players": [{"guild": {"black": 15}}]}, "players[0].guild: 16 influence in guilds; a player owns 15"),
    ({"players": [{"guild": {"red": 1}}]}, "players[0].guild: unknown guild 'red'"),
    (
        {"players": [{"guild": {"black": 14}}], "market": {"land": LAND_ROW}, "influence_on": {"land.6": 0}},
        "influence_on: seat 0 has 1 on market cards and 15 in guilds",
    ),
    ({"players": [{"supply": 3}]}, "players[0].supply: 3, but 15 influence - 1 in guilds - 0 on market cards leaves 14"),
    ({"influence_on": {"land.30": 0}, "decks": {"land": ["land.30"]}}, "influence_on['land.30']: land.30 is not face up"),
    ({"market": {"land": LAND_ROW}, "influence_on": {"land.6": 2}}, "influence_on['land.6']: a seat 0..1, got 2"),
    # workers
    (
        {"market": {"land": LAND_ROW}, "workers_on": {"land.6": ["blue"]}},
        "workers_on['land.6']: the land row takes green and yellow workers, not blue",
    ),
    (
        {"market": {"space": ["space.star2"]}, "workers_on": {"space.star2": ["green"]}},
        "workers_on['space.star2']: the space row takes no workers",
    ),
    ({"market": {"land": LAND_ROW}, "workers_on": {"land.6": ["green", "green"]}}, "workers_on['land.6']: 'green' given twice"),
    (
        {"market": {"land": LAND_ROW}, "workers_on": {"land.6": ["yellow"]}},
        "players[*].workers / workers_on: 2 yellow worker(s) in supplies + 1",
    ),
    ({"players": [{"workers": {"blue": 0}}]}, "players[*].workers / workers_on: 1 blue worker(s) in supplies + 0"),
    ({"players": [{"workers": {"green": 5}}]}, "players[*].workers / workers_on: 5 green workers in play; the game has 4"),
    ({"players": [{"workers": {"red": 1}}]}, "players[0].workers: unknown worker colour 'red'"),
    ({"players": [{"workers": {"green": 1}}], "green": [True] * 4}, "green: 4 still on the journal + 1 in play"),
    ({"green": [True] * 3}, "green: 4 bools"),
    # journal
    ({"players": [{"node": "journal.99.1"}]}, "players[0].node: unknown journal node 'journal.99.1'"),
    ({"journal_tiles": {"journal.42.1": "journal_tile.1"}}, "journal_tiles['journal.42.1']: unknown journal node"),
    ({"journal_tiles": {"journal.2.1": "journal_tile.1"}}, "journal_tiles['journal.2.1']: journal.2.1 holds no journal tile"),
    ({"journal_tiles": {"journal.1.1": "journal_tile.99"}}, "journal_tiles['journal.1.1']: unknown journal tile 'journal_tile.99'"),
    (
        {"journal_tiles": {"journal.1.1": "journal_tile.6", "journal.1.2": "journal_tile.6"}},
        "journal_tiles['journal.1.2']: journal_tile.6 is already on journal.1.1",
    ),
    # seats, turns and the end of the game
    ({"current": 2}, "current: a seat 0..1, got 2"),
    ({"current": True}, "current: a seat 0..1, got True"),
    ({"current": 1, "turn": 2}, "turn: turn 2 of a 2-player game is seat 0's"),
    ({"config": {"max_turns": 10}, "turn": 10}, "turn: an int 0..9, got 10"),
    ({"players": [{}, {"node": "journal.10.2"}]}, "players[1].node: journal.10.2 is a final journal space"),
    (
        {"players": [{"node": "journal.10.2"}, {"node": "journal.10.2"}], "end_trigger": 0},
        "players[1].node: journal.10.2 already holds players[0]'s marker",
    ),
    ({"end_trigger": 0}, "end_trigger: seat 0 is on journal.0.1, not a final journal space"),
    ({"end_trigger": 3}, "end_trigger: a seat 0..1, got 3"),
    ({"final_turns": 1}, "final_turns: given without end_trigger"),
    ({"players": [{"node": "journal.10.2"}], "end_trigger": 0, "final_turns": 2}, "final_turns: 2, but after seat 0 triggered the end"),
    ({"players": [{"node": "journal.10.2"}], "end_trigger": 0, "final_turns": 3}, "final_turns: an int 1..2, got 3"),
    # this turn
    (
        {"market": {"land": LAND_ROW}, "this_turn": {"workers_placed": {"land.6": ["green"]}}},
        "this_turn.workers_placed['land.6']: no green worker",
    ),
    ({"this_turn": {"acquired": ["land.3"]}}, "this_turn.acquired: land.3 is not in the panorama of seat 0"),
    (
        {"players": [{}, {"land": ["land.3"]}], "this_turn": {"acquired": ["land.3"]}},
        "this_turn.acquired: land.3 is not in the panorama of seat 0",
    ),
    (
        {"players": [{"land": ["land.16"], "placed": {"land.16": 2}}], "this_turn": {"acquired": ["land.16"]}},
        "this_turn.acquired: land.16 holds a die",
    ),
    ({"this_turn": {"guild_used": ["red"]}}, "this_turn.guild_used: unknown guild 'red'"),
    ({"this_turn": {"guild_used": ["blue"], "ship_hired": False}}, "this_turn.ship_hired: False, but guild_used has blue"),
    ({"this_turn": {"ship_hired": 1}}, "this_turn.ship_hired: True or False, got 1"),
    # player boards
    ({"players": [{"board": 5}]}, "players[0].board: an int 1..4, got 5"),
    ({"players": [{"board": 2}, {"board": 2}]}, "players[1].board: board 2 is already players[0]'s"),
    ({"config": {"player_boards": [1, 2]}, "players": [{"board": 3}]}, "players[0].board: 3 contradicts config.player_boards [1, 2]"),
]


@pytest.mark.parametrize(("spec", "start"), REFUSED, ids=[start.split(":")[0] for _spec, start in REFUSED])
def test_an_impossible_position_is_refused_by_key(spec, start):
    before = copy.deepcopy(spec)
    with pytest.raises(ScenarioError) as info:
        build_scenario(spec)
    message = str(info.value)
    assert message.startswith(start), message
    assert "\n" not in message
    assert spec == before  # the spec is left as it was


def test_each_refused_position_is_one_step_from_an_accepted_one():
    """The refusals above are about the named key, not about something else in the spec."""
    accepted = [
        {"players": [{"tiles": TILES_ROW1}]},
        {"config": {"num_players": 3}, "players": [{"tiles": [*TILES_ROW1, ["tile.basic1", 1, 4]]}]},
        {"players": [{"guild": {"black": 14}}]},
        {"players": [{"guild": {"black": 13}}], "market": {"land": LAND_ROW}, "influence_on": {"land.6": 0}},
        {"players": [{}, {"workers": {"yellow": 0}}], "market": {"land": LAND_ROW}, "workers_on": {"land.6": ["yellow"]}},
        {"players": [{"workers": {"green": 4}}]},
        {"players": [{"land": ["land.3"], "tucked": {"land.3": "townsfolk.22"}}]},
        {"players": [{"land": ["land.16"], "placed": {"land.16": 2}}]},
        {"players": [{"node": "journal.10.2"}], "end_trigger": 0, "final_turns": 1},
        {"players": [{"land": ["land.3"]}], "this_turn": {"acquired": ["land.3"]}},
        {"this_turn": {"guild_used": ["blue"]}},
        {"config": {"player_boards": [1, 2]}, "players": [{"board": 1}]},
    ]
    for spec in accepted:
        built(spec)
