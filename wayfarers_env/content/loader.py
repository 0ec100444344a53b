"""Loads the game's content from ``data/*.toml`` once, validates it, and freezes it.

Everything the engine knows about a card, tile, board or track comes from here, so a wrong
data file is caught at load time with an error naming the file, the entry and the field,
instead of surfacing as odd play many turns later.

This module holds the frozen records, the component counts, the checks that span several files
and the cache; the readers of the single files are in content_files.py. The schema of every file
is described in docs/CONTENT.md.
"""

from __future__ import annotations

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
    deck_tags = lambda kind, tag: sum(1 for i in c.decks[kind] if tag in c.cards[i].tags)  # noqa: E731
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
    coloured = [d for d in c.designs if d.kind != "special"]
    need("special_tiles", sum(1 for d in c.designs if d.kind == "special"), counted="[[design]] entries of kind 'special'")
    need(
        "tiles_in_box",
        len(coloured) * c.copies_in_box + expected["special_tiles"],
        counted=f"{len(coloured)} coloured designs x copies_in_box {c.copies_in_box} + the special tiles",
    )
    need("journal_tiles", len(c.journal_tiles), counted="[[tile]] entries")
    need("final_spaces", sum(1 for n in c.nodes if n.final), counted="[[node]] entries with final = true")
    need("green_workers", len(c.green_worker_columns), counted="green_worker_columns")
    need("schemes", len(c.solo.schemes), counted="[[scheme]] entries")
    need("ai_boards", len(c.solo.ai_boards), counted="[[ai_board]] entries")
    need("player_boards", len(c.caravan.boards), counted="[[board]] entries")
    takes_tile = sum(1 for n in c.nodes if n.takes_tile)
    if takes_tile != len(c.journal_tiles):
        raise ContentError(
            f"journal.toml: field 'journal_tile': {takes_tile} nodes take a journal tile, "
            f"but there are {len(c.journal_tiles)} [[tile]] entries"
        )


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

    cards: list[Card] = []
    decks: dict[str, tuple[int, ...]] = {}
    ids: list[tuple[str, str]] = []
    for kind in CARD_KINDS:
        family = _load_cards(data_dir, kind, len(cards), opts)
        decks[kind] = tuple(card.index for card in family)
        cards.extend(family)
        ids.extend((f"{kind}.toml", card.id) for card in family)
    capital, capital_cards = _load_capital(data_dir, len(cards))
    cards.extend(capital_cards)
    ids.extend(("capital.toml", card.id) for card in capital_cards)
    ids.extend(("capital.toml", sp.id) for sp in capital.centre)
    caravan = _load_caravans(data_dir)
    designs, copies = _load_upgrades(data_dir)
    ids.extend(("upgrades.toml", d.id) for d in designs)
    nodes, links, green, jtiles = _load_journal(data_dir)
    ids.extend(("journal.toml", n.id) for n in nodes)
    ids.extend(("journal.toml", t[0]) for t in jtiles)
    rows, tile_costs, setup, player = _load_board(data_dir)
    solo = _load_solo(data_dir)
    ids.extend(("solo.toml", s.id) for s in solo.schemes)
    ids.extend(("solo.toml", b.id) for b in solo.ai_boards)
    ids.extend(("caravans.toml", b.id) for b in caravan.boards)
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
    )
    _check_counts(content, expected)
    return content
