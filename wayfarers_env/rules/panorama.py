"""A card arriving in the panorama (rulebook pp.8-11): where it goes, and what it sets off.

Land and Water cards extend the panorama away from the board; a Space card goes above a Land or
Water card without one; a townsfolk is tucked under a host with a tag it needs; an Inspiration
card goes above a Space card (or the capital's star) or is discarded for its worker spot's effect.
The card's immediate effects, the Vista triggers it sets off and the Water links it completes go
into one effect bag the player orders freely (RULES-FACTS §16 A5). A card acquired this turn
gives no benefit this turn (``PlayerState.acquired``), so a Vista never triggers on itself.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from wayfarers_env.content.effects import Effect, flatten
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import push_bag
from wayfarers_env.rules.decks import to_bottom
from wayfarers_env.rules.frames import ACTOR, BOARD, FROM_DISCARD, NO_DIE, FrameRule
from wayfarers_env.rules.state import GameState, PlayerState
from wayfarers_env.rules.tables import T_INSPIRATION, T_LAND_CARDS, T_SPACE_CARDS, T_TOWNSFOLK, T_WATER_CARDS
from wayfarers_env.vocabulary import ALL_SEATS, INSPIRATION_ROW, LINK_ROWS, TAGS


class TuckTownsfolk(NamedTuple):
    """Which host a townsfolk is tucked under."""

    card: int


class PlaceSpaceCard(NamedTuple):
    """Which Land or Water card a Space card goes above."""

    card: int


class PlaceInspiration(NamedTuple):
    """Which Space card an Inspiration card goes above, or discard it for the spot's effect."""

    card: int
    slot: int  # the market slot it came from (-1: drawn), whose worker-spot effect a discard gives


# ------------------------------------------------------------------------ hosts


def open_space_hosts(g: GameState, p: PlayerState) -> list[int]:
    """Land and Water cards with no Space card above them."""
    return [c for c in p.land + p.water if c not in p.above]


def has_space_host(p: PlayerState) -> bool:
    """``open_space_hosts`` is not empty: ``above`` is keyed by Land and Water cards."""
    return len(p.above) < len(p.land) + len(p.water)


def townsfolk_hosts(g: GameState, p: PlayerState, card: int) -> list[int]:
    """Cards (the capital's City and Harbour included) a townsfolk may be tucked under: free of
    townsfolk and bearing a tag it needs (rulebook p.10)."""
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


_HOST_TAGS: dict[int, tuple] = {}


def free_host_tags(g: GameState, p: PlayerState) -> frozenset[str]:
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


def inspiration_targets(g: GameState, p: PlayerState) -> list[int]:
    """The capital's star and the player's Space cards without an Inspiration card."""
    t = g.tables
    spaces = [t.capital_star] + list(p.above.values())
    return [s for s in spaces if s not in p.inspired]


# ------------------------------------------------------------------------ arriving


def _add_tags(p: PlayerState, counts: tuple[int, ...]) -> None:
    pc = p.counts
    for k in range(len(TAGS)):
        if counts[k]:
            pc[k] += counts[k]


def vista_items(g: GameState, p: PlayerState, triggers: Collection[str]) -> list[Effect]:
    """Effects of the player's Vistas (and their tucked townsfolk) that this arrival sets off."""
    t = g.tables
    out: list[Effect] = []
    for v in p.land:
        on = t.vista_on.get(v)
        if on is None or v in p.acquired or on.isdisjoint(triggers):
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
    if c.kind == "land":
        items = flatten(c.immediate) + vista_items(g, p, c.tags)
        p.land.append(card)
        p.counts[T_LAND_CARDS] += 1
        _add_tags(p, c.tag_counts)
        p.acquired.append(card)
        push_bag(g, items, NO_DIE)
    elif c.kind == "water":
        left = t.cards[p.water[-1] if p.water else t.capital_harbour]
        items = flatten(c.immediate) + vista_items(g, p, c.tags)
        for r in range(len(LINK_ROWS)):
            link = left.links_right[r]
            if c.links_left[r] and link is not None:
                items.append(link)
        p.water.append(card)
        p.counts[T_WATER_CARDS] += 1
        _add_tags(p, c.tag_counts)
        p.acquired.append(card)
        push_bag(g, items, NO_DIE)
    elif c.kind == "space":
        g.stack.append(PlaceSpaceCard(card))
    elif c.kind == "townsfolk":
        g.stack.append(TuckTownsfolk(card))
    elif c.kind == "inspiration":
        g.stack.append(PlaceInspiration(card, slot))
    else:  # pragma: no cover - content validation prevents this
        raise AssertionError(f"cannot place {c.id}")


