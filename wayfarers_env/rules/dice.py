"""Placing a die (rulebook pp.14-15), the dice guild abilities, refreshing and changing dice.

The flow of a die placement: pick a die in supply (by face), optionally run one caravan chain
of manipulations, then put it on an owned die space whose assets are all met. The Trade guild
(yellow) changes supply dice by 1 once, and may a second time, before or after the chain; the
Exploration guild (blue) lends one ship. Every step offers only choices that can still end in a
legal placement.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, Seq, flatten
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import PRICE_GUILD, PRICE_SIZE, parts_resolvable, push_bag
from wayfarers_env.rules.frames import ACTOR, BOARD, NOTHING, SRC_DIE, BagContext, FrameRule
from wayfarers_env.rules.icons import always_resolves, cheapest_first, icon
from wayfarers_env.rules.payments import charge, decision_open, ink_cost, ink_open, payable, red_open, spend_ink
from wayfarers_env.rules.state import SUPPLY, GameState, PlayerState
from wayfarers_env.rules.tables import Tables
from wayfarers_env.vocabulary import (
    ASSETS,
    CAMEL,
    DOWN,
    EXPLORATION,
    GUILD_INDEX,
    GUILDS,
    PIGEON,
    PROVISION_DISCOUNT,
    RED,
    SHIP,
    SILVER_DISCOUNT,
    TELESCOPE,
    TRADE,
    UP,
)

NO_ASSETS = (0,) * len(ASSETS)
assert (CAMEL, SHIP, PIGEON, TELESCOPE) == (0, 1, 2, 3)  # the hot loops unpack asset needs in this order


class CaravanChain(NamedTuple):
    """Which face the chosen die is turned to by one chain of caravan arrows."""

    die: int


class DieSpace(NamedTuple):
    """Which owned die space the chosen die goes on (or hire the ship / use the Trade guild)."""

    die: int


class TradeGuild(NamedTuple):
    """``steps`` changes of a supply die by 1 still to come; ``die`` is the die being placed (-1: none
    yet). The first change is owed once the influence is paid, the second may be skipped (the guild
    lets a player "increase or decrease the value of Dice": paying for no change is not a use)."""

    steps: int
    die: int


class RefreshDie(NamedTuple):
    """Which die a refresh icon returns to supply (a placed one) or rerolls (one in supply)."""


class AdjustDie(NamedTuple):
    """Which supply die the +/-1 icon changes, and which way."""


_REACH: dict[int, tuple] = {}


def reach(p: PlayerState, face: int) -> list[int]:
    """Faces a die can be turned to by one chain of caravan arrows (chain, no stacking, no wrap)."""
    hit = _REACH.get(id(p.col))
    if hit is None or hit[0] is not p.col:  # p.col is replaced (never mutated) when a tile lands
        hit = _REACH[id(p.col)] = (p.col, [_reach(p, f) for f in range(1, 7)])
        if len(_REACH) > 4096:
            _REACH.clear()
            _REACH[id(p.col)] = hit
    return hit[1][face - 1]


def _reach(p: PlayerState, face: int) -> list[int]:
    seen = [face]
    todo = [face]
    while todo:
        f = todo.pop()
        col = p.col[f - 1]
        for nxt, ok in ((f + 1, col[UP] and f < 6), (f - 1, col[DOWN] and f > 1)):
            if ok and nxt not in seen:
                seen.append(nxt)
                todo.append(nxt)
    return sorted(seen)


_SHORTCUTS: dict[int, tuple[Tables, tuple[int, ...], frozenset[int]]] = {}


def _shortcuts(t: Tables) -> tuple[tuple[int, ...], frozenset[int]]:
    """Per content, computed once: (open spaces, always spaces).

    Open spaces: the capital's spaces that take any die and always offer a resource gain, so a die
    can always go there while one is empty. Always spaces: spaces whose action holds a resource
    gain, so once the die meets the assets the action resolves (a caravan discount or a tucked
    townsfolk only makes more of it resolve)."""
    hit = _SHORTCUTS.get(id(t))
    if hit is None or hit[0] is not t:
        spaces = range(len(t.space_card))
        open_ = tuple(s for s in spaces if t.space_card[s] < 0 and not any(t.space_need[s]) and always_resolves(t.space_action[s]))
        always = frozenset(s for s in spaces if always_resolves(t.space_action[s]))
        hit = _SHORTCUTS[id(t)] = (t, open_, always)
    return hit[1], hit[2]


def owned_spaces(g: GameState, p: PlayerState) -> list[int]:
    t = g.tables
    out = [*t.centre_spaces[::-1], 0, 1]  # reserve and market (any die) first
    for c in p.land + p.water:
        s = t.space_of_card.get(c)
        if s is not None and c not in p.acquired:
            out.append(s)
    return out


# (id(tables), space, provision discount, tucked townsfolk) -> (items, whether some part always
# resolves, the parts cheapest check first): the last two for _resolves, which asks them of every die
# space considered
_ITEMS: dict[tuple, tuple[tuple[Effect, ...], bool, tuple[Effect, ...]]] = {}


def die_action(g: GameState, p: PlayerState, s: int, face: int) -> tuple[tuple[Effect, ...], BagContext]:
    """Bag items and context of putting a die of this face on space s (items are cached: they
    depend only on the space, the column's provision discount and the tucked townsfolk)."""
    entry, ctx = _die_entry(g, p, s, face)
    return entry[0], ctx


def _die_entry(g: GameState, p: PlayerState, s: int, face: int) -> tuple[tuple[tuple[Effect, ...], bool, tuple[Effect, ...]], BagContext]:
    t = g.tables
    col = p.col[face - 1]
    card = t.space_card[s]
    folk = -1
    gives = NO_ASSETS
    if card >= 0:
        f = p.tucked.get(card)
        if f is not None and f not in p.acquired:
            folk = f
            gives = t.gives[f]
    key = (id(t), s, col[PROVISION_DISCOUNT], folk)
    entry = _ITEMS.get(key)
    if entry is None:
        out = flatten(discount_provisions(t.space_action[s], col[PROVISION_DISCOUNT]))
        if folk >= 0 and t.cards[folk].ability is not None:
            flatten(t.cards[folk].ability, out)
        items = tuple(out)
        entry = _ITEMS[key] = (items, *cheapest_first(items))
    pigeons = col[PIGEON] + gives[PIGEON] + g.ink_assets  # the Ink Well's pigeon is a spare one too (TIDES-QUESTIONS 12)
    key2 = (col[SILVER_DISCOUNT], col[PROVISION_DISCOUNT], int(pigeons - t.space_need[s][PIGEON] >= 1))
    ctx = _CONTEXTS.get(key2)
    if ctx is None:
        ctx = _CONTEXTS[key2] = BagContext(SRC_DIE, *key2)
    return entry, ctx


_CONTEXTS: dict[tuple[int, int, int], BagContext] = {}  # the bag context of a die action, one record per value


def space_assets_ok(g: GameState, p: PlayerState, s: int, face: int, ship: bool) -> bool:
    t = g.tables
    need = t.space_need[s]
    col = p.col[face - 1]
    card = t.space_card[s]
    gives = NO_ASSETS
    if card >= 0:
        folk = p.tucked.get(card)
        if folk is not None and folk not in p.acquired:
            gives = t.gives[folk]
    if (
        need[CAMEL] > col[CAMEL] + gives[CAMEL]
        or need[PIGEON] > col[PIGEON] + gives[PIGEON]
        or need[TELESCOPE] > col[TELESCOPE] + gives[TELESCOPE]
    ):
        return False
    return need[SHIP] <= col[SHIP] + gives[SHIP] + (1 if ship else 0)


_ONE = tuple(tuple(int(i == PRICE_GUILD + k) for i in range(PRICE_SIZE)) for k in range(len(GUILDS)))  # 1 influence of a guild


def ship_available(g: GameState, p: PlayerState) -> bool:
    """The Exploration guild's ship (paid with 1 blue, or 1 red through the Red guild)."""
    if g.ship_hired or g.guild_used[EXPLORATION]:
        return False
    return p.guild[EXPLORATION] >= 1 or (p.guild[RED] >= 1 and red_open(g))  # = payable(g, _ONE[EXPLORATION]), inlined


def yellow_available(g: GameState, p: PlayerState) -> bool:
    return not g.guild_used[TRADE] and (p.guild[TRADE] >= 1 or (p.guild[RED] >= 1 and red_open(g)))  # = payable(_ONE[TRADE])


def _near(face: int, dist: int) -> range:
    return range(max(1, face - dist), min(6, face + dist) + 1)


_NEEDS: dict[int, tuple] = {}  # per player: (player, panorama key, [(space, needs)])


def _spaces_and_needs(g: GameState, p: PlayerState) -> list[tuple[int, tuple]]:
    """(space, asset needs net of a tucked townsfolk's gifts) per owned die space, cached per
    player while its panorama stands still: cards are only ever added to land, water and
    tucked, and acquired only grows during a turn and empties at its end, so their lengths
    change whenever the answer can."""
    key = (len(p.land), len(p.water), len(p.tucked), len(p.acquired))
    hit = _NEEDS.get(id(p))
    if hit is not None and hit[0] is p and hit[1] == key:
        return hit[2]
    t = g.tables
    out = []
    for s in owned_spaces(g, p):
        need: tuple[int, ...] = t.space_need[s]
        card = t.space_card[s]
        if card >= 0:
            folk = p.tucked.get(card)
            if folk is not None and folk not in p.acquired:
                gv = t.gives[folk]
                need = tuple(need[k] - gv[k] for k in range(len(need)))
        out.append((s, need))
    if len(_NEEDS) > 512:  # entries hold their players: keep few (one game needs at most four)
        _NEEDS.clear()
    _NEEDS[id(p)] = (p, key, out)
    return out


def space_price(g: GameState, p: PlayerState, s: int) -> tuple[int, ...] | None:
    """Tides of Trade: the influence a City or Harbour's die space costs ("players must spend the
    required Influence before resolving any of the Card's effects"), less what its tucked
    townsfolk provides ("they may be activated as the Dice is placed"); None when it costs none."""
    t = g.tables
    guilds = t.space_influence.get(s)
    if guilds is None:
        return None
    need = [0] * PRICE_SIZE
    for k in guilds:
        need[PRICE_GUILD + k] += 1
    folk = p.tucked.get(t.space_card[s])
    if folk is not None and folk not in p.acquired:
        for colour in t.cards[folk].gives_influence:
            k = PRICE_GUILD + GUILD_INDEX[colour]
            need[k] = max(0, need[k] - 1)
    return tuple(need)


def _priced_ok(g: GameState, p: PlayerState, s: int) -> bool:
    """The space's influence cost, if any, can be paid (TIDES-QUESTIONS 29: else no die goes there)."""
    need = space_price(g, p, s)
    return need is None or payable(g, need)


def ink_assets_available(g: GameState, p: PlayerState) -> bool:
    """The Ink Well's third ability can still be used for the die being placed."""
    return not g.ink_assets and ink_open(g, p) and p.ink >= ink_cost(g, "die_assets")  # ink_open: only with the expansion


def _resolves_with_ink(g: GameState, p: PlayerState, die: int, s: int, face: int) -> bool:
    """_resolves as if the Ink Well's assets were used (its pigeon may make a draw 3 free)."""
    g.ink_assets = True
    try:
        return _resolves(g, p, die, s, face)
    finally:
        g.ink_assets = False


def _resolves(g: GameState, p: PlayerState, die: int, s: int, face: int) -> bool:
    """Placement.resolves for a space whose action may not resolve (not an always space)."""
    col = p.col[face - 1]
    key = (s, col[SILVER_DISCOUNT], col[PROVISION_DISCOUNT], col[PIGEON] + g.ink_assets)
    ok = g.space_memo.get(key)
    if ok is None:
        (_items, always, ordered), ctx = _die_entry(g, p, s, face)
        saved = p.dice_loc[die]
        p.dice_loc[die] = s
        try:
            ok = parts_resolvable(g, always, ordered, ctx)  # = items_resolvable(g, items, ctx)
        finally:
            p.dice_loc[die] = saved
        g.space_memo[key] = ok
    return ok


class Placement:
    """Where a die can go, for one legality query.

    Built once per query: the player's empty owned die spaces with their asset needs net of a
    tucked townsfolk's gifts. Whether a space's action can resolve depends on the face only
    through its column's discounts and pigeons, and not on which supply die is placed, so those
    answers live in ``g.space_memo``, kept while only dice are chosen or turned (the engine
    clears it on any other move). The die is put on the space while its action is checked, so
    an effect like 'change a die' does not count the die itself."""

    __slots__ = ("g", "p", "die", "free", "faces", "ship_ok", "yellow_ok", "always", "ink_ok", "priced")

    def __init__(self, g: GameState, p: PlayerState, die: int):
        self.g, self.p, self.die = g, p, die
        taken = p.dice_loc
        self.free = [sn for sn in _spaces_and_needs(g, p) if sn[0] not in taken]
        self.faces: dict[int, bool] = {}
        self.ship_ok = ship_available(g, p)
        self.yellow_ok = yellow_available(g, p)
        self.always = _shortcuts(g.tables)[1]
        self.ink_ok = ink_assets_available(g, p)
        self.priced = g.tables.space_influence

    def resolves(self, s: int, face: int, ink: bool = False) -> bool:
        """Can some part of space s's action resolve with the die (turned to this face) on it?"""
        if s in self.priced and not _priced_ok(self.g, self.p, s):
            return False
        if s in self.always:
            return True
        return (_resolves_with_ink if ink else _resolves)(self.g, self.p, self.die, s, face)

    def _placeable(self, face: int, ship: bool, ink: bool = False) -> bool:
        """Some empty space takes the die's assets (with the ship, with the Ink Well's) and its action
        resolves: one plain loop, first fit first, as this runs for every face a die may be turned to."""
        col = self.p.col[face - 1]
        bonus = self.g.ink_assets or ink  # the Ink Well's pigeon, camel and telescope
        camels, ships, pigeons, telescopes = col[CAMEL] + bonus, col[SHIP] + (1 if ship else 0), col[PIGEON] + bonus, col[TELESCOPE] + bonus
        for s, (camel, ship_need, pigeon, telescope) in self.free:  # needs in vocabulary.ASSETS order
            if camel <= camels and pigeon <= pigeons and telescope <= telescopes and ship_need <= ships and self.resolves(s, face, ink):
                return True
        return False

    def finish(self, face: int) -> bool:
        """Can the die, turned to this face, be placed now (hiring the ship if still possible)?"""
        ok = self.faces.get(face)
        if ok is None:
            ship = self.g.ship_hired
            ok = self._placeable(face, ship)
            if not ok and self.ship_ok:
                if not _red_only(self.g, EXPLORATION):
                    ok = self._placeable(face, True)
                else:  # the ship takes the Red guild's stand-in, which the space may have needed
                    with _tried(self.g):
                        _spend_red(self.g, EXPLORATION)
                        ok = Placement(self.g, self.p, self.die).finish(face)
            if not ok and self.ink_ok:
                ok = self._placeable(face, ship or self.ship_ok, True)
            self.faces[face] = ok
        return ok

    def after_chain(self, face: int) -> bool:
        """Placeable now, or after the Trade guild's two changes."""
        if self.finish(face):
            return True
        if not self.yellow_ok:
            return False
        if not _red_only(self.g, TRADE):
            return any(self.finish(f) for f in _near(face, 2))
        with _tried(self.g):  # the Trade guild takes the Red guild's stand-in
            _spend_red(self.g, TRADE)
            where = Placement(self.g, self.p, self.die)
            return any(where.finish(f) for f in _near(face, 2))


def _red_only(g: GameState, guild: int) -> bool:
    """Tides of Trade: the guild's ability can only be paid with the Red guild's once-a-turn
    stand-in (the player has none of its colour), so what the die does next must be judged with
    red spent (found by the expansion fuzz)."""
    return g.players[g.current].guild[guild] < 1 and red_open(g)


def _spend_red(g: GameState, guild: int) -> None:
    """The guild's ability paid with red, in place (inside ``_tried``)."""
    p = g.players[g.current]
    p.guild[RED] -= 1
    p.supply += 1
    g.guild_used[RED] = g.guild_used[guild] = True
    if guild == EXPLORATION:
        g.ship_hired = True


@contextmanager
def _tried(g: GameState) -> Iterator[None]:
    """Try a payment in place: what a price, a guild ability or the Ink Well changes, and any frame
    pushed meanwhile, is put back afterwards, and no answer found on the tried state is kept."""
    p = g.players[g.current]
    depth, memo = len(g.stack), g.space_memo
    saved = (p.silver, p.provisions, p.guild[:], p.supply, p.ink, g.guild_used[:], g.ink_used, g.ship_hired, g.ink_assets)
    g.space_memo = {}
    try:
        yield
    finally:
        del g.stack[depth:]
        p.silver, p.provisions, p.guild[:], p.supply, p.ink = saved[0], saved[1], saved[2], saved[3], saved[4]
        g.guild_used[:], g.ink_used, g.ship_hired, g.ink_assets = saved[5], saved[6], saved[7], saved[8]
        g.space_memo = memo


def die_choices(g: GameState, p: PlayerState) -> list[int]:
    """Faces f such that placing a supply die showing f can succeed."""
    locs = p.dice_loc
    if SUPPLY not in locs:
        return []
    supply_faces = sorted({f for f, loc in zip(p.dice_face, locs) if loc == SUPPLY})
    # the capital's Market and Reserve take any die and always offer a resource: while either
    # is empty, every die can be placed
    if _open_free(_shortcuts(g.tables)[0], locs):
        return supply_faces
    where = Placement(g, p, locs.index(SUPPLY))
    out = []
    for f in supply_faces:
        if any(where.after_chain(x) for x in reach(p, f)):
            out.append(f)
    return out


def pick_die(g: GameState, face: int) -> None:
    """Main action 'place a die showing face': start the chain / space choice."""
    p = g.players[g.current]
    d = next(d for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY and p.dice_face[d] == face)
    if len(reach(p, face)) > 1:
        g.stack.append(CaravanChain(d))
    else:
        g.stack.append(DieSpace(d))


def _legal_chain(g: GameState, frame: CaravanChain) -> list[int]:
    p = g.players[g.current]
    d = frame.die
    where = Placement(g, p, d)
    return [CATALOG.FACE[x - 1] for x in reach(p, p.dice_face[d]) if where.after_chain(x)]


def _apply_chain(g: GameState, frame: CaravanChain, action: int) -> None:
    d = frame.die
    p = g.players[g.current]
    p.dice_face[d] = CATALOG.at[action] + 1
    g.stack[-1] = DieSpace(d)


def _legal_space(g: GameState, frame: DieSpace) -> list[int]:
    p = g.players[g.current]
    d = frame.die
    face = p.dice_face[d]
    col = p.col[face - 1]
    bonus = g.ink_assets  # the Ink Well's pigeon, camel and telescope, once used
    camels, pigeons, telescopes = col[CAMEL] + bonus, col[PIGEON] + bonus, col[TELESCOPE] + bonus
    ships = col[SHIP] + (1 if g.ship_hired else 0)
    ship_ok = ship_available(g, p)
    ink_ok = ink_assets_available(g, p)
    ink = False  # some space fits with the Ink Well's assets (and the ship if it can be hired)
    taken = p.dice_loc
    open_, always = _shortcuts(g.tables)
    priced = g.tables.space_influence
    space_ids = CATALOG.SPACE
    out = []
    ship = False  # some space needs the Exploration guild's ship (hiring it is possible: ship_ok)
    # one pass over the empty owned spaces: Placement._placeable's fit with and without the ship, inlined
    for s, (camel, ship_need, pigeon, telescope) in _spaces_and_needs(g, p):  # needs in vocabulary.ASSETS order
        if s in taken:
            continue
        if (
            ink_ok
            and not ink
            and camel <= camels + 1
            and pigeon <= pigeons + 1
            and telescope <= telescopes + 1
            and ship_need <= ships + ship_ok
            and (s in always or _resolves_with_ink(g, p, d, s, face))
            and (s not in priced or _priced_ok(g, p, s))
        ):
            ink = True
        if camel > camels or pigeon > pigeons or telescope > telescopes:
            continue
        if ship_need <= ships:
            if (s in always or _resolves(g, p, d, s, face)) and (s not in priced or _priced_ok(g, p, s)):
                out.append(space_ids[s])
        elif (
            ship_ok
            and not ship
            and ship_need <= ships + 1
            and (s in always or _resolves(g, p, d, s, face))
            and (s not in priced or _priced_ok(g, p, s))
        ):
            ship = True
    placeable = bool(out)
    if ship:
        out.append(CATALOG.SHIP)
    if ink:
        out.append(CATALOG.INK_ASSETS)
    if yellow_available(g, p):
        # with a placement already possible the guild is always safe: its owed change can be undone
        # by the second (one way or the other is open to every face), or fall on another die
        if placeable or ship:
            out.append(CATALOG.YELLOW)
        else:
            where = Placement(g, p, d)
            if any(where.finish(f) for f in _near(face, 2)):
                out.append(CATALOG.YELLOW)
    if (ship or ink or CATALOG.YELLOW in out) and (red_open(g) or ink_open(g, p)) and not _open_free(open_, taken):
        # a guild paid as printed leaves red and the stand-in for what follows; a price that takes
        # them (no influence of that colour), the Ink Well, or a space that costs influence is tried
        priced_owned = any(s in priced and s not in taken for s, _needs in _spaces_and_needs(g, p))
        risky = {
            CATALOG.SHIP: priced_owned or p.guild[EXPLORATION] == 0,
            CATALOG.YELLOW: priced_owned or p.guild[TRADE] == 0,
            CATALOG.INK_ASSETS: True,
        }
        out = [a for a in out if not risky.get(a, False) or _paid_first_ok(g, a)]
    out.sort()
    return out


def _open_free(open_: tuple[int, ...], taken: list[int]) -> bool:
    """A capital space any die can take is free: the die is never stuck, whatever a price took."""
    for s in open_:
        if s not in taken:
            return True
    return False


def _paid_first_ok(g: GameState, action: int) -> bool:
    """Tides of Trade: a guild's price may take the Red guild's once-a-turn stand-in (and the Ink
    Well's assets its once-a-turn use), which the space's influence cost or the die's effects may
    need after it: tried in place and put back (found by the expansion fuzz)."""
    top = g.stack[-1]
    assert type(top) is DieSpace
    with _tried(g):
        _apply_space(g, top, action)  # pays and pushes what follows; the die space stays below
        return decision_open(g)


def _apply_space(g: GameState, frame: DieSpace, action: int) -> None:
    d = frame.die
    p = g.players[g.current]
    if action == CATALOG.SHIP:
        g.guild_used[EXPLORATION] = True
        g.ship_hired = True
        charge(g, _ONE[EXPLORATION])
        return
    if action == CATALOG.YELLOW:
        _start_yellow(g, d)
        return
    if action == CATALOG.INK_ASSETS:  # ToT l.118: "act as if that Die had 1 Pigeon, 1 Camel, and 1 Telescope"
        spend_ink(g, ink_cost(g, "die_assets"))
        g.ink_assets = True
        return
    s = CATALOG.at[action]
    g.stack.pop()
    p.dice_loc[d] = s
    items, ctx = die_action(g, p, s, p.dice_face[d])
    push_bag(g, items, ctx)
    need = space_price(g, p, s)
    if need is not None:
        charge(g, need)  # last: paid before the card's effects


def _start_yellow(g: GameState, die: int) -> None:
    g.guild_used[TRADE] = True
    g.stack.append(TradeGuild(2, die))
    charge(g, _ONE[TRADE])


def use_yellow_at_turn_start(g: GameState) -> None:
    _start_yellow(g, -1)


def _adjust_targets(p: PlayerState) -> list[tuple[int, bool]]:
    out = []
    for f in sorted({p.dice_face[d] for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY}):
        if f < 6:
            out.append((f, True))
        if f > 1:
            out.append((f, False))
    return out


def _adjust_id(f: int, up: bool) -> int:
    return CATALOG.ADJUST[(f - 1) * 2 + (0 if up else 1)]


def _legal_yellow(g: GameState, frame: TradeGuild) -> list[int]:
    """The changes that leave the die being placed placeable (after the second change, while one is
    left); SKIP only for the second change. Whatever offered the guild made sure one change fits:
    every face in ``_near(face, 2)`` is reachable with one or two changes of the die itself."""
    steps, die = frame.steps, frame.die
    p = g.players[g.current]
    if die < 0:
        return [_adjust_id(f, up) for f, up in _adjust_targets(p)] + ([CATALOG.SKIP] if steps == 1 else [])
    where = Placement(g, p, die)
    face = p.dice_face[die]
    out = []
    for f, up in _adjust_targets(p):
        new = face + (1 if up else -1) if f == face else face
        ok = where.finish(new) or (steps == 2 and any(where.finish(x) for x in _near(new, 1)))
        if ok:
            out.append(_adjust_id(f, up))
    if steps == 1 and where.finish(face):
        out.append(CATALOG.SKIP)
    return out


def _apply_yellow(g: GameState, frame: TradeGuild, action: int) -> None:
    if action == CATALOG.SKIP:
        g.stack.pop()
        return
    adjust_die(g, action, prefer=frame.die)
    if frame.steps > 1:
        g.stack[-1] = TradeGuild(frame.steps - 1, frame.die)
    else:
        g.stack.pop()


def adjust_die(g: GameState, action: int, prefer: int = -1) -> None:
    k = CATALOG.at[action]
    f, up = k // 2 + 1, k % 2 == 0
    p = g.players[g.current]
    if prefer >= 0 and p.dice_face[prefer] == f:
        d = prefer
    else:
        d = next(d for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY and p.dice_face[d] == f and d != prefer)
    p.dice_face[d] = f + (1 if up else -1)


# --- the +/-1 effect (adjust_die)
def can_adjust(g: GameState) -> bool:
    p = g.players[g.current]
    return any(loc == SUPPLY for loc in p.dice_loc)


def _legal_adjust(g: GameState, frame: AdjustDie) -> list[int]:
    return [_adjust_id(f, up) for f, up in _adjust_targets(g.players[g.current])]


def _apply_adjust(g: GameState, frame: AdjustDie, action: int) -> None:
    g.stack.pop()
    adjust_die(g, action)


# --- refresh a die: a placed one back to supply, or a supply one rerolled
def can_refresh(g: GameState) -> bool:
    return any(loc >= SUPPLY for loc in g.players[g.current].dice_loc)


def _legal_refresh(g: GameState, frame: RefreshDie) -> list[int]:
    p = g.players[g.current]
    out = sorted(CATALOG.REFRESH_PLACED[loc] for loc in p.dice_loc if loc >= 0)
    out += [CATALOG.REFRESH_SUPPLY[f - 1] for f in sorted({p.dice_face[d] for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY})]
    return out


def _apply_refresh(g: GameState, frame: RefreshDie, action: int) -> None:
    g.stack.pop()
    p = g.players[g.current]
    if action in CATALOG.REFRESH_PLACED:
        s = CATALOG.at[action]
        d = p.dice_loc.index(s)
    else:
        f = CATALOG.at[action] + 1
        d = next(d for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY and p.dice_face[d] == f)
    p.dice_loc[d] = SUPPLY
    p.dice_face[d] = g.rng.randint(1, 6)


def new_die(g: GameState, a: Atom | None = None, ctx: BagContext | None = None) -> None:
    """Journal columns with the die icon: take a die from the reserve, roll it (mandatory)."""
    p = g.players[g.current]
    for d in range(len(p.dice_loc)):
        if p.dice_loc[d] < SUPPLY:
            p.dice_loc[d] = SUPPLY
            p.dice_face[d] = g.rng.randint(1, 6)
            return


def discount_provisions(node: Effect, amount: int) -> Effect:
    """The caravan's provision discount: printed Provision costs of a die space cost less."""
    if amount <= 0:
        return node
    if isinstance(node, Cost):
        cost = node.cost
        if isinstance(cost, Atom) and cost.name == "provisions":
            left = cost.amount - amount
            if left <= 0:
                return node.gain
            return Cost(Atom("provisions", left), node.gain)
        return node
    if isinstance(node, Choice):
        return Choice(tuple(discount_provisions(o, amount) for o in node.options))
    if isinstance(node, Seq):
        return Seq(tuple(discount_provisions(p, amount) for p in node.parts))
    return node


def _space_writes(action: int) -> int:
    """Hiring the ship or starting the Trade guild marks a guild used this turn (the board); so does
    a space's influence cost paid with the Red guild's stand-in (Tides of Trade's cards, whose
    spaces are the catalog's ``space_tides`` section)."""
    if action == CATALOG.SHIP or action == CATALOG.YELLOW or action == CATALOG.INK_ASSETS:
        return ACTOR | BOARD
    if any(name == "space_tides" and start <= action < stop for name, start, stop, _ in CATALOG.sections):
        return ACTOR | BOARD
    return ACTOR


ICONS = (
    icon("new_die", mandatory=True, resolve=new_die, writes=ACTOR),
    icon(
        "refresh_die", can=lambda g, a, ctx: can_refresh(g), resolve=lambda g, a, ctx: g.stack.append(RefreshDie()), rank=2, writes=NOTHING
    ),
    icon("adjust_die", can=lambda g, a, ctx: can_adjust(g), resolve=lambda g, a, ctx: g.stack.append(AdjustDie()), rank=2, writes=NOTHING),
)

FRAMES = (
    FrameRule(1, "caravan_chain", CaravanChain, _legal_chain, _apply_chain, writes=ACTOR, keeps_memo=True),
    FrameRule(2, "die_space", DieSpace, _legal_space, _apply_space, writes=_space_writes),
    FrameRule(3, "trade_guild", TradeGuild, _legal_yellow, _apply_yellow, writes=ACTOR),
    FrameRule(11, "refresh_die", RefreshDie, _legal_refresh, _apply_refresh, writes=ACTOR),
    FrameRule(12, "adjust_die", AdjustDie, _legal_adjust, _apply_adjust, writes=ACTOR),
)
