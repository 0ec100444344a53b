"""The solo game's AI opponent (base rulebook "Solo Mode"; RULES-FACTS §15; data in
content/data/solo.toml): its pieces, its turn, and the one decision it hands the human.

The AI is seat 1 and never an agent. Its turn is one ``AiTurn`` frame whose queue of small steps
("move the marker 2", "acquire a Water card", "journal"...) settles inside the engine, between the
human's decisions; a step may add steps in front of the queue (a tile's covered cells, a worker
spot's actions). The AI's icons and everything it gains are turned into steps by ``ai_steps``, with
the substitutions printed on every AI board (a new die is an upgrade tile, Silver a track step...).
It reads only the public table and draws from the tops of decks, as the rulebook says.

When the AI wants a card the human influenced (to acquire it, to place a worker on it, or to take a
worker from it), the human decides (``AiWants``): let it (and take 1 Silver or Provision) or deny it
(pay 1 and push it to its next choice). During that decision ``GameState.current`` is the human's
seat: ``current`` always names who decides.

Readings where the rulebook is silent are listed in docs/ARCHITECTURE.md ("Solo readings").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, Repeat, Seq, flatten
from wayfarers_env.content.measures import TERM_INDEX
from wayfarers_env.rules import solo_priority as prio
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.decks import draw
from wayfarers_env.rules.frames import FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.state import AI_SUPPLY, EXTRA_PLACED, EXTRA_WIDTH, GameState, SoloState, extra_on, extra_placed  # noqa: F401  (AI_SUPPLY, SoloState: re-exported)
from wayfarers_env.rules.tables import COMET
from wayfarers_env.vocabulary import CARD_KINDS, GREEN_WORKER, GUILD_INDEX, ROW_INDEX, TILE_KINDS, WORKER_COLOURS, WORKER_INDEX

HUMAN, AI = 0, 1
AI_COLS, AI_ROWS = 7, 3  # the AI board's caravan
COMET_TOP = 10  # the top of the AI's comet track
# the winding path its tiles follow: bottom row left to right, middle right to left, top left to right
PATH = (*range(14, 21), *range(13, 6, -1), *range(0, 7))
BLACK = GUILD_INDEX["black"]

ICONS = (
    icon("ai_focus", solo_only=True),
    icon("ai_worker", args=(WORKER_COLOURS, WORKER_COLOURS), solo_only=True),
    icon("ai_card", args=(CARD_KINDS,), arg_required=True, solo_only=True),
    icon("ai_tile", args=((*TILE_KINDS, "any", "worker"),), solo_only=True),  # "worker": a Tides of Trade worker upgrade tile
    icon("ai_card_influence", solo_only=True),
    icon("ai_comet", solo_only=True),
    icon("ai_retrieve_worker", solo_only=True),
)


# ------------------------------------------------------------------ icons into steps


def ai_steps(effect: Effect | None) -> list[tuple]:
    """What the AI does when it gains ``effect``: costs ignored (only scheme cards make it pay), a
    choice taken by its first option, and the AI board's substitutions applied."""
    out: list[tuple] = []
    _steps(effect, out)
    return out


def _steps(e: Effect | None, out: list[tuple]) -> None:
    if e is None:
        return
    if isinstance(e, Seq):
        for part in e.parts:
            _steps(part, out)
    elif isinstance(e, Repeat):
        for _ in range(e.count):
            _steps(e.body, out)
    elif isinstance(e, Choice):
        _steps(e.options[0], out)
    elif isinstance(e, Cost):
        _steps(e.gain, out)
    else:
        out += _atom_steps(e)


