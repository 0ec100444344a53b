"""The rulebook's worked examples, reproduced exactly (each test cites its page and section)."""

from __future__ import annotations

from conftest import can, leaves, play

from wayfarers_env.rules.dice import reach
from wayfarers_env.rules.scenario import build_scenario

CARAVAN_EXAMPLE_TILES = [
    ["tile.land1", 2, 1],  # [up | camel] on columns 1-2 of the middle row
    ["tile.land1", 1, 2],  # [up | camel] on columns 2-3 of the top row
    ["tile.basic4", 2, 3],  # pigeon in column 3
    ["tile.space1", 1, 4],  # telescope + provision discount, column 4
    ["tile.water3", 2, 5, 1],  # flipped: [down | silver discount] on columns 5-6
    ["tile.water3", 3, 5, 1],
]


def test_caravan_dice_example():
    """Rulebook p.14 'Placing a Die', caravan example: what each face gives and how arrows chain."""
    g = build_scenario({"players": [{"tiles": CARAVAN_EXAMPLE_TILES}]})
    p = g.state.players[0]
    camel, ship, pigeon, telescope, up, down, sdisc, pdisc = range(8)
    # "1's have a Camel, and can optionally be increased to a 2" (and chain on to 3)
    assert p.col[0][camel] == 1 and reach(p, 1) == [1, 2, 3]
    # "2's have a Camel, and can optionally be increased to a 3"
    assert p.col[1][camel] == 1 and reach(p, 2) == [2, 3]
    # "3's have a Camel and a Pigeon"
    assert (p.col[2][camel], p.col[2][pigeon]) == (1, 1) and reach(p, 3) == [3]
    # "4's have a Telescope and a 1-Provision discount"
    assert (p.col[3][telescope], p.col[3][pdisc]) == (1, 1)
    # "5's can optionally be changed to 4's" - two minus arrows do not stack: never 5 -> 3
    assert p.col[4][down] == 2 and reach(p, 5) == [4, 5]
    # "6's have a Telescope and a 2-Silver discount"; no wrapping from 6 to 1
    assert (p.col[5][telescope], p.col[5][sdisc]) == (1, 2) and reach(p, 6) == [6]


def test_caravan_example_die_turned_by_chain_then_placed():
    """Rulebook p.14: a 1 chains to 3 (camel + pigeon) and may use a pigeon space."""
    g = build_scenario({"players": [{"tiles": CARAVAN_EXAMPLE_TILES, "dice": [1], "silver": 0, "provisions": 2}]})
    play(g, ("die", 1))
    assert g.decision()[0] == "caravan_chain"
    assert can(g, "face", 3) and not can(g, "face", 4)
    play(g, ("face", 3))
    assert can(g, "space", "capital.library")  # needs a pigeon
    assert can(g, "space", "capital.city")  # needs a camel


def test_dice_placement_example_silver_pays_the_fee():
    """Rulebook p.15 example: a 1 on the capital City; the Silver may be taken before choosing the
    Land card and used to pay an opponent's influence; the tucked townsfolk (a Mercenary) acts
    before or after."""
    spec = {
        "players": [{"dice": [1, 6, 6], "silver": 0, "provisions": 2, "tucked": {"capital.city": "townsfolk.17"}}],
        "market": {"land": ["land.1", "land.2", "land.3", "land.4"]},
        "influence_on": {"land.1": 1, "land.2": 1, "land.3": 1, "land.4": 1},
    }
    g = build_scenario(spec)
    assert g.state.tables.cards[g.state.players[0].tucked[g.state.tables.capital_city]].name == "Mercenary"
    play(g, ("die", 1), ("space", "capital.city"))
    assert leaves(g) >= {"pay_provisions", "card_influence"}
    play(g, ("do", "pay_provisions"))
    # every face-up Land card carries red influence and Blue has nothing to pay with yet
    assert "land_card" not in leaves(g)
    assert "silver" in leaves(g)
    play(g, ("do", "silver"))
    assert "land_card" in leaves(g)
    red_silver = g.state.players[1].silver
    play(g, ("do", "land_card"), ("take_slot", 2), ("fee", "silver"))
    assert g.state.players[1].silver == red_silver + 1
    assert g.state.players[0].silver == 0
    assert [g.state.tables.cards[c].id for c in g.state.players[0].land] == ["land.2"]


