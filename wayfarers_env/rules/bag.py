"""The effect bag: the parts of one action waiting to be resolved, in the order the player picks.

Rulebook p.15: "Once a die ... has been placed, a player may then perform the actions of that
space, in any order they choose. Actions are always optional. ... costs ... must always be
paid in full before taking the action." The same holds for worker spots, immediate effects,
Vista triggers, connection links, journal nodes and resting abilities. A bag holds items (icons,
choices, cost-then-gain); the player names the next part to resolve by its leaf (one catalog id
per leaf) or declines the rest.

This module knows no icon by name: whether an icon can be resolved, how, and under which leaf
comes from its declaration (rules/icons.py). What it owns is the grammar's structure (sequences,
choices, repeats, prices) and the price vector: a price is paid in Silver, Provisions and guild
influence (``price_need``), whichever icons make it up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, Repeat, Seq, flatten
from wayfarers_env.rules import icons
from wayfarers_env.rules.actions import CATALOG, LEAF_INDEX
from wayfarers_env.rules.frames import EVERYTHING, NO_DIE, NOTHING, BagContext, EffectBag, FrameRule
from wayfarers_env.rules.icons import cheapest_first, static
from wayfarers_env.rules.payments import AS_PRINTED, charge, pay_way, payable, ways
from wayfarers_env.rules.state import GameState
from wayfarers_env.vocabulary import GUILDS

# ------------------------------------------------------------------------ building bags


def push_bag(g: GameState, items: Iterable[Effect], ctx: BagContext = NO_DIE) -> None:
    items = tuple(items)
    if items:
        g.stack.append(EffectBag(items, ctx))


# --------------------------------------------------------------------------- prices

# the price vector: Silver, Provisions, then influence per guild (vocabulary.GUILDS order)
PRICE_SILVER, PRICE_PROVISIONS, PRICE_GUILD = 0, 1, 2
PRICE_CARD = PRICE_GUILD + len(GUILDS)  # Tides of Trade: card influence, from the Ink Well or a card
PRICE_SIZE = PRICE_CARD + 1


def _cost_atoms(node: Effect) -> list[Atom]:
    if isinstance(node, Atom):
        return [node]
    if isinstance(node, Repeat):
        return _cost_atoms(node.body) * node.count
    if isinstance(node, Seq):
        return [a for part in node.parts for a in _cost_atoms(part)]
    raise ValueError(f"unsupported cost {node!r}")


_NEED: dict[int, tuple[Effect, tuple[int, ...]]] = {}


def price_need(node: Effect) -> tuple[int, ...]:
    """The price vector a cost asks for; computed once per cost node."""
    hit = _NEED.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    need = [0] * PRICE_SIZE
    for a in _cost_atoms(node):
        slot = icons.ICONS[a.name].price_slot
        if slot is None:
            raise ValueError(f"{a.name!r} cannot be paid")
        need[slot(a)] += a.amount
    _NEED[id(node)] = (node, tuple(need))
    return tuple(need)


def cost_need(node: Effect) -> tuple[int, int, list[int]]:
    """(silver, provisions, influence per guild) a cost asks for."""
    need = price_need(node)
    return need[PRICE_SILVER], need[PRICE_PROVISIONS], list(need[PRICE_GUILD:PRICE_CARD])


def cost_leaf(node: Effect) -> int:
    # a price's icon always declares its cost_leaf; Icon types it optional for the icons that are no price
    return LEAF_INDEX[icons.ICONS[_cost_atoms(node)[0].name].cost_leaf]  # type: ignore[index]


def can_pay(g: GameState, node: Effect) -> bool:
    """The price can be paid, as printed or (Tides of Trade) another way (rules/payments.py)."""
    return payable(g, price_need(node))


def _influence_priced(need: tuple[int, ...]) -> bool:
    for k in range(PRICE_GUILD, PRICE_SIZE):  # the card influence too
        if need[k]:
            return True
    return False


def gain_after_cost_ok(g: GameState, cost: Effect, gain: Effect, ctx: BagContext) -> bool:
    """The cost can be paid in a way that leaves the gain something to resolve."""
    need = price_need(cost)
    if not payable(g, need):
        return False
    if static(gain)[0]:
        return True  # the gain holds a resource, which always resolves
    p = g.players[g.current]
    silver, provisions = need[0], need[1]
    # the common price: silver or provisions only, payable only as printed (no Ink Well swap to try)
    if not _influence_priced(need) and (not g.config.tides_of_trade or ways(g, need) == [AS_PRINTED]):
        p.silver -= silver
        p.provisions -= provisions
        try:
            return _any_leaf(g, gain, ctx)
        finally:
            p.silver += silver
            p.provisions += provisions
    saved = (p.silver, p.provisions, p.guild[:], p.supply, p.ink, g.guild_used[:], g.ink_used)
    try:
        for way in ways(g, need):
            pay_way(g, need, way, trial=True)
            ok = _any_leaf(g, gain, ctx)  # = items_resolvable(flatten(gain)), with the parts pre-sorted
            p.silver, p.provisions, p.guild, p.supply, p.ink = saved[0], saved[1], saved[2][:], saved[3], saved[4]
            g.guild_used[:], g.ink_used = saved[5], saved[6]
            if ok:
                return True
        return False
    finally:
        p.silver, p.provisions, p.guild, p.supply, p.ink = saved[0], saved[1], saved[2], saved[3], saved[4]
        g.guild_used[:], g.ink_used = saved[5], saved[6]


# ------------------------------------------------------------------------ resolvability

_LEAF_OF: dict[tuple, int] = {}


def atom_leaf(a: Atom) -> int:
    """The leaf (catalog effect choice) that resolves this atom; looked up once per name and args."""
    key = (a.name, a.args)
    leaf = _LEAF_OF.get(key)
    if leaf is None:
        name = icons.ICONS[a.name].leaf_name(a)
        if name not in LEAF_INDEX:
            raise ValueError(f"effect {a.name!r} cannot be chosen by a player")
        leaf = _LEAF_OF[key] = LEAF_INDEX[name]
    return leaf


_CAN = icons.CAN  # filled when the engine declares the icons


def can_atom(g: GameState, a: Atom, ctx: BagContext) -> bool:
    """Can the current player resolve this icon now (its icon's legality test)?"""
    can = _CAN[a.name]
    if type(can) is bool:
        return can  # a resource (True) or never a part (False)
    return can(g, a, ctx)  # the icon's legality test


def _leaves(g: GameState, node: Effect, ctx: BagContext, out: set[int]) -> None:
    if isinstance(node, Atom):
        if not node.mandatory and can_atom(g, node, ctx):
            out.add(atom_leaf(node))
    elif isinstance(node, Choice):
        for opt in node.options:
            _leaves(g, opt, ctx, out)
    elif isinstance(node, Cost):
        if isinstance(node.cost, Choice):
            for opt in node.cost.options:
                if gain_after_cost_ok(g, opt, node.gain, ctx):
                    out.add(cost_leaf(opt))
        elif gain_after_cost_ok(g, node.cost, node.gain, ctx):
            out.add(cost_leaf(node.cost))
    elif isinstance(node, (Seq, Repeat)):
        for part in flatten(node):
            _leaves(g, part, ctx, out)


def leaves(g: GameState, items: Sequence[Effect], ctx: BagContext) -> set[int]:
    """The leaves (positions in the catalog's ``do`` section) the player may resolve next."""
    out: set[int] = set()
    for item in items:
        if type(item) is Atom:  # most parts: the atom case of _leaves, inlined (can_atom too)
            if not item.mandatory:
                can = _CAN[item.name]
                if can if type(can) is bool else can(g, item, ctx):
                    out.add(atom_leaf(item))
        else:
            _leaves(g, item, ctx, out)
    return out


def _any_leaf(g: GameState, node: Effect, ctx: BagContext) -> bool:
    """Short-circuit form of _leaves: is any part of this node resolvable now? (Plain loops, not
    any() over generators: this runs for every die space and worker spot considered.)"""
    kind = type(node)  # once, not per test: mypy does not narrow ``node`` through ``kind``, hence the ignores below
    if kind is Atom:  # can_atom, inlined
        if node.mandatory:  # type: ignore[union-attr]
            return False
        can = _CAN[node.name]  # type: ignore[union-attr]
        if type(can) is bool:
            return can
        return can(g, node, ctx)  # type: ignore[arg-type]
    if kind is Cost:
        cost, gain = node.cost, node.gain  # type: ignore[union-attr]
        if type(cost) is Choice:
            for opt in cost.options:
                if gain_after_cost_ok(g, opt, gain, ctx):
                    return True
            return False
        return gain_after_cost_ok(g, cost, gain, ctx)
    always, parts = static(node)
    return _any_part(g, always, parts, ctx)


# Some part of an effect (a cost paid first) can resolve now: items_resolvable(flatten(node)) without
# building the list, for rules that ask it of a whole effect (a trader). _any_leaf itself, not a
# wrapper: the trader icon asks it at every placement on Tides of Trade's extension die space.
resolvable = _any_leaf


def _any_part(g: GameState, always: bool, parts: tuple[Effect, ...], ctx: BagContext) -> bool:
    """Some part resolves: at once if one always does, else the first that can (in the order given)."""
    if always:
        return True
    for part in parts:
        if _any_leaf(g, part, ctx):
            return True
    return False


parts_resolvable = _any_part  # for callers that keep their items' (always, parts cheapest first) with them (die spaces)


def items_resolvable(g: GameState, items: Sequence[Effect], ctx: BagContext) -> bool:
    """At least one part can be resolved (rulebook: no placing a worker or die to do nothing)."""
    always, ordered = cheapest_first(items)
    return _any_part(g, always, ordered, ctx)


# ------------------------------------------------------------------------ the bag frame


def _legal_bag(g: GameState, frame: EffectBag) -> list[int]:
    leaf = CATALOG.LEAF
    out = sorted([leaf[k] for k in leaves(g, frame.items, frame.ctx)])
    out.append(CATALOG.DONE)
    return out


def _settle_bag(g: GameState, frame: EffectBag) -> bool:
    if not frame.items:
        g.stack.pop()
        return True
    return False


def _apply_bag(g: GameState, frame: EffectBag, action: int) -> None:
    if action == CATALOG.DONE:
        g.stack.pop()
        return
    ctx = frame.ctx
    leaf = CATALOG.at[action]
    items = list(frame.items)
    todo = _select(g, items, leaf, ctx, 0, len(items))
    g.stack[-1] = EffectBag(tuple(items), ctx)
    if isinstance(todo, tuple):  # a cost chosen: its gain waits in the bag until it is paid
        charge(g, todo)
    elif todo is not None:  # an atom left in a bag has a leaf, so its icon declares resolve (Icon types it optional)
        icons.ICONS[todo.name].resolve(g, todo, ctx)  # type: ignore[misc]


def _select(g: GameState, items: list[Effect], leaf: int, ctx: BagContext, lo: int, hi: int) -> Atom | tuple[int, ...] | None:
    """Take the part named by ``leaf`` out of items[lo:hi]; return an atom still to resolve, or
    the price to charge for a cost whose gain took its place."""
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
                if cost_leaf(opt) == leaf and gain_after_cost_ok(g, opt, item.gain, ctx):
                    items[i : i + 1] = flatten(item.gain)
                    return price_need(opt)
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


def _bag_writes(action: int) -> int:
    """Declining changes only the stack; a leaf changes what its icon (or paying a price) changes."""
    if action == CATALOG.DONE:
        return NOTHING
    if action in CATALOG.LEAF:
        return icons.LEAF_WRITES[CATALOG.at[action]]
    return EVERYTHING  # never asked of a bag


ICONS = ()
FRAMES = (FrameRule(4, "effect", EffectBag, _legal_bag, _apply_bag, _settle_bag, writes=_bag_writes, settle_writes=NOTHING),)
