"""``wayfarers cards``: the loaded game content as a plain-text table or as JSON.

The TOML files show what was written; this shows what the loader made of it (the tag list of
each card, the parsed effects in canonical form, which Inspiration cards are dealt, how many
copies of each tile are in the box), so a person can hold each line up against a physical card
and a script can diff the JSON. With ``--tides-of-trade`` the expansion's entries appear beside
the base game's, each with its ``expansion`` and ``provenance`` (where its values come from), so an
owner of the expansion can check the reconstructed ones against the printed components.
Schema and vocabulary: docs/CONTENT.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

from experiments.cli import UsageError
from wayfarers_env.content.effects import Effect, to_text
from wayfarers_env.content.loader import LINK_ROWS, Card, Content, DieSpace, TileDesign, load_content
from wayfarers_env.content.records import Scheme, Tides, Trader, WorkerHalf
from wayfarers_env.vocabulary import TIDES_INSPIRATION, TIDES_OF_TRADE

KINDS = ("land", "water", "space", "townsfolk", "inspiration", "upgrades", "journal", "schemes", "traders", "worker_tiles")
TIDES_KINDS = ("traders", "worker_tiles")  # components only the expansion has
TITLES = {
    "land": "LAND CARDS",
    "water": "WATER CARDS",
    "space": "SPACE CARDS",
    "townsfolk": "TOWNSFOLK CARDS",
    "inspiration": "INSPIRATION CARDS",
    "upgrades": "UPGRADE TILES",
    "journal": "JOURNAL TRACK",
    "schemes": "SCHEME CARDS (solo)",
    "traders": "TRADERS (Tides of Trade)",
    "worker_tiles": "WORKER UPGRADE TILE HALVES (Tides of Trade)",
}


def _text(effect: Effect | None) -> str | None:
    return None if effect is None else to_text(effect)


def _die_space(ds: DieSpace | None) -> dict[str, Any] | None:
    """``influence``: the guild colours spent before the action (Tides of Trade's influence costs)."""
    return None if ds is None else {"requires": list(ds.requires), "influence": list(ds.influence), "action": to_text(ds.action)}


def _origin(entry: Card | TileDesign | Scheme | Trader | WorkerHalf) -> dict[str, Any]:
    """Every record says whether it is the base game's (both None) or which expansion's, and where
    an expansion entry's values come from (rulebook, reference-table, reconstructed)."""
    expansion = TIDES_OF_TRADE if isinstance(entry, (Trader, WorkerHalf)) else entry.expansion
    return {"expansion": expansion, "provenance": entry.provenance}


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
            gives_influence=list(card.gives_influence),
            dismiss=_text(card.dismiss),
            overseer=card.is_overseer,
        )
    elif card.kind == "inspiration":
        rec.update(goal=card.goal.text if card.goal is not None else None)
    return rec | _origin(card)


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
        "solo_after": d.solo_after or None,
    } | _origin(d)


def scheme_record(s: Scheme) -> dict[str, Any]:
    return {
        "kind": "scheme",
        "id": s.id,
        "name": f"Scheme card {s.id.removeprefix('scheme.')}",
        "tags": [],
        "colour": s.colour,
        "silver": s.silver,
        "first": to_text(s.first),
        "second": to_text(s.second),
        "special_tile": s.special_tile or None,
        "comet": s.comet,
        "draw_next": s.draw_next,
    } | _origin(s)


def trader_record(t: Trader) -> dict[str, Any]:
    """``copies``: tiles of this trader with 3-4 players (one with fewer)."""
    return {
        "kind": "trader",
        "id": t.id,
        "name": t.name,
        "tags": [],
        "extension": t.extension,
        "copies": t.copies,
        "side_a": to_text(t.sides[0]),
        "side_b": to_text(t.sides[1]),
    } | _origin(t)