def test_farmer_example_townsfolk_silver_before_the_tile():
    """Rulebook p.12 (Townsfolk): City 'Land tile or 2 yellow influence' with a Farmer; the Farmer's
    Silver may come first and pay for the tile."""
    spec = {
        "players": [
            {
                "dice": [1],
                "silver": 2,
                "guild": {"yellow": 0},
                "land": ["land.1"],
                "tucked": {"land.1": "townsfolk.8"},
            }
        ]
    }
    g = build_scenario(spec)
    assert g.state.tables.cards[g.state.players[0].tucked[g.state.tables.content.by_id["land.1"].index]].name == "Farmer"
    play(g, ("die", 1), ("space", "land.1"))
    assert "tile_land" not in leaves(g)  # 2 silver, no yellow influence: cannot pay 3
    play(g, ("do", "silver"))
    assert "tile_land" in leaves(g)
    play(g, ("do", "tile_land"), ("tile_design", "tile.land1"), ("tile_pay", "silver"), ("tile_at", 2, 1))
    assert g.state.players[0].silver == 0
    assert len(g.state.players[0].tiles) == 1


def test_connection_link_example():
    """Rulebook p.9 (Water cards): a Harbour offering Silver and Provision; the new Open Water has a
    bolt only in the Provision row, so only 1 Provision comes with its 2 blue influence."""
    spec = {
        "players": [
            {
                "dice": [1],
                "provisions": 2,
                "water": ["water.13"],
                "tiles": [["tile.basic2", 2, 1]],  # a ship for 1s
            }
        ],
        "market": {"water": ["water.34", "water.1", "water.2", "water.3"]},
    }
    g = build_scenario(spec)
    t = g.state.tables
    assert [r is not None for r in t.content.by_id["water.13"].links_right] == [False, True, True, False]
    assert t.content.by_id["water.34"].links_left == (False, False, True, False)
    play(g, ("die", 1), ("space", "capital.harbour"), ("do", "pay_provisions"), ("do", "water_card"), ("take_slot", 1))
    assert leaves(g) == {"provisions", "guild_blue"}
    before = g.state.players[0].provisions
    play(g, ("do", "provisions"), ("do", "guild_blue"), ("do", "guild_blue"))
    assert g.state.players[0].provisions == before + 1
    assert g.state.players[0].guild[2] == 1 + 2


def test_worker_placement_example():
    """Rulebook p.16 example: a green worker on the right-most Townsfolk card buys a Comet (4 silver
    after the discount); the Comet's journal and the Vista's Silver and die change in any order; the
    journal step takes the green worker and the journal tile retrieves a worker, never the one
    just placed; no second step because the tags are missing."""
    spec = {
        "sides": "aaa",
        "players": [
            {
                "silver": 4,
                "dice": [4, 5],
                "guild": {"black": 1},
                "workers": {"green": 1, "blue": 0},  # its blue worker is the one on water.22
                "node": "journal.6.2",
                "land": ["land.23"],
                "water": ["water.4", "water.5", "water.6"],
            }
        ],
        "market": {
            "townsfolk": ["townsfolk.1", "townsfolk.2", "townsfolk.3", "townsfolk.5"],
            "space": ["space.star2", "space.star3", "space.star4", "space.comet1"],
            "water": ["water.20", "water.21", "water.22", "water.23"],
        },
        "workers_on": {"water.22": ["blue"]},
        "influence_on": {"townsfolk.2": 1},
        "journal_tiles": {"journal.7.2": "journal_tile.7"},
    }
    g = build_scenario(spec)
    p = g.state.players[0]
    assert p.counts[2] == 4  # four harbour tags (capital + 3)
    play(g, ("worker", "green"), ("card", "townsfolk", 1), ("do", "space_card"))
    assert can(g, "take_slot", 4)
    play(g, ("take_slot", 4))
    assert p.silver == 0  # slot 4 costs 5, minus 1
    play(g, ("place_above", "water.4"))
    assert leaves(g) == {"journal", "silver", "adjust_die"}
    play(g, ("do", "silver"), ("do", "adjust_die"), ("adjust", 5, "down"))
    assert sorted(p.dice_face[d] for d in range(5) if p.dice_loc[d] == -1) == [4, 4]
    play(g, ("do", "journal"))
    assert can(g, "journal_to", "journal.7.2") and not can(g, "journal_to", "journal.7.1")  # 4 harbours, not 4 cities
    play(g, ("journal_to", "journal.7.2"))
    assert p.workers[2] == 1  # the green worker beside column 7 joined the supply
    assert not g.state.green[3]
    # the journal tile: retrieve a worker, but not the green one just placed
    play(g, ("do", "retrieve_worker"))
    assert not can(g, "retrieve", "townsfolk", 1, "green")
    assert can(g, "retrieve", "water", 3, "blue")
    play(g, ("retrieve", "water", 3, "blue"))
    assert p.workers[1] == 1
    # the Science guild's extra step is not offered: no route from 76 is open with these tags
    assert g.decision()[0] != "science_guild"


