"""The content data checked against the rulebook, and the loader's refusal of broken data.

Rulebook page numbers are those of the printed rulebook. The text copy in shared/rules has no
page marks, so pages are placed by the rulebook's own cross-references: Journaling is p.7
("Refer back to Page 7"), Upgrade Tiles p.12, dice placement and the Caravan p.14 ("see page
14"), the worker placement spots p.16, the end of the game p.18. That puts Land/Water cards on
p.8, Space and Inspiration cards on p.9, Townsfolk on p.10, Acquiring Cards on p.11 and the
capital's six starting die spaces on p.15. Facts that the rulebook text leaves to its icons
cite the section of shared/reference/RULES-FACTS.md they come from.
"""

from __future__ import annotations

import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from conftest import broken

from wayfarers_env.content import effects
from wayfarers_env.content.effects import parse, to_text
from wayfarers_env.content.loader import ASSETS, DATA_DIR, ICONS, TRIGGERS, ContentError, load_content
from wayfarers_env.content.measures import TAGS, TERM_INDEX, TERMS, compile_measure
from wayfarers_env.vocabulary import GUILDS


@pytest.fixture(scope="module")
def content():
    return load_content()


def text(effect) -> str | None:
    return None if effect is None else to_text(effect)


def counts(**values: int) -> list[int]:
    """A player's count vector (measures.TERMS order) with the given entries set."""
    vec = [0] * len(TERMS)
    for name, value in values.items():
        vec[TERM_INDEX[name]] = value
    return vec


def deck(content, kind: str) -> list:
    return [content.cards[i] for i in content.decks[kind]]


# --------------------------------------------------------------------------- component counts


def test_card_counts_match_the_component_list(content):
    """Rulebook p.2 'Components': 36 Townsfolk, Land, Water and Space cards, 16 Inspiration cards."""
    assert {kind: len(content.decks[kind]) for kind in content.decks} == {
        "land": 36,
        "water": 36,
        "space": 36,
        "townsfolk": 36,
        "inspiration": 16,
    }


def test_land_and_water_primary_tags(content):
    """Rulebook p.8: Land cards are Cities or Vistas, Water cards Harbours or Open Waters (18 each, RULES-FACTS §4.1, §4.2)."""
    land = Counter(t for card in deck(content, "land") for t in card.tags)
    water = Counter(t for card in deck(content, "water") for t in card.tags)
    assert (land["city"], land["vista"]) == (18, 18)
    assert (water["harbour"], water["open_water"]) == (18, 18)
    # secondary tags: 7 Observatory and 4 Library Cities (RULES-FACTS §4.1); 3 Library Harbours (§4.2)
    assert (land["observatory"], land["library"]) == (7, 4)
    assert (water["library"], water["observatory"]) == (3, 0)
    for card in deck(content, "land") + deck(content, "water"):
        assert len({"city", "vista", "harbour", "open_water"} & set(card.tags)) == 1, card.id


def test_space_card_families(content):
    """Rulebook p.9: 1 Sun, 1 Moon, 5 Planets, 8 Comets and 21 Stars."""
    families = Counter(card.tags[0] for card in deck(content, "space"))
    assert families == {"comet": 8, "planet": 5, "sun": 1, "moon": 1, "stars": 21}
    for card in deck(content, "space"):
        assert len(set(card.tags)) == 1, f"{card.id} mixes tag kinds"


def test_inspiration_base_deck_and_tides_option():
    """Rulebook p.2: 16 Inspiration cards. RULES-FACTS §9.7: the reference table has two rows numbered 15
    (Silver and Provisions; the sprite sheet puts Provisions at 16) and rows 17/18 carry the Tides of Trade
    mark, so the base deck is 1-16 and 17/18 come only with the tides_inspiration option."""
    base = load_content()
    tides = load_content(options={"tides_inspiration"})
    assert [base.cards[i].id for i in base.decks["inspiration"]] == [f"inspiration.{n}" for n in range(1, 17)]
    assert [tides.cards[i].id for i in tides.decks["inspiration"]] == [f"inspiration.{n}" for n in range(1, 19)]
    assert "inspiration.17" not in base.by_id
    assert {tides.card(f"inspiration.{n}").expansion for n in (17, 18)} == {"tides_of_trade"}
    assert all(base.cards[i].expansion is None for i in base.decks["inspiration"])
    assert base.card("inspiration.15").goal.text == "silver >= 6"
    assert base.card("inspiration.16").goal.text == "provisions >= 6"
    assert tides.card("inspiration.17").goal.text == "land_cards >= 8"
    assert tides.card("inspiration.18").goal.text == "water_cards >= 8"


