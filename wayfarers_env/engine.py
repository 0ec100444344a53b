"""The rules engine: a stack of pending decisions over the plain-data state.

``Game`` is the public surface. ``legal_actions()`` asks only the top frame of the stack;
``apply()`` resolves it, which may push new frames (a fee to pay, a card to choose, Vista
triggers to order...). Turn-end bookkeeping (market refill, end-game countdown, per-turn flags)
lives in ``_end_turn`` and nowhere else.
"""

from __future__ import annotations

import numbers
import random
from typing import Any

from . import bag, caravan, dice, influence, journal, market  # noqa: F401  (they register frames)
from .actions import CATALOG, NUM_ACTIONS, describe_action
from .frames import (
    APPLY,
    BAG,
    CHAIN,
    DRAW_KEEP,
    DRAW_ORDER,
    FRAME_NAMES,
    LEGAL,
    REST_REROLL,
    SETTLE,
    SRC_REST,
    TURN,
    WORKER_TARGET,
    flatten,
    push_bag,
    register,
)
from .scoring import scores as _scores
from .scoring import winners as _winners
from .state import SUPPLY, GameConfig, GameState, new_state, state_from_dict, state_to_dict


class IllegalActionError(ValueError):
    """An action that is not legal now. The state is unchanged."""


# ------------------------------------------------------------------------------ turn


def _legal_turn(g: GameState, frame: tuple) -> list[int]:
    p = g.players[g.current]
    out = [CATALOG.DIE[f - 1] for f in dice.die_choices(g, p)]
    for colour in range(3):
        if p.workers[colour] > 0 and market.has_worker_target(g, colour):
            out.append(CATALOG.WORKER[colour])
    out.append(CATALOG.REST)
    if dice.yellow_available(g, p) and SUPPLY in p.dice_loc:
        out.append(CATALOG.YELLOW)
    return out


def _apply_turn(g: GameState, frame: tuple, action: int) -> None:
    if action == CATALOG.YELLOW:
        dice.use_yellow_at_turn_start(g)
        return
    g.stack.pop()
    if action == CATALOG.REST:
        _rest(g)
    elif action in CATALOG.WORKER:
        g.stack.append((WORKER_TARGET, action - CATALOG.WORKER[0]))
    else:
        dice.pick_die(g, action - CATALOG.DIE[0] + 1)


def _rest(g: GameState) -> None:
    """Rulebook p.17: count supply dice; return and roll all dice; then resting abilities."""
    t = g.tables
    p = g.players[g.current]
    in_supply = [d for d in range(5) if p.dice_loc[d] == SUPPLY]
    eligible = len(in_supply) <= 1
    for d in range(5):
        if p.dice_loc[d] >= 0:
            p.dice_loc[d] = SUPPLY
            p.dice_face[d] = g.rng.randint(1, 6)
    if eligible:
        items = flatten(t.cards[t.capital_townsfolk].resting)
        for host in p.water:
            folk = p.tucked.get(host)
            if folk is not None and folk not in p.acquired and t.cards[folk].resting is not None:
                flatten(t.cards[folk].resting, items)
        push_bag(g, items, (SRC_REST, 0, 0, 0))
    if in_supply:
        g.stack.append((REST_REROLL, tuple(in_supply)))


def _legal_reroll(g: GameState, frame: tuple) -> list[int]:
    p = g.players[g.current]
    return sorted({CATALOG.REROLL[p.dice_face[d] - 1] for d in frame[1]}) + [CATALOG.SKIP]


def _apply_reroll(g: GameState, frame: tuple, action: int) -> None:
    if action == CATALOG.SKIP:
        g.stack.pop()
        return
    p = g.players[g.current]
    f = action - CATALOG.REROLL[0] + 1
    d = next(d for d in frame[1] if p.dice_face[d] == f)
    p.dice_face[d] = g.rng.randint(1, 6)
    rest = tuple(x for x in frame[1] if x != d)
    if rest:
        g.stack[-1] = (REST_REROLL, rest)
    else:
        g.stack.pop()


register(TURN, _legal_turn, _apply_turn)
register(REST_REROLL, _legal_reroll, _apply_reroll)


