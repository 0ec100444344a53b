"""The market rows around the main board: acquiring cards, influence fees, workers, refills.

Rulebook pp.10-11 and 16: cards come from the 4 face-up slots of a row (or the top of a deck
for the draw-3 options), an opponent's influence on a card costs 1 Silver or 1 Provision to
interact with it, workers on an acquired card go to the acquirer, and rows slide and refill at
the end of each turn. What a card does once it lands in the panorama (immediate effects,
Vista triggers, connection links) is collected into one effect bag the player orders freely.
"""

from __future__ import annotations

from wayfarers_env.content.effects import Effect
from wayfarers_env.content.measures import TAGS
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import (
    ACQUIRE,
    DRAW_KEEP,
    DRAW_ORDER,
    FEE,
    INSPIRE,
    NO_DIE,
    RETRIEVE,
    SPACE_PLACE,
    SRC_DISCARD,
    SRC_WORKER,
    TUCK,
    WORKER_TARGET,
    flatten,
    push_bag,
    register,
)
from wayfarers_env.rules.state import GameState, PlayerState
from wayfarers_env.rules.tables import T_INSPIRATION, T_LAND_CARDS, T_SPACE_CARDS, T_TOWNSFOLK, T_WATER_CARDS

LAND, WATER, SPACE, TOWNSFOLK, INSPIRATION = "land", "water", "space", "townsfolk", "inspiration"
ROW_TOWNSFOLK, ROW_LAND, ROW_WATER, ROW_SPACE, ROW_INSPIRATION = range(5)
ALL_SEATS = 0xF


# ------------------------------------------------------------------------------ fees


def fee_owner(g: GameState, i: int) -> int:
    """The opponent to pay before interacting with market card i, or -1."""
    owner = g.market_inf[i]
    return owner if owner >= 0 and owner != g.current else -1


def can_pay_fee(p: PlayerState, silver_reserved: int = 0) -> bool:
    return p.silver - silver_reserved >= 1 or p.provisions >= 1


def _legal_fee(g: GameState, frame: tuple) -> list[int]:
    p = g.players[g.current]
    out = []
    if p.silver >= 1:
        out.append(CATALOG.FEE[0])
    if p.provisions >= 1:
        out.append(CATALOG.FEE[1])
    return out


def _apply_fee(g: GameState, frame: tuple, action: int) -> None:
    _, owner, cont = frame
    p, o = g.players[g.current], g.players[owner]
    g.seat_ver[owner] += 1  # the one write to another player's pieces, with finish_take's
    if action == CATALOG.FEE[0]:
        p.silver -= 1
        o.silver += 1
    else:
        p.provisions -= 1
        o.provisions += 1
    g.stack.pop()
    _CONTINUE[cont[0]](g, *cont[1:])


# ------------------------------------------------------------------------ acquiring


def slot_price(g: GameState, row: int, card: int, slot: int, free: bool, discount: int) -> int:
    if free:
        return 0
    t = g.tables
    if row == ROW_SPACE:
        return max(0, t.slot_costs[slot] - discount)
    if row == ROW_TOWNSFOLK:
        return max(0, t.cards[card].cost - discount)
    return 0


def open_space_hosts(g: GameState, p: PlayerState) -> list[int]:
    return [c for c in p.land + p.water if c not in p.above]


def townsfolk_hosts(g: GameState, p: PlayerState, card: int) -> list[int]:
    t = g.tables
    wanted = t.cards[card].hosts
    out = []
    for h in p.land + p.water + [t.capital_city, t.capital_harbour]:
        if h in p.tucked:
            continue
        tags = t.cards[h].tags
        if any(w in tags for w in wanted):
            out.append(h)
    return out


def can_place(g: GameState, p: PlayerState, row: int, card: int) -> bool:
    if row == ROW_SPACE:  # some land or water card without a space card above it (``above`` is keyed by them)
        return len(p.above) < len(p.land) + len(p.water)
    if row == ROW_TOWNSFOLK:
        return bool(townsfolk_hosts(g, p, card))
    return True


