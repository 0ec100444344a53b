"""Tides of Trade's new card rules and icons: Overseers under the Market and dismissed
(ToT l.102, l.149-153, l.236-240), Cities and Harbours with an influence cost (l.266), capturing a
worker (l.270-274) and the Ink Well's third and fourth abilities (l.118-121). Line numbers are those
of ../shared/rules/tides-of-trade-rulebook.txt."""

from __future__ import annotations

import pytest
from conftest import can, play, with_effect

from wayfarers_env import Game, build_scenario
from wayfarers_env.rules.actions import CATALOG, action_id
from wayfarers_env.vocabulary import RED, WORKER_COLOURS, YELLOW

W_YELLOW, W_BLUE = WORKER_COLOURS.index("yellow"), WORKER_COLOURS.index("blue")

TIDES = {"num_players": 2, "tides_of_trade": True}
OVERSEER = "townsfolk.40"  # resting: 2 provisions, 1 silver; dismissed: a free land tile, 1 provision


def acquire_overseer(spec_player: dict | None = None) -> Game:
    spec = {"config": TIDES, "market": {"townsfolk": [OVERSEER]}, "players": [{"silver": 3, **(spec_player or {})}]}
    g = with_effect(spec, "townsfolk")
    play(g, ("do", "townsfolk"), ("take_slot", 1))
    return g


def test_an_overseer_tucks_only_under_the_market_or_is_dismissed():
    """ToT l.102 "This is the only area where Overseer Cards can be tucked beneath"; l.238 "players can
    instead dismiss them"; both cost the printed 3 Silver."""
    g = acquire_overseer()
    assert g.decision()[0] == "tuck_townsfolk"
    assert set(g.legal_actions()) == {CATALOG.MARKET, CATALOG.DISMISS}
    card = g.decision()[1].card
    play(g, ("tuck_market",))
    p = g.state.players[0]
    assert p.overseer == card and p.silver == 0 and card not in p.tucked.values()


def test_with_an_overseer_under_the_market_another_can_only_be_dismissed():
    """ToT l.149 "Players can also tuck 1 Overseer Townsfolk beneath their Market" (one at a time)."""
    g = acquire_overseer({"overseer": "townsfolk.41"})
    assert g.legal_actions() == [CATALOG.DISMISS]


def test_a_dismissed_overseer_gives_its_top_right_effect_and_leaves_the_game():
    """ToT l.238 "dismiss them to resolve the effects shown in the top-right corner of the Card ...
    Dismissed Overseers should be returned to the game box." townsfolk.40: a free Land tile and 1
    provision."""
    g = acquire_overseer({"provisions": 0})
    card = g.decision()[1].card
    play(g, ("dismiss",))
    assert g.state.boxed == [card] and g.state.players[0].overseer == -1
    assert g.decision()[0] == "effect" and can(g, "do", "provisions") and can(g, "do", "tile_land")
    saved = Game.from_dict(g.to_dict())  # the box is saved and checked
    assert saved.state.boxed == [card]


def test_an_overseer_rests_only_with_a_trader_on_the_market():
    """ToT l.149 "a special ability when they Rest, so long as they have a Trader Tile on their Market
    at that time"; l.151 the trader then goes back."""
    for trader, provisions in ((None, 0), ("trader.2", 2)):
        player = {"overseer": OVERSEER, "provisions": 0, "dice": []}
        if trader:
            player["trader"] = trader
        g = build_scenario({"config": TIDES, "players": [player]})
        g.apply(CATALOG.REST)
        while g.current_player == 0 and g.decision()[0] != "effect" and not g.is_over:
            g.apply(g.legal_actions()[0])
        if trader:
            assert g.decision()[0] == "effect" and can(g, "do", "provisions")
            while g.current_player == 0:
                g.apply(g.legal_actions()[0])
        assert g.state.players[0].provisions == provisions and g.state.players[0].trader == -1


def test_an_influence_cost_space_takes_any_die_and_charges_first():
    """ToT l.266 "Dice of any value can be placed here, but players must spend the required Influence
    before resolving any of the Card's effects." land.39 costs 1 yellow."""
    g = build_scenario({"config": TIDES, "players": [{"land": ["land.39"], "dice": [1, 1, 1], "guild": {"yellow": 1}}]})
    supply = g.state.players[0].supply
    play(g, ("die", 1), ("space", "land.39"))
    p = g.state.players[0]
    assert p.guild[YELLOW] == 0 and p.supply == supply + 1 and g.decision()[0] == "effect"


