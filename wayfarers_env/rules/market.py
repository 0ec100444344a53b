"""The market rows around the main board: acquiring cards, drawing 3, the slide and refill.

Rulebook pp.10-11 and 16: cards come from the face-up slots of a row (or the top of a deck for
the draw-3 options of Land and Water cards), an opponent's influence on a card costs a fee to
interact with it, workers on an acquired card go to the acquirer, and rows slide and refill at
the end of each turn. Where the card then goes is rules/panorama.py's business.
"""

from __future__ import annotations

from typing import NamedTuple

from wayfarers_env.content.effects import Atom
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import PRICE_SIZE
from wayfarers_env.rules.decks import draw, to_bottom
from wayfarers_env.rules.frames import ACTOR, BOARD, EVERYTHING, NOTHING, SRC_DIE, BagContext, FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.influence import Fee, fee_owner
from wayfarers_env.rules.panorama import free_host_tags, has_space_host, place_card
from wayfarers_env.rules.payments import FEE_AFTER, NOTHING_AFTER, charge, payable
from wayfarers_env.rules.state import GameState, extra_on
from wayfarers_env.vocabulary import DRAW_COUNT, LAND_ROW, ROW_INDEX, ROWS, SPACE_ROW, TOWNSFOLK_ROW, WATER_ROW


class Acquire(NamedTuple):
    """Which face-up card of ``row`` to take (or draw 3 from its deck, when allowed)."""

    row: int
    free: bool  # no price at all
    discount: int  # Silver off the price
    allow_draw: bool  # a die action's Land / Water card: the deck is an option
    spare_pigeon: bool  # the die has a pigeon to spare: drawing costs no Provision


class DrawKeep(NamedTuple):
    """Which of the cards drawn from a deck to keep (only the drawer sees them)."""

    row: int
    cards: tuple[int, ...]


class DrawOrder(NamedTuple):
    """In which order the two cards not kept go to the bottom of the deck."""

    row: int
    rest: tuple[int, int]
    kept: int


class TakeCard(NamedTuple):
    """What an influence fee is paid for: taking the card in ``slot`` of ``row``."""

    row: int
    slot: int

    def finish(self, g: GameState) -> None:
        finish_take(g, self.row, self.slot)


# ------------------------------------------------------------------------ acquiring


def slot_price(g: GameState, row: int, card: int, slot: int, free: bool, discount: int) -> int:
    """Silver to pay for a face-up card: Space cards by slot, townsfolk by their own cost."""
    if free:
        return 0
    t = g.tables
    if row == SPACE_ROW:
        return max(0, t.slot_costs[slot] - discount)
    if row == TOWNSFOLK_ROW:
        return max(0, t.cards[card].cost - discount)
    return 0


def takeable_slots(g: GameState, row: int, free: bool = False, discount: int = 0, first: bool = False) -> list[int]:
    """Slots of ``row`` whose card the current player can pay for, pay the fee of, and place (only
    the first one found with ``first``: an icon's legality test needs no more)."""
    p = g.players[g.current]
    t = g.tables
    out: list[int] = []
    base = row * t.slots
    market, inf, placed = g.market, g.market_inf, g.market_placed
    tides = g.config.tides_of_trade
    if row == SPACE_ROW and not has_space_host(p):
        return out
    host_tags = None
    for slot in range(t.slots):
        i = base + slot
        card = market[i]
        if card < 0 or placed[i]:
            continue
        if row == SPACE_ROW:
            price = 0 if free else max(0, t.slot_costs[slot] - discount)
        elif row == TOWNSFOLK_ROW:
            price = 0 if free else max(0, t.cards[card].cost - discount)
        else:
            price = 0
        owner = inf[i]
        fee = owner >= 0 and owner != g.current
        if price > p.silver or (fee and p.silver - price < 1 and p.provisions < 1):
            if not tides or not payable(g, _silver(price), FEE_AFTER if fee else NOTHING_AFTER):
                continue
        if row == TOWNSFOLK_ROW:
            if host_tags is None:
                host_tags = free_host_tags(g, p)
            if not any(w in host_tags for w in t.cards[card].hosts) and not (tides and t.cards[card].is_overseer):
                continue  # an Overseer can always be dismissed (Tides of Trade)
        out.append(slot)
        if first:
            break
    return out


