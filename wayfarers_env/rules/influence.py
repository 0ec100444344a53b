"""Influence: placing it in guilds and on face-up cards, moving it, spending it.

Rulebook p.6: placing takes a token from the player's supply; with an empty supply the player
may instead move one of their tokens from a card or a guild. Moving (the swap icon) goes from
one guild to a different guild. Spending returns tokens from a guild to the supply.
"""

from __future__ import annotations

from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import CARD_INF, GUILD_PICK, INF_SOURCE, MOVE_INF, register
from wayfarers_env.rules.state import GameState

MOVES = [(a, b) for a in range(3) for b in range(3) if a != b]


def has_tokens_elsewhere(g: GameState, seat: int, not_guild: int = -1) -> bool:
    """Can the empty-supply rule find a token to move (excluding a target guild)?"""
    p = g.players[seat]
    if any(p.guild[k] for k in range(3) if k != not_guild):
        return True
    return seat in g.market_inf


def can_place_guild(g: GameState, seat: int, guild: int) -> bool:
    return g.players[seat].supply > 0 or has_tokens_elsewhere(g, seat, guild)


def can_place_any_guild(g: GameState, seat: int) -> bool:
    p = g.players[seat]
    return p.supply > 0 or any(p.guild) or seat in g.market_inf


def free_cards(g: GameState) -> list[int]:
    return [i for i in range(20) if g.market[i] >= 0 and g.market_inf[i] < 0]


def can_place_card(g: GameState, seat: int) -> bool:
    p = g.players[seat]
    if not (p.supply > 0 or any(p.guild) or seat in g.market_inf):
        return False
    market, inf = g.market, g.market_inf
    return any(market[i] >= 0 and inf[i] < 0 for i in range(20))


def can_move(g: GameState, seat: int) -> bool:
    return any(g.players[seat].guild)


def place_in_guild(g: GameState, guild: int) -> None:
    p = g.players[g.current]
    if p.supply > 0:
        p.supply -= 1
        p.guild[guild] += 1
    else:
        g.stack.append((INF_SOURCE, 0, guild))


def spend(g: GameState, guild: int, count: int = 1) -> None:
    p = g.players[g.current]
    if p.guild[guild] < count:
        raise AssertionError("spend without enough influence")  # guarded by legality checks
    p.guild[guild] -= count
    p.supply += count


# --- choose a guild for an any-guild influence
def _legal_pick(g: GameState, frame: tuple) -> list[int]:
    return [CATALOG.GUILD[k] for k in range(3) if can_place_guild(g, g.current, k)]


def _apply_pick(g: GameState, frame: tuple, action: int) -> None:
    g.stack.pop()
    place_in_guild(g, action - CATALOG.GUILD[0])


# --- empty supply: where the moved token comes from. frame: (INF_SOURCE, target_kind, target)
def _legal_source(g: GameState, frame: tuple) -> list[int]:
    _, kind, target = frame
    p = g.players[g.current]
    out = [CATALOG.FROM_GUILD[k] for k in range(3) if p.guild[k] > 0 and not (kind == 0 and k == target)]
    out += [CATALOG.CARD[i] for i in range(20) if g.market_inf[i] == g.current and not (kind == 1 and i == target)]
    out.append(CATALOG.SKIP)
    return out


def _apply_source(g: GameState, frame: tuple, action: int) -> None:
    _, kind, target = frame
    g.stack.pop()
    if action == CATALOG.SKIP:
        return
    p = g.players[g.current]
    if action in CATALOG.FROM_GUILD:
        p.guild[action - CATALOG.FROM_GUILD[0]] -= 1
    else:
        g.market_inf[action - CATALOG.CARD[0]] = -1
        g.board_ver += 1
    if kind == 0:
        p.guild[target] += 1
    else:
        g.market_inf[target] = g.current
        g.board_ver += 1


# --- influence on a face-up card
def _legal_card(g: GameState, frame: tuple) -> list[int]:
    return [CATALOG.CARD[i] for i in free_cards(g)]


def _apply_card(g: GameState, frame: tuple, action: int) -> None:
    g.stack.pop()
    i = action - CATALOG.CARD[0]
    p = g.players[g.current]
    if p.supply > 0:
        p.supply -= 1
        g.market_inf[i] = g.current
        g.board_ver += 1
    else:
        g.stack.append((INF_SOURCE, 1, i))


# --- move influence between guilds
def _legal_move(g: GameState, frame: tuple) -> list[int]:
    p = g.players[g.current]
    return [CATALOG.MOVE[k] for k, (a, _b) in enumerate(MOVES) if p.guild[a] > 0]


def _apply_move(g: GameState, frame: tuple, action: int) -> None:
    g.stack.pop()
    a, b = MOVES[action - CATALOG.MOVE[0]]
    p = g.players[g.current]
    p.guild[a] -= 1
    p.guild[b] += 1


register(GUILD_PICK, _legal_pick, _apply_pick)
register(INF_SOURCE, _legal_source, _apply_source)
register(CARD_INF, _legal_card, _apply_card)
register(MOVE_INF, _legal_move, _apply_move)
