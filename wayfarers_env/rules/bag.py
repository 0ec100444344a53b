"""The effect bag: the parts of one action waiting to be resolved, in the order the player picks.

Rulebook p.15: "Once a die ... has been placed, a player may then perform the actions of that
space, in any order they choose. Actions are always optional. ... costs ... must always be
paid in full before taking the action." The same holds for worker spots, immediate effects,
Vista triggers, connection links, journal nodes and resting abilities. A bag is a tuple of
items (atoms, choices, cost-then-gain); the player names the next part to resolve by its
kind (one catalog id per kind) or declines the rest.
"""

from __future__ import annotations

from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, Repeat, Seq
from wayfarers_env.rules import caravan, dice, influence, journal, market
from wayfarers_env.rules.actions import CATALOG, LEAF_INDEX
from wayfarers_env.rules.frames import (
    ACQUIRE,
    ADJUST,
    BAG,
    CARD_INF,
    GUILD_PICK,
    JOURNAL,
    MOVE_INF,
    REFRESH,
    RETRIEVE,
    SRC_DIE,
    TILE_DESIGN,
    flatten,
    register,
)
from wayfarers_env.rules.state import GameState

GUILD = {"black": 0, "yellow": 1, "blue": 2}
TILE_KIND = {"land": 0, "water": 1, "space": 2, "basic": 3, "special": 4}
ROW = {"townsfolk": 0, "land": 1, "water": 2, "space": 3, "inspiration": 4}

_ATOM_LEAF = {
    "silver": "silver",
    "provisions": "provisions",
    "card_influence": "card_influence",
    "move_influence": "move_influence",
    "journal": "journal",
    "refresh_die": "refresh_die",
    "adjust_die": "adjust_die",
    "retrieve_worker": "retrieve_worker",
    "land_card": "land_card",
    "water_card": "water_card",
    "space_card": "space_card",
    "townsfolk": "townsfolk",
    "inspiration": "inspiration",
}
_COST_LEAF = {"silver": "pay_silver", "provisions": "pay_provisions", "spend": "pay_influence"}


_LEAF_OF: dict[tuple, int] = {}


def atom_leaf(a: Atom) -> int:
    """The leaf (catalog effect choice) that resolves this atom; looked up once per name and args."""
    key = (a.name, a.args)
    leaf = _LEAF_OF.get(key)
    if leaf is None:
        leaf = _LEAF_OF[key] = _atom_leaf(a)
    return leaf


def _atom_leaf(a: Atom) -> int:
    name = a.name
    if name in _ATOM_LEAF:
        return LEAF_INDEX[_ATOM_LEAF[name]]
    if name == "guild":
        return LEAF_INDEX["guild_" + a.args[0]]
    if name == "draw_three":
        return LEAF_INDEX["draw_" + a.args[0]]
    if name == "tile":
        return LEAF_INDEX["tile_" + a.args[0]]
    raise ValueError(f"effect {name!r} cannot be chosen by a player")


def _cost_atoms(node: Effect) -> list[Atom]:
    if isinstance(node, Atom):
        return [node]
    if isinstance(node, Repeat):
        return _cost_atoms(node.body) * node.count
    if isinstance(node, Seq):
        return [a for part in node.parts for a in _cost_atoms(part)]
    raise ValueError(f"unsupported cost {node!r}")


_NEED: dict[int, tuple] = {}


def _need(node: Effect) -> tuple[int, int, int, int, int]:
    """(silver, provisions, black, yellow, blue) a cost asks for; computed once per cost node."""
    hit = _NEED.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    need = [0, 0, 0, 0, 0]
    for a in _cost_atoms(node):
        if a.name == "silver":
            need[0] += a.amount
        elif a.name == "provisions":
            need[1] += a.amount
        else:
            need[2 + GUILD[a.args[0]]] += a.amount
    _NEED[id(node)] = (node, tuple(need))
    return tuple(need)


def cost_need(node: Effect) -> tuple[int, int, list[int]]:
    s, p, *guilds = _need(node)
    return s, p, guilds


def cost_leaf(node: Effect) -> int:
    return LEAF_INDEX[_COST_LEAF[_cost_atoms(node)[0].name]]