def test_other_component_counts(content):
    """Rulebook p.2: 62 upgrade tiles (4 of each yellow, blue, black and green tile, 1 of each pink),
    10 journal tiles, 6 scheme cards, 4 double-sided player boards (AI boards on the back);
    p.7: 5 final journal spaces; p.3 setup step 5 and p.7: 4 green workers on the journal track."""
    coloured = [d for d in content.designs if d.kind != "special"]
    special = [d for d in content.designs if d.kind == "special"]
    assert Counter(d.kind for d in coloured) == {"land": 3, "water": 3, "space": 3, "basic": 4}
    assert content.copies_in_box == 4 and len(special) == 10
    assert len(coloured) * content.copies_in_box + len(special) == 62
    assert len(content.journal_tiles) == 10
    assert len(content.solo.schemes) == 6
    assert len(content.solo.ai_boards) == 4
    assert len(content.caravan.boards) == 4
    assert sum(node.final for node in content.nodes) == 5
    assert len(content.green_worker_columns) == 4
    assert content.player["green_workers"] == 4


# --------------------------------------------------------------------------- ids, names and references


def all_ids(content) -> list[str]:
    ids = [card.id for card in content.cards]
    ids += [space.id for space in content.capital.centre]
    ids += [d.id for d in content.designs]
    ids += [node.id for node in content.nodes]
    ids += [tile_id for tile_id, _ in content.journal_tiles]
    ids += [s.id for s in content.solo.schemes] + [b.id for b in content.solo.ai_boards]
    ids += [b.id for b in content.caravan.boards]
    return ids


def test_every_id_is_unique_and_follows_the_scheme():
    """docs/CONTENT.md 'Ids': one id names one thing across all files, and its prefix says which file."""
    content = load_content(options={"tides_inspiration"})
    ids = all_ids(content)
    assert len(ids) == len(set(ids)) == 164 + 2 + 4 + 23 + 28 + 10 + 6 + 4 + 4
    prefixes = Counter(i.split(".")[0] for i in ids)
    assert prefixes == {
        "land": 36,
        "water": 36,
        "space": 36,
        "townsfolk": 36,
        "inspiration": 18,
        "capital": 8,  # city, harbour, star, townsfolk and the 4 centre spaces
        "tile": 23,
        "journal": 28,
        "journal_tile": 10,
        "scheme": 6,
        "ai_board": 4,
        "board": 4,
    }
    # card numbers run 1..36 without gaps in land/water/townsfolk
    for kind in ("land", "water", "townsfolk"):
        assert [c.id for c in deck(content, kind)] == [f"{kind}.{n}" for n in range(1, 37)]


def raw_docs() -> dict[str, dict]:
    return {path.name: tomllib.loads(path.read_text()) for path in sorted(DATA_DIR.glob("*.toml"))}


EFFECT_KEYS = {"immediate", "action", "effect", "ability", "resting", "first", "second", "focus", "rest", "track_bonus"}
EFFECT_KEYS |= {"dismiss", "side_a", "side_b", "price"}  # Tides of Trade: Overseers, traders, the worker tile price
EFFECT_LIST_KEYS = {"spots", "right"}
TAG_KEYS = {"tags", "hosts", "market_hosts"}
GUILD_KEYS = {"guilds", "influence", "gives_influence"}  # lists of guild colours


def walk(node, key: str | None, found: dict[str, list]) -> None:
    """Collect every string of the raw TOML by the kind of value its key holds."""
    if isinstance(node, dict):
        for k, v in node.items():
            walk(v, k, found)
    elif isinstance(node, list):
        for v in node:
            if isinstance(v, str):
                if key in EFFECT_LIST_KEYS:
                    found["effect"].append(v)
                elif key in TAG_KEYS:
                    found["tag"].append(v)
                elif key == "on":
                    found["trigger"].append(v)
                elif key in ("requires", "gives"):
                    found["asset"].append(v)
                elif key == "colours":
                    found["colour"].append(v)
                elif key in GUILD_KEYS:
                    found["guild"].append(v)
            elif isinstance(v, list) and key in ("columns", "flipped"):
                found["icon"].extend(v)
            else:
                walk(v, key, found)
    elif isinstance(node, str):
        if key in EFFECT_KEYS or key == "cost":
            found["effect"].append(node)
        elif key in ("vp", "goal", "requires"):
            found["measure"].append(node)
        elif key == "asset":
            found["asset"].append(node)


@pytest.fixture(scope="module")
def raw_values() -> dict[str, list]:
    found: dict[str, list] = {k: [] for k in ("effect", "measure", "tag", "trigger", "asset", "icon", "colour", "guild")}
    for name, doc in raw_docs().items():
        walk(doc, None, found)
        if name == "board.toml":
            found["effect"].extend(v for v in doc["tile_costs"].values() if v)
    return found