def takeable_slots(g: GameState, row: int, free: bool = False, discount: int = 0) -> list[int]:
    p = g.players[g.current]
    t = g.tables
    out = []
    base = row * 4
    market, inf, placed = g.market, g.market_inf, g.market_placed
    if row == ROW_SPACE and not can_place(g, p, row, -1):
        return out
    free_host_tags = None
    for slot in range(4):
        i = base + slot
        card = market[i]
        if card < 0 or placed[i]:
            continue
        if row == ROW_SPACE:
            price = 0 if free else max(0, t.slot_costs[slot] - discount)
        elif row == ROW_TOWNSFOLK:
            price = 0 if free else max(0, t.cards[card].cost - discount)
        else:
            price = 0
        if price > p.silver:
            continue
        owner = inf[i]
        if owner >= 0 and owner != g.current and p.silver - price < 1 and p.provisions < 1:
            continue
        if row == ROW_TOWNSFOLK:
            if free_host_tags is None:
                free_host_tags = _free_host_tags(g, p)
            if not any(w in free_host_tags for w in t.cards[card].hosts):
                continue
        out.append(slot)
    return out


_HOST_TAGS: dict[int, tuple] = {}


def _free_host_tags(g: GameState, p: PlayerState) -> set[str] | frozenset[str]:
    """Tags of the player's cards (and the capital's) with no townsfolk tucked under them; cached
    per player while its land, water and tucked cards stand still (they only ever grow)."""
    key = (len(p.land), len(p.water), len(p.tucked))
    hit = _HOST_TAGS.get(id(p))
    if hit is not None and hit[0] is p and hit[1] == key:
        return hit[2]
    t = g.tables
    tags: set[str] = set()
    for h in (*p.land, *p.water, t.capital_city, t.capital_harbour):
        if h not in p.tucked:
            tags.update(t.cards[h].tags)
    if len(_HOST_TAGS) > 512:  # entries hold their players: keep few
        _HOST_TAGS.clear()
    _HOST_TAGS[id(p)] = (p, key, frozenset(tags))
    return _HOST_TAGS[id(p)][2]


def can_draw(g: GameState, row: int, spare_pigeon: bool) -> bool:
    return bool(g.decks[row]) and (spare_pigeon or g.players[g.current].provisions >= 1)


def can_acquire(
    g: GameState, row: int, free: bool = False, discount: int = 0, allow_draw: bool = False, spare_pigeon: bool = False
) -> bool:
    if allow_draw and row in (ROW_LAND, ROW_WATER) and can_draw(g, row, spare_pigeon):
        return True  # the cheap check first
    return bool(takeable_slots(g, row, free, discount))


def _legal_acquire(g: GameState, frame: tuple) -> list[int]:
    _, row, free, discount, allow_draw, spare = frame
    out = [CATALOG.SLOT[s] for s in takeable_slots(g, row, free, discount)]
    if allow_draw and row in (ROW_LAND, ROW_WATER) and can_draw(g, row, spare):
        out.append(CATALOG.DRAW)
    return out


def _apply_acquire(g: GameState, frame: tuple, action: int) -> None:
    _, row, free, discount, _allow_draw, spare = frame
    g.stack.pop()
    p = g.players[g.current]
    if action == CATALOG.DRAW:
        if not spare:
            p.provisions -= 1
        start_draw(g, row)
        return
    slot = action - CATALOG.SLOT[0]
    i = row * 4 + slot
    p.silver -= slot_price(g, row, g.market[i], slot, free, discount)
    owner = fee_owner(g, i)
    if owner >= 0:
        g.stack.append((FEE, owner, ("take", row, slot)))
    else:
        finish_take(g, row, slot)


def finish_take(g: GameState, row: int, slot: int) -> None:
    i = row * 4 + slot
    card = g.market[i]
    p = g.players[g.current]
    owner = g.market_inf[i]
    if owner >= 0:
        g.players[owner].supply += 1
        g.seat_ver[owner] += 1
    bits = g.market_workers[i]
    for colour in range(3):
        if bits >> colour & 1:
            p.workers[colour] += 1
    g.market[i] = -1
    g.market_inf[i] = -1
    g.market_workers[i] = 0
    g.market_placed[i] = 0
    g.board_ver += 1
    place_card(g, card, slot)


