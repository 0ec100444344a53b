"""The rules engine: a stack of pending decisions over the plain-data state.

``Game`` is the public surface. ``legal_actions()`` asks only the top frame of the stack;
``apply()`` resolves it, which may push new frames (a fee to pay, a card to choose, Vista
triggers to order...). To follow an action: ``Game.apply`` looks up the top frame's ``FrameRule``
(declared in the rule module that owns the frame, listed in ``RULE_MODULES`` below) and calls its
``apply``; an effect bag's part resolves through its icon's declaration (rules/icons.py).
Turn-end bookkeeping (market refill, end-game countdown, per-turn flags) lives in ``end_turn``
and nowhere else; so does the counting of what changed (``_mark``), from each rule's declaration.
"""

from __future__ import annotations

import numbers
import random
from typing import Any

from wayfarers_env.rules import (
    actions,
    bag,
    caravan,
    dice,
    frames,
    icons,
    influence,
    journal,
    market,
    panorama,
    payments,
    resources,
    solo,
    traders,
    turn,
    worker_tiles,
    workers,
)
from wayfarers_env.rules.actions import CATALOG, describe_action
from wayfarers_env.rules.config import ConfigError, GameConfig
from wayfarers_env.rules.frames import ACTOR, BOARD, OTHERS
from wayfarers_env.rules.saves import state_from_dict, state_to_dict
from wayfarers_env.rules.scoring import scores as _scores
from wayfarers_env.rules.scoring import winners as _winners
from wayfarers_env.rules.state import EXTRA_ON_CARDS, GameState, new_state
from wayfarers_env.rules.turn import TURN

__all__ = ["RULE_MODULES", "ConfigError", "Game", "GameConfig", "IllegalActionError", "describe_action"]

# The rule modules, one per game concept. Each declares the icons it owns (ICONS), the decisions it
# asks (FRAMES) and the records nested in its frames that saves name (RECORDS). The order of their
# icons is the order of the catalog's "do" leaves and of the observation's effect features.
RULE_MODULES = (resources, influence, journal, dice, workers, market, panorama, caravan, traders, worker_tiles, turn, bag, solo, payments)


def _assemble() -> None:
    icons.register([ic for m in RULE_MODULES for ic in m.ICONS])
    frames.register([fr for m in RULE_MODULES for fr in m.FRAMES])
    for m in RULE_MODULES:
        frames.register_records(getattr(m, "RECORDS", {}))
    actions.CATALOG.build(icons.LEAVES, icons.BASE_LEAVES[0])
    for rule in frames.BY_KIND:
        rule.tabulate(actions.CATALOG.size)


_assemble()


class IllegalActionError(ValueError):
    """An action that is not legal now. The state is unchanged."""


# ------------------------------------------------------------------------------ the stack


def _mark(g: GameState, writes: int) -> None:
    """Count a possible change for the observation's caches (GameState.seat_ver / board_ver):
    the one place that does, from what the rule declared it may write."""
    if writes & ACTOR:
        g.seat_ver[g.current] += 1
    if writes & OTHERS:
        ver = g.seat_ver
        for s in range(len(ver)):
            ver[s] += 1
    if writes & BOARD:
        g.board_ver += 1


def end_turn(g: GameState) -> None:
    """The end of a turn (rulebook p.11 and p.18): the market slides and refills, per-turn flags
    are cleared, the end-game countdown advances, and the next player's turn begins."""
    g.board_ver += 1
    market.refill(g)
    g.market_placed = [0] * len(g.market)
    if any(g.market_extra):  # Tides of Trade: extras placed this turn are counted beside market_placed
        g.market_extra = [e & EXTRA_ON_CARDS for e in g.market_extra]
    g.guild_used = [False] * len(g.guild_used)
    g.ink_used = False
    g.ship_hired = False
    g.ink_assets = False
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
    g.stack.append(solo.START if g.solo is not None and g.current == solo.AI else TURN)


def settle(g: GameState) -> None:
    """Resolve everything that needs no decision, until a decision (or the end) is reached."""
    stack = g.stack
    rules = frames.RULES
    while True:
        if not stack:
            if g.over:
                return
            end_turn(g)
            continue
        top = stack[-1]
        rule = rules[type(top)]
        if rule.settle is not None and rule.settle(g, top):
            if rule.settle_writes:
                _mark(g, rule.settle_writes)
            continue
        if g.config.auto_forced:
            legal = rule.legal(g, top)
            if len(legal) == 1:
                _mark(g, rule.write_table[legal[0]])
                rule.apply(g, top, legal[0])
                g.decisions += 1
                g.space_memo.clear()
                continue
        return


# ------------------------------------------------------------------------------ Game


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
    raise IllegalActionError(f"an action is an int id in 0..{CATALOG.size - 1}, got {action!r}")