def test_every_name_used_in_the_data_is_known(raw_values):
    """Every tag, asset, trigger, icon, effect atom and count in the raw files is in the project's vocabulary
    (docs/CONTENT.md), read straight from the TOML so a field the loader skipped would still be seen."""
    assert len(raw_values["tag"]) > 150 and len(raw_values["asset"]) > 50 and len(raw_values["measure"]) > 100
    assert set(raw_values["tag"]) <= set(TAGS) | {"market"}  # the Market's host icon: Overseers only (Tides of Trade)
    assert set(raw_values["guild"]) <= set(GUILDS) and raw_values["guild"]
    assert set(raw_values["trigger"]) <= set(TRIGGERS)
    assert set(raw_values["asset"]) <= set(ASSETS)
    assert set(raw_values["icon"]) <= set(ICONS)
    assert set(raw_values["colour"]) <= {"black", "blue", "yellow", "green"}
    used_atoms = {a.name for s in raw_values["effect"] for a in effects.atoms(parse(s))}
    assert used_atoms <= set(effects.ATOMS)
    # every atom of the catalogue is printed somewhere, except the AI's stand-in for a die refresh
    # (RULES-FACTS §15.0), which the solo engine substitutes and no data file prints
    assert set(effects.ATOMS) - used_atoms == {"ai_retrieve_worker"}
    used_terms = set().union(*(compile_measure(s).terms for s in raw_values["measure"]))
    assert used_terms <= set(TERMS)
    # all tags are counted somewhere (the two Vista/trigger-only names are not tags); Trading Posts by
    # the Tides of Trade's Space cards
    assert set(TAGS) <= used_terms


def test_every_effect_string_prints_back_identically(raw_values):
    """The data is written in canonical form, so to_text(parse(s)) == s for every effect string."""
    assert len(raw_values["effect"]) > 500
    different = [(s, to_text(parse(s))) for s in raw_values["effect"] if to_text(parse(s)) != s]
    assert different == []


def test_every_journal_next_has_a_link(content):
    """Rulebook p.7: spaces are joined by ink splotches; each step in a node's 'next' is one [[link]]."""
    steps = {(node.index, target) for node in content.nodes for target in node.next}
    links = {(link.source, link.target) for link in content.links}
    assert steps == links and len(links) == len(content.links) == 44


# --------------------------------------------------------------------------- spot checks against the rulebook


def test_capital_starting_die_spaces(content):
    """Rulebook p.15 'Placing a Die', the starting 6 spaces of the player board."""
    cap = content.capital
    centre = {sp.id: sp.die_space for sp in cap.centre}
    # "1 Requires a Camel. Spend 2 Provisions to acquire a Land Card and gain 1 Silver (in either order)."
    assert (cap.city.id, cap.city.die_space.requires) == ("capital.city", ("camel",))
    assert text(cap.city.die_space.action) == "2 provisions -> silver, land_card"
    # "2 Requires a Telescope. Acquire a Space Card; or a Space Upgrade Tile."
    assert centre["capital.observatory"].requires == ("telescope",)
    assert text(centre["capital.observatory"].action) == "space_card / tile(space)"
    # "3 Requires a Pigeon. Journal; or retrieve a Worker and place 1 Influence in a chosen Guild."
    assert centre["capital.library"].requires == ("pigeon",)
    assert text(centre["capital.library"].action) == "journal / (retrieve_worker, guild(any))"
    # "4 Acquire a Townsfolk Card; or gain 2 Provisions."  "5 Acquire a Basic Upgrade Tile; or gain 2 Silver."
    assert centre["capital.market"].requires == () and text(centre["capital.market"].action) == "townsfolk / 2 provisions"
    assert centre["capital.reserve"].requires == () and text(centre["capital.reserve"].action) == "tile(basic) / 2 silver"
    # "6 Requires a Ship. Spend 2 Provisions to acquire a Water Card."
    assert (cap.harbour.id, cap.harbour.die_space.requires) == ("capital.harbour", ("ship",))
    assert text(cap.harbour.die_space.action) == "2 provisions -> water_card"


def test_capital_board_cards(content):
    """Rulebook p.10: the player board holds a starting City, Harbour, Star card and tucked Townsfolk; the centre
    (Observatory and Library) is not a card. p.17: players Journal most times they Rest thanks to that Townsfolk
    (RULES-FACTS §4.11: its resting ability is 1 Silver and Journal)."""
    cap = content.capital
    assert (cap.city.tags, cap.harbour.tags, cap.star.tags) == (("city",), ("harbour",), ("stars",))
    assert set(cap.centre_tags) == {"observatory", "library"} and len(cap.centre) == 4
    assert text(cap.townsfolk.resting) == "silver, journal"
    # RULES-FACTS §9.8: the capital harbour offers all four link rows, yellow influence in the guild row
    assert [text(e) for e in cap.harbour.links_right] == ["guild(yellow)", "silver", "provision", "card_influence"]


def test_capital_star_scores_pairs_of_townsfolk_and_tiles(content):
    """Rulebook p.10: 1 VP per pair of 1 Townsfolk Card and 1 Upgrade Tile; p.19 scoring example: 5 pairs = 5 VP."""
    vp = content.capital.star.vp
    assert vp.text == "min(tiles, townsfolk_cards)"
    assert vp(counts(tiles=7, townsfolk_cards=5)) == 5
    assert vp(counts(tiles=2, townsfolk_cards=6)) == 2


def test_farmer_example(content):
    """Rulebook p.10 'Townsfolk Cards': "This City allows a player to purchase a Land Upgrade Tile, or gain 2 Yellow
    Influence. However, once this Farmer has been tucked, it will also reward them with 1 Silver." (also p.14)."""
    city = content.card("land.1")
    assert city.tags == ("city",) and city.die_space.requires == ("camel",)
    assert text(city.die_space.action) == "tile(land) / 2 x guild(yellow)"
    farmers = [c for c in deck(content, "townsfolk") if c.name == "Farmer"]
    assert len(farmers) == 2
    silver_farmer = next(f for f in farmers if text(f.ability) == "silver")
    assert "city" in silver_farmer.hosts and silver_farmer.gives == () and silver_farmer.resting is None


