"""Influence: placing it in guilds and on face-up cards, moving it, spending it, and the fee an
opponent's influence on a card asks for.

Rulebook p.6: placing takes a token from the player's supply; with an empty supply the player
may instead move one of their tokens from a card or a guild. Moving (the swap icon) goes from
one guild to a different guild. Spending returns tokens from a guild to the supply. Rulebook
p.11: interacting with a card that holds another player's influence (taking it, placing a worker
on it or retrieving one from it) costs that player 1 Silver or 1 Provision first.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from wayfarers_env.content.effects import Atom
from wayfarers_env.rules.actions import CATALOG, MOVES
from wayfarers_env.rules.bag import PRICE_CARD, PRICE_GUILD
from wayfarers_env.rules.frames import ACTOR, BOARD, LOADED_FROM, NOTHING, BagContext, FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.state import GameState, PlayerState
from wayfarers_env.vocabulary import ANY_GUILD, BASE_GUILDS, GUILD_INDEX, GUILDS, RED

# ------------------------------------------------------------------------ frames


class ChooseGuild(NamedTuple):
    """Which guild an any-guild influence goes to."""


class InfluenceSource(NamedTuple):
    """Empty supply: which placed token (in a guild or on a card) moves to the target instead."""

    on_card: int  # 0: the target is a guild, 1: a face-up card, 2: the Ink Well (Tides of Trade)
    target: int  # guild index or market slot (0 for the Ink Well)


class CardInfluence(NamedTuple):
    """Which face-up card receives an influence token."""


class MoveInfluence(NamedTuple):
    """From which guild to which other guild one token moves."""


class Fee(NamedTuple):
    """Pay ``owner`` 1 Silver or 1 Provision before ``then`` happens (a record with a ``finish``
    method, declared by the module whose action needs the fee: taking a card, placing or
    retrieving a worker)."""

    owner: int
    then: Any

    @classmethod
    def load(cls, owner: int, then: tuple) -> Fee:
        """``then`` is saved as [name, *fields] (see frames.SAVED_AS)."""
        return cls(owner, LOADED_FROM[then[0]](*then[1:]))


# ------------------------------------------------------------------------ queries


def has_tokens_elsewhere(g: GameState, seat: int, not_guild: int = -1) -> bool:
    """Can the empty-supply rule find a token to move (excluding a target guild)?"""
    p = g.players[seat]
    if any(p.guild[k] for k in range(len(p.guild)) if k != not_guild):
        return True
    return seat in g.market_inf


def can_place_guild(g: GameState, seat: int, guild: int) -> bool:
    return g.players[seat].supply > 0 or has_tokens_elsewhere(g, seat, guild)


def can_place_any_guild(g: GameState, seat: int) -> bool:
    p = g.players[seat]
    return p.supply > 0 or any(p.guild) or seat in g.market_inf


def free_cards(g: GameState) -> list[int]:
    """Market slots holding a card with nobody's influence on it."""
    market, inf = g.market, g.market_inf
    return [i for i in range(len(market)) if market[i] >= 0 and inf[i] < 0]


def cards_take_influence(g: GameState) -> bool:
    """Card influence may go on cards: always in the base game; with Tides of Trade unless its
    "just the new rules" setting (card_influence="ink_well") is chosen."""
    return not g.config.tides_of_trade or g.config.card_influence != "ink_well"


def ink_well_takes_influence(g: GameState) -> bool:
    """Tides of Trade: card influence may go on the Ink Well instead (settings "both" and "ink_well")."""
    return g.config.tides_of_trade and g.config.card_influence != "cards"


def can_place_card(g: GameState, seat: int) -> bool:
    """A card influence can be placed: a token to place, and a free card or the Ink Well to take it."""
    p = g.players[seat]
    if not (p.supply > 0 or any(p.guild) or seat in g.market_inf):
        return False
    if ink_well_takes_influence(g):
        return True  # the Ink Well holds any number of tokens (ToT: no limit is stated)
    if not cards_take_influence(g):
        return False
    market, inf = g.market, g.market_inf
    for i in range(len(market)):
        if market[i] >= 0 and inf[i] < 0:
            return True
    return False


def can_move(g: GameState, seat: int) -> bool:
    """Some influence to move: from Black, Yellow or Blue only (Tides of Trade: never from Red)."""
    guild = g.players[seat].guild
    for k in range(len(BASE_GUILDS)):
        if guild[k]:
            return True
    return False


def fee_owner(g: GameState, i: int) -> int:
    """The opponent to pay before interacting with market card i, or -1."""
    owner = g.market_inf[i]
    return owner if owner >= 0 and owner != g.current else -1


def can_pay_fee(p: PlayerState, silver_reserved: int = 0) -> bool:
    return p.silver - silver_reserved >= 1 or p.provisions >= 1


# ------------------------------------------------------------------------ placing


def place_in_guild(g: GameState, guild: int) -> None:
    p = g.players[g.current]
    if p.supply > 0:
        p.supply -= 1
        p.guild[guild] += 1
    else:
        g.stack.append(InfluenceSource(0, guild))


def _legal_pick(g: GameState, frame: ChooseGuild) -> list[int]:
    return [CATALOG.GUILD[k] for k in range(len(BASE_GUILDS)) if can_place_guild(g, g.current, k)]


def _apply_pick(g: GameState, frame: ChooseGuild, action: int) -> None:
    g.stack.pop()
    place_in_guild(g, CATALOG.at[action])


def _legal_source(g: GameState, frame: InfluenceSource) -> list[int]:
    p = g.players[g.current]
    to_guild = frame.on_card == 0
    out = [CATALOG.FROM_GUILD[k] for k in range(len(GUILDS)) if p.guild[k] > 0 and not (to_guild and k == frame.target)]
    inf = g.market_inf
    out += [CATALOG.CARD[i] for i in range(len(inf)) if inf[i] == g.current and not (not to_guild and i == frame.target)]
    out.append(CATALOG.SKIP)
    out.sort()  # a red source lies in the catalog's expansion block
    return out