class Game:
    """A game of Wayfarers of the South Tigris.

    ``Game(config, seed)``: config is a GameConfig, a dict of its fields, or None (2 players).
    All randomness comes from the game's own generator seeded by ``seed``.
    """

    __slots__ = ("state", "_legal")
    state: GameState
    _legal: list[int] | None

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
        self.state.stack.append(TURN)
        self._legal = None
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
        legal = self._legal
        if legal is None:
            g = self.state
            if g.over:
                legal = []
            else:
                top = g.stack[-1]
                legal = frames.RULES[type(top)].legal(g, top)
            self._legal = legal
        return legal

    def decision(self) -> tuple[str, tuple]:
        """The current decision: its kind (see ``decision_kinds()``) and its frame record, whose
        fields name its parameters (``("die_space", DieSpace(die=2))``)."""
        if self.state.over:
            return ("game_over", ())
        top = self.state.stack[-1]
        return frames.RULES[type(top)].name, top

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
            what = describe_action(action) if 0 <= action < CATALOG.size else "outside the catalog"
            raise IllegalActionError(
                f"action {action} ({what}) is not legal now: player {g.current} is deciding '{self.decision()[0]}'; "
                f"legal ids: {list(legal)}"
            )
        top = g.stack[-1]
        rule = frames.RULES[type(top)]
        writes = rule.write_table[action]
        if writes:  # _mark, inlined: this runs for every action
            if writes & ACTOR:
                g.seat_ver[g.current] += 1
            if writes & OTHERS:
                _mark(g, OTHERS)
            if writes & BOARD:
                g.board_ver += 1
        rule.apply(g, top, action)
        g.decisions += 1
        if g.space_memo and not rule.memo_table[action]:
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
        that seat saw go to the bottom), other players' private draws, the solo AI's scheme draw
        pile, and the RNG's future."""
        if not isinstance(seat, int) or not 0 <= seat < self.state.n:
            raise ValueError(f"seat must be 0..{self.state.n - 1}, got {seat!r}")
        if isinstance(rng, int):
            rng = random.Random(rng)
        other = self.clone()
        g = other.state
        bit = 1 << seat
        hidden_draw: market.DrawKeep | market.DrawOrder | None = None
        if g.stack and g.current != seat and isinstance(g.stack[-1], (market.DrawKeep, market.DrawOrder)):
            hidden_draw = g.stack[-1]
        for row, deck in enumerate(g.decks):
            known = g.known[row]
            pos = [i for i in range(len(deck)) if not known[i] & bit]
            pool = [deck[i] for i in pos]
            drawn: tuple[int, ...] = ()
            if hidden_draw is not None and hidden_draw.row == row:
                drawn = hidden_draw.cards if isinstance(hidden_draw, market.DrawKeep) else (*hidden_draw.rest, hidden_draw.kept)
                pool += list(drawn)
            pool.sort()  # so the result depends only on what the seat knows, not the true order
            rng.shuffle(pool)
            for i, card in zip(pos, pool):
                deck[i] = card
            if drawn:
                new = tuple(pool[len(pos) :])
                if isinstance(hidden_draw, market.DrawKeep):
                    g.stack[-1] = market.DrawKeep(row, new)
                else:
                    g.stack[-1] = market.DrawOrder(row, (new[0], new[1]), new[2])
        if g.worker_stacks:
            _resample_worker_stacks(g, rng)
        if g.solo is not None:  # the solo AI's scheme draw pile is face down: its order is unknown to all
            g.solo.draw.sort()
            rng.shuffle(g.solo.draw)
        g.rng = random.Random(rng.getrandbits(64))
        other._legal = None
        return other

    def __repr__(self) -> str:
        g = self.state
        return f"<Game {g.n}p turn {g.turn} player {g.current} {'over' if g.over else self.decision()[0]}>"


def _resample_worker_stacks(g: GameState, rng: random.Random) -> None:
    """Tides of Trade: below each stack's face-up half lie halves nobody has seen, drawn from those
    not face up and not in a worker caravan (with 2-3 players some never enter the stacks)."""
    tides = g.tables.content.tides
    assert tides is not None
    seen = {s[-1] for s in g.worker_stacks if s}
    seen |= {h for p in g.players for pair in p.worker_tiles for h in pair if h >= 0}
    seen |= {h for f in g.stack if isinstance(f, worker_tiles.WorkerColumn) for h in (f.top, f.bottom)}
    for half, stacks in (("top", g.worker_stacks[: tides.stacks]), ("bottom", g.worker_stacks[tides.stacks :])):
        pool = sorted(h.index for h in tides.halves if h.half == half and h.index not in seen)
        hidden = sum(max(len(s) - 1, 0) for s in stacks)
        drawn = rng.sample(pool, hidden)
        for s in stacks:
            for i in range(len(s) - 1):
                s[i] = drawn.pop()


def decision_kinds() -> tuple[str, ...]:
    """Names of the decision kinds, in the order of their numbers (the observation's one-hot)."""
    return frames.frame_names()
