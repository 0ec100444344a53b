"""The Tides of Trade content: its component counts, where each value comes from, the facts the
rulebook gives in words, the base game left exactly as it was, and the loader's refusal of broken
expansion data.

"ToT" quotes shared/rules/tides-of-trade-rulebook.txt; RULES-FACTS §17 lists the expansion's rows of
the reference tables. Reconstructed values are our design (docs/CONTENT.md 8): their tests check the
rule they follow, not the value.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter

import pytest
from conftest import broken
from content_snapshot import HERE, SNAPSHOTS, snapshot

from wayfarers_env.content import effects
from wayfarers_env.content.effects import parse, to_text
from wayfarers_env.content.loader import DATA_DIR, EXPECTED, ContentError, load_content
from wayfarers_env.vocabulary import CARD_KINDS, TIDES_INSPIRATION, TIDES_OF_TRADE

PROVENANCES = {"rulebook", "reference-table", "reconstructed"}


@pytest.fixture(scope="module")
def tides():
    return load_content(options={TIDES_OF_TRADE})


@pytest.fixture(scope="module")
def base():
    return load_content()


def expansion_cards(content, kind: str) -> list:
    return [content.cards[i] for i in content.decks[kind] if content.cards[i].expansion == TIDES_OF_TRADE]


def text(effect) -> str | None:
    return None if effect is None else to_text(effect)


# --------------------------------------------------------------------------- component counts


def test_component_list(tides):
    """ToT 'Components': 35 cards (1 Scheme, 8 Water, 3 Space, 8 Land, 2 Inspiration, 13 Townsfolk
    including 10 Overseers), 6 Trader Tiles, 32 Worker Upgrade Tiles (16 Tops, 16 Bottoms), 4 Hourglass
    Tiles, 1 Pink Upgrade Tile; setup 4: 4 stacks of Tops and 4 of Bottoms."""
    counts = {kind: len(expansion_cards(tides, kind)) for kind in CARD_KINDS}
    assert counts == {"land": 8, "water": 8, "space": 3, "townsfolk": 13, "inspiration": 2}
    schemes = [s for s in tides.solo.schemes if s.expansion == TIDES_OF_TRADE]
    assert sum(counts.values()) + len(schemes) == 35 and len(schemes) == 1
    assert sum(card.is_overseer for card in expansion_cards(tides, "townsfolk")) == 10
    assert [d.id for d in tides.designs if d.expansion] == ["tile.special.trading_post"]
    t = tides.tides
    assert len(t.traders) == 4 and sum(tr.copies for tr in t.traders) == 6
    assert Counter(h.half for h in t.halves) == {"top": 16, "bottom": 16}
    assert (t.stacks, t.hourglasses) == (4, 4)


def test_duplicate_traders():
    """ToT setup 3: 'With 3-4 players, include the 2 duplicate Tiles': two traders have a second copy
    (which two is not said: reconstructed), one on each main-board extension."""
    t = load_content(options={TIDES_OF_TRADE}).tides
    doubled = [tr for tr in t.traders if tr.copies == 2]
    assert len(doubled) == 2 and {tr.extension for tr in doubled} == {1, 2}
    assert all(tr.provenance == "rulebook" for tr in t.traders)


def test_the_expansion_is_not_loaded_by_default(base):
    """Off by default: no expansion card, tile, scheme or component; the option brings only Inspiration cards."""
    assert base.tides is None
    assert not any(c.expansion for c in base.cards) and not any(d.expansion for d in base.designs)
    assert not any(s.expansion for s in base.solo.schemes)
    option = load_content(options={TIDES_INSPIRATION})
    assert option.tides is None
    assert [c.id for c in option.cards if c.expansion] == ["inspiration.17", "inspiration.18"]


# --------------------------------------------------------------------------- provenance


def test_every_expansion_entry_says_where_it_comes_from(tides):
    """docs/CONTENT.md 8: provenance on every expansion entry, never on a base entry."""
    entries = [*tides.cards, *tides.designs, *tides.solo.schemes, *tides.tides.traders, *tides.tides.halves]
    for e in entries:
        expansion = getattr(e, "expansion", TIDES_OF_TRADE)
        if expansion is None:
            assert e.provenance is None, e.id
        else:
            assert e.provenance in PROVENANCES, e.id
    by = Counter(e.provenance for e in entries if e.provenance)
    # reference-table: land 37-38, water 39-40, townsfolk 114-115, space 113, inspiration 17-18 (RULES-FACTS §17) and
    # the scheme card ([SH]); rulebook: the four traders and the example worker tile's two halves
    assert (by["reference-table"], by["rulebook"]) == (10, 6)
    refs = {e.id for e in entries if e.provenance == "reference-table"}
    assert refs == {
        "land.37",
        "land.38",
        "water.37",
        "water.38",
        "space.comet9",
        "townsfolk.37",
        "townsfolk.38",
        "inspiration.17",
        "inspiration.18",
        "scheme.7",
    }


# --------------------------------------------------------------------------- the base game is unchanged


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_base_content_is_exactly_what_it_was(name):
    """Field by field against the picture taken before the expansion's content was added
    (tests/content_snapshot.py); the only difference allowed is the provenance the two Tides of Trade
    Inspiration cards now carry."""
    before = json.loads((HERE / name).read_text())
    now = json.loads(json.dumps(snapshot(load_content(options=SNAPSHOTS[name]))))
    for card in now["cards"]:
        if card["id"] in ("inspiration.17", "inspiration.18"):
            assert card.pop("provenance") == "reference-table"
    assert now.keys() == before.keys()
    for key in before:
        assert now[key] == before[key], f"Content.{key} changed"


def test_base_indices_never_move(base, tides):
    """Every base card, tile design and scheme keeps its index whatever is loaded; decks are the base
    cards, then the expansion's; the capital's cards come after all deck cards."""
    option = load_content(options={TIDES_INSPIRATION})
    for other in (option, tides):
        assert other.cards[:160] == base.cards[:160]
        for kind in CARD_KINDS:
            assert other.decks[kind][: len(base.decks[kind])] == base.decks[kind]
        assert other.designs[: len(base.designs)] == base.designs
        assert other.solo.schemes[:6] == base.solo.schemes
    n_deck = sum(len(d) for d in tides.decks.values())
    assert n_deck == 160 + 34
    assert [c.kind for c in tides.cards[n_deck:]] == ["capital"] * 4
    assert tides.capital.city.index == n_deck
    # the expansion's cards follow the base game's, by kind
    kinds = [c.kind for c in tides.cards[160:n_deck]]
    assert kinds == sorted(kinds, key=CARD_KINDS.index)
    assert option.card("inspiration.17").index == 160 and tides.card("land.37").index == 160


# --------------------------------------------------------------------------- what the rulebook says


def test_trader_sides_as_the_rulebook_words_them(tides):
    """ToT 'Employing a Trader', each side word for word in the effect grammar (cost first)."""
    sides = {t.id: tuple(to_text(s) for s in t.sides) for t in tides.tides.traders}
    assert sides == {
        # "Spend 2 Red Influence to acquire a Space Card with a 3-Silver discount, or acquire an Inspiration Card."
        # "Spend 2 Red Influence to acquire a Basic, Space, Land or Water Upgrade Tile with a 3-Silver discount,
        #  and gain 1 Card Influence."
        "trader.1": (
            "2 x spend(red) -> space_card(discount3) / inspiration",
            "2 x spend(red) -> (tile(basic, discount3) / tile(space, discount3) / tile(land, discount3) / tile(water, discount3)), "
            "card_influence",
        ),
        # "Spend 2 Red Influence to acquire a Land Card." / "... a Water Card."
        "trader.2": ("2 x spend(red) -> land_card", "2 x spend(red) -> water_card"),
        # "Spend 1 Red Influence to gain 2 Provisions and Refresh 1 Die." / "... to gain 2 Silver and acquire a
        #  Townsfolk Card, paying any usual costs."
        "trader.3": ("spend(red) -> 2 provisions, refresh_die", "spend(red) -> 2 silver, townsfolk"),
        # "Gain 1 Red Influence and acquire a Basic Upgrade Tile, paying the usual costs." / "... and move 1 Influence."
        "trader.4": ("guild(red), tile(basic)", "guild(red), move_influence"),
    }
    one = tides.tides.trader_by_id["trader.1"].sides[0]
    assert isinstance(one, effects.Cost) and isinstance(one.gain, effects.Choice)  # the 2 Red pays for either option


def test_worker_tiles_the_rulebook_example(tides):
    """ToT: 'this player has placed a Worker Upgrade Tile beneath their Yellow Worker space. This immediately
    gained them 1 Red Influence. When they place Yellow Workers in the future, they will also be able to gain
    1 Yellow Influence and 1 Provision.'"""
    t = tides.tides
    tops = {text(h.effect) for h in t.halves if h.half == "top"}
    bottoms = {text(h.effect) for h in t.halves if h.half == "bottom"}
    assert "guild(yellow)" in tops and "provision" in bottoms
    assert [h.id for h in t.halves if h.provenance == "rulebook"] == ["worker_tile.top1", "worker_tile.bottom1"]
    under_yellow = [text(e) for (half, worker), e in t.covered.items() if worker == "yellow"]
    assert under_yellow == ["guild(red)"]  # exactly 1 Red Influence, nothing else
    # ToT l.205: the covered icons are "1 Red Influence or Retrieve a Worker"
    assert {text(e) for e in t.covered.values()} == {"guild(red)", "retrieve_worker"}
    assert sorted(t.worker_columns) == ["blue", "green", "yellow"]