def _atom_steps(a: Atom) -> list[tuple]:
    name, arg = a.name, a.arg()
    if name in ("silver", "provisions"):
        return [("track", a.amount)]
    if name == "guild":
        return [("any_guild",)] if arg == "any" else [("guild", GUILD_INDEX[arg])]  # type: ignore[index]
    if name in ("card_influence", "adjust_die", "ai_card_influence"):
        return [("card_influence",)]
    if name in ("refresh_die", "retrieve_worker", "ai_retrieve_worker"):
        return [("retrieve",)]
    if name == "new_die":
        return [("tile", "any")]
    if name in ("land_card", "water_card", "space_card", "townsfolk", "inspiration"):
        return [("card", ROW_INDEX[name.removesuffix("_card")])]
    if name == "ai_card":
        return [("card", ROW_INDEX[arg])]  # type: ignore[index]
    if name == "draw_three":
        return [("top_card", ROW_INDEX[arg])]  # type: ignore[index]  # the AI takes the deck's top card, free
    if name in ("tile", "ai_tile"):
        return [("tile", arg or "any")]
    if name == "worker_tile":
        return [("tile", "worker")]
    if name in ("journal", "ai_comet", "ai_focus", "green_worker"):
        return [(name.removeprefix("ai_"),)]
    if name == "ai_worker":
        return [("worker", *(WORKER_INDEX[x] for x in a.args))]
    # a move of influence, a capture, a trader, a journal tile outside a node: nothing for the AI
    # (it has no dice, no Market, and takes only what its substitutions name)
    return []


# ------------------------------------------------------------------ the AI's turn


class AiTurn(NamedTuple):
    """The AI's turn still to resolve: a queue of steps, first first."""

    steps: tuple


class AiWants(NamedTuple):
    """The AI wants a card the human influenced: the human lets it or denies it. ``step`` is what
    the AI is doing; ``denied`` the market indexes already denied for it."""

    step: tuple
    denied: tuple


START = AiTurn((("start",),))


def _settle_turn(g: GameState, frame: AiTurn) -> bool:
    g.current = AI
    if not frame.steps:
        g.stack.pop()
        return True
    head, rest = frame.steps[0], frame.steps[1:]
    g.stack[-1] = AiTurn(rest)
    at = len(g.stack) - 1
    more = STEPS[head[0]](g, *head[1:])
    if more:
        g.stack[at] = AiTurn((*more, *rest))
    return True


def _never(g: GameState, frame: AiTurn) -> list[int]:
    return []  # settles every time


def _apply_never(g: GameState, frame: AiTurn, action: int) -> None:
    raise AssertionError("the AI's turn is never a decision")


def _start(g: GameState) -> list[tuple]:
    solo = g.solo
    assert solo is not None
    due, solo.bonus_due = solo.bonus_due, 0
    schemes = g.tables.content.solo.schemes
    colours = [schemes[s].colour for s in solo.shown]
    rest = colours.count("red") >= 3 or colours.count("blue") >= 3 or not solo.draw
    return [("bonus",)] * due + [("rest",) if rest else ("reveal",)]


def _reveal(g: GameState) -> list[tuple]:
    solo = g.solo
    assert solo is not None
    s = solo.draw.pop()
    solo.shown.append(s)
    scheme = g.tables.content.solo.schemes[s]
    steps: list[tuple] = [("track", scheme.silver), ("act", s)]
    if scheme.draw_next and solo.draw:
        steps.append(("reveal",))
    return steps


def _act(g: GameState, s: int) -> list[tuple]:
    """The scheme card's first action if the AI can resolve it (the influence to spend, or a worker
    of an allowed colour with a card to go on), else its second; never both."""
    scheme = g.tables.content.solo.schemes[s]
    ai = g.players[AI]
    first = scheme.first
    if isinstance(first, Cost):
        need = [0] * len(ai.guild)
        for atom in flatten(first.cost):
            assert isinstance(atom, Atom) and atom.name == "spend", atom
            need[GUILD_INDEX[atom.args[0]]] += atom.amount
        if all(have >= n for have, n in zip(ai.guild, need)):
            for k, n in enumerate(need):
                ai.guild[k] -= n
                ai.supply += n
            return ai_steps(first.gain)
    elif isinstance(first, Atom) and first.name == "ai_worker":
        for colour in (WORKER_INDEX[x] for x in first.args):
            if ai.workers[colour] > 0 and candidates(g, ("worker", colour)):
                return _interact(g, ("worker", colour), ())
    return ai_steps(scheme.second)


def _rest(g: GameState) -> list[tuple]:
    """The blue banner: the comet of the most recent card, the board's acquisition, journal, shuffle."""
    solo = g.solo
    assert solo is not None
    c = g.tables.content.solo
    steps: list[tuple] = [("comet",)] if solo.shown and c.schemes[solo.shown[-1]].comet else []
    return steps + ai_steps(c.ai_boards[solo.board].rest) + [("journal",), ("shuffle",)]


