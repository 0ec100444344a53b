"""The caravan and its upgrade tiles (rulebook pp.12-14).

A tile must fit inside the paper without overlapping another tile; Land and Water tiles may be
flipped but no tile is ever rotated. Covering a printed bonus pays it out. Each caravan column
gives the die of that face its assets, discounts and manipulation arrows.
"""

from __future__ import annotations

from typing import NamedTuple

from wayfarers_env.content.effects import Atom, Choice, Effect, Repeat, flatten
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import PRICE_GUILD, PRICE_SIZE, push_bag
from wayfarers_env.rules.frames import ACTOR, BOARD, NO_DIE, NOTHING, BagContext, FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.panorama import vista_items
from wayfarers_env.rules.payments import charge, payable
from wayfarers_env.rules.state import GameState, PlayerState, recompute_caravan
from wayfarers_env.rules.tables import T_TILE_KIND, T_TILES, Tables
from wayfarers_env.vocabulary import GUILD_INDEX, TILE_KIND_INDEX, TILE_KINDS


class TileDesign(NamedTuple):
    """Which upgrade tile design of ``kind`` to take from the supply."""

    kind: int  # vocabulary.TILE_KINDS index
    free: bool  # no price at all
    discount: int  # Silver off the price (the die's caravan column)


class TilePrice(NamedTuple):
    """Pay for design ``design`` with Silver or with guild influence."""

    design: int
    discount: int


class TilePosition(NamedTuple):
    """Where design ``design`` goes in the caravan (and whether it is flipped)."""

    design: int


def tile_prices(t: Tables) -> list[tuple[int, int, int]]:
    """Per tile kind: (silver price, guild of the influence alternative or -1, influence count)."""
    out = []
    for kind in TILE_KINDS:
        node = t.content.tile_costs[kind]
        silver, guild, count = 0, -1, 0
        options = node.options if isinstance(node, Choice) else ((node,) if node is not None else ())
        for opt in options:
            if isinstance(opt, Atom) and opt.name == "silver":
                silver = opt.amount
            elif isinstance(opt, Repeat) and isinstance(opt.body, Atom) and opt.body.name == "spend":
                guild, count = GUILD_INDEX[opt.body.args[0]], opt.count
            elif isinstance(opt, Atom) and opt.name == "spend":
                guild, count = GUILD_INDEX[opt.args[0]], 1
        out.append((silver, guild, count))
    return out


_PRICES: dict[int, tuple] = {}


def _price_table(t: Tables) -> tuple:
    """(tables, tile_prices, per kind: has no price at all), once per tables."""
    hit = _PRICES.get(id(t))
    if hit is None or hit[0] is not t:
        priceless = tuple(t.content.tile_costs[k] is None for k in TILE_KINDS)
        hit = _PRICES[id(t)] = (t, tile_prices(t), priceless)
    return hit


def prices(t: Tables) -> list[tuple[int, int, int]]:
    return _price_table(t)[1]


def footprint(t: Tables, design: int, x: int, y: int) -> int:
    """Cell bitmask covered by a design anchored (top-left) at column x, row y; 0 if off the grid."""
    d = t.designs[design]
    if x + d.width > t.cols or y + d.height > t.rows:
        return 0
    mask = 0
    for dy in range(d.height):
        for dx in range(d.width):
            mask |= 1 << ((y + dy) * t.cols + x + dx)
    return mask


BOTH_FACES, ONE_FACE = (0, 1), (0,)  # named: Cython's type inference refuses a conditional between tuples of two lengths


def positions(t: Tables, p: PlayerState, design: int) -> list[tuple[int, int, int]]:
    taken = p.cells | t.blocked
    flips = BOTH_FACES if len(t.designs[design].faces) == 2 else ONE_FACE
    return [(x, y, fl) for x, y, mask in t.design_masks[design] if not mask & taken for fl in flips]


_FITS: dict[tuple[int, int], frozenset[int]] = {}


def _fitting(t: Tables, cells: int) -> frozenset[int]:
    """Designs with at least one free position on a caravan with these cells covered (cached:
    a player's cells change only when a tile lands)."""
    key = (id(t), cells)
    hit = _FITS.get(key)
    if hit is None:
        taken = cells | t.blocked
        hit = frozenset(d for d in range(len(t.designs)) if any(not mask & taken for _x, _y, mask in t.design_masks[d]))
        if len(_FITS) > 4096:
            _FITS.clear()
        _FITS[key] = hit
    return hit


def _fits_somewhere(t: Tables, p: PlayerState, design: int) -> bool:
    return design in _fitting(t, p.cells)


def is_free(g: GameState, kind: int, free: bool) -> bool:
    """Special tiles have no price at all (rulebook p.12); others only via '(free)' effects."""
    return free or _price_table(g.tables)[2][kind]


def _affordable(g: GameState, p: PlayerState, kind: int, free: bool, discount: int) -> bool:
    _t, price, priceless = _price_table(g.tables)
    if free or priceless[kind]:
        return True
    silver, guild, count = price[kind]
    if p.silver >= max(0, silver - discount) or (guild >= 0 and p.guild[guild] >= count):
        return True  # as printed: the common case
    return payable(g, _need(g, kind, discount, False)) or (guild >= 0 and payable(g, _need(g, kind, discount, True)))