def test_worker_tile_kinds(tides):
    """ToT 'Worker Upgrade Tile Effects': a card-influence cost then an effect, dice manipulation, simple
    immediate gains (Silver, Card Influence, Guild Influence, a Basic tile), tags and VP, 'never blocked'."""
    halves = tides.tides.halves
    names = Counter(a.name for h in halves if h.effect for a in effects.atoms(h.effect))
    costs = [h for h in halves if isinstance(h.effect, effects.Cost)]
    assert costs and all(to_text(h.effect.cost) == "spend_card_influence" for h in costs)
    assert names["adjust_die"] and names["refresh_die"] and names["silver"] and names["card_influence"] and names["guild"]
    assert any(h.effect == parse("tile(basic)") for h in halves)
    assert any(h.tags for h in halves) and any(h.vp for h in halves)
    assert 1 <= sum(h.never_blocked for h in halves) <= 2
    assert all(sum(h.tag_counts) == len(h.tags) for h in halves)


def test_worker_tile_price_and_the_extension(tides):
    """ToT: 'always either 3 Silver or 2 Red Influence'; the extension's die space takes 'a Die of any value
    ... to either Employ a Trader, or Acquire a Worker Upgrade Tile'; its Market takes Overseers."""
    t = tides.tides
    assert to_text(t.worker_tile_price) == "3 silver / 2 x spend(red)"
    assert t.die_space.requires == () and to_text(t.die_space.action) == "trader / worker_tile"
    assert t.market_hosts == ("market",) and t.extension_tags == ("trading_post",)


