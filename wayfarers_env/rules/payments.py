"""Paying a price, and Tides of Trade's ways to pay it otherwise.

A price is a vector: Silver, Provisions, then influence per guild (``bag.PRICE_*``). The base game
pays it as printed. Tides of Trade adds two substitutions, each once per turn:

- the Red guild's ability (ToT l.88): "spend 1 Red Influence in place of spending 1 Influence of
  a different colour (only once!)", even with none of that colour;
- the Ink Well's first two abilities (ToT l.116-117): 1 card influence from the Ink Well with 1
  Silver to spend 1 fewer Provision, or with 1 Provision to spend 1 fewer Silver (one Ink Well
  ability a turn, and none under the "cards" card-influence setting).

Readings (TIDES-QUESTIONS 8 and 12, docs/ARCHITECTURE.md): both apply to any price a player
*spends* (guild abilities, journal splotches, upgrade tiles, card prices, costs of effects, the
draw-3 Provision), never to an influence fee (paid to a player, not spent). A price that can be
paid in more than one way asks the player which (the ``payment`` decision); one way is paid at once.

The decision comes after everything else the paying action does, so a caller charges *last*
(``charge``): the frame it may push is then the next decision, before anything the action left
pending. ``then`` names what the action still needs once paid (a fee: 1 Silver or 1 Provision
left), so that no way offered strands it.
"""

from __future__ import annotations

from typing import NamedTuple

from wayfarers_env.rules.actions import CATALOG, WAYS
from wayfarers_env.rules.frames import ACTOR, BOARD, EVERYTHING, RULES, FrameRule
from wayfarers_env.rules.state import GameState, PlayerState
from wayfarers_env.vocabulary import BASE_GUILDS, GUILDS, RED

SILVER, PROVISIONS, GUILD = 0, 1, 2  # the price vector's layout (bag.PRICE_*)
RED_AT = GUILD + RED
CARD = GUILD + len(GUILDS)  # card influence: from the Ink Well or one of the player's cards on the market

AS_PRINTED = 0
WAY_INDEX = {way: i for i, way in enumerate(WAYS)}

# what the paying action still needs afterwards
NOTHING_AFTER, FEE_AFTER = 0, 1


class CardInfluencePaid(NamedTuple):
    """Which of the player's card influence tokens pays (the Ink Well's or one on a face-up card),
    ``left`` more to go. ToT "Worker Upgrade Tile Effects": "Card Influence for this left Tile can
    be removed from the Ink Well or from a Card"."""

    left: int


class Payment(NamedTuple):
    """A price that can be paid in more than one way: which one."""

    need: tuple[int, ...]
    then: int  # NOTHING_AFTER or FEE_AFTER


def red_open(g: GameState) -> bool:
    """The Red guild's ability can still be used this turn."""
    return g.config.tides_of_trade and not g.guild_used[RED]


def ink_open(g: GameState, p: PlayerState) -> bool:
    """An Ink Well ability can still be used this turn, with a token there to spend."""
    return g.config.tides_of_trade and not g.ink_used and p.ink > 0 and g.config.card_influence != "cards"


def ink_cost(g: GameState, ability: str) -> int:
    """Card influence an Ink Well ability spends (content: tides.toml [ink_well])."""
    tides = g.tables.content.tides
    assert tides is not None
    return tides.ink_well[ability]


def spend_ink(g: GameState, n: int) -> None:
    """Spend ``n`` card influence from the Ink Well (back to the supply): this turn's Ink Well ability."""
    p = g.players[g.current]
    p.ink -= n
    p.supply += n
    g.ink_used = True


def _adjusted(need: tuple[int, ...], red_for: int, ink: int) -> list[int] | None:
    """The price paid this way, or None when the way does not apply to it."""
    out = list(need)
    if red_for >= 0:
        if not out[GUILD + red_for]:
            return None
        out[GUILD + red_for] -= 1
        out[RED_AT] += 1
    if ink == 1:
        if not out[PROVISIONS]:
            return None
        out[PROVISIONS] -= 1
        out[SILVER] += 1
    elif ink == 2:
        if not out[SILVER]:
            return None
        out[SILVER] -= 1
        out[PROVISIONS] += 1
    return out


def _has(g: GameState, p: PlayerState, need: list[int] | tuple[int, ...], then: int) -> bool:
    silver, provisions = p.silver - need[SILVER], p.provisions - need[PROVISIONS]
    if silver < 0 or provisions < 0:
        return False
    guild = p.guild
    for k in range(len(guild)):
        if guild[k] < need[GUILD + k]:
            return False
    if need[CARD] and need[CARD] > p.ink + g.market_inf.count(g.current):
        return False
    return then != FEE_AFTER or silver > 0 or provisions > 0


def ways(g: GameState, need: tuple[int, ...], then: int = NOTHING_AFTER) -> list[int]:
    """The ways (indices of WAYS) the current player can pay ``need`` now."""
    p = g.players[g.current]
    out = [AS_PRINTED] if _has(g, p, need, then) else []
    return out + _other_ways(g, p, need, then)


