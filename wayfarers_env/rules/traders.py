"""Tides of Trade's traders (ToT "Employing a Trader"): employing one, the Market on the player-board
extension that holds it, and its return after resting.

"Any time players gain the ability to Employ a Trader, they may select 1 Trader Tile from those
currently available on the Main Board Extensions. After selecting a Trader Tile, players must pay
any costs before resolving any other effects. After resolving all effects, the Trader Tile must be
placed onto the player's Market. If they already had a Trader Tile there, that Tile must
immediately be returned." Readings (TIDES-QUESTIONS 1, 3-6; docs/ARCHITECTURE.md): the side a
trader shows is the side of the main-board extension holding its space; its cost pays for
whichever of its options is taken; it is offered only when its cost can be paid and something then
resolves; its effects resolve in any order, with the die's discounts when the die space of the
extension employed it.
"""

from __future__ import annotations

from typing import NamedTuple

from wayfarers_env.content.effects import Atom, Cost, Effect, flatten
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import price_need, push_bag, resolvable
from wayfarers_env.rules.frames import ACTOR, BOARD, NOTHING, BagContext, FrameRule
from wayfarers_env.rules.icons import icon
from wayfarers_env.rules.payments import charge
from wayfarers_env.rules.state import GameState


class ChooseTrader(NamedTuple):
    """Which waiting trader to employ."""

    ctx: BagContext  # the effect's context: the die's discounts when a die employed it

    @classmethod
    def load(cls, ctx: tuple) -> ChooseTrader:
        return cls(BagContext(*ctx))


class TraderArrives(NamedTuple):
    """Once the trader's effects are over, it goes onto the Market (never asked: it settles)."""

    trader: int


def side(g: GameState, k: int) -> Effect:
    """The effect trader ``k`` shows in this game."""
    tides = g.tables.content.tides
    assert tides is not None
    tr = tides.traders[k]
    return tr.sides[g.ext_sides[tr.extension - 1]]


def _parts(effect: Effect) -> tuple[Effect | None, Effect]:
    """(the cost, or None; what it then gives)."""
    if isinstance(effect, Cost):
        return effect.cost, effect.gain
    return None, effect


def employable(g: GameState, ctx: BagContext) -> list[int]:
    """Traders waiting on the extensions whose cost can be paid and whose effects then do something."""
    waiting = g.traders
    return [k for k, effect in _shown(g) if waiting[k] and resolvable(g, effect, ctx)]


_SHOWN: dict[tuple[int, tuple[int, ...]], tuple[object, tuple[tuple[int, Effect], ...], tuple[tuple[int, Effect], ...]]] = {}


def _sides(g: GameState) -> tuple[tuple[tuple[int, Effect], ...], tuple[tuple[int, Effect], ...]]:
    """(trader, the side it shows) in trader order, and again with those without a cost first: the
    likeliest to be employable and the cheapest to check. Per content and extension sides, computed
    once: the trader icon is asked at every placement on the extension's die space."""
    key = (id(g.tables), g.ext_sides)
    hit = _SHOWN.get(key)
    if hit is None or hit[0] is not g.tables:
        shown = tuple((k, side(g, k)) for k in range(len(g.traders)))
        cheap = tuple(sorted(shown, key=lambda ks: isinstance(ks[1], Cost)))
        hit = _SHOWN[key] = (g.tables, shown, cheap)
    return hit[1], hit[2]


def _shown(g: GameState) -> tuple[tuple[int, Effect], ...]:
    return _sides(g)[0]


def _legal(g: GameState, frame: ChooseTrader) -> list[int]:
    return [CATALOG.EMPLOY[k] for k in employable(g, frame.ctx)]


def _apply(g: GameState, frame: ChooseTrader, action: int) -> None:
    g.stack.pop()
    k = CATALOG.at[action]
    g.traders[k] -= 1
    g.stack.append(TraderArrives(k))
    cost, gain = _parts(side(g, k))
    push_bag(g, flatten(gain), frame.ctx)
    if cost is not None:
        charge(g, price_need(cost))  # last: "players must pay any costs before resolving any other effects"


def _settle_arrival(g: GameState, frame: TraderArrives) -> bool:
    g.stack.pop()
    p = g.players[g.current]
    if p.trader >= 0:
        send_back(g, p.trader)
    p.trader = frame.trader
    return True


def return_trader(g: GameState) -> None:
    """ToT "Important Rule: After resting, players must always return any Trader Tile from their
    Market, back to the matching space of the Main Board Extensions"."""
    p = g.players[g.current]
    if p.trader >= 0:
        send_back(g, p.trader)
        p.trader = -1


def send_back(g: GameState, k: int) -> None:
    """A trader leaves a Market for its space on the main-board extensions. In a solo game it waits
    below them instead, out of play, until a second one joins it and both return (ToT "Solo Play":
    "Once there are 2 Trader Tiles below the Main Board Extensions, immediately return all those")."""
    solo = g.solo
    if solo is None:
        g.traders[k] += 1
        return
    solo.traders_below.append(k)
    if len(solo.traders_below) >= 2:
        for x in solo.traders_below:
            g.traders[x] += 1
        solo.traders_below = []


def _can(g: GameState, a: Atom, ctx: BagContext) -> bool:
    waiting = g.traders
    for k, effect in _sides(g)[1]:  # a plain loop: this runs at every placement on the extension's space
        if waiting[k] and resolvable(g, effect, ctx):
            return True
    return False


ICONS = (
    icon(
        "trader",
        can=_can,
        resolve=lambda g, a, ctx: g.stack.append(ChooseTrader(ctx)),
        rank=5,  # up to four traders' costs and effects: checked after cheaper parts
        expansion=True,
        writes=NOTHING,
    ),
)
FRAMES = (
    FrameRule(28, "employ_trader", ChooseTrader, _legal, _apply, writes=ACTOR | BOARD),
    FrameRule(29, "trader_arrives", TraderArrives, lambda g, f: [], lambda g, f, a: None, _settle_arrival, settle_writes=ACTOR | BOARD),
)