def test_ink_well_and_scoring_numbers(tides):
    """ToT 'Card Influence' (1, 1, 2, 3 card influence) and 'Scoring' (3 VP per Observatory + Library + Trading
    Post set, 1 VP per filled 2x2 square, at most 2 and 8, 2 VP per full Hourglass, 5 VP for the most Red)."""
    t = tides.tides
    assert t.ink_well == {"fewer_provisions": 1, "fewer_silver": 1, "die_assets": 2, "capture_or_red": 3}
    assert t.scoring == {"set": 3, "square": 1, "worker_squares_max": 2, "dice_squares_max": 8, "hourglass": 2, "red_majority": 5}


def test_overseers(tides):
    """ToT: Overseers are tucked only under the Market, cost 3 Silver, give a resting ability and a dismiss
    effect; 'All effects from tucked Overseers should already be familiar from other areas of the game' (and
    from dismissing them): every icon they use is printed on some other card, tile or board too."""
    folk = expansion_cards(tides, "townsfolk")
    overseers = [c for c in folk if c.is_overseer]
    assert len(overseers) == 10
    for c in overseers:
        assert (c.hosts, c.cost) == (("market",), 3)
        assert c.resting is not None and c.dismiss is not None and not c.gives and c.ability is None
    elsewhere = set()
    for c in tides.cards:
        if not c.is_overseer:
            for fld in (c.immediate, c.ability, c.resting, c.trigger, c.die_space and c.die_space.action):
                elsewhere |= {a.name for a in effects.atoms(fld)} if fld else set()
    elsewhere |= {a.name for n in tides.nodes if n.effect for a in effects.atoms(n.effect)}
    used = {a.name for c in overseers for e in (c.resting, c.dismiss) for a in effects.atoms(e)}
    assert used <= elsewhere
    assert all(not c.is_overseer for c in tides.cards if c.expansion is None)


