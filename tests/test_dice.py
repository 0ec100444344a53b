"""Placing a die: assets, caravan chains, guild abilities (rulebook 'Placing a Die', pp.14-15,
'Guilds' p.8, 'Important Rules' on the back cover)."""

from __future__ import annotations

from conftest import can, leaves, play

from wayfarers_env import IllegalActionError
from wayfarers_env.rules.actions import action_id
from wayfarers_env.rules.scenario import build_scenario
from wayfarers_env.rules.state import SUPPLY


def test_all_required_assets_or_no_placement():
    """p.14: 'If 1 or more Assets are shown, all of them are required.' A two-ship Harbour needs
    two ships; the Exploration guild covers only one of them (p.15)."""
    one_ship = {"dice": [1], "provisions": 3, "water": ["water.4"], "tiles": [["tile.basic2", 2, 1]], "guild": {"blue": 1}}
    g = build_scenario({"players": [one_ship]})
    play(g, ("die", 1))
    assert not can(g, "space", "water.4")  # one ship from the caravan is not enough...
    assert can(g, "hire_ship")
    play(g, ("hire_ship",))
    assert can(g, "space", "water.4")  # ...the guild's ship makes two
    assert g.state.players[0].guild[2] == 0

    no_ship = dict(one_ship, tiles=[])
    g = build_scenario({"players": [no_ship]})
    play(g, ("die", 1))
    # with no ship at all the guild alone cannot satisfy 'ship, ship': the harbour is never offered
    assert not can(g, "hire_ship") or not can(g, "space", "water.4")
    if can(g, "hire_ship"):
        play(g, ("hire_ship",))
        assert not can(g, "space", "water.4")


def test_blue_guild_once_per_turn():
    """p.8: each guild's ability at most once per turn."""
    g = build_scenario({"players": [{"dice": [1], "provisions": 2, "guild": {"blue": 2}}]})
    play(g, ("die", 1), ("hire_ship",))
    assert not can(g, "hire_ship")
    assert can(g, "space", "capital.harbour")


def test_townsfolk_assets_only_on_their_own_card():
    """p.14: 'Townsfolk Cards only affect the Cards they are tucked underneath.' A Messenger's
    pigeon under a city does not help the capital Library space."""
    spec = {"players": [{"dice": [2], "land": ["land.16"], "tucked": {"land.16": "townsfolk.22"}, "guild": {"yellow": 0}}]}
    g = build_scenario(spec)
    play(g, ("die", 2))
    assert can(g, "space", "land.16")  # needs a pigeon: the Messenger provides it
    assert not can(g, "space", "capital.library")  # needs a pigeon too, but gets none


def test_chains_do_not_stack():
    """p.14: 'Even though they have 2 negative Dice manipulation icons in their 5th column, this
    does not allow them to change a 5 to a 3. In other words, Dice manipulations may chain, but
    they do not stack.' (RULES-FACTS §7.3)."""
    tiles = [["tile.water1", 2, 4, 1], ["tile.water1", 3, 4, 1]]  # flipped [ship | down] twice: two down arrows on 5
    g = build_scenario({"players": [{"dice": [5], "tiles": tiles}]})
    assert g.state.players[0].col[4][5] == 2
    play(g, ("die", 5))
    assert [f for f in range(1, 7) if can(g, "face", f)] == [4, 5]  # the 4s have no arrow: no 3


# up on 5 (5 -> 6) and on 6; down on 2 (2 -> 1) and on 1: the arrows that could wrap sit at the end of a chain
WRAP_TILES = [
    ["tile.water1", 2, 5],  # [up | ship]
    ["tile.land2", 3, 5],  # [pigeon | up]
    ["tile.land2", 2, 1, 1],  # flipped [down | pigeon]
    ["tile.land1", 3, 1, 1],  # flipped [camel | down]
]


def test_chains_never_wrap_between_six_and_one():
    """p.14 'Important Rule: Dice values do not wrap: 1's can never be decreased to a 6, and 6's
    can never be increased to a 1.' (RULES-FACTS §7.3). The caravan has an up arrow on the 6s and
    a down arrow on the 1s, each reachable by a chain (5 -> 6, 2 -> 1), and the capital's Market
    and Reserve take any face, so every face a chain reaches is offered: only the no-wrap rule
    keeps 1 from a 5's chain and 6 from a 2's."""
    p = build_scenario({"players": [{"tiles": WRAP_TILES}]}).state.players[0]
    assert p.col[5][4] == 1 and p.col[0][5] == 1  # the up arrow on 6 and the down arrow on 1 are there
    for face, chain in ((5, [5, 6]), (2, [1, 2])):
        g = build_scenario({"players": [{"dice": [face], "tiles": WRAP_TILES}]})
        play(g, ("die", face))
        assert g.decision()[0] == "caravan_chain"
        assert [f for f in range(1, 7) if can(g, "face", f)] == chain
    for face in (6, 1):  # a 6 or a 1 has nowhere to go: no chain at all, straight to the die space
        g = build_scenario({"players": [{"dice": [face], "tiles": WRAP_TILES}]})
        play(g, ("die", face))
        assert g.decision()[0] == "die_space"


