"""Loads the game's content from ``data/*.toml`` once, validates it, and freezes it.

Everything the engine knows about a card, tile, board or track comes from here, so a wrong
data file is caught at load time with an error naming the file, the entry and the field,
instead of surfacing as odd play many turns later.

This module holds the component counts, the checks that span several files, the numbering of the
cards and the cache; the records are in records.py, the readers of the single files in files.py
(and tides_file.py for the Tides of Trade's own file). The schema of every file is described in
docs/CONTENT.md.

Card indices: the base game's deck cards first (by kind, in file order), then the expansion cards
the options deal (by kind), then the capital's four cards. So a base card's index is the same
whatever is loaded, and deck cards are always ``cards[:n]`` for the n cards of the decks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from wayfarers_env.content.records import (  # noqa: F401  (the records are part of the loader's answer)
    AIBoard,
    Capital,
    Caravan,
    CaravanBoard,
    Card,
    CentreSpace,
    Content,
    ContentError,
    DieSpace,
    JournalLink,
    JournalNode,
    Row,
    Scheme,
    SeatSetup,
    Solo,
    Tides,
    TileDesign,
)
from wayfarers_env.vocabulary import (  # noqa: F401  (re-exported for the file readers)
    ASSETS,
    CARAVAN_ICONS,
    CARD_KINDS,
    CONTENT_OPTIONS,
    EXPANSIONS,
    LINK_ROWS,
    ROWS,
    TAGS,
    TIDES_OF_TRADE,
    TILE_KINDS,
    TRIGGERS,
    WORKER_COLOURS,
)

DATA_DIR = Path(__file__).with_name("data")

COLOURED_TILE_KINDS = TILE_KINDS[:4]
ICONS = CARAVAN_ICONS

# What the rulebook's component list says (base game); see docs/CONTENT.md.
EXPECTED = {
    "land": 36,
    "water": 36,
    "space": 36,
    "townsfolk": 36,
    "inspiration": 16,
    "city": 18,
    "vista": 18,
    "harbour": 18,
    "open_water": 18,
    "comet_cards": 8,
    "planet_cards": 5,
    "sun_cards": 1,
    "moon_cards": 1,
    "star_cards": 21,
    "tiles_in_box": 62,
    "special_tiles": 10,
    "journal_tiles": 10,
    "schemes": 6,
    "ai_boards": 4,
    "player_boards": 4,
    "final_spaces": 5,
    "green_workers": 4,
    # Tides of Trade's component list ("35 Various Cards ... Cards Included: 1 Scheme, 8 Water,
    # 3 Space, 8 Land, 2 Inspiration, 13 Townsfolk (including 10 Overseers)"; "6 Trader Tiles",
    # "32 Red Worker Upgrade Tiles (16 Tops and 16 Bottoms)", "4 Hourglass Tiles", "1 Pink Upgrade
    # Tile"; setup step 4: "4 stacks of Tops, and 4 stacks of Bottoms"; "the 2 duplicate Tiles")
    "tides.cards": 35,
    "tides.land": 8,
    "tides.water": 8,
    "tides.space": 3,
    "tides.townsfolk": 13,
    "tides.inspiration": 2,
    "tides.overseers": 10,
    "tides.schemes": 1,
    "tides.special_tiles": 1,
    "tides.traders": 4,
    "tides.trader_tiles": 6,
    "tides.worker_tops": 16,
    "tides.worker_bottoms": 16,
    "tides.worker_stacks": 4,
    "tides.hourglasses": 4,
}


_COUNT_FILE = {
    **dict.fromkeys(("land", "city", "vista"), "land.toml"),
    **dict.fromkeys(("water", "harbour", "open_water"), "water.toml"),
    **dict.fromkeys(("space", "comet_cards", "planet_cards", "sun_cards", "moon_cards", "star_cards"), "space.toml"),
    "townsfolk": "townsfolk.toml",
    "inspiration": "inspiration.toml",
    **dict.fromkeys(("tiles_in_box", "special_tiles"), "upgrades.toml"),
    **dict.fromkeys(("journal_tiles", "final_spaces", "green_workers"), "journal.toml"),
    **dict.fromkeys(("schemes", "ai_boards"), "solo.toml"),
    "player_boards": "caravans.toml",
    **{f"tides.{kind}": f"{kind}.toml" for kind in CARD_KINDS},
    "tides.overseers": "townsfolk.toml",
    "tides.cards": "land/water/space/townsfolk/inspiration/solo.toml",
    "tides.schemes": "solo.toml",
    "tides.special_tiles": "upgrades.toml",
    **dict.fromkeys(
        ("tides.traders", "tides.trader_tiles", "tides.worker_tops", "tides.worker_bottoms", "tides.worker_stacks", "tides.hourglasses"),
        "tides.toml",
    ),
}


def _check_counts(c: Content, expected: dict[str, int]) -> None:
    """Compare with the rulebook's component list, so a lost or doubled entry cannot go unnoticed."""

    def need(what: str, got: int, want: int | None = None, counted: str = "") -> None:
        want = expected[what] if want is None else want
        if got != want:
            raise ContentError(
                f"{_COUNT_FILE[what]}: wrong count: {what} should be {want} (rulebook component list), found {got}"
                + (f"; counted: {counted}" if counted else "")
            )

    for kind in CARD_KINDS:
        base = sum(1 for i in c.decks[kind] if c.cards[i].expansion is None)  # expansion cards come with an option
        need(kind, base, counted="[[card]] entries of the base game dealt into the deck")
    deck_tags = lambda kind, tag: sum(1 for i in c.decks[kind] if tag in c.cards[i].tags and c.cards[i].expansion is None)  # noqa: E731
    for tag in ("city", "vista"):
        need(tag, deck_tags("land", tag), counted=f"cards with tag {tag!r}")
    for tag in ("harbour", "open_water"):
        need(tag, deck_tags("water", tag), counted=f"cards with tag {tag!r}")
    for tag, what in (
        ("comet", "comet_cards"),
        ("planet", "planet_cards"),
        ("sun", "sun_cards"),
        ("moon", "moon_cards"),
        ("stars", "star_cards"),
    ):
        need(what, deck_tags("space", tag), counted=f"cards with tag {tag!r}")
    base_designs = [d for d in c.designs if d.expansion is None]
    coloured = [d for d in base_designs if d.kind != "special"]
    need("special_tiles", sum(1 for d in base_designs if d.kind == "special"), counted="[[design]] entries of kind 'special'")
    need(
        "tiles_in_box",
        len(coloured) * c.copies_in_box + expected["special_tiles"],
        counted=f"{len(coloured)} coloured designs x copies_in_box {c.copies_in_box} + the special tiles",
    )
    need("journal_tiles", len(c.journal_tiles), counted="[[tile]] entries")
    need("final_spaces", sum(1 for n in c.nodes if n.final), counted="[[node]] entries with final = true")
    need("green_workers", len(c.green_worker_columns), counted="green_worker_columns")
    need("schemes", sum(1 for s in c.solo.schemes if s.expansion is None), counted="[[scheme]] entries of the base game")
    need("ai_boards", len(c.solo.ai_boards), counted="[[ai_board]] entries")
    need("player_boards", len(c.caravan.boards), counted="[[board]] entries")
    _check_expansion_counts(c, need)
    takes_tile = sum(1 for n in c.nodes if n.takes_tile)
    if takes_tile != len(c.journal_tiles):
        raise ContentError(
            f"journal.toml: field 'journal_tile': {takes_tile} nodes take a journal tile, "
            f"but there are {len(c.journal_tiles)} [[tile]] entries"
        )


