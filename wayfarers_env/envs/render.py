"""A readable plain-text picture of a game, shared by the environment's ``render()``, replays
and terminal play.

``render_text(game, seat)`` shows what ``seat`` may know: all public state plus that seat's
own draw-3 cards. ``seat=None`` is a spectator (public state only); ``reveal=True`` also shows
whoever is drawing's private cards, for replays and debugging. Deck order is never shown.
"""

from __future__ import annotations

from collections import Counter

from wayfarers_env.content.effects import to_text
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import RULES, SOURCE_NAMES, EffectBag
from wayfarers_env.rules.market import DrawKeep, DrawOrder
from wayfarers_env.rules.scoring import SOURCES, scores
from wayfarers_env.rules.state import RESERVE, SUPPLY, extra_on
from wayfarers_env.rules.tables import COMET
from wayfarers_env.vocabulary import COLUMN_ICONS, GUILDS, ROWS, SPACE_ROW, WORKER_COLOURS

ICONS = tuple(name.replace("_discount", "-") for name in COLUMN_ICONS)  # short labels: "silver-" is a silver discount


def _card(t, index: int, long: bool = True) -> str:
    c = t.cards[index]
    if not long:
        return c.id
    bits = [f"{c.id} {c.name!r}"]
    if c.tags:
        bits.append("[" + ",".join(c.tags) + "]")
    if c.kind == "townsfolk":
        bits.append(f"cost {c.cost}, hosts {'/'.join(c.hosts)}")
        if c.gives:
            bits.append("gives " + "+".join(c.gives))
        if c.ability is not None:
            bits.append("ability: " + to_text(c.ability))
        if c.resting is not None:
            bits.append("resting: " + to_text(c.resting))
        if c.dismiss is not None:  # Tides of Trade's Overseers
            bits.append("dismissed: " + to_text(c.dismiss))
    if c.immediate is not None:
        bits.append("now: " + to_text(c.immediate))
    if c.die_space is not None:
        need = "+".join(c.die_space.requires) or "any die"
        bits.append(f"die space ({need}): {to_text(c.die_space.action)}")
    if c.trigger is not None:
        bits.append(f"on {'/'.join(c.trigger_on)}: {to_text(c.trigger)}")
    if c.vp is not None:
        bits.append(f"VP {c.vp.text}")
    if c.goal is not None:
        bits.append(f"goal {c.goal.text}")
    return " ".join(bits)


def _market(g, t) -> list[str]:
    out = ["MARKET (deck sizes: " + ", ".join(f"{ROWS[r]} {len(g.decks[r])}" for r in range(len(ROWS))) + ")"]
    for row in range(len(ROWS)):
        for slot in range(t.slots):
            i = row * t.slots + slot
            card = g.market[i]
            label = f"  {ROWS[row]:<11} {slot + 1}: "
            if card < 0:
                out.append(label + "(empty)")
                continue
            extras = []
            if row == SPACE_ROW:
                extras.append(f"costs {t.slot_costs[slot]} silver")
            extra = g.market_extra[i]
            workers = [
                w + (f" x{1 + extra_on(extra, c)}" if extra_on(extra, c) else "")
                for c, w in enumerate(WORKER_COLOURS)
                if g.market_workers[i] >> c & 1
            ]
            if workers:
                placed = [w for c, w in enumerate(WORKER_COLOURS) if g.market_placed[i] >> c & 1]
                extras.append("workers " + "+".join(workers) + (f" (placed this turn: {'+'.join(placed)})" if placed else ""))
            if g.market_inf[i] >= 0:
                extras.append(f"influence P{g.market_inf[i]}")
            out.append(label + _card(t, card) + ("  | " + "; ".join(extras) if extras else ""))
    return out


def _caravan(t, p) -> list[str]:
    cols, rows = t.cols, t.rows
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    for (r, c), asset in t.content.caravan.printed.items():
        grid[r - 1][c - 1] = "#" + asset
    for cell, effect in t.board_bonus[p.board].items():
        y, x = divmod(cell, cols)
        grid[y][x] = "+" + to_text(effect).replace(" ", "")
    for design, x, y, flipped in p.tiles:
        d = t.designs[design]
        name = d.id.removeprefix("tile.") + ("~" if flipped else "")
        for dy in range(d.height):
            for dx in range(d.width):
                grid[y + dy][x + dx] = name
    width = max(12, *(len(cell) for row in grid for cell in row))
    out = [f"  caravan (board {p.board + 1}; #printed, +uncovered bonus, ~flipped tile):"]
    out.append("      " + "".join(f"{c + 1:<{width + 1}}" for c in range(cols)))
    for r in range(rows):
        out.append(f"    {r + 1} " + "".join(f"{cell:<{width + 1}}" for cell in grid[r]))
    faces = []
    for f, vec in enumerate(p.col):
        icons = [f"{ICONS[k]}{'' if v == 1 else v}" for k, v in enumerate(vec) if v]
        faces.append(f"{f + 1}:{','.join(icons) or '-'}")
    out.append("    die faces: " + "  ".join(faces))
    return out


