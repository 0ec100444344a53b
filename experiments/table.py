"""The table for people at a terminal: a compact picture that fits 100 columns by 50 rows, and
the longer views a player asks for (the market's cards in full, the journal track, the panoramas).

``render_text`` (wayfarers_env/envs/render.py) is the environment's complete picture, one card a
line, about 60 lines for two players. A person deciding wants the whole table at a glance instead:
the market by name with prices, workers and influence; the journal track as a grid with its
rewards and markers, and the splotches ahead of them; the tile supply; each player in four lines.
Every card, tile and space is described in full where the player chooses it (``options``), and in
the views below.
"""

from __future__ import annotations

import textwrap
from collections import Counter

from wayfarers_env import Game
from wayfarers_env.content.effects import atoms
from wayfarers_env.rules.state import RESERVE, SUPPLY, extra_on
from wayfarers_env.rules.tables import COMET
from wayfarers_env.vocabulary import BASE_GUILDS, COLUMN_ICONS, GUILDS, ROWS, SPACE_ROW, TAGS, TILE_KINDS, TOWNSFOLK_ROW, WORKER_COLOURS

from . import describe as d
from .reasons import measure_status

WIDTH = 100
CELL = 20  # a market slot
NODE = 8  # a journal column
# a journal space's rewards in one or two letters; the legend under the grid spells them out
CODES = {"journal_tile": "J", "green_worker": "g", "inspiration": "I", "new_die": "d", "tile": "S"}
SHORT_ICONS = {"camel": "camel", "ship": "ship", "pigeon": "pigeon", "telescope": "telesc", "up": "+1", "down": "-1"}
SHORT_ICONS.update({"silver_discount": "$off", "provision_discount": "p-off"})


def _wrap(line: str, indent: str = "     ") -> list[str]:
    """A line of the table folded to the terminal's width (nothing is cut off)."""
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _guilds(game: Game) -> tuple[str, ...]:
    return GUILDS if game.config.tides_of_trade else BASE_GUILDS


def _name(names: list[str] | None, seat: int) -> str:
    return names[seat] if names and seat < len(names) else f"player {seat}"


def header(game: Game, names: list[str] | None = None, seat: int | None = None, after: int | None = None) -> str:
    """The turn (counted from 1, as every line for people counts it), who plays, the board."""
    g = game.state
    sides = "/".join("ab"[s] for s in g.sides)
    if game.is_over:
        who = "game over"
    else:
        who = f"seat {g.current} ({_name(names, g.current)}{', you' if seat == g.current else ''}) to play"
    when = f"AFTER TURN {after}" if after is not None else f"TURN {g.turn + 1}"
    line = f"{when} · {who}{' next' if after is not None and not game.is_over else ''} · board sides {sides}"
    if g.end_trigger >= 0 and not g.over:
        line += f" · LAST ROUND: {g.final_turns or g.n} turn(s) left"
    if game.config.tides_of_trade:
        line += f" · Tides of Trade (extensions {'/'.join('ab'[s] for s in g.ext_sides)})"
    return line


def market(game: Game) -> list[str]:
    g = game.state
    t = g.tables
    out = ["MARKET".ljust(12) + "".join(f"slot {s + 1}".ljust(CELL) for s in range(t.slots)) + "deck"]
    for row, label in enumerate(ROWS):
        cells = []
        for slot in range(t.slots):
            i = row * t.slots + slot
            card = g.market[i]
            if card < 0:
                cells.append("(empty)".ljust(CELL))
                continue
            marks = ""
            if row == SPACE_ROW:
                marks += f" {t.slot_costs[slot]}s"
            elif row == TOWNSFOLK_ROW:
                marks += f" {t.cards[card].cost}s"
            for c, w in enumerate(WORKER_COLOURS):
                if g.market_workers[i] >> c & 1:
                    marks += " +" + w[0].upper() * (1 + extra_on(g.market_extra[i], c))
            if g.market_inf[i] >= 0:
                marks += f" @{g.market_inf[i]}"
            name = t.cards[card].name[: CELL - 1 - len(marks)]
            cells.append((name + marks).ljust(CELL))
        out.append(label.ljust(12) + "".join(cells) + str(len(g.decks[row])))
    return out


def guilds(game: Game) -> str:
    g = game.state
    names = _guilds(game)
    head = "/".join(names)
    per = " · ".join(f"P{i} " + "/".join(str(q.guild[k]) for k in range(len(names))) for i, q in enumerate(g.players))
    used = [d.GUILD_NAMES[c] for k, c in enumerate(GUILDS) if g.guild_used[k]]
    return f"GUILDS {head}: {per}" + (f" · used this turn: {', '.join(used)}" if used else "")