def test_townsfolk_host_tags(content):
    """Rulebook p.10: "The Scholar must be placed under a Library or Observatory. The Scribe must be placed under a
    Vista. The Enforcer must be placed under an Open Water (this is true for all Townsfolk with Resting abilities).
    The Messenger must be placed under a City or Harbour." The first sentence is the black Scholar (RULES-FACTS §4.4)."""
    folk = deck(content, "townsfolk")
    by_name: dict[str, list] = {}
    for card in folk:
        by_name.setdefault(card.name, []).append(card)
    black_scholar = next(c for c in by_name["Scholar"] if text(c.ability) == "guild(black) / move_influence")
    assert set(black_scholar.hosts) == {"library", "observatory"}
    assert all(c.hosts == ("vista",) for c in by_name["Scribe"]) and len(by_name["Scribe"]) == 3
    assert all(c.hosts == ("open_water",) for c in by_name["Enforcer"]) and len(by_name["Enforcer"]) == 2
    assert [set(c.hosts) for c in by_name["Messenger"]] == [{"city", "harbour"}]
    resting = [c for c in folk if c.resting is not None]
    assert len(resting) == 9 and all(c.hosts == ("open_water",) for c in resting)
    # p.11: Townsfolk cost 0-3 Silver
    assert {c.cost for c in folk} == {0, 1, 2, 3}


def test_sun_and_moon_scoring(content):
    """Rulebook p.9: "Alone these are only worth 3VP. However, if a player has both Cards, they are each worth 7VP"."""
    sun, moon = content.card("space.sun"), content.card("space.moon")
    assert sun.tags == ("sun",) and moon.tags == ("moon",)
    assert sun.vp(counts(sun=1)) == 3 and moon.vp(counts(moon=1)) == 3
    both = counts(sun=1, moon=1)
    assert sun.vp(both) + moon.vp(both) == 14


def test_planet_scoring(content):
    """Rulebook p.9: Planets "score 1VP, plus 1 additional VP per Planet Tag (including its own Tag)"."""
    planets = [c for c in deck(content, "space") if c.tags == ("planet",)]
    assert len(planets) == 5
    for planet in planets:
        assert planet.vp(counts(planet=1)) == 2
        assert planet.vp(counts(planet=4)) == 5


def test_comet_values_and_tag_counts(content):
    """Rulebook p.9: 8 Comets, "each worth 1-3VP (the lower value printed in the top-left corner)", 4 VP with more
    Comet tags than each opponent. Tags per card from RULES-FACTS §4.3: 2 cards with one comet (3 VP), 3 with two
    (2 VP), 3 with three (1 VP)."""
    comets = [c for c in deck(content, "space") if "comet" in c.tags]
    lower = {c.id: c.vp(counts(comet=10)) for c in comets}
    assert sorted(lower.values()) == [1, 1, 1, 2, 2, 2, 3, 3]
    assert all(c.vp(counts(comet_majority=1)) == 4 for c in comets)
    for c in comets:
        assert len(c.tags) + lower[c.id] == 4, c.id
    assert Counter(len(c.tags) for c in comets) == {1: 2, 2: 3, 3: 3}


def test_two_unique_star_cards(content):
    """Rulebook p.9 'Two more unique Star Cards': "1VP per set of 1 Townsfolk Card, 1 Space Card, 1 Land Card, and
    1 Water Card" and "3VP per set of 1 Comet Tag, 1 Planet Tag, and 1 Star Tag"."""
    stars = deck(content, "space")
    collector = [c for c in stars if c.vp.terms == {"townsfolk_cards", "space_cards", "land_cards", "water_cards"}]
    triad = [c for c in stars if c.vp.terms == {"comet", "planet", "stars"}]
    assert len(collector) == 1 and len(triad) == 1
    assert collector[0].vp(counts(townsfolk_cards=3, space_cards=5, land_cards=4, water_cards=2)) == 2
    assert triad[0].vp(counts(comet=4, planet=2, stars=3)) == 6
    assert triad[0].vp(counts(comet=4, planet=0, stars=3)) == 0


def test_inspiration_example(content):
    """Rulebook p.9: a Star scoring 1VP per Vista tag, doubled by an Inspiration card needing at least 3 Planet tags."""
    vista_stars = [c for c in deck(content, "space") if c.vp.text == "vista"]
    planet_goal = [c for c in deck(content, "inspiration") if c.goal.text == "planet >= 3"]
    assert len(vista_stars) == 2 and len(planet_goal) == 1
    player = counts(vista=4, planet=3)
    assert vista_stars[0].vp(player) == 4 and planet_goal[0].goal(player) == 1
    assert planet_goal[0].goal(counts(vista=4, planet=2)) == 0


