"""The public table of a game as small JSON-able sections, for the web replay viewer (``view``).

The page redraws a whole section whenever any of it changed, so the sections are cut along what
changes together: the market, the shared board, one per seat. Cards, tile designs and journal
nodes are numbers here and named once in ``content_table``, which keeps a step's change small.
Only public pieces are kept (no deck order), except what the decision itself shows: a replay is
watched after the game, so the cards a player drew to choose from are named with the choice.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from wayfarers_env import Game
from wayfarers_env.content.effects import to_text
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import RULES, SOURCE_NAMES, EffectBag
from wayfarers_env.rules.market import DrawKeep, DrawOrder
from wayfarers_env.rules.state import extra_on
from wayfarers_env.rules.tables import COMET
from wayfarers_env.vocabulary import BASE_GUILDS, COLUMN_ICONS, GUILDS, ROWS, WORKER_COLOURS

from . import solo_text
from .describe import card_words, effect_words

ICONS = tuple(name.replace("_discount", "-") for name in COLUMN_ICONS)  # "silver-": a silver discount, as render_text writes it


def card_text(card) -> str:
    """What a card does, for its tooltip: the words terminal play uses (``describe.card_words``), a part a line."""
    return card_words(card).replace("; ", "\n")


def content_table(game: Game) -> dict[str, Any]:
    """Names for the numbers of the sections, written once per page."""
    t = game.state.tables
    c = t.content
    journal_tiles = [effect_words(effect) for _tid, effect in c.journal_tiles]
    return {
        "cards": [[card.name, card.kind, card_text(card)] for card in t.cards],
        "designs": [[d.id.removeprefix("tile."), d.width, d.height, d.kind] for d in t.designs],
        "nodes": [
            [n.id, n.column, n.row, n.final, effect_words(n.effect) if n.effect else "", n.takes_tile, list(n.next)] for n in t.nodes
        ],
        "journal_tiles": journal_tiles,
        "spaces": list(CATALOG.space_ids),
        "guilds": list(GUILDS if game.config.tides_of_trade else BASE_GUILDS),  # the base game has no red guild
        "workers": list(WORKER_COLOURS),
        "rows": list(ROWS),
        "slots": t.slots,
        "slot_costs": list(t.slot_costs),
        "caravan": [t.rows, t.cols],
        "printed": [[r - 1, col - 1, asset] for (r, col), asset in c.caravan.printed.items()],
        "bonus": [[[cell, to_text(effect)] for cell, effect in sorted(bonus.items())] for bonus in t.board_bonus],
    }


def decision(game: Game) -> tuple[str, str]:
    """The pending decision's name and what it is about (the effect being resolved, the cards drawn)."""
    g = game.state
    if game.is_over:
        return "game over", ""
    top = g.stack[-1]
    name = RULES[type(top)].name
    detail = ""
    if name == solo_text.WANTS:
        detail = solo_text.wants(game)
    elif isinstance(top, (DrawKeep, DrawOrder)):
        cards = top.cards if isinstance(top, DrawKeep) else (*top.rest, top.kept)
        detail = f"drawn from the {ROWS[top.row]} deck: " + "; ".join(f"{g.tables.cards[c].name} ({g.tables.cards[c].id})" for c in cards)
    for frame in reversed(g.stack):
        if isinstance(frame, EffectBag):  # the effect being resolved
            rest = ", ".join(to_text(item) for item in frame.items)
            detail += ("\n" if detail else "") + f"resolving ({SOURCE_NAMES[frame.ctx.source]}): {rest or 'nothing left'}"
            break
    return name.replace("_", " "), detail


def _workers(g, i: int) -> list[int]:
    """The colours of the workers on market slot ``i``, a colour once per worker."""
    return [c for c in range(len(WORKER_COLOURS)) if g.market_workers[i] >> c & 1 for _ in range(1 + extra_on(g.market_extra[i], c))]


def _cards(t, p, cards: list[int], capital: int) -> list[list[int]]:
    """[card, space card above it, inspiration on that, townsfolk tucked, 1 if new] per card, -1 = none."""
    out = []
    for c in [capital, *cards]:
        above = p.above.get(c, -1)
        out.append([c, above, p.inspired.get(above, -1), p.tucked.get(c, -1), int(c in p.acquired)])
    return out


