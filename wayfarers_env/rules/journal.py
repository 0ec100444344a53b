"""The journal track (rulebook p.7): moving the marker over ink splotches, node effects, journal
tiles, green workers, the five final spaces and the Science guild's extra move; and Tides of
Trade's hourglass, which a journal effect fills instead of moving and a later move spends to
ease one splotch.

The hourglass readings (docs/ARCHITECTURE.md, TIDES-QUESTIONS 26-28): "first and only movement"
is per journal effect: the effect's own step may be replaced by filling the hourglass, whether or
not a move exists, but the Science guild's extra step may not (so no extra step follows a fill).
A full hourglass eases any step, the extra one included: a ``count >= N`` requirement becomes
``count >= N - 1``, or a cost spends one influence less (the player picks which colour when a
splotch asks for two).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from wayfarers_env.content.effects import Atom, Effect, flatten
from wayfarers_env.content.measures import Measure, compile_measure
from wayfarers_env.rules import icons
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import PRICE_GUILD, PRICE_SIZE, price_need, push_bag
from wayfarers_env.rules.frames import ACTOR, BOARD, FROM_JOURNAL, NOTHING, BagContext, FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.payments import charge, payable
from wayfarers_env.rules.state import GameState
from wayfarers_env.vocabulary import GREEN_WORKER, SCIENCE


class JournalStep(NamedTuple):
    """Where the marker moves next."""

    second: int  # 1 for the Science guild's extra step


class ScienceGuild(NamedTuple):
    """After a step: spend 1 black influence to step once more (once per turn)."""


class HourglassSaving(NamedTuple):
    """The marker crossed a two-colour splotch with the hourglass: which colour to keep."""

    source: int  # the node it came from (the marker already stands on the destination)


def _occupied_final(g: GameState, node: int) -> bool:
    return any(q.node == node for k, q in enumerate(g.players) if k != g.current)


_EXITS: dict[tuple, tuple] = {}
_AT_LEAST = re.compile(r"^(.*\S)\s*>=\s*(\d+)$")


class Exit(NamedTuple):
    """One link out of a node on this game's board sides."""

    target: int
    final: bool
    requires: Measure | None
    cost: tuple[int, ...] | None  # the price vector of the influence to spend (bag.price_need)
    eased: Measure | None  # the requirement with the hourglass: ``X >= N`` read as ``X >= N - 1``


def _eased(req: Measure | None) -> Measure | None:
    """A requirement one lower; None when it is not of the form ``count >= N`` (none is, today)."""
    if req is None:
        return None
    m = _AT_LEAST.match(req.text.strip())
    return compile_measure(f"{m.group(1)} >= {int(m.group(2)) - 1}") if m else None


def _exits(g: GameState, node: int) -> tuple[Exit, ...]:
    """The links out of ``node``. Built once per tables, sides and node: the board is fixed."""
    t = g.tables
    key = (id(t), g.sides, node)
    hit = _EXITS.get(key)
    if hit is None or hit[0] is not t:
        out = []
        for dst in t.nodes[node].next:
            link = t.link[(node, dst)]
            side = g.sides[link.section - 1]
            cost = link.cost[side]
            need = price_need(cost) if cost is not None else None
            out.append(Exit(dst, t.nodes[dst].final, link.requires[side], need, _eased(link.requires[side])))
        hit = _EXITS[key] = (t, tuple(out))
    return hit[1]


def moves(g: GameState, black_reserved: int = 0) -> list[int]:
    """Journal nodes the current player can move to now (a Science-guild move reserves one black)."""
    return _open_exits(g, black_reserved, first=False)


def hourglass_moves(g: GameState, black_reserved: int = 0) -> list[int]:
    """Nodes the current player can move to by turning a full hourglass back: a requirement that
    holds only once eased, or any splotch with a cost (spending one influence less is worth it)."""
    p = g.players[g.current]
    if not p.hourglass:
        return []
    terms = p.terms()
    out = []
    for e in _exits(g, p.node):
        if e.final and _occupied_final(g, e.target):
            continue
        if e.cost is not None:
            if _savings(g, e.cost, black_reserved):
                out.append(e.target)
        elif e.requires is not None and not e.requires(terms) and e.eased is not None and e.eased(terms):
            out.append(e.target)
    return out