def test_worker_spots_per_row(content):
    """Rulebook p.16 'Placing a Worker': the four actions of each row; slot 1 is the card nearest the board centre
    (the bottom Inspiration card), slot 4 the one next to the draw pile (RULES-FACTS §9.2, §10.1)."""
    spots = {rid: [to_text(s) for s in row.spots] for rid, row in content.rows.items()}
    assert spots == {
        # "Acquire a Space Card with a 1-Silver discount", "Place 1 Influence in each Guild",
        # "Acquire a Basic Upgrade Tile for free", "Journal and gain 1 Provision"
        "townsfolk": [
            "space_card(discount)",
            "guild(yellow), guild(blue), guild(black)",
            "tile(basic, free)",
            "journal, provision",
        ],
        # "Acquire a Townsfolk Card ... and increase or decrease a Die by 1", "Gain 2 Silver and place 1 Influence in
        # the Yellow Guild", "Acquire a Land Upgrade Tile", "Spend 3 Provisions. Draw the top 3 Land Cards"
        "land": ["townsfolk, adjust_die", "2 silver, guild(yellow)", "tile(land)", "3 provisions -> draw_three(land)"],
        # "Refresh 1 Die and increase or decrease a Die by 1 (twice)", "Gain 2 Provisions and place 1 Influence in the
        # Blue Guild", "Acquire a Water Upgrade Tile", "Spend 3 Provisions. Draw the top 3 Water Cards"
        "water": ["refresh_die, 2 x adjust_die", "2 provisions, guild(blue)", "tile(water)", "3 provisions -> draw_three(water)"],
        "space": [],  # no worker is placed on Space cards
        # "Gain 2 Provisions", "Gain 1 Provision and place 1 Influence in any Guild", "Gain 1 Silver and refresh 1 Die",
        # "Gain 2 Silver"
        "inspiration": ["2 provisions", "provision, guild(any)", "silver, refresh_die", "2 silver"],
    }
    # "Only 1 Green Worker ... on each Townsfolk Card", "1 Green Worker and 1 Yellow Worker ... on each Land Card", ...
    workers = {rid: set(row.workers) for rid, row in content.rows.items()}
    assert workers == {
        "townsfolk": {"green"},
        "land": {"green", "yellow"},
        "water": {"green", "blue"},
        "space": set(),
        "inspiration": {"green", "yellow", "blue"},
    }
    # p.11: "Townsfolk and Land Cards slide to the right. Space and Water Cards slide to the left. Inspiration Cards
    # slide downwards."
    assert {rid: row.slides for rid, row in content.rows.items()} == {
        "townsfolk": "right",
        "land": "right",
        "water": "left",
        "space": "left",
        "inspiration": "down",
    }


def test_space_slot_costs(content):
    """Rulebook p.11: Space cards cost 3-5 Silver by slot; RULES-FACTS §9.3: 3, 4, 4, 5 from the centre outwards."""
    assert content.rows["space"].slot_costs == (3, 4, 4, 5)


def test_tile_prices(content):
    """Rulebook p.16: "Acquire a Land Upgrade Tile (for the cost of 3 Silver or 2 Yellow Influence)", likewise Water
    with Blue; p.12: Special tiles have no cost. Space and Basic prices: RULES-FACTS §8.5."""
    prices = {kind: text(cost) for kind, cost in content.tile_costs.items()}
    assert prices == {
        "land": "3 silver / 2 x spend(yellow)",
        "water": "3 silver / 2 x spend(blue)",
        "space": "3 silver / 2 x spend(black)",
        "basic": "2 silver",
        "special": None,
    }


def test_setup_per_seat(content):
    """Rulebook p.4 (chart and example: "Blue is the first player, starting with 2 Provisions, 3 Silver, and 1 Influence
    in the Exploration (blue) Guild. Red is the second player ... plus 1 Influence in the Trade (yellow) Guild"), the
    rules summary's setup list and RULES-FACTS §5."""
    table = [(s.seat, s.silver, s.provisions, s.guilds) for s in content.setup]
    assert table == [
        (1, 3, 2, ("blue",)),
        (2, 3, 2, ("blue", "yellow")),
        (3, 4, 2, ("blue", "yellow")),
        (4, 4, 3, ("blue", "yellow")),
    ]
    # p.4 "Give each player": 5 dice (3 rolled, 2 in the reserve), 15 Influence, 1 Yellow and 1 Blue Worker
    player = content.player
    assert (player["dice"], player["dice_in_supply"], player["influence"]) == (5, 3, 15)
    assert player["workers"] == ("yellow", "blue")
    assert player["face_up"] == 4  # p.3 step 3: the top 4 cards of each pile face up


def test_end_game_scoring_table(content):
    """Rulebook p.18 'Scoring' (and p.5 'primary Tags'): 2=2, 3=3, 4=5, 5=8, 6=12, 7=16, nothing more beyond 7,
    5 VP per set of the four primary tags, 3 VP for each guild majority."""
    scoring = content.player["scoring"]
    assert scoring["primary"] == (0, 0, 2, 3, 5, 8, 12, 16)
    assert (scoring["unique_set"], scoring["guild_majority"]) == (5, 3)


