"""Influence (rulebook 'Influence' p.6, 'Guilds' p.8) and workers ('Placing a Worker' p.16)."""

from __future__ import annotations

import pytest
from conftest import can, leaves, play

from wayfarers_env import IllegalActionError
from wayfarers_env.rules.actions import action_id
from wayfarers_env.rules.scenario import build_scenario

LAND_ROW = ["land.5", "land.6", "land.7", "land.8"]


def test_fee_paid_to_the_owner_with_silver_or_provision():
    """p.6: interacting with a card holding an opponent's influence costs 1 Silver or 1 Provision,
    paid to that opponent."""
    spec = {"players": [{"workers": {"yellow": 1}, "silver": 1, "provisions": 1}], "market": {"land": LAND_ROW}}
    spec["influence_on"] = {"land.6": 1}
    g = build_scenario(spec)
    play(g, ("worker", "yellow"), ("card", "land", 2))
    assert g.decision()[0] == "influence_fee"
    assert can(g, "fee", "silver") and can(g, "fee", "provision")
    play(g, ("fee", "provision"))
    assert g.state.players[0].provisions == 0 and g.state.players[1].provisions == 3
    assert g.state.market_inf[1 * 4 + 1] == 1  # influence stays on a card that is not acquired


def test_no_interaction_when_the_fee_cannot_be_paid():
    """p.6: 'If they cannot pay, then they cannot interact with that Card' - placing and retrieving."""
    spec = {
        "players": [{"workers": {"yellow": 1}, "silver": 0, "provisions": 0}],
        "market": {"land": LAND_ROW},
        "influence_on": {"land.5": 1, "land.6": 1, "land.7": 1, "land.8": 1},
    }
    g = build_scenario(spec)
    play(g, ("worker", "yellow"))  # the Inspiration cards still take yellow workers
    assert not any(can(g, "card", "land", s) for s in range(1, 5))
    spec["influence_on"] = {"land.6": 1}
    g = build_scenario(spec)
    play(g, ("worker", "yellow"))
    assert not can(g, "card", "land", 2) and can(g, "card", "land", 1)  # slot 2 is influenced


def test_retrieving_from_an_influenced_card_pays_the_fee():
    """p.6: retrieving a worker from a card is an interaction too (the influence stays)."""
    spec = {
        "players": [
            {"dice": [1], "silver": 1, "provisions": 0, "workers": {"yellow": 0}, "tiles": [["tile.basic2", 2, 1]], "water": ["water.10"]}
        ],
        "market": {"land": LAND_ROW},
        "workers_on": {"land.6": ["yellow"], "land.7": ["green"]},
        "influence_on": {"land.6": 1},
    }
    g = build_scenario(spec)
    # water.10 needs two ships: one from the caravan, one hired from the Exploration guild
    play(g, ("die", 1), ("hire_ship",), ("space", "water.10"), ("do", "retrieve_worker"))
    assert can(g, "retrieve", "land", 2, "yellow") and can(g, "retrieve", "land", 3, "green")
    play(g, ("retrieve", "land", 2, "yellow"), ("fee", "silver"))
    assert g.state.players[0].workers[0] == 1 and g.state.players[1].silver == 4
    assert g.state.market_inf[1 * 4 + 1] == 1


def test_own_influence_costs_nothing_and_returns_home():
    spec = {
        "players": [{"dice": [1], "provisions": 2, "silver": 0}],
        "market": {"land": LAND_ROW},
        "influence_on": {"land.5": 0},
    }
    g = build_scenario(spec)
    supply = g.state.players[0].supply
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"), ("take_slot", 1))
    assert g.decision()[0] != "influence_fee"
    assert g.state.players[0].supply == supply + 1