def _end_turn(g: GameState) -> None:
    g.board_ver += 1
    market.refill(g)
    g.market_placed = [0] * 20
    g.guild_used = [False, False, False]
    g.ship_hired = False
    for s, p in enumerate(g.players):
        if p.acquired:
            p.acquired.clear()
            g.seat_ver[s] += 1
    if g.final_turns > 0:
        g.final_turns -= 1
        if g.final_turns == 0:
            g.over = True
            return
    elif g.end_trigger >= 0:
        g.final_turns = g.n
    g.current = (g.current + 1) % g.n
    g.seat_ver[g.current] += 1
    g.turn += 1
    if g.turn >= g.config.max_turns:
        g.over = True
        return
    g.stack.append((TURN,))


def settle(g: GameState) -> None:
    """Resolve everything that needs no decision, until a decision (or the end) is reached."""
    stack = g.stack
    while True:
        if not stack:
            if g.over:
                return
            _end_turn(g)
            continue
        top = stack[-1]
        fn = SETTLE.get(top[0])
        if fn is not None and fn(g, top):
            g.seat_ver[g.current] += 1
            continue
        if g.config.auto_forced:
            legal = LEGAL[top[0]](g, top)
            if len(legal) == 1:
                g.seat_ver[g.current] += 1
                APPLY[top[0]](g, top, legal[0])
                g.decisions += 1
                g.space_memo.clear()
                continue
        return


# ------------------------------------------------------------------------------ Game


_LAST_DIE = CATALOG.DIE[-1]
_DONE, _SKIP = CATALOG.DONE, CATALOG.SKIP


def _as_action_id(action: Any) -> int:
    """An int subclass or numpy integer as a plain int; anything else (bool included) is refused."""
    if isinstance(action, int) and not isinstance(action, bool):
        return int(action)
    try:
        import numpy as np

        if isinstance(action, np.integer):
            return int(action)
    except ImportError:
        pass
    raise IllegalActionError(f"an action is an int id in 0..{NUM_ACTIONS - 1}, got {action!r}")