def _check_expansion_counts(c: Content, need: Callable[..., None]) -> None:
    """The Tides of Trade's component list, for the parts this game loads: its cards of a kind when
    they are dealt (the whole expansion, or an option bringing one kind), the rest with the expansion."""
    loaded = {kind: [c.cards[i] for i in c.decks[kind] if c.cards[i].expansion == TIDES_OF_TRADE] for kind in CARD_KINDS}
    for kind, cards in loaded.items():
        if cards or TIDES_OF_TRADE in c.options:
            need(f"tides.{kind}", len(cards), counted=f"[[card]] entries with expansion = {TIDES_OF_TRADE!r}")
    if TIDES_OF_TRADE not in c.options:
        return
    overseers = sum(1 for card in loaded["townsfolk"] if card.is_overseer)
    need("tides.overseers", overseers, counted="townsfolk with hosts = ['market']")
    schemes = sum(1 for s in c.solo.schemes if s.expansion == TIDES_OF_TRADE)
    need("tides.schemes", schemes, counted="[[scheme]] entries with the expansion")
    need("tides.cards", sum(len(v) for v in loaded.values()) + schemes, counted="the expansion's deck cards and scheme cards")
    pink = sum(1 for d in c.designs if d.expansion == TIDES_OF_TRADE and d.kind == "special")
    need("tides.special_tiles", pink, counted="[[design]] entries of kind 'special' with the expansion")
    t = c.tides
    assert t is not None  # loaded with the expansion
    need("tides.traders", len(t.traders), counted="[[trader]] entries")
    need("tides.trader_tiles", sum(tr.copies for tr in t.traders), counted="the traders' copies")
    need("tides.worker_tops", sum(1 for h in t.halves if h.half == "top"), counted="[[worker_tile]] entries with half = 'top'")
    need("tides.worker_bottoms", sum(1 for h in t.halves if h.half == "bottom"), counted="[[worker_tile]] entries with half = 'bottom'")
    need("tides.worker_stacks", t.stacks, counted="[worker_tiles] stacks")
    need("tides.hourglasses", t.hourglasses, counted="hourglasses")


