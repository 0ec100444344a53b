"""Acquiring cards (rulebook 'Acquiring Cards' pp.10-11, card types pp.8-10, 'Workers on Cards')."""

from __future__ import annotations

from conftest import can, leaves, play

from wayfarers_env.rules.actions import CATALOG, action_id
from wayfarers_env.rules.frames import SRC_ACQUIRED
from wayfarers_env.rules.scenario import build_scenario

SPACE_ROW = ["space.star2", "space.star3", "space.star4", "space.star5"]


def _observatory(silver, tiles=(), land=("land.19",), extra=None):
    spec = {
        "players": [{"dice": [6], "silver": silver, "land": list(land), "tiles": list(tiles), "guild": {"black": 0}}],
        "market": {"space": SPACE_ROW},
    }
    if extra:
        spec["players"][0].update(extra)
    g = build_scenario(spec)
    play(g, ("die", 6))
    if not can(g, "space", "capital.observatory"):
        return None
    play(g, ("space", "capital.observatory"))
    return g


def test_space_card_slot_costs():
    """p.10: Space cards cost Silver by the slot they sit above; the slots cost 3, 4, 4, 5."""
    for silver, takeable in ((2, []), (3, [1]), (4, [1, 2, 3]), (5, [1, 2, 3, 4])):
        g = _observatory(silver)
        if not takeable:
            assert g is None  # nothing on the Observatory space could resolve: no placement
            continue
        play(g, ("do", "space_card"))
        assert [s for s in range(1, 5) if can(g, "take_slot", s)] == takeable


def test_silver_discount_from_the_caravan_lowers_the_price():
    """p.13: a silver-discount icon in the die's column discounts the die's whole action by 1."""
    g = _observatory(4, tiles=[["tile.water3", 2, 5, 1]])  # [down | silver discount] on columns 5-6
    play(g, ("do", "space_card"))
    assert can(g, "take_slot", 4)
    play(g, ("take_slot", 4), ("place_above", "land.19"))
    assert g.state.players[0].silver == 0


def test_discounted_space_card_stacks_with_the_caravan():
    """land.14 'acquire a Space card with 1 Silver discount' plus a caravan discount: slot 4 for 3."""
    spec = {
        "players": [
            {
                "dice": [6],
                "silver": 3,
                "land": ["land.14", "land.19"],
                "tiles": [["tile.water3", 2, 5, 1], ["tile.basic3", 2, 4]],
                "tucked": {"land.14": "townsfolk.30"},  # Stargazer: telescope + camel on land.14
            }
        ],
        "market": {"space": SPACE_ROW},
    }
    g = build_scenario(spec)
    play(g, ("die", 6), ("space", "land.14"), ("do", "space_card"))
    assert can(g, "take_slot", 4)


def test_space_card_needs_an_empty_land_or_water_card_below():
    """p.9: Space cards go above Land or Water cards, never above an empty slot or the capital."""
    g = _observatory(5, land=())
    assert "space_card" not in leaves(g) and "tile_space" in leaves(g)
    g = _observatory(5, land=("land.19",), extra={"above": {"land.19": "space.star10"}})
    assert "space_card" not in leaves(g)
    g = _observatory(5, land=("land.19", "land.20"))
    play(g, ("do", "space_card"), ("take_slot", 1))
    assert can(g, "place_above", "land.19") and can(g, "place_above", "land.20")
    assert not can(g, "place_above", "land.21")


def test_townsfolk_cost_and_host_tags():
    """p.10-11: Townsfolk cost their printed Silver and need a host with one of their tags, and
    each Land/Water card holds one townsfolk."""
    spec = {
        "players": [{"dice": [3], "silver": 1, "land": ["land.3"]}],
        "market": {"townsfolk": ["townsfolk.27", "townsfolk.8", "townsfolk.22", "townsfolk.2"]},
    }
    g = build_scenario(spec)
    play(g, ("die", 3), ("space", "capital.market"), ("do", "townsfolk"))
    # Scribe needs a Vista (none); Farmer costs 2 (only 1 silver); Messenger (1) fits a city;
    # Astronomer (0) needs an Observatory card (the capital centre is not a host)
    assert [s for s in range(1, 5) if can(g, "take_slot", s)] == [3]
    play(g, ("take_slot", 3))
    assert can(g, "tuck_under", "land.3") and can(g, "tuck_under", "capital.city") and can(g, "tuck_under", "capital.harbour")
    play(g, ("tuck_under", "land.3"))
    assert g.state.players[0].silver == 0