def _need(g: GameState, kind: int, discount: int, influence: bool) -> tuple[int, ...]:
    """The price vector of a tile paid with Silver (less the discount) or with influence."""
    silver, guild, count = prices(g.tables)[kind]
    need = [0] * PRICE_SIZE
    if influence:
        need[PRICE_GUILD + guild] = count
    else:
        need[0] = max(0, silver - discount)
    return tuple(need)


def buyable_designs(g: GameState, kind: int, free: bool, discount: int) -> list[int]:
    t = g.tables
    p = g.players[g.current]
    if not _affordable(g, p, kind, free, discount):
        return []
    return [d for d in t.designs_of_kind[kind] if g.tile_supply[d] > 0 and _fits_somewhere(t, p, d)]


def can_gain_tile(g: GameState, kind: int, free: bool, discount: int) -> bool:
    """``buyable_designs`` is not empty (stops at the first design found)."""
    t = g.tables
    p = g.players[g.current]
    if not _affordable(g, p, kind, free, discount):
        return False
    fits = _fitting(t, p.cells)
    supply = g.tile_supply
    for d in t.designs_of_kind[kind]:
        if supply[d] > 0 and d in fits:
            return True
    return False


def _legal_design(g: GameState, frame: TileDesign) -> list[int]:
    return [CATALOG.DESIGN[d] for d in buyable_designs(g, frame.kind, frame.free, frame.discount)]


def _apply_design(g: GameState, frame: TileDesign, action: int) -> None:
    d = CATALOG.at[action]
    g.stack.pop()
    g.tile_supply[d] -= 1
    if is_free(g, frame.kind, frame.free):
        g.stack.append(TilePosition(d))
    else:
        g.stack.append(TilePrice(d, frame.discount))


def _legal_pay(g: GameState, frame: TilePrice) -> list[int]:
    kind = g.tables.design_kind[frame.design]
    guild = prices(g.tables)[kind][1]
    out = []
    if payable(g, _need(g, kind, frame.discount, False)):
        out.append(CATALOG.TILE_PAY[0])
    if guild >= 0 and payable(g, _need(g, kind, frame.discount, True)):
        out.append(CATALOG.TILE_PAY[1])
    return out


def _apply_pay(g: GameState, frame: TilePrice, action: int) -> None:
    d = frame.design
    g.stack.pop()
    g.stack.append(TilePosition(d))
    charge(g, _need(g, g.tables.design_kind[d], frame.discount, action == CATALOG.TILE_PAY[1]))  # last: asked first


def _legal_place(g: GameState, frame: TilePosition) -> list[int]:
    t = g.tables
    p = g.players[g.current]
    return [CATALOG.tile_at_id(x, y, bool(fl)) for x, y, fl in positions(t, p, frame.design)]


def _apply_place(g: GameState, frame: TilePosition, action: int) -> None:
    d = frame.design
    t = g.tables
    g.stack.pop()
    k = CATALOG.at[action]
    flipped = k % 2
    cell = k // 2
    y, x = divmod(cell, t.cols)
    place_tile(g, g.current, d, x, y, flipped)


def place_tile(g: GameState, seat: int, d: int, x: int, y: int, flipped: int) -> None:
    t = g.tables
    p = g.players[seat]
    mask = footprint(t, d, x, y)
    design = t.designs[d]
    bonus = t.board_bonus[p.board]
    items: list[Effect] = []
    for cell in range(t.cols * t.rows):
        if mask >> cell & 1 and cell in bonus:
            flatten(bonus[cell], items)
    triggers = {"tile", *design.tags}
    items += vista_items(g, p, triggers)
    p.cells |= mask
    p.tiles.append((d, x, y, flipped))
    p.counts[T_TILES] += 1
    p.counts[T_TILE_KIND[t.design_kind[d]]] += 1
    for k, v in enumerate(design.tag_counts):
        p.counts[k] += v
    recompute_caravan(t, p)
    push_bag(g, items, NO_DIE)


def _terms(a: Atom, ctx: BagContext) -> tuple[int, bool, int]:
    """(tile kind, free, silver discount) of a tile icon: 'tile(basic, free)' costs nothing,
    'tile(land, discount3)' (Tides of Trade's traders) 3 Silver less, on top of the die's discount."""
    extra = a.args[1] if len(a.args) > 1 else ""
    return TILE_KIND_INDEX[a.args[0]], extra == "free", ctx.silver_discount + (3 if extra == "discount3" else 0)


def _can_tile(g: GameState, a: Atom, ctx: BagContext) -> bool:
    return can_gain_tile(g, *_terms(a, ctx))


def _take_tile(g: GameState, a: Atom, ctx: BagContext) -> None:
    g.stack.append(TileDesign(*_terms(a, ctx)))


ICONS = (
    icon(
        "tile",
        args=((*TILE_KINDS, "any"), ("free", "discount3")),
        arg_required=True,
        can=_can_tile,
        resolve=_take_tile,
        keyed="tile",
        leaf_args=TILE_KINDS,  # "tile(any)" is the solo AI's (resolved by its own rules)
        writes=NOTHING,
    ),
)
FRAMES = (
    FrameRule(21, "tile_design", TileDesign, _legal_design, _apply_design, writes=ACTOR | BOARD),  # the tile leaves the supply
    FrameRule(22, "tile_price", TilePrice, _legal_pay, _apply_pay, writes=ACTOR | BOARD),  # BOARD: Red guild, Ink Well flags
    FrameRule(23, "tile_position", TilePosition, _legal_place, _apply_place, writes=ACTOR),
)
