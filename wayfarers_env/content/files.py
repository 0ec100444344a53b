"""Per-file readers for ``data/*.toml``: each turns one file into the frozen records of content.py.

They live apart from content.py because they are the bulk of the loader and change for a different
reason: a reader changes when a file's schema changes, while content.py changes when the shape of
the loaded content or a cross-file rule changes. Every error they raise goes through ``_Entry`` so
the message names the file, the entry and the field, and says what is allowed.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal, NoReturn, overload

from wayfarers_env.content import effects
from wayfarers_env.content.effects import Effect, EffectSyntaxError
from wayfarers_env.content.measures import TAGS, Measure, MeasureSyntaxError, compile_measure
from wayfarers_env.content.records import (
    AIBoard,
    Capital,
    Caravan,
    CaravanBoard,
    Card,
    CentreSpace,
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
from wayfarers_env.vocabulary import (
    ASSETS,
    CARD_KINDS,
    EXPANSIONS,
    GUILDS,
    LINK_ROWS,
    OPTION_CARDS,
    ROWS,
    TILE_KINDS,
    TRIGGERS,
    WORKER_COLOURS,
)
from wayfarers_env.vocabulary import CARAVAN_ICONS as ICONS

# Where an expansion entry's values come from: the expansion's rulebook, the reference tables of
# shared/reference (RULES-FACTS §17), or our own design in the spirit of the rulebook (docs/CONTENT.md 8)
PROVENANCES = ("rulebook", "reference-table", "reconstructed")
MARKET = "market"  # Tides of Trade: the host icon of the player-board extension's Market, for Overseers only
HOSTS = TAGS + (MARKET,)

# --------------------------------------------------------------------------- helpers


class _Entry:
    """Field access for one table entry that produces errors naming file/entry/field."""

    def __init__(self, file: str, label: str, table: dict[str, Any], allowed: set[str]):
        self.file, self.label, self.table = file, label, table
        unknown = set(table) - allowed
        if unknown:
            self.fail(sorted(unknown)[0], f"unknown field; allowed fields: {', '.join(sorted(allowed))}")

    def fail(self, fld: str, msg: str) -> NoReturn:
        raise ContentError(f"{self.file}: {self.label}: field {fld!r}: {msg}")

    def get(self, fld: str, typ: type | tuple[type, ...], default: Any = ..., *, required: bool = False) -> Any:
        if fld not in self.table:
            if required or default is ...:
                self.fail(fld, "missing (required)")
            return default
        value = self.table[fld]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            names = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
            self.fail(fld, f"expected {names}, got {type(value).__name__} {value!r}")
        return value

    @overload
    def effect(self, fld: str, *, allow_ai: bool = False, optional: Literal[True] = True) -> Effect | None: ...
    @overload
    def effect(self, fld: str, *, allow_ai: bool = False, optional: Literal[False]) -> Effect: ...
    def effect(self, fld: str, *, allow_ai: bool = False, optional: bool = True) -> Effect | None:
        text = self.get(fld, str, None if optional else ...)
        if text is None or (optional and text == ""):
            return None
        return self.parse_effect(fld, text, allow_ai=allow_ai)

    def parse_effect(self, fld: str, text: str, *, allow_ai: bool = False) -> Effect:
        try:
            tree = effects.parse(text)
        except EffectSyntaxError as exc:
            self.fail(fld, str(exc))
        if not allow_ai:
            solo_only = effects.solo_atoms()
            for atom in effects.atoms(tree):
                if atom.name in solo_only:
                    self.fail(fld, f"{atom.name!r} is only allowed in solo.toml")
        return tree

    def measure(self, fld: str, text: str | None = None) -> Measure:
        text = self.get(fld, str, required=True) if text is None else text
        try:
            return compile_measure(text)
        except MeasureSyntaxError as exc:
            self.fail(fld, str(exc))
            raise  # unreachable

    def names(self, fld: str, allowed: tuple[str, ...], default: Any = ()) -> tuple[str, ...]:
        values = self.get(fld, list, list(default))
        for v in values:
            if v not in allowed:
                self.fail(fld, f"unknown name {v!r}; allowed: {', '.join(allowed)}")
        return tuple(values)


def _origin(e: _Entry) -> tuple[str | None, str | None]:
    """An entry's ``expansion`` and ``provenance``: an expansion entry says where its values come
    from (an owner of the expansion replaces the reconstructed ones); a base entry has no provenance,
    since the base game's sources are documented per file (docs/CONTENT.md 6)."""
    expansion = e.get("expansion", str, None)
    if expansion is not None and expansion not in EXPANSIONS:
        e.fail("expansion", f"unknown expansion {expansion!r}; allowed: {', '.join(EXPANSIONS)}")
    provenance = e.get("provenance", str, None)
    if expansion is None:
        if provenance is not None:
            e.fail("provenance", "only expansion entries carry a provenance (the base game's sources are in docs/CONTENT.md)")
    elif provenance is None:
        e.fail("provenance", f"missing (required on expansion entries); allowed: {', '.join(PROVENANCES)}")
    elif provenance not in PROVENANCES:
        e.fail("provenance", f"unknown provenance {provenance!r}; allowed: {', '.join(PROVENANCES)}")
    return expansion, provenance


