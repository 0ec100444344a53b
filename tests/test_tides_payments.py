"""Tides of Trade: paying a price another way, through the Red guild's ability ("Red Influence",
ToT l.88-92) or the Ink Well's first two abilities ("Card Influence", ToT l.114-117).

Readings (TIDES-QUESTIONS 8 and 12, docs/ARCHITECTURE.md): both serve any price a player spends
(guild abilities, journal splotches, upgrade tiles, card prices, effect costs, the draw-3
Provision), never an influence fee; a price payable in several ways asks which (``payment``).
"""

from __future__ import annotations

import pytest
from conftest import can, play, with_effect

from wayfarers_env import Game, build_scenario
from wayfarers_env.rules.actions import CATALOG, action_id
from wayfarers_env.vocabulary import BLACK, BLUE, RED

TIDES = {"num_players": 2, "tides_of_trade": True}
PRINTED = CATALOG.PAYMENT[0]


def way(red_for: str | None = None, ink: int = 0) -> int:
    """The payment action: Red in place of ``red_for``, Ink Well swap ``ink`` (1: silver for a
    provision, 2: a provision for silver)."""
    k = -1 if red_for is None else ("black", "yellow", "blue").index(red_for)
    return CATALOG.PAYMENT[(k + 1) * 3 + ink]


def test_red_pays_for_a_colour_the_player_lacks():
    """ToT l.88: "spend 1 Red Influence in place of spending 1 Influence of a different colour
    ... They can even use this ability if they have no Influence of the other colour."
    journal.4.1 -> 5.1 side A spends 1 black; with none, 1 red pays, and there is nothing to ask."""
    g = with_effect({"config": TIDES, "sides": "aaa", "players": [{"node": "journal.4.1", "guild": {"black": 0, "red": 1}}]}, "journal")
    play(g, ("do", "journal"), ("journal_to", "journal.5.1"))
    p = g.state.players[0]
    assert p.guild[RED] == 0 and g.state.guild_used[RED] and g.decision()[0] != "payment"


def test_with_both_colours_the_player_chooses():
    g = with_effect({"config": TIDES, "sides": "aaa", "players": [{"node": "journal.4.1", "guild": {"black": 1, "red": 1}}]}, "journal")
    play(g, ("do", "journal"), ("journal_to", "journal.5.1"))
    assert g.decision()[0] == "payment" and set(g.legal_actions()) == {PRINTED, way("black")}
    g = Game.from_dict(g.to_dict())  # the pending payment survives a save
    g.apply(way("black"))
    p = g.state.players[0]
    assert (p.guild[BLACK], p.guild[RED]) == (1, 0)


def test_the_red_ability_serves_once_a_turn():
    """ToT l.88 "only once!" and "players can only use the ability of the Red Guild once per turn"."""
    spec = {"config": TIDES, "sides": "aaa", "players": [{"node": "journal.4.1", "guild": {"black": 0, "red": 2}}]}
    g = with_effect(spec, "journal")
    g.state.guild_used[RED] = True
    g = Game.from_dict(g.to_dict())
    assert not can(g, "do", "journal") or not can(play(g, ("do", "journal")), "journal_to", "journal.5.1")


def test_the_science_guild_can_be_paid_in_red():
    """ToT l.90: "a player could spend 1 Red Influence as if it were Black when journaling to move
    1 additional space on the Main Board (using the Black Guild's ability)"."""
    spec = {"config": TIDES, "sides": "aaa", "players": [{"node": "journal.0.1", "guild": {"black": 0, "red": 1}, "water": ["water.19"]}]}
    g = with_effect(spec, "journal")  # water.19: an open water for journal.1.2 -> 2.2
    play(g, ("do", "journal"), ("journal_to", "journal.1.2"), ("done",))
    assert g.decision()[0] == "science_guild"  # no black at all: the red pays
    play(g, ("black_guild",))
    assert g.decision()[0] == "journal" and g.state.players[0].guild[RED] == 0


def test_an_upgrade_tile_paid_with_blue_and_red():
    """ToT l.92: "a player could spend 1 Blue Influence and 1 Red Influence (as if it were Blue) when
    acquiring a Water Upgrade Tile" (price: 3 Silver or 2 Blue)."""
    g = with_effect({"config": TIDES, "players": [{"silver": 0, "guild": {"blue": 1, "red": 1}}]}, "tile(water)")
    play(g, ("do", "tile_water"))
    play(g, action_id("tile_design", g.state.tables.designs[CATALOG.at[g.legal_actions()[0]]].id))
    assert g.legal_actions() == [action_id("tile_pay", "influence")]
    play(g, ("tile_pay", "influence"))
    p = g.state.players[0]
    assert (p.guild[BLUE], p.guild[RED]) == (0, 0) and g.decision()[0] == "tile_position"


def test_the_ink_well_pays_a_provision_with_silver():
    """ToT l.116: "Spend 1 Card Influence, along with 1 Silver to spend 1 fewer Provision"."""
    g = with_effect({"config": TIDES, "players": [{"silver": 1, "provisions": 0, "ink": 1}]}, "provision -> silver")
    assert can(g, "do", "pay_provisions")
    play(g, ("do", "pay_provisions"))
    p = g.state.players[0]
    assert (p.silver, p.provisions, p.ink, g.state.ink_used) == (0, 0, 0, True)
    assert p.supply + sum(p.guild) == 15  # the token went back to the supply


def test_the_ink_well_pays_silver_with_a_provision():
    """ToT l.117: "Spend 1 Card Influence, along with 1 Provision to spend 1 fewer Silver": a
    3-Silver townsfolk (its host: the open water of water.19) for 2 Silver and 1 Provision."""
    player = {"silver": 2, "provisions": 1, "ink": 1, "water": ["water.19"]}
    spec = {"config": TIDES, "players": [player], "market": {"townsfolk": ["townsfolk.12"]}}
    g = with_effect(spec, "townsfolk")
    assert g.state.tables.cards[g.state.market[0]].cost == 3
    play(g, ("do", "townsfolk"))
    assert can(g, "take_slot", 1)
    play(g, ("take_slot", 1))
    p = g.state.players[0]
    assert (p.silver, p.provisions, p.ink) == (0, 0, 0)


@pytest.mark.parametrize("setting", ["cards"])
def test_no_ink_well_abilities_under_the_original_rules(setting):
    """ToT l.127: "Just the original rules: Players do not place Influence on the Ink Well, or use
    its abilities"."""
    spec = {"config": {**TIDES, "card_influence": setting}, "players": [{"silver": 1, "provisions": 0}]}
    g = with_effect(spec, "provision -> silver")
    g.state.players[0].ink = 1  # as if placed earlier: the setting still forbids the ability
    assert not can(g, "do", "pay_provisions")


def test_one_ink_well_ability_a_turn():
    """ToT l.114: "Players can only use 1 effect per turn, and only once"."""
    spec = {"config": TIDES, "players": [{"silver": 2, "provisions": 0, "ink": 2}]}
    g = with_effect(spec, "(provision -> silver), (provision -> silver)")
    play(g, ("do", "pay_provisions"))
    assert not can(g, "do", "pay_provisions")


def test_a_base_game_never_asks_how_to_pay():
    g = with_effect({"players": [{"silver": 1, "provisions": 0}]}, "provision -> silver")
    assert not can(g, "do", "pay_provisions")
    g = build_scenario({"players": [{"guild": {"black": 1}}]})
    assert all(a not in CATALOG.PAYMENT for a in g.legal_actions())