def test_connection_link_example(content):
    """Rulebook p.8: "Their Harbour had Connection Links offering 1 Silver and 1 Provision. However, the Open Water had
    only 1 lightning bolt lining up to the Provision. Therefore, they only gain 1 Provision (in addition to the 2 Blue
    Influence shown at the bottom of the Card). This latest Card now provides them with 3 new Connection Links.\""""
    harbour, open_water = content.card("water.14"), content.card("water.34")
    assert "harbour" in harbour.tags and "open_water" in open_water.tags
    assert [text(e) for e in harbour.links_right] == [None, "silver", "provision", None]
    assert open_water.links_left == (False, False, True, False)
    assert text(open_water.immediate) == "2 x guild(blue)"
    gained = [text(offer) for offer, bolt in zip(harbour.links_right, open_water.links_left) if offer is not None and bolt]
    assert gained == ["provision"]
    assert sum(e is not None for e in open_water.links_right) == 3


def test_dice_placement_example_cards(content):
    """Rulebook p.14, the four cards of the dice placement example: a City needing a Camel and a Telescope that buys a
    Space Card and gives 1 Blue Influence; a Harbour needing 2 Ships buying a Water Card for 1 Provision; a Harbour
    needing a Ship to refresh a die, change a die by 1 and gain 1 Provision."""
    assert set(content.card("land.9").die_space.requires) == {"camel", "telescope"}
    assert text(content.card("land.9").die_space.action) == "space_card, guild(blue)"
    assert content.card("water.4").die_space.requires == ("ship", "ship")
    assert text(content.card("water.4").die_space.action) == "provision -> water_card"
    assert content.card("water.9").die_space.requires == ("ship",)
    assert text(content.card("water.9").die_space.action) == "refresh_die, adjust_die, provision"


def test_upgrade_tiles_flip_rule(content):
    """Rulebook p.12: "Tiles can be flipped (only relevant for Land and Water Upgrades), but can never be rotated".
    RULES-FACTS §8.3: the flipped face is the mirror image (halves swapped, +1 becomes -1)."""
    swap = {"up": "down", "down": "up"}
    for d in content.designs:
        if d.kind in ("land", "water"):
            assert len(d.faces) == 2 and (d.width, d.height) == (2, 1), d.id
            mirrored = tuple(tuple(swap.get(i, i) for i in col) for col in reversed(d.faces[0]))
            assert d.faces[1] == mirrored, d.id
        else:
            assert len(d.faces) == 1, d.id
    # RULES-FACTS §8.2/§8.3: [+ | camel] flips to [camel | -]; Space tiles stand upright over one column
    land1 = content.design_by_id["tile.land1"]
    assert land1.faces == ((("up",), ("camel",)), (("camel",), ("down",)))
    assert all((d.width, d.height) == (1, 2) for d in content.designs if d.kind == "space")
    assert all((d.width, d.height) == (1, 1) for d in content.designs if d.kind in ("basic", "special"))


def test_special_tiles(content):
    """Rulebook p.12: pink tiles carry tags that count like card tags ("if this player gained the Special Upgrade featuring
    a Harbour Tag, they would immediately gain 1 Silver from their Vista"). Tags and VP: RULES-FACTS §8.6."""
    special = {d.tags: d.vp for d in content.designs if d.kind == "special"}
    assert special == {
        ("planet",): 3,
        ("stars",): 5,
        ("observatory",): 5,
        ("comet",): 5,
        ("comet", "comet"): 4,
        ("vista",): 1,
        ("city",): 1,
        ("library",): 5,
        ("harbour",): 1,
        ("open_water",): 1,
    }
    assert all(d.faces == (((),),) for d in content.designs if d.kind == "special")
    harbour_vistas = [c for c in deck(content, "land") if c.trigger_on == ("harbour",)]
    assert [text(c.trigger) for c in harbour_vistas].count("silver") == 1


def test_basic_tile_pile_order(content):
    """RULES-FACTS §8.6 and §16.B8: the green piles follow the board art, telescope nearest the centre, then ship,
    camel (3rd) and pigeon (4th); the reference table swaps camel and pigeon."""
    piles = {d.faces[0][0][0]: d.pile for d in content.designs if d.kind == "basic"}
    assert piles == {"telescope": 1, "ship": 2, "camel": 3, "pigeon": 4}


