"""Silver and Provisions: the two resources, gained as icons and paid as prices (rulebook p.6).

They are the only gains that can always be resolved, which the legality shortcuts rely on (an
action holding one always has a part to resolve).
"""

from __future__ import annotations

from wayfarers_env.content.effects import Atom
from wayfarers_env.rules.bag import PRICE_PROVISIONS, PRICE_SILVER
from wayfarers_env.rules.frames import ACTOR, BagContext
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.state import GameState


def _gain_silver(g: GameState, a: Atom, ctx: BagContext) -> None:
    g.players[g.current].silver += a.amount


def _gain_provisions(g: GameState, a: Atom, ctx: BagContext) -> None:
    g.players[g.current].provisions += a.amount


ICONS = (
    icon(
        "silver",
        amount=True,
        cost=True,
        resolve=_gain_silver,
        cost_leaf="pay_silver",
        price_slot=lambda a: PRICE_SILVER,
        rank=0,
        writes=ACTOR,
    ),
    icon(
        "provisions",
        amount=True,
        cost=True,
        aliases=("provision",),
        resolve=_gain_provisions,
        cost_leaf="pay_provisions",
        price_slot=lambda a: PRICE_PROVISIONS,
        rank=0,
        writes=ACTOR,
    ),
)
FRAMES = ()
