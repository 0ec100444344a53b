"""Tides of Trade's worker upgrade tiles (ToT "Acquiring Worker Upgrade Tiles"): the stacks on the
main-board extensions, the worker caravan on the player-board extension, and the tiles' effects
when a worker of their colour is placed.

"When acquiring Worker Upgrade Tiles, players must first pay the cost. This is always either 3
Silver or 2 Red Influence." Then they pick a pair (a Top and the Bottom lined up with it), place it
under a worker colour of their worker caravan and gain the icons it covers. "From now on,
whenever players place the coloured Worker shown above a Worker Upgrade Tile, they may resolve any
effects on the Tile in addition to the effects of where they placed the Worker." Readings
(TIDES-QUESTIONS 20-25, docs/ARCHITECTURE.md): no tile is offered with a full worker caravan; the
tile's effects join the spot's at every placement of that colour, and a worker may go where either
has something to resolve.
"""

from __future__ import annotations

from typing import NamedTuple

from wayfarers_env.content.effects import Atom, Choice, Effect, flatten
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import price_need, push_bag
from wayfarers_env.rules.frames import ACTOR, BOARD, NO_DIE, NOTHING, BagContext, FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.panorama import vista_items
from wayfarers_env.rules.payments import charge, payable
from wayfarers_env.rules.state import GameState, PlayerState
from wayfarers_env.rules.tables import T_TILES, Tables
from wayfarers_env.vocabulary import WORKER_INDEX


class WorkerTilePrice(NamedTuple):
    """3 Silver or 2 Red influence (the TILE_PAY actions: silver, influence)."""


class WorkerPair(NamedTuple):
    """Which pair of stacks to take the face-up halves of."""


class WorkerColumn(NamedTuple):
    """Under which worker colour the tile goes; it holds the two halves."""

    top: int
    bottom: int


_PRICES: dict[int, tuple] = {}


def prices(t: Tables) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """The worker tile's price vectors: (in Silver, in influence), once per tables."""
    hit = _PRICES.get(id(t))
    if hit is None or hit[0] is not t:
        tides = t.content.tides
        assert tides is not None
        node = tides.worker_tile_price
        silver = influence = None
        for opt in node.options if isinstance(node, Choice) else (node,):
            need = price_need(opt)
            if need[0] or need[1]:
                silver = need
            else:
                influence = need
        hit = _PRICES[id(t)] = (t, (silver, influence))
    return hit[1]


_COLUMNS: dict[int, tuple] = {}


def columns(t: Tables) -> tuple[int, ...]:
    """The worker colour (vocabulary.WORKER_COLOURS index) above each worker-caravan column, once per tables."""
    hit = _COLUMNS.get(id(t))
    if hit is None or hit[0] is not t:
        tides = t.content.tides
        assert tides is not None
        hit = _COLUMNS[id(t)] = (t, tuple(WORKER_INDEX[w] for w in tides.worker_columns))
    return hit[1]


def _pairs(g: GameState) -> list[int]:
    tides = g.tables.content.tides
    assert tides is not None
    return [j for j in range(tides.stacks) if g.worker_stacks[j]]