class Game:
    """A game of Wayfarers of the South Tigris.

    ``Game(config, seed)``: config is a GameConfig, a dict of its fields, or None (2 players).
    All randomness comes from the game's own generator seeded by ``seed``.
    """

    __slots__ = ("state", "_legal")

    def __init__(self, config: GameConfig | dict[str, Any] | None = None, seed: int = 0):
        if config is None:
            config = GameConfig()
        elif isinstance(config, dict):
            config = GameConfig.from_dict(config)
        elif not isinstance(config, GameConfig):
            raise TypeError(f"config must be a GameConfig, a dict or None, got {type(config).__name__}")
        if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):  # numpy integers too, as env.reset takes them
            raise TypeError(f"seed must be an int, got {seed!r}")
        self.state = new_state(config, int(seed))
        self.state.stack.append((TURN,))
        self._legal: list[int] | None = None
        settle(self.state)

    # -- queries
    @property
    def config(self) -> GameConfig:
        return self.state.config

    @property
    def num_players(self) -> int:
        return self.state.n

    @property
    def current_player(self) -> int:
        """The seat that owns the current decision (-1 once the game is over)."""
        return -1 if self.state.over else self.state.current

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def ended_by_turn_limit(self) -> bool:
        """True when the game stopped at ``config.max_turns`` instead of by the journal."""
        return self.state.over and self.state.end_trigger < 0

    def legal_actions(self) -> list[int]:
        return list(self._legal if self._legal is not None else self.cached_legal())

    def cached_legal(self) -> list[int]:
        """The legal ids of this decision, computed once: the engine's own list, not a copy
        (the environment reads it every step to build the mask). Do not modify it."""
        if self._legal is None:
            g = self.state
            if g.over:
                self._legal = []
            else:
                top = g.stack[-1]
                self._legal = LEGAL[top[0]](g, top)
        return self._legal

    def decision(self) -> tuple[str, tuple]:
        """The current decision: its kind (see frames.FRAME_NAMES) and its raw parameters."""
        if self.state.over:
            return ("game_over", ())
        top = self.state.stack[-1]
        return FRAME_NAMES[top[0]], top[1:]

    def apply(self, action: int) -> None:
        g = self.state
        if g.over:
            raise IllegalActionError("the game is over; no action can be applied (start a new Game)")
        if type(action) is not int:  # the common case is a plain int: one check
            action = _as_action_id(action)
        legal = self._legal
        if legal is None:
            legal = self.cached_legal()
        if action not in legal:
            what = describe_action(action) if 0 <= action < NUM_ACTIONS else "outside the catalog"
            kind = FRAME_NAMES[g.stack[-1][0]]
            raise IllegalActionError(
                f"action {action} ({what}) is not legal now: player {g.current} is deciding '{kind}'; legal ids: {list(legal)}"
            )
        top = g.stack[-1]
        kind = top[0]
        if not ((kind == TURN and action <= _LAST_DIE) or (action == _DONE and kind == BAG) or (action == _SKIP and kind == REST_REROLL)):
            # see GameState.seat_ver: the observation's cue to look again. Picking a die,
            # declining the rest of an effect and skipping a reroll only touch the stack (a
            # third of all decisions); whatever settles after them bumps on its own
            g.seat_ver[g.current] += 1
        APPLY[kind](g, top, action)
        g.decisions += 1
        if g.space_memo and not (kind == CHAIN or (kind == TURN and action <= _LAST_DIE)):
            g.space_memo.clear()  # only picking or turning a die keeps die-space answers valid
        settle(g)
        self._legal = None

    def scores(self) -> list[dict[str, int]]:
        """Per seat: VP by source (primary_tags, unique_sets, space_cards, inspiration, caravan,
        guilds) and the total. Available at any time; final once ``is_over``."""
        return _scores(self.state)

    def winners(self) -> list[int]:
        return _winners(self.state)

    # -- copies and serialisation
    def clone(self) -> Game:
        other = Game.__new__(Game)
        other.state = self.state.clone()
        other._legal = self._legal
        return other

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self.state)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        game = cls.__new__(cls)
        game.state = state_from_dict(d)
        game._legal = None
        return game

    def determinize(self, seat: int, rng: random.Random | int) -> Game:
        """A copy in which everything ``seat`` cannot know is resampled: deck orders (except cards
        that seat saw go to the bottom), other players' private draws, and the RNG's future."""
        if not isinstance(seat, int) or not 0 <= seat < self.state.n:
            raise ValueError(f"seat must be 0..{self.state.n - 1}, got {seat!r}")
        if isinstance(rng, int):
            rng = random.Random(rng)
        other = self.clone()
        g = other.state
        bit = 1 << seat
        hidden_draw = None
        if g.stack and g.current != seat and g.stack[-1][0] in (DRAW_KEEP, DRAW_ORDER):
            hidden_draw = g.stack[-1]
        for row, deck in enumerate(g.decks):
            known = g.known[row]
            pos = [i for i in range(len(deck)) if not known[i] & bit]
            pool = [deck[i] for i in pos]
            drawn: tuple[int, ...] = ()
            if hidden_draw is not None and hidden_draw[1] == row:
                drawn = hidden_draw[2] if hidden_draw[0] == DRAW_KEEP else hidden_draw[2] + (hidden_draw[3],)
                pool += list(drawn)
            pool.sort()  # so the result depends only on what the seat knows, not the true order
            rng.shuffle(pool)
            for i, card in zip(pos, pool):
                deck[i] = card
            if drawn:
                new = tuple(pool[len(pos) :])
                if hidden_draw[0] == DRAW_KEEP:
                    g.stack[-1] = (DRAW_KEEP, row, new)
                else:
                    g.stack[-1] = (DRAW_ORDER, row, new[:2], new[2])
        g.rng = random.Random(rng.getrandbits(64))
        other._legal = None
        return other

    def __repr__(self) -> str:
        g = self.state
        return f"<Game {g.n}p turn {g.turn} player {g.current} {'over' if g.over else self.decision()[0]}>"


__all__ = ["Game", "GameConfig", "IllegalActionError", "describe_action"]
