"""Checks a saved game (``Game.to_dict()``) before the engine touches it.

A save is plain JSON that a person or a script may have edited, and the engine trusts its state
completely: a card index out of range or a token counted twice would only surface many moves
later, as an IndexError or a quietly wrong score. So ``state_from_dict`` runs two passes here.
``check_fields`` looks at the dict alone: every field has its type, length and range, every card
is of the kind its place holds, and each stack frame matches its kind's layout (``FRAMES``).
``check_state`` looks at the built state as a whole: every card, die, worker, influence token
and tile is where exactly one of them can be, counts and caravan cells match the panorama, the
stack is one the engine could have built, and its top decision has a legal action. Whatever
fails raises SaveError (a ValueError) naming the field, what is allowed and what it holds.
Both passes are linear in the size of the save. This module holds the first pass and the frame
layouts; the second pass is in rules/save_consistency.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from functools import lru_cache
from typing import Any, NamedTuple

from wayfarers_env.content import effects
from wayfarers_env.content.effects import Atom, Choice, Cost, Repeat, Seq
from wayfarers_env.content.measures import TERMS
from wayfarers_env.rules import icons
from wayfarers_env.rules.actions import LEAF_INDEX
from wayfarers_env.rules.bag import PRICE_SIZE
from wayfarers_env.rules.caravan import TileDesign, TilePosition, TilePrice
from wayfarers_env.rules.config import GameConfig
from wayfarers_env.rules.dice import AdjustDie, CaravanChain, DieSpace, RefreshDie, TradeGuild
from wayfarers_env.rules.frames import BY_KIND, SOURCE_NAMES, EffectBag
from wayfarers_env.rules.influence import CardInfluence, ChooseGuild, Fee, InfluenceSource, MoveInfluence
from wayfarers_env.rules.journal import HourglassSaving, JournalStep, ScienceGuild
from wayfarers_env.rules.market import Acquire, DrawKeep, DrawOrder
from wayfarers_env.rules.panorama import PlaceInspiration, PlaceSpaceCard, TuckTownsfolk
from wayfarers_env.rules.payments import FEE_AFTER, NOTHING_AFTER, CardInfluencePaid, Payment
from wayfarers_env.rules.solo import AI, AI_COLS, AI_ROWS, AiTurn, AiWants
from wayfarers_env.rules.solo import STEPS as SOLO_STEPS
from wayfarers_env.rules.state import EXTRA_PLACED, RESERVE
from wayfarers_env.rules.tables import (
    Tables,
    tables_for,
)
from wayfarers_env.rules.traders import ChooseTrader, TraderArrives
from wayfarers_env.rules.turn import RestReroll, Turn
from wayfarers_env.rules.worker_tiles import WorkerColumn, WorkerPair, WorkerTilePrice
from wayfarers_env.rules.workers import Capture, PlaceAnyWorker, RetrieveWorker, WorkerTarget
from wayfarers_env.vocabulary import ALL_SEATS, GUILDS, LAND_ROW, RED, ROWS, TILE_KINDS, WATER_ROW, WORKER_COLOURS


class SaveError(ValueError):
    """A saved game that cannot be loaded; the message names the field and what is allowed."""


TOP_FIELDS = tuple(
    "schema_version config rng sides players market market_inf market_workers market_placed market_extra decks known tile_supply"
    " node_tile green current turn guild_used ink_used ship_hired ink_assets extension_sides traders worker_stacks boxed"
    " solo end_trigger final_turns over stack decisions".split()
)
PLAYER_FIELDS = tuple(
    "silver provisions supply guild dice_face dice_loc workers node land water above tucked inspired tiles cells board counts"
    " acquired ink hourglass trader overseer worker_tiles".split()
)
SOLO_FIELDS = tuple("board track draw shown cards tiles cells worker_tiles bonus_due traders_below".split())
# a save names every field of its config (solo_ai_board only in a solo game's)
CONFIG_FIELDS = tuple(f.name for f in dataclass_fields(GameConfig) if f.name != "solo_ai_board")
MAX_EFFECT_TEXT = 1000  # characters of one saved effect (the longest in the box is under 100)
MAX_EFFECT_SIZE = 256  # parts of one effect with repeats opened up: keeps every walk over it short
# track bonuses owed to the solo AI: each needs a lap of the resource track (8 fees paid to the AI in one
# turn), so a real game owes a few; the bound keeps a corrupt save from queueing millions of AI steps
MAX_BONUS_DUE = 20


# ------------------------------------------------------------------------ plain values


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def fail(where: str, what: str, got: Any) -> SaveError:
    return SaveError(f"{where}: must be {what}, got {_show(got)}")


def is_int(value: Any) -> bool:
    """An int and not a bool (True == 1 in Python, but a save that says true means something else)."""
    return isinstance(value, int) and not isinstance(value, bool)


def an_int(value: Any, where: str, lo: int, hi: int | None = None) -> int:
    """An int in lo..hi (hi None: no upper bound)."""
    if not is_int(value) or value < lo or (hi is not None and value > hi):
        span = f">= {lo}" if hi is None else f"in {lo}..{hi}"
        raise fail(where, f"an int {span}", value)
    return value


def a_bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise fail(where, "true or false", value)
    return value


def a_list(value: Any, where: str, length: int | None = None) -> list:
    if not isinstance(value, list):
        raise fail(where, "a list" if length is None else f"a list of {length}", value)
    if length is not None and len(value) != length:
        raise SaveError(f"{where}: must be a list of {length}, got {len(value)} item(s)")
    return value


def ints(value: Any, where: str, length: int | None, lo: int, hi: int | None = None) -> list[int]:
    for i, v in enumerate(a_list(value, where, length)):
        an_int(v, f"{where}[{i}]", lo, hi)
    return value


def a_dict(value: Any, where: str, fields: tuple[str, ...]) -> dict:
    """A dict with exactly these keys: a missing one or a stray one (a typo) is named."""
    if not isinstance(value, dict):
        raise fail(where, "a dict", value)
    for key in fields:
        if key not in value:
            raise SaveError(f"{where + '.' if where else ''}{key}: missing field")
    extra = sorted(map(str, set(value) - set(fields)))
    if extra:
        raise SaveError(f"{where or 'saved game'}: unknown field(s) {extra}; allowed: {', '.join(fields)}")
    return value


# ------------------------------------------------------------------- facts of a box


@dataclass(frozen=True)
class Facts:
    """What a save is checked against, derived once per content (tables)."""

    row_of: tuple[int, ...]  # per card index: its deck (market row) or -1 for the capital's cards
    deck_cards: frozenset[int]
    anchors: dict[tuple[int, int, int], int]  # (design, x, y) -> covered cell mask
    faces: tuple[int, ...]  # per design: 1, or 2 when it may be flipped
    worker_bits: tuple[int, ...]  # per market row: worker colours it takes, as bits
    capital_hosts: frozenset[int]


@lru_cache(maxsize=4)
def facts_for(t: Tables) -> Facts:
    row_of = [-1] * len(t.cards)
    for row, kind in enumerate(ROWS):
        for card in t.content.decks[kind]:
            row_of[card] = row
    return Facts(
        row_of=tuple(row_of),
        deck_cards=frozenset(c for c, row in enumerate(row_of) if row >= 0),
        anchors={(d, x, y): mask for d, anchors in enumerate(t.design_masks) for x, y, mask in anchors},
        faces=tuple(len(d.faces) for d in t.designs),
        worker_bits=tuple(sum(1 << w for w in ws) for ws in t.row_workers),
        capital_hosts=frozenset((t.capital_city, t.capital_harbour)),
    )


class Box(NamedTuple):
    """A save's context while checking: its tables, facts, seats (the solo AI's included) and
    whether the game is solo."""

    t: Tables
    f: Facts
    n: int
    solo: bool = False


def a_card(value: Any, where: str, box: Box, *kinds: str) -> int:
    """A card index of one of these decks (any deck when none is named)."""
    an_int(value, where, 0, len(box.t.cards) - 1)
    row = box.f.row_of[value]
    kind = ROWS[row] if row >= 0 else "capital"
    if row < 0 or (kinds and kind not in kinds):
        wanted = " or ".join(kinds) if kinds else "deck"
        raise SaveError(f"{where}: must be a {wanted} card, got {value} ({box.t.cards[value].id}, a {kind} card)")
    return value


def a_host(value: Any, where: str, box: Box, *capital: int) -> int:
    """A land or water card, or one of the given capital cards (hosts of tucked and placed cards)."""
    an_int(value, where, 0, len(box.t.cards) - 1)
    if value in capital or box.f.row_of[value] in (LAND_ROW, WATER_ROW):
        return value
    names = ["a land card", "a water card"] + [box.t.cards[c].id for c in capital]
    raise SaveError(f"{where}: must be {', '.join(names)}, got {value} ({box.t.cards[value].id})")


# ------------------------------------------------------------------------- effects


def _resolvable(atom: Atom) -> bool:
    """A part a player can resolve from an effect bag: an icon with a catalog leaf for it."""
    ic = icons.ICONS.get(atom.name)
    if ic is None or atom.mandatory or not ic.leaves:
        return False
    return ic.keyed is None or (bool(atom.args) and ic.leaf_name(atom) in LEAF_INDEX)


def _gain(node: effects.Effect, where: str) -> int:
    """Check a gain tree; return its size with repeats opened up."""
    if isinstance(node, Atom):
        if not _resolvable(node):
            allowed = ", ".join(sorted(name for name, ic in icons.ICONS.items() if ic.leaves))
            raise SaveError(f"{where}: {effects.to_text(node)!r} is not a part a player can resolve; allowed: {allowed}")
        return 1
    if isinstance(node, Repeat):
        return node.count * _gain(node.body, where)
    if isinstance(node, Cost):
        options = node.cost.options if isinstance(node.cost, Choice) else (node.cost,)
        return 1 + sum(_price(o, where) for o in options) + _gain(node.gain, where)
    parts = node.parts if isinstance(node, Seq) else node.options
    return 1 + sum(_gain(p, where) for p in parts)


def _price(node: effects.Effect, where: str) -> int:
    """A price the engine can pay: icons that may be paid, in sequences or repeats."""
    if isinstance(node, Atom) and node.name in effects.cost_atoms():
        return 1
    if isinstance(node, Repeat):
        return node.count * _price(node.body, where)
    if isinstance(node, Seq):
        return 1 + sum(_price(p, where) for p in node.parts)
    raise SaveError(
        f"{where}: the price {effects.to_text(node)!r} cannot be paid; a price is made of {', '.join(sorted(effects.cost_atoms()))}"
    )


def an_effect(value: Any, where: str) -> effects.Effect:
    """One effect-bag item, saved as {"effect": text}: a single part (an atom, choice or cost)."""
    if not isinstance(value, dict) or set(value) != {"effect"} or not isinstance(value["effect"], str):
        raise fail(where, 'an effect {"effect": text}', value)
    text = value["effect"]
    if len(text) > MAX_EFFECT_TEXT:
        raise SaveError(f"{where}: an effect of {len(text)} characters; at most {MAX_EFFECT_TEXT}")
    try:
        node = effects.parse(text)
    except effects.EffectSyntaxError as exc:
        raise SaveError(f"{where}: {exc}") from None
    if isinstance(node, (Seq, Repeat)):
        raise SaveError(f"{where}: a bag item is one part (an atom, a choice or a cost), got the sequence {text!r}")
    if _gain(node, where) > MAX_EFFECT_SIZE:
        raise SaveError(f"{where}: {text!r} opens up into more than {MAX_EFFECT_SIZE} parts")
    return node


# ------------------------------------------------------------------- stack frames


class Param(NamedTuple):
    """One frame parameter: its meaning, and how a saved value is checked and decoded.
    ``holds``: "card" or "cards" when the frame holds cards out of every other place (they
    count in the card census), "tile" when it holds a tile taken from the supply."""

    name: str
    check: Any  # (value, where, box) -> decoded value
    holds: str = ""


def _range(lo: int, hi: int):
    return lambda v, where, box: an_int(v, where, lo, hi)


_COUNT = lambda v, where, box: an_int(v, where, 0)  # noqa: E731
_BOOL = lambda v, where, box: a_bool(v, where)  # noqa: E731
_DIE = lambda v, where, box: an_int(v, where, 0, box.t.dice - 1)  # noqa: E731
_ROW = _range(0, len(ROWS) - 1)
_DRAW_ROW = _range(LAND_ROW, WATER_ROW)  # only land and water are drawn three at a time
_SLOT = lambda v, where, box: an_int(v, where, 0, box.t.slots - 1)  # noqa: E731
_MARKET_SLOT = lambda v, where, box: an_int(v, where, 0, box.t.market_size - 1)  # noqa: E731
_COLOUR = _range(0, len(WORKER_COLOURS) - 1)
_SEAT = lambda v, where, box: an_int(v, where, 0, box.n - 1)  # noqa: E731
_DESIGN = lambda v, where, box: an_int(v, where, 0, len(box.t.designs) - 1)  # noqa: E731


def _card(*kinds: str):
    return lambda v, where, box: a_card(v, where, box, *kinds)


def _cards(lo: int, hi: int):
    def check(v, where, box):
        a_list(v, where)
        if not lo <= len(v) <= hi:
            raise fail(where, f"a list of {lo}..{hi} land or water cards", v)
        return tuple(a_card(c, f"{where}[{i}]", box, "land", "water") for i, c in enumerate(v))

    return check


def _price_vector(v, where, box):
    a_list(v, where, PRICE_SIZE)
    return tuple(an_int(x, f"{where}[{i}]", 0) for i, x in enumerate(v))


def _trader(v, where, box):
    tides = box.t.content.tides
    return an_int(v, where, 0, len(tides.traders) - 1 if tides is not None else -1)


def _half(v, where, box):
    tides = box.t.content.tides
    return an_int(v, where, 0, len(tides.halves) - 1 if tides is not None else -1)


def _items(v, where, box):
    return tuple(an_effect(item, f"{where}[{i}]") for i, item in enumerate(a_list(v, where)))


def _bag_ctx(v, where, box):
    a_list(v, where, 4)
    names = ("source", "silver discount", "provision discount", "spare pigeon")
    his = (len(SOURCE_NAMES) - 1, None, None, 1)
    return tuple(an_int(x, f"{where}[{i}] ({names[i]})", 0, his[i]) for i, x in enumerate(v))


_FEE_THEN = {"take": (_ROW, _SLOT), "worker": (_COLOUR, _MARKET_SLOT), "retrieve": (_MARKET_SLOT, _COLOUR), "capture": (_SEAT, _COLOUR)}


def _fee_then(v, where, box):
    a_list(v, where, 3)
    if not isinstance(v[0], str) or v[0] not in _FEE_THEN:
        raise fail(f"{where}[0]", f"one of {', '.join(_FEE_THEN)}", v[0])
    a, b = _FEE_THEN[v[0]]
    return (v[0], a(v[1], f"{where}[1]", box), b(v[2], f"{where}[2]", box))


def _dice(v, where, box):
    last = box.t.dice - 1
    dice = tuple(an_int(d, f"{where}[{i}]", 0, last) for i, d in enumerate(a_list(v, where)))
    if not dice or len(set(dice)) != len(dice):
        raise fail(where, f"a list of 1..{last + 1} different dice 0..{last}", v)
    return dice


def _scheme(v, where, box):
    return an_int(v, where, 0, len(box.t.content.solo.schemes) - 1)


def _ai_guild(v, where, box):
    """A guild the AI gains influence in: red only with Tides of Trade (it has no red otherwise)."""
    return an_int(v, where, 0, len(GUILDS) - 1 if box.t.content.tides is not None else RED - 1)


def _ai_tile(v, where, box):
    """The tile kind an AI step takes: a pile kind, "any" (by its priority), or a Tides of Trade worker tile."""
    kinds = (*TILE_KINDS, "any") + (("worker",) if box.t.content.tides is not None else ())
    if not isinstance(v, str) or v not in kinds:
        raise fail(where, f"one of {', '.join(kinds)}", v)
    return v


def _track_steps(v, where, box):
    """Steps along the AI's resource track: a printed amount, never a whole lap."""
    return an_int(v, where, 0, len(box.t.content.solo.track))


