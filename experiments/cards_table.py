"""``wayfarers cards``: the loaded game content as a plain-text table or as JSON.

The TOML files show what was written; this shows what the loader made of it (the tag list of
each card, the parsed effects in canonical form, which Inspiration cards are dealt, how many
copies of each tile are in the box), so a person can hold each line up against a physical card
and a script can diff the JSON. Schema and vocabulary: docs/CONTENT.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from wayfarers_env.content.effects import Effect, to_text
from wayfarers_env.content.loader import LINK_ROWS, Card, Content, DieSpace, TileDesign, load_content
from wayfarers_env.vocabulary import TIDES_INSPIRATION

KINDS = ("land", "water", "space", "townsfolk", "inspiration", "upgrades", "journal")
TITLES = {
    "land": "LAND CARDS",
    "water": "WATER CARDS",
    "space": "SPACE CARDS",
    "townsfolk": "TOWNSFOLK CARDS",
    "inspiration": "INSPIRATION CARDS",
    "upgrades": "UPGRADE TILES",
    "journal": "JOURNAL TRACK",
}


def _text(effect: Effect | None) -> str | None:
    return None if effect is None else to_text(effect)


def _die_space(ds: DieSpace | None) -> dict[str, Any] | None:
    return None if ds is None else {"requires": list(ds.requires), "action": to_text(ds.action)}


def _links(card: Card) -> dict[str, list[str]]:
    """Left edge: the rows with a lightning bolt (they receive); right edge: what each row offers."""
    left = [row for row, bolt in zip(LINK_ROWS, card.links_left) if bolt]
    right = [to_text(e) for e in card.links_right if e is not None]
    return {"left": left, "right": right}


# --------------------------------------------------------------------------- JSON records


def card_record(card: Card) -> dict[str, Any]:
    """One card as a JSON-ready dict; only the fields that belong to its kind."""
    rec: dict[str, Any] = {"kind": card.kind, "id": card.id, "name": card.name, "tags": list(card.tags)}
    if card.kind in ("land", "water", "space"):
        rec["immediate"] = _text(card.immediate)
    if card.kind in ("land", "water"):
        rec["die_space"] = _die_space(card.die_space)
    if card.kind == "land":
        rec["trigger"] = {"on": list(card.trigger_on), "effect": _text(card.trigger)} if card.trigger is not None else None
    elif card.kind == "water":
        rec["links"] = _links(card)
    elif card.kind == "space":
        rec["vp"] = card.vp.text if card.vp is not None else None
    elif card.kind == "townsfolk":
        rec.update(
            cost=card.cost,
            hosts=list(card.hosts),
            gives=list(card.gives),
            ability=_text(card.ability),
            resting=_text(card.resting),
        )
    elif card.kind == "inspiration":
        rec.update(goal=card.goal.text if card.goal is not None else None, expansion=card.expansion)
    return rec


def _tile_name(d: TileDesign) -> str:
    if d.kind == "special":
        return "Special tile: " + " + ".join(d.tags)
    return f"{d.kind.capitalize()} tile {d.id.removeprefix('tile.' + d.kind)}"


def design_record(d: TileDesign, content: Content) -> dict[str, Any]:
    return {
        "kind": "upgrade",
        "id": d.id,
        "name": _tile_name(d),
        "tags": list(d.tags),
        "tile_kind": d.kind,
        "size": [d.width, d.height],
        "columns": [list(col) for col in d.faces[0]],
        "flipped": [list(col) for col in d.faces[1]] if len(d.faces) > 1 else None,
        "vp": d.vp,
        "copies": 1 if d.kind == "special" else content.copies_in_box,
        "pile": d.pile or None,
        "board": {"row": d.board[0], "column": d.board[1]} if d.board else None,
        "solo_order": d.solo_order or None,
    }


def journal_records(content: Content) -> list[dict[str, Any]]:
    """Nodes, then the links between them with both printed sides, then the journal tiles."""
    nodes = content.nodes
    out: list[dict[str, Any]] = []
    for n in nodes:
        out.append(
            {
                "kind": "journal_node",
                "id": n.id,
                "name": f"column {n.column}, row {n.row}",
                "tags": [],
                "column": n.column,
                "row": n.row,
                "effect": _text(n.effect),
                "next": [nodes[t].id for t in n.next],
                "final": n.final,
                "takes_tile": n.takes_tile,
            }
        )
    for link in content.links:
        src, dst = nodes[link.source].id, nodes[link.target].id
        sides = {}
        for i, side in enumerate(("side_a", "side_b")):
            req = link.requires[i]
            sides[side] = {"requires": req.text if req is not None else None, "cost": _text(link.cost[i])}
        out.append(
            {
                "kind": "journal_link",
                "id": f"{src}->{dst}",
                "name": f"{src} -> {dst}",
                "tags": [],
                "from": src,
                "to": dst,
                "section": link.section,
                **sides,
            }
        )
    for number, (tile_id, effect) in enumerate(content.journal_tiles, 1):
        out.append({"kind": "journal_tile", "id": tile_id, "name": f"Journal tile {number}", "tags": [], "effect": to_text(effect)})
    return out


def records(content: Content, kind: str) -> list[dict[str, Any]]:
    """The JSON objects for one ``--kind`` (cards in deck order, tiles in file order)."""
    if kind in content.decks:
        return [card_record(content.cards[i]) for i in content.decks[kind]]
    if kind == "upgrades":
        return [design_record(d, content) for d in content.designs]
    if kind == "journal":
        return journal_records(content)
    raise ValueError(f"unknown kind {kind!r}; allowed: {', '.join(KINDS)}")


# --------------------------------------------------------------------------- text tables


def _wrap(cell: str, width: int | None) -> list[str]:
    if width is None or len(cell) <= width:
        return [cell]
    return textwrap.wrap(cell, width, break_long_words=False, break_on_hyphens=False) or [""]


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], widths: Sequence[int | None]) -> list[str]:
    """Fixed-width columns; a cell longer than its column's width continues on the next line.

    The last width may be None (no limit). Column widths shrink to the longest cell, so narrow
    data makes a narrow table.
    """
    rows = [list(r) for r in rows]
    cols = []
    for i, (head, cap) in enumerate(zip(headers, widths)):
        longest = max([0] + [len(line) for r in rows for line in _wrap(r[i], cap)])
        cols.append(max(len(head), longest if cap is None else min(cap, longest)))
    out = ["  ".join(h.ljust(w) for h, w in zip(headers, cols)).rstrip()]
    out.append("  ".join("-" * w for w in cols))
    for r in rows:
        cells = [_wrap(c, cap) for c, cap in zip(r, widths)]
        for k in range(max(len(c) for c in cells)):
            out.append("  ".join((c[k] if k < len(c) else "").ljust(w) for c, w in zip(cells, cols)).rstrip())
    return out


def _req(requires: Sequence[str]) -> str:
    return "[" + (" + ".join(requires) if requires else "any die") + "]"


def _opt(value: str | None) -> str:
    return "-" if value is None else value


def _face(columns: Sequence[Sequence[str]]) -> str:
    return "[" + " | ".join(" + ".join(col) if col else "-" for col in columns) + "]"


def land_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in recs:
        if r["die_space"]:
            use = f"die {_req(r['die_space']['requires'])} {r['die_space']['action']}"
        else:
            use = f"on {' / '.join(r['trigger']['on'])}: {r['trigger']['effect']}"
        rows.append([r["id"], r["name"], ", ".join(r["tags"]), _opt(r["immediate"]), use])
    return table(["id", "name", "tags", "immediate", "die space / vista trigger"], rows, [8, 20, 18, 18, 46])


def water_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in recs:
        use = f"die {_req(r['die_space']['requires'])} {r['die_space']['action']}" if r["die_space"] else _opt(r["immediate"])
        links = f"in: {', '.join(r['links']['left']) or '-'}; out: {', '.join(r['links']['right']) or '-'}"
        rows.append([r["id"], r["name"], ", ".join(r["tags"]), use, links])
    lines = ["links: rows are guild, silver, provision, card_influence; in = bolts on the left edge, out = right edge", ""]
    return lines + table(["id", "name", "tags", "die space / immediate", "connection links"], rows, [9, 17, 16, 30, 38])


def space_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = [[r["id"], r["name"], ", ".join(r["tags"]), r["vp"], _opt(r["immediate"])] for r in recs]
    return table(["id", "name", "tags", "vp", "immediate"], rows, [13, 21, 19, 36, 22])


def townsfolk_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in recs:
        if r["gives"]:
            what = "gives " + " + ".join(r["gives"])
        elif r["ability"]:
            what = "ability: " + r["ability"]
        else:
            what = "resting: " + r["resting"]
        rows.append([r["id"], r["name"], str(r["cost"]), " or ".join(r["hosts"]), what])
    return table(["id", "name", "cost", "tucked under", "effect"], rows, [12, 12, 4, 22, None])


def inspiration_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = [[r["id"], r["name"], r["goal"], _opt(r["expansion"])] for r in recs]
    return table(["id", "name", "goal (doubles the Space card below)", "expansion"], rows, [14, 22, 60, None])


def upgrade_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in recs:
        where = f"pile {r['pile']}" if r["pile"] else f"{r['board']['row']} {r['board']['column']}" if r["board"] else "-"
        rows.append(
            [
                r["id"],
                r["tile_kind"],
                f"{r['size'][0]}x{r['size'][1]}",
                _face(r["columns"]),
                _face(r["flipped"]) if r["flipped"] else "-",
                str(r["vp"]),
                str(r["copies"]),
                ", ".join(r["tags"]) or "-",
                where,
            ]
        )
    total = sum(r["copies"] for r in recs)
    head = ["id", "kind", "size", "columns", "flipped", "vp", "copies", "tags", "board"]
    return table(head, rows, [24, 7, 4, 20, 20, 2, 6, 12, 8]) + ["", f"{total} tiles in the box"]


def journal_lines(recs: list[dict[str, Any]]) -> list[str]:
    nodes = [r for r in recs if r["kind"] == "journal_node"]
    links = [r for r in recs if r["kind"] == "journal_link"]
    tiles = [r for r in recs if r["kind"] == "journal_tile"]

    def side(s: dict[str, Any]) -> str:
        if s["requires"]:
            return s["requires"]
        return f"pay {s['cost']}" if s["cost"] else "free"

    node_rows = []
    for r in nodes:
        flags = ", ".join(f for f, on in (("final", r["final"]), ("takes a tile", r["takes_tile"])) if on) or "-"
        node_rows.append([r["id"], _opt(r["effect"]), ", ".join(r["next"]) or "-", flags])
    link_rows = [[f"{r['from']} -> {r['to']}", str(r["section"]), side(r["side_a"]), side(r["side_b"])] for r in links]
    tile_rows = [[r["id"], r["effect"]] for r in tiles]
    out = [f"nodes ({len(nodes)})", ""] + table(["id", "effect", "next", "notes"], node_rows, [13, 48, 44, None])
    out += ["", f"links ({len(links)}): the side used is that of the main-board section", ""]
    out += table(["from -> to", "section", "side A", "side B"], link_rows, [28, 7, 30, None])
    out += ["", f"journal tiles ({len(tiles)})", ""] + table(["id", "effect"], tile_rows, [16, None])
    return out


LINES = {
    "land": land_lines,
    "water": water_lines,
    "space": space_lines,
    "townsfolk": townsfolk_lines,
    "inspiration": inspiration_lines,
    "upgrades": upgrade_lines,
    "journal": journal_lines,
}


def render(content: Content, kinds: Sequence[str]) -> str:
    """The text form of the chosen kinds, one titled section each."""
    out: list[str] = []
    for kind in kinds:
        recs = records(content, kind)
        count = len(recs) if kind != "journal" else len(content.nodes)
        title = f"{TITLES[kind]} ({count} {'designs' if kind == 'upgrades' else 'nodes' if kind == 'journal' else 'cards'})"
        if out:
            out.append("")
        out += [title, "=" * len(title), ""] + LINES[kind](recs)
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    """Entry point of ``wayfarers cards`` (arguments defined in cli.py)."""
    options = frozenset({TIDES_INSPIRATION}) if args.tides_inspiration else frozenset()
    content = load_content(options=options)
    kinds = [args.kind] if args.kind else list(KINDS)
    if args.json:
        # one object per line: still one JSON list, but easy to grep and to diff line by line
        recs = [json.dumps(rec) for kind in kinds for rec in records(content, kind)]
        sys.stdout.write("[\n" + ",\n".join(recs) + "\n]\n")
    else:
        sys.stdout.write(render(content, kinds))
    return 0