def _player(g, t, seat: int, score: dict[str, int]) -> list[str]:
    p = g.players[seat]
    node = t.nodes[p.node]
    head = f"PLAYER {seat} (player_{seat})" + ("  <- deciding" if seat == g.current and not g.over else "")
    out = [
        head,
        f"  silver {p.silver}, provisions {p.provisions}, influence in supply {p.supply}, "
        f"guilds "
        + ", ".join(f"{name} {p.guild[k]}" for k, name in enumerate(GUILDS))
        + ", workers "
        + ", ".join(f"{name} {p.workers[k]}" for k, name in enumerate(WORKER_COLOURS)),
        f"  journal: {node.id}" + (" (final space)" if node.final else ""),
    ]
    dice = range(len(p.dice_loc))
    supply = sorted(p.dice_face[d] for d in dice if p.dice_loc[d] == SUPPLY)
    placed = [f"{p.dice_face[d]} on {CATALOG.space_ids[p.dice_loc[d]]}" for d in dice if p.dice_loc[d] >= 0]
    reserve = sum(1 for d in dice if p.dice_loc[d] == RESERVE)
    out.append(f"  dice: supply {supply or '-'}; placed: {', '.join(placed) or '-'}; reserve {reserve}")
    for label, cards, capital in (("land", p.land, t.capital_city), ("water", p.water, t.capital_harbour)):
        items = []
        for c in [capital, *cards]:
            s = t.cards[c].id + ("[" + ",".join(t.cards[c].tags) + "]" if t.cards[c].tags else "")
            if c in p.above:
                s += f" ^{t.cards[p.above[c]].id}"
                if p.above[c] in p.inspired:
                    s += f" (inspired: {t.cards[p.inspired[p.above[c]]].id})"
            if c in p.tucked:
                s += f" (townsfolk: {t.cards[p.tucked[c]].id})"
            if c in p.acquired:
                s += " (new)"
            items.append(s)
        out.append(f"  {label}: " + " | ".join(items))
    star = t.capital_star
    if star in p.inspired:
        out.append(f"  capital star inspired: {t.cards[p.inspired[star]].id}")
    out += _caravan(t, p)
    out += _tides_player(g, t, p)
    parts = ", ".join(f"{k} {score[k]}" for k in SOURCES if k in score)
    out.append(f"  score now: {score['total']} VP ({parts})")
    return out


def _trader(g, t, k: int) -> str:
    tides = t.content.tides
    tr = tides.traders[k]
    side = g.ext_sides[tr.extension - 1]
    return f"{tr.id} {tr.name!r} (side {'ab'[side]}: {to_text(tr.sides[side])})"


def _half(t, h: int) -> str:
    half = t.content.tides.halves[h]
    bits = [to_text(half.effect)] if half.effect is not None else []
    if half.tags:
        bits.append("[" + ",".join(half.tags) + "]")
    if half.vp:
        bits.append(f"{half.vp} VP")
    if half.never_blocked:
        bits.append("never blocked")
    return f"{half.id} ({', '.join(bits)})"


def _tides_board(g, t) -> list[str]:
    """Tides of Trade's shared pieces: the traders waiting, the face-up worker tiles, the box."""
    tides = t.content.tides
    if tides is None:
        return []
    out = [f"TIDES OF TRADE (extension sides {'/'.join('ab'[s] for s in g.ext_sides)}; card influence {g.config.card_influence})"]
    waiting = [f"{_trader(g, t, k)} x{n}" for k, n in enumerate(g.traders) if n]
    out.append("  traders waiting: " + ("; ".join(waiting) or "none"))
    for j in range(tides.stacks):
        top, bottom = g.worker_stacks[j], g.worker_stacks[j + tides.stacks]
        pair = f"{_half(t, top[-1])} over {_half(t, bottom[-1])}" if top else "(empty)"
        out.append(f"  worker tiles {j + 1}: {pair}; {len(top)} left")
    if g.boxed:
        out.append("  dismissed: " + ", ".join(t.cards[c].id for c in g.boxed))
    if g.ink_used or g.ink_assets:
        out.append("  Ink Well used this turn" + (" (the die counts a pigeon, camel and telescope more)" if g.ink_assets else ""))
    out.append("")
    return out


def _tides_player(g, t, p) -> list[str]:
    """A player's expansion pieces: Ink Well, hourglass, the Market's trader and Overseer, the worker caravan."""
    tides = t.content.tides
    if tides is None:
        return []
    market = []
    if p.trader >= 0:
        market.append("trader " + _trader(g, t, p.trader))
    if p.overseer >= 0:
        market.append("Overseer " + _card(t, p.overseer))
    out = [
        f"  Ink Well {p.ink}, hourglass {'full' if p.hourglass else 'empty'}; Market: " + ("; ".join(market) or "empty"),
    ]
    caravan = [
        f"{colour}: " + (f"{_half(t, top)} over {_half(t, bottom)}" if top >= 0 else "-")
        for colour, (top, bottom) in zip(tides.worker_columns, p.worker_tiles)
    ]
    out.append("  worker caravan: " + "; ".join(caravan))
    return out


