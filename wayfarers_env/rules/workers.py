"""Workers (rulebook p.16): placing one on a face-up card for its row's spot effect, and
retrieving one back to supply.

Each market row takes workers of certain colours (the data's ``workers`` per row) and each slot
of a row has a spot effect; a card holds at most one worker of each colour, except that Tides of
Trade's never-blocked worker tile (ToT l.233) lets its colour onto a card that already holds one
(other workers only: the row's colours and an influence fee still apply, TIDES-QUESTIONS 24). A
worker may only go where at least one part of the spot's effect resolves. Workers placed this
turn cannot be retrieved this turn (of two of a colour on a card, one placed this turn, the other
can); workers on a card that is taken go to the taker (rules/market.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import items_resolvable, push_bag
from wayfarers_env.rules.frames import EVERYTHING, FROM_WORKER, NOTHING, FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.influence import Fee, can_pay_fee, fee_owner
from wayfarers_env.rules.state import EXTRA_PLACED, EXTRA_WIDTH, GameState, PlayerState, extra_on, extra_placed
from wayfarers_env.rules.worker_tiles import columns, tile_items
from wayfarers_env.vocabulary import WORKER_COLOURS


class WorkerTarget(NamedTuple):
    """Which face-up card a worker of ``colour`` goes on (the main action 'place a worker')."""

    colour: int


class RetrieveWorker(NamedTuple):
    """Which worker (card slot and colour) a retrieve icon brings back."""


class PlaceWorker(NamedTuple):
    """What an influence fee is paid for: placing a worker of ``colour`` on market slot ``spot``."""

    colour: int
    spot: int

    def finish(self, g: GameState) -> None:
        finish_worker(g, self.colour, self.spot)


class CaptureFrom(NamedTuple):
    """What an influence-free fee is paid for (Tides of Trade): taking a ``colour`` worker from
    ``owner``'s supply, who is paid 1 Silver or 1 Provision."""

    owner: int
    colour: int

    def finish(self, g: GameState) -> None:
        g.players[self.owner].workers[self.colour] -= 1
        g.players[g.current].workers[self.colour] += 1


class Capture(NamedTuple):
    """Tides of Trade's capture: which worker, from a face-up card (as a retrieval) or from an
    opponent's supply; ``then_place``: the capture icon's "then place and resolve any Worker"."""

    then_place: bool


class PlaceAnyWorker(NamedTuple):
    """After a capture: which colour of worker to place now (it settles when none can go anywhere)."""


class TakeBackWorker(NamedTuple):
    """What an influence fee is paid for: retrieving the ``colour`` worker from market slot ``spot``."""

    spot: int
    colour: int

    def finish(self, g: GameState) -> None:
        finish_retrieve(g, self.spot, self.colour)


# ------------------------------------------------------------------------ placing


# (id of the spot's items, id of the tile's) -> (spot items, tile items, the two joined)
_WITH_TILE: dict[tuple[int, int], tuple[tuple, tuple, tuple]] = {}


def _joined(items: tuple, extra: tuple) -> tuple:
    """``items + extra``, the same object every time for the same two tuples: the rules cache their
    work on an item tuple by its identity (``icons.cheapest_first``), and a fresh tuple per
    question made every worker-placement check start from scratch."""
    if not extra:
        return items
    key = (id(items), id(extra))
    hit = _WITH_TILE.get(key)
    if hit is None or hit[0] is not items or hit[1] is not extra:
        if len(_WITH_TILE) > 4096:
            _WITH_TILE.clear()
        hit = _WITH_TILE[key] = (items, extra, items + extra)
    return hit[2]