def can_pay(g: GameState, node: Effect) -> bool:
    p = g.players[g.current]
    silver, provisions, black, yellow, blue = _need(node)
    guild = p.guild
    return p.silver >= silver and p.provisions >= provisions and guild[0] >= black and guild[1] >= yellow and guild[2] >= blue


def pay(g: GameState, node: Effect) -> None:
    p = g.players[g.current]
    silver, provisions, *guilds = _need(node)
    p.silver -= silver
    p.provisions -= provisions
    for k in range(3):
        if guilds[k]:
            p.guild[k] -= guilds[k]
            p.supply += guilds[k]


def _gain_after_cost_ok(g: GameState, cost: Effect, gain: Effect, ctx: tuple) -> bool:
    if not can_pay(g, cost):
        return False
    if _static(gain)[0]:
        return True  # the gain holds a resource, which always resolves
    p = g.players[g.current]
    silver, provisions, black, yellow, blue = _need(cost)
    if not (black or yellow or blue):  # the common price: silver or provisions only
        p.silver -= silver
        p.provisions -= provisions
        try:
            return _any_leaf(g, gain, ctx)
        finally:
            p.silver += silver
            p.provisions += provisions
    saved = (p.silver, p.provisions, p.guild[:], p.supply)
    pay(g, cost)
    ok = _any_leaf(g, gain, ctx)  # = items_resolvable(flatten(gain)), with the parts pre-sorted
    p.silver, p.provisions, p.guild, p.supply = saved[0], saved[1], saved[2], saved[3]
    return ok


def _can_guild(g: GameState, a: Atom, ctx: tuple) -> bool:
    arg = a.args[0]
    if arg == "any":
        return influence.can_place_any_guild(g, g.current)
    return influence.can_place_guild(g, g.current, GUILD[arg])


def _can_card(row: int):
    def can(g: GameState, a: Atom, ctx: tuple) -> bool:
        return market.can_acquire(g, row, allow_draw=ctx[0] == SRC_DIE, spare_pigeon=bool(ctx[3]))

    return can


# can this atom be resolved now, per atom name (ctx: source, silver discount, provision discount,
# spare pigeon); a name missing here never resolves
_CAN = {
    "guild": _can_guild,
    "card_influence": lambda g, a, ctx: influence.can_place_card(g, g.current),
    "move_influence": lambda g, a, ctx: influence.can_move(g, g.current),
    "journal": lambda g, a, ctx: journal.can_journal(g),
    "refresh_die": lambda g, a, ctx: dice.can_refresh(g),
    "adjust_die": lambda g, a, ctx: dice.can_adjust(g),
    "retrieve_worker": lambda g, a, ctx: market.can_retrieve(g),
    "land_card": _can_card(ROW["land"]),
    "water_card": _can_card(ROW["water"]),
    "space_card": lambda g, a, ctx: market.can_acquire(g, 3, discount=ctx[1] + (1 if a.args else 0)),
    "townsfolk": lambda g, a, ctx: market.can_acquire(g, 0, free=bool(a.args), discount=ctx[1]),
    "inspiration": lambda g, a, ctx: market.can_acquire(g, 4),
    "draw_three": lambda g, a, ctx: bool(g.decks[ROW[a.args[0]]]),
    "tile": lambda g, a, ctx: caravan.can_gain_tile(g, TILE_KIND[a.args[0]], len(a.args) > 1, ctx[1]),
}


def can_atom(g: GameState, a: Atom, ctx: tuple) -> bool:
    name = a.name
    if name == "silver" or name == "provisions":
        return True
    can = _CAN.get(name)
    return can is not None and can(g, a, ctx)


def _leaves(g: GameState, node: Effect, ctx: tuple, out: set[int]) -> None:
    if isinstance(node, Atom):
        if not node.mandatory and can_atom(g, node, ctx):
            out.add(atom_leaf(node))
    elif isinstance(node, Choice):
        for opt in node.options:
            _leaves(g, opt, ctx, out)
    elif isinstance(node, Cost):
        if isinstance(node.cost, Choice):
            for opt in node.cost.options:
                if _gain_after_cost_ok(g, opt, node.gain, ctx):
                    out.add(cost_leaf(opt))
        elif _gain_after_cost_ok(g, node.cost, node.gain, ctx):
            out.add(cost_leaf(node.cost))
    elif isinstance(node, (Seq, Repeat)):
        for part in flatten(node):
            _leaves(g, part, ctx, out)