def _decision(g, t, seat: int | None, reveal: bool) -> str:
    if g.over:
        return "GAME OVER"
    top = g.stack[-1]
    text = f"player_{g.current} is deciding: {RULES[type(top)].name}"
    if isinstance(top, (DrawKeep, DrawOrder)):
        cards = top.cards if isinstance(top, DrawKeep) else (*top.rest, top.kept)
        if reveal or seat == g.current:
            text += " — drawn: " + "; ".join(_card(t, c) for c in cards)
        else:
            text += f" — {len(cards)} {ROWS[top.row]} card(s) drawn (hidden)"
    for frame in reversed(g.stack):
        if isinstance(frame, EffectBag):  # the effect being resolved
            rest = ", ".join(to_text(item) for item in frame.items)
            text += f"\n  resolving ({SOURCE_NAMES[frame.ctx.source]}): {rest or 'nothing left'}"
            break
    return text


def _solo_ai(g, t, score: dict[str, int]) -> list[str]:
    """The solo AI's public pieces: no dice, no money, no panorama; a track, scheme cards, face-down
    cards by type and tiles along its winding caravan path."""
    p, s = g.players[1], g.solo
    board = t.content.solo.ai_boards[s.board]
    schemes = t.content.solo.schemes
    kinds = Counter(t.cards[c].kind for c in s.cards)
    covered = "".join("#" if s.cells >> cell & 1 else "." for cell in range(21))
    return [
        f"SOLO AI (board {s.board + 1}, {board.name}): focus {to_text(board.focus)}, rests for {to_text(board.rest)}",
        f"  resource track space {s.track} (colours {', '.join(t.content.solo.track[s.track][0])}), comet track {p.counts[COMET]}",
        "  scheme cards face up: "
        + (", ".join(f"{schemes[x].id} ({schemes[x].colour}, {schemes[x].silver})" for x in s.shown) or "-")
        + f"; {len(s.draw)} in the draw pile",
        f"  guilds {', '.join(f'{name} {p.guild[k]}' for k, name in enumerate(GUILDS))}; "
        f"workers {', '.join(f'{name} {p.workers[k]}' for k, name in enumerate(WORKER_COLOURS))}; journal: {t.nodes[p.node].id}",
        "  cards: " + (", ".join(f"{kinds[k]} {k}" for k in sorted(kinds)) or "none"),
        "  tiles: "
        + (", ".join(t.designs[d].id for d in s.tiles) or "none")
        + f"; caravan rows {covered[:7]} {covered[7:14]} {covered[14:]}",
        f"  score now: {score['total']} VP (" + ", ".join(f"{k} {v}" for k, v in score.items() if k != "total") + ")",
    ]


def render_text(game, seat: int | None = None, *, reveal: bool = False) -> str:
    """The table as text from ``seat``'s point of view (None: public spectator)."""
    g = game.state
    t = g.tables
    if seat is not None and not 0 <= seat < g.n:
        raise ValueError(f"seat must be None or 0..{g.n - 1}, got {seat!r}")
    sides = "/".join("ab"[s] for s in g.sides)
    status = f"turn {g.turn + 1}"  # counted from 1, as play and replay count them
    if g.end_trigger >= 0 and not g.over:
        status += f", last round ({g.final_turns} turn(s) left; triggered by player {g.end_trigger})"
    who = f"a solo game against the AI ({t.content.solo.ai_boards[g.solo.board].name})" if g.solo is not None else f"{g.n} players"
    lines = [f"Wayfarers of the South Tigris: {who}, board sides {sides}, {status}", _decision(g, t, seat, reveal), ""]
    lines += _market(g, t)
    used = [name for k, name in enumerate(GUILDS) if g.guild_used[k]]
    lines += [
        "",
        "GUILDS (influence per player): "
        + "; ".join(f"{name}: " + " ".join(f"P{i}={q.guild[k]}" for i, q in enumerate(g.players)) for k, name in enumerate(GUILDS))
        + (f"  (used this turn: {', '.join(used)})" if used else ""),
        "JOURNAL: "
        + "; ".join(f"P{i} at {t.nodes[q.node].id}" for i, q in enumerate(g.players))
        + "; green workers left in columns "
        + (", ".join(str(c) for c, left in zip(t.green_columns, g.green) if left) or "none"),
        "",
    ]
    lines += _tides_board(g, t)
    for i, sc in enumerate(scores(g)):
        lines += _solo_ai(g, t, sc) if g.solo is not None and i == 1 else _player(g, t, i, sc)
        lines.append("")
    if seat is not None:
        bit = 1 << seat
        known = [
            f"{t.cards[c].id} ({len(deck) - 1 - i} above it)"
            for deck, kn in zip(g.decks, g.known)
            for i, c in enumerate(deck)
            if kn[i] & bit
        ]
        if known:
            lines.append(f"P{seat} knows in the decks: " + ", ".join(known))
    return "\n".join(lines).rstrip() + "\n"
