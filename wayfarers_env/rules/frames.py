"""Pending decisions ("frames"), how a rule module declares them, and what an action may change.

A frame is an immutable record (a ``NamedTuple``, one class per kind) of the decision being asked
and the parameters it needs: ``DieSpace(die=2)``, ``Acquire(row=1, free=False, ...)``. The engine
keeps them on a stack; the top one is the decision. Records keep ``clone()`` a shallow list copy
and make ``to_dict()`` exact (``[kind, *fields]``), while code reads ``frame.die``, not ``frame[1]``.

A rule module declares each frame kind it owns with a ``FrameRule``: its number (the index of the
one-hot in the observation, fixed), its name (``Game.decision()``), the record class, how to list
the legal action ids, how to apply one, optionally how it settles without a decision, and what
applying it may change (``writes``, below). The engine collects the declarations of the modules it
lists (``rules/engine.py``) and dispatches on the record's class.

What an action may change is declared, not tracked by hand: ``writes`` says whether the acting
seat (``ACTOR``), other seats (``OTHERS``) and the rest of the table (``BOARD``) may change. The
engine bumps ``GameState.seat_ver`` / ``board_ver`` from the declaration before applying, which
is all the observation's caches trust. The default is ``EVERYTHING``, so a new rule can only be
slower, never wrong; narrower declarations are checked by tests/test_versions.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from wayfarers_env.rules.state import GameState

# what applying an action may change (bit flags)
NOTHING = 0  # only the stack
ACTOR = 1  # the deciding seat's pieces
OTHERS = 2  # any other seat's pieces
BOARD = 4  # anything else: market, decks, tile supply, journal board, per-turn flags, end of game
EVERYTHING = ACTOR | OTHERS | BOARD

Frame = tuple  # every frame record is a NamedTuple, hence a tuple
LegalFn = Callable[["GameState", Any], list[int]]
ApplyFn = Callable[["GameState", Any, int], None]
SettleFn = Callable[["GameState", Any], bool]
WritesFn = Callable[[int], int]


@dataclass(slots=True)
class FrameRule:
    """One kind of pending decision, as declared by the rule module that owns it."""

    kind: int  # fixed number: the observation's one-hot position and the saved form's first value
    name: str  # what Game.decision() reports
    record: type  # the NamedTuple class of its frames
    legal: LegalFn
    apply: ApplyFn
    settle: SettleFn | None = None  # resolves it without a decision when it can (then returns True)
    writes: int | WritesFn = EVERYTHING  # what apply may change; a function of the action if it depends
    settle_writes: int = EVERYTHING  # what settle may change
    keeps_memo: bool | Callable[[int], bool] = False  # the action leaves GameState.space_memo valid
    # per action id, tabulated once the catalog is built (tabulate): the engine's per-action lookups
    write_table: list[int] = field(default_factory=list, init=False, repr=False)
    memo_table: list[bool] = field(default_factory=list, init=False, repr=False)

    def tabulate(self, actions: int) -> None:
        """What each action may change and whether it keeps the die-space answers (only while a
        die is chosen or turned): one list index per applied action instead of a function call."""
        writes, keeps = self.writes, self.keeps_memo
        self.write_table = [writes if isinstance(writes, int) else writes(a) for a in range(actions)]
        self.memo_table = [keeps if isinstance(keeps, bool) else keeps(a) for a in range(actions)]

    def load(self, params: tuple) -> Any:
        """A frame from its saved parameters (already decoded to tuples and effect trees); a record
        with nested records rebuilds them in its own ``load``."""
        loader = getattr(self.record, "load", None)
        return loader(*params) if loader is not None else self.record(*params)


# filled by the engine from the rule modules' FRAMES declarations (rules/engine.py)
RULES: dict[type, FrameRule] = {}
BY_KIND: list[FrameRule] = []


def register(rules: list[FrameRule]) -> None:
    """Index the declared frame kinds; their numbers must be 0..n-1, each once."""
    for rule in rules:
        if rule.record in RULES:
            raise ValueError(f"frame record {rule.record.__name__} is declared twice")
        RULES[rule.record] = rule
    by_kind = sorted(rules, key=lambda r: r.kind)
    if [r.kind for r in by_kind] != list(range(len(by_kind))):
        raise ValueError(f"frame kinds must be numbered 0..{len(by_kind) - 1} once each, got {sorted(r.kind for r in rules)}")
    BY_KIND[:] = by_kind


# records nested in frames that are saved under a name (rules/saves.py), e.g. {TakeCard: "take"}
SAVED_AS: dict[type, str] = {}
LOADED_FROM: dict[str, type] = {}


def register_records(records: dict[str, type]) -> None:
    for tag, record in records.items():
        if tag in LOADED_FROM:
            raise ValueError(f"saved record name {tag!r} is declared twice")
        LOADED_FROM[tag] = record
        SAVED_AS[record] = tag


def frame_names() -> tuple[str, ...]:
    return tuple(r.name for r in BY_KIND)


def kind_of(frame: Frame) -> int:
    return RULES[type(frame)].kind


# --------------------------------------------------------------------------- effect bags


class BagContext(NamedTuple):
    """Where an effect bag came from, and what the die or spot lends its parts."""

    source: int  # one of the SRC_* values
    silver_discount: int = 0  # caravan column: Silver off cards and tiles bought by this action
    provision_discount: int = 0  # caravan column: Provisions off printed costs
    spare_pigeon: int = 0  # 1 when the die's column has a pigeon beyond the space's needs (draw 3 for free)


# where an effect bag came from (shown in observations)
SRC_DIE, SRC_WORKER, SRC_ACQUIRED, SRC_JOURNAL, SRC_REST, SRC_DISCARD = range(6)
SOURCE_NAMES = ("die space", "worker spot", "acquisition", "journal node", "resting", "inspiration discard")
NO_DIE = BagContext(SRC_ACQUIRED)
FROM_WORKER = BagContext(SRC_WORKER)
FROM_JOURNAL = BagContext(SRC_JOURNAL)
FROM_REST = BagContext(SRC_REST)
FROM_DISCARD = BagContext(SRC_DISCARD)


class EffectBag(NamedTuple):
    """The parts of one action still to resolve (atoms, choices, cost-then-gain items), in the
    order the player picks (rulebook p.15). Owned by rules/bag.py."""

    items: tuple
    ctx: BagContext

    @classmethod
    def load(cls, items: tuple, ctx: tuple) -> EffectBag:
        return cls(items, BagContext(*ctx))