def test_a_die_space_holds_one_die_until_refreshed():
    """p.14: dice only go where no die is present; refreshing picks the die up again (p.15)."""
    g = build_scenario({"players": [{"dice": [3], "placed": {"capital.reserve": 4}, "silver": 0}]})
    play(g, ("die", 3))
    assert not can(g, "space", "capital.reserve")
    assert can(g, "space", "capital.market")
    play(g, ("space", "capital.market"), ("do", "provisions"))
    assert g.decision()[0] == "turn" and g.current_player == 1


def test_refresh_the_die_just_placed():
    """p.15: 'Players can even use this ability to refresh the same Die they just placed that turn.'"""
    spec = {"players": [{"dice": [1, 2], "water": ["water.9"], "tiles": [["tile.basic2", 2, 1]]}]}
    g = build_scenario(spec)
    play(g, ("die", 1), ("space", "water.9"), ("do", "refresh_die"))
    assert can(g, "refresh_placed", "water.9")
    play(g, ("refresh_placed", "water.9"))
    p = g.state.players[0]
    assert p.dice_loc.count(SUPPLY) == 2 and all(loc < 0 for loc in p.dice_loc)


def test_yellow_guild_two_changes_over_one_or_two_dice():
    """p.14/p.8: spend 1 yellow influence to increase or decrease supply dice by 2 in total, on the
    same die or on two dice; before the caravan chain (here: at the start of the turn)."""
    g = build_scenario({"players": [{"dice": [3, 5], "guild": {"yellow": 1}}]})
    play(g, ("yellow_guild",), ("adjust", 3, "up"), ("adjust", 5, "down"))
    p = g.state.players[0]
    assert sorted(p.dice_face[d] for d in range(5) if p.dice_loc[d] == SUPPLY) == [4, 4]
    assert p.guild[1] == 0
    assert g.decision()[0] == "turn" and not can(g, "yellow_guild")  # once per turn


def test_yellow_guild_after_the_chain():
    """p.14: the Trade guild may be used after a caravan chain (not during): a 1 chained to 2,
    then +2 reaches a 4 for the telescope-and-provision-discount column."""
    tiles = [["tile.land1", 2, 1], ["tile.space1", 1, 4]]  # 1 -> 2 arrow; telescope in column 4
    spec = {"players": [{"dice": [1], "guild": {"yellow": 1}, "tiles": tiles, "provisions": 0}]}
    g = build_scenario(spec)
    play(g, ("die", 1), ("face", 2))
    assert not can(g, "space", "capital.observatory")  # 2s have no telescope
    play(g, ("yellow_guild",), ("adjust", 2, "up"), ("adjust", 3, "up"))
    assert can(g, "space", "capital.observatory")


def test_trade_guild_change_that_would_strand_the_die_is_not_offered():
    """No dead ends: with the any-die spaces taken, a 4 can only be placed by turning it into a 6
    (telescope: the Observatory), so only the changes that lead there are offered."""
    spec = {
        "players": [
            {
                "dice": [4],
                "placed": {"capital.market": 1, "capital.reserve": 2},
                "guild": {"yellow": 1},
                "silver": 5,
                "provisions": 0,
                "land": ["land.19"],
            }
        ]
    }
    g = build_scenario(spec)
    assert can(g, "die", 4)  # only thanks to the Trade guild
    play(g, ("die", 4))
    assert [a for a in g.legal_actions()] == [action_id("yellow_guild")]
    play(g, ("yellow_guild",))
    assert can(g, "adjust", 4, "up") and not can(g, "adjust", 4, "down") and not can(g, "skip")
    play(g, ("adjust", 4, "up"))
    assert g.legal_actions() == [action_id("adjust", 5, "up")]
    play(g, ("adjust", 5, "up"))
    assert can(g, "space", "capital.observatory")


def test_die_placement_needs_a_part_that_can_resolve():
    """RULES-FACTS §16 A3 (rulebook p.15 'Actions are always optional'): a space whose every part
    is impossible is not offered. The capital City costs 2 provisions before anything."""
    g = build_scenario({"players": [{"dice": [1], "provisions": 1}]})
    play(g, ("die", 1))
    assert not can(g, "space", "capital.city")
    assert can(g, "space", "capital.market")


def test_illegal_die_space_raises_and_changes_nothing():
    g = build_scenario({"players": [{"dice": [2], "provisions": 0}]})
    play(g, ("die", 2))
    before = g.to_dict()
    try:
        g.apply(action_id("space", "capital.harbour"))
    except IllegalActionError as exc:
        assert "not legal now" in str(exc) and "capital.harbour" in str(exc)
    else:
        raise AssertionError("an illegal placement was accepted")
    assert g.to_dict() == before


def test_die_space_action_and_townsfolk_ability_in_any_order():
    """p.12: 'Townsfolk abilities can be resolved before or after the Land or Water Card's ability.'"""
    spec = {"players": [{"dice": [1], "land": ["land.3"], "tucked": {"land.3": "townsfolk.9"}, "silver": 0}]}
    g = build_scenario(spec)
    play(g, ("die", 1), ("space", "land.3"))
    # land.3: basic tile and a provision; the Farmer adds a provision
    assert leaves(g) == {"provisions", "tile_basic"} or leaves(g) == {"provisions"}
    before = g.state.players[0].provisions
    play(g, ("do", "provisions"), ("do", "provisions"))
    assert g.state.players[0].provisions == before + 2