def can_acquire(g: GameState) -> bool:
    """A column of the worker caravan is free, a pair is on the stacks and its price can be paid
    (plain loops: the extension's die space asks this at every placement)."""
    for top, _bottom in g.players[g.current].worker_tiles:
        if top < 0:
            break
    else:
        return False  # no worker caravan (a base-game board) or a full one
    stacks = g.worker_stacks
    for j in range(len(stacks) // 2):  # the Top stacks: a pair is there while its Top is
        if stacks[j]:
            break
    else:
        return False
    for need in prices(g.tables):
        if need is not None and payable(g, need):
            return True
    return False


def _legal_price(g: GameState, frame: WorkerTilePrice) -> list[int]:
    return [CATALOG.TILE_PAY[k] for k, need in enumerate(prices(g.tables)) if need is not None and payable(g, need)]


def _apply_price(g: GameState, frame: WorkerTilePrice, action: int) -> None:
    g.stack.pop()
    g.stack.append(WorkerPair())
    need = prices(g.tables)[CATALOG.at[action]]
    assert need is not None
    charge(g, need)  # last: "players must first pay the cost"


def _legal_pair(g: GameState, frame: WorkerPair) -> list[int]:
    return [CATALOG.WORKER_PAIR[j] for j in _pairs(g)]


def _apply_pair(g: GameState, frame: WorkerPair, action: int) -> None:
    tides = g.tables.content.tides
    assert tides is not None
    j = CATALOG.at[action]
    g.stack[-1] = WorkerColumn(g.worker_stacks[j].pop(), g.worker_stacks[j + tides.stacks].pop())


def _legal_column(g: GameState, frame: WorkerColumn) -> list[int]:
    p = g.players[g.current]
    return [CATALOG.WORKER_COLUMN[c] for c, (top, _bottom) in enumerate(p.worker_tiles) if top < 0]


def _apply_column(g: GameState, frame: WorkerColumn, action: int) -> None:
    g.stack.pop()
    place(g, g.players[g.current], CATALOG.at[action], frame.top, frame.bottom)


def place(g: GameState, p: PlayerState, column: int, top: int, bottom: int) -> None:
    """Lay the tile: it counts as one upgrade tile with its halves' tags, and the icons it covers are
    gained at once (with any Vista an upgrade tile sets off)."""
    t = g.tables
    tides = t.content.tides
    assert tides is not None
    p.worker_tiles[column] = (top, bottom)
    p.counts[T_TILES] += 1
    for h in (top, bottom):
        for k, n in enumerate(t.half_tags[h]):
            p.counts[k] += n
    colour = tides.worker_columns[column]
    items: list[Effect] = []
    for part in ("top", "bottom"):
        covered = tides.covered.get((part, colour))
        if covered is not None:
            flatten(covered, items)
    items += vista_items(g, p, {"tile", *tides.halves[top].tags, *tides.halves[bottom].tags})
    push_bag(g, items, NO_DIE)


_HALF_ITEMS: dict[tuple[int, int, int], tuple[object, tuple[Effect, ...]]] = {}


def tile_items(g: GameState, p: PlayerState, colour: int) -> tuple[Effect, ...]:
    """The effects of the worker tile under ``colour``, for a worker of that colour being placed."""
    if not p.worker_tiles:
        return ()
    cols = columns(g.tables)
    if colour not in cols:
        return ()
    top, bottom = p.worker_tiles[cols.index(colour)]
    if top < 0:
        return ()
    tides = g.tables.content.tides
    assert tides is not None
    key = (id(tides), top, bottom)
    hit = _HALF_ITEMS.get(key)
    if hit is None or hit[0] is not tides:
        out: list[Effect] = []
        for half in (top, bottom):
            effect = tides.halves[half].effect
            if effect is not None:
                flatten(effect, out)
        hit = _HALF_ITEMS[key] = (tides, tuple(out))
    return hit[1]


def _can(g: GameState, a: Atom, ctx: BagContext) -> bool:
    return can_acquire(g)


ICONS = (
    icon(
        "worker_tile",
        can=_can,
        resolve=lambda g, a, ctx: g.stack.append(WorkerTilePrice()),
        rank=3,  # a few counts and a price: checked before the trader beside it on the extension's space
        expansion=True,
        writes=NOTHING,
    ),
)
FRAMES = (
    FrameRule(30, "worker_tile_price", WorkerTilePrice, _legal_price, _apply_price, writes=ACTOR | BOARD),
    FrameRule(31, "worker_pair", WorkerPair, _legal_pair, _apply_pair, writes=BOARD),
    FrameRule(32, "worker_column", WorkerColumn, _legal_column, _apply_column, writes=ACTOR | BOARD),
)
