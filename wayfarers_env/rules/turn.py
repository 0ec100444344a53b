"""A player's turn (rulebook p.14): one main action — place a die, place a worker, or rest — and
the Trade guild before it; resting's rerolls and abilities (rulebook p.17).

The turn's end (market refill, per-turn flags, the end-game countdown) is the engine's, in one
place: ``rules/engine.py``'s ``end_turn``.
"""

from __future__ import annotations

from typing import NamedTuple

from wayfarers_env.content.effects import Effect, flatten
from wayfarers_env.rules import dice
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import push_bag
from wayfarers_env.rules.frames import ACTOR, BOARD, FROM_REST, NOTHING, FrameRule
from wayfarers_env.rules.influence import can_place_guild, place_in_guild
from wayfarers_env.rules.payments import ink_cost, ink_open, spend_ink
from wayfarers_env.rules.state import SUPPLY, GameState
from wayfarers_env.rules.traders import return_trader
from wayfarers_env.rules.workers import Capture, WorkerTarget, can_capture, has_worker_target
from wayfarers_env.vocabulary import RED


class Turn(NamedTuple):
    """The main action: a die (by face), a worker (by colour), rest, or the Trade guild first."""


class RestReroll(NamedTuple):
    """Resting: reroll a die that stayed in supply (one decision per die), or stop."""

    dice: tuple[int, ...]


TURN = Turn()  # frames without fields are all alike: one shared record


def _legal_turn(g: GameState, frame: Turn) -> list[int]:
    p = g.players[g.current]
    out = [CATALOG.DIE[f - 1] for f in dice.die_choices(g, p)]
    for colour in range(len(p.workers)):
        if p.workers[colour] > 0 and has_worker_target(g, colour):
            out.append(CATALOG.WORKER[colour])
    out.append(CATALOG.REST)
    if dice.yellow_available(g, p) and SUPPLY in p.dice_loc:
        out.append(CATALOG.YELLOW)
    if ink_open(g, p) and p.ink >= ink_cost(g, "capture_or_red"):  # Tides of Trade: the Ink Well's fourth ability
        if can_capture(g):
            out.append(CATALOG.INK_CAPTURE)
        if can_place_guild(g, g.current, RED):
            out.append(CATALOG.INK_RED)
    return out


def _apply_turn(g: GameState, frame: Turn, action: int) -> None:
    if action == CATALOG.YELLOW:
        dice.use_yellow_at_turn_start(g)
        return
    if action == CATALOG.INK_CAPTURE:  # ToT l.119 "Capture 1 Worker": the capture alone (TIDES-QUESTIONS 11)
        spend_ink(g, ink_cost(g, "capture_or_red"))
        g.stack.append(Capture(False))
        return
    if action == CATALOG.INK_RED:
        spend_ink(g, ink_cost(g, "capture_or_red"))
        place_in_guild(g, RED)
        return
    g.stack.pop()
    if action == CATALOG.REST:
        rest(g)
    elif action in CATALOG.WORKER:
        g.stack.append(WorkerTarget(CATALOG.at[action]))
    else:
        dice.pick_die(g, CATALOG.at[action] + 1)


def _turn_writes(action: int) -> int:
    """Picking a die or a worker colour only opens a decision; the Trade guild marks itself used."""
    if action == CATALOG.YELLOW or action == CATALOG.INK_RED or action == CATALOG.INK_CAPTURE:
        return ACTOR | BOARD
    if action == CATALOG.REST:
        return ACTOR | BOARD  # BOARD: a trader goes back to the main-board extension
    return NOTHING


def rest(g: GameState) -> None:
    """Rulebook p.17: count supply dice; return and roll all dice; then resting abilities."""
    t = g.tables
    p = g.players[g.current]
    dice_count = len(p.dice_loc)
    in_supply = [d for d in range(dice_count) if p.dice_loc[d] == SUPPLY]
    eligible = len(in_supply) <= 1
    for d in range(dice_count):
        if p.dice_loc[d] >= 0:
            p.dice_loc[d] = SUPPLY
            p.dice_face[d] = g.rng.randint(1, 6)
    if eligible:
        items: list[Effect] = flatten(t.cards[t.capital_townsfolk].resting)
        for host in p.water:
            folk = p.tucked.get(host)
            if folk is not None and folk not in p.acquired and t.cards[folk].resting is not None:
                flatten(t.cards[folk].resting, items)
        # Tides of Trade: an Overseer under the Market rests "so long as they have a Trader Tile on
        # their Market at that time" (ToT l.150)
        overseer = p.overseer
        if overseer >= 0 and p.trader >= 0 and overseer not in p.acquired and t.cards[overseer].resting is not None:
            flatten(t.cards[overseer].resting, items)
        push_bag(g, items, FROM_REST)
    return_trader(g)
    if in_supply:
        g.stack.append(RestReroll(tuple(in_supply)))


def _legal_reroll(g: GameState, frame: RestReroll) -> list[int]:
    p = g.players[g.current]
    return sorted({CATALOG.REROLL[p.dice_face[d] - 1] for d in frame.dice}) + [CATALOG.SKIP]


def _apply_reroll(g: GameState, frame: RestReroll, action: int) -> None:
    if action == CATALOG.SKIP:
        g.stack.pop()
        return
    p = g.players[g.current]
    f = CATALOG.at[action] + 1
    d = next(d for d in frame.dice if p.dice_face[d] == f)
    p.dice_face[d] = g.rng.randint(1, 6)
    rest = tuple(x for x in frame.dice if x != d)
    if rest:
        g.stack[-1] = RestReroll(rest)
    else:
        g.stack.pop()


def _reroll_writes(action: int) -> int:
    return NOTHING if action == CATALOG.SKIP else ACTOR


ICONS = ()
FRAMES = (
    FrameRule(0, "turn", Turn, _legal_turn, _apply_turn, writes=_turn_writes, keeps_memo=lambda action: action in CATALOG.DIE),
    FrameRule(24, "rest_reroll", RestReroll, _legal_reroll, _apply_reroll, writes=_reroll_writes),
)