def _code(g, node) -> str:
    if node.final:
        return "F"
    if node.effect is None:
        return ""
    t = g.tables
    code = ""
    for a in atoms(node.effect):
        c = CODES.get(a.name, a.name[:1].upper())
        if a.name == "green_worker" and not g.green[t.green_columns.index(node.column)]:
            continue
        if a.name == "journal_tile" and g.node_tile[node.index] < 0:
            continue
        code += c if c not in code else ""
    return code or "-"


def journal(game: Game, seat: int | None = None) -> list[str]:
    g = game.state
    t = g.tables
    columns = max(n.column for n in t.nodes) + 1
    rows = max(n.row for n in t.nodes)
    out = ["JOURNAL".ljust(8) + "".join(f"col {c}".ljust(NODE) for c in range(columns))]
    grid = {(n.column, n.row): n for n in t.nodes}
    for r in range(1, rows + 1):
        cells = []
        for c in range(columns):
            node = grid.get((c, r))
            if node is None:
                cells.append(" " * NODE)
                continue
            here = "".join(str(i) for i, q in enumerate(g.players) if q.node == node.index)
            cells.append(f"{_code(g, node)}{' ' + here if here else ''}".ljust(NODE))
        out.append(f"row {r}".ljust(8) + "".join(cells))
    if seat is not None and 0 <= seat < len(g.players):
        p = g.players[seat]
        terms = p.terms()
        ahead = []
        for n in t.nodes[p.node].next:
            link = t.link[(p.node, n)]
            side = g.sides[link.section - 1]
            req = link.requires[side]
            what = (
                measure_status(g, req, terms).replace("needs at least ", "").replace("you have", "have")
                if req
                else d.link_words(g, p.node, n)
            )
            ahead.append(f"{d.node_name(t.nodes[n])}: {what}")
        if ahead:
            out += _wrap(f"  P{seat} next: " + " · ".join(ahead))
    return out


def tiles(game: Game) -> list[str]:
    g = game.state
    t = g.tables
    parts = []
    for kind in TILE_KINDS:
        designs = t.designs_of_kind[TILE_KINDS.index(kind)]
        if kind == "special":
            parts.append(f"special {sum(1 for k in designs if g.tile_supply[k])} of {len(designs)}")
        else:
            parts.append(f"{d.kind_word(kind)} " + "/".join(str(g.tile_supply[k]) for k in designs))
    return _wrap("TILES left (per design): " + " · ".join(parts))


def caravan_faces(p) -> str:
    faces = []
    for f, vec in enumerate(p.col):
        icons = [SHORT_ICONS[COLUMN_ICONS[k]] + ("" if v == 1 else f"x{v}") for k, v in enumerate(vec) if v]
        faces.append(f"{f + 1}:{','.join(icons) or '-'}")
    return " ".join(faces)


def _links(card) -> str:
    """What a Water card offers the next one, in a word per link row."""
    words = [
        a.arg(0) if a.name == "guild" else d.atom_words(a).removeprefix("1 ").replace(" on a market card", "")
        for a in card.links_right
        if a
    ]
    return ", ".join(words) or "nothing"


def player(
    game: Game, i: int, score: dict[str, int], names: list[str] | None = None, seat: int | None = None, full: bool = True
) -> list[str]:
    """A player in four or five lines (``full``), or two or three: resources, dice and journal, tags."""
    g = game.state
    t = g.tables
    p = g.players[i]
    gn = _guilds(game)
    mark = ">" if i == g.current and not g.over else " "
    you = " (you)" if seat == i else ""
    lines = [
        f"{mark}P{i} {_name(names, i)}{you}: {score['total']} VP · {p.silver} silver · {p.provisions} provisions"
        f" · influence {p.supply} + guilds {'/'.join(str(p.guild[k]) for k in range(len(gn)))} · workers "
        + " ".join(f"{w[0].upper()}{p.workers[c]}" for c, w in enumerate(WORKER_COLOURS))
    ]
    dice = range(len(p.dice_loc))
    supply = sorted(p.dice_face[k] for k in dice if p.dice_loc[k] == SUPPLY)
    placed = [f"{p.dice_face[k]} on {d.space_name(t, p.dice_loc[k])}" for k in dice if p.dice_loc[k] >= 0]
    reserve = sum(1 for k in dice if p.dice_loc[k] == RESERVE)
    terms = p.terms()
    tags = ", ".join(f"{d.tag_word(x)} {terms[k]}" for k, x in enumerate(TAGS) if terms[k])
    journal = f"journal {d.node_name(t.nodes[p.node])}"
    if not full:
        lines.append(f"   {journal} · dice in supply {','.join(map(str, supply)) or '-'} · tags {tags or 'none'}")
        lines += _tides_player(g, t, p, full)
        return [w for x in lines for w in _wrap(x)]
    lines.append(
        f"   dice in supply {','.join(map(str, supply)) or '-'} · reserve {reserve} · placed {', '.join(placed) or '-'} · {journal}"
    )
    last = t.cards[p.water[-1] if p.water else t.capital_harbour]
    kinds = Counter(t.cards[c].kind for c in p.land + p.water) + Counter(
        {"space": len(p.above), "townsfolk": len(p.tucked), "inspiration": len(p.inspired)}
    )
    cards = ", ".join(f"{kinds[k]} {d.kind_word(k)}" for k in ROWS if kinds[k])
    lines.append(f"   caravan {caravan_faces(p)} · {len(p.tiles)} tiles · cards: {cards or 'none'}")
    lines.append(f"   tags {tags or 'none'} · next Water card gets {_links(last)}")
    lines += _tides_player(g, t, p, full)
    return [w for x in lines for w in _wrap(x)]