def can_draw(g: GameState, row: int, spare_pigeon: bool) -> bool:
    return bool(g.decks[row]) and (spare_pigeon or g.players[g.current].provisions >= 1 or payable(g, _ONE_PROVISION))


_ONE_PROVISION = (0, 1) + (0,) * (PRICE_SIZE - 2)
_SILVER = [(n,) + (0,) * (PRICE_SIZE - 1) for n in range(32)]


def _silver(n: int) -> tuple[int, ...]:
    return _SILVER[n] if n < len(_SILVER) else (n,) + (0,) * (PRICE_SIZE - 1)


def can_acquire(
    g: GameState, row: int, free: bool = False, discount: int = 0, allow_draw: bool = False, spare_pigeon: bool = False
) -> bool:
    if allow_draw and (row == LAND_ROW or row == WATER_ROW) and can_draw(g, row, spare_pigeon):
        return True  # the cheap check first
    return bool(takeable_slots(g, row, free, discount, first=True))


def _legal_acquire(g: GameState, frame: Acquire) -> list[int]:
    row = frame.row
    out = [CATALOG.SLOT[s] for s in takeable_slots(g, row, frame.free, frame.discount)]
    if frame.allow_draw and (row == LAND_ROW or row == WATER_ROW) and can_draw(g, row, frame.spare_pigeon):
        out.append(CATALOG.DRAW)
    return out


def _apply_acquire(g: GameState, frame: Acquire, action: int) -> None:
    row = frame.row
    g.stack.pop()
    if action == CATALOG.DRAW:
        start_draw(g, row)
        if not frame.spare_pigeon:
            charge(g, _ONE_PROVISION)  # last: how to pay comes first
        return
    slot = CATALOG.at[action]
    i = row * g.tables.slots + slot
    price = slot_price(g, row, g.market[i], slot, frame.free, frame.discount)
    owner = fee_owner(g, i)
    if owner >= 0:
        g.stack.append(Fee(owner, TakeCard(row, slot)))
    else:
        finish_take(g, row, slot)
    if price:
        charge(g, _silver(price), FEE_AFTER if owner >= 0 else NOTHING_AFTER)


def finish_take(g: GameState, row: int, slot: int) -> None:
    """The card leaves the market: influence on it goes home, workers on it go to the taker (all of
    them: a never-blocked tile's second worker of a colour too, Tides of Trade)."""
    i = row * g.tables.slots + slot
    card = g.market[i]
    p = g.players[g.current]
    owner = g.market_inf[i]
    if owner >= 0:
        g.players[owner].supply += 1
    bits = g.market_workers[i]
    extra = g.market_extra[i]
    for colour in range(len(p.workers)):
        if bits >> colour & 1:
            p.workers[colour] += 1 + extra_on(extra, colour)
    g.market[i] = -1
    g.market_inf[i] = -1
    g.market_workers[i] = 0
    g.market_placed[i] = 0
    g.market_extra[i] = 0
    place_card(g, card, slot)


# ------------------------------------------------------------------------ draw 3


def start_draw(g: GameState, row: int) -> None:
    g.stack.append(DrawKeep(row, draw(g, row, DRAW_COUNT)))


def _legal_keep(g: GameState, frame: DrawKeep) -> list[int]:
    return [CATALOG.KEEP[i] for i in range(len(frame.cards))]


def _apply_keep(g: GameState, frame: DrawKeep, action: int) -> None:
    drawn = frame.cards
    k = CATALOG.at[action]
    kept = drawn[k]
    rest = tuple(c for j, c in enumerate(drawn) if j != k)
    g.stack.pop()
    if len(rest) == 2:
        g.stack.append(DrawOrder(frame.row, (rest[0], rest[1]), kept))
        return
    to_bottom(g, frame.row, rest, 1 << g.current)
    place_card(g, kept, -1)


def _legal_order(g: GameState, frame: DrawOrder) -> list[int]:
    return list(CATALOG.ORDER)


def _apply_order(g: GameState, frame: DrawOrder, action: int) -> None:
    g.stack.pop()
    order = frame.rest if action == CATALOG.ORDER[0] else frame.rest[::-1]
    to_bottom(g, frame.row, order, 1 << g.current)
    place_card(g, frame.kept, -1)


# ------------------------------------------------------------------------ refill


