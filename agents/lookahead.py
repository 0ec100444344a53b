"""One-turn lookahead: value a choice by playing the rest of the turn on a copy, then evaluating.

A turn of Wayfarers is a chain of small decisions (a die, its caravan chain, a space, the order
of the space's effects, a card, where a tile goes...). Most of them are worth nothing on their
own: picking "the die showing 4" only pays off once the die lands on a space and its effects
resolve. So each legal action is applied to a clone of the bot's *determinized* view, the turn is
finished by a cheap rule policy (``defaults.DefaultPolicy``, no further copying), and the
position at the end of the turn is valued with ``evaluation.evaluate``. Decisions the bot does not
search are answered by the rule policy directly, which is also what the rollouts assume, so the
plan a bot values is the plan it then plays.

The main action ("turn") is searched two decisions deep: each main action is worth its best
follow-up (the worker's best spot, the die's best face and space). Cost: one clone plus a few
applies per rollout (tens of microseconds each); a searched decision costs one rollout per legal
action (a few dozen for the main action), about a millisecond per decision on average, measured
in docs/RESULTS.md. Randomness inside a rollout (a rest's dice, a refreshed die,
cards dealt at the end of the turn) comes from the determinized copy's own generator, so the
result is a function of the view and the bot's rng alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection

from wayfarers_env import Game
from wayfarers_env.rules.queries import CATALOG
from wayfarers_env.vocabulary import TRADE

from .base import View
from .defaults import PLAIN, DefaultPolicy, Tastes
from .evaluation import NEUTRAL, Estimate, evaluate, horizon

MAX_ROLLOUT = 80  # decisions; a turn never needs this many, it only guards against a rule loop
Policy = Callable[[Game, list[int]], int]


def finish_turn(game: Game, policy: Policy, turn: int | None = None, limit: int = MAX_ROLLOUT) -> Game:
    """Play ``game`` in place with ``policy`` until turn number ``turn`` (default: the current
    one) is over, or the game. Pass the turn the search started in: an action may already have
    ended it, and the next player's turn is not ours to play."""
    g = game.state
    if turn is None:
        turn = g.turn
    for _ in range(limit):
        if g.over or g.turn != turn:
            break
        game.apply(policy(game, game.legal_actions()))
    return game


def action_values(game: Game, seat: int, legal: list[int], policy: Policy, est: Estimate, depth: int = 1) -> list[float]:
    """Value of each legal action: apply it on a clone, finish the turn, evaluate for ``seat``
    (with the horizon of ``game``, see ``evaluation.evaluate``).

    ``depth`` 2 also searches the decision that follows (its best child is the action's value),
    so that "place a worker" is judged by its best spot rather than by the spot a rule picks. A
    caravan chain (which face the die becomes) does not use up depth: a die is judged by its
    best face *and* space."""
    h = horizon(game.state)
    turn = game.state.turn
    out = []
    for a in legal:
        g = game.clone()
        g.apply(a)
        out.append(_best(g, depth - 1, policy, est, seat, h, turn))
    return out


PASS_THROUGH = frozenset({"caravan_chain"})


def _best(game: Game, depth: int, policy: Policy, est: Estimate, seat: int, h: float, turn: int) -> float:
    """Value of ``game`` (mid-turn): the best child while depth lasts, then a rule rollout."""
    g = game.state
    while depth > 0 and not g.over and g.turn == turn:
        legal = game.legal_actions()
        kind = game.decision()[0]
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        rest = depth if kind in PASS_THROUGH else depth - 1
        values = []
        for b in legal:
            child = game.clone()
            child.apply(b)
            values.append(_best(child, rest, policy, est, seat, h, turn))
        return max(values)
    finish_turn(game, policy, turn)
    return evaluate(game, seat, est, h)


def pick_best(legal: list[int], values: list[float], rng: random.Random, tolerance: float = 1e-6, prefer: int = -1) -> int:
    """The best action; equal values are split by the bot's rng (one draw, always), except that
    ``prefer`` takes a tie it is part of."""
    top = max(values)
    best = [a for a, v in zip(legal, values) if v >= top - tolerance]
    pick = best[rng.randrange(len(best))]
    return prefer if prefer in best else pick


def best_candidates(last_values: tuple[list[int], list[float]], choice: int, k: int, margin: float) -> list[int]:
    """The ``k`` best actions of a decision a lookahead bot valued (``last_values``), best first
    (ties: the lower id), those within ``margin`` of its best value, with its ``choice`` kept in
    front when its own tie-break put it beyond them: the few choices a search above it weighs."""
    actions, values = last_values
    best = max(values)
    ranked = sorted(zip(values, actions), key=lambda va: (-va[0], va[1]))
    cands = [a for v, a in ranked[:k] if v >= best - margin]
    return cands if choice in cands else [choice, *cands[: k - 1]]


class LookaheadBot:
    """Searches the decision kinds in ``search`` (None: every kind) and answers the rest by rule."""

    name = "lookahead"

    def __init__(
        self,
        estimate: Estimate = NEUTRAL,
        tastes: Tastes = PLAIN,
        search: Collection[str] | None = None,
        deep: Collection[str] = ("turn",),
        worlds: int = 1,
    ):
        self.estimate = estimate
        self.policy = DefaultPolicy(tastes)
        self.search = None if search is None else frozenset(search)
        self.deep = frozenset(deep)
        self.worlds = worlds  # determinizations each searched decision is valued in, the values summed
        # (actions, values) of the last decision the lookahead valued, None after one it answered by
        # rule: what ``wayfarers dataset`` records as soft targets for imitation
        self.last_values: tuple[list[int], list[float]] | None = None

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int:
        self.last_values = None
        if len(legal_actions) == 1:
            return legal_actions[0]
        game = view.game
        kind, _params = game.decision()
        if kind == "turn" and game.state.guild_used[TRADE] and CATALOG.REST in legal_actions:
            # the Trade guild was paid at the start of this turn: resting would reroll its changes away
            legal_actions = [a for a in legal_actions if a != CATALOG.REST] or legal_actions
            if len(legal_actions) == 1:
                return legal_actions[0]
        if self.search is not None and kind not in self.search:
            return self.policy(game, legal_actions)
        depth = 2 if kind in self.deep else 1
        values = action_values(game, view.seat, legal_actions, self.policy, self.estimate, depth)
        for _ in range(self.worlds - 1):  # more sampled worlds: a choice that only pays in the one drawn counts less
            more = action_values(view.sample(rng), view.seat, legal_actions, self.policy, self.estimate, depth)
            values = [a + b for a, b in zip(values, more)]
        self.last_values = (legal_actions, values)
        # a Trade-guild change worth no more than stopping is not made (it could only undo the first)
        return pick_best(legal_actions, values, rng, prefer=CATALOG.SKIP if kind == "trade_guild" else -1)