# The solo AI's steps (rules/solo.py ``STEPS``) and their arguments: a scheme card, a guild, a card
# row, a tile kind, a worker colour. "worker" names one colour or two (the second tried when the first
# has nowhere to go).
AI_STEPS: dict[str, tuple[Any, ...]] = {
    "start": (),
    "reveal": (),
    "act": (_scheme,),
    "rest": (),
    "shuffle": (),
    "track": (_track_steps,),
    "bonus": (),
    "focus": (),
    "guild": (_ai_guild,),
    "any_guild": (),
    "comet": (),
    "card_influence": (),
    "top_card": (_DRAW_ROW,),
    "green_worker": (),
    "journal": (),
    "extra_journal": (_range(1, 3),),  # the Black influence one more step costs: 1, 2 or 3
    "tile": (_ai_tile,),
    "card": (_ROW,),
    "worker": (_COLOUR, _COLOUR),
    "retrieve": (),
}
AI_STEP_LEAST = {"worker": 1}  # fewer arguments than listed allowed (default: all of them)
assert set(AI_STEPS) == set(SOLO_STEPS), "every step of the AI's turn has its saved layout here"


def _ai_step(v, where, box, steps: dict[str, tuple[Any, ...]]) -> tuple:
    """One step ``[name, *args]`` as the engine's tuple."""
    if not isinstance(v, list) or not v or not isinstance(v[0], str) or v[0] not in steps:
        raise fail(where, f"a step [name, ...arguments] with a name of {', '.join(steps)}", v)
    checks = steps[v[0]]
    least = AI_STEP_LEAST.get(v[0], len(checks))
    if not least <= len(v) - 1 <= len(checks):
        count = str(len(checks)) if least == len(checks) else f"{least}..{len(checks)}"
        raise SaveError(f"{where}: the step {v[0]!r} takes {count} argument(s), got {len(v) - 1}")
    return (v[0], *(check(x, f"{where}[{i + 1}]", box) for i, (check, x) in enumerate(zip(checks, v[1:]))))


