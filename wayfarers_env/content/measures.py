"""Counting expressions: Space-card VP, Inspiration goals and journal requirements.

They are written in the data as arithmetic over named counts of one player
(``1 + planet``, ``3 * min(planet, comet, stars)``, ``city >= 2``, ``7 if moon else 3``) and
compiled once into plain Python functions over the player's count vector, so scoring and the
journal's legality checks cost one function call.

Grammar, usual precedence (weakest first)::

    expr   := cmp ['if' cmp 'else' expr]
    cmp    := sum [('>=' | '>' | '<=' | '<' | '==') sum]
    sum    := prod (('+' | '-') prod)*
    prod   := unary (('*' | '//') unary)*
    unary  := INT | NAME | ('min' | 'max') '(' expr (',' expr)+ ')' | '(' expr ')'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from wayfarers_env.vocabulary import GUILDS, PRIMARY_TAGS, TAGS

__all__ = ["PRIMARY_TAGS", "TAGS", "TERMS", "TERM_INDEX", "Measure", "MeasureSyntaxError", "compile_measure"]

# Everything an expression may count, for one player. The engine keeps a vector in this order.
TERMS = TAGS + (
    "land_cards",  # Land cards incl. the capital city
    "water_cards",  # Water cards incl. the capital harbour
    "space_cards",  # Space cards incl. the capital star card
    "townsfolk_cards",  # incl. the capital townsfolk
    "inspiration_cards",  # tucked ones
    "tiles",  # all upgrade tiles
    "land_tiles",
    "water_tiles",
    "space_tiles",
    "basic_tiles",
    "special_tiles",
    *(f"{guild}_influence" for guild in GUILDS),
    "silver",
    "provisions",
    "comet_majority",  # 1 when strictly more comet tags than each other player
)
TERM_INDEX = {name: i for i, name in enumerate(TERMS)}

_TOKEN = re.compile(r"\s*(?:(\d+)|([a-z_]+)|(>=|<=|==|//|[-+*<>(),]))")
_CMP = {">=", ">", "<=", "<", "=="}


class MeasureSyntaxError(ValueError):
    """A malformed counting expression; the message names the problem and what is allowed."""


class Measure:
    """A compiled counting expression. Call it with a player's count vector."""

    __slots__ = ("text", "fn", "terms")

    def __init__(self, text: str, fn: Callable[[Sequence[int]], int], terms: frozenset[str]):
        self.text = text
        self.fn = fn
        self.terms = terms

    def __call__(self, counts: Sequence[int]) -> int:
        return self.fn(counts)

    def __repr__(self) -> str:
        return f"Measure({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Measure) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks: list[str] = []
        pos = 0
        stripped = text.rstrip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if not m:
                raise MeasureSyntaxError(f"unexpected character at {pos} in {text!r}")
            self.toks.append(next(g for g in m.groups() if g is not None))
            pos = m.end()
        self.i = 0
        self.terms: set[str] = set()

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None:
            raise MeasureSyntaxError(f"unexpected end of {self.text!r}" + (f", expected {expected!r}" if expected else ""))
        if expected is not None and tok != expected:
            raise MeasureSyntaxError(f"expected {expected!r} but found {tok!r} in {self.text!r}")
        self.i += 1
        return tok

    def arguments(self) -> list[str]:
        """A call's parenthesised, comma-separated arguments, each an expression (what ``expr``
        builds: Python here, words in a subclass)."""
        self.take("(")
        args = [self.expr()]
        while self.peek() == ",":
            self.take()
            args.append(self.expr())
        self.take(")")
        return args

    # each method returns Python source text
    def expr(self) -> str:
        value = self.cmp()
        if self.peek() == "if":
            self.take()
            cond = self.cmp()
            self.take("else")
            other = self.expr()
            return f"(({value}) if ({cond}) else ({other}))"
        return value

    def cmp(self) -> str:
        left = self.sum()
        if self.peek() in _CMP:
            op = self.take()
            right = self.sum()
            return f"int(({left}) {op} ({right}))"
        return left

    def sum(self) -> str:
        out = self.prod()
        while self.peek() in ("+", "-"):
            op = self.take()
            out = f"({out} {op} {self.prod()})"
        return out

    def prod(self) -> str:
        out = self.unary()
        while self.peek() in ("*", "//"):
            op = self.take()
            out = f"({out} {op} {self.unary()})"
        return out

    def unary(self) -> str:
        tok = self.take()
        if tok.isdigit():
            return tok
        if tok == "(":
            inner = self.expr()
            self.take(")")
            return f"({inner})"
        if tok in ("min", "max"):
            args = self.arguments()
            if len(args) < 2:
                raise MeasureSyntaxError(f"{tok}() needs at least two arguments in {self.text!r}")
            return f"{tok}({', '.join(args)})"
        if tok in TERM_INDEX:
            self.terms.add(tok)
            return f"c[{TERM_INDEX[tok]}]"
        raise MeasureSyntaxError(f"unknown count {tok!r} in {self.text!r}; known counts: {', '.join(TERMS)}")


def compile_measure(text: str) -> Measure:
    """Parse and compile; raise MeasureSyntaxError naming what is wrong."""
    if not isinstance(text, str) or not text.strip():
        raise MeasureSyntaxError("a counting expression must be a non-empty string")
    p = _Parser(text)
    src = p.expr()
    if p.peek() is not None:
        raise MeasureSyntaxError(f"unexpected {p.peek()!r} in {text!r}")
    # compiled first, then evaluated as a code object: CPython 3.11 marks a KeyboardInterrupt raised
    # inside ``eval`` of a *string* as unhandled even when a caller catches it, and a ``python -m``
    # command then exits killed by SIGINT instead of with its own status (130 for Ctrl-C). Compiled
    # modules make that likely, since they check for signals only where Python code runs, and this
    # lambda's code is one such place
    code = compile(f"lambda c: {src}", "<measure>", "eval")
    fn = eval(code, {"__builtins__": {}, "int": int, "min": min, "max": max})  # noqa: S307
    return Measure(text, fn, frozenset(p.terms))
