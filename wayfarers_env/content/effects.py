"""The effect grammar: card text as small typed trees.

Every printed action in the game (a die space, a worker spot, an immediate effect, a journal
node, a resting ability...) is written in the data files as a short string and parsed once, at
load time, into the tree defined here. The engine never looks at strings again.

Grammar (weakest binding first)::

    effect  := gains | cost '->' gains
    gains   := seq ('/' seq)*          choice: exactly one option
    seq     := item (',' item)*        all parts, in the order the player picks
    item    := INT 'x' primary         repeat
             | primary
    primary := '(' effect ')' | '!' atom | atom
    atom    := [INT] NAME ['(' NAME (',' NAME)* ')']

``!`` marks a part the player may not decline (an icon declared mandatory, such as ``!new_die``,
is always written with it); every other gain is optional, as the rulebook says. Costs (left of ``->``) are always paid in
full before any gain. See docs/CONTENT.md for the atom catalogue.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class IconGrammar:
    """How an icon is written in the data files: its name, the arguments it takes (allowed names per
    position), and where it may stand. Declared by the rule module that owns the icon (see
    ``wayfarers_env.rules.icons``): the grammar knows every icon the rules know, and no other."""

    name: str
    args: tuple[tuple[str, ...], ...] = ()  # allowed names per argument position
    arg_required: bool = False  # the first argument must be given: "guild(black)", never "guild"
    amount: bool = False  # takes an amount: "2 silver"
    cost: bool = False  # may be paid: stands left of '->'
    mandatory: bool = False  # always marked '!': resolved at once, never declined
    solo_only: bool = False  # only the solo AI's cards use it (solo.toml)
    aliases: tuple[str, ...] = ()  # other spellings: "provision" for "provisions"


# name -> grammar. Empty until the rule modules declare their icons (importing wayfarers_env does).
ATOMS: dict[str, IconGrammar] = {}
_ALIASES: dict[str, str] = {}


def declare(grammar: IconGrammar) -> None:
    """Add an icon to the grammar; a name may be declared once."""
    if grammar.name in ATOMS or grammar.name in _ALIASES:
        raise ValueError(f"icon {grammar.name!r} is declared twice")
    ATOMS[grammar.name] = grammar
    for alias in grammar.aliases:
        _ALIASES[alias] = grammar.name


def amount_atoms() -> frozenset[str]:
    return frozenset(n for n, g in ATOMS.items() if g.amount)


def cost_atoms() -> frozenset[str]:
    return frozenset(n for n, g in ATOMS.items() if g.cost)


def mandatory_atoms() -> frozenset[str]:
    return frozenset(n for n, g in ATOMS.items() if g.mandatory)


def solo_atoms() -> frozenset[str]:
    return frozenset(n for n, g in ATOMS.items() if g.solo_only)


class EffectSyntaxError(ValueError):
    """A string that is not a well-formed effect; the message says where and what is allowed."""


@dataclass(frozen=True, slots=True)
class Atom:
    name: str
    amount: int = 1
    args: tuple[str, ...] = ()
    mandatory: bool = False

    def arg(self, i: int = 0, default: str | None = None) -> str | None:
        return self.args[i] if len(self.args) > i else default


@dataclass(frozen=True, slots=True)
class Seq:
    parts: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    options: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Cost:
    cost: Effect
    gain: Effect


@dataclass(frozen=True, slots=True)
class Repeat:
    count: int
    body: Effect


Effect = Atom | Seq | Choice | Cost | Repeat

_TOKEN = re.compile(r"\s*(?:(->)|(\d+)|([a-z_][a-z_0-9]*)|([(),/!]))")


def _tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise EffectSyntaxError(f"unexpected character {text[pos:].strip()[:1]!r} at {pos} in {text!r}")
        tokens.append(next(g for g in m.groups() if g is not None))
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokenize(text)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None:
            raise EffectSyntaxError(f"unexpected end of {self.text!r}" + (f", expected {expected!r}" if expected else ""))
        if expected is not None and tok != expected:
            raise EffectSyntaxError(f"expected {expected!r} but found {tok!r} in {self.text!r}")
        self.i += 1
        return tok

    def effect(self, in_cost: bool = False) -> Effect:
        left = self.gains(in_cost)
        if self.peek() == "->":
            if in_cost:
                raise EffectSyntaxError(f"a cost cannot itself contain '->' in {self.text!r}")
            self.take()
            _check_cost(left, self.text)
            right = self.gains(False)
            if self.peek() == "->":
                raise EffectSyntaxError(f"only one '->' per level; add parentheses in {self.text!r}")
            return Cost(left, right)
        return left

    def gains(self, in_cost: bool) -> Effect:
        opts = [self.seq(in_cost)]
        while self.peek() == "/":
            self.take()
            opts.append(self.seq(in_cost))
        return opts[0] if len(opts) == 1 else Choice(tuple(opts))

    def seq(self, in_cost: bool) -> Effect:
        parts = [self.item(in_cost)]
        while self.peek() == ",":
            self.take()
            parts.append(self.item(in_cost))
        return parts[0] if len(parts) == 1 else Seq(tuple(parts))

    def item(self, in_cost: bool) -> Effect:
        tok = self.peek()
        if tok is not None and tok.isdigit() and self.i + 1 < len(self.toks) and self.toks[self.i + 1] == "x":
            count = int(self.take())
            self.take("x")
            if count < 2:
                raise EffectSyntaxError(f"a repeat count must be at least 2, got {count} in {self.text!r}")
            return Repeat(count, self.primary(in_cost))
        return self.primary(in_cost)

    def primary(self, in_cost: bool) -> Effect:
        tok = self.peek()
        if tok == "(":
            self.take()
            inner = self.effect(in_cost)
            self.take(")")
            return inner
        mandatory = False
        if tok == "!":
            self.take()
            mandatory = True
        return self.atom(mandatory)

    def atom(self, mandatory: bool) -> Atom:
        amount = 1
        tok = self.take()
        if tok.isdigit():
            amount = int(tok)
            tok = self.take()
        if not ATOMS:
            raise EffectSyntaxError("no icons are declared yet: import wayfarers_env (its rule modules declare them) first")
        name = _ALIASES.get(tok, tok)
        if name not in ATOMS:
            allowed = ", ".join(sorted(ATOMS))
            raise EffectSyntaxError(f"unknown effect {tok!r} in {self.text!r}; known effects: {allowed}")
        grammar = ATOMS[name]
        if amount != 1 and not grammar.amount:
            raise EffectSyntaxError(f"{name!r} takes no amount in {self.text!r}; write '{amount} x {name}' to repeat it")
        if amount < 1:
            raise EffectSyntaxError(f"amount must be positive in {self.text!r}")
        if mandatory and not grammar.mandatory:
            raise EffectSyntaxError(f"only {sorted(mandatory_atoms())} may be marked '!' in {self.text!r}")
        if grammar.mandatory and not mandatory:
            raise EffectSyntaxError(f"{name!r} is never optional: write '!{name}' in {self.text!r}")
        args: list[str] = []
        if self.peek() == "(":
            self.take()
            args.append(self.take())
            while self.peek() == ",":
                self.take()
                args.append(self.take())
            self.take(")")
        spec = grammar.args
        if args:
            if not spec or len(args) > len(spec):
                raise EffectSyntaxError(f"{name!r} takes {len(spec)} argument(s) in {self.text!r}")
            for a, allowed_names in zip(args, spec):
                if a not in allowed_names:
                    raise EffectSyntaxError(f"bad argument {a!r} for {name!r} in {self.text!r}; allowed: {sorted(allowed_names)}")
        elif grammar.arg_required:
            raise EffectSyntaxError(f"{name!r} needs an argument in {self.text!r}; allowed: {sorted(spec[0])}")
        return Atom(name, amount, tuple(args), mandatory)


def _check_cost(node: Effect, text: str) -> None:
    if isinstance(node, Atom):
        if not ATOMS[node.name].cost:
            raise EffectSyntaxError(f"{node.name!r} cannot be a cost in {text!r}; costs are {sorted(cost_atoms())}")
    elif isinstance(node, (Seq, Choice)):
        for part in node.parts if isinstance(node, Seq) else node.options:
            _check_cost(part, text)
    elif isinstance(node, Repeat):
        _check_cost(node.body, text)
    else:
        raise EffectSyntaxError(f"nested '->' inside a cost in {text!r}")


def parse(text: str) -> Effect:
    """Parse one effect string; raise EffectSyntaxError naming what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise EffectSyntaxError("an effect must be a non-empty string")
    p = _Parser(text)
    node = p.effect()
    if p.peek() is not None:
        raise EffectSyntaxError(f"unexpected {p.peek()!r} after a complete effect in {text!r}")
    return node