def _ai_turn_steps(v, where, box):
    return tuple(_ai_step(step, f"{where}[{i}]", box, AI_STEPS) for i, step in enumerate(a_list(v, where)))


# what the AI may want of a card the human influenced: acquire it from a row, put a worker of a colour
# on it, take a worker back from it
AI_WANTS = {"card": (_ROW,), "worker": (_COLOUR,), "retrieve": ()}


def _ai_wants_step(v, where, box):
    return _ai_step(v, where, box, AI_WANTS)


def _denied(v, where, box):
    """Market indexes the human already denied the AI, each once."""
    denied = tuple(_MARKET_SLOT(x, f"{where}[{i}]", box) for i, x in enumerate(a_list(v, where)))
    if len(set(denied)) != len(denied):
        raise fail(where, "a list of different market indexes", v)
    return denied


class Layout(NamedTuple):
    """A frame kind's parameters, the record's fields in order (saved as ``[kind, *params]``). ``waits``: the
    frame may stay on the stack under later decisions (only an effect bag and the Science
    guild's offer do; the turn and a die's space choice wait only under the Trade guild; the AI's
    turn under the human's let-or-deny). ``tides``: only Tides of Trade asks it (its legal actions
    read the expansion's content). ``solo``: only a solo game asks it (the AI's turn and wants)."""

    params: tuple[Param, ...]
    waits: bool = False
    tides: bool = False
    solo: bool = False


