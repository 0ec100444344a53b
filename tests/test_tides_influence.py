"""Tides of Trade: red influence, the red guild, and card influence on the Ink Well.

Line numbers cite tests-facing passages of the expansion's rulebook
(../shared/rules/tides-of-trade-rulebook.txt, "ToT l.N").
"""

from __future__ import annotations

import pytest
from conftest import can, play, with_effect

from wayfarers_env import ConfigError, GameConfig, build_scenario
from wayfarers_env.rules.actions import CATALOG, action_id
from wayfarers_env.vocabulary import BLACK, BLUE, RED, YELLOW

TIDES = {"num_players": 2, "tides_of_trade": True}


def test_red_influence_is_gained_like_the_other_colours():
    """ToT l.70: "Players can now gain and spend Red Influence. This works just like Influence of the
    original 3 colours." """
    g = with_effect({"config": TIDES}, "guild(red)")
    supply = g.state.players[0].supply
    play(g, ("do", "guild_red"))
    assert g.state.players[0].guild[RED] == 1 and g.state.players[0].supply == supply - 1


def test_the_any_guild_icon_never_reaches_red():
    """ToT l.80: "This icon still only allows players to gain either Black, Yellow, or Blue
    Influence. Not Red!" """
    g = with_effect({"config": TIDES}, "guild(any)")
    play(g, ("do", "guild_any"))
    assert g.decision()[0] == "choose_guild"
    assert g.legal_actions() == [action_id("guild", c) for c in ("black", "yellow", "blue")]


def test_move_influence_goes_into_red_but_never_out_of_it():
    """ToT l.84: "This icon allows players to move Influence from Black, Yellow, or Blue to any other
    Guild, including to Red." Red is never a source (TIDES-QUESTIONS Q7)."""
    g = with_effect({"config": TIDES, "players": [{"guild": {"black": 1, "blue": 0, "red": 2}}]}, "move_influence")
    play(g, ("do", "move_influence"))
    legal = set(g.legal_actions())
    assert legal == {action_id("move", "black", other) for other in ("yellow", "blue", "red")}  # none from red
    play(g, ("move", "black", "red"))
    assert g.state.players[0].guild[BLACK] == 0 and g.state.players[0].guild[RED] == 3


def test_move_into_red_is_the_expansions_only():
    """Without the expansion the Red guild does not exist: the base game's moves only."""
    g = with_effect({"players": [{"guild": {"black": 1, "blue": 0}}]}, "move_influence")
    play(g, ("do", "move_influence"))
    assert set(g.legal_actions()) == {action_id("move", "black", "yellow"), action_id("move", "black", "blue")}


def test_red_and_the_ink_well_need_the_expansion():
    with pytest.raises(Exception, match="unknown guild 'red'"):
        build_scenario({"players": [{"guild": {"red": 1}}]})
    with pytest.raises(Exception, match="Tides of Trade"):
        build_scenario({"players": [{"ink": 1}]})
    with pytest.raises(ConfigError, match="tides_of_trade=True"):
        GameConfig(card_influence="ink_well")


@pytest.mark.parametrize(
    ("setting", "cards", "ink"),
    [("both", True, True), ("ink_well", False, True), ("cards", True, False)],
)
def test_card_influence_goes_where_the_chosen_setting_allows(setting, cards, ink):
    """ToT l.109-128: "Any time players would gain Card Influence, they can either place Influence on
    a Card following the original rules, or instead, place it on the large black Ink Well"; the
    Alternative Rules: 1 both, 2 "Just the new rules: Players no longer place Influence onto
    Cards", 3 "Just the original rules: Players do not place Influence on the Ink Well"."""
    g = with_effect({"config": {**TIDES, "card_influence": setting}}, "card_influence")
    play(g, ("do", "card_influence"))
    legal = g.legal_actions()
    assert (CATALOG.INK_WELL in legal) is ink
    assert any(a in CATALOG.CARD for a in legal) is cards
    if ink:
        supply = g.state.players[0].supply
        g.apply(CATALOG.INK_WELL)
        assert g.state.players[0].ink == 1 and g.state.players[0].supply == supply - 1


def test_base_game_card_influence_goes_on_cards_only():
    g = with_effect({}, "card_influence")
    play(g, ("do", "card_influence"))
    assert CATALOG.INK_WELL not in g.legal_actions() and all(a in CATALOG.CARD for a in g.legal_actions())


def test_with_an_empty_supply_a_token_moves_to_the_ink_well_from_a_guild_red_included():
    """Base rulebook p.6 (empty supply: move one of your tokens from a card or a guild instead),
    with the Ink Well as the target and Red as a guild a token may come from (TIDES-QUESTIONS
    Q10: the Ink Well itself is never the source)."""
    spec = {"config": TIDES, "players": [{"guild": {"black": 2, "yellow": 3, "blue": 3, "red": 2}, "ink": 5}]}
    g = with_effect(spec, "card_influence")
    p = g.state.players[0]
    assert p.supply == 0 and p.ink == 5
    play(g, ("do", "card_influence"))
    g.apply(CATALOG.INK_WELL)
    assert g.decision()[0] == "influence_source"
    legal = set(g.legal_actions())
    assert {action_id("from_guild", c) for c in ("black", "yellow", "blue", "red")} <= legal
    g.apply(action_id("from_guild", "red"))
    p = g.state.players[0]
    assert p.guild[RED] == 1 and p.ink == 6 and (p.guild[BLACK], p.guild[YELLOW], p.guild[BLUE]) == (2, 3, 3)


def test_influence_is_conserved_with_the_ink_well():
    """Each player owns 15 influence: in supply, in guilds (red included), on cards, on the Ink Well."""
    g = build_scenario({"config": TIDES, "players": [{"guild": {"red": 4}, "ink": 3}]})
    p = g.state.players[0]
    assert p.supply + sum(p.guild) + p.ink == 15 and p.supply == 15 - 1 - 4 - 3  # seat 0 starts with 1 blue
    with pytest.raises(Exception, match="owns 15"):
        build_scenario({"config": TIDES, "players": [{"guild": {"red": 10}, "ink": 6}]})
    assert can(with_effect({"config": TIDES}, "card_influence"), "do", "card_influence")