def test_townsfolk_tucks_only_under_a_host_with_a_tag_it_needs():
    """p.10: 'They may only be tucked under a Land or Water Card featuring at least 1 of the
    required Tags.' (RULES-FACTS §9.6: the capital City and Harbour are hosts too.) With a city,
    a vista, a harbour and an open water in the panorama, each townsfolk is offered exactly the
    untaken hosts that carry one of its tags."""
    panorama = {"dice": [3], "silver": 2, "land": ["land.3", "land.19"], "water": ["water.4", "water.19"]}
    market = ["townsfolk.27", "townsfolk.1", "townsfolk.4", "townsfolk.8"]
    expected = {
        1: {"land.19"},  # Scribe: vista
        2: {"water.4", "capital.harbour"},  # Adventurer: harbour
        3: {"water.19"},  # Enforcer: open water
        4: {"land.3", "capital.city"},  # Farmer: city
    }
    for slot, hosts in expected.items():
        g = build_scenario({"players": [panorama], "market": {"townsfolk": market}})
        play(g, ("die", 3), ("space", "capital.market"), ("do", "townsfolk"), ("take_slot", slot))
        assert g.decision()[0] == "tuck_townsfolk"
        offered = {CATALOG.host_ids[CATALOG.at[a]] for a in g.legal_actions() if a in CATALOG.TUCK}
        assert offered == hosts, market[slot - 1]


def test_free_townsfolk_still_pays_influence():
    """Iconography: 'Acquire a Townsfolk card for free (any Influence must still be paid).'"""
    spec = {
        "players": [
            {
                "dice": [1],
                "silver": 0,
                "provisions": 1,
                "water": ["water.13"],  # two ships: a free townsfolk
                "tiles": [["tile.basic2", 2, 1], ["tile.basic2", 3, 1]],  # two ships on 1s
            }
        ],
        "market": {"townsfolk": ["townsfolk.8", "townsfolk.9", "townsfolk.10", "townsfolk.11"]},
        "influence_on": {"townsfolk.8": 1},
    }
    g = build_scenario(spec)
    play(g, ("die", 1), ("space", "water.13"), ("do", "townsfolk"), ("take_slot", 1))
    assert g.decision()[0] == "influence_fee"
    assert g.legal_actions() == [action_id("fee", "provision")]
    play(g, ("fee", "provision"), ("tuck_under", "capital.city"))
    assert g.state.players[1].provisions == 2 + 1


def test_draw_three_keep_one_with_a_provision():
    """p.11: instead of a face-up Land card a die action may draw 3 and keep 1 (a spare pigeon or
    1 Provision); the kept card must be taken; the other two go to the bottom in either order."""
    g = build_scenario({"players": [{"dice": [1], "provisions": 3}]})
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"))
    assert can(g, "draw_three")
    deck = g.state.decks[1]
    top3 = deck[-1], deck[-2], deck[-3]
    play(g, ("draw_three",))
    assert g.state.players[0].provisions == 0
    assert g.decision() == ("draw_keep", (1, top3))
    assert not can(g, "skip") and not can(g, "done")
    play(g, ("keep_drawn", 2), ("bottom_order", "reversed"))
    p = g.state.players[0]
    assert p.land == [top3[1]]
    assert g.state.decks[1][:2] == [top3[2], top3[0]]  # reversed: the third drawn lies lowest
    assert g.state.known[1][:2] == [1, 1]  # only seat 0 saw them


def test_draw_three_with_a_spare_pigeon_costs_nothing():
    """p.11: with an available pigeon the draw is free (a Messenger under the capital City)."""
    spec = {"players": [{"dice": [1], "provisions": 2, "tucked": {"capital.city": "townsfolk.22"}}]}
    g = build_scenario(spec)
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"), ("draw_three",))
    assert g.state.players[0].provisions == 0
    assert g.decision()[0] == "draw_keep"


def test_draw_three_is_not_offered_without_pigeon_or_provision():
    g = build_scenario({"players": [{"dice": [1], "provisions": 2}]})
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"))
    assert not can(g, "draw_three")


