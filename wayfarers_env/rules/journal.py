"""The journal track (rulebook p.7): moving the marker over ink splotches, node effects,
journal tiles, green workers, new dice, the five final spaces and the Science guild's extra move.
"""

from __future__ import annotations

from wayfarers_env.content.effects import Atom
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import BLACK, JOURNAL, SRC_JOURNAL, flatten, push_bag, register
from wayfarers_env.rules.state import GameState

SCIENCE = 0


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
            guilds = tuple(bag.cost_need(cost)[2]) if cost is not None else None
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
        if cost is not None and (cost[0] + black_reserved > guild[0] or cost[1] > guild[1] or cost[2] > guild[2]):
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
            from wayfarers_env.rules.dice import new_die

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


from wayfarers_env.rules import bag  # noqa: E402  (bag imports this module first; used at call time only)