def can_fill_hourglass(g: GameState) -> bool:
    p = g.players[g.current]
    return g.config.tides_of_trade and not p.hourglass


def can_journal(g: GameState) -> bool:
    """A journal effect can do something: a move, an eased move or filling the hourglass (asked
    first: in an expansion game the empty hourglass answers at once, before the exits are walked)."""
    return can_fill_hourglass(g) or bool(_open_exits(g, 0, first=True)) or bool(hourglass_moves(g))


def _open_exits(g: GameState, black_reserved: int, first: bool) -> list[int]:
    p = g.players[g.current]
    terms = None
    out = []
    for e in _exits(g, p.node):
        if e.final and _occupied_final(g, e.target):
            continue
        if e.cost is not None and not payable(g, _with_black(e.cost, black_reserved)):
            continue
        if e.requires is not None:
            if terms is None:
                terms = p.terms()
            if not e.requires(terms):
                continue
        out.append(e.target)
        if first:
            break
    return out


_ONE_BLACK = tuple(int(i == PRICE_GUILD + SCIENCE) for i in range(PRICE_SIZE))


def _with_black(need: tuple[int, ...], black: int) -> tuple[int, ...]:
    """The splotch's price with ``black`` more black influence: the Science guild's step paid too
    (one price, so that the Red guild's once-a-turn stand-in serves one of them only)."""
    if not black:
        return need
    out = list(need)
    out[PRICE_GUILD + SCIENCE] += black
    return tuple(out)


def _less(need: tuple[int, ...], guild: int) -> tuple[int, ...]:
    out = list(need)
    out[PRICE_GUILD + guild] -= 1
    return tuple(out)


def _savings(g: GameState, need: tuple[int, ...], black_reserved: int = 0) -> list[int]:
    """The guilds whose one influence the hourglass may save so that the rest can be spent."""
    return [k for k in range(len(need) - PRICE_GUILD) if need[PRICE_GUILD + k] and payable(g, _with_black(_less(need, k), black_reserved))]


def _legal_journal(g: GameState, frame: JournalStep) -> list[int]:
    out = [CATALOG.JOURNAL[n] for n in moves(g)]
    if g.config.tides_of_trade:
        out += [CATALOG.JOURNAL_HOURGLASS[n] for n in hourglass_moves(g)]
        if not frame.second and can_fill_hourglass(g):
            out.append(CATALOG.HOURGLASS_FILL)
    return out


def _apply_journal(g: GameState, frame: JournalStep, action: int) -> None:
    g.stack.pop()
    if action == CATALOG.HOURGLASS_FILL:
        g.players[g.current].hourglass = True
        return
    dst = CATALOG.at[action]
    if action >= CATALOG.JOURNAL_HOURGLASS[0]:  # the hourglass section comes after journal_to
        _step_with_hourglass(g, dst)
    else:
        step(g, dst)


def step(g: GameState, dst: int) -> None:
    """Cross the splotch to ``dst`` (paying its influence), then resolve the node."""
    p = g.players[g.current]
    cost = next(e.cost for e in _exits(g, p.node) if e.target == dst)
    p.node = dst
    _arrive(g, dst)
    if cost is not None:
        charge(g, cost)  # last: a choice of how to pay comes before the node's effects


def _step_with_hourglass(g: GameState, dst: int) -> None:
    p = g.players[g.current]
    p.hourglass = False
    src = p.node
    cost = next(e.cost for e in _exits(g, src) if e.target == dst)
    p.node = dst
    if cost is None:  # an eased requirement
        _arrive(g, dst)
        return
    saved = _savings(g, cost)
    if len(saved) > 1:
        g.stack.append(HourglassSaving(src))
    else:
        _arrive(g, dst)
        charge(g, _less(cost, saved[0]))