def refill(g: GameState) -> None:
    """End of turn (rulebook p.11): slide each row towards slot 1, then deal from the deck."""
    if min(g.market) >= 0:
        return  # most turns take no card, or one that was already replaced
    slots = g.tables.slots
    market, inf, workers, placed, extra = g.market, g.market_inf, g.market_workers, g.market_placed, g.market_extra
    for row in range(len(ROWS)):
        base = row * slots
        if min(market[base : base + slots]) >= 0:
            continue
        keep = [k for k in range(base, base + slots) if market[k] >= 0]
        if len(keep) < slots or keep != list(range(base, base + len(keep))):
            cards = [(market[k], inf[k], workers[k], placed[k], extra[k]) for k in keep]
            for j in range(slots):
                k = base + j
                if j < len(cards):
                    market[k], inf[k], workers[k], placed[k], extra[k] = cards[j]
                else:
                    market[k], inf[k], workers[k], placed[k], extra[k] = -1, -1, 0, 0, 0
        for j in range(slots):
            k = base + j
            if market[k] < 0 and g.decks[row]:
                market[k] = draw(g, row, 1)[0]


# ------------------------------------------------------------------------ icons


def _can_card(row: int):
    def can(g: GameState, a: Atom, ctx: BagContext) -> bool:
        return can_acquire(g, row, allow_draw=ctx.source == SRC_DIE, spare_pigeon=bool(ctx.spare_pigeon))

    return can


def _take_card(row: int):
    def resolve(g: GameState, a: Atom, ctx: BagContext) -> None:
        g.stack.append(Acquire(row, False, 0, ctx.source == SRC_DIE, bool(ctx.spare_pigeon)))

    return resolve


# Silver off a card's price named by an icon's argument (Tides of Trade's traders give 3)
DISCOUNTS = {"discount": 1, "discount3": 3}


def _space_discount(a: Atom, ctx: BagContext) -> int:
    """The die's silver discount, and 1 more for 'space_card(discount)' (3 for 'discount3')."""
    return ctx.silver_discount + (DISCOUNTS[a.args[0]] if a.args else 0)


ICONS = (
    icon("land_card", can=_can_card(LAND_ROW), resolve=_take_card(LAND_ROW), rank=2, writes=NOTHING),
    icon("water_card", can=_can_card(WATER_ROW), resolve=_take_card(WATER_ROW), rank=2, writes=NOTHING),
    icon(
        "space_card",
        args=(tuple(DISCOUNTS),),
        can=lambda g, a, ctx: can_acquire(g, SPACE_ROW, discount=_space_discount(a, ctx)),
        resolve=lambda g, a, ctx: g.stack.append(Acquire(SPACE_ROW, False, _space_discount(a, ctx), False, False)),
        writes=NOTHING,
    ),
    icon(
        "townsfolk",
        args=(("free",),),
        can=lambda g, a, ctx: can_acquire(g, TOWNSFOLK_ROW, free=bool(a.args), discount=ctx.silver_discount),
        resolve=lambda g, a, ctx: g.stack.append(Acquire(TOWNSFOLK_ROW, bool(a.args), ctx.silver_discount, False, False)),
        writes=NOTHING,
    ),
    icon(
        "inspiration",
        can=lambda g, a, ctx: can_acquire(g, ROW_INDEX["inspiration"]),
        resolve=lambda g, a, ctx: g.stack.append(Acquire(ROW_INDEX["inspiration"], False, 0, False, False)),
        rank=3,
        writes=NOTHING,
    ),
    icon(
        "draw_three",
        args=(("land", "water"),),
        arg_required=True,
        can=lambda g, a, ctx: bool(g.decks[ROW_INDEX[a.args[0]]]),
        resolve=lambda g, a, ctx: start_draw(g, ROW_INDEX[a.args[0]]),
        keyed="draw",
        rank=1,
        writes=BOARD,
    ),
)

RECORDS = {"take": TakeCard}
FRAMES = (
    FrameRule(14, "acquire_card", Acquire, _legal_acquire, _apply_acquire, writes=EVERYTHING),  # a fee pays another seat
    FrameRule(16, "draw_keep", DrawKeep, _legal_keep, _apply_keep, writes=ACTOR | BOARD),
    FrameRule(17, "draw_order", DrawOrder, _legal_order, _apply_order, writes=ACTOR | BOARD),
)