def test_journal_track_facts(content):
    """Rulebook p.7 'Journaling': the first 2 ink splotches have no requirements; the example "Red could either move
    upwards if they have at least 2 Library Tags, or directly to the right if they have 1 Planet Tag"; green workers lie
    between 2 spaces; p.15: 2 columns show the new-die icon."""
    links = {(content.nodes[link.source].id, content.nodes[link.target].id): link for link in content.links}
    first = [link for (src, _), link in links.items() if src == "journal.0.1"]
    assert len(first) == 2
    assert all(link.requires == (None, None) and link.cost == (None, None) for link in first)
    assert links[("journal.2.3", "journal.3.2")].requires[0].text == "library >= 2"
    assert links[("journal.2.3", "journal.4.3")].requires[0].text == "planet >= 1"
    for column in content.green_worker_columns:
        in_column = [n for n in content.nodes if n.column == column]
        assert len(in_column) == 2 and all("!green_worker" in text(n.effect) for n in in_column)
    new_die_columns = {n.column for n in content.nodes if n.effect and "!new_die" in text(n.effect)}
    assert new_die_columns == {2, 6}
    # p.3 step 4: one journal tile on each empty space of the track
    assert sum(n.takes_tile for n in content.nodes) == len(content.journal_tiles) == 10
    # RULES-FACTS §12.2: the Sun-or-Moon splotch, written as a sum
    assert links[("journal.6.3", "journal.8.3")].requires[1].text == "sun + moon >= 1"


def test_worker_example_journal_step(content):
    """Rulebook p.17 worker example: Blue Journals "into the space below the Green Worker, as they have the 4 required
    Harbours", then resolves the Journal Tile there."""
    link = next(lk for lk in content.links if lk.requires[0] is not None and lk.requires[0].text == "harbour >= 4" and lk.section == 2)
    target = content.nodes[link.target]
    assert target.column in content.green_worker_columns and target.takes_tile


def test_rulebook_icon_list_atoms(content):
    """Rulebook back page 'Iconography' and p.11: 'Acquire a Townsfolk Card for free (any Influence must still be
    paid)' is townsfolk(free); the new-die icon is mandatory ('This is always mandatory', p.15)."""
    free_folk = [c.id for c in content.cards if c.immediate and "townsfolk(free)" in text(c.immediate)]
    assert "water.27" in free_folk
    assert content.card("water.13").die_space.action == parse("townsfolk(free)")
    assert all(a.mandatory for n in content.nodes if n.effect for a in effects.atoms(n.effect) if a.name == "new_die")


# --------------------------------------------------------------------------- broken data is refused


def refused(data: Path, *parts: str) -> str:
    with pytest.raises(ContentError) as err:
        load_content(data_dir=data)
    message = str(err.value)
    for part in parts:
        assert part in message, f"{part!r} not in {message!r}"
    return message


def test_packaged_data_copy_loads(tmp_path):
    """The harness itself: an unedited copy loads, so each refusal below is caused by its one edit."""
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    assert len(load_content(data_dir=data).cards) == len(load_content().cards)


def test_unknown_effect_name(tmp_path):
    data = broken(
        tmp_path,
        "land.toml",
        'immediate = "retrieve_worker"\ndie_space = { requires = ["camel"]',
        'immediate = "retrieve_wroker"\ndie_space = { requires = ["camel"]',
    )
    refused(data, "land.toml", "land.5", "field 'immediate'", "unknown effect 'retrieve_wroker'", "known effects:", "retrieve_worker")


def test_bad_tag(tmp_path):
    data = broken(tmp_path, "space.toml", 'tags = ["sun"]', 'tags = ["suns"]')
    refused(data, "space.toml", "space.sun", "field 'tags'", "unknown name 'suns'", "allowed:", "moon, comet")


def test_bad_townsfolk_host(tmp_path):
    data = broken(tmp_path, "townsfolk.toml", 'hosts = ["city", "harbour"]\ngives = ["pigeon"]', 'hosts = ["town"]\ngives = ["pigeon"]')
    refused(data, "townsfolk.toml", "townsfolk.22", "field 'hosts'", "unknown name 'town'")


def test_duplicate_id(tmp_path):
    data = broken(tmp_path, "water.toml", 'id = "water.36"', 'id = "water.35"')
    refused(data, "water.toml", "'water.35'", "field 'id'", "duplicate id")


def test_duplicate_id_across_files(tmp_path):
    data = broken(tmp_path, "solo.toml", 'id = "ai_board.4"', 'id = "scheme.1"')
    refused(data, "solo.toml", "'scheme.1'", "duplicate id")


def test_wrong_count_land_card_removed(tmp_path):
    removed = '[[card]]\nid = "land.36"\nname = "Vista 36"\ntags = ["vista"]\nimmediate = "refresh_die"\n'
    removed += 'trigger = { on = ["observatory", "library"], effect = "provision / silver" }\n'
    data = broken(tmp_path, "land.toml", removed, "")
    refused(data, "land.toml", "wrong count", "land should be 36", "found 35", "rulebook component list")


def test_wrong_count_city_turned_vista_is_caught_by_tag_count(tmp_path):
    """A Vista retagged as a City keeps 36 Land cards but breaks the 18/18 split."""
    data = broken(
        tmp_path,
        "land.toml",
        'tags = ["vista"]\nimmediate = "2 x card_influence"\ntrigger = { on = ["stars"], effect = "card_influence" }',
        'tags = ["city"]\nimmediate = "2 x card_influence"\ndie_space = { requires = [], action = "silver" }',
    )
    refused(data, "land.toml", "wrong count", "city should be 18", "found 19", "cards with tag 'city'")