def _legal_space_place(g: GameState, frame: PlaceSpaceCard) -> list[int]:
    p = g.players[g.current]
    return [CATALOG.ABOVE[g.tables.above_pos[h]] for h in open_space_hosts(g, p)]


def _apply_space_place(g: GameState, frame: PlaceSpaceCard, action: int) -> None:
    t = g.tables
    g.stack.pop()
    host = t.cards_by_above[CATALOG.at[action]]
    p = g.players[g.current]
    c = t.cards[frame.card]
    items = flatten(c.immediate) + vista_items(g, p, c.tags)
    p.above[host] = frame.card
    p.counts[T_SPACE_CARDS] += 1
    _add_tags(p, c.tag_counts)
    p.acquired.append(frame.card)
    push_bag(g, items, NO_DIE)


def _legal_tuck(g: GameState, frame: TuckTownsfolk) -> list[int]:
    p = g.players[g.current]
    out = [CATALOG.TUCK[g.tables.host_pos[h]] for h in townsfolk_hosts(g, p, frame.card)]
    if g.tables.cards[frame.card].is_overseer:  # Tides of Trade: the Market, or dismissed
        if p.overseer < 0:
            out.append(CATALOG.MARKET)
        out.append(CATALOG.DISMISS)
    return out


def _apply_tuck(g: GameState, frame: TuckTownsfolk, action: int) -> None:
    t = g.tables
    g.stack.pop()
    p = g.players[g.current]
    if action == CATALOG.DISMISS:  # ToT "Dismissing Overseers": its effect, and it leaves the game
        g.boxed.append(frame.card)
        dismiss = t.cards[frame.card].dismiss
        push_bag(g, flatten(dismiss) if dismiss is not None else (), NO_DIE)
        return
    items = vista_items(g, p, ("townsfolk",))
    if action == CATALOG.MARKET:
        p.overseer = frame.card
    else:
        p.tucked[t.cards_by_host[CATALOG.at[action]]] = frame.card
    p.counts[T_TOWNSFOLK] += 1
    p.acquired.append(frame.card)
    push_bag(g, items, NO_DIE)


def _tuck_writes(action: int) -> int:
    """A dismissed Overseer leaves the game (the board)."""
    return ACTOR | BOARD if action == CATALOG.DISMISS else ACTOR


def _legal_inspire(g: GameState, frame: PlaceInspiration) -> list[int]:
    p = g.players[g.current]
    t = g.tables
    return [CATALOG.INSPIRE[t.space_card_pos[s]] for s in inspiration_targets(g, p)] + [CATALOG.DISCARD]


def _apply_inspire(g: GameState, frame: PlaceInspiration, action: int) -> None:
    t = g.tables
    g.stack.pop()
    p = g.players[g.current]
    if action == CATALOG.DISCARD:
        to_bottom(g, INSPIRATION_ROW, (frame.card,), ALL_SEATS)
        push_bag(g, t.spot_items[INSPIRATION_ROW][frame.slot], FROM_DISCARD)
        return
    target = t.cards_by_space_pos[CATALOG.at[action]]
    p.inspired[target] = frame.card
    p.counts[T_INSPIRATION] += 1
    p.acquired.append(frame.card)


def _inspire_writes(action: int) -> int:
    """A discarded card goes under its deck (the board)."""
    return ACTOR | BOARD if action == CATALOG.DISCARD else ACTOR


ICONS = ()
FRAMES = (
    FrameRule(18, "tuck_townsfolk", TuckTownsfolk, _legal_tuck, _apply_tuck, writes=_tuck_writes),
    FrameRule(19, "place_space_card", PlaceSpaceCard, _legal_space_place, _apply_space_place, writes=ACTOR),
    FrameRule(20, "place_inspiration", PlaceInspiration, _legal_inspire, _apply_inspire, writes=_inspire_writes),
)