# One entry per frame record (rules/*.py declare them); the parameter names are the record's fields.
FRAMES: dict[type, Layout] = {
    Turn: Layout(()),
    CaravanChain: Layout((Param("die", _DIE),)),
    DieSpace: Layout((Param("die", _DIE),)),
    TradeGuild: Layout((Param("steps", _range(1, 2)), Param("die", lambda v, where, box: an_int(v, where, -1, box.t.dice - 1)))),
    EffectBag: Layout((Param("items", _items), Param("ctx", _bag_ctx)), waits=True),
    ChooseGuild: Layout(()),
    InfluenceSource: Layout((Param("on_card", _range(0, 2)), Param("target", _MARKET_SLOT))),
    CardInfluence: Layout(()),
    MoveInfluence: Layout(()),
    JournalStep: Layout((Param("second", _range(0, 1)),)),
    ScienceGuild: Layout((), waits=True),
    RefreshDie: Layout(()),
    AdjustDie: Layout(()),
    RetrieveWorker: Layout(()),
    Acquire: Layout(
        (Param("row", _ROW), Param("free", _BOOL), Param("discount", _COUNT), Param("allow_draw", _BOOL), Param("spare_pigeon", _BOOL))
    ),
    Fee: Layout((Param("owner", _SEAT), Param("then", _fee_then))),
    DrawKeep: Layout((Param("row", _DRAW_ROW), Param("cards", _cards(1, 3), "cards"))),
    DrawOrder: Layout((Param("row", _DRAW_ROW), Param("rest", _cards(2, 2), "cards"), Param("kept", _card("land", "water"), "card"))),
    TuckTownsfolk: Layout((Param("card", _card("townsfolk"), "card"),)),
    PlaceSpaceCard: Layout((Param("card", _card("space"), "card"),)),
    PlaceInspiration: Layout((Param("card", _card("inspiration"), "card"), Param("slot", _SLOT))),
    TileDesign: Layout((Param("kind", _range(0, 4)), Param("free", _BOOL), Param("discount", _COUNT))),
    TilePrice: Layout((Param("design", _DESIGN, "tile"), Param("discount", _COUNT))),
    TilePosition: Layout((Param("design", _DESIGN, "tile"),)),
    RestReroll: Layout((Param("dice", _dice),)),
    WorkerTarget: Layout((Param("colour", _COLOUR),)),
    HourglassSaving: Layout((Param("source", lambda v, where, box: an_int(v, where, 0, len(box.t.nodes) - 1)),), tides=True),
    Payment: Layout((Param("need", _price_vector), Param("then", _range(NOTHING_AFTER, FEE_AFTER))), tides=True),
    ChooseTrader: Layout((Param("ctx", _bag_ctx),), tides=True),
    TraderArrives: Layout((Param("trader", _trader),), waits=True, tides=True),
    WorkerTilePrice: Layout((), tides=True),
    WorkerPair: Layout((), tides=True),
    WorkerColumn: Layout((Param("top", _half), Param("bottom", _half)), tides=True),
    CardInfluencePaid: Layout((Param("left", _range(1, 15)),), tides=True),
    Capture: Layout((Param("then_place", _BOOL),), tides=True),
    PlaceAnyWorker: Layout((), tides=True),
    AiTurn: Layout((Param("steps", _ai_turn_steps),), waits=True, solo=True),
    AiWants: Layout((Param("step", _ai_wants_step), Param("denied", _denied)), solo=True),
}
for _record, _layout in FRAMES.items():  # frame records are NamedTuple classes, keyed here as plain types
    assert tuple(p.name for p in _layout.params) == _record._fields, _record  # type: ignore[attr-defined]