def half_record(h: WorkerHalf) -> dict[str, Any]:
    return {
        "kind": "worker_tile",
        "id": h.id,
        "name": f"{h.half.capitalize()} half {h.id.removeprefix('worker_tile.' + h.half)}",
        "tags": list(h.tags),
        "half": h.half,
        "effect": _text(h.effect),
        "vp": h.vp,
        "never_blocked": h.never_blocked,
    } | _origin(h)


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
    """The JSON objects for one ``--kind`` (cards in deck order: the base game's, then the expansion's;
    tiles, schemes, traders and halves in file order)."""
    if kind in content.decks:
        return [card_record(content.cards[i]) for i in content.decks[kind]]
    if kind == "upgrades":
        return [design_record(d, content) for d in content.designs]
    if kind == "journal":
        return journal_records(content)
    if kind == "schemes":
        return [scheme_record(s) for s in content.solo.schemes]
    if kind in TIDES_KINDS:
        tides = _tides(content, kind)
        return [trader_record(t) for t in tides.traders] if kind == "traders" else [half_record(h) for h in tides.halves]
    raise ValueError(f"unknown kind {kind!r}; allowed: {', '.join(KINDS)}")


def _tides(content: Content, kind: str) -> Tides:
    if content.tides is None:
        raise UsageError(f"--kind {kind} lists Tides of Trade components: add --tides-of-trade")
    return content.tides


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


def _die(ds: dict[str, Any]) -> str:
    """A die space as read off the card: what the die needs, an influence cost, then the action."""
    cost = f"pay {' + '.join(ds['influence'])} influence -> " if ds["influence"] else ""
    return f"die {_req(ds['requires'])} {cost}{ds['action']}"


def _name(r: dict[str, Any]) -> str:
    """An expansion entry's name carries its expansion and where its values come from."""
    return r["name"] + (f" [ToT {r['provenance']}]" if r["expansion"] else "")


def _opt(value: str | None) -> str:
    return "-" if value is None else value


def _face(columns: Sequence[Sequence[str]]) -> str:
    return "[" + " | ".join(" + ".join(col) if col else "-" for col in columns) + "]"


def land_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in recs:
        if r["die_space"]:
            use = _die(r["die_space"])
        else:
            use = f"on {' / '.join(r['trigger']['on'])}: {r['trigger']['effect']}"
        rows.append([r["id"], _name(r), ", ".join(r["tags"]), _opt(r["immediate"]), use])
    return table(["id", "name", "tags", "immediate", "die space / vista trigger"], rows, [8, 20, 18, 18, 46])


def water_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in recs:
        use = _die(r["die_space"]) if r["die_space"] else _opt(r["immediate"])
        links = f"in: {', '.join(r['links']['left']) or '-'}; out: {', '.join(r['links']['right']) or '-'}"
        rows.append([r["id"], _name(r), ", ".join(r["tags"]), use, links])
    lines = ["links: rows are guild, silver, provision, card_influence; in = bolts on the left edge, out = right edge", ""]
    return lines + table(["id", "name", "tags", "die space / immediate", "connection links"], rows, [9, 17, 16, 30, 38])


def space_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = [[r["id"], _name(r), ", ".join(r["tags"]), r["vp"], _opt(r["immediate"])] for r in recs]
    return table(["id", "name", "tags", "vp", "immediate"], rows, [13, 21, 19, 36, 22])


def townsfolk_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in recs:
        if r["overseer"]:
            what = f"resting (with a trader on the Market): {r['resting']}; dismiss: {r['dismiss']}"
        elif r["gives"]:
            what = "gives " + " + ".join(r["gives"])
        elif r["gives_influence"]:
            what = "gives influence " + " + ".join(r["gives_influence"]) + " (for the host's influence cost)"
        elif r["ability"]:
            what = "ability: " + r["ability"]
        else:
            what = "resting: " + r["resting"]
        rows.append([r["id"], _name(r), str(r["cost"]), " or ".join(r["hosts"]), what])
    return table(["id", "name", "cost", "tucked under", "effect"], rows, [12, 14, 4, 22, 58])


def inspiration_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = [[r["id"], _name(r), r["goal"], _opt(r["expansion"])] for r in recs]
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
    extra = [f"{r['id']}: Tides of Trade ({r['provenance']})" for r in recs if r["expansion"]]
    return table(head, rows, [25, 7, 4, 19, 18, 2, 6, 12, 11]) + ["", f"{total} tiles in the box"] + extra


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