def start_draw(g: GameState, row: int) -> None:
    deck, known = g.decks[row], g.known[row]
    g.board_ver += 1
    drawn = []
    for _ in range(min(3, len(deck))):
        drawn.append(deck.pop())
        known.pop()
    g.stack.append((DRAW_KEEP, row, tuple(drawn)))


def _legal_keep(g: GameState, frame: tuple) -> list[int]:
    return [CATALOG.KEEP[i] for i in range(len(frame[2]))]


def _apply_keep(g: GameState, frame: tuple, action: int) -> None:
    _, row, drawn = frame
    k = action - CATALOG.KEEP[0]
    kept = drawn[k]
    rest = tuple(c for j, c in enumerate(drawn) if j != k)
    g.stack.pop()
    if len(rest) == 2:
        g.stack.append((DRAW_ORDER, row, rest, kept))
        return
    _to_bottom(g, row, rest, 1 << g.current)
    place_card(g, kept, -1)


def _legal_order(g: GameState, frame: tuple) -> list[int]:
    return list(CATALOG.ORDER)


def _apply_order(g: GameState, frame: tuple, action: int) -> None:
    _, row, rest, kept = frame
    g.stack.pop()
    order = rest if action == CATALOG.ORDER[0] else rest[::-1]
    _to_bottom(g, row, order, 1 << g.current)
    place_card(g, kept, -1)


def _to_bottom(g: GameState, row: int, cards: tuple[int, ...], known_by: int) -> None:
    """cards[0] ends up lowest. ``known_by`` is a bitmask of the seats who saw them."""
    g.board_ver += 1
    for card in reversed(cards):
        g.decks[row].insert(0, card)
        g.known[row].insert(0, known_by)


# ---------------------------------------------------------------- into the panorama


def _add_tags(p: PlayerState, counts: tuple[int, ...]) -> None:
    pc = p.counts
    for k in range(len(TAGS)):
        if counts[k]:
            pc[k] += counts[k]


def vista_items(g: GameState, p: PlayerState, triggers: frozenset[str] | set[str]) -> list[Effect]:
    """Effects of the player's Vistas (and their tucked townsfolk) that this item sets off."""
    t = g.tables
    out: list[Effect] = []
    for v in p.land:
        on = t.vista_on.get(v)
        if on is None or v in p.acquired or not (on & triggers):
            continue
        flatten(t.cards[v].trigger, out)
        folk = p.tucked.get(v)
        if folk is not None and folk not in p.acquired and t.cards[folk].ability is not None:
            flatten(t.cards[folk].ability, out)
    return out


def place_card(g: GameState, card: int, slot: int) -> None:
    """Add an acquired card to the panorama (or ask where it goes)."""
    t = g.tables
    p = g.players[g.current]
    c = t.cards[card]
    if c.kind == LAND:
        items = flatten(c.immediate) + vista_items(g, p, set(c.tags))
        p.land.append(card)
        p.counts[T_LAND_CARDS] += 1
        _add_tags(p, c.tag_counts)
        p.acquired.append(card)
        push_bag(g, items, NO_DIE)
    elif c.kind == WATER:
        left = t.cards[p.water[-1] if p.water else t.capital_harbour]
        items = flatten(c.immediate) + vista_items(g, p, set(c.tags))
        for r in range(4):
            if c.links_left[r] and left.links_right[r] is not None:
                items.append(left.links_right[r])
        p.water.append(card)
        p.counts[T_WATER_CARDS] += 1
        _add_tags(p, c.tag_counts)
        p.acquired.append(card)
        push_bag(g, items, NO_DIE)
    elif c.kind == SPACE:
        g.stack.append((SPACE_PLACE, card))
    elif c.kind == TOWNSFOLK:
        g.stack.append((TUCK, card))
    elif c.kind == INSPIRATION:
        g.stack.append((INSPIRE, card, slot))
    else:  # pragma: no cover - content validation prevents this
        raise AssertionError(f"cannot place {c.id}")


def _legal_space_place(g: GameState, frame: tuple) -> list[int]:
    p = g.players[g.current]
    return [CATALOG.ABOVE[g.tables.above_pos[h]] for h in open_space_hosts(g, p)]