def leaves(g: GameState, items: tuple[Effect, ...] | list[Effect], ctx: tuple) -> set[int]:
    out: set[int] = set()
    for item in items:
        if type(item) is Atom:  # most parts: the atom case of _leaves, inlined
            if not item.mandatory and can_atom(g, item, ctx):
                out.add(atom_leaf(item))
        else:
            _leaves(g, item, ctx, out)
    return out


# order of the resolvability checks: cheap and usually true first (measured costs per check:
# influence and resources well under a microsecond, the journal's several and seldom true)
_RANK = {
    "silver": 0,
    "provisions": 0,
    "guild": 1,
    "move_influence": 1,
    "draw_three": 1,
    "adjust_die": 2,
    "refresh_die": 2,
    "land_card": 2,
    "water_card": 2,
    "card_influence": 3,
    "inspiration": 3,
    "journal": 5,
}
_COST_RANK = 6  # a cost is paid, then its gain checked
_STATIC: dict[int, tuple[Effect, bool, tuple[Effect, ...]]] = {}


def _static(node: Effect) -> tuple[bool, tuple[Effect, ...]]:
    """Per node, computed once: does it hold a gain that always resolves (a resource), and its
    parts ordered cheapest check first."""
    hit = _STATIC.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1], hit[2]
    if isinstance(node, Atom):
        always = node.name in ("silver", "provisions") and not node.mandatory
        parts: tuple[Effect, ...] = ()
    elif isinstance(node, Choice):
        parts = tuple(sorted(node.options, key=_rank))
        always = any(_static(o)[0] for o in parts)
    elif isinstance(node, Cost):
        always, parts = False, ()
    else:
        parts = tuple(sorted(flatten(node), key=_rank))
        always = any(_static(o)[0] for o in parts)
    _STATIC[id(node)] = (node, always, parts)
    return always, parts


def always_resolves(node: Effect) -> bool:
    """Static: the effect holds a resource gain, so some part of it can always be resolved."""
    return _static(node)[0]


def _rank(node: Effect) -> int:
    """A composite is tried from its cheapest part, so it ranks with that part."""
    if isinstance(node, Atom):
        return _RANK.get(node.name, 4)
    if isinstance(node, Cost):
        return _COST_RANK
    return _rank(_static(node)[1][0]) if _static(node)[1] else _COST_RANK


def _any_leaf(g: GameState, node: Effect, ctx: tuple) -> bool:
    """Short-circuit form of _leaves: is any part of this node resolvable now? (Plain loops, not
    any() over generators: this runs for every die space and worker spot considered.)"""
    kind = type(node)
    if kind is Atom:
        if node.mandatory:
            return False
        name = node.name
        if name == "silver" or name == "provisions":
            return True
        can = _CAN.get(name)
        return can is not None and can(g, node, ctx)
    if kind is Cost:
        if type(node.cost) is Choice:
            for opt in node.cost.options:
                if _gain_after_cost_ok(g, opt, node.gain, ctx):
                    return True
            return False
        return _gain_after_cost_ok(g, node.cost, node.gain, ctx)
    always, parts = _static(node)
    return _any_part(g, always, parts, ctx)


def _any_part(g: GameState, always: bool, parts: tuple[Effect, ...], ctx: tuple) -> bool:
    """Some part resolves: at once if one always does, else the first that can (in the order given)."""
    if always:
        return True
    for part in parts:
        if _any_leaf(g, part, ctx):
            return True
    return False


_ORDER: dict[int, tuple] = {}


def _cheapest_first(items) -> tuple[bool, tuple]:
    """(some part always resolves, ``items`` sorted cheapest check first); cached for the tuples
    that come back (die-space and worker-spot items are built once), keyed by identity with
    the tuple held."""
    if type(items) is not tuple:
        return any(_static(item)[0] for item in items), tuple(sorted(items, key=_rank))
    hit = _ORDER.get(id(items))
    if hit is None or hit[0] is not items:
        if len(_ORDER) > 4096:
            _ORDER.clear()
        hit = _ORDER[id(items)] = (items, any(_static(item)[0] for item in items), tuple(sorted(items, key=_rank)))
    return hit[1], hit[2]


