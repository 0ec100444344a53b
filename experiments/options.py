"""The options of a decision for people: numbered, in the game's words (``option_text``), with
the decision's title and what it is about.

``wayfarers_env.describe_action`` names an action the same way in every game ("choose upgrade
tile tile.basic1"): right for a policy's output unit, unreadable at the table.

Numbering is stable (issue 15: "guild abilities jump to the top"): the main options of a decision
come first in catalog order, the guild and Ink Well abilities after them, and declining or
skipping is always 0. ``describe`` also gives a short form, for the log of a turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from wayfarers_env import Game
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import SOURCE_NAMES, EffectBag

from . import describe as d
from .option_text import describe, plain

__all__ = ["Option", "context", "describe", "options", "ordered", "plain", "title"]


@dataclass(frozen=True)
class Option:
    key: int  # what the person types: 1.. for the main options, 0 to decline or skip
    action: int
    text: str  # the option in words
    short: str  # what it did, for a turn's log ("" when not worth a mention)


# ----------------------------------------------------------------------------- order and numbers


@lru_cache(maxsize=1)
def _sides() -> tuple[frozenset[int], frozenset[int], dict[int, int]]:
    """(abilities listed after the main options, answers numbered 0, section rank of every id)."""
    c = CATALOG
    side = frozenset({c.YELLOW, c.SHIP, c.INK_ASSETS, c.INK_CAPTURE, c.INK_RED, c.HOURGLASS_FILL})
    zero = frozenset({c.DONE, c.SKIP})
    rank: dict[int, int] = {}
    names: list[str] = []
    for name, start, stop, _meaning in c.sections:
        logical = name.removesuffix("_tides")
        if logical not in names:
            names.append(logical)
        for a in range(start, stop):
            rank[a] = names.index(logical)
    return side, zero, rank


def ordered(legal: list[int]) -> list[tuple[int, int]]:
    """(key, action) for each legal action: main options 1.. in catalog order, then abilities, 0 last."""
    side, zero, rank = _sides()
    main = sorted((a for a in legal if a not in side and a not in zero), key=lambda a: (rank[a], CATALOG.at[a]))
    extra = sorted((a for a in legal if a in side), key=lambda a: (rank[a], CATALOG.at[a]))
    out = [(k, a) for k, a in enumerate(main + extra, start=1)]
    out += [(0, a) for a in legal if a in zero]
    return out


def options(game: Game) -> list[Option]:
    """The legal actions of the current decision, numbered and described."""
    return [Option(key, a, *describe(game, a)) for key, a in ordered(game.legal_actions())]


# ----------------------------------------------------------------------------- the decision itself

TITLES = {
    "turn": "your main action",
    "caravan_chain": "turn the die along your caravan's arrows",
    "die_space": "where the die goes",
    "trade_guild": "Trade guild: change a die in supply by 1",
    "effect": "what to resolve next (every part is optional)",
    "choose_guild": "which guild takes the influence",
    "influence_source": "your supply is empty: where the influence comes from",
    "card_influence": "which market card takes your influence",
    "move_influence": "move 1 influence",
    "journal": "where your journal marker goes",
    "science_guild": "Science guild: journal once more?",
    "refresh_die": "which die to refresh",
    "adjust_die": "which die to change by 1",
    "retrieve_worker": "which worker to retrieve",
    "acquire_card": "which card to take",
    "influence_fee": "pay the influence fee",
    "draw_keep": "which drawn card to keep",
    "draw_order": "the order of the others at the bottom of the deck",
    "tuck_townsfolk": "where the Townsfolk goes",
    "place_space_card": "where the Space card goes",
    "place_inspiration": "where the Inspiration card goes",
    "tile_design": "which upgrade tile",
    "tile_price": "how to pay for the tile",
    "tile_position": "where the tile goes in your caravan (top-left cell)",
    "rest_reroll": "resting: reroll the dice you kept in supply?",
    "worker_target": "which card the worker goes on",
    "hourglass_saving": "which influence the hourglass saves",
    "payment": "how to pay",
    "employ_trader": "which trader to employ",
    "worker_tile_price": "how to pay for the worker tile",
    "worker_pair": "which pair of worker tiles",
    "worker_column": "which worker the tiles go under",
    "card_influence_paid": "which of your card influence pays",
    "capture_worker": "which worker to capture",
    "place_captured": "place a worker from your supply",
    "ai_wants": "ai wants",  # the AI's wish is said above the options (solo_text.wants)
}


def title(game: Game) -> str:
    kind, _frame = game.decision()
    return TITLES.get(kind, kind.replace("_", " "))


def context(game: Game) -> list[str]:
    """What the decision is about: the effect being resolved and what is left of it, the card in hand."""
    g = game.state
    if game.is_over:
        return []
    t = g.tables
    top = g.stack[-1]
    lines = []
    for frame in reversed(g.stack):
        if isinstance(frame, EffectBag):
            lines.append(f"resolving ({SOURCE_NAMES[frame.ctx.source]}): still to resolve {d.items_words(frame.items)}")
            break
    kind, _frame = game.decision()
    card = getattr(top, "card", None)
    if kind in ("tuck_townsfolk", "place_space_card", "place_inspiration") and isinstance(card, int) and card >= 0:
        lines.append("the card: " + d.card_words(t.cards[card]))
    if kind == "tile_position":
        price = t.content.tile_costs[t.designs[top.design].kind]
        lines.append("the tile: " + d.design_words(t.designs[top.design], price))
    return lines