def test_trading_posts(tides):
    """ToT 'New Tags': 'Trading Posts are featured on some Land Cards and Water Cards, and on the Player Board
    Extensions. They are also referenced for scoring on some Space Cards and Inspiration Cards. ... There is
    a new Pink Upgrade Tile featuring a Trading Post'."""
    land = [c for c in expansion_cards(tides, "land") if "trading_post" in c.tags]
    water = [c for c in expansion_cards(tides, "water") if "trading_post" in c.tags]
    assert 1 <= len(land) < 8 and 1 <= len(water) < 8
    scorers = [c for c in expansion_cards(tides, "space") if "trading_post" in c.vp.terms]
    assert len(scorers) >= 2
    pink = tides.design_by_id["tile.special.trading_post"]
    assert (pink.kind, pink.tags, pink.board) == ("special", ("trading_post",), ("extension", 1))
    assert all("trading_post" not in c.tags for c in tides.cards if c.expansion is None)


def test_influence_costs(tides):
    """ToT 'New Actions & Effects': 'Some Cities and Harbours have an Influence cost. Dice of any value can be
    placed here ... If a tucked Townsfolk Card can provide the required Influence, they may be activated'."""
    costly = [c for c in tides.cards if c.die_space is not None and c.die_space.influence]
    assert {c.tags[0] for c in costly} == {"city", "harbour"}
    assert all(c.die_space.requires == () and c.expansion == TIDES_OF_TRADE for c in costly)
    providers = [c for c in tides.cards if c.gives_influence]
    assert providers and all(set(c.hosts) <= {"city", "harbour"} for c in providers)
    needed = {g for c in costly for g in c.die_space.influence}
    assert needed <= {g for c in providers for g in c.gives_influence}


def test_new_icons_are_on_the_cards(tides):
    """The expansion's icons are printed on its cards: employ a trader, acquire a worker tile, capture a worker,
    Red influence."""
    names: Counter[str] = Counter()
    for c in tides.cards:
        printed = (c.immediate, c.trigger, c.ability, c.resting, c.dismiss, c.die_space and c.die_space.action)
        for e in printed if c.expansion else ():
            if e is not None:
                names.update(f"{a.name}({','.join(a.args)})" if a.args else a.name for a in effects.atoms(e))
    for icon in ("trader", "worker_tile", "capture_worker", "guild(red)"):
        assert names[icon] >= 2, icon


def test_reference_rows(tides):
    """RULES-FACTS §17: the Tides of Trade rows of the reference tables, in our grammar."""
    c = tides.card
    assert c("land.37").tags == ("vista",) and text(c("land.37").immediate) == "silver"
    assert (c("land.37").trigger_on, text(c("land.37").trigger)) == (("tile",), "provision")
    assert c("land.38").tags == ("city", "library") and c("land.38").die_space.requires == ("camel", "pigeon")
    assert text(c("land.38").die_space.action) == "2 provisions -> land_card, journal"
    assert c("water.37").tags == ("harbour", "observatory") and c("water.37").die_space.requires == ("telescope", "telescope")
    assert c("water.37").links_left == (True, True, False, False)  # c1 = xx__
    assert [text(x) for x in c("water.37").links_right] == [None, "silver", "provision", "card_influence"]  # c2 = _xxx
    assert c("water.38").tags == ("open_water",) and [text(x) for x in c("water.38").links_right] == [None, None, None, "card_influence"]
    assert (c("space.comet9").name, c("space.comet9").vp.text, text(c("space.comet9").immediate)) == ("Rare Fragment", "1", "tile(special)")
    protector, wanderer = c("townsfolk.37"), c("townsfolk.38")
    assert (protector.name, protector.cost, protector.hosts) == ("Protector", 1, ("vista",))
    assert text(protector.ability) == "silver / provision -> retrieve_worker, refresh_die"
    assert (wanderer.name, wanderer.cost, wanderer.hosts, text(wanderer.ability)) == (
        "Wanderer",
        2,
        ("observatory",),
        "provision -> 2 silver",
    )


def test_scheme_card(tides):
    """ToT 'New Scheme Card' and RULES-FACTS §17 [SH]: no colour, silver 1, spend 2 Red for an Inspiration card,
    else a Worker Upgrade Tile and 3 Red; another scheme card at once; no pink reference, no comet."""
    s = tides.solo.schemes[-1]
    assert (s.id, s.colour, s.silver, s.special_tile, s.comet, s.draw_next) == ("scheme.7", "none", 1, 0, False, True)
    assert (to_text(s.first), to_text(s.second)) == ("2 x spend(red) -> ai_card(inspiration)", "ai_tile(worker), 3 x guild(red)")