def _check_unique(ids: list[tuple[str, str]]) -> None:
    """Ids are the engine's and the scenario builder's handles, so one id must name one thing in all files."""
    seen: dict[str, str] = {}
    for file, i in ids:
        if i in seen:
            raise ContentError(f"{file}: entry {i!r}: field 'id': duplicate id (also used in {seen[i]})")
        seen[i] = file


# --------------------------------------------------------------------------- loading


def load_content(
    data_dir: str | Path | None = None, options: frozenset[str] | set[str] = frozenset(), expected: dict[str, int] | None = None
) -> Content:
    """Load and validate content; cached for the packaged data, since every Game and env shares it.

    ``data_dir`` points at another copy of the data (tests load deliberately broken copies);
    ``options`` holds content options (vocabulary.CONTENT_OPTIONS); ``expected`` replaces the
    rulebook component counts of EXPECTED. Raises ContentError naming file, entry and field.
    """
    opts = frozenset(options)
    unknown = opts - set(CONTENT_OPTIONS) - set(EXPANSIONS)
    if unknown:
        raise ContentError(f"unknown content option(s) {sorted(unknown)}; allowed: {', '.join(CONTENT_OPTIONS + EXPANSIONS)}")
    if data_dir is None and expected is None:
        return _cached(opts)
    return _load(Path(data_dir) if data_dir else DATA_DIR, opts, expected or EXPECTED)


@lru_cache(maxsize=4)
def _cached(opts: frozenset[str]) -> Content:
    return _load(DATA_DIR, opts, EXPECTED)


def _load(data_dir: Path, opts: frozenset[str], expected: dict[str, int]) -> Content:
    # Imported here, not at the top: content_files needs the records defined above, so a
    # top-level import would be circular.
    from wayfarers_env.content.files import (
        _load_board,
        _load_capital,
        _load_caravans,
        _load_cards,
        _load_journal,
        _load_solo,
        _load_upgrades,
    )
    from wayfarers_env.content.tides_file import load_tides

    base: list[Card] = []
    extra: list[Card] = []
    ids: list[tuple[str, str]] = []
    for kind in CARD_KINDS:
        family, added = _load_cards(data_dir, kind, opts)
        base.extend(family)
        extra.extend(added)
    cards = [replace(card, index=i) for i, card in enumerate(base + extra)]  # base cards first: their indices never move
    decks = {kind: tuple(card.index for card in cards if card.kind == kind) for kind in CARD_KINDS}
    ids.extend((f"{card.kind}.toml", card.id) for card in cards)
    capital, capital_cards = _load_capital(data_dir, len(cards))
    cards.extend(capital_cards)
    ids.extend(("capital.toml", card.id) for card in capital_cards)
    ids.extend(("capital.toml", sp.id) for sp in capital.centre)
    caravan = _load_caravans(data_dir)
    designs, copies = _load_upgrades(data_dir, opts)
    ids.extend(("upgrades.toml", d.id) for d in designs)
    nodes, links, green, jtiles = _load_journal(data_dir)
    ids.extend(("journal.toml", n.id) for n in nodes)
    ids.extend(("journal.toml", t[0]) for t in jtiles)
    rows, tile_costs, setup, player = _load_board(data_dir)
    solo = _load_solo(data_dir, opts)
    ids.extend(("solo.toml", s.id) for s in solo.schemes)
    ids.extend(("solo.toml", b.id) for b in solo.ai_boards)
    ids.extend(("caravans.toml", b.id) for b in caravan.boards)
    tides: Tides | None = None
    if TIDES_OF_TRADE in opts or (data_dir / "tides.toml").exists():
        # read on every load where present, as the deck files' expansion entries are checked on every load
        checked = load_tides(data_dir)
        if TIDES_OF_TRADE in opts:
            tides = checked
            ids.extend(("tides.toml", t.id) for t in tides.traders)
            ids.extend(("tides.toml", h.id) for h in tides.halves)
    _check_unique(ids)
    content = Content(
        cards=tuple(cards),
        by_id={c.id: c for c in cards},
        decks=decks,
        capital=capital,
        caravan=caravan,
        designs=tuple(designs),
        design_by_id={d.id: d for d in designs},
        copies_per_player=copies["copies_per_player"],
        copies_in_box=copies["copies_in_box"],
        copies_solo=copies["copies_solo"],
        nodes=tuple(nodes),
        node_by_id={n.id: n for n in nodes},
        links=tuple(links),
        green_worker_columns=green,
        journal_tiles=tuple(jtiles),
        rows=rows,
        tile_costs=tile_costs,
        setup=tuple(setup),
        player=player,
        solo=solo,
        options=opts,
        tides=tides,
    )
    _check_counts(content, expected)
    return content