def _shuffle(g: GameState) -> list[tuple]:
    solo = g.solo
    assert solo is not None
    solo.draw += solo.shown
    solo.shown = []
    solo.draw.sort()  # the new order depends only on the game's generator, not on the reveal order
    g.rng.shuffle(solo.draw)
    return []


def _track(g: GameState, steps: int) -> list[tuple]:
    """Clockwise around the resource track; crossing from space 4 to 5 gains the board's bonus."""
    solo = g.solo
    assert solo is not None
    out: list[tuple] = []
    lo, hi = g.tables.content.solo.bonus_between
    for _ in range(steps):
        before = solo.track
        solo.track = (solo.track + 1) % len(g.tables.content.solo.track)
        if before == lo and solo.track == hi:
            out.append(("bonus",))
    return out


def pay_ai(g: GameState) -> None:
    """The human paid the AI's influence fee: its marker moves 1 instead of it taking the coin; a
    bonus crossed waits for the AI's next turn (not in the middle of the human's)."""
    solo = g.solo
    assert solo is not None
    if _track(g, 1):
        solo.bonus_due += 1


def _bonus(g: GameState) -> list[tuple]:
    solo = g.solo
    assert solo is not None
    return ai_steps(g.tables.content.solo.ai_boards[solo.board].track_bonus)


def _focus(g: GameState) -> list[tuple]:
    solo = g.solo
    assert solo is not None
    return ai_steps(g.tables.content.solo.ai_boards[solo.board].focus)


def _guild(g: GameState, guild: int) -> list[tuple]:
    ai = g.players[AI]
    ai.guild[guild] += 1
    ai.supply -= 1
    return []


def _any_guild(g: GameState) -> list[tuple]:
    """Influence in "any guild": the first colour of its priority that has a guild (green has none)."""
    colour = next(c for c in prio.colours(g) if c in prio.COLOUR_GUILD)
    return _guild(g, prio.COLOUR_GUILD[colour])


def _comet(g: GameState) -> list[tuple]:
    ai = g.players[AI]
    ai.counts[COMET] = min(ai.counts[COMET] + 1, COMET_TOP)
    return []


def _card_influence(g: GameState) -> list[tuple]:
    """Its influence goes on the first card with no influence at all, by colour priority (Black:
    Space, Blue: Water, Yellow: Land, Green: Townsfolk) and the sum value's order in that row."""
    slots = g.tables.slots
    for colour in prio.colours(g):
        row = prio.COLOUR_ROW[colour]
        for slot in prio.slot_order(g, slots):
            i = row * slots + slot
            if g.market[i] >= 0 and g.market_inf[i] < 0:
                g.market_inf[i] = AI
                g.players[AI].supply -= 1
                return []
    return []


def _top_card(g: GameState, row: int) -> list[tuple]:
    """A Land or Water worker spot's 'draw 3': the AI takes the deck's top card, free."""
    for card in draw(g, row, 1):
        _gain_card(g, card)
    return []


def _gain_card(g: GameState, card: int) -> None:
    solo = g.solo
    assert solo is not None
    solo.cards.append(card)
    ai = g.players[AI]
    ai.counts[TERM_INDEX[COUNT_TERM[g.tables.cards[card].kind]]] += 1


COUNT_TERM = {  # the count each card kind adds to, in PlayerState.counts
    "land": "land_cards",
    "water": "water_cards",
    "space": "space_cards",
    "townsfolk": "townsfolk_cards",
    "inspiration": "inspiration_cards",
}


def _green_worker(g: GameState) -> list[tuple]:
    """The first marker into a green column takes its worker (rulebook p.7), the AI's too."""
    column = g.tables.nodes[g.players[AI].node].column
    columns = g.tables.green_columns
    if column in columns:
        k = columns.index(column)
        if g.green[k]:
            g.green[k] = False
            g.players[AI].workers[GREEN_WORKER] += 1
    return []


# ------------------------------------------------------------------ journal