def test_pink_tile_in_the_solo_search(tides):
    """ToT solo: 'The AI can collect the new Pink Upgrade Tile if looking clockwise from the bottom row': it
    is visited after the bottom row's left end (solo_order 5) and before the top row's (6)."""
    by_order = {d.solo_order: d for d in tides.designs if d.kind == "special"}
    assert by_order[5].board == ("bottom", 1) and by_order[6].board == ("top", 1)
    assert tides.design_by_id["tile.special.trading_post"].solo_after == 5


# --------------------------------------------------------------------------- broken data is refused


OVERSEER = 'hosts = ["market"]\nresting = "2 provisions, silver"\ndismiss = "tile(land, free), provision"'
BROKEN = [
    # (file, old, new, parts of the message)
    (
        "land.toml",
        'action = "capture_worker" }\nexpansion = "tides_of_trade"\nprovenance = "reconstructed"',
        'action = "capture_worker" }\nexpansion = "tides_of_trade"',
        ["land.toml", "land.41", "field 'provenance'", "missing (required on expansion entries)", "reconstructed"],
    ),
    (
        "space.toml",
        'immediate = "guild(red)"\nexpansion = "tides_of_trade"\nprovenance = "reconstructed"',
        'immediate = "guild(red)"\nexpansion = "tides_of_trade"\nprovenance = "invented"',
        ["space.star23", "field 'provenance'", "unknown provenance 'invented'", "allowed: rulebook, reference-table, reconstructed"],
    ),
    (
        "space.toml",
        'vp = "vista"\n\n[[card]]\nid = "space.star21"',
        'vp = "vista"\nprovenance = "rulebook"\n\n[[card]]\nid = "space.star21"',
        ["space.star20", "field 'provenance'", "only expansion entries carry a provenance"],
    ),
    (
        "water.toml",
        'immediate = "trader"\nlinks = { left = ["card_influence"], right = ["guild(yellow)", "provision"] }\nexpansion = "tides_of_trade"',
        'immediate = "trader"\nlinks = { left = ["card_influence"], right = ["guild(yellow)", "provision"] }\nexpansion = "tides"',
        ["water.44", "field 'expansion'", "unknown expansion 'tides'", "allowed: tides_of_trade"],
    ),
    (
        "townsfolk.toml",
        'cost = 3\nhosts = ["market"]\nresting = "2 provisions, silver"',
        'cost = 3\nhosts = ["market", "city"]\nresting = "2 provisions, silver"',
        ["townsfolk.40", "field 'hosts'", "'market' is an Overseer's only host"],
    ),
    (
        "townsfolk.toml",
        'name = "Vagrant"\ncost = 1\nhosts = ["city"]',
        'name = "Vagrant"\ncost = 1\nhosts = ["market"]',
        ["townsfolk.34", "field 'hosts'", "Overseers (hosts = ['market']) belong to the Tides of Trade"],
    ),
    (
        "townsfolk.toml",
        'name = "Quartermaster"\ncost = 3',
        'name = "Quartermaster"\ncost = 2',
        ["townsfolk.40", "field 'cost'", "an Overseer costs 3 silver", "got 2"],
    ),
    (
        "townsfolk.toml",
        OVERSEER,
        'hosts = ["market"]\nresting = "2 provisions, silver"',
        ["townsfolk.40", "field 'dismiss'", "an Overseer has a resting ability and a dismiss effect"],
    ),
    (
        "townsfolk.toml",
        'ability = "provision -> 2 silver"',
        'ability = "provision -> 2 silver"\ndismiss = "journal"',
        ["townsfolk.38", "field 'dismiss'", "only Overseers (hosts = ['market']) can be dismissed"],
    ),
    (
        "townsfolk.toml",
        'hosts = ["city", "harbour"]\ngives_influence = ["yellow", "blue"]',
        'hosts = ["vista"]\ngives_influence = ["yellow", "blue"]',
        ["townsfolk.39", "field 'hosts'", "a townsfolk that provides influence goes under a city or harbour"],
    ),
    (
        "townsfolk.toml",
        'gives_influence = ["yellow", "blue"]',
        'gives_influence = ["yellow", "purple"]',
        ["townsfolk.39", "field 'gives_influence'", "unknown name 'purple'", "allowed: black, yellow, blue, red"],
    ),
    (
        "townsfolk.toml",
        'name = "Vagrant"\ncost = 1\nhosts = ["city"]\ngives = ["camel"]',
        'name = "Vagrant"\ncost = 1\nhosts = ["city"]\ngives_influence = ["yellow"]',
        ["townsfolk.34", "field 'gives_influence'", "belongs to the Tides of Trade"],
    ),
    (
        "land.toml",
        'die_space = { requires = ["camel"], action = "tile(land) / 2 x guild(yellow)" }\n\n[[card]]\nid = "land.2"',
        'die_space = { requires = [], influence = ["yellow"], action = "tile(land) / 2 x guild(yellow)" }\n\n[[card]]\nid = "land.2"',
        ["land.toml", "land.1", "die_space", "field 'influence'", "belong to the Tides of Trade"],
    ),
    (
        "land.toml",
        'die_space = { requires = [], influence = ["yellow"], action = "trader, 2 silver" }',
        'die_space = { requires = ["camel"], influence = ["yellow"], action = "trader, 2 silver" }',
        ["land.39", "die_space", "field 'requires'", "takes a die of any value"],
    ),
    (
        "water.toml",
        'influence = ["blue"], action = "water_card, guild(red)"',
        'influence = ["teal"], action = "water_card, guild(red)"',
        ["water.41", "field 'influence'", "unknown name 'teal'"],
    ),
    (
        "tides.toml",
        'extension = 1\ncopies = 1\nside_a = "2 x spend(red) -> space_card',
        'extension = 3\ncopies = 1\nside_a = "2 x spend(red) -> space_card',
        ["tides.toml", "trader #1 (trader.1)", "field 'extension'", "must be 1-2, got 3"],
    ),
    (
        "tides.toml",
        'side_a = "2 x spend(red) -> land_card"',
        'side_a = "2 x spend(red) -> land_cards"',
        ["tides.toml", "trader.2", "field 'side_a'", "unknown effect 'land_cards'"],
    ),
    (
        "tides.toml",
        'id = "worker_tile.top2"\nhalf = "top"',
        'id = "worker_tile.top2"\nhalf = "middle"',
        ["tides.toml", "worker_tile.top2", "field 'half'", "unknown half 'middle'", "allowed: top, bottom"],
    ),
    (
        "tides.toml",
        'id = "worker_tile.top2"\nhalf = "top"',
        'id = "worker_tile.top2"\nhalf = "bottom"',
        ["worker_tile.top2", "field 'id'", "a bottom half's id is 'worker_tile.bottom<number>'"],
    ),
    (
        "tides.toml",
        'id = "worker_tile.top13"\nhalf = "top"\nnever_blocked = true',
        'id = "worker_tile.top13"\nhalf = "top"',
        ["worker_tile.top13", "field 'effect'", "a half shows something"],
    ),
    (
        "tides.toml",
        '{ half = "bottom", worker = "blue", effect = "retrieve_worker" }',
        '{ half = "bottom", worker = "red", effect = "retrieve_worker" }',
        ["[worker_caravan].covered", "field 'worker'", "unknown column 'red'", "allowed: yellow, blue, green"],
    ),
    (
        "tides.toml",
        'price = "3 silver / 2 x spend(red)"',
        'price = "3 silver / guild(red)"',
        ["[worker_tiles]", "field 'price'", "a price uses silver, provisions or spend(guild) only"],
    ),
    ("tides.toml", "capture_or_red = 3\n", "", ["[ink_well]", "field 'capture_or_red'", "missing (required)"]),
    ("tides.toml", "red_majority = 5 ", 'red_majority = "5" ', ["[scoring]", "field 'red_majority'", "expected int"]),
    ("tides.toml", "[ink_well]", "[inkwell]", ["tides.toml", "unknown table 'inkwell'"]),
    (
        "solo.toml",
        'id = "scheme.1"\ncolour = "blue"',
        'id = "scheme.1"\ncolour = "none"',
        ["solo.toml", "scheme #1 (scheme.1)", "field 'colour'", "allowed: blue, red", "'none': expansion cards only"],
    ),
    (
        "solo.toml",
        "special_tile = 6\ncomet = false",
        "special_tile = 6\ncomet = false\ndraw_next = true",
        ["scheme.1", "field 'draw_next'", "only the Tides of Trade scheme card"],
    ),
    (
        "upgrades.toml",
        'board = { row = "bottom", column = 5 }',
        'board = { row = "extension", column = 1 }',
        ["upgrades.toml", "tile.special.open_water", "field 'row'", "unknown row 'extension'", "expansion tiles only"],
    ),
    (
        "upgrades.toml",
        "solo_after = 5\n",
        "solo_after = 12\n",
        ["upgrades.toml", "tile.special.trading_post", "field 'solo_after'", "no tile has solo_order 12"],
    ),
    (
        "upgrades.toml",
        "solo_order = 11",
        "solo_order = 10",
        ["tile.special.trading_post", "field 'solo_order'", "10 is also the solo_order of tile.special.two_comets"],
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "parts"), BROKEN, ids=[f"{b[0]}:{b[3][-1][:40]}" for b in BROKEN])
def test_broken_expansion_data_is_refused(tmp_path, file, old, new, parts):
    """Each edit is refused with a message naming the file, the entry, the field and what is allowed; the
    expansion's entries are checked on every load, with the expansion or without it."""
    data = broken(tmp_path, file, old, new)
    for options in (frozenset(), frozenset({TIDES_OF_TRADE})):
        with pytest.raises(ContentError) as err:
            load_content(data_dir=data, options=options)
        message = str(err.value)
        for part in parts:
            assert part in message, f"{part!r} not in {message!r}"