def _arrive(g: GameState, dst: int) -> None:
    if g.tables.nodes[dst].final and g.end_trigger < 0:
        g.end_trigger = g.current
    g.stack.append(ScienceGuild())
    enter_node(g, dst)


def _legal_saving(g: GameState, frame: HourglassSaving) -> list[int]:
    p = g.players[g.current]
    cost = next(e.cost for e in _exits(g, frame.source) if e.target == p.node)
    assert cost is not None  # pushed only for a splotch with a cost
    return [CATALOG.HOURGLASS_SAVES[k] for k in _savings(g, cost)]


def _apply_saving(g: GameState, frame: HourglassSaving, action: int) -> None:
    g.stack.pop()
    p = g.players[g.current]
    cost = next(e.cost for e in _exits(g, frame.source) if e.target == p.node)
    assert cost is not None
    _arrive(g, p.node)
    charge(g, _less(cost, CATALOG.at[action]))


def enter_node(g: GameState, dst: int) -> None:
    """The node's effects go into one bag; its journal tile's effect joins them, and mandatory
    icons (a new die, a green worker) resolve at once."""
    t = g.tables
    items: list[Effect] = []
    for item in flatten(t.nodes[dst].effect):
        if isinstance(item, Atom) and item.name == "journal_tile":
            tile = g.node_tile[dst]
            if tile >= 0:
                flatten(t.content.journal_tiles[tile][1], items)
        elif isinstance(item, Atom) and item.mandatory:
            # a mandatory icon always declares resolve; Icon types it optional for the icons never resolved
            icons.ICONS[item.name].resolve(g, item, FROM_JOURNAL)  # type: ignore[misc]
        else:
            items.append(item)
    push_bag(g, items, FROM_JOURNAL)


def _take_green_worker(g: GameState, a: Atom, ctx: BagContext) -> None:
    """The first player to reach a green column takes its worker (rulebook p.7)."""
    t = g.tables
    p = g.players[g.current]
    k = t.green_columns.index(t.nodes[p.node].column)
    if g.green[k]:
        g.green[k] = False
        p.workers[GREEN_WORKER] += 1


def _black_possible(g: GameState) -> bool:
    p = g.players[g.current]
    if g.guild_used[SCIENCE] or g.tables.nodes[p.node].final or not payable(g, _ONE_BLACK):
        return False
    return bool(_open_exits(g, 1, first=True)) or bool(hourglass_moves(g, black_reserved=1))  # one open exit is enough


def _settle_black(g: GameState, frame: ScienceGuild) -> bool:
    if not _black_possible(g):
        g.stack.pop()
        return True
    return False


def _legal_black(g: GameState, frame: ScienceGuild) -> list[int]:
    return [CATALOG.BLACK, CATALOG.SKIP]


def _apply_black(g: GameState, frame: ScienceGuild, action: int) -> None:
    g.stack.pop()
    if action == CATALOG.SKIP:
        return
    g.guild_used[SCIENCE] = True
    g.stack.append(JournalStep(1))
    charge(g, _ONE_BLACK)  # the Red guild may pay it (ToT l.90's example)


def _black_writes(action: int) -> int:
    return NOTHING if action == CATALOG.SKIP else ACTOR | BOARD


ICONS = (
    icon("journal", can=lambda g, a, ctx: can_journal(g), resolve=lambda g, a, ctx: g.stack.append(JournalStep(0)), rank=5, writes=NOTHING),
    icon("journal_tile"),  # expanded into the node's bag by enter_node
    icon("green_worker", mandatory=True, resolve=_take_green_worker, writes=ACTOR | BOARD),
)

FRAMES = (
    # a step changes the marker, pays influence, may trigger the end and take a green worker
    FrameRule(9, "journal", JournalStep, _legal_journal, _apply_journal, writes=ACTOR | BOARD),
    FrameRule(10, "science_guild", ScienceGuild, _legal_black, _apply_black, _settle_black, writes=_black_writes, settle_writes=NOTHING),
    FrameRule(26, "hourglass_saving", HourglassSaving, _legal_saving, _apply_saving, writes=ACTOR | BOARD),
)