def _journal(g: GameState) -> list[tuple]:
    """One step along the journal, requirements and costs ignored, rewards gained; then maybe one
    more for Black influence: 1 if it stood behind the human's column, 2 level, 3 ahead (fixed before
    the first step; influence gained by that step may pay it)."""
    ai = g.players[AI]
    nodes = g.tables.nodes
    if nodes[ai.node].final:
        return []
    mine, theirs = nodes[ai.node].column, nodes[g.players[HUMAN].node].column
    cost = 1 if mine < theirs else 2 if mine == theirs else 3
    return _move(g) + [("extra_journal", cost)]


def _extra_journal(g: GameState, cost: int) -> list[tuple]:
    ai = g.players[AI]
    if g.tables.nodes[ai.node].final or ai.guild[BLACK] < cost:
        return []
    ai.guild[BLACK] -= cost
    ai.supply += cost
    return _move(g)


def _move(g: GameState) -> list[tuple]:
    ai = g.players[AI]
    t = g.tables
    dst = prio.journal_target(g, list(t.nodes[ai.node].next))
    ai.node = dst
    node = t.nodes[dst]
    if node.final and g.end_trigger < 0:
        g.end_trigger = AI
    out: list[tuple] = []
    for item in flatten(node.effect):
        if isinstance(item, Atom) and item.name == "journal_tile":
            tile = g.node_tile[dst]
            if tile >= 0:
                out += ai_steps(t.content.journal_tiles[tile][1])
        else:
            out += ai_steps(item)
    return out


# ------------------------------------------------------------------ tiles


def _tile(g: GameState, kind: str) -> list[tuple]:
    """An upgrade tile: 'any' by colour priority (Black: Space, Blue: Water, Yellow: Land, Green:
    Basic), a pile by the sum value's order (1 = centre-most), a Special one from the scheme card's
    reference clockwise, a worker tile (Tides of Trade) as a Basic one. It goes along the winding
    path and the covered cells pay out."""
    t = g.tables
    supply = g.tile_supply
    if kind == "worker":
        return _worker_tile(g)
    if kind == "special":
        design = next((d for d in prio.pink_order(g) if supply[d] > 0), -1)
    else:
        kinds = [prio.COLOUR_TILE[c] for c in prio.colours(g)] if kind == "any" else [kind]
        design = -1
        for k in kinds:
            piles = {t.designs[d].pile: d for d in t.designs_of_kind[TILE_KINDS.index(k)] if supply[d] > 0}
            if piles:
                order = prio.centre_out(prio.sum_value(g), max(t.designs[d].pile for d in t.designs_of_kind[TILE_KINDS.index(k)]))
                design = next(piles[p] for p in order if p in piles)
                break
    if design < 0:
        return []
    supply[design] -= 1
    solo = g.solo
    assert solo is not None
    solo.tiles.append(design)
    ai = g.players[AI]
    ai.counts[TERM_INDEX["tiles"]] += 1
    ai.counts[TERM_INDEX[f"{t.designs[design].kind}_tiles"]] += 1
    return _lay(g, t.designs[design].width, t.designs[design].height)