def test_an_influence_cost_space_is_closed_without_the_influence_unless_a_townsfolk_provides_it():
    """ToT l.266 "If a tucked Townsfolk Card can provide the required Influence, they may be activated
    as the Dice is placed"; reading TIDES-QUESTIONS 29: no die goes there when nobody can pay."""
    g = build_scenario({"config": TIDES, "players": [{"land": ["land.39"], "dice": [1, 1, 1], "guild": {"yellow": 0}}]})
    play(g, ("die", 1))
    assert not can(g, "space", "land.39")
    spec = {"land": ["land.39"], "tucked": {"land.39": "townsfolk.39"}, "dice": [1, 1, 1], "guild": {"yellow": 0}}
    h = build_scenario({"config": TIDES, "players": [spec]})
    play(h, ("die", 1), ("space", "land.39"))
    assert h.decision()[0] == "effect" and h.state.players[0].guild[YELLOW] == 0


def test_capture_from_a_card_or_from_an_opponent_for_a_fee_then_place_a_worker():
    """ToT l.270 "Capture a Worker, and then place and resolve any Worker from their supply"; l.274
    "take a Worker from an opponent's personal supply, players must pay that opponent either 1
    Silver or 1 Provision"."""
    spec = {
        "config": TIDES,
        "players": [{"workers": {"yellow": 0, "blue": 0}, "silver": 2}, {"workers": {"yellow": 2, "blue": 2}, "silver": 0}],
    }
    g = with_effect(spec, "capture_worker")
    play(g, ("do", "capture_worker"))
    assert g.decision()[0] == "capture_worker"
    assert set(g.legal_actions()) == {action_id("capture_from_player", 1, c) for c in ("yellow", "blue")}
    play(g, ("capture_from_player", 1, "blue"))
    assert g.decision()[0] == "influence_fee"
    play(g, ("fee", "silver"))
    me, them = g.state.players
    assert (me.workers[W_BLUE], them.workers[W_BLUE], me.silver, them.silver) == (1, 1, 1, 1)
    assert g.decision()[0] == "place_captured" and g.legal_actions() == [action_id("worker", "blue")]
    play(g, ("worker", "blue"))
    assert g.decision()[0] == "worker_target"


def test_a_capture_with_nothing_to_place_afterwards_ends_quietly():
    """Reading TIDES-QUESTIONS 30: when no worker can be placed after the capture, nothing is asked."""
    spec = {
        "config": TIDES,
        "players": [{"workers": {"yellow": 0, "blue": 0, "green": 0}, "silver": 2}, {"workers": {"yellow": 2, "blue": 2}}],
    }
    g = with_effect(spec, "capture_worker")
    play(g, ("do", "capture_worker"), ("capture_from_player", 1, "yellow"), ("fee", "silver"))
    assert g.state.players[0].workers[W_YELLOW] == 1
    assert g.decision()[0] in ("place_captured", "turn", "effect")
    if g.decision()[0] == "place_captured":  # a yellow spot is open: then it must be placeable
        assert g.legal_actions() == [action_id("worker", "yellow")]


@pytest.mark.parametrize("ability", ["ink_capture", "ink_red"])
def test_the_ink_wells_fourth_ability_costs_three(ability):
    """ToT l.121 "Spend 3 Card Influence to either Capture 1 Worker, or gain 1 Red Influence"; reading
    TIDES-QUESTIONS 11: the capture alone (the worker joins the supply, nothing is placed)."""
    me = {"ink": 3, "guild": {"red": 0}, "workers": {"yellow": 0, "blue": 0}}
    spec = {"config": TIDES, "players": [me, {"workers": {"yellow": 2, "blue": 2}, "silver": 0}]}
    g = build_scenario(spec)
    assert can(g, ability)
    play(g, (ability,))
    p = g.state.players[0]
    assert p.ink == 0 and g.state.ink_used
    if ability == "ink_red":
        assert p.guild[RED] == 1
    else:
        assert g.decision()[0] == "capture_worker"
    two = build_scenario({**spec, "players": [{**spec["players"][0], "ink": 2}, spec["players"][1]]})
    assert not can(two, ability)