COUNTS = [
    # (file, old, new, parts): the loader checks the expansion's component list when it is loaded
    (
        "tides.toml",
        'name = "Trader of Goods"\nextension = 2\ncopies = 2',
        'name = "Trader of Goods"\nextension = 2\ncopies = 1',
        ["tides.toml: wrong count: tides.trader_tiles should be 6", "found 5"],
    ),
    ("tides.toml", "stacks = 4", "stacks = 3", ["tides.toml: wrong count: tides.worker_stacks should be 4", "found 3"]),
    (
        "tides.toml",
        'id = "worker_tile.bottom16"\nhalf = "bottom"',
        'id = "worker_tile.top17"\nhalf = "top"',
        ["tides.toml: wrong count: tides.worker_tops should be 16", "found 17"],
    ),
    (
        "townsfolk.toml",
        'name = "Tallyman"\ncost = 3\nhosts = ["market"]\nresting = "guild(red), card_influence"\ndismiss = "capture_worker, silver"',
        'name = "Tallyman"\ncost = 2\nhosts = ["city"]\nability = "guild(red), card_influence"',
        ["townsfolk.toml: wrong count: tides.overseers should be 10", "found 9"],
    ),
    (
        "solo.toml",
        'provenance = "reference-table"\n',
        'provenance = "reference-table"\n\n[[scheme]]\nid = "scheme.8"\ncolour = "none"\nsilver = 0\n'
        'first = "ai_focus"\nsecond = "ai_focus"\ncomet = false\nexpansion = "tides_of_trade"\nprovenance = "reconstructed"\n',
        ["solo.toml: wrong count: tides.schemes should be 1", "found 2"],
    ),
    (
        "tides.toml",
        'id = "trader.4"',
        'id = "trader.3"',
        ["tides.toml", "'trader.3'", "field 'id'", "duplicate id (also used in tides.toml)"],
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "parts"), COUNTS, ids=[c[3][0][:50] for c in COUNTS])
def test_expansion_counts_and_ids_are_checked_when_loaded(tmp_path, file, old, new, parts):
    data = broken(tmp_path, file, old, new)
    with pytest.raises(ContentError) as err:
        load_content(data_dir=data, options={TIDES_OF_TRADE})
    for part in parts:
        assert part in str(err.value), f"{part!r} not in {str(err.value)!r}"


def test_counts_via_expected():
    """The expansion's counts take part in ``expected`` like the base game's."""
    with pytest.raises(ContentError, match=r"tides\.toml: wrong count: tides\.hourglasses should be 5 .* found 4"):
        load_content(options={TIDES_OF_TRADE}, expected={**EXPECTED, "tides.hourglasses": 5})


def test_tides_file_is_needed_only_with_the_expansion(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    (data / "tides.toml").unlink()
    assert load_content(data_dir=data).tides is None
    with pytest.raises(ContentError, match=r"^tides\.toml: file missing from "):
        load_content(data_dir=data, options={TIDES_OF_TRADE})