def _player(g, t, seat: int, score: dict[str, int]) -> dict[str, Any]:
    p = g.players[seat]
    faces = [",".join(f"{ICONS[k]}{'' if v == 1 else v}" for k, v in enumerate(vec) if v) or "-" for vec in p.col]
    section = {
        "silver": p.silver,
        "provisions": p.provisions,
        "supply": p.supply,
        "guild": list(p.guild),
        "workers": list(p.workers),
        "node": p.node,
        "dice": [[face, loc] for face, loc in zip(p.dice_face, p.dice_loc)],
        "land": _cards(t, p, p.land, t.capital_city),
        "water": _cards(t, p, p.water, t.capital_harbour),
        "star": p.inspired.get(t.capital_star, -1),
        "board": p.board,
        "tiles": [list(tile) for tile in p.tiles],
        "faces": faces,
        "score": score,
    }
    tides = t.content.tides
    if tides is not None:
        section["ink"] = p.ink
        section["hourglass"] = p.hourglass
        section["trader"] = _trader(g, t, p.trader) if p.trader >= 0 else ""
        section["overseer"] = p.overseer
        section["worker_tiles"] = [
            f"{colour}: " + (f"{_half(t, top)} over {_half(t, bottom)}" if top >= 0 else "-")
            for colour, (top, bottom) in zip(tides.worker_columns, p.worker_tiles)
        ]
    return section


def _ai(g, t, score: dict[str, int]) -> dict[str, Any]:
    """The solo AI's public pieces: no dice, money or panorama; a track, schemes, face-down cards by type, tiles."""
    p, s = g.players[1], g.solo
    solo = t.content.solo
    board = solo.ai_boards[s.board]
    kinds = Counter(t.cards[c].kind for c in s.cards)
    return {
        "ai": f"board {s.board + 1}, {board.name}: focus {to_text(board.focus)}, rests for {to_text(board.rest)}",
        "track": f"space {s.track} (colours {', '.join(solo.track[s.track][0])})",
        "comet": p.counts[COMET],
        "schemes": [f"{solo.schemes[x].id} ({solo.schemes[x].colour}, {solo.schemes[x].silver})" for x in s.shown],
        "draw": len(s.draw),
        "guild": list(p.guild),
        "workers": list(p.workers),
        "node": p.node,
        "cards": ", ".join(f"{kinds[k]} {k}" for k in sorted(kinds)) or "none",
        "tiles": [t.designs[d].id.removeprefix("tile.") for d in s.tiles],
        "cells": [s.cells >> cell & 1 for cell in range(21)],
        "score": score,
    }


def _trader(g, t, k: int) -> str:
    tr = t.content.tides.traders[k]
    side = g.ext_sides[tr.extension - 1]
    return f"{tr.name} ({tr.id}, side {'ab'[side]}: {to_text(tr.sides[side])})"


def _half(t, h: int) -> str:
    half = t.content.tides.halves[h]
    bits = [to_text(half.effect)] if half.effect is not None else []
    bits += [f"[{','.join(half.tags)}]"] if half.tags else []
    bits += [f"{half.vp} VP"] if half.vp else []
    bits += ["never blocked"] if half.never_blocked else []
    return f"{half.id.removeprefix('worker_tile.')} ({', '.join(bits)})"


def _board(g, t) -> dict[str, Any]:
    """What lies on the main board besides the market: guild abilities used, green workers, the tile
    supply, journal tiles, the end of the game; Tides of Trade's traders, worker tiles and box."""
    section: dict[str, Any] = {
        "guild_used": [int(u) for u in g.guild_used],
        "green": [col for col, left in zip(t.green_columns, g.green) if left],
        "tiles_left": list(g.tile_supply),
        "node_tile": list(g.node_tile),
        "end": [g.end_trigger, g.final_turns],
    }
    tides = t.content.tides
    if tides is not None:
        section["traders"] = [f"{_trader(g, t, k)} x{n}" for k, n in enumerate(g.traders) if n]
        section["stacks"] = [
            (f"{_half(t, top[-1])} over {_half(t, bottom[-1])}; {len(top)} left" if top else "(empty)")
            for top, bottom in zip(g.worker_stacks[: tides.stacks], g.worker_stacks[tides.stacks :])
        ]
        section["boxed"] = [t.cards[c].id for c in g.boxed]
        section["ink_used"] = int(g.ink_used)
    return section


def sections(game: Game) -> dict[str, Any]:
    """The public table: 'market', 'board', then 'p0', 'p1'... (a solo game's AI is its last seat)."""
    g = game.state
    t = g.tables
    market = [[g.market[i], g.market_inf[i], _workers(g, i)] for i in range(t.market_size)]
    out: dict[str, Any] = {"market": {"slots": market, "decks": [len(d) for d in g.decks]}, "board": _board(g, t)}
    for seat, score in enumerate(game.scores()):
        out[f"p{seat}"] = _ai(g, t, score) if g.solo is not None and seat == 1 else _player(g, t, seat, score)
    return out