def test_the_ink_wells_third_ability_adds_assets_to_a_die():
    """ToT l.119 "When placing a Die, spend 2 Card Influence to act as if that Die had 1 Pigeon, 1
    Camel, and 1 Telescope"."""
    g = build_scenario({"config": TIDES, "players": [{"ink": 2, "dice": [1, 1, 1]}]})
    play(g, ("die", 1))
    if not can(g, "ink_assets"):
        pytest.fail(f"ink_assets not offered: {[CATALOG.names[a] for a in g.legal_actions()]}")
    before = set(g.legal_actions())
    play(g, ("ink_assets",))
    assert g.state.players[0].ink == 0 and g.state.ink_assets and g.state.ink_used
    assert set(g.legal_actions()) - before  # more spaces (or more of them) open with the extra assets
    saved = Game.from_dict(g.to_dict())
    assert saved.state.ink_assets


def test_ink_well_abilities_are_off_under_the_original_rules():
    """ToT l.129 "Just the original rules: Players do not place Influence on the Ink Well, or use its
    abilities"."""
    g = build_scenario({"config": {**TIDES, "card_influence": "cards"}, "players": [{"dice": [1, 1, 1]}]})
    assert not can(g, "ink_red") and not can(g, "ink_capture")
    play(g, ("die", 1))
    assert not can(g, "ink_assets")


def test_setup_adds_the_pink_trading_post_tile():
    """ToT setup: "There is a new Pink Upgrade Tile featuring a Trading Post" (l.106), in the supply
    only with the expansion."""
    from wayfarers_env import GameConfig

    def supply(tides: bool) -> dict[str, int]:
        g = Game(GameConfig(num_players=2, tides_of_trade=tides), 0).state
        return {d.id: g.tile_supply[i] for i, d in enumerate(g.tables.designs) if d.kind == "special"}

    assert supply(True).get("tile.special.trading_post") == 1
    assert "tile.special.trading_post" not in supply(False)  # the base game's content has no such design


def test_the_market_counts_as_a_land_card_but_not_a_city_or_vista():
    """ToT l.143 "While this is not a City or Vista, it is still considered a Land Card for effects
    that would reference Land Cards."""
    from wayfarers_env.content.measures import TERM_INDEX

    base = build_scenario({"config": {"num_players": 2}}).state.players[0].counts
    tides = build_scenario({"config": TIDES}).state.players[0].counts
    assert tides[TERM_INDEX["land_cards"]] == base[TERM_INDEX["land_cards"]] + 1
    assert tides[TERM_INDEX["city"]] == base[TERM_INDEX["city"]] and tides[TERM_INDEX["vista"]] == base[TERM_INDEX["vista"]]


def test_a_worker_tiles_card_influence_cost_comes_from_the_ink_well_or_a_card():
    """ToT l.218 "Upgrade Tiles like this have both a cost and an effect. The cost must be paid before
    resolving the effect. Card Influence for this left Tile can be removed from the Ink Well or from a
    Card." top4: spend 1 card influence -> 3 silver, joining a yellow worker's placement."""
    tile = {"yellow": ["worker_tile.top4", "worker_tile.bottom1"]}
    spec: dict = {"config": TIDES, "players": [{"ink": 1, "silver": 0, "workers": {"yellow": 1}, "worker_tiles": tile}]}
    land = build_scenario(spec).state
    spec["influence_on"] = {land.tables.cards[land.market[4]].id: 0}  # the first Land card
    g = build_scenario(spec)
    play(g, ("worker", "yellow"))
    g.apply(g.legal_actions()[0])  # a spot; the tile's parts join the spot's
    play(g, ("do", "pay_card_influence"))
    assert g.decision()[0] == "card_influence_paid"
    assert set(g.legal_actions()) == {action_id("card", "land", 1), CATALOG.INK_WELL}
    g.apply(CATALOG.INK_WELL)
    p = g.state.players[0]
    assert p.ink == 0 and g.state.market_inf[4] == 0  # paid from the Ink Well, the card's token stays
    assert can(g, "do", "silver")
    play(g, ("do", "silver"))
    assert g.state.players[0].silver == 3
