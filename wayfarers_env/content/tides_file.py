"""The reader of ``data/tides.toml``: Tides of Trade's components that are not cards or upgrade
tiles (traders, worker upgrade tile halves, the player-board extension, the Ink Well, the
expansion's scoring numbers).

Apart from content/files.py because it reads one expansion's own file and changes with it; it uses
the same field access (``_Entry``), so its errors name the file, the entry and the field too.
Schema: docs/CONTENT.md 2.8.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wayfarers_env.content import effects
from wayfarers_env.content.effects import Effect
from wayfarers_env.content.files import HOSTS, PROVENANCES, _die_space, _Entry, _list, _read, _tag_counts
from wayfarers_env.content.records import ContentError, Tides, Trader, WorkerHalf
from wayfarers_env.vocabulary import EXTENSIONS, TAGS, TIDES_OF_TRADE, WORKER_COLOURS

FILE = "tides.toml"
HALVES = ("top", "bottom")  # ToT setup step 4: "A = Tops / B = Bottoms"
INK_WELL = ("fewer_provisions", "fewer_silver", "die_assets", "capture_or_red")  # ToT "Card Influence", in the rulebook's order
TABLES = ("hourglasses", "trader", "worker_tiles", "worker_tile", "worker_caravan", "player_extension", "ink_well", "scoring")
SCORING = ("set", "square", "worker_squares_max", "dice_squares_max", "hourglass", "red_majority")


def _provenance(e: _Entry) -> str:
    value = e.get("provenance", str, required=True)
    if value not in PROVENANCES:
        e.fail("provenance", f"unknown provenance {value!r}; allowed: {', '.join(PROVENANCES)}")
    return value


def _positive(e: _Entry, fld: str, *, low: int = 1, high: int | None = None) -> int:
    value = e.get(fld, int, required=True)
    if value < low or (high is not None and value > high):
        e.fail(fld, f"must be {low}-{high}, got {value}" if high is not None else f"must be at least {low}, got {value}")
    return value


def _table(doc: dict[str, Any], key: str, allowed: set[str]) -> _Entry:
    table = doc.get(key)
    if not isinstance(table, dict):
        raise ContentError(f"{FILE}: missing [{key}] table")
    return _Entry(FILE, f"[{key}]", table, allowed)


def _traders(doc: dict[str, Any]) -> list[Trader]:
    out: list[Trader] = []
    for n, t in enumerate(_list(FILE, doc, "trader"), 1):
        fields = {"id", "name", "extension", "copies", "side_a", "side_b", "provenance"}
        e = _Entry(FILE, f"trader #{n} ({t.get('id', 'no id')})", t, fields)
        tid = e.get("id", str, required=True)
        if not tid.startswith("trader."):
            e.fail("id", f"trader ids start with 'trader.', got {tid!r}")
        sides = (e.effect("side_a", optional=False), e.effect("side_b", optional=False))
        out.append(
            Trader(
                id=tid,
                index=len(out),
                name=e.get("name", str, required=True),
                extension=_positive(e, "extension", high=EXTENSIONS),
                copies=_positive(e, "copies", high=2),
                sides=sides,
                provenance=_provenance(e),
            )
        )
    return out


def _halves(doc: dict[str, Any]) -> list[WorkerHalf]:
    out: list[WorkerHalf] = []
    fields = {"id", "half", "effect", "tags", "vp", "never_blocked", "provenance"}
    for n, t in enumerate(_list(FILE, doc, "worker_tile"), 1):
        e = _Entry(FILE, f"worker_tile #{n} ({t.get('id', 'no id')})", t, fields)
        half = e.get("half", str, required=True)
        if half not in HALVES:
            e.fail("half", f"unknown half {half!r}; allowed: {', '.join(HALVES)}")
        wid = e.get("id", str, required=True)
        if not wid.startswith(f"worker_tile.{half}"):
            e.fail("id", f"a {half} half's id is 'worker_tile.{half}<number>', got {wid!r}")
        effect, tags = e.effect("effect"), e.names("tags", TAGS)
        vp = e.get("vp", int, 0)
        never_blocked = e.get("never_blocked", bool, False)
        if vp < 0:
            e.fail("vp", f"must be 0 or more, got {vp}")
        if effect is None and not tags and not vp and not never_blocked:
            e.fail("effect", "a half shows something: an effect, tags, VP or never_blocked")
        out.append(WorkerHalf(wid, len(out), half, effect, tags, vp, never_blocked, _provenance(e), _tag_counts(tags)))
    return out


def _worker_caravan(doc: dict[str, Any]) -> tuple[tuple[str, ...], dict[tuple[str, str], Effect]]:
    """The player-board extension's 3x2 caravan: a column under each worker colour, a Top cell and a
    Bottom cell in each, and the icon printed on a cell (gained when a worker tile covers it)."""
    e = _table(doc, "worker_caravan", {"workers", "covered"})
    workers = e.names("workers", WORKER_COLOURS)
    if sorted(workers) != sorted(WORKER_COLOURS):
        e.fail("workers", f"one column under each worker colour ({', '.join(WORKER_COLOURS)}), each once; got {list(workers)}")
    covered: dict[tuple[str, str], Effect] = {}
    for cell in e.get("covered", list, required=True):
        ce = _Entry(FILE, "[worker_caravan].covered", cell if isinstance(cell, dict) else {}, {"half", "worker", "effect"})
        half, worker = ce.get("half", str, required=True), ce.get("worker", str, required=True)
        if half not in HALVES:
            ce.fail("half", f"unknown half {half!r}; allowed: {', '.join(HALVES)}")
        if worker not in workers:
            ce.fail("worker", f"unknown column {worker!r}; allowed: {', '.join(workers)}")
        if (half, worker) in covered:
            ce.fail("worker", f"the {half} cell under {worker} is listed twice")
        covered[(half, worker)] = ce.effect("effect", optional=False)
    return workers, covered


def _ints(doc: dict[str, Any], key: str, names: tuple[str, ...]) -> dict[str, int]:
    e = _table(doc, key, set(names))
    return {name: _positive(e, name) for name in names}


def load_tides(data_dir: Path) -> Tides:
    """Read tides.toml into ``Tides``; its component counts are checked by the loader."""
    doc = _read(data_dir, FILE)
    unknown = set(doc) - set(TABLES)
    if unknown:
        raise ContentError(f"{FILE}: unknown table {sorted(unknown)[0]!r}; allowed: {', '.join(TABLES)}")
    traders, halves = _traders(doc), _halves(doc)
    wt = _table(doc, "worker_tiles", {"stacks", "price"})
    price = wt.effect("price", optional=False)
    if any(a.name not in effects.cost_atoms() for a in effects.atoms(price)):
        wt.fail("price", "a price uses silver, provisions or spend(guild) only, e.g. '3 silver / 2 x spend(red)'")
    workers, covered = _worker_caravan(doc)
    px = _table(doc, "player_extension", {"tags", "market_hosts", "die_space"})
    hosts = px.names("market_hosts", HOSTS)
    if not hosts:
        px.fail("market_hosts", "the Market takes Overseers: give its host icon, 'market'")
    hourglasses = doc.get("hourglasses")
    if not isinstance(hourglasses, int) or isinstance(hourglasses, bool) or hourglasses < 1:
        raise ContentError(f"{FILE}: field 'hourglasses': expected a positive integer (tiles in the box), got {hourglasses!r}")
    return Tides(
        traders=tuple(traders),
        trader_by_id={t.id: t for t in traders},
        halves=tuple(halves),
        half_by_id={h.id: h for h in halves},
        stacks=_positive(wt, "stacks"),
        worker_tile_price=price,
        worker_columns=workers,
        covered=covered,
        extension_tags=px.names("tags", TAGS),
        market_hosts=hosts,
        die_space=_die_space(px, "die_space", px.get("die_space", dict, required=True), expansion=TIDES_OF_TRADE),
        ink_well=_ints(doc, "ink_well", INK_WELL),
        scoring=_ints(doc, "scoring", SCORING),
        hourglasses=hourglasses,
    )
