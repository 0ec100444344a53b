"""Resting (rulebook 'Resting' p.17), the market refill ('Acquiring Cards' p.11), the end of the
game and scoring ('End of the Game', 'Scoring' p.18)."""

from __future__ import annotations

from conftest import leaves, play

from wayfarers_env.rules.scenario import build_scenario
from wayfarers_env.rules.state import SUPPLY


def test_rest_with_two_dice_in_supply_gives_no_abilities():
    """p.17: with 2 or more dice remaining no resting abilities activate; all dice return and roll."""
    g = build_scenario({"players": [{"dice": [2, 5], "placed": {"capital.market": 3, "capital.reserve": 4}}]})
    play(g, ("rest",))
    assert g.decision()[0] == "rest_reroll"
    play(g, ("skip",))
    p = g.state.players[0]
    assert p.dice_loc.count(SUPPLY) == 4
    assert g.current_player == 1  # no abilities: the turn is over


def test_rest_with_no_dice_left_triggers_abilities_and_returns_all_dice():
    g = build_scenario({"players": [{"dice": [], "placed": {"capital.market": 3, "capital.reserve": 4, "capital.city": 1}}]})
    play(g, ("rest",))
    p = g.state.players[0]
    assert p.dice_loc.count(SUPPLY) == 3 and all(loc < 0 for loc in p.dice_loc)
    assert leaves(g) == {"silver", "journal"}  # the capital townsfolk


def test_rest_reroll_of_kept_dice_is_optional_per_die():
    g = build_scenario({"players": [{"dice": [6], "placed": {"capital.market": 3}}]})
    play(g, ("rest",))
    p = g.state.players[0]
    assert g.decision() == ("rest_reroll", ((0,),))
    play(g, ("reroll", 6))
    assert 1 <= p.dice_face[0] <= 6
    assert leaves(g) == {"silver", "journal"}


def test_refill_slides_towards_slot_one_keeping_workers_and_influence():
    """p.11: refill at the end of the turn; cards slide to fill gaps, then new cards are revealed;
    workers and influence stay on their cards."""
    spec = {
        "players": [{"dice": [1], "provisions": 2, "silver": 0}],
        "market": {"land": ["land.5", "land.6", "land.7", "land.8"]},
        "workers_on": {"land.7": ["green"]},
        "influence_on": {"land.8": 1},
    }
    g = build_scenario(spec)
    st = g.state
    top = st.decks[1][-1]
    play(
        g,
        ("die", 1),
        ("space", "capital.city"),
        ("do", "pay_provisions"),
        ("do", "land_card"),
        ("take_slot", 2),
        ("done",),
        ("done",),
    )
    assert g.current_player == 1
    ids = [st.tables.cards[c].id for c in st.market[4:8]]
    assert ids[:3] == ["land.5", "land.7", "land.8"] and st.market[7] == top
    assert st.market_workers[5] == 4 and st.market_inf[6] == 1 and st.market_inf[7] == -1


def test_empty_deck_leaves_the_slot_empty():
    """The rulebook is silent; docs/ARCHITECTURE.md: no reshuffle, the slot stays empty."""
    g = build_scenario({"players": [{"dice": [1], "provisions": 2}], "market": {"land": ["land.5", "land.6", "land.7", "land.8"]}})
    st = g.state
    st.decks[1].clear()
    st.known[1].clear()
    g._legal = None
    play(
        g,
        ("die", 1),
        ("space", "capital.city"),
        ("do", "pay_provisions"),
        ("do", "land_card"),
        ("take_slot", 1),
        ("done",),
        ("done",),
    )
    assert g.current_player == 1
    assert all(c >= 0 for c in st.market[4:7]) and st.market[7] == -1


# ------------------------------------------------------------------------- scoring


def test_primary_tag_table_and_unique_sets():
    """p.18 table: 2=2, 3=3, 4=5, 5=8, 6=12, 7=16, beyond 7 nothing more; 5 VP per set of 4."""
    cities = [f"land.{k}" for k in range(1, 9)]  # 8 city cards + the capital: 9 cities
    g = build_scenario({"players": [{"land": cities}]})
    s = g.scores()[0]
    assert s["primary_tags"] == 16 + 0 + 0  # cities capped at 7; 1 harbour scores nothing
    assert s["unique_sets"] == 0
    g = build_scenario({"players": [{"land": ["land.19", "land.20"], "water": ["water.19", "water.20", "water.21"]}]})
    s = g.scores()[0]
    assert s["primary_tags"] == 0 + 2 + 0 + 3  # 1 city, 2 vistas, 1 harbour, 3 open waters
    assert s["unique_sets"] == 5