def _tides_player(g, t, p, full: bool) -> list[str]:
    tides = t.content.tides
    if tides is None:
        return []
    bits = [f"Ink Well {p.ink}", f"hourglass {'full' if p.hourglass else 'empty'}"]
    if p.trader >= 0:
        bits.append(f"trader {tides.traders[p.trader].name}")
    if p.overseer >= 0:
        bits.append(f"Overseer {t.cards[p.overseer].name}")
    held = [(colour, top, bottom) for colour, (top, bottom) in zip(tides.worker_columns, p.worker_tiles) if top >= 0]
    if held and full:
        bits.append("worker tiles " + "; ".join(f"{c}: {d.half_words(t, top)} / {d.half_words(t, bottom)}" for c, top, bottom in held))
    elif held:
        bits.append("worker tiles under " + ", ".join(c for c, _top, _bottom in held))
    return ["   " + " · ".join(bits)]


def _tides_board(game: Game) -> list[str]:
    g = game.state
    t = g.tables
    tides = t.content.tides
    if tides is None:
        return []
    waiting = [tides.traders[k].name + (f" x{n}" if n > 1 else "") for k, n in enumerate(g.traders) if n]
    left = "/".join(str(len(g.worker_stacks[j])) for j in range(tides.stacks))
    return _wrap(f"TRADERS waiting: {'; '.join(waiting) or 'none'} · WORKER TILE stacks {left} left")


def solo_ai(game: Game, score: dict[str, int]) -> list[str]:
    g = game.state
    t = g.tables
    p, s = g.players[1], g.solo
    assert s is not None  # called for solo games only
    board = t.content.solo.ai_boards[s.board]
    kinds = Counter(t.cards[c].kind for c in s.cards)
    schemes = t.content.solo.schemes
    shown = ", ".join(f"{d.id_names()[schemes[x].id]} ({schemes[x].colour}, {schemes[x].silver} silver)" for x in s.shown) or "-"
    return [
        (
            f"AI ({board.name}): {score['total']} VP · focus {d.effect_words(board.focus)} · rests for {d.effect_words(board.rest)}"
            f" · track space {s.track} · comet track {p.counts[COMET]}"
        ),
        (
            f"   schemes face up: {shown} ({len(s.draw)} to draw) · guilds "
            + "/".join(str(p.guild[k]) for k in range(len(_guilds(game))))
            + " · workers "
            + " ".join(f"{w[0].upper()}{p.workers[c]}" for c, w in enumerate(WORKER_COLOURS))
            + f" · journal {d.node_name(t.nodes[p.node])}"
        ),
        ("   cards: " + (", ".join(f"{kinds[k]} {k}" for k in ROWS if kinds[k]) or "none") + f" · tiles: {len(s.tiles)}"),
    ]


def compact_table(game: Game, seat: int | None = None, names: list[str] | None = None, after: int | None = None) -> str:
    """The whole table in at most 50 lines of at most 100 characters (four players, the
    expansion included), from ``seat``'s side (None: a spectator, for whom the player to play
    is shown in full). ``after``: a replay's turn just shown (counted from 1), for the header."""
    g = game.state
    lines = [header(game, names, seat, after)]
    lines += market(game)
    lines.append(guilds(game))
    lines += journal(game, seat)
    lines += tiles(game)
    lines += _tides_board(game)
    for i, score in enumerate(game.scores()):
        if g.solo is not None and i == 1:
            lines += solo_ai(game, score)
        else:
            full = i == (seat if seat is not None else g.current) or g.n <= 2
            lines += player(game, i, score, names, seat, full)
    return "\n".join(w for line in lines for w in (_wrap(line) if len(line) > WIDTH else [line.rstrip()]))