def test_wrong_count_via_expected():
    """load_content(expected=...) is checked too: the packaged data is not a 5-tile game."""
    from wayfarers_env.content.loader import EXPECTED

    with pytest.raises(ContentError, match=r"journal\.toml: wrong count: journal_tiles should be 5 .* found 10"):
        load_content(expected={**EXPECTED, "journal_tiles": 5})


def test_unknown_field(tmp_path):
    data = broken(tmp_path, "space.toml", 'id = "space.moon"\nname = "The Moon"', 'id = "space.moon"\nnmae = "The Moon"')
    message = refused(data, "space.toml", "space.moon", "field 'nmae'", "unknown field", "allowed fields:")
    assert "name" in message.split("allowed fields:")[1]


def test_unknown_field_in_nested_table(tmp_path):
    data = broken(
        tmp_path,
        "land.toml",
        'die_space = { requires = ["pigeon"], action = "guild(yellow), journal" }',
        'die_space = { needs = ["pigeon"] }',
    )
    refused(data, "land.toml", "land.16", "die_space", "field 'needs'", "allowed fields: action, influence, requires")


def test_malformed_toml(tmp_path):
    data = broken(tmp_path, "townsfolk.toml", 'name = "Vagrant"', 'name = "Vagrant')
    refused(data, "townsfolk.toml", "not valid TOML", "line")


def test_malformed_counting_expression(tmp_path):
    data = broken(tmp_path, "space.toml", 'vp = "3 * min(planet, comet, stars)"', 'vp = "3 * min(planet, comets, stars)"')
    refused(data, "space.toml", "space.star1", "field 'vp'", "unknown count 'comets'", "known counts:", "comet_majority")


def test_malformed_counting_expression_syntax(tmp_path):
    data = broken(tmp_path, "inspiration.toml", 'goal = "city >= 5"', 'goal = "city >= "')
    refused(data, "inspiration.toml", "inspiration.14", "field 'goal'", "city >= ")


def test_malformed_journal_requirement(tmp_path):
    data = broken(tmp_path, "journal.toml", 'side_b = { requires = "comet >= 7" }', 'side_b = { requires = "comet >=> 7" }')
    refused(data, "journal.toml", "journal.9.2 -> journal.10.5", "side_b", "field 'requires'")


def test_bad_asset(tmp_path):
    data = broken(
        tmp_path,
        "water.toml",
        'requires = ["ship"], action = "provision, townsfolk"',
        'requires = ["boat"], action = "provision, townsfolk"',
    )
    refused(
        data,
        "water.toml",
        "water.14",
        "die_space",
        "field 'requires'",
        "unknown name 'boat'",
        "allowed: camel, ship, pigeon, telescope",
    )


def test_bad_asset_on_townsfolk(tmp_path):
    data = broken(tmp_path, "townsfolk.toml", 'gives = ["telescope"]', 'gives = ["spyglass"]')
    refused(
        data,
        "townsfolk.toml",
        "townsfolk.2",
        "field 'gives'",
        "unknown name 'spyglass'",
        "allowed: camel, ship, pigeon, telescope",
    )


def test_bad_tile_icon(tmp_path):
    data = broken(tmp_path, "upgrades.toml", 'columns = [["up"], ["camel"]]', 'columns = [["up"], ["camels"]]')
    refused(data, "upgrades.toml", "tile.land1", "field 'columns'", "unknown icon", "allowed:", "silver_discount")


def test_flipped_face_must_be_the_mirror(tmp_path):
    data = broken(tmp_path, "upgrades.toml", 'flipped = [["camel"], ["down"]]', 'flipped = [["camel"], ["up"]]')
    refused(data, "upgrades.toml", "tile.land1", "field 'flipped'", "mirror image")


def test_link_to_not_in_next(tmp_path):
    data = broken(
        tmp_path,
        "journal.toml",
        'from = "journal.1.1"\nto = "journal.2.1"',
        'from = "journal.1.1"\nto = "journal.2.3"',
    )
    refused(data, "journal.toml", "journal.1.1 -> journal.2.3", "field 'to'", "is not in the 'next' list of journal.1.1")


def test_next_without_link(tmp_path):
    data = broken(
        tmp_path,
        "journal.toml",
        'id = "journal.4.1"\nnext = ["journal.5.1"]',
        'id = "journal.4.1"\nnext = ["journal.5.1", "journal.5.2"]',
    )
    refused(data, "journal.toml", "journal.4.1", "field 'next'", "no [[link]] for journal.4.1 -> journal.5.2")


def test_effect_with_bad_argument(tmp_path):
    data = broken(tmp_path, "board.toml", 'land = "3 silver / 2 x spend(yellow)"', 'land = "3 silver / 2 x spend(green)"')
    refused(data, "board.toml", "[tile_costs]", "field 'land'", "bad argument 'green'", "allowed:")


def test_ai_effect_outside_solo(tmp_path):
    data = broken(tmp_path, "water.toml", 'immediate = "journal"', 'immediate = "ai_comet"')
    refused(data, "water.toml", "water.30", "field 'immediate'", "only allowed in solo.toml")


def test_unknown_content_option():
    with pytest.raises(ContentError, match="unknown content option.*allowed: tides_inspiration"):
        load_content(options={"tides"})