def test_city_vista_and_harbour_without_open_water_score_no_set():
    """p.18 Scoring 1, 'Primary Land and Water Tags': each type scores on its own (0-1 = 0,
    2 = 2, 3 = 3, 4 = 5, ...), plus 'Unique sets: 5VP for each set of 4 unique primary Tags (1
    of each type)'; the capital City and Harbour are cards (p.12, player boards).
        Cities: capital + land.1 + land.2 = 3 -> 3 VP
        Vistas: land.19 + land.20 = 2 -> 2 VP
        Harbours: capital + water.4 + water.5 + water.6 = 4 -> 5 VP
        Open Water: 0 -> 0 VP
        primary tags 3 + 2 + 5 + 0 = 10; unique sets 5 x min(3, 2, 4, 0) = 0
    Nothing else scores (no tiles, so the capital Star's min(tiles, townsfolk) is 0; no guild
    influence; no other Space card): total 10. One Open Water card (water.19) completes a set:
    1 Open Water scores 0 on its own, the set 5 x min(3, 2, 4, 1) = 5: total 15."""
    player = {"land": ["land.1", "land.2", "land.19", "land.20"], "water": ["water.4", "water.5", "water.6"]}
    player["guild"] = {"black": 0, "yellow": 0, "blue": 0}
    s = build_scenario({"players": [player]}).scores()[0]
    assert (s["primary_tags"], s["unique_sets"], s["total"]) == (3 + 2 + 5 + 0, 0, 10)
    player["water"] = player["water"] + ["water.19"]
    s = build_scenario({"players": [player]}).scores()[0]
    assert (s["primary_tags"], s["unique_sets"], s["total"]) == (10, 5, 15)


def test_comet_majority_must_be_strict():
    """p.9: comets score 4 only with more comet tags than each individual opponent."""
    base = {"land": ["land.19"], "above": {"land.19": "space.comet1"}}
    g = build_scenario({"players": [base, {"land": ["land.20"], "above": {"land.20": "space.comet2"}}]})
    assert g.scores()[0]["space_cards"] == 3 + 0 and g.scores()[1]["space_cards"] == 3  # tied: printed value
    g = build_scenario({"players": [base, {}]})
    assert g.scores()[0]["space_cards"] == 4


def test_sun_moon_and_planets():
    """p.9: Sun/Moon 3 VP alone, 7 each together; Planets 1 VP + 1 per Planet tag."""
    g = build_scenario({"players": [{"land": ["land.19", "land.20"], "above": {"land.19": "space.sun", "land.20": "space.moon"}}]})
    assert g.scores()[0]["space_cards"] == 14
    g = build_scenario({"players": [{"land": ["land.19", "land.20"], "above": {"land.19": "space.planet1", "land.20": "space.planet2"}}]})
    assert g.scores()[0]["space_cards"] == 3 + 3


def test_guild_majority_ties_score_nothing():
    """p.18: 3 VP to the player with the most influence in each guild; a tie gives nobody the VP."""
    g = build_scenario({"players": [{"guild": {"black": 2, "yellow": 1, "blue": 1}}, {"guild": {"black": 1, "yellow": 1, "blue": 2}}]})
    s = g.scores()
    assert s[0]["guilds"] == 3 and s[1]["guilds"] == 3


def test_tie_break_black_then_yellow_then_blue_then_shared():
    """p.18: ties go to the most black influence, then yellow, then blue, else shared."""
    g = build_scenario({"players": [{"guild": {"black": 1, "yellow": 0, "blue": 0}}, {"guild": {"black": 1, "yellow": 0, "blue": 0}}]})
    assert g.scores()[0]["total"] == g.scores()[1]["total"]
    assert g.winners() == [0, 1]
    g = build_scenario({"players": [{"guild": {"black": 0, "yellow": 1, "blue": 1}}, {"guild": {"black": 0, "yellow": 1, "blue": 2}}]})
    # blue majority 3 VP for seat 1: no tie on points
    assert g.winners() == [1]
    # equal totals (3 vistas = 3 VP against a black majority = 3 VP): more black influence wins
    g = build_scenario(
        {
            "players": [
                {"guild": {"black": 2, "yellow": 0, "blue": 1}, "land": ["land.19", "land.20", "land.21"]},
                {"guild": {"black": 3, "yellow": 0, "blue": 1}},
            ]
        }
    )
    s = g.scores()
    assert s[0]["total"] == s[1]["total"] == 3
    assert g.winners() == [1]