def test_workers_on_an_acquired_card_go_to_the_acquirer_and_influence_goes_home():
    """p.11 'Workers on Cards'; p.6: influence on a card returns to its owner when acquired."""
    spec = {
        "players": [{"dice": [1], "provisions": 2, "silver": 0, "workers": {"yellow": 0}}, {}],
        "market": {"land": ["land.5", "land.6", "land.7", "land.8"]},
        "workers_on": {"land.6": ["green", "yellow"]},
        "influence_on": {"land.6": 1},
    }
    g = build_scenario(spec)
    red_supply = g.state.players[1].supply
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "silver"), ("do", "land_card"))
    play(g, ("take_slot", 2), ("fee", "silver"))
    p = g.state.players[0]
    assert p.workers == [1, 1, 1]  # its own blue, plus the yellow and green from the card
    assert g.state.players[1].supply == red_supply + 1
    assert g.state.players[1].silver == 3 + 1


def test_never_place_and_retrieve_the_same_worker():
    """p.16: a card holding the worker placed this turn cannot be acquired (that would retrieve it)."""
    spec = {
        "sides": "aaa",
        "players": [{"workers": {"green": 1}, "silver": 0}],
        "market": {"townsfolk": ["townsfolk.8", "townsfolk.9", "townsfolk.22", "townsfolk.23"]},
        "journal_tiles": {"journal.1.1": "journal_tile.4"},
    }
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.1.1"))
    play(g, ("do", "townsfolk"))  # the tile: a free townsfolk
    assert not can(g, "take_slot", 4)  # our green worker sits on it
    assert can(g, "take_slot", 1)


def test_inspiration_tuck_or_discard_for_the_spot_effect():
    """p.9: tuck above a Space card without one (the capital star counts) or discard it for the
    effect of the worker spot beside it; discards go face down under the deck."""
    spec = {
        "sides": "aaa",
        "players": [{"workers": {"green": 1}, "node": "journal.1.1", "land": ["land.1"], "provisions": 0}],
        "market": {"inspiration": ["inspiration.1", "inspiration.2", "inspiration.3", "inspiration.4"]},
    }
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.2.1"))
    play(g, ("do", "inspiration"), ("take_slot", 1))
    assert can(g, "inspire", "capital.star") and can(g, "discard_inspiration")
    play(g, ("discard_inspiration",))
    assert leaves(g) == {"provisions"}  # slot 1 (bottom): gain 2 provisions
    play(g, ("do", "provisions"))
    st = g.state
    assert st.players[0].provisions == 2  # the journal spot's own provision is still pending
    card = st.tables.content.by_id["inspiration.1"].index
    assert st.decks[4][0] == card and st.known[4][0] == 0xF


def test_inspiration_tucked_above_the_capital_star():
    spec = {
        "sides": "aaa",
        "players": [{"workers": {"green": 1}, "node": "journal.1.1", "land": ["land.1"]}],
        "market": {"inspiration": ["inspiration.1", "inspiration.2", "inspiration.3", "inspiration.4"]},
    }
    g = build_scenario(spec)
    play(g, ("worker", "green"), ("card", "townsfolk", 4), ("do", "journal"), ("journal_to", "journal.2.1"))
    play(g, ("do", "inspiration"), ("take_slot", 4), ("inspire", "capital.star"))
    st = g.state
    assert st.players[0].inspired == {st.tables.capital_star: st.tables.content.by_id["inspiration.4"].index}


def test_vista_triggers_once_per_item_and_with_its_townsfolk():
    """p.8 Vistas and RULES-FACTS §9.9: a two-comet card fires a Comet Vista once; the Vista's
    tucked townsfolk acts each time the Vista triggers."""
    spec = {
        "players": [
            {
                "dice": [6],
                "silver": 5,
                "land": ["land.23", "land.24", "land.19"],
                "tucked": {"land.23": "townsfolk.18"},  # Merchant: 1 silver
            }
        ],
        "market": {"space": ["space.comet3", "space.star3", "space.star4", "space.star5"]},
    }
    g = build_scenario(spec)
    play(g, ("die", 6), ("space", "capital.observatory"), ("do", "space_card"), ("take_slot", 1), ("place_above", "land.19"))
    st = g.state
    bag = st.stack[-1].items
    from wayfarers_env.content.effects import to_text

    texts = sorted(to_text(x) for x in bag)
    # comet3: refresh_die; land.23: silver, adjust_die; Merchant: silver; land.24: provision, move_influence
    assert texts == sorted(["refresh_die", "silver", "adjust_die", "silver", "provision", "move_influence"])