def _lay(g: GameState, width: int, height: int) -> list[tuple]:
    """A tile onto the AI's caravan along the winding path; the cells it covers pay out."""
    solo = g.solo
    assert solo is not None
    mask = ai_footprint(solo.cells, width, height)
    solo.cells |= mask
    cells = g.tables.content.solo.ai_boards[solo.board].caravan
    out: list[tuple] = []
    for cell in range(AI_COLS * AI_ROWS):
        if mask >> cell & 1:
            out += ai_steps(cells.get((cell // AI_COLS + 1, cell % AI_COLS + 1)))
    return out


def ai_footprint(cells: int, width: int, height: int) -> int:
    """Where the next tile goes: the first free cell along the path where it fits lying along the
    row (extending right), else standing (extending down); 0 if nowhere (it goes beside the board)."""
    long = max(width, height)
    for cell in PATH:
        if cells >> cell & 1:
            continue
        x, y = cell % AI_COLS, cell // AI_COLS
        for w, h in ((long, 1), (1, long)):
            if x + w > AI_COLS or y + h > AI_ROWS:
                continue
            mask = 0
            for dy in range(h):
                for dx in range(w):
                    mask |= 1 << ((y + dy) * AI_COLS + x + dx)
            if not mask & cells:
                return mask
    return 0


def _worker_tile(g: GameState) -> list[tuple]:
    """Tides of Trade: a worker tile (a stack column's aligned Top and Bottom halves) "with the same
    priority rules as ... Basic (green) Upgrade Tiles. For example, a sum of 4 would target the
    left-most stack" (ToT "Solo Play"), so position 1 is the right-most stack; it goes on the AI's
    caravan "as they would any other Upgrade Tile", one column of two halves: a 1x2 tile."""
    stacks = g.worker_stacks
    n = len(stacks) // 2
    for pos in prio.centre_out(prio.sum_value(g), n):
        j = n - pos
        if stacks[j] and stacks[n + j]:
            solo = g.solo
            assert solo is not None
            solo.worker_tiles.append((stacks[j].pop(), stacks[n + j].pop()))
            return _lay(g, 1, 2)
    return []


# ------------------------------------------------------------------ cards and workers (the human may deny)


def candidates(g: GameState, step: tuple) -> list[tuple[int, int]]:
    """(market index, worker colour or -1) the AI would interact with, best first."""
    slots = g.tables.slots
    market = g.market
    what = step[0]
    if what == "card":
        row = step[1]
        order = prio.inspiration_order(g) if row == ROW_INDEX["inspiration"] else prio.slot_order(g, slots)
        return [
            (row * slots + s, -1)
            for s in order
            if market[row * slots + s] >= 0 and not g.market_placed[row * slots + s] and not g.market_extra[row * slots + s] >> EXTRA_PLACED
        ]
    if what == "worker":
        colour = step[1]
        row = prio.WORKER_ROW[colour]
        at = [row * slots + s for s in prio.slot_order(g, slots)]
        return [(i, colour) for i in at if market[i] >= 0 and not g.market_workers[i] >> colour & 1]
    # retrieve: a worker not placed this turn, from a face-up card
    found = []
    for i in range(len(market)):
        if market[i] < 0:
            continue
        free = g.market_workers[i] & ~g.market_placed[i]
        for colour in range(len(WORKER_COLOURS)):
            if free >> colour & 1 or extra_on(g.market_extra[i], colour) > extra_placed(g.market_extra[i], colour):
                found.append((i, colour))
    return prio.retrieval_order(g, found)


def _interact(g: GameState, step: tuple, denied: tuple) -> list[tuple]:
    """Go for the first choice not denied; a card the human influenced asks the human first."""
    choices = [c for c in candidates(g, step) if c[0] not in denied]
    if not choices:
        return []
    i, colour = choices[0]
    if g.market_inf[i] == HUMAN:
        g.stack.append(AiWants(step, denied))
        g.current = HUMAN
        return []
    return _perform(g, step, i, colour)


def _perform(g: GameState, step: tuple, i: int, colour: int) -> list[tuple]:
    ai = g.players[AI]
    slots = g.tables.slots
    if step[0] == "card":
        card = g.market[i]
        owner = g.market_inf[i]
        if owner >= 0:
            g.players[owner].supply += 1
        bits, extra = g.market_workers[i], g.market_extra[i]
        for c in range(len(WORKER_COLOURS)):
            if bits >> c & 1:
                ai.workers[c] += 1 + extra_on(extra, c)
        g.market[i], g.market_inf[i], g.market_workers[i], g.market_placed[i], g.market_extra[i] = -1, -1, 0, 0, 0
        _gain_card(g, card)
        return []
    if step[0] == "worker":
        ai.workers[colour] -= 1
        g.market_workers[i] |= 1 << colour
        g.market_placed[i] |= 1 << colour
        return ai_steps(g.tables.spots[i // slots][i % slots])
    if extra_on(g.market_extra[i], colour):
        g.market_extra[i] -= 1 << (EXTRA_WIDTH * colour)
    else:
        g.market_workers[i] &= ~(1 << colour)
    ai.workers[colour] += 1
    return []


def _legal_wants(g: GameState, frame: AiWants) -> list[int]:
    human = g.players[HUMAN]
    out = [CATALOG.SOLO[0], CATALOG.SOLO[1]]
    # a row can never be wholly denied: denying needs another choice left
    if len([c for c in candidates(g, frame.step) if c[0] not in frame.denied]) > 1:
        if human.silver >= 1:
            out.append(CATALOG.SOLO[2])
        if human.provisions >= 1:
            out.append(CATALOG.SOLO[3])
    return out


def _apply_wants(g: GameState, frame: AiWants, action: int) -> None:
    human = g.players[HUMAN]
    k = CATALOG.at[action]
    g.stack.pop()
    i, colour = next(c for c in candidates(g, frame.step) if c[0] not in frame.denied)
    if k < 2:  # let it: 1 Silver or 1 Provision from the supply
        if k == 0:
            human.silver += 1
        else:
            human.provisions += 1
        more = _perform(g, frame.step, i, colour)
    else:  # deny it: pay 1, and it goes for its next choice
        if k == 2:
            human.silver -= 1
        else:
            human.provisions -= 1
        more = _interact(g, frame.step, (*frame.denied, i))
    if more:
        at = max(j for j, f in enumerate(g.stack) if type(f) is AiTurn)
        g.stack[at] = AiTurn((*more, *g.stack[at].steps))


STEPS: dict[str, Callable[..., list[tuple]]] = {  # step name -> what it does (it returns the steps to run next)
    "start": _start,
    "reveal": _reveal,
    "act": _act,
    "rest": _rest,
    "shuffle": _shuffle,
    "track": _track,
    "bonus": _bonus,
    "focus": _focus,
    "guild": _guild,
    "any_guild": _any_guild,
    "comet": _comet,
    "card_influence": _card_influence,
    "top_card": _top_card,
    "green_worker": _green_worker,
    "journal": _journal,
    "extra_journal": _extra_journal,
    "tile": _tile,
    "card": lambda g, row: _interact(g, ("card", row), ()),
    "worker": lambda g, *colours: next(
        (_interact(g, ("worker", c), ()) for c in colours if g.players[AI].workers[c] > 0 and candidates(g, ("worker", c))), []
    ),
    "retrieve": lambda g: _interact(g, ("retrieve",), ()),
}

FRAMES = (
    FrameRule(36, "ai_turn", AiTurn, _never, _apply_never, settle=_settle_turn),
    FrameRule(37, "ai_wants", AiWants, _legal_wants, _apply_wants),
)


# ------------------------------------------------------------------ what the AI did (for people)


def snapshot(g: GameState) -> tuple:
    """The AI's public pieces, to tell what its turn changed (``describe``)."""
    ai, s = g.players[AI], g.solo
    assert s is not None
    return (
        s.track,
        tuple(s.shown),
        len(s.cards),
        len(s.tiles),
        tuple(ai.guild),
        tuple(ai.workers),
        ai.node,
        ai.counts[COMET],
        len(s.worker_tiles),
    )


def describe(g: GameState, before: tuple) -> str:
    """One line for people: what the AI did since ``before`` (a ``snapshot``)."""
    t = g.tables
    ai, s = g.players[AI], g.solo
    assert s is not None
    track, shown, cards, tiles, guild, workers, node, comet, wtiles = before
    parts = []
    schemes = t.content.solo.schemes
    revealed = [schemes[x].id for x in s.shown if x not in shown]
    if revealed:
        parts.append("revealed " + ", ".join(revealed))
    elif shown and not s.shown:
        parts.append("rested")
    if s.track != track:
        parts.append(f"track {track}->{s.track}")
    if len(s.cards) > cards:
        parts.append("took " + ", ".join(t.cards[c].id for c in s.cards[cards:]))
    if len(s.tiles) > tiles:
        parts.append("tile " + ", ".join(t.designs[d].id for d in s.tiles[tiles:]))
    if len(s.worker_tiles) > wtiles:
        parts.append(f"{len(s.worker_tiles) - wtiles} worker tile(s)")
    moved = [f"{name} {ai.guild[k] - guild[k]:+d}" for k, name in enumerate(GUILD_INDEX) if ai.guild[k] != guild[k]]
    if moved:
        parts.append("influence " + ", ".join(moved))
    changed = [f"{name} {ai.workers[k] - workers[k]:+d}" for k, name in enumerate(WORKER_COLOURS) if ai.workers[k] != workers[k]]
    if changed:
        parts.append("workers " + ", ".join(changed))
    if ai.node != node:
        parts.append(f"journal to {t.nodes[ai.node].id}")
    if ai.counts[COMET] != comet:
        parts.append(f"comet track {ai.counts[COMET]}")
    return "AI: " + ("; ".join(parts) if parts else "nothing")