def items_resolvable(g: GameState, items, ctx: tuple) -> bool:
    """At least one part can be resolved (rulebook: no placing a worker or die to do nothing)."""
    always, ordered = _cheapest_first(items)
    return _any_part(g, always, ordered, ctx)


def _legal_bag(g: GameState, frame: tuple) -> list[int]:
    _, items, ctx = frame
    leaf = CATALOG.LEAF
    out = sorted([leaf[k] for k in leaves(g, items, ctx)])
    out.append(CATALOG.DONE)
    return out


def _settle_bag(g: GameState, frame: tuple) -> bool:
    if not frame[1]:
        g.stack.pop()
        return True
    return False


def _apply_bag(g: GameState, frame: tuple, action: int) -> None:
    _, items, ctx = frame
    if action == CATALOG.DONE:
        g.stack.pop()
        return
    leaf = action - CATALOG.LEAF[0]
    items = list(items)
    todo = _select(g, items, leaf, ctx, 0, len(items))
    g.stack[-1] = (BAG, tuple(items), ctx)
    if todo is not None:
        resolve_atom(g, todo, ctx)


def _select(g: GameState, items: list[Effect], leaf: int, ctx: tuple, lo: int, hi: int) -> Atom | None:
    """Take the part named by ``leaf`` out of items[lo:hi]; return an atom still to resolve."""
    # a plain atom first, so that a free-standing part is used before a choice is committed
    for i in range(lo, hi):
        item = items[i]
        if isinstance(item, Atom) and not item.mandatory and atom_leaf(item) == leaf and can_atom(g, item, ctx):
            del items[i]
            return item
    for i in range(lo, hi):
        item = items[i]
        if isinstance(item, Cost):
            options = item.cost.options if isinstance(item.cost, Choice) else (item.cost,)
            for opt in options:
                if cost_leaf(opt) == leaf and _gain_after_cost_ok(g, opt, item.gain, ctx):
                    pay(g, opt)
                    items[i : i + 1] = flatten(item.gain)
                    return None
    for i in range(lo, hi):
        item = items[i]
        if isinstance(item, Choice):
            for opt in item.options:
                found: set[int] = set()
                _leaves(g, opt, ctx, found)
                if leaf in found:
                    new = flatten(opt)
                    items[i : i + 1] = new
                    return _select(g, items, leaf, ctx, i, i + len(new))
    raise AssertionError(f"leaf {leaf} not found in bag")  # legal_actions guards this


def resolve_atom(g: GameState, a: Atom, ctx: tuple) -> None:
    name = a.name
    p = g.players[g.current]
    if name == "silver":
        p.silver += a.amount
    elif name == "provisions":
        p.provisions += a.amount
    elif name == "guild":
        if a.args[0] == "any":
            g.stack.append((GUILD_PICK,))
        else:
            influence.place_in_guild(g, GUILD[a.args[0]])
    elif name == "card_influence":
        g.stack.append((CARD_INF,))
    elif name == "move_influence":
        g.stack.append((MOVE_INF,))
    elif name == "journal":
        g.stack.append((JOURNAL, 0))
    elif name == "refresh_die":
        g.stack.append((REFRESH,))
    elif name == "adjust_die":
        g.stack.append((ADJUST,))
    elif name == "retrieve_worker":
        g.stack.append((RETRIEVE,))
    elif name in ("land_card", "water_card"):
        g.stack.append((ACQUIRE, ROW[name[:-5]], False, 0, ctx[0] == SRC_DIE, bool(ctx[3])))
    elif name == "space_card":
        g.stack.append((ACQUIRE, 3, False, ctx[1] + (1 if a.args else 0), False, False))
    elif name == "townsfolk":
        g.stack.append((ACQUIRE, 0, bool(a.args), ctx[1], False, False))
    elif name == "inspiration":
        g.stack.append((ACQUIRE, 4, False, 0, False, False))
    elif name == "draw_three":
        market.start_draw(g, ROW[a.args[0]])
    elif name == "tile":
        g.stack.append((TILE_DESIGN, TILE_KIND[a.args[0]], len(a.args) > 1, ctx[1]))
    else:  # pragma: no cover - validated content
        raise AssertionError(f"cannot resolve {name}")


register(BAG, _legal_bag, _apply_bag, _settle_bag)