def test_vista_acquired_this_turn_does_not_trigger():
    """Important rules: Townsfolk/Vista abilities cannot be activated in the turn they are acquired."""
    spec = {
        "players": [{"dice": [3], "silver": 2, "land": ["land.31"]}],
        "market": {"townsfolk": ["townsfolk.8", "townsfolk.9", "townsfolk.22", "townsfolk.23"]},
    }
    for fresh in (False, True):
        g = build_scenario(spec)
        if fresh:
            g.state.players[0].acquired.append(g.state.tables.content.by_id["land.31"].index)
        play(g, ("die", 3), ("space", "capital.market"), ("do", "townsfolk"), ("take_slot", 3), ("tuck_under", "capital.city"))
        fired = g.decision()[0] == "effect" and g.state.stack[-1].ctx.source == SRC_ACQUIRED
        assert fired == (not fresh)


def test_vista_does_not_trigger_on_its_own_arrival():
    """p.8: Vistas give benefits 'when gaining other Cards'; p.11: 'Other than resolving their
    immediate effects, the benefits of Cards can never be activated in the same turn that they
    were acquired.' (RULES-FACTS §9.9: 'A Vista never triggers on itself.') land.26 (a vista that
    triggers on vistas) joins an older land.25 (also on vistas): the older one fires, the new
    one gives only its immediate effect."""
    spec = {
        "players": [{"dice": [1], "provisions": 2, "land": ["land.25"]}],
        "market": {"land": ["land.26", "land.5", "land.6", "land.7"]},
    }
    g = build_scenario(spec)
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"), ("take_slot", 1))
    assert g.decision()[0] == "effect"
    from wayfarers_env.content.effects import to_text

    # land.26's immediate refresh_die and land.25's trigger; land.26's own 'guild(blue) / move_influence' is absent
    assert sorted(to_text(x) for x in g.state.stack[-1].items) == ["refresh_die", "silver"]


def test_townsfolk_tucked_this_turn_does_not_fire_with_its_vista():
    """RULES-FACTS §9.9: buy a townsfolk for an older Vista, then journal onto a pink tile whose
    tag triggers that Vista in the same action: the Vista fires, the new townsfolk does not."""
    spec = {
        "sides": "aaa",
        "players": [
            {
                "dice": [1],
                "silver": 3,
                "node": "journal.3.1",
                "board": 1,
                "land": ["land.15", "land.27"],
                "tiles": [["tile.basic4", 2, 1], ["tile.basic1", 3, 1]],  # pigeon for land.15; a basic tile opens 3.1 -> 4.1
            }
        ],
        "market": {"townsfolk": ["townsfolk.3", "townsfolk.9", "townsfolk.22", "townsfolk.23"]},
    }
    g = build_scenario(spec)
    play(g, ("die", 1), ("space", "land.15"), ("do", "townsfolk"), ("take_slot", 1), ("tuck_under", "land.27"))
    play(g, ("do", "journal"), ("journal_to", "journal.4.1"), ("do", "tile_special"), ("tile_design", "tile.special.planet"))
    play(g, ("tile_at", 1, 2))  # no printed bonus under it on board 1
    from wayfarers_env.content.effects import to_text

    assert sorted(to_text(x) for x in g.state.stack[-1].items) == ["provision"]  # land.27's effect, no Champion


def test_first_water_card_links_with_the_capital_harbour():
    """p.9 connection links; the capital harbour offers yellow influence, silver, provision, card influence."""
    spec = {
        "players": [{"dice": [1], "provisions": 2, "tiles": [["tile.basic2", 2, 1]]}],
        "market": {"water": ["water.3", "water.1", "water.2", "water.4"]},
    }
    g = build_scenario(spec)
    play(g, ("die", 1), ("space", "capital.harbour"), ("do", "pay_provisions"), ("do", "water_card"), ("take_slot", 1))
    assert leaves(g) == {"guild_yellow", "card_influence"}  # water.3 receives on the guild and card rows