def _other_ways(g: GameState, p: PlayerState, need: tuple[int, ...], then: int) -> list[int]:
    """The ways other than as printed that apply to ``need`` and that the player can pay, in WAYS
    order. Only the colours the price names can take the red stand-in, only a price in Provisions
    (Silver) the Ink Well's swap for Silver (a Provision): most prices need no trial at all."""
    if not g.config.tides_of_trade:  # the base game pays as printed only
        return []
    reds = [-1]
    if red_open(g) and p.guild[RED] > need[RED_AT]:
        reds += [k for k in range(len(BASE_GUILDS)) if need[GUILD + k]]
    swaps = [0]
    if ink_open(g, p):
        if need[PROVISIONS]:
            swaps.append(1)
        if need[SILVER]:
            swaps.append(2)
    out: list[int] = []
    if len(reds) == 1 and len(swaps) == 1:
        return out
    for red_for in reds:
        for swap in swaps:
            if red_for < 0 and not swap:
                continue
            adjusted = _adjusted(need, red_for, swap)
            if adjusted is not None and _has(g, p, adjusted, then):
                out.append(WAY_INDEX[red_for, swap])
    return out


def payable(g: GameState, need: tuple[int, ...], then: int = NOTHING_AFTER) -> bool:
    p = g.players[g.current]
    return _has(g, p, need, then) or bool(_other_ways(g, p, need, then))


def charge(g: GameState, need: tuple[int, ...], then: int = NOTHING_AFTER) -> None:
    """Pay ``need``: at once when there is one way, else by asking (call it last, see above)."""
    options = ways(g, need, then)
    if len(options) == 1:
        pay_way(g, need, options[0])
    else:
        assert options, f"charged a price that cannot be paid: {need}"
        g.stack.append(Payment(tuple(need), then))


def pay_way(g: GameState, need: tuple[int, ...], way: int, trial: bool = False) -> None:
    """Silver and Provisions to the bank, influence (Ink Well tokens too) back to the supply. A
    ``trial`` payment (to see what would then resolve) leaves the card influence where it is."""
    p = g.players[g.current]
    red_for, swap = WAYS[way]
    paid = _adjusted(need, red_for, swap) if way else need
    assert paid is not None
    p.silver -= paid[SILVER]
    p.provisions -= paid[PROVISIONS]
    guild = p.guild
    for k in range(len(guild)):
        n = paid[GUILD + k]
        if n:
            guild[k] -= n
            p.supply += n
    if red_for >= 0:
        g.guild_used[RED] = True
    if swap:
        g.ink_used = True
        p.ink -= 1
        p.supply += 1
    if paid[CARD] and not trial:
        _pay_card_influence(g, p, paid[CARD])


def _pay_card_influence(g: GameState, p: PlayerState, n: int) -> None:
    """From the Ink Well or the player's cards: asked when both hold a token, else taken."""
    on_cards = [i for i, owner in enumerate(g.market_inf) if owner == g.current]
    if p.ink and on_cards:
        g.stack.append(CardInfluencePaid(n))
        return
    p.supply += n
    if p.ink:
        p.ink -= n
    else:
        for i in on_cards[:n]:
            g.market_inf[i] = -1


def _legal_card(g: GameState, frame: CardInfluencePaid) -> list[int]:
    out = [CATALOG.CARD[i] for i, owner in enumerate(g.market_inf) if owner == g.current]
    if g.players[g.current].ink:
        out.append(CATALOG.INK_WELL)
    return out


def _apply_card(g: GameState, frame: CardInfluencePaid, action: int) -> None:
    g.stack.pop()
    p = g.players[g.current]
    p.supply += 1
    if action == CATALOG.INK_WELL:
        p.ink -= 1
    else:
        g.market_inf[CATALOG.at[action]] = -1
    if frame.left > 1:
        _pay_card_influence(g, p, frame.left - 1)


def _legal(g: GameState, frame: Payment) -> list[int]:
    options = ways(g, frame.need, frame.then)
    if len(options) > 1:  # found by the expansion fuzz: red paying for the Science guild's black
        options = [w for w in options if _leads_on(g, frame, w)] or options  # left none for the splotch after it
    return [CATALOG.PAYMENT[w] for w in options]


def _leads_on(g: GameState, frame: Payment, way: int) -> bool:
    """Paying this way leaves the decision that waits under the payment something to do: each way
    spends a different once-a-turn ability or colour, which what follows may need. Tried in place
    (``frame`` is the top of the stack): the payment is taken off, paid, and everything paying can
    change is put back afterwards, with no die-space answer found meanwhile kept (a copy of the
    whole game cost a hundred times more)."""
    p = g.players[g.current]
    stack = g.stack
    top = stack.pop()
    depth, memo = len(stack), g.space_memo
    saved = (p.silver, p.provisions, p.guild[:], p.supply, p.ink, g.guild_used[:], g.ink_used, g.market_inf[:])
    g.space_memo = {}
    try:
        pay_way(g, frame.need, way)
        return decision_open(g)
    finally:
        del stack[depth:]
        stack.append(top)
        p.silver, p.provisions, p.guild[:], p.supply, p.ink = saved[0], saved[1], saved[2], saved[3], saved[4]
        g.guild_used[:], g.ink_used, g.market_inf[:] = saved[5], saved[6], saved[7]
        g.space_memo = memo


def decision_open(g: GameState) -> bool:
    """The decision on top of the stack has a legal action (a payment one that leads on)."""
    if not g.stack:
        return True
    top = g.stack[-1]
    if type(top) is Payment:
        return any(_leads_on(g, top, w) for w in ways(g, top.need, top.then))
    rule = RULES[type(top)]
    return rule.settle is not None or bool(rule.legal(g, top))


def _apply(g: GameState, frame: Payment, action: int) -> None:
    g.stack.pop()
    pay_way(g, frame.need, CATALOG.at[action])


ICONS = ()
FRAMES = (
    FrameRule(27, "payment", Payment, _legal, _apply, writes=EVERYTHING),  # EVERYTHING: card influence on the market
    FrameRule(33, "card_influence_paid", CardInfluencePaid, _legal_card, _apply_card, writes=ACTOR | BOARD),
)