# ----------------------------------------------------------------------------- the longer views


def market_view(game: Game) -> str:
    """Every face-up card in full, with its slot's worker spot."""
    g = game.state
    t = g.tables
    out = []
    for row, label in enumerate(ROWS):
        out.append(f"{label.upper()} row ({len(g.decks[row])} in the deck)")
        for slot in range(t.slots):
            i = row * t.slots + slot
            card = g.market[i]
            bits = [d.card_words(t.cards[card]) if card >= 0 else "(empty)"]
            if row == SPACE_ROW:
                bits.append(f"price {t.slot_costs[slot]} silver")
            workers = [w for c, w in enumerate(WORKER_COLOURS) if g.market_workers[i] >> c & 1]
            if workers:
                bits.append("workers on it: " + ", ".join(workers))
            if g.market_inf[i] >= 0:
                bits.append(f"player {g.market_inf[i]}'s influence")
            if t.spots[row]:
                bits.append(f"worker spot: {d.spot_words(t, row, slot)}")
            out.append(f"  {slot + 1}. " + " | ".join(bits))
    return "\n".join(out)


def journal_view(game: Game) -> str:
    """Every journal space: its reward, who stands there, and the splotches after it on this board."""
    g = game.state
    t = g.tables
    out = ["JOURNAL TRACK (board sides " + "/".join("ab"[s] for s in g.sides) + ")"]
    for node in t.nodes:
        here = [f"P{i}" for i, q in enumerate(g.players) if q.node == node.index]
        line = f"  {d.node_name(node)}: {d.node_words(g, node.index)}" + (f" [here: {', '.join(here)}]" if here else "")
        nxt = [f"{d.node_name(t.nodes[n])} ({d.link_words(g, node.index, n)})" for n in node.next]
        out.append(line + (f"; next: {'; '.join(nxt)}" if nxt else ""))
    return "\n".join(out)


def players_view(game: Game, names: list[str] | None = None) -> str:
    """Each player's panorama by name (a Space card above its card, a Townsfolk under it, an
    Inspiration card on a Space card) and caravan grid."""
    g = game.state
    t = g.tables
    out = []
    for i, p in enumerate(g.players):
        if g.solo is not None and i == 1:
            continue
        out.append(f"P{i} {_name(names, i)}")
        for label, cards, capital in (("land", p.land, t.capital_city), ("water", p.water, t.capital_harbour)):
            items = []
            for c in [capital, *cards]:
                s = t.cards[c].name
                if c in p.tucked:
                    s += f" [under it: {t.cards[p.tucked[c]].name}]"
                if c in p.above:
                    above = p.above[c]
                    s += (
                        f" [above it: {t.cards[above].name}"
                        + (f", inspired by {t.cards[p.inspired[above]].name}" if above in p.inspired else "")
                        + "]"
                    )
                items.append(s)
            out.append(f"  {label}: " + "; ".join(items))
        if t.capital_star in p.inspired:
            out.append(f"  Capital Star inspired by {t.cards[p.inspired[t.capital_star]].name}")
        out += _grid(t, p)
    return "\n".join(out)


def _grid(t, p) -> list[str]:
    grid = [["." for _ in range(t.cols)] for _ in range(t.rows)]
    for (r, c), asset in t.content.caravan.printed.items():
        grid[r - 1][c - 1] = f"({asset})"
    for cell, effect in t.board_bonus[p.board].items():
        y, x = divmod(cell, t.cols)
        grid[y][x] = "+" + d.effect_words(effect).replace("move 1 influence to another guild", "move infl.")
    for design, x, y, flipped in p.tiles:
        dz = t.designs[design]
        face = dz.faces[flipped]
        for dy in range(dz.height):
            for dx in range(dz.width):
                grid[y + dy][x + dx] = "[" + ",".join(d.icon_words(i) for i in face[dx]) + "]" if face[dx] else "[tile]"
    width = max(10, *(len(cell) for row in grid for cell in row)) + 1
    out = ["  caravan (columns = die faces; (printed), +bonus not yet covered, [tile icons]):"]
    out += [f"    {r + 1} " + "".join(cell.ljust(width) for cell in grid[r]) for r in range(t.rows)]
    return out