def _spot_items(g: GameState, i: int, colour: int) -> tuple:
    """The spot's effects, with those of the player's worker tile under this colour (Tides of Trade)."""
    t = g.tables
    items = t.spot_items[i // t.slots][i % t.slots]
    p = g.players[g.current]
    return _joined(items, tile_items(g, p, colour)) if p.worker_tiles else items


def _spot_resolvable(g: GameState, items: tuple, fee: bool) -> bool:
    """Rulebook p.16: a worker may only go where at least one part of the action resolves."""
    p = g.players[g.current]
    if not fee:
        return items_resolvable(g, items, FROM_WORKER)
    # the fee paid in silver, else in provisions: either way some part must still resolve
    if p.silver >= 1:
        p.silver -= 1
        try:
            if items_resolvable(g, items, FROM_WORKER):
                return True
        finally:
            p.silver += 1
    if p.provisions >= 1:
        p.provisions -= 1
        try:
            return items_resolvable(g, items, FROM_WORKER)
        finally:
            p.provisions += 1
    return False


def never_blocked(g: GameState, p: PlayerState, colour: int) -> bool:
    """ToT l.233: a worker tile with a never-blocked half lets workers of its colour "ignore all other
    Workers on a Card"."""
    if not p.worker_tiles:
        return False
    t = g.tables
    tides = t.content.tides
    assert tides is not None
    cols = columns(t)
    if colour not in cols:
        return False
    top, bottom = p.worker_tiles[cols.index(colour)]
    return top >= 0 and (tides.halves[top].never_blocked or tides.halves[bottom].never_blocked)


def _worker_slots(g: GameState, colour: int) -> Iterator[int]:
    t = g.tables
    p = g.players[g.current]
    bit = 1 << colour
    unblocked = never_blocked(g, p, colour)
    extra = tile_items(g, p, colour)  # the worker tile under this colour, the same for every spot
    spot_items = t.spot_items
    for row in CATALOG.worker_rows:
        if colour not in t.row_workers[row]:
            continue
        for slot in range(t.slots):
            i = row * t.slots + slot
            if g.market[i] < 0 or (g.market_workers[i] & bit and not unblocked):
                continue
            fee = fee_owner(g, i) >= 0
            if fee and not can_pay_fee(p):
                continue
            if _spot_resolvable(g, _joined(spot_items[row][slot], extra), fee):
                yield i


def worker_targets(g: GameState, colour: int) -> list[int]:
    """Market slots where a worker of this colour may go now (rulebook p.16)."""
    return list(_worker_slots(g, colour))


def has_worker_target(g: GameState, colour: int) -> bool:
    return next(_worker_slots(g, colour), None) is not None


def _legal_worker(g: GameState, frame: WorkerTarget) -> list[int]:
    return [CATALOG.CARD[i] for i in worker_targets(g, frame.colour)]


def _apply_worker(g: GameState, frame: WorkerTarget, action: int) -> None:
    g.stack.pop()
    i = CATALOG.at[action]
    owner = fee_owner(g, i)
    if owner >= 0:
        g.stack.append(Fee(owner, PlaceWorker(frame.colour, i)))
    else:
        finish_worker(g, frame.colour, i)


def finish_worker(g: GameState, colour: int, i: int) -> None:
    p = g.players[g.current]
    p.workers[colour] -= 1
    bit = 1 << colour
    if g.market_workers[i] & bit:  # a second one (never blocked): counted as an extra, and as placed this turn
        g.market_extra[i] += 1 << (EXTRA_WIDTH * colour)
        if g.market_placed[i] & bit:
            g.market_extra[i] += 1 << (EXTRA_PLACED + EXTRA_WIDTH * colour)
    g.market_workers[i] |= bit
    g.market_placed[i] |= bit
    push_bag(g, _spot_items(g, i, colour), FROM_WORKER)


# ------------------------------------------------------------------------ retrieving


def free_extras(extra: int) -> int:
    """Bits of the colours of which a card holds more extras than were placed this turn: with its
    first worker placed before this turn or not, one of that colour may be retrieved."""
    out = 0
    for colour in range(len(WORKER_COLOURS)):
        if extra_on(extra, colour) > extra_placed(extra, colour):
            out |= 1 << colour
    return out


def retrievable(g: GameState) -> list[tuple[int, int]]:
    """(market slot, colour) of every worker the current player may retrieve now: one not placed this turn."""
    p = g.players[g.current]
    out = []
    for i in range(len(g.market)):
        bits = g.market_workers[i] & ~g.market_placed[i]
        if g.market_extra[i]:
            bits |= free_extras(g.market_extra[i])
        if not bits or g.market[i] < 0:
            continue
        if fee_owner(g, i) >= 0 and not can_pay_fee(p):
            continue
        for colour in range(len(p.workers)):
            if bits >> colour & 1:
                out.append((i, colour))
    return out


def can_retrieve(g: GameState) -> bool:
    """``retrievable`` is not empty (stops at the first worker found)."""
    fee_ok = can_pay_fee(g.players[g.current])
    market, inf, workers, placed, cur = g.market, g.market_inf, g.market_workers, g.market_placed, g.current
    extra = g.market_extra
    for i in range(len(market)):
        free = workers[i] & ~placed[i] or (extra[i] and free_extras(extra[i]))
        if free and market[i] >= 0 and (fee_ok or inf[i] < 0 or inf[i] == cur):
            return True
    return False


def _legal_retrieve(g: GameState, frame: RetrieveWorker) -> list[int]:
    slots = g.tables.slots
    return [CATALOG.retrieve_id(i // slots, i % slots, colour) for i, colour in retrievable(g)]


def _apply_retrieve(g: GameState, frame: RetrieveWorker, action: int) -> None:
    g.stack.pop()
    _retrieve(g, action)


def _retrieve(g: GameState, action: int) -> None:
    i, colour = g.tables.retrieve_of_action[CATALOG.at[action]]
    owner = fee_owner(g, i)
    if owner >= 0:
        g.stack.append(Fee(owner, TakeBackWorker(i, colour)))
    else:
        finish_retrieve(g, i, colour)


def finish_retrieve(g: GameState, i: int, colour: int) -> None:
    """An extra goes first, so the bit stays while any worker of that colour is on the card."""
    if extra_on(g.market_extra[i], colour):
        g.market_extra[i] -= 1 << (EXTRA_WIDTH * colour)
    else:
        g.market_workers[i] &= ~(1 << colour)
    g.players[g.current].workers[colour] += 1


# ------------------------------------------------------------------------ capturing (Tides of Trade)


def capturable(g: GameState) -> list[tuple[int, int]]:
    """(opponent seat, colour) of every worker the current player may take from a supply (the
    owner is paid 1 Silver or 1 Provision)."""
    p = g.players[g.current]
    if not can_pay_fee(p):
        return []
    return [
        (seat, colour)
        for seat in (*range(g.current + 1, g.n), *range(g.current))
        for colour in range(len(p.workers))
        if g.players[seat].workers[colour] > 0
    ]


def can_capture(g: GameState) -> bool:
    return can_retrieve(g) or bool(capturable(g))


def _legal_capture(g: GameState, frame: Capture) -> list[int]:
    out = _legal_retrieve(g, RetrieveWorker())
    colours = len(g.players[g.current].workers)
    out += [CATALOG.CAPTURE[((seat - g.current) % g.n - 1) * colours + colour] for seat, colour in capturable(g)]
    return out


def _apply_capture(g: GameState, frame: Capture, action: int) -> None:
    g.stack.pop()
    if frame.then_place:
        g.stack.append(PlaceAnyWorker())  # after the capture (and its fee)
    if action in CATALOG.RETRIEVE:
        _retrieve(g, action)
        return
    k = CATALOG.at[action]
    colours = len(g.players[g.current].workers)
    seat = (g.current + 1 + k // colours) % g.n
    g.stack.append(Fee(seat, CaptureFrom(seat, k % colours)))


def _placeable(g: GameState) -> list[int]:
    p = g.players[g.current]
    return [colour for colour in range(len(p.workers)) if p.workers[colour] > 0 and has_worker_target(g, colour)]


def _legal_place_any(g: GameState, frame: PlaceAnyWorker) -> list[int]:
    return [CATALOG.WORKER[colour] for colour in _placeable(g)]


def _settle_place_any(g: GameState, frame: PlaceAnyWorker) -> bool:
    if _placeable(g):
        return False
    g.stack.pop()
    return True


def _apply_place_any(g: GameState, frame: PlaceAnyWorker, action: int) -> None:
    g.stack[-1] = WorkerTarget(CATALOG.at[action])


ICONS = (
    icon(
        "capture_worker",
        can=lambda g, a, ctx: can_capture(g),
        resolve=lambda g, a, ctx: g.stack.append(Capture(True)),
        expansion=True,
        writes=NOTHING,
    ),
    icon(
        "retrieve_worker",
        can=lambda g, a, ctx: can_retrieve(g),
        resolve=lambda g, a, ctx: g.stack.append(RetrieveWorker()),
        writes=NOTHING,
    ),
)
RECORDS = {"worker": PlaceWorker, "retrieve": TakeBackWorker, "capture": CaptureFrom}
FRAMES = (
    FrameRule(13, "retrieve_worker", RetrieveWorker, _legal_retrieve, _apply_retrieve, writes=EVERYTHING),  # a fee pays another seat
    FrameRule(25, "worker_target", WorkerTarget, _legal_worker, _apply_worker, writes=EVERYTHING),
    FrameRule(34, "capture_worker", Capture, _legal_capture, _apply_capture, writes=EVERYTHING),
    FrameRule(
        35, "place_captured", PlaceAnyWorker, _legal_place_any, _apply_place_any, _settle_place_any, writes=NOTHING, settle_writes=NOTHING
    ),
)