def a_frame(value: Any, where: str, box: Box) -> Any:
    """A saved ``[kind, *params]`` checked parameter by parameter, as the engine's frame record."""
    if not isinstance(value, list) or not value:
        raise fail(where, "a frame [kind, ...parameters]", value)
    rule = BY_KIND[an_int(value[0], f"{where}[0]", 0, len(BY_KIND) - 1)]
    if FRAMES[rule.record].tides and box.t.content.tides is None:
        raise SaveError(f"{where}: a {rule.name} frame is Tides of Trade's; this game is a base game (config.tides_of_trade)")
    if FRAMES[rule.record].solo and not box.solo:
        raise SaveError(f"{where}: a {rule.name} frame is the solo AI's; this game is not solo (config.num_players 1)")
    params = FRAMES[rule.record].params
    if len(value) != 1 + len(params):
        names = ", ".join(["kind"] + [p.name for p in params])
        raise SaveError(f"{where}: a {rule.name} frame is [{names}], got {len(value)} item(s)")
    return rule.load(tuple(p.check(value[i + 1], f"{where}[{i + 1}] ({rule.name} {p.name})", box) for i, p in enumerate(params)))


def held(frame: Any, holds: str):
    """The cards or tiles a frame holds: (value, saved parameter index) pairs."""
    for i, p in enumerate(FRAMES[type(frame)].params):
        if p.holds == holds or (holds == "card" and p.holds == "cards"):
            for v in frame[i] if p.holds == "cards" else (frame[i],):
                yield v, i + 1