def scheme_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = []
    for r in recs:
        notes = ", ".join(
            n
            for n, on in (
                (f"pink tile {r['special_tile']}", r["special_tile"]),
                ("comet", r["comet"]),
                ("reveals another scheme card", r["draw_next"]),
                (f"ToT {r['provenance']}", r["expansion"]),
            )
            if on
        )
        rows.append([r["id"], r["colour"], str(r["silver"]), r["first"], r["second"], notes or "-"])
    return table(["id", "colour", "silver", "first action", "second action", "notes"], rows, [9, 6, 6, 30, 30, 24])


def trader_lines(recs: list[dict[str, Any]]) -> list[str]:
    rows = [[r["id"], _name(r), str(r["extension"]), str(r["copies"]), r["side_a"], r["side_b"]] for r in recs]
    lines = ["extension: the main-board extension holding its space; copies: tiles with 3-4 players (1 with fewer)", ""]
    return lines + table(["id", "name", "extension", "copies", "side A", "side B"], rows, [9, 18, 9, 6, 30, 30])


def worker_tile_lines(recs: list[dict[str, Any]], tides: Tides | None = None) -> list[str]:
    rows = []
    for r in recs:
        notes = ", ".join(n for n, on in ((f"{r['vp']} VP", r["vp"]), ("never blocked", r["never_blocked"])) if on)
        rows.append([r["id"], r["half"], _opt(r["effect"]), ", ".join(r["tags"]) or "-", notes or "-", r["provenance"]])
    head = ["id", "half", "effect", "tags", "notes", "provenance"]
    out = ["a top and the bottom below it make one tile; its effects resolve each time a worker of its colour is placed", ""]
    out += table(head, rows, [20, 6, 40, 12, 16, None])
    if tides is not None:
        cells = sorted(tides.covered.items(), key=lambda kv: tides.worker_columns.index(kv[0][1]))
        covered = ", ".join(f"{worker} {half}: {to_text(e)}" for (half, worker), e in cells)
        stacks = f"{tides.stacks} stacks of tops and {tides.stacks} of bottoms"
        out.append("")
        out += textwrap.wrap(f"price: {to_text(tides.worker_tile_price)}; {stacks}, as many tiles in each as players", 118)
        out += textwrap.wrap(f"worker caravan columns: {', '.join(tides.worker_columns)}; covered icons: {covered}", 118)
    return out


LINES = {
    "land": land_lines,
    "water": water_lines,
    "space": space_lines,
    "townsfolk": townsfolk_lines,
    "inspiration": inspiration_lines,
    "upgrades": upgrade_lines,
    "journal": journal_lines,
    "schemes": scheme_lines,
    "traders": trader_lines,
}


def render(content: Content, kinds: Sequence[str]) -> str:
    """The text form of the chosen kinds, one titled section each."""
    out: list[str] = []
    for kind in kinds:
        recs = records(content, kind)
        count = len(recs) if kind != "journal" else len(content.nodes)
        noun = {"upgrades": "designs", "journal": "nodes", "traders": "traders", "worker_tiles": "halves"}.get(kind, "cards")
        title = f"{TITLES[kind]} ({count} {noun})"
        if out:
            out.append("")
        lines = worker_tile_lines(recs, content.tides) if kind == "worker_tiles" else LINES[kind](recs)
        out += [title, "=" * len(title), ""] + lines
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    """Entry point of ``wayfarers cards`` (arguments defined in cli.py)."""
    options = {TIDES_INSPIRATION} if args.tides_inspiration else set()
    if args.tides_of_trade:
        options.add(TIDES_OF_TRADE)
    content = load_content(options=frozenset(options))
    if args.kind:
        kinds = [args.kind]
    else:  # every kind this content has
        kinds = [k for k in KINDS if k not in TIDES_KINDS or content.tides is not None]
    if args.json:
        # one object per line: still one JSON list, but easy to grep and to diff line by line
        recs = [json.dumps(rec) for kind in kinds for rec in records(content, kind)]
        sys.stdout.write("[\n" + ",\n".join(recs) + "\n]\n")
    else:
        sys.stdout.write(render(content, kinds))
    return 0