def _atom_str(a: Atom) -> str:
    if a.name == "provisions":
        base = "provision" if a.amount == 1 else f"{a.amount} provisions"
    elif a.amount != 1:
        base = f"{a.amount} {a.name}"
    else:
        base = a.name
    if a.args:
        base += "(" + ", ".join(a.args) + ")"
    return ("!" if a.mandatory else "") + base


def to_text(node: Effect) -> str:
    """Canonical text; ``parse(to_text(t)) == t`` for every tree."""
    return _fmt(node, "top")


# Where a node is printed decides its parentheses:
#   "top"    the whole effect               (nothing needs parentheses)
#   "side"   either side of '->'            (a nested cost needs them)
#   "option" an option of a choice          (sequences get them, for readability)
#   "part"   a part of a sequence           (choices, sequences and costs need them)
#   "body"   the body of a repeat           (anything but an atom needs them)
def _fmt(node: Effect, where: str) -> str:
    if isinstance(node, Atom):
        return _atom_str(node)
    if isinstance(node, Repeat):
        s = f"{node.count} x {_fmt(node.body, 'body')}"
        return f"({s})" if where == "body" else s
    if isinstance(node, Seq):
        s = ", ".join(_fmt(p, "part") for p in node.parts)
        return f"({s})" if where in ("option", "part", "body") else s
    if isinstance(node, Choice):
        s = " / ".join(_fmt(o, "option") for o in node.options)
        return f"({s})" if where in ("option", "part", "body") else s
    if isinstance(node, Cost):
        s = f"{_fmt(node.cost, 'side')} -> {_fmt(node.gain, 'side')}"
        return s if where == "top" else f"({s})"
    raise TypeError(f"not an effect node: {node!r}")


def atoms(node: Effect):
    """Every atom in the tree, costs included (for validation and feature vectors)."""
    if isinstance(node, Atom):
        yield node
    elif isinstance(node, Seq):
        for p in node.parts:
            yield from atoms(p)
    elif isinstance(node, Choice):
        for o in node.options:
            yield from atoms(o)
    elif isinstance(node, Cost):
        yield from atoms(node.cost)
        yield from atoms(node.gain)
    elif isinstance(node, Repeat):
        yield from atoms(node.body)


def flatten(node: Effect | None, out: list[Effect] | None = None) -> list[Effect]:
    """The parts of an effect as an effect bag holds them: sequences and repeats are opened up, the
    rest (atoms, choices, cost-then-gain) kept whole."""
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
