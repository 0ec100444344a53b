"""The journal track (rulebook p.7): moving the marker over ink splotches, node effects, journal
tiles, green workers, the five final spaces and the Science guild's extra move.
"""

from __future__ import annotations

from typing import NamedTuple

from wayfarers_env.content.effects import Atom, Effect, flatten
from wayfarers_env.rules import icons
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import cost_need, pay, push_bag
from wayfarers_env.rules.frames import ACTOR, BOARD, FROM_JOURNAL, NOTHING, BagContext, FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.state import GameState
from wayfarers_env.vocabulary import GREEN_WORKER, SCIENCE


class JournalStep(NamedTuple):
    """Where the marker moves next."""

    second: int  # 1 for the Science guild's extra step


class ScienceGuild(NamedTuple):
    """After a step: spend 1 black influence to step once more (once per turn)."""


def _occupied_final(g: GameState, node: int) -> bool:
    return any(q.node == node for k, q in enumerate(g.players) if k != g.current)


_EXITS: dict[tuple, tuple] = {}


def _exits(g: GameState, node: int) -> tuple:
    """Per link out of ``node`` on this game's board sides: (target, final, requirement, influence
    to spend per guild or None). Built once per tables, sides and node: the board is fixed."""
    t = g.tables
    key = (id(t), g.sides, node)
    hit = _EXITS.get(key)
    if hit is None or hit[0] is not t:
        out = []
        for dst in t.nodes[node].next:
            link = t.link[(node, dst)]
            side = g.sides[link.section - 1]
            cost = link.cost[side]
            guilds = tuple(cost_need(cost)[2]) if cost is not None else None
            out.append((dst, t.nodes[dst].final, link.requires[side], guilds))
        hit = _EXITS[key] = (t, tuple(out))
    return hit[1]


def moves(g: GameState, black_reserved: int = 0) -> list[int]:
    """Journal nodes the current player can move to now (a Science-guild move reserves one black)."""
    return _open_exits(g, black_reserved, first=False)


def can_journal(g: GameState) -> bool:
    """``moves`` is not empty (stops at the first open link)."""
    return bool(_open_exits(g, 0, first=True))


def _open_exits(g: GameState, black_reserved: int, first: bool) -> list[int]:
    p = g.players[g.current]
    guild = p.guild
    terms = None
    out = []
    for dst, final, req, cost in _exits(g, p.node):
        if final and _occupied_final(g, dst):
            continue
        if cost is not None and not _affordable(cost, guild, black_reserved):
            continue
        if req is not None:
            if terms is None:
                terms = p.terms()
            if not req(terms):
                continue
        out.append(dst)
        if first:
            break
    return out


def _affordable(cost: tuple[int, ...], guild: list[int], black_reserved: int) -> bool:
    """The splotch's influence can be spent, keeping ``black_reserved`` black for the Science guild."""
    for k in range(len(guild)):
        if cost[k] + (black_reserved if k == SCIENCE else 0) > guild[k]:
            return False
    return True


def _legal_journal(g: GameState, frame: JournalStep) -> list[int]:
    return [CATALOG.JOURNAL[n] for n in moves(g)]


def _apply_journal(g: GameState, frame: JournalStep, action: int) -> None:
    g.stack.pop()
    step(g, CATALOG.at[action])


def step(g: GameState, dst: int) -> None:
    """Cross the splotch to ``dst`` (paying its influence), then resolve the node."""
    t = g.tables
    p = g.players[g.current]
    link = t.link[(p.node, dst)]
    cost = link.cost[g.sides[link.section - 1]]
    if cost is not None:
        pay(g, cost)
    p.node = dst
    node = t.nodes[dst]
    if node.final and g.end_trigger < 0:
        g.end_trigger = g.current
    g.stack.append(ScienceGuild())
    enter_node(g, dst)


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
    if g.guild_used[SCIENCE] or p.guild[SCIENCE] < 1 or g.tables.nodes[p.node].final:
        return False
    return bool(moves(g, black_reserved=1))


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
    p = g.players[g.current]
    p.guild[SCIENCE] -= 1
    p.supply += 1
    g.guild_used[SCIENCE] = True
    g.stack.append(JournalStep(1))


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
)