def _apply_source(g: GameState, frame: InfluenceSource, action: int) -> None:
    g.stack.pop()
    if action == CATALOG.SKIP:
        return
    p = g.players[g.current]
    if action in CATALOG.FROM_GUILD:
        p.guild[CATALOG.at[action]] -= 1
    else:
        g.market_inf[CATALOG.at[action]] = -1
    if frame.on_card == 0:
        p.guild[frame.target] += 1
    elif frame.on_card == 1:
        g.market_inf[frame.target] = g.current
    else:
        p.ink += 1


def _legal_card(g: GameState, frame: CardInfluence) -> list[int]:
    out = [CATALOG.CARD[i] for i in free_cards(g)] if cards_take_influence(g) else []
    if ink_well_takes_influence(g):
        out.append(CATALOG.INK_WELL)
    return out


def _apply_card(g: GameState, frame: CardInfluence, action: int) -> None:
    g.stack.pop()
    p = g.players[g.current]
    if action == CATALOG.INK_WELL:  # Tides of Trade: "place it on the large black Ink Well illustration"
        if p.supply > 0:
            p.supply -= 1
            p.ink += 1
        else:
            g.stack.append(InfluenceSource(2, 0))
        return
    i = CATALOG.at[action]
    if p.supply > 0:
        p.supply -= 1
        g.market_inf[i] = g.current
    else:
        g.stack.append(InfluenceSource(1, i))


def _legal_move(g: GameState, frame: MoveInfluence) -> list[int]:
    p = g.players[g.current]
    red = g.config.tides_of_trade  # moving into Red is the expansion's ("including to Red")
    return [CATALOG.MOVE[k] for k, (a, b) in enumerate(MOVES) if p.guild[a] > 0 and (b != RED or red)]


def _apply_move(g: GameState, frame: MoveInfluence, action: int) -> None:
    g.stack.pop()
    a, b = MOVES[CATALOG.at[action]]
    p = g.players[g.current]
    p.guild[a] -= 1
    p.guild[b] += 1


# ------------------------------------------------------------------------ the fee


def _legal_fee(g: GameState, frame: Fee) -> list[int]:
    p = g.players[g.current]
    out = []
    if p.silver >= 1:
        out.append(CATALOG.FEE[0])
    if p.provisions >= 1:
        out.append(CATALOG.FEE[1])
    return out


def _apply_fee(g: GameState, frame: Fee, action: int) -> None:
    p, o = g.players[g.current], g.players[frame.owner]
    to_ai = g.solo is not None  # the solo AI takes no coin: its marker moves instead (rulebook, solo influence)
    if action == CATALOG.FEE[0]:
        p.silver -= 1
        o.silver += not to_ai
    else:
        p.provisions -= 1
        o.provisions += not to_ai
    if to_ai:
        from wayfarers_env.rules.solo import pay_ai  # the solo module imports this one

        pay_ai(g)
    g.stack.pop()
    frame.then.finish(g)


# ------------------------------------------------------------------------ icons


def _can_guild(g: GameState, a: Atom, ctx: BagContext) -> bool:
    arg = a.args[0]
    if arg == ANY_GUILD:
        return can_place_any_guild(g, g.current)
    return can_place_guild(g, g.current, GUILD_INDEX[arg])


def _resolve_guild(g: GameState, a: Atom, ctx: BagContext) -> None:
    if a.args[0] == ANY_GUILD:
        g.stack.append(ChooseGuild())
    else:
        place_in_guild(g, GUILD_INDEX[a.args[0]])


ICONS = (
    icon(
        "guild",
        args=((*GUILDS, ANY_GUILD),),
        arg_required=True,
        can=_can_guild,
        resolve=_resolve_guild,
        keyed="guild",
        expansion_args=(GUILDS[RED],),
        rank=1,
        writes=ACTOR,
    ),
    icon(
        "card_influence",
        can=lambda g, a, ctx: can_place_card(g, g.current),
        resolve=lambda g, a, ctx: g.stack.append(CardInfluence()),
        rank=3,
        writes=NOTHING,
    ),
    icon(
        "move_influence",
        can=lambda g, a, ctx: can_move(g, g.current),
        resolve=lambda g, a, ctx: g.stack.append(MoveInfluence()),
        rank=1,
        writes=NOTHING,
    ),
    # Tides of Trade: a price paid with one of your card influence tokens, from the Ink Well or a card
    icon(
        "spend_card_influence",
        cost=True,
        expansion=True,
        cost_leaf="pay_card_influence",
        price_slot=lambda a: PRICE_CARD,
    ),
    icon(
        "spend",
        args=(GUILDS,),
        arg_required=True,
        cost=True,
        keyed="spend",
        cost_leaf="pay_influence",
        price_slot=lambda a: PRICE_GUILD + GUILD_INDEX[a.args[0]],
    ),
)

FRAMES = (
    FrameRule(5, "choose_guild", ChooseGuild, _legal_pick, _apply_pick, writes=ACTOR),
    FrameRule(6, "influence_source", InfluenceSource, _legal_source, _apply_source, writes=ACTOR | BOARD),
    FrameRule(7, "card_influence", CardInfluence, _legal_card, _apply_card, writes=ACTOR | BOARD),
    FrameRule(8, "move_influence", MoveInfluence, _legal_move, _apply_move, writes=ACTOR),
    FrameRule(15, "influence_fee", Fee, _legal_fee, _apply_fee),  # pays another seat, then anything
)
