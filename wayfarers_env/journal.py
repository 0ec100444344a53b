"""The journal track (rulebook p.7): moving the marker over ink splotches, node effects,
journal tiles, green workers, new dice, the five final spaces and the Science guild's extra move.
"""

from __future__ import annotations

from .actions import CATALOG
from .effects import Atom
from .frames import BLACK, JOURNAL, SRC_JOURNAL, flatten, push_bag, register
from .state import GameState, PlayerState

SCIENCE = 0


def _occupied_final(g: GameState, node: int) -> bool:
    return any(q.node == node for k, q in enumerate(g.players) if k != g.current)


def link_ok(g: GameState, p: PlayerState, src: int, dst: int, black_reserved: int = 0, terms: list[int] | None = None) -> bool:
    t = g.tables
    if t.nodes[dst].final and _occupied_final(g, dst):
        return False
    link = t.link[(src, dst)]
    side = g.sides[link.section - 1]
    req = link.requires[side]
    if req is not None and not req(terms if terms is not None else p.terms()):
        return False
    cost = link.cost[side]
    if cost is not None:
        _s, _p, guilds = bag.cost_need(cost)
        guilds[SCIENCE] += black_reserved
        if any(p.guild[k] < guilds[k] for k in range(3)):
            return False
    return True


def moves(g: GameState, black_reserved: int = 0) -> list[int]:
    p = g.players[g.current]
    nxt = g.tables.nodes[p.node].next
    if not nxt:
        return []
    terms = p.terms()
    return [dst for dst in nxt if link_ok(g, p, p.node, dst, black_reserved, terms)]


def can_journal(g: GameState) -> bool:
    """``moves`` is not empty (stops at the first open link)."""
    p = g.players[g.current]
    nxt = g.tables.nodes[p.node].next
    if not nxt:
        return False
    terms = p.terms()
    return any(link_ok(g, p, p.node, dst, 0, terms) for dst in nxt)


def _legal_journal(g: GameState, frame: tuple) -> list[int]:
    return [CATALOG.JOURNAL[n] for n in moves(g)]


def _apply_journal(g: GameState, frame: tuple, action: int) -> None:
    g.stack.pop()
    step(g, action - CATALOG.JOURNAL[0])


def step(g: GameState, dst: int) -> None:
    """Cross the splotch to ``dst`` (paying its influence), then resolve the node."""
    t = g.tables
    p = g.players[g.current]
    link = t.link[(p.node, dst)]
    cost = link.cost[g.sides[link.section - 1]]
    if cost is not None:
        bag.pay(g, cost)
    p.node = dst
    node = t.nodes[dst]
    if node.final and g.end_trigger < 0:
        g.end_trigger = g.current
        g.board_ver += 1
    g.stack.append((BLACK,))
    enter_node(g, dst)


def enter_node(g: GameState, dst: int) -> None:
    t = g.tables
    p = g.players[g.current]
    node = t.nodes[dst]
    items = []
    for item in flatten(node.effect):
        if isinstance(item, Atom) and item.name == "journal_tile":
            tile = g.node_tile[dst]
            if tile >= 0:
                flatten(t.content.journal_tiles[tile][1], items)
        elif isinstance(item, Atom) and item.name == "green_worker":
            k = t.green_columns.index(node.column)
            if g.green[k]:
                g.green[k] = False
                g.board_ver += 1
                p.workers[2] += 1
        elif isinstance(item, Atom) and item.name == "new_die":
            from .dice import new_die

            new_die(g)
        else:
            items.append(item)
    push_bag(g, items, (SRC_JOURNAL, 0, 0, 0))


def _black_possible(g: GameState) -> bool:
    p = g.players[g.current]
    if g.guild_used[SCIENCE] or p.guild[SCIENCE] < 1 or g.tables.nodes[p.node].final:
        return False
    return bool(moves(g, black_reserved=1))


def _settle_black(g: GameState, frame: tuple) -> bool:
    if not _black_possible(g):
        g.stack.pop()
        return True
    return False


def _legal_black(g: GameState, frame: tuple) -> list[int]:
    return [CATALOG.BLACK, CATALOG.SKIP]


def _apply_black(g: GameState, frame: tuple, action: int) -> None:
    g.stack.pop()
    if action == CATALOG.SKIP:
        return
    p = g.players[g.current]
    p.guild[SCIENCE] -= 1
    p.supply += 1
    g.guild_used[SCIENCE] = True
    g.board_ver += 1
    g.stack.append((JOURNAL, 1))


register(JOURNAL, _legal_journal, _apply_journal)
register(BLACK, _legal_black, _apply_black, _settle_black)


from . import bag  # noqa: E402  (bag imports this module first; bag's functions are used at call time only)
