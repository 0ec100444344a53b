"""Icons: the small effects printed on cards, and how a rule module declares the ones it owns.

An icon ("atom" in the effect grammar: ``silver``, ``journal``, ``guild(blue)``, ``tile(land)``)
is declared once, in the rule module that owns its rule, as an ``Icon``:

- its **grammar** (name, arguments, whether it takes an amount, may be paid as a cost or marked
  mandatory), which the content loader uses to read the data files;
- its **legality** (``can``: can the current player resolve it now?) and **resolution**
  (``resolve``: do it, possibly pushing a decision frame);
- its **catalog entries**: the ``do`` leaves a player names to resolve it next (one per
  argument when ``keyed``) and, for a price, the leaf that pays it;
- its **feature slots** in the observation's effect histogram;
- the **rank** of its legality check (cheap, usually-true checks first) and what resolving it
  may change (``writes``, see rules/frames.py).

The engine lists its rule modules (rules/engine.py); their ``ICONS`` are declared in that order,
which is the order of the catalog's leaves and of the effect features. Nothing else names an icon:
the bag (rules/bag.py) looks each one up here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wayfarers_env.content import effects
from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, IconGrammar, flatten
from wayfarers_env.rules.frames import ACTOR, BOARD, EVERYTHING, BagContext

if TYPE_CHECKING:
    from wayfarers_env.rules.state import GameState

CanFn = Callable[["GameState", Atom, BagContext], bool]
ResolveFn = Callable[["GameState", Atom, BagContext], None]


@dataclass(frozen=True)
class Icon:
    """The whole rule for one icon (see the module docstring)."""

    grammar: IconGrammar
    can: CanFn | None = None  # None with ``resolve`` set: always resolvable (a resource gain)
    resolve: ResolveFn | None = None  # None: never a bag part (a price, a node-only or an AI-only icon)
    keyed: str | None = None  # leaves and features are "<keyed>_<first argument>" (guild_black...)
    leaf_args: tuple[str, ...] | None = None  # arguments that get a leaf (default: all)
    cost_leaf: str | None = None  # the leaf that pays it as a price
    price_slot: Callable[[Atom], int] | None = None  # a price: where it counts in rules/bag.py's price vector
    rank: int = 4  # order of legality checks: lower is cheaper and more often true
    writes: int = EVERYTHING  # what resolving it may change
    expansion: bool = False  # an expansion's icon: its leaves go to the catalog's appended block
    expansion_args: tuple[str, ...] = ()  # arguments of a keyed icon whose leaves are the expansion's (guild: red)

    @property
    def name(self) -> str:
        return self.grammar.name

    @property
    def leaves(self) -> tuple[str, ...]:
        """Catalog ``do`` names of this icon, in catalog order: none for an icon the player never names
        (a price, a mandatory icon resolved at once, a node-only or AI-only icon)."""
        if self.resolve is None or self.grammar.mandatory:
            return ()
        if self.keyed is None:
            return (self.name,)
        args = self.leaf_args if self.leaf_args is not None else self.grammar.args[0]
        return tuple(f"{self.keyed}_{a}" for a in args)

    @property
    def base_leaves(self) -> tuple[str, ...]:
        """The leaves of the base game (their ids never move)."""
        if self.expansion:
            return ()
        return tuple(leaf for leaf in self.leaves if not any(leaf == f"{self.keyed}_{a}" for a in self.expansion_args))

    @property
    def expansion_leaves(self) -> tuple[str, ...]:
        """The leaves an expansion adds (the catalog appends them after the base game's sections)."""
        base = set(self.base_leaves)
        return tuple(leaf for leaf in self.leaves if leaf not in base)

    @property
    def features(self) -> tuple[str, ...]:
        """Effect-histogram features of this icon (none for the solo AI's icons)."""
        if self.grammar.solo_only:
            return ()
        if self.keyed is None:
            return (self.name,)
        return tuple(f"{self.keyed}_{a}" for a in self.grammar.args[0])

    def leaf_name(self, atom: Atom) -> str:
        return self.name if self.keyed is None else f"{self.keyed}_{atom.args[0]}"

    def feature_name(self, atom: Atom) -> str | None:
        if self.grammar.solo_only:
            return None
        return self.name if self.keyed is None else f"{self.keyed}_{atom.args[0]}"


def icon(
    name: str,
    *,
    args: tuple[tuple[str, ...], ...] = (),
    arg_required: bool = False,
    amount: bool = False,
    cost: bool = False,
    mandatory: bool = False,
    solo_only: bool = False,
    aliases: tuple[str, ...] = (),
    can: CanFn | None = None,
    resolve: ResolveFn | None = None,
    keyed: str | None = None,
    leaf_args: tuple[str, ...] | None = None,
    cost_leaf: str | None = None,
    price_slot: Callable[[Atom], int] | None = None,
    rank: int = 4,
    writes: int = EVERYTHING,
    expansion: bool = False,
    expansion_args: tuple[str, ...] = (),
) -> Icon:
    """An ``Icon`` with its grammar, written flat for readable declarations in the rule modules."""
    grammar = IconGrammar(name, args, arg_required, amount, cost, mandatory, solo_only, aliases)
    return Icon(grammar, can, resolve, keyed, leaf_args, cost_leaf, price_slot, rank, writes, expansion, expansion_args)


# filled by the engine from the rule modules' ICONS, in the order it lists them
ICONS: dict[str, Icon] = {}
LEAVES: list[str] = []  # the catalog's "do" section: resolve-next names, pay names, then the expansion's
BASE_LEAVES: list[int] = [0]  # how many of LEAVES are the base game's
FEATURES: list[str] = []  # the effect histogram's features (observation), then "free" and "choice"
LEAF_WRITES: list[int] = []  # per leaf: what resolving it may change (a price is paid by the actor)
# per icon name, for the legality hot path: True (a resource: always resolvable), False (never a
# bag part) or the icon's legality test
CAN: dict[str, CanFn | bool] = {}
STRUCTURAL_FEATURES = ("free", "choice")  # free or discounted gains; either/or nodes


def register(declared: list[Icon]) -> None:
    """Declare the icons' grammar and index their rules, leaves and features."""
    for ic in declared:
        if ic.name in ICONS:
            raise ValueError(f"icon {ic.name!r} is declared twice")
        effects.declare(ic.grammar)
        ICONS[ic.name] = ic
        CAN[ic.name] = False if ic.resolve is None else True if ic.can is None else ic.can
    # paying a price may use a per-turn ability (BOARD: the Red guild's and the Ink Well's flags);
    # an expansion's leaves, its prices' included, go after the base game's
    leaves = [leaf for ic in declared for leaf in ic.base_leaves]
    leaves += [ic.cost_leaf for ic in declared if ic.cost_leaf is not None and not ic.expansion]
    writes = [ic.writes for ic in declared for _leaf in ic.base_leaves]
    writes += [ACTOR | BOARD for ic in declared if ic.cost_leaf is not None and not ic.expansion]
    BASE_LEAVES[0] = len(leaves)
    leaves += [leaf for ic in declared for leaf in ic.expansion_leaves]
    writes += [ic.writes for ic in declared for _leaf in ic.expansion_leaves]
    leaves += [ic.cost_leaf for ic in declared if ic.cost_leaf is not None and ic.expansion]
    writes += [EVERYTHING for ic in declared if ic.cost_leaf is not None and ic.expansion]
    if len(set(leaves)) != len(leaves):
        raise ValueError(f"two icons claim the same catalog leaf: {leaves}")
    LEAVES[:] = leaves
    LEAF_WRITES[:] = writes
    FEATURES[:] = [f for ic in declared for f in ic.features] + list(STRUCTURAL_FEATURES)


def rule(atom: Atom) -> Icon:
    return ICONS[atom.name]


def always_atom(atom: Atom) -> bool:
    """A gain that can always be resolved (a resource): its icon has no legality test."""
    ic = ICONS[atom.name]
    return ic.can is None and ic.resolve is not None and not atom.mandatory


# ------------------------------------------------------------ static analysis of effect trees
# Per effect node, computed once (effect trees come from the content and live as long as it):
# whether some part always resolves (a resource gain), and its parts in the order their legality is
# cheapest to check, so that "can any part resolve?" stops early.

_COST_RANK = 6  # a cost is paid, then its gain checked
_STATIC: dict[int, tuple[Effect, bool, tuple[Effect, ...]]] = {}


def static(node: Effect) -> tuple[bool, tuple[Effect, ...]]:
    """Per node, computed once: does it hold a gain that always resolves (a resource), and its
    parts ordered cheapest check first."""
    hit = _STATIC.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1], hit[2]
    parts: tuple[Effect, ...]
    if isinstance(node, Atom):
        always = always_atom(node)
        parts = ()
    elif isinstance(node, Choice):
        parts = tuple(sorted(node.options, key=rank))
        always = any(static(o)[0] for o in parts)
    elif isinstance(node, Cost):
        always, parts = False, ()
    else:
        parts = tuple(sorted(flatten(node), key=rank))
        always = any(static(o)[0] for o in parts)
    _STATIC[id(node)] = (node, always, parts)
    return always, parts


def always_resolves(node: Effect) -> bool:
    """Static: the effect holds a resource gain, so some part of it can always be resolved."""
    return static(node)[0]


def rank(node: Effect) -> int:
    """A composite is tried from its cheapest part, so it ranks with that part."""
    if isinstance(node, Atom):
        return ICONS[node.name].rank
    if isinstance(node, Cost):
        return _COST_RANK
    return rank(static(node)[1][0]) if static(node)[1] else _COST_RANK


_ORDER: dict[int, tuple[Sequence[Effect], bool, tuple[Effect, ...]]] = {}


def cheapest_first(items: Sequence[Effect]) -> tuple[bool, tuple[Effect, ...]]:
    """(some part always resolves, ``items`` sorted cheapest check first); cached for the tuples
    that come back (die-space and worker-spot items are built once), keyed by identity with
    the tuple held."""
    if type(items) is not tuple:
        return any(static(item)[0] for item in items), tuple(sorted(items, key=rank))
    hit = _ORDER.get(id(items))
    if hit is None or hit[0] is not items:
        if len(_ORDER) > 4096:
            _ORDER.clear()
        hit = _ORDER[id(items)] = (items, any(static(item)[0] for item in items), tuple(sorted(items, key=rank)))
    return hit[1], hit[2]