def test_card_influence_only_on_free_face_up_cards_of_any_row():
    """p.6: place an influence on any face-up card that does not already have one (Space and
    Inspiration rows included, RULES-FACTS §11.2)."""
    spec = {
        "players": [{"dice": [1], "water": ["water.3"], "tiles": [["tile.basic4", 2, 1]]}],
        "market": {"townsfolk": ["townsfolk.8", "townsfolk.9", "townsfolk.10", "townsfolk.11"]},
        "influence_on": {"townsfolk.8": 1},
    }
    g = build_scenario(spec)
    play(g, ("die", 1), ("space", "water.3"), ("do", "card_influence"))
    rows = ("townsfolk", "land", "water", "space", "inspiration")
    legal_cards = [i for i in range(20) if can(g, "card", rows[i // 4], i % 4 + 1)]
    assert legal_cards == list(range(1, 20))


def test_empty_supply_moves_an_influence_instead():
    """p.6: 'If when gaining the ability to Influence a Card or Guild, a player has none left in
    their supply, they may instead move an Influence from a Card or Guild.'"""
    spec = {"players": [{"dice": [1], "land": ["land.16"], "tiles": [["tile.basic4", 2, 1]], "guild": {"black": 4, "blue": 11}}]}
    g = build_scenario(spec)
    assert g.state.players[0].supply == 0
    play(g, ("die", 1), ("space", "land.16"), ("do", "guild_yellow"))
    assert g.decision()[0] == "influence_source"
    assert can(g, "from_guild", "black") and can(g, "from_guild", "blue") and not can(g, "from_guild", "yellow")
    assert can(g, "skip")
    play(g, ("from_guild", "blue"))
    assert g.state.players[0].guild == [4, 1, 10, 0]  # black, yellow, blue, red


def test_move_influence_between_guilds():
    spec = {"players": [{"dice": [1], "water": ["water.19"], "tucked": {"water.19": "townsfolk.4"}}]}
    g = build_scenario(spec)
    play(g, ("rest",), ("skip",), ("do", "move_influence"))
    assert can(g, "move", "blue", "black") and not can(g, "move", "black", "blue")
    play(g, ("move", "blue", "yellow"))
    assert g.state.players[0].guild == [0, 1, 0, 0]


# ---------------------------------------------------------------- workers (p.16)


def test_worker_colours_per_row():
    """p.16: Townsfolk take green; Land green and yellow; Water green and blue; Inspiration any;
    one worker of each colour per card; never on Space cards."""
    spec = {"players": [{"workers": {"yellow": 1, "blue": 1, "green": 1}, "silver": 5, "provisions": 5}]}
    g = build_scenario(spec)
    rows = ("townsfolk", "land", "water", "space", "inspiration")
    allowed = {}
    for colour in ("yellow", "blue", "green"):
        c = g.clone()
        play(c, ("worker", colour))
        allowed[colour] = {rows[i // 4] for i in range(20) if can(c, "card", rows[i // 4], i % 4 + 1)}
    assert allowed["green"] == {"townsfolk", "land", "water", "inspiration"}
    assert allowed["yellow"] == {"land", "inspiration"}
    assert allowed["blue"] == {"water", "inspiration"}
    spec["workers_on"] = {g.state.tables.cards[g.state.market[4]].id: ["yellow"]}
    spec["players"].append({"workers": {"yellow": 0}})  # that yellow worker is seat 1's
    g = build_scenario(spec)
    play(g, ("worker", "yellow"))
    assert not can(g, "card", "land", 1) and can(g, "card", "land", 2)


@pytest.mark.parametrize(
    "row, slot, expected",
    [
        ("townsfolk", 4, {"journal", "provisions"}),
        ("townsfolk", 3, {"tile_basic"}),
        ("townsfolk", 2, {"guild_black", "guild_yellow", "guild_blue"}),
        ("land", 2, {"silver", "guild_yellow"}),
        ("water", 2, {"provisions", "guild_blue"}),
        ("inspiration", 1, {"provisions"}),
        ("inspiration", 2, {"provisions", "guild_any"}),
        ("inspiration", 3, {"silver", "refresh_die"}),
        ("inspiration", 4, {"silver"}),
    ],
)
def test_worker_spot_actions(row, slot, expected):
    """p.16 lists each row's actions, slot 1 nearest the board centre (Inspiration: the bottom)."""
    spec = {"sides": "aaa", "players": [{"workers": {"green": 1}, "silver": 5, "provisions": 5}]}
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", row, slot))
    assert leaves(g) == expected


def test_worker_needs_an_action_part_that_can_resolve():
    """p.16: 'Players can only place a Worker if they are able to resolve at least 1 part of its
    printed action.' Explore (slot 4) needs 3 provisions; the Land tile spot needs 3 silver or 2 yellow."""
    spec = {"players": [{"workers": {"yellow": 1}, "silver": 0, "provisions": 2, "guild": {"yellow": 0}}]}
    g = build_scenario(spec)
    play(g, ("worker", "yellow"))
    assert can(g, "card", "land", 1) or can(g, "card", "land", 2)
    assert not can(g, "card", "land", 4) and not can(g, "card", "land", 3)


def test_workers_become_public_and_the_placer_cannot_take_it_back():
    """p.16: a placed worker can be retrieved by anyone later, but never by its placer in the same turn."""
    spec = {
        "sides": "aaa",
        "players": [{"workers": {"green": 1}, "node": "journal.0.1"}],
        "journal_tiles": {"journal.1.1": "journal_tile.7"},
    }
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.1.1"))
    assert "retrieve_worker" not in leaves(g)  # the only worker out there is the one just placed
    with pytest.raises(IllegalActionError):
        g.apply(action_id("do", "retrieve_worker"))