# ---------------------------------------------------------------- pass 1: the fields


class Checked(NamedTuple):
    """What pass 1 decodes for state_from_dict; every other field is used as saved."""

    config: GameConfig
    tables: Tables
    rng: random.Random
    stack: list[Any]


def check_fields(d: dict[str, Any]) -> Checked:
    """Types, lengths and ranges of every field, and the stack decoded into the engine's frames."""
    a_dict(d, "", TOP_FIELDS)
    config = _config(d["config"])
    t = tables_for(config.content())
    box = Box(t, facts_for(t), config.seats, config.solo)
    rng = _rng(d["rng"])
    sides = d["sides"]
    if not isinstance(sides, str) or len(sides) != 3 or set(sides) - {"a", "b"}:
        raise fail("sides", "three letters a/b for main-board sections 1-3", sides)
    if config.board_sides not in ("random", sides):
        raise SaveError(f"sides: must be {config.board_sides!r} as config.board_sides says, got {sides!r}")
    a_list(d["players"], "players", box.n)
    for k, pd in enumerate(d["players"]):
        _player(pd, f"players[{k}]", box, ai=box.solo and k == AI)
    size, bits = t.market_size, (1 << len(WORKER_COLOURS)) - 1
    for i, card in enumerate(a_list(d["market"], "market", size)):
        if not is_int(card) or card != -1:  # -1: an empty slot
            a_card(card, f"market[{i}]", box, ROWS[i // t.slots])
    ints(d["market_inf"], "market_inf", size, -1, box.n - 1)
    ints(d["market_workers"], "market_workers", size, 0, bits)
    ints(d["market_placed"], "market_placed", size, 0, bits)
    ints(d["market_extra"], "market_extra", size, 0, (1 << 2 * EXTRA_PLACED) - 1)
    a_list(d["decks"], "decks", len(ROWS))
    a_list(d["known"], "known", len(ROWS))
    for row, kind in enumerate(ROWS):
        for i, card in enumerate(a_list(d["decks"][row], f"decks[{row}]")):
            a_card(card, f"decks[{row}][{i}]", box, kind)
        ints(d["known"][row], f"known[{row}]", len(d["decks"][row]), 0, ALL_SEATS)
    ints(d["tile_supply"], "tile_supply", len(t.designs), 0)
    ints(d["node_tile"], "node_tile", len(t.nodes), -1, len(t.content.journal_tiles) - 1)
    for name, length in (("green", len(t.green_columns)), ("guild_used", len(GUILDS))):
        for i, v in enumerate(a_list(d[name], name, length)):
            a_bool(v, f"{name}[{i}]")
    an_int(d["current"], "current", 0, box.n - 1)
    an_int(d["turn"], "turn", 0)
    an_int(d["decisions"], "decisions", 0)
    an_int(d["end_trigger"], "end_trigger", -1, box.n - 1)
    an_int(d["final_turns"], "final_turns", -1, box.n)
    a_bool(d["ship_hired"], "ship_hired")
    a_bool(d["ink_assets"], "ink_assets")
    a_bool(d["ink_used"], "ink_used")
    _tides_fields(d, box)
    _solo(d["solo"], box, config)
    a_bool(d["over"], "over")
    stack = [a_frame(f, f"stack[{i}]", box) for i, f in enumerate(a_list(d["stack"], "stack"))]
    return Checked(config, t, rng, stack)


def _tides_fields(d: dict[str, Any], box: Box) -> None:
    """Tides of Trade's table: empty in the base game; where each piece is, checked by save_consistency."""
    tides = box.t.content.tides
    sides = d["extension_sides"]
    want = 0 if tides is None else 2
    if not isinstance(sides, str) or len(sides) != want or set(sides) - {"a", "b"}:
        raise fail("extension_sides", f"{want} letters a/b (the main-board extensions; none without Tides of Trade)", sides)
    ints(d["traders"], "traders", 0 if tides is None else len(tides.traders), 0, 3)
    stacks = a_list(d["worker_stacks"], "worker_stacks", 0 if tides is None else 2 * tides.stacks)
    halves = 0 if tides is None else len(tides.halves)
    for i, stack in enumerate(stacks):
        ints(stack, f"worker_stacks[{i}]", None, 0, halves - 1)
    for i, card in enumerate(a_list(d["boxed"], "boxed")):
        a_card(card, f"boxed[{i}]", box, "townsfolk")


def _solo(s: Any, box: Box, config: GameConfig) -> None:
    """The solo AI's pieces beyond its seat: null unless the game is solo. Where its cards, tiles and
    worker tiles are against everyone else's is checked by save_consistency."""
    if not box.solo:
        if s is not None:
            raise fail("solo", "null: the AI's pieces belong to a solo game (config.num_players 1)", s)
        return
    t, c = box.t, box.t.content.solo
    a_dict(s, "solo", SOLO_FIELDS)
    board = an_int(s["board"], "solo.board", 0, len(c.ai_boards) - 1)
    want = (config.solo_ai_board or 0) - 1  # set in every solo config
    if board != want:
        raise SaveError(f"solo.board: must be {want} (config.solo_ai_board {config.solo_ai_board}), got {board}")
    an_int(s["track"], "solo.track", 0, len(c.track) - 1)
    schemes = len(c.schemes)
    draw = ints(s["draw"], "solo.draw", None, 0, schemes - 1)
    shown = ints(s["shown"], "solo.shown", None, 0, schemes - 1)
    if sorted(draw + shown) != list(range(schemes)):
        raise SaveError(f"solo.draw, solo.shown: together must hold the scheme cards 0..{schemes - 1} once each, got {draw} and {shown}")
    for i, card in enumerate(a_list(s["cards"], "solo.cards")):
        a_card(card, f"solo.cards[{i}]", box)
    ints(s["tiles"], "solo.tiles", None, 0, len(t.designs) - 1)
    an_int(s["cells"], "solo.cells", 0, (1 << AI_COLS * AI_ROWS) - 1)
    tides = t.content.tides
    halves = len(tides.halves) - 1 if tides is not None else -1
    pairs = a_list(s["worker_tiles"], "solo.worker_tiles", None if tides is not None else 0)
    for i, pair in enumerate(pairs):
        ints(pair, f"solo.worker_tiles[{i}]", 2, 0, halves)
    an_int(s["bonus_due"], "solo.bonus_due", 0, MAX_BONUS_DUE)
    # Tides of Trade: at most one trader waits below the extensions (a second one sends both back)
    ints(s["traders_below"], "solo.traders_below", None if tides is not None else 0, 0, len(tides.traders) - 1 if tides else -1)
    if len(s["traders_below"]) > 1:
        raise SaveError(f"solo.traders_below: at most 1 trader waits below the extensions (2 go back at once), got {s['traders_below']}")


def _config(c: Any) -> GameConfig:
    a_dict(c, "config", CONFIG_FIELDS + (("solo_ai_board",) if isinstance(c, dict) and "solo_ai_board" in c else ()))
    opts = c["content_options"]
    if not isinstance(opts, list) or not all(isinstance(o, str) for o in opts):
        raise fail("config.content_options", "a list of option names", opts)
    boards = c["player_boards"]
    if isinstance(boards, list) and any(isinstance(b, bool) for b in boards):
        raise fail("config.player_boards", "'random' or a list of board numbers 1-4", boards)
    try:
        return GameConfig.from_dict(c)
    except (ValueError, TypeError) as exc:
        raise SaveError(f"config: {exc}") from None


def _rng(r: Any) -> random.Random:
    a_list(r, "rng", 3)
    if not is_int(r[0]) or r[0] != 3:
        raise fail("rng[0]", "3 (the generator's state version)", r[0])
    ints(r[1], "rng[1]", 625, 0, 2**32 - 1)
    if r[1][-1] > 624:
        raise fail("rng[1][624]", "a position 0..624", r[1][-1])
    if r[2] is not None and not isinstance(r[2], float):
        raise fail("rng[2]", "null or a float", r[2])
    rng = random.Random()
    try:
        rng.setstate((r[0], tuple(r[1]), r[2]))
    except (ValueError, TypeError, OverflowError) as exc:
        raise SaveError(f"rng: not a generator state ({exc})") from None
    return rng


def _player(pd: Any, where: str, box: Box, ai: bool = False) -> None:
    """One seat's fields; the solo AI's seat (``ai``) has no dice and no worker caravan."""
    t = box.t
    a_dict(pd, where, PLAYER_FIELDS)
    for key in ("silver", "provisions", "supply", "cells", "ink"):
        an_int(pd[key], f"{where}.{key}", 0)
    a_bool(pd["hourglass"], f"{where}.hourglass")
    tides = t.content.tides
    an_int(pd["trader"], f"{where}.trader", -1, -1 if tides is None else len(tides.traders) - 1)
    if not is_int(pd["overseer"]) or pd["overseer"] != -1:
        a_card(pd["overseer"], f"{where}.overseer", box, "townsfolk")
    for key in ("dice_face", "dice_loc", "worker_tiles") if ai else ():
        if pd[key] != []:
            raise fail(f"{where}.{key}", "[]: the solo AI has no dice and no worker caravan", pd[key])
    columns = a_list(pd["worker_tiles"], f"{where}.worker_tiles", 0 if tides is None or ai else len(tides.worker_columns))
    for i, pair in enumerate(columns):
        ints(pair, f"{where}.worker_tiles[{i}]", 2, -1, len(tides.halves) - 1 if tides is not None else -1)
    ints(pd["guild"], f"{where}.guild", len(GUILDS), 0)
    dice = 0 if ai else t.dice
    ints(pd["dice_face"], f"{where}.dice_face", dice, 1, 6)
    ints(pd["dice_loc"], f"{where}.dice_loc", dice, RESERVE, len(t.space_card) - 1)
    ints(pd["workers"], f"{where}.workers", len(WORKER_COLOURS), 0)
    an_int(pd["node"], f"{where}.node", 0, len(t.nodes) - 1)
    an_int(pd["board"], f"{where}.board", 0, len(t.content.caravan.boards) - 1)
    ints(pd["counts"], f"{where}.counts", len(TERMS), 0)
    for key in ("land", "water"):
        for i, card in enumerate(a_list(pd[key], f"{where}.{key}")):
            a_card(card, f"{where}.{key}[{i}]", box, key)
    for i, card in enumerate(a_list(pd["acquired"], f"{where}.acquired")):
        a_card(card, f"{where}.acquired[{i}]", box)
    for key, host, kind in (
        ("above", lambda v, w: a_host(v, w, box), "space"),
        ("tucked", lambda v, w: a_host(v, w, box, t.capital_city, t.capital_harbour), "townsfolk"),
        ("inspired", lambda v, w: an_int(v, w, 0, len(t.cards) - 1), "inspiration"),
    ):
        seen = set()
        for i, pair in enumerate(a_list(pd[key], f"{where}.{key}")):
            a_list(pair, f"{where}.{key}[{i}]", 2)
            host(pair[0], f"{where}.{key}[{i}][0]")
            a_card(pair[1], f"{where}.{key}[{i}][1]", box, kind)
            if pair[0] in seen:
                raise SaveError(f"{where}.{key}[{i}][0]: card {pair[0]} already has one; a card hosts at most one")
            seen.add(pair[0])
    for i, tile in enumerate(a_list(pd["tiles"], f"{where}.tiles")):
        w = f"{where}.tiles[{i}]"
        a_list(tile, w, 4)
        d = an_int(tile[0], f"{w}[0] (design)", 0, len(t.designs) - 1)
        an_int(tile[1], f"{w}[1] (x)", 0, t.cols - 1)
        an_int(tile[2], f"{w}[2] (y)", 0, t.rows - 1)
        an_int(tile[3], f"{w}[3] (flipped)", 0, box.f.faces[d] - 1)
        if (d, tile[1], tile[2]) not in box.f.anchors:
            raise SaveError(f"{w}: design {t.designs[d].id} at x={tile[1]}, y={tile[2]} sticks out of the {t.cols}x{t.rows} caravan")
