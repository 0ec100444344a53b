"""Pending decisions ("frames") on the engine's stack, and the helpers every rule module shares.

A frame is an immutable tuple ``(KIND, *params)``; the top frame is the decision being asked.
Each rule module registers, per kind, how to list its legal action ids and how to apply one.
Keeping frames as plain tuples makes ``clone()`` a shallow list copy and ``to_dict()`` exact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, Repeat, Seq

if TYPE_CHECKING:
    from wayfarers_env.rules.state import GameState

# frame kinds
TURN = 0
CHAIN = 1
DIE_SPACE = 2
YELLOW = 3
BAG = 4
GUILD_PICK = 5
INF_SOURCE = 6
CARD_INF = 7
MOVE_INF = 8
JOURNAL = 9
BLACK = 10
REFRESH = 11
ADJUST = 12
RETRIEVE = 13
ACQUIRE = 14
FEE = 15
DRAW_KEEP = 16
DRAW_ORDER = 17
TUCK = 18
SPACE_PLACE = 19
INSPIRE = 20
TILE_DESIGN = 21
TILE_PAY = 22
TILE_PLACE = 23
REST_REROLL = 24
WORKER_TARGET = 25

FRAME_NAMES = (
    "turn",
    "caravan_chain",
    "die_space",
    "trade_guild",
    "effect",
    "choose_guild",
    "influence_source",
    "card_influence",
    "move_influence",
    "journal",
    "science_guild",
    "refresh_die",
    "adjust_die",
    "retrieve_worker",
    "acquire_card",
    "influence_fee",
    "draw_keep",
    "draw_order",
    "tuck_townsfolk",
    "place_space_card",
    "place_inspiration",
    "tile_design",
    "tile_price",
    "tile_position",
    "rest_reroll",
    "worker_target",
)
NUM_FRAMES = len(FRAME_NAMES)

# where an effect bag came from (part of the bag's context, shown in observations)
SRC_DIE, SRC_WORKER, SRC_ACQUIRED, SRC_JOURNAL, SRC_REST, SRC_DISCARD = range(6)
SOURCE_NAMES = ("die space", "worker spot", "acquisition", "journal node", "resting", "inspiration discard")

# ctx of a bag: (source, silver discount, provision discount, spare pigeon)
NO_DIE = (SRC_ACQUIRED, 0, 0, 0)

LegalFn = Callable[["GameState", tuple], list[int]]
ApplyFn = Callable[["GameState", tuple, int], None]
SettleFn = Callable[["GameState", tuple], bool]

LEGAL: dict[int, LegalFn] = {}
APPLY: dict[int, ApplyFn] = {}
SETTLE: dict[int, SettleFn] = {}


def register(kind: int, legal: LegalFn, apply: ApplyFn, settle: SettleFn | None = None) -> None:
    LEGAL[kind] = legal
    APPLY[kind] = apply
    if settle is not None:
        SETTLE[kind] = settle


def flatten(node: Effect | None, out: list[Effect] | None = None) -> list[Effect]:
    """Bag items of an effect: sequences and repeats are opened up, the rest kept whole."""
    if out is None:
        out = []
    if node is None:
        return out
    if isinstance(node, Seq):
        for part in node.parts:
            flatten(part, out)
    elif isinstance(node, Repeat):
        for _ in range(node.count):
            flatten(node.body, out)
    else:
        out.append(node)
    return out


def push_bag(g: GameState, items: Iterable[Effect], ctx: tuple = NO_DIE) -> None:
    items = tuple(items)
    if items:
        g.stack.append((BAG, items, ctx))


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
