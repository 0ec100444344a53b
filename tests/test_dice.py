"""Placing a die: assets, caravan chains, guild abilities (rulebook 'Placing a Die', pp.14-15,
'Guilds' p.8, 'Important Rules' on the back cover)."""

from __future__ import annotations

import pytest
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


def test_trade_guild_paid_owes_its_first_change_at_the_start_of_the_turn():
    """p.14 'Once per turn, players may spend 1 Yellow Influence to increase or decrease the value
    of Dice in their supply by 2': the spending buys a change, so once the influence is paid the
    first change is owed (no skip) and the second may be skipped (ARCHITECTURE, readings)."""
    g = build_scenario({"players": [{"dice": [1, 6], "guild": {"yellow": 1}}]})
    play(g, ("yellow_guild",))
    assert g.decision()[0] == "trade_guild"
    assert not can(g, "skip")
    assert sorted(g.legal_actions()) == sorted([action_id("adjust", 1, "up"), action_id("adjust", 6, "down")])  # no wrap
    play(g, ("adjust", 1, "up"))
    assert can(g, "skip")  # the second change is the player's choice
    play(g, ("skip",))
    p = g.state.players[0]
    assert sorted(p.dice_face[d] for d in range(5) if p.dice_loc[d] == SUPPLY) == [2, 6]
    assert p.guild[1] == 0 and g.decision()[0] == "turn" and not can(g, "yellow_guild")


def test_trade_guild_paid_while_placing_owes_a_change_and_may_undo_it():
    """p.14, the same sentence, while placing a die: with the die placeable as it is, paying still
    owes a change. Either way is offered for the die, the other die may take it, and the second
    change may turn the die back (the change and its undoing are two changes by 1)."""
    g = build_scenario({"players": [{"dice": [3, 5], "guild": {"yellow": 1}, "provisions": 0}]})
    play(g, ("die", 3))
    assert can(g, "space", "capital.market") and can(g, "yellow_guild")
    play(g, ("yellow_guild",))
    assert not can(g, "skip")
    assert {action_id("adjust", 3, "up"), action_id("adjust", 3, "down"), action_id("adjust", 5, "up")} <= set(g.legal_actions())
    play(g, ("adjust", 3, "up"))
    assert can(g, "skip") and can(g, "adjust", 4, "down")
    play(g, ("adjust", 4, "down"))
    assert g.decision()[0] == "die_space" and g.state.players[0].dice_face[:2] == [3, 5]
    assert can(g, "space", "capital.market") and not can(g, "yellow_guild")


def test_trade_guild_offered_only_with_a_change_to_make_that_keeps_the_die_placeable():
    """p.14, the same sentence: the guild changes dice *in supply*, so with none there it is not
    offered at the start of the turn. While placing a 6 that only the Observatory takes (telescope:
    4 or 6 on this caravan), each offered change keeps the 6 placeable: the other die may change
    (the 6 stays), the 6 may go down (a second change can bring it back), never up (no wrap)."""
    spec = {
        "players": [
            {
                "dice": [1, 6],
                "placed": {"capital.market": 2, "capital.reserve": 3},
                "guild": {"yellow": 1},
                "silver": 5,
                "provisions": 0,
            }
        ]
    }
    g = build_scenario(spec)
    assert can(g, "yellow_guild") and not can(g, "die", 1) and can(g, "die", 6)
    play(g, ("die", 6))
    assert can(g, "space", "capital.observatory") and can(g, "yellow_guild")
    play(g, ("yellow_guild",))
    assert sorted(g.legal_actions()) == sorted([action_id("adjust", 1, "up"), action_id("adjust", 6, "down")])
    play(g, ("adjust", 6, "down"))
    assert g.legal_actions() == [action_id("adjust", 5, "up")]  # a 5 fits nowhere: only back to 6, no skip

    none_in_supply = build_scenario({"players": [{"placed": {"capital.market": 2}, "guild": {"yellow": 1}, "silver": 5}]})
    assert none_in_supply.decision()[0] == "turn" and not can(none_in_supply, "yellow_guild")


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


def _forced(game, action: int):
    """A copy with ``action`` applied by its frame's rule, whether or not the engine offers it."""
    from wayfarers_env.rules import engine, frames

    other = game.clone()
    g = other.state
    top = g.stack[-1]
    frames.RULES[type(top)].apply(g, top, action)
    g.space_memo.clear()
    engine.settle(g)
    other._legal = None
    return other


def _changes(game) -> list[int]:
    """The Trade guild's changes as the rulebook gives them (p.14): a supply die up or down by 1,
    no wrap (back cover); the skip only once the first change is made."""
    g = game.state
    p = g.players[g.current]
    out = set()
    for d in range(len(p.dice_loc)):
        if p.dice_loc[d] == SUPPLY:
            f = p.dice_face[d]
            out |= {action_id("adjust", f, "up")} if f < 6 else set()
            out |= {action_id("adjust", f, "down")} if f > 1 else set()
    return sorted(out) + ([action_id("skip")] if g.stack[-1].steps == 1 else [])


def _can_place(game, die: int, seat: int) -> bool:
    """Exhaustively: some way on (the Trade guild by the rulebook, anything else as the engine
    offers it) puts ``die`` on a space. Spaces themselves are the engine's (tested elsewhere)."""
    from wayfarers_env.rules.dice import DieSpace, TradeGuild, yellow_available

    g = game.state
    if g.players[seat].dice_loc[die] != SUPPLY:
        return True
    if g.over or g.current != seat:
        return False
    top = g.stack[-1]
    if isinstance(top, TradeGuild):
        options = _changes(game)
    else:
        options = [a for a in game.legal_actions() if a != action_id("yellow_guild")]
        if isinstance(top, DieSpace) and yellow_available(g, g.players[seat]):
            options.append(action_id("yellow_guild"))
    return any(_can_place(_forced(game, a), die, seat) for a in options)


@pytest.mark.parametrize("tides", [False, True])
def test_trade_guild_offers_match_an_exhaustive_reference(tides):
    """p.14, restated and searched exhaustively at every die-space and Trade-guild decision of
    random games (the guild chosen often): the guild is offered exactly when paying leads to a
    placement, and its changes are exactly those that do (the first owed, the second optional)."""
    import random

    from wayfarers_env import Game, GameConfig
    from wayfarers_env.rules.dice import DieSpace, TradeGuild, yellow_available

    yellow = action_id("yellow_guild")
    checked = {"offer": 0, "change": 0, "start": 0}
    for seed in range(6 if tides else 10):
        game = Game(GameConfig(num_players=2, tides_of_trade=tides), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            g = game.state
            top = g.stack[-1]
            legal = game.legal_actions()
            seat = g.current
            if isinstance(top, DieSpace):
                want = yellow_available(g, g.players[seat]) and _can_place(_forced(game, yellow), top.die, seat)
                assert (yellow in legal) == want
                checked["offer"] += 1
            elif isinstance(top, TradeGuild) and top.die >= 0:
                assert legal == [a for a in _changes(game) if _can_place(_forced(game, a), top.die, seat)]
                checked["change"] += 1
            elif isinstance(top, TradeGuild):
                assert legal == _changes(game)
                checked["start"] += 1
            often = 0.8 if isinstance(top, DieSpace) else 0.1  # mostly while placing, where a die can be stranded
            a = yellow if yellow in legal and rng.random() < often else legal[rng.randrange(len(legal))]
            game.apply(a)
    assert min(checked.values()) >= 20, checked