def _apply_space_place(g: GameState, frame: tuple, action: int) -> None:
    card = frame[1]
    t = g.tables
    g.stack.pop()
    host = t.cards_by_above[action - CATALOG.ABOVE[0]]
    p = g.players[g.current]
    c = t.cards[card]
    items = flatten(c.immediate) + vista_items(g, p, set(c.tags))
    p.above[host] = card
    p.counts[T_SPACE_CARDS] += 1
    _add_tags(p, c.tag_counts)
    p.acquired.append(card)
    push_bag(g, items, NO_DIE)


def _legal_tuck(g: GameState, frame: tuple) -> list[int]:
    p = g.players[g.current]
    return [CATALOG.TUCK[g.tables.host_pos[h]] for h in townsfolk_hosts(g, p, frame[1])]


def _apply_tuck(g: GameState, frame: tuple, action: int) -> None:
    card = frame[1]
    t = g.tables
    g.stack.pop()
    host = t.cards_by_host[action - CATALOG.TUCK[0]]
    p = g.players[g.current]
    items = vista_items(g, p, {"townsfolk"})
    p.tucked[host] = card
    p.counts[T_TOWNSFOLK] += 1
    p.acquired.append(card)
    push_bag(g, items, NO_DIE)


def inspiration_targets(g: GameState, p: PlayerState) -> list[int]:
    t = g.tables
    spaces = [t.capital_star] + list(p.above.values())
    return [s for s in spaces if s not in p.inspired]


def _legal_inspire(g: GameState, frame: tuple) -> list[int]:
    p = g.players[g.current]
    t = g.tables
    return [CATALOG.INSPIRE[t.space_card_pos[s]] for s in inspiration_targets(g, p)] + [CATALOG.DISCARD]


def _apply_inspire(g: GameState, frame: tuple, action: int) -> None:
    _, card, slot = frame
    t = g.tables
    g.stack.pop()
    p = g.players[g.current]
    if action == CATALOG.DISCARD:
        _to_bottom(g, ROW_INSPIRATION, (card,), ALL_SEATS)
        push_bag(g, t.spot_items[ROW_INSPIRATION][slot], (SRC_DISCARD, 0, 0, 0))
        return
    target = t.cards_by_space_pos[action - CATALOG.INSPIRE[0]]
    p.inspired[target] = card
    p.counts[T_INSPIRATION] += 1
    p.acquired.append(card)


# --------------------------------------------------------------------------- workers