def brought(expansion: str | None, kind: str, options: frozenset[str]) -> bool:
    """Is an entry dealt into this game: the base game always; an expansion's entry with the expansion,
    or with a content option that brings that expansion's entries of this kind (vocabulary.OPTION_CARDS)."""
    if expansion is None or expansion in options:
        return True
    return any(OPTION_CARDS.get(o) == (expansion, kind) for o in options)


def _read(data_dir: Path, name: str) -> dict[str, Any]:
    path = data_dir / name
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ContentError(f"{name}: file missing from {data_dir}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{name}: not valid TOML: {exc}") from None


def _list(file: str, doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = doc.get(key)
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ContentError(f"{file}: expected a list of [[{key}]] tables")
    return value


def _tag_counts(tags: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(tags.count(t) for t in TAGS)


def _die_space(e: _Entry, fld: str, table: Any, *, expansion: str | None = None) -> DieSpace:
    if not isinstance(table, dict):
        e.fail(fld, 'expected a table { requires = [...], action = "..." }')
    sub = _Entry(e.file, f"{e.label}.{fld}", table, {"requires", "action", "influence"})
    requires = sub.names("requires", ASSETS)
    action = sub.effect("action", optional=False)
    influence = sub.names("influence", GUILDS)
    if influence and expansion is None:
        sub.fail("influence", "influence costs on die spaces belong to the Tides of Trade: only on cards with expansion = 'tides_of_trade'")
    if influence and requires:
        sub.fail("requires", "a die space with an influence cost takes a die of any value (ToT 'New actions & effects'): requires = []")
    camel, ship, pigeon, telescope = (requires.count(a) for a in ASSETS)
    return DieSpace(requires, action, (camel, ship, pigeon, telescope), influence)


def _links(e: _Entry, table: Any) -> tuple[tuple[bool, ...], tuple[effects.Atom | None, ...]]:
    if not isinstance(table, dict):
        e.fail("links", "expected a table { left = [...], right = [...] }")
    sub = _Entry(e.file, f"{e.label}.links", table, {"left", "right"})
    left_rows = sub.names("left", LINK_ROWS)
    left = tuple(r in left_rows for r in LINK_ROWS)
    right: list[effects.Atom | None] = [None, None, None, None]
    for text in sub.get("right", list, []):
        if not isinstance(text, str):
            sub.fail("right", f"expected effect strings, got {text!r}")
        tree = sub.parse_effect("right", text)
        if not isinstance(tree, effects.Atom):
            sub.fail("right", f"each link offers one effect, got {text!r}")
        row = {"guild": 0, "silver": 1, "provisions": 2, "card_influence": 3}.get(tree.name)
        if row is None or (row == 0 and tree.arg() == "any") or tree.amount != 1:
            sub.fail("right", f"{text!r} is not a link bonus; rows offer guild(colour), silver, provision, card_influence")
        if right[row] is not None:
            sub.fail("right", f"two bonuses for the {LINK_ROWS[row]} row")
        right[row] = tree
    return left, tuple(right)


# --------------------------------------------------------------------------- families


def _load_cards(data_dir: Path, kind: str, options: frozenset[str]) -> tuple[list[Card], list[Card]]:
    """The base game's cards of one deck file and the expansion cards this game deals, in file order
    and with ``index`` -1: the loader numbers them, the base game's first (content/loader.py).
    Every entry is checked, also the expansion's that are left out."""
    file = f"{kind}.toml"
    doc = _read(data_dir, file)
    fields = {
        "land": {"id", "name", "tags", "immediate", "die_space", "trigger"},
        "water": {"id", "name", "tags", "immediate", "die_space", "links"},
        "space": {"id", "name", "tags", "vp", "immediate"},
        "townsfolk": {"id", "name", "cost", "hosts", "gives", "ability", "resting", "gives_influence", "dismiss"},
        "inspiration": {"id", "name", "goal"},
    }[kind] | {"expansion", "provenance"}
    base: list[Card] = []
    extra: list[Card] = []
    for n, table in enumerate(_list(file, doc, "card"), 1):
        label = f"card #{n} ({table.get('id', 'no id')})"
        e = _Entry(file, label, table, fields)
        cid = e.get("id", str, required=True)
        if not cid.startswith(kind + "."):
            e.fail("id", f"ids in {file} must start with '{kind}.', got {cid!r}")
        expansion, provenance = _origin(e)
        kw: dict[str, Any] = {"id": cid, "index": -1, "kind": kind, "name": e.get("name", str, required=True)}
        kw["expansion"], kw["provenance"] = expansion, provenance
        if kind in ("land", "water", "space"):
            tags = e.names("tags", TAGS)
            if not tags:
                e.fail("tags", "a card needs at least one tag")
            kw["tags"] = tags
            kw["tag_counts"] = _tag_counts(tags)
            kw["immediate"] = e.effect("immediate")
        if kind == "land":
            if "die_space" in table:
                kw["die_space"] = _die_space(e, "die_space", table["die_space"], expansion=expansion)
            if "trigger" in table:
                t = table["trigger"]
                sub = _Entry(file, f"{label}.trigger", t if isinstance(t, dict) else {}, {"on", "effect"})
                kw["trigger_on"] = sub.names("on", TRIGGERS)
                kw["trigger"] = sub.effect("effect", optional=False)
            is_city, is_vista = "city" in kw["tags"], "vista" in kw["tags"]
            if is_city == is_vista:
                e.fail("tags", "a Land card is either a city or a vista")
            if is_city and "die_space" not in kw:
                e.fail("die_space", "a city needs a die space")
            if is_vista and not kw.get("trigger_on"):
                e.fail("trigger", "a vista needs a trigger with at least one tag in 'on'")
        elif kind == "water":
            if "die_space" in table:
                kw["die_space"] = _die_space(e, "die_space", table["die_space"], expansion=expansion)
            kw["links_left"], kw["links_right"] = _links(e, table.get("links", {}))
            if ("harbour" in kw["tags"]) != ("die_space" in kw):
                e.fail("die_space", "harbours (and only harbours) have a die space")
            if ("harbour" in kw["tags"]) == ("open_water" in kw["tags"]):
                e.fail("tags", "a Water card is either a harbour or an open_water")
        elif kind == "space":
            kw["vp"] = e.measure("vp")
        elif kind == "townsfolk":
            _townsfolk(e, kw)
        elif kind == "inspiration":
            kw["goal"] = e.measure("goal")
        if brought(expansion, kind, options):
            (base if expansion is None else extra).append(Card(**kw))
    return base, extra


def _townsfolk(e: _Entry, kw: dict[str, Any]) -> None:
    """A Townsfolk's price, hosts and its one kind of benefit. Tides of Trade adds the Overseers
    (tucked only under the Market, with a resting ability and a dismiss effect) and townsfolk that
    provide influence for their host's influence cost."""
    kw["cost"] = e.get("cost", int, required=True)
    if not 0 <= kw["cost"] <= 3:
        e.fail("cost", f"townsfolk cost 0-3 silver, got {kw['cost']}")
    kw["hosts"] = hosts = e.names("hosts", HOSTS)
    if not hosts:
        e.fail("hosts", "needs at least one tag")
    kw["gives"] = e.names("gives", ASSETS)
    kw["ability"] = e.effect("ability")
    kw["resting"] = e.effect("resting")
    kw["gives_influence"] = e.names("gives_influence", GUILDS)
    kw["dismiss"] = e.effect("dismiss")
    expansion = kw["expansion"]
    if kw["gives_influence"] and expansion is None:
        e.fail("gives_influence", "influence for a host's influence cost belongs to the Tides of Trade: set expansion = 'tides_of_trade'")
    if MARKET in hosts:
        if hosts != (MARKET,):
            e.fail("hosts", "'market' is an Overseer's only host: hosts = ['market'] alone")
        if expansion is None:
            e.fail("hosts", "Overseers (hosts = ['market']) belong to the Tides of Trade: set expansion = 'tides_of_trade'")
        if kw["cost"] != 3:
            quote = "'this still costs 3 Silver, as shown on each Overseer Card'"
            e.fail("cost", f"an Overseer costs 3 silver (ToT: {quote}), got {kw['cost']}")
        if kw["resting"] is None or kw["dismiss"] is None:
            e.fail("resting" if kw["resting"] is None else "dismiss", "an Overseer has a resting ability and a dismiss effect")
        if kw["gives"] or kw["ability"] is not None or kw["gives_influence"]:
            e.fail("ability", "an Overseer has only a resting ability and a dismiss effect (no gives, ability or gives_influence)")
        return
    if kw["dismiss"] is not None:
        e.fail("dismiss", "only Overseers (hosts = ['market']) can be dismissed")
    if sum(bool(kw[k]) for k in ("gives", "ability", "resting", "gives_influence")) != 1:
        e.fail("ability", "a townsfolk has exactly one of gives, ability, resting or gives_influence")
    if kw["resting"] is not None and hosts != ("open_water",):
        e.fail("hosts", "townsfolk with a resting ability are tucked under open_water only")
    if kw["gives_influence"] and not set(hosts) <= {"city", "harbour"}:
        e.fail("hosts", "a townsfolk that provides influence goes under a city or harbour (only they have influence costs): city, harbour")


def _load_capital(data_dir: Path, start: int) -> tuple[Capital, list[Card]]:
    file = "capital.toml"
    doc = _read(data_dir, file)
    cards: list[Card] = []
    spec = {
        "city": {"id", "name", "tags", "die_space"},
        "harbour": {"id", "name", "tags", "die_space", "links"},
        "star": {"id", "name", "tags", "vp"},
        "townsfolk": {"id", "name", "resting"},
    }
    for key, allowed in spec.items():
        table = doc.get(key)
        if not isinstance(table, dict):
            raise ContentError(f"{file}: missing [{key}] table")
        e = _Entry(file, f"[{key}]", table, allowed)
        kw: dict[str, Any] = {
            "id": e.get("id", str, required=True),
            "index": start + len(cards),
            "kind": "capital",
            "name": e.get("name", str, required=True),
        }
        if "tags" in allowed:
            kw["tags"] = e.names("tags", TAGS)
            kw["tag_counts"] = _tag_counts(kw["tags"])
        if "die_space" in allowed:
            kw["die_space"] = _die_space(e, "die_space", table.get("die_space"))
        if "links" in allowed:
            kw["links_left"], kw["links_right"] = _links(e, table.get("links", {}))
        if "vp" in allowed:
            kw["vp"] = e.measure("vp")
        if "resting" in allowed:
            kw["resting"] = e.effect("resting", optional=False)
        cards.append(Card(**kw))
    centre = doc.get("centre")
    if not isinstance(centre, dict):
        raise ContentError(f"{file}: missing [centre] table")
    ce = _Entry(file, "[centre]", centre, {"id", "name", "tags", "space"})
    centre_tags = ce.names("tags", TAGS)
    spaces = []
    for n, sp in enumerate(_list(file, centre, "space"), 1):
        se = _Entry(file, f"centre.space #{n}", sp, {"id", "name", "requires", "action"})
        ds = _die_space(se, "die_space", {"requires": sp.get("requires", []), "action": sp.get("action")})
        spaces.append(CentreSpace(se.get("id", str, required=True), se.get("name", str, required=True), ds))
    if len(spaces) != 4:
        raise ContentError(f"{file}: [centre] needs 4 die spaces, found {len(spaces)}")
    return Capital(cards[0], cards[1], cards[2], cards[3], centre_tags, tuple(spaces)), cards


def _load_caravans(data_dir: Path) -> Caravan:
    file = "caravans.toml"
    doc = _read(data_dir, file)
    grid = doc.get("grid")
    if not isinstance(grid, dict):
        raise ContentError(f"{file}: missing [grid] table")
    ge = _Entry(file, "[grid]", grid, {"columns", "rows", "printed"})
    cols, nrows = ge.get("columns", int, required=True), ge.get("rows", int, required=True)
    printed = {}
    for p in ge.get("printed", list, []):
        pe = _Entry(file, "[grid].printed", p, {"row", "column", "asset"})
        asset = pe.get("asset", str, required=True)
        if asset not in ASSETS:
            pe.fail("asset", f"unknown asset {asset!r}; allowed: {', '.join(ASSETS)}")
        printed[(pe.get("row", int, required=True), pe.get("column", int, required=True))] = asset
    boards = []
    for n, b in enumerate(_list(file, doc, "board"), 1):
        be = _Entry(file, f"board #{n} ({b.get('id', 'no id')})", b, {"id", "bonuses"})
        bonuses = {}
        for cell in be.get("bonuses", list, []):
            ce = _Entry(file, f"{be.label}.bonuses", cell, {"row", "column", "effect"})
            rc = (ce.get("row", int, required=True), ce.get("column", int, required=True))
            if not (1 <= rc[0] <= nrows and 1 <= rc[1] <= cols) or rc in printed:
                ce.fail("row", f"cell {rc} is not a coverable caravan cell")
            bonuses[rc] = ce.effect("effect", optional=False)
        boards.append(CaravanBoard(be.get("id", str, required=True), bonuses))
    return Caravan(cols, nrows, printed, tuple(boards))


def _mirror(columns: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    swap = {"up": "down", "down": "up"}
    return tuple(tuple(swap.get(i, i) for i in col) for col in reversed(columns))


BOARD_ROWS = ("top", "bottom")  # the main board's two rows of pink tiles, 5 spaces each
EXTENSION_ROW = "extension"  # Tides of Trade: the pink tile's space on the main-board extensions


def _board_space(e: _Entry, table: Any, expansion: str | None) -> tuple[str, int] | None:
    """Where a pink tile starts: a row of the main board and a column 1-5, or the main-board
    extensions' one space (an expansion's tile)."""
    if table is None:
        return None
    if not isinstance(table, dict):
        e.fail("board", "expected a table { row = ..., column = ... }")
    sub = _Entry(e.file, f"{e.label}.board", table, {"row", "column"})
    row, column = sub.get("row", str, required=True), sub.get("column", int, required=True)
    rows = BOARD_ROWS + ((EXTENSION_ROW,) if expansion else ())
    if row not in rows:
        only = "" if expansion else f" ({EXTENSION_ROW!r}: expansion tiles only)"
        sub.fail("row", f"unknown row {row!r}; allowed: {', '.join(rows)}{only}")
    if not 1 <= column <= (1 if row == EXTENSION_ROW else 5):
        sub.fail("column", f"columns are 1-5 on the main board, 1 on the extensions; got {column}")
    return row, column


def _load_upgrades(data_dir: Path, options: frozenset[str] = frozenset()) -> tuple[list[TileDesign], dict[str, int]]:
    """The tile designs: the base game's in file order, then the expansion's this game deals (so a
    base design's index never depends on the options)."""
    file = "upgrades.toml"
    doc = _read(data_dir, file)
    sup = _Entry(file, "[supply]", doc.get("supply", {}), {"copies_per_player", "copies_in_box", "copies_solo"})
    copies = {k: sup.get(k, int, required=True) for k in ("copies_per_player", "copies_in_box", "copies_solo")}
    allowed = {"id", "kind", "size", "columns", "flipped", "vp", "pile", "tags", "board", "solo_order", "solo_after"}
    allowed |= {"expansion", "provenance"}
    designs: list[TileDesign] = []
    extra: list[TileDesign] = []
    parsed: list[TileDesign] = []
    orders: dict[int, str] = {}
    for n, t in enumerate(_list(file, doc, "design"), 1):
        e = _Entry(file, f"design #{n} ({t.get('id', 'no id')})", t, allowed)
        expansion, provenance = _origin(e)
        kind = e.get("kind", str, required=True)
        if kind not in TILE_KINDS:
            e.fail("kind", f"unknown tile kind {kind!r}; allowed: {', '.join(TILE_KINDS)}")
        size = e.get("size", list, required=True)
        if len(size) != 2 or not all(isinstance(s, int) and s >= 1 for s in size):
            e.fail("size", "expected [width, height] of positive integers")
        cols = e.get("columns", list, required=True)
        if len(cols) != size[0]:
            e.fail("columns", f"a tile {size[0]} wide lists {size[0]} columns, found {len(cols)}")
        faces = []
        for fld in ("columns", "flipped"):
            if fld not in t:
                continue
            face = []
            for col in t[fld]:
                if not isinstance(col, list) or any(i not in ICONS for i in col):
                    e.fail(fld, f"unknown icon in {col!r}; allowed: {', '.join(ICONS)}")
                face.append(tuple(col))
            faces.append(tuple(face))
        if len(faces) == 2:
            if kind not in ("land", "water"):
                e.fail("flipped", "only land and water tiles can be flipped")
            if faces[1] != _mirror(faces[0]):
                e.fail("flipped", f"must be the mirror image of columns: {[list(c) for c in _mirror(faces[0])]}")
        elif kind in ("land", "water"):
            e.fail("flipped", "land and water tiles are double-sided; give the flipped face")
        tags = e.names("tags", TAGS)
        if bool(tags) != (kind == "special"):
            e.fail("tags", "special tiles, and only they, carry tags")
        solo_order, solo_after = e.get("solo_order", int, 0), e.get("solo_after", int, 0)
        if solo_order:
            if solo_order in orders:
                e.fail("solo_order", f"{solo_order} is also the solo_order of {orders[solo_order]}")
            orders[solo_order] = t.get("id", "?")
        if solo_after and expansion is None:
            e.fail("solo_after", "only an expansion's pink tile is placed between the base game's (solo_after)")
        design = TileDesign(
            id=e.get("id", str, required=True),
            index=-1,
            kind=kind,
            width=size[0],
            height=size[1],
            faces=tuple(faces),
            vp=e.get("vp", int, required=True),
            pile=e.get("pile", int, 0),
            tags=tags,
            board=_board_space(e, t.get("board"), expansion),
            solo_order=solo_order,
            tag_counts=_tag_counts(tags),
            expansion=expansion,
            provenance=provenance,
            solo_after=solo_after,
        )
        parsed.append(design)
        if brought(expansion, "tile", options):
            (designs if expansion is None else extra).append(design)
    for d in parsed:
        if d.solo_after and d.solo_after not in orders:
            raise ContentError(f"{file}: design {d.id}: field 'solo_after': no tile has solo_order {d.solo_after}")
    return [replace(d, index=i) for i, d in enumerate(designs + extra)], copies


def _load_journal(data_dir: Path) -> tuple[list[JournalNode], list[JournalLink], tuple[int, ...], list[tuple[str, Effect]]]:
    file = "journal.toml"
    doc = _read(data_dir, file)
    raw = _list(file, doc, "node")
    index = {}
    for n, t in enumerate(raw):
        nid = t.get("id")
        if not isinstance(nid, str):
            raise ContentError(f"{file}: node #{n + 1}: field 'id': missing (required)")
        if nid in index:
            raise ContentError(f"{file}: node #{n + 1} ({nid}): field 'id': duplicate id")
        index[nid] = n
    nodes = []
    for n, t in enumerate(raw):
        e = _Entry(file, f"node #{n + 1} ({t['id']})", t, {"id", "next", "effect", "journal_tile", "final"})
        parts = t["id"].split(".")
        if len(parts) != 3 or parts[0] != "journal" or not parts[1].isdigit() or not parts[2].isdigit():
            e.fail("id", "journal node ids are 'journal.<column>.<row>'")
        nxt = []
        for target in e.get("next", list, []):
            if target not in index:
                e.fail("next", f"unknown node {target!r}")
            nxt.append(index[target])
        final = e.get("final", bool, False)
        if final == bool(nxt):
            e.fail("final", "final nodes, and only they, have no 'next'")
        nodes.append(
            JournalNode(
                t["id"],
                n,
                int(parts[1]),
                int(parts[2]),
                tuple(nxt),
                e.effect("effect"),
                e.get("journal_tile", bool, False),
                final,
            )
        )
    links = []
    seen = set()
    for n, t in enumerate(_list(file, doc, "link"), 1):
        e = _Entry(file, f"link #{n} ({t.get('from')} -> {t.get('to')})", t, {"from", "to", "section", "side_a", "side_b"})
        src, dst = e.get("from", str, required=True), e.get("to", str, required=True)
        if src not in index or dst not in index:
            e.fail("from", "unknown node")
        if index[dst] not in nodes[index[src]].next:
            e.fail("to", f"{dst} is not in the 'next' list of {src}")
        if (src, dst) in seen:
            e.fail("from", "duplicate link")
        seen.add((src, dst))
        reqs: list[Measure | None] = []
        costs: list[Effect | None] = []
        for side in ("side_a", "side_b"):
            st = e.get(side, dict, required=True)
            se = _Entry(file, f"{e.label}.{side}", st, {"requires", "cost"})
            reqs.append(se.measure("requires") if "requires" in st else None)
            cost = se.effect("cost")
            if cost is not None and any(a.name != "spend" for a in effects.atoms(cost)):
                se.fail("cost", "a link cost spends guild influence only, e.g. 'spend(black)'")
            costs.append(cost)
        section = e.get("section", int, required=True)
        if section not in (1, 2, 3):
            e.fail("section", "main-board sections are 1, 2, 3")
        links.append(JournalLink(index[src], index[dst], section, (reqs[0], reqs[1]), (costs[0], costs[1])))
    for node in nodes:
        for target in node.next:
            if (node.id, nodes[target].id) not in seen:
                raise ContentError(f"{file}: node {node.id}: field 'next': no [[link]] for {node.id} -> {nodes[target].id}")
    green = doc.get("green_worker_columns", [])
    tiles = []
    for n, t in enumerate(_list(file, doc, "tile"), 1):
        e = _Entry(file, f"tile #{n} ({t.get('id', 'no id')})", t, {"id", "effect"})
        tiles.append((e.get("id", str, required=True), e.effect("effect", optional=False)))
    return nodes, links, tuple(green), tiles


def _load_board(data_dir: Path) -> tuple[dict[str, Row], dict[str, Effect | None], list[SeatSetup], dict[str, Any]]:
    file = "board.toml"
    doc = _read(data_dir, file)
    rows = {}
    for n, t in enumerate(_list(file, doc, "row"), 1):
        e = _Entry(file, f"row #{n} ({t.get('id', 'no id')})", t, {"id", "slides", "workers", "spots", "slot_costs"})
        rid = e.get("id", str, required=True)
        if rid not in ROWS:
            e.fail("id", f"unknown row; allowed: {', '.join(ROWS)}")
        spots = tuple(e.parse_effect("spots", s) for s in e.get("spots", list, []))
        workers = e.names("workers", WORKER_COLOURS)
        if workers and len(spots) != 4:
            e.fail("spots", "a row that takes workers needs 4 spots (slot 1..4)")
        rows[rid] = Row(rid, e.get("slides", str, required=True), workers, spots, tuple(e.get("slot_costs", list, [])))
    missing = set(ROWS) - set(rows)
    if missing:
        raise ContentError(f"{file}: missing [[row]] for {', '.join(sorted(missing))}")
    if len(rows["space"].slot_costs) != 4:
        raise ContentError(f"{file}: row space: field 'slot_costs': four costs (slot 1..4) required")
    ce = _Entry(file, "[tile_costs]", doc.get("tile_costs", {}), set(TILE_KINDS))
    costs = {k: ce.effect(k) for k in TILE_KINDS}
    for k, c in costs.items():
        if c is not None and any(a.name not in effects.cost_atoms() for a in effects.atoms(c)):
            ce.fail(k, "a price uses silver, provisions or spend(guild) only")
    setup = []
    for n, t in enumerate(_list(file, doc, "setup"), 1):
        e = _Entry(file, f"setup #{n}", t, {"seat", "silver", "provisions", "guilds"})
        setup.append(
            SeatSetup(
                e.get("seat", int, required=True),
                e.get("silver", int, required=True),
                e.get("provisions", int, required=True),
                e.names("guilds", GUILDS),
            )
        )
    if [s.seat for s in setup] != [1, 2, 3, 4]:
        raise ContentError(f"{file}: [[setup]] must list seats 1, 2, 3, 4 in order")
    pe = _Entry(file, "[player]", doc.get("player", {}), {"dice", "dice_in_supply", "influence", "workers", "green_workers", "face_up"})
    player: dict[str, Any] = {k: pe.get(k, int, required=True) for k in ("dice", "dice_in_supply", "influence", "green_workers", "face_up")}
    for k in ("dice", "influence", "face_up"):
        if player[k] < 1:
            pe.fail(k, f"must be at least 1, got {player[k]}")
    if not 0 <= player["dice_in_supply"] <= player["dice"]:
        pe.fail("dice_in_supply", f"must be 0..dice ({player['dice']}), got {player['dice_in_supply']}")
    player["workers"] = pe.names("workers", WORKER_COLOURS)
    se = _Entry(file, "[scoring]", doc.get("scoring", {}), {"primary", "unique_set", "guild_majority"})
    primary = se.get("primary", list, required=True)
    if len(primary) != 8 or not all(isinstance(v, int) for v in primary):
        se.fail("primary", "eight integers: VP for 0, 1, ..., 7 or more tags")
    player["scoring"] = {
        "primary": tuple(primary),
        "unique_set": se.get("unique_set", int, required=True),
        "guild_majority": se.get("guild_majority", int, required=True),
    }
    return rows, costs, setup, player


def _load_solo(data_dir: Path, options: frozenset[str] = frozenset()) -> Solo:
    file = "solo.toml"
    doc = _read(data_dir, file)
    tr = doc.get("resource_track", {})
    te = _Entry(file, "[resource_track]", tr, {"spaces", "bonus_between"})
    track = []
    for n, sp in enumerate(te.get("spaces", list, required=True)):
        se = _Entry(file, f"resource_track.spaces #{n}", sp, {"space", "colours", "inspiration"})
        if se.get("space", int, required=True) != n:
            se.fail("space", f"spaces must be listed 0..7 in order, expected {n}")
        track.append((se.names("colours", ("black", "blue", "yellow", "green")), se.get("inspiration", int, required=True)))
    schemes: list[Scheme] = []
    extra: list[Scheme] = []
    for n, t in enumerate(_list(file, doc, "scheme"), 1):
        fields = {"id", "colour", "silver", "first", "second", "special_tile", "comet", "expansion", "provenance", "draw_next"}
        e = _Entry(file, f"scheme #{n} ({t.get('id', 'no id')})", t, fields)
        expansion, provenance = _origin(e)
        colour = e.get("colour", str, required=True)
        colours = ("blue", "red") + (("none",) if expansion else ())
        if colour not in colours:
            e.fail("colour", f"allowed: {', '.join(colours)}" + ("" if expansion else " ('none': expansion cards only)"))
        draw_next = e.get("draw_next", bool, False)
        if draw_next and expansion is None:
            e.fail("draw_next", "only the Tides of Trade scheme card reveals another (draw_next)")
        scheme = Scheme(
            e.get("id", str, required=True),
            colour,
            e.get("silver", int, required=True),
            e.effect("first", allow_ai=True, optional=False),
            e.effect("second", allow_ai=True, optional=False),
            e.get("special_tile", int, 0) if expansion else e.get("special_tile", int, required=True),  # 0: no pink reference
            e.get("comet", bool, required=True),
            expansion,
            draw_next,
            provenance,
        )
        if brought(expansion, "scheme", options):
            (schemes if expansion is None else extra).append(scheme)
    schemes += extra
    boards = []
    for n, t in enumerate(_list(file, doc, "ai_board"), 1):
        e = _Entry(file, f"ai_board #{n}", t, {"id", "name", "focus", "rest", "track_bonus", "caravan"})
        cells = {}
        for c in e.get("caravan", list, []):
            ce = _Entry(file, f"{e.label}.caravan", c, {"row", "column", "effect"})
            cells[(ce.get("row", int, required=True), ce.get("column", int, required=True))] = ce.effect(
                "effect", allow_ai=True, optional=False
            )
        boards.append(
            AIBoard(
                e.get("id", str, required=True),
                e.get("name", str, required=True),
                e.effect("focus", allow_ai=True, optional=False),
                e.effect("rest", allow_ai=True, optional=False),
                e.effect("track_bonus", allow_ai=True, optional=False),
                cells,
            )
        )
    between = tuple(te.get("bonus_between", list, required=True))
    sc = _Entry(file, "[scoring]", doc.get("scoring", {}), {"card_vp"})
    card_vp = sc.get("card_vp", dict, required=True)
    if set(card_vp) != set(CARD_KINDS) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in card_vp.values()):
        sc.fail("card_vp", f"one VP count (an int >= 0) for each card kind: {', '.join(CARD_KINDS)}")
    return Solo(tuple(track), between, tuple(schemes), tuple(boards), dict(card_vp))
