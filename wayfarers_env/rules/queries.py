"""What bots may ask the engine: a small public query API over a game's state.

Bots read the state's public fields (``GameState``, ``PlayerState``) and the content tables, and
ask the questions below instead of reaching into rule modules: the answers follow the rules, so a
bot's appraisal cannot drift from what the engine will allow. The names here are stable; anything
else in ``wayfarers_env.rules`` may change with the engine (compare Catanatron's
``state_functions.py``).
"""

from __future__ import annotations

from wayfarers_env.content.effects import Atom, Effect
from wayfarers_env.rules import bag, caravan, dice, influence, journal, market, traders, worker_tiles
from wayfarers_env.rules.actions import CATALOG, LEAVES, MOVES
from wayfarers_env.rules.frames import BagContext
from wayfarers_env.rules.state import RESERVE, SUPPLY, GameState, PlayerState
from wayfarers_env.rules.tables import Tables

__all__ = [
    "CATALOG",
    "LEAVES",
    "MOVES",
    "RESERVE",
    "SUPPLY",
    "BagContext",
    "can_pay",
    "can_resolve",
    "card_price",
    "die_space_action",
    "fee_owner",
    "journal_moves",
    "price",
    "tile_footprint",
    "trader_effect",
    "worker_columns",
    "worker_halves",
    "worker_tile_effects",
]


def can_resolve(g: GameState, icon: Atom, ctx: BagContext) -> bool:
    """Could the current player resolve this icon now, as part of an action with this context?"""
    return bag.can_atom(g, icon, ctx)


def can_pay(g: GameState, cost: Effect) -> bool:
    """Can the current player pay this price (Silver, Provisions, influence) now?"""
    return bag.can_pay(g, cost)


def price(cost: Effect) -> tuple[int, int, list[int]]:
    """(Silver, Provisions, influence per guild) a price asks for."""
    return bag.cost_need(cost)


def die_space_action(g: GameState, p: PlayerState, space: int, face: int) -> tuple[tuple[Effect, ...], BagContext]:
    """The effect parts and context of putting a die of ``face`` on die space ``space`` (with the
    caravan column's discounts and the tucked townsfolk's ability)."""
    return dice.die_action(g, p, space, face)


def fee_owner(g: GameState, slot: int) -> int:
    """The opponent the current player must pay before interacting with market slot ``slot``, or -1."""
    return influence.fee_owner(g, slot)


def card_price(g: GameState, row: int, card: int, slot: int, free: bool, discount: int) -> int:
    """Silver to pay for the face-up ``card`` in ``slot`` of ``row``."""
    return market.slot_price(g, row, card, slot, free, discount)


def tile_footprint(t: Tables, design: int, x: int, y: int) -> int:
    """Caravan cell bitmask a tile design covers anchored at column x, row y (0 when off the grid)."""
    return caravan.footprint(t, design, x, y)


def journal_moves(g: GameState) -> list[int]:
    """Journal nodes the current player can step to now."""
    return journal.moves(g)


def trader_effect(g: GameState, trader: int) -> Effect:
    """Tides of Trade: what trader ``trader`` (its index in content.tides.traders) does in this game
    (the side its extension shows), cost included."""
    return traders.side(g, trader)


def worker_halves(g: GameState, pair: int) -> tuple[int, int]:
    """Tides of Trade: the face-up (top, bottom) halves of stack pair ``pair``, -1 where empty."""
    tides = g.tables.content.tides
    if tides is None:
        return -1, -1
    top, bottom = g.worker_stacks[pair], g.worker_stacks[pair + tides.stacks]
    return (top[-1] if top else -1), (bottom[-1] if bottom else -1)


def worker_tile_effects(g: GameState, p: PlayerState, colour: int) -> tuple[Effect, ...]:
    """Tides of Trade: what the worker tile under ``colour`` adds when such a worker is placed."""
    return worker_tiles.tile_items(g, p, colour)


def worker_columns(t: Tables) -> tuple[int, ...]:
    """Tides of Trade: the worker colour above each column of the worker caravan."""
    return worker_tiles.columns(t)