def _spot_resolvable(g: GameState, i: int, fee: bool) -> bool:
    """Rulebook p.16: a worker may only go where at least one part of the action resolves."""
    t = g.tables
    items = t.spot_items[i // 4][i % 4]
    ctx = (SRC_WORKER, 0, 0, 0)
    p = g.players[g.current]
    if not fee:
        return bag.items_resolvable(g, items, ctx)
    # the fee paid in silver, else in provisions: either way some part must still resolve
    if p.silver >= 1:
        p.silver -= 1
        try:
            if bag.items_resolvable(g, items, ctx):
                return True
        finally:
            p.silver += 1
    if p.provisions >= 1:
        p.provisions -= 1
        try:
            return bag.items_resolvable(g, items, ctx)
        finally:
            p.provisions += 1
    return False


def _worker_slots(g: GameState, colour: int):
    t = g.tables
    p = g.players[g.current]
    bit = 1 << colour
    for row in (ROW_TOWNSFOLK, ROW_LAND, ROW_WATER, ROW_INSPIRATION):
        if colour not in t.row_workers[row]:
            continue
        for slot in range(4):
            i = row * 4 + slot
            if g.market[i] < 0 or g.market_workers[i] & bit:
                continue
            fee = fee_owner(g, i) >= 0
            if fee and not can_pay_fee(p):
                continue
            if _spot_resolvable(g, i, fee):
                yield i


def worker_targets(g: GameState, colour: int) -> list[int]:
    """Market slots where a worker of this colour may go now (rulebook p.16)."""
    return list(_worker_slots(g, colour))


def has_worker_target(g: GameState, colour: int) -> bool:
    return next(_worker_slots(g, colour), None) is not None


def _legal_worker(g: GameState, frame: tuple) -> list[int]:
    return [CATALOG.CARD[i] for i in worker_targets(g, frame[1])]


def _apply_worker(g: GameState, frame: tuple, action: int) -> None:
    colour = frame[1]
    g.stack.pop()
    i = action - CATALOG.CARD[0]
    owner = fee_owner(g, i)
    if owner >= 0:
        g.stack.append((FEE, owner, ("worker", colour, i)))
    else:
        finish_worker(g, colour, i)


def finish_worker(g: GameState, colour: int, i: int) -> None:
    p = g.players[g.current]
    p.workers[colour] -= 1
    g.market_workers[i] |= 1 << colour
    g.market_placed[i] |= 1 << colour
    g.board_ver += 1
    push_bag(g, g.tables.spot_items[i // 4][i % 4], (SRC_WORKER, 0, 0, 0))


def retrievable(g: GameState) -> list[tuple[int, int]]:
    p = g.players[g.current]
    out = []
    for i in range(20):
        bits = g.market_workers[i] & ~g.market_placed[i]
        if not bits or g.market[i] < 0:
            continue
        if fee_owner(g, i) >= 0 and not can_pay_fee(p):
            continue
        for colour in range(3):
            if bits >> colour & 1:
                out.append((i, colour))
    return out


def can_retrieve(g: GameState) -> bool:
    """``retrievable`` is not empty (stops at the first worker found)."""
    fee_ok = can_pay_fee(g.players[g.current])
    market, inf, workers, placed, cur = g.market, g.market_inf, g.market_workers, g.market_placed, g.current
    for i in range(20):
        if workers[i] & ~placed[i] and market[i] >= 0 and (fee_ok or inf[i] < 0 or inf[i] == cur):
            return True
    return False


def _legal_retrieve(g: GameState, frame: tuple) -> list[int]:
    return [CATALOG.retrieve_id(i // 4, i % 4, colour) for i, colour in retrievable(g)]


def _apply_retrieve(g: GameState, frame: tuple, action: int) -> None:
    g.stack.pop()
    i, colour = g.tables.retrieve_of_action[action - CATALOG.RETRIEVE[0]]
    owner = fee_owner(g, i)
    if owner >= 0:
        g.stack.append((FEE, owner, ("retrieve", i, colour)))
    else:
        finish_retrieve(g, i, colour)


def finish_retrieve(g: GameState, i: int, colour: int) -> None:
    g.market_workers[i] &= ~(1 << colour)
    g.players[g.current].workers[colour] += 1
    g.board_ver += 1


_CONTINUE = {"take": finish_take, "worker": finish_worker, "retrieve": finish_retrieve}


# ---------------------------------------------------------------------------- refill


def refill(g: GameState) -> None:
    """End of turn (rulebook p.11): slide each row towards slot 1, then deal from the deck."""
    if min(g.market) >= 0:
        return  # most turns take no card, or one that was already replaced
    for row in range(5):
        base = row * 4
        if min(g.market[base : base + 4]) >= 0:
            continue
        keep = [k for k in range(base, base + 4) if g.market[k] >= 0]
        if len(keep) < 4 or keep != list(range(base, base + len(keep))):
            cards = [(g.market[k], g.market_inf[k], g.market_workers[k], g.market_placed[k]) for k in keep]
            for j in range(4):
                k = base + j
                if j < len(cards):
                    g.market[k], g.market_inf[k], g.market_workers[k], g.market_placed[k] = cards[j]
                else:
                    g.market[k], g.market_inf[k], g.market_workers[k], g.market_placed[k] = -1, -1, 0, 0
        for j in range(4):
            k = base + j
            if g.market[k] < 0 and g.decks[row]:
                g.market[k] = g.decks[row].pop()
                g.known[row].pop()


register(FEE, _legal_fee, _apply_fee)
register(ACQUIRE, _legal_acquire, _apply_acquire)
register(DRAW_KEEP, _legal_keep, _apply_keep)
register(DRAW_ORDER, _legal_order, _apply_order)
register(SPACE_PLACE, _legal_space_place, _apply_space_place)
register(TUCK, _legal_tuck, _apply_tuck)
register(INSPIRE, _legal_inspire, _apply_inspire)
register(WORKER_TARGET, _legal_worker, _apply_worker)
register(RETRIEVE, _legal_retrieve, _apply_retrieve)


from wayfarers_env.rules import bag  # noqa: E402  (bag imports this module first; used at call time only)