def test_resting_example_move_into_black_then_journal_twice():
    """Rulebook p.17 resting example: capital townsfolk (Silver + journal) and an Enforcer
    (Provision + move influence), in any order; moving a yellow influence into black first lets
    the Science guild pay for an extra journal step."""
    spec = {
        "sides": "aaa",
        "players": [
            {
                "dice": [3],
                "placed": {"capital.market": 2},
                "guild": {"yellow": 1, "black": 0},
                "land": ["land.19"],  # a Vista opens the 1.1 -> 2.2 splotch on side A
                "water": ["water.19"],
                "tucked": {"water.19": "townsfolk.4"},
            }
        ],
        "journal_tiles": {"journal.1.1": "journal_tile.5"},
    }
    g = build_scenario(spec)
    p = g.state.players[0]
    assert g.state.tables.cards[p.tucked[g.state.tables.content.by_id["water.19"].index]].name == "Enforcer"
    play(g, ("rest",))
    assert g.decision()[0] == "rest_reroll"  # one die was still in supply: it may be rerolled
    play(g, ("skip",))
    assert all(loc == -1 for loc in p.dice_loc[:2])
    assert leaves(g) == {"silver", "journal", "provisions", "move_influence"}
    play(g, ("do", "move_influence"), ("move", "yellow", "black"), ("do", "journal"), ("journal_to", "journal.1.1"))
    assert leaves(g) == {"provisions", "silver"}  # the journal tile on the new node
    play(g, ("done",))
    assert g.decision()[0] == "science_guild"
    play(g, ("black_guild",))
    assert g.decision()[0] == "journal"


def _scoring_example():
    return {
        "players": [
            {
                "land": ["land.1", "land.19", "land.20", "land.21"],
                "water": ["water.19", "water.20", "water.21", "water.22"],
                "above": {
                    "land.1": "space.comet3",
                    "land.19": "space.sun",
                    "land.20": "space.comet4",
                    "water.19": "space.comet6",
                },
                "inspired": {"space.sun": "inspiration.4", "space.comet6": "inspiration.1"},
                "tucked": {
                    "land.19": "townsfolk.18",
                    "land.20": "townsfolk.19",
                    "land.21": "townsfolk.20",
                    "water.19": "townsfolk.4",
                },
                "tiles": [
                    ["tile.space2", 1, 2],
                    ["tile.space2", 1, 3],
                    ["tile.basic1", 3, 1],
                    ["tile.basic2", 3, 2],
                    ["tile.basic3", 3, 3],
                    ["tile.basic4", 3, 4],
                    ["tile.land3", 2, 4],
                ],
                "guild": {"black": 2, "yellow": 0, "blue": 1},
            },
            {"guild": {"black": 1, "yellow": 1, "blue": 1}},
        ]
    }


def test_scoring_example_53_vp():
    """Rulebook p.19 scoring example: Blue scores 53 VP."""
    g = build_scenario(_scoring_example())
    s = g.scores()[0]
    assert s["primary_tags"] == 2 + 3 + 0 + 5
    assert s["unique_sets"] == 5
    assert s["space_cards"] + s["inspiration"] == 4 + 3 + 4 + 5 + 8
    assert s["inspiration"] == 4
    assert s["caravan"] == 11
    assert s["guilds"] == 3
    assert s["total"] == 53
