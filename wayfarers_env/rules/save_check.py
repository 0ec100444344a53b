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
Both passes are linear in the size of the save.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from wayfarers_env.content import effects
from wayfarers_env.content.effects import Atom, Choice, Cost, Repeat, Seq
from wayfarers_env.content.measures import TAGS, TERMS
from wayfarers_env.rules import icons
from wayfarers_env.rules.actions import LEAF_INDEX
from wayfarers_env.rules.caravan import TileDesign, TilePosition, TilePrice
from wayfarers_env.rules.config import GameConfig
from wayfarers_env.rules.dice import AdjustDie, CaravanChain, DieSpace, RefreshDie, TradeGuild
from wayfarers_env.rules.frames import BY_KIND, RULES, SOURCE_NAMES, EffectBag
from wayfarers_env.rules.influence import CardInfluence, ChooseGuild, Fee, InfluenceSource, MoveInfluence
from wayfarers_env.rules.journal import JournalStep, ScienceGuild
from wayfarers_env.rules.market import Acquire, DrawKeep, DrawOrder, TakeCard
from wayfarers_env.rules.panorama import PlaceInspiration, PlaceSpaceCard, TuckTownsfolk
from wayfarers_env.rules.state import RESERVE, SUPPLY, GameState, PlayerState
from wayfarers_env.rules.tables import (
    T_INSPIRATION,
    T_LAND_CARDS,
    T_SPACE_CARDS,
    T_TILE_KIND,
    T_TILES,
    T_TOWNSFOLK,
    T_WATER_CARDS,
    Tables,
    tables_for,
)
from wayfarers_env.rules.turn import RestReroll, Turn
from wayfarers_env.rules.workers import PlaceWorker, RetrieveWorker, TakeBackWorker, WorkerTarget
from wayfarers_env.vocabulary import ALL_SEATS, GREEN_WORKER, GUILDS, LAND_ROW, ROWS, WATER_ROW, WORKER_COLOURS


class SaveError(ValueError):
    """A saved game that cannot be loaded; the message names the field and what is allowed."""


TOP_FIELDS = tuple(
    "schema_version config rng sides players market market_inf market_workers market_placed decks known tile_supply"
    " node_tile green current turn guild_used ship_hired end_trigger final_turns over stack decisions".split()
)
PLAYER_FIELDS = tuple(
    "silver provisions supply guild dice_face dice_loc workers node land water above tucked inspired tiles cells board counts"
    " acquired".split()
)
CONFIG_FIELDS = ("num_players", "board_sides", "player_boards", "content_options", "auto_forced", "max_turns")
MAX_EFFECT_TEXT = 1000  # characters of one saved effect (the longest in the box is under 100)
MAX_EFFECT_SIZE = 256  # parts of one effect with repeats opened up: keeps every walk over it short


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
    """A save's context while checking: its tables, facts and player count."""

    t: Tables
    f: Facts
    n: int


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


def _items(v, where, box):
    return tuple(an_effect(item, f"{where}[{i}]") for i, item in enumerate(a_list(v, where)))


def _bag_ctx(v, where, box):
    a_list(v, where, 4)
    names = ("source", "silver discount", "provision discount", "spare pigeon")
    his = (len(SOURCE_NAMES) - 1, None, None, 1)
    return tuple(an_int(x, f"{where}[{i}] ({names[i]})", 0, his[i]) for i, x in enumerate(v))


_FEE_THEN = {"take": (_ROW, _SLOT), "worker": (_COLOUR, _MARKET_SLOT), "retrieve": (_MARKET_SLOT, _COLOUR)}


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


class Layout(NamedTuple):
    """A frame kind's parameters, the record's fields in order (saved as ``[kind, *params]``). ``waits``: the
    frame may stay on the stack under later decisions (only an effect bag and the Science
    guild's offer do; the turn and a die's space choice wait only under the Trade guild)."""

    params: tuple[Param, ...]
    waits: bool = False


# One entry per frame record (rules/*.py declare them); the parameter names are the record's fields.
FRAMES: dict[type, Layout] = {
    Turn: Layout(()),
    CaravanChain: Layout((Param("die", _DIE),)),
    DieSpace: Layout((Param("die", _DIE),)),
    TradeGuild: Layout((Param("steps", _range(1, 2)), Param("die", lambda v, where, box: an_int(v, where, -1, box.t.dice - 1)))),
    EffectBag: Layout((Param("items", _items), Param("ctx", _bag_ctx)), waits=True),
    ChooseGuild: Layout(()),
    InfluenceSource: Layout((Param("on_card", _range(0, 1)), Param("target", _MARKET_SLOT))),
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
}
for _record, _layout in FRAMES.items():  # frame records are NamedTuple classes, keyed here as plain types
    assert tuple(p.name for p in _layout.params) == _record._fields, _record  # type: ignore[attr-defined]


def a_frame(value: Any, where: str, box: Box) -> Any:
    """A saved ``[kind, *params]`` checked parameter by parameter, as the engine's frame record."""
    if not isinstance(value, list) or not value:
        raise fail(where, "a frame [kind, ...parameters]", value)
    rule = BY_KIND[an_int(value[0], f"{where}[0]", 0, len(BY_KIND) - 1)]
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
    t = tables_for(config.content_options)
    box = Box(t, facts_for(t), config.num_players)
    rng = _rng(d["rng"])
    sides = d["sides"]
    if not isinstance(sides, str) or len(sides) != 3 or set(sides) - {"a", "b"}:
        raise fail("sides", "three letters a/b for main-board sections 1-3", sides)
    if config.board_sides not in ("random", sides):
        raise SaveError(f"sides: must be {config.board_sides!r} as config.board_sides says, got {sides!r}")
    a_list(d["players"], "players", box.n)
    for k, pd in enumerate(d["players"]):
        _player(pd, f"players[{k}]", box)
    size, bits = t.market_size, (1 << len(WORKER_COLOURS)) - 1
    for i, card in enumerate(a_list(d["market"], "market", size)):
        if not is_int(card) or card != -1:  # -1: an empty slot
            a_card(card, f"market[{i}]", box, ROWS[i // t.slots])
    ints(d["market_inf"], "market_inf", size, -1, box.n - 1)
    ints(d["market_workers"], "market_workers", size, 0, bits)
    ints(d["market_placed"], "market_placed", size, 0, bits)
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
    a_bool(d["over"], "over")
    stack = [a_frame(f, f"stack[{i}]", box) for i, f in enumerate(a_list(d["stack"], "stack"))]
    return Checked(config, t, rng, stack)


def _config(c: Any) -> GameConfig:
    a_dict(c, "config", CONFIG_FIELDS)
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


def _player(pd: Any, where: str, box: Box) -> None:
    t = box.t
    a_dict(pd, where, PLAYER_FIELDS)
    for key in ("silver", "provisions", "supply", "cells"):
        an_int(pd[key], f"{where}.{key}", 0)
    ints(pd["guild"], f"{where}.guild", len(GUILDS), 0)
    ints(pd["dice_face"], f"{where}.dice_face", t.dice, 1, 6)
    ints(pd["dice_loc"], f"{where}.dice_loc", t.dice, RESERVE, len(t.space_card) - 1)
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


# ----------------------------------------------------------------- pass 2: the whole


def check_state(g: GameState) -> None:
    """Conservation and consistency of the built state, then the stack's shape and top decision."""
    f = facts_for(g.tables)
    for k, p in enumerate(g.players):
        _panorama(g, k, p, f)
    _cards_once(g, f)
    _tokens(g, f)
    _tiles(g)
    _journal(g)
    _stack(g)


def recount(t: Tables, p: PlayerState) -> list[int]:
    """The static counts vector of a player, computed from scratch from the panorama."""
    counts = [0] * len(p.counts)
    vectors = [t.cards[c].tag_counts for c in (t.capital_city, t.capital_harbour, t.capital_star, *p.land, *p.water)]
    vectors += [t.cards[c].tag_counts for c in p.above.values()]
    vectors += [t.designs[d].tag_counts for d, _x, _y, _f in p.tiles]
    for k, total in enumerate(map(sum, zip(*vectors))):
        counts[k] = total
    for tag in t.content.capital.centre_tags:
        counts[TAGS.index(tag)] += 1
    for d, _x, _y, _f in p.tiles:
        counts[T_TILES] += 1
        counts[T_TILE_KIND[t.design_kind[d]]] += 1
    counts[T_LAND_CARDS] = 1 + len(p.land)
    counts[T_WATER_CARDS] = 1 + len(p.water)
    counts[T_SPACE_CARDS] = 1 + len(p.above)
    counts[T_TOWNSFOLK] = 1 + len(p.tucked)
    counts[T_INSPIRATION] = len(p.inspired)
    return counts


def _panorama(g: GameState, k: int, p: PlayerState, f: Facts) -> None:
    t = g.tables
    where = f"players[{k}]"
    cards = set(p.land) | set(p.water)
    for key, allowed, what in (
        ("above", cards, "one of this player's land or water cards"),
        ("tucked", cards | f.capital_hosts, "one of this player's land or water cards or the capital city or harbour"),
        ("inspired", set(p.above.values()) | {t.capital_star}, "one of this player's space cards or the capital star"),
    ):
        for i, host in enumerate(getattr(p, key)):
            if host not in allowed:
                raise SaveError(f"{where}.{key}[{i}][0]: must be {what}, got {host} ({t.cards[host].id})")
    owned = cards | set(p.above.values()) | set(p.tucked.values()) | set(p.inspired.values())
    listed: set[int] = set()
    for i, card in enumerate(p.acquired):
        if card not in owned or card in listed:
            raise SaveError(f"{where}.acquired[{i}]: must be a card of this player's panorama, listed once, got {card}")
        listed.add(card)
    if p.acquired and k != g.current:
        raise SaveError(f"{where}.acquired: must be empty: only the current player ({g.current}) acquires during a turn")
    spaces = {0, 1, *t.centre_spaces} | {t.space_of_card[c] for c in cards if c in t.space_of_card}
    taken: dict[int, int] = {}
    for d, loc in enumerate(p.dice_loc):
        if loc >= 0:
            if loc not in spaces:
                raise SaveError(f"{where}.dice_loc[{d}]: die space {loc} is not one of this player's; allowed: -2, -1, {sorted(spaces)}")
            if loc in taken:
                raise SaveError(f"{where}.dice_loc[{d}]: die space {loc} already holds die {taken[loc]}; one die per space")
            taken[loc] = d
    cells = 0
    for i, (d, x, y, _flip) in enumerate(p.tiles):
        mask = f.anchors[(d, x, y)]
        if mask & (cells | t.blocked):
            raise SaveError(f"{where}.tiles[{i}]: design {t.designs[d].id} at x={x}, y={y} overlaps another tile or a printed cell")
        cells |= mask
    if p.cells != cells:
        raise SaveError(f"{where}.cells: must be {cells}, the cells its tiles cover, got {p.cells}")
    expected = recount(t, p)
    for i, (want, got) in enumerate(zip(expected, p.counts)):
        if want != got:
            raise SaveError(f"{where}.counts[{i}] ({TERMS[i]}): must be {want}, a recount of the panorama, got {got}")
    boards = g.config.player_boards
    if boards != "random" and p.board != boards[k] - 1:
        raise SaveError(f"{where}.board: must be {boards[k] - 1} (config.player_boards), got {p.board}")
    if p.board in (q.board for q in g.players[:k]):
        raise SaveError(f"{where}.board: board {p.board} is another player's; each player has their own")


def _cards_once(g: GameState, f: Facts) -> None:
    """Every card of the decks is in exactly one place: a deck, the market, a panorama or a
    pending decision that holds it (a private draw, a card waiting to be placed)."""
    seen: dict[int, str] = {}

    def put(card: int, where: str) -> None:
        if card in seen:
            raise SaveError(f"{where}: card {card} ({g.tables.cards[card].id}) is also at {seen[card]}; every card exists exactly once")
        seen[card] = where

    for row, deck in enumerate(g.decks):
        for i, card in enumerate(deck):
            put(card, f"decks[{row}][{i}]")
    for i, card in enumerate(g.market):
        if card >= 0:
            put(card, f"market[{i}]")
    for k, p in enumerate(g.players):
        for key in ("land", "water"):
            for i, card in enumerate(getattr(p, key)):
                put(card, f"players[{k}].{key}[{i}]")
        for key in ("above", "tucked", "inspired"):
            for i, card in enumerate(getattr(p, key).values()):
                put(card, f"players[{k}].{key}[{i}][1]")
    for s, frame in enumerate(g.stack):
        for card, i in held(frame, "card"):
            put(card, f"stack[{s}][{i}]")
    if len(seen) != len(f.deck_cards):
        missing = sorted(f.deck_cards - set(seen))
        ids = ", ".join(g.tables.cards[c].id for c in missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise SaveError(f"decks: {len(missing)} card(s) are nowhere ({ids}); each must be in a deck, the market, a panorama or the stack")


def _tokens(g: GameState, f: Facts) -> None:
    """Influence per player, workers per colour and the market slots that carry them."""
    total = g.tables.content.player["influence"]
    for k, p in enumerate(g.players):
        on_cards = g.market_inf.count(k)
        if p.supply + sum(p.guild) + on_cards != total:
            raise SaveError(
                f"players[{k}].supply: supply {p.supply} + guilds {sum(p.guild)} + on cards {on_cards} must be {total} influence, "
                f"the player's total"
            )
    colours = range(len(WORKER_COLOURS))
    workers = [0] * len(WORKER_COLOURS)
    for p in g.players:
        for c in colours:
            workers[c] += p.workers[c]
    slots = g.tables.slots
    for i in range(len(g.market)):
        bits = g.market_workers[i]
        if g.market[i] < 0 and (bits or g.market_placed[i] or g.market_inf[i] >= 0):
            raise SaveError(f"market[{i}]: an empty slot carries influence or workers (market_inf, market_workers, market_placed)")
        if bits & ~f.worker_bits[i // slots]:
            row, allowed = ROWS[i // slots], f.worker_bits[i // slots]
            raise SaveError(f"market_workers[{i}]: the {row} row takes worker bits {allowed} (1 yellow, 2 blue, 4 green), got {bits}")
        if g.market_placed[i] & ~bits:
            raise SaveError(f"market_placed[{i}]: must name workers on that card ({bits}), got {g.market_placed[i]}")
        for c in colours:
            workers[c] += bits >> c & 1
    workers[GREEN_WORKER] += sum(g.green)
    start = g.tables.content.player["workers"]
    want = [g.n * start.count(name) for name in WORKER_COLOURS]
    want[GREEN_WORKER] = g.tables.content.player["green_workers"]
    for c, name in enumerate(WORKER_COLOURS):
        if workers[c] != want[c]:
            places = "players' supplies, market cards" + (", journal" if c == GREEN_WORKER else "")
            raise SaveError(f"players[*].workers[{c}]: the game has {want[c]} {name} workers, got {workers[c]} ({places})")


def _tiles(g: GameState) -> None:
    t = g.tables
    out = Counter(d for p in g.players for d, *_ in p.tiles)
    for frame in g.stack:
        out.update(d for d, _i in held(frame, "tile"))
    for d, design in enumerate(t.designs):
        start = 1 if design.kind == "special" else g.n * t.content.copies_per_player
        if g.tile_supply[d] + out[d] != start:
            raise SaveError(
                f"tile_supply[{d}]: {design.id} has {g.tile_supply[d]} in supply and {out[d]} taken; the box holds {start} "
                f"for {g.n} players"
            )


def _journal(g: GameState) -> None:
    t = g.tables
    tiles = [g.node_tile[v] for v in t.tile_nodes]
    if sorted(tiles) != list(range(len(t.content.journal_tiles))):
        raise SaveError(f"node_tile: the journal tiles must lie one on each tile node {list(t.tile_nodes)}, got {tiles}")
    for v, tile in enumerate(g.node_tile):
        if tile >= 0 and not t.nodes[v].takes_tile:
            raise SaveError(f"node_tile[{v}]: node {t.nodes[v].id} takes no journal tile, got {tile}")
    finals = [k for k, p in enumerate(g.players) if t.nodes[p.node].final]
    for k in finals:
        if any(g.players[j].node == g.players[k].node for j in finals if j < k):
            raise SaveError(f"players[{k}].node: final space {t.nodes[g.players[k].node].id} is taken; one marker per final space")
    if g.end_trigger >= 0 and g.end_trigger not in finals:
        raise SaveError(f"end_trigger: player {g.end_trigger} ended the game, so must stand on a final journal space")
    if g.end_trigger < 0 and finals:
        raise SaveError(f"end_trigger: must be a seat: player {finals[0]} stands on a final journal space")
    if g.final_turns >= 0 and g.end_trigger < 0:
        raise SaveError(f"final_turns: must be -1 while no one has ended the game (end_trigger -1), got {g.final_turns}")
    if g.final_turns == 0 and not g.over:
        raise SaveError("over: must be true once final_turns reaches 0")
    if not g.over and g.turn >= g.config.max_turns:
        raise SaveError(f"turn: must be below config.max_turns ({g.config.max_turns}) in a game not over, got {g.turn}")
    if g.over and g.end_trigger < 0 and g.turn < g.config.max_turns:
        raise SaveError(f"over: a game no one ended on the journal is over only at config.max_turns ({g.config.max_turns}) turns")


def _stack(g: GameState) -> None:
    stack = g.stack
    if g.over:
        if stack:
            raise SaveError(f"stack: must be empty in a game that is over, got {len(stack)} frame(s)")
        return
    if not stack:
        raise SaveError("stack: must hold the decision being asked in a game not over, got []")
    p = g.players[g.current]
    top = len(stack) - 1
    for s, frame in enumerate(stack):
        where = f"stack[{s}] ({RULES[type(frame)].name})"
        under_yellow = s == top - 1 and type(stack[top]) is TradeGuild
        if s < top and not FRAMES[type(frame)].waits and not under_yellow:
            raise SaveError(f"{where}: only an effect or science_guild frame waits under another decision")
        rule = _RULES.get(type(frame))
        if rule is not None:
            rule(g, p, stack, s, where)
    _top_decision(g, stack[top], f"stack[{top}] ({RULES[type(stack[top])].name})")


def _top_decision(g: GameState, top: Any, where: str) -> None:
    """The engine settles what needs no decision before it stops, so a saved top frame is a
    real decision with at least one legal action."""
    rule = RULES[type(top)]
    if rule.settle is not None:
        probe = g.clone()  # settling pops the frame
        if rule.settle(probe, probe.stack[-1]):
            raise SaveError(f"{where}: the engine settles this {rule.name} frame by itself (nothing to decide), so it is never asked")
    if not rule.legal(g, top):
        raise SaveError(f"{where}: this decision has no legal action in the saved position")


def _die_in_supply(g, p, stack, s, where) -> None:
    d = stack[s].die
    if d >= 0 and p.dice_loc[d] != SUPPLY:
        raise SaveError(f"{where}: die {d} of the current player must be in the supply, its location is {p.dice_loc[d]}")


def _rule_turn(g, p, stack, s, where) -> None:
    if s != 0:
        raise SaveError(f"{where}: the turn's main-action choice lies only at the bottom of the stack")


def _rule_yellow(g, p, stack, s, where) -> None:
    die = stack[s].die
    below = stack[s - 1] if s > 0 else None
    right = type(below) is Turn if die < 0 else type(below) is DieSpace and below.die == die
    if not right:
        what = "the turn's choice" if die < 0 else f"the die-space choice of die {die}"
        raise SaveError(f"{where}: the Trade guild's change lies right on {what}, got {below!r} below it")
    if die >= 0 and p.dice_loc[die] != SUPPLY:
        raise SaveError(f"{where}: die {die} of the current player must be in the supply, its location is {p.dice_loc[die]}")


def _rule_inf_source(g, p, stack, s, where) -> None:
    on_card, target = stack[s]
    if on_card == 0 and target >= len(GUILDS):
        raise SaveError(f"{where}: a guild target is 0..{len(GUILDS) - 1}, got {target}")
    if on_card == 1 and (g.market[target] < 0 or g.market_inf[target] >= 0):
        raise SaveError(f"{where}: market slot {target} must hold a card without influence")


def _rule_fee(g, p, stack, s, where) -> None:
    owner, then = stack[s]
    if owner == g.current:
        raise SaveError(f"{where}: the fee goes to an opponent, got the current player {owner}")
    slots = g.tables.slots
    if isinstance(then, TakeCard):
        i, colour = then.row * slots + then.slot, -1
    else:
        i, colour = then.spot, then.colour
    if g.market[i] < 0 or g.market_inf[i] != owner:
        raise SaveError(f"{where}: market slot {i} must hold a card with player {owner}'s influence")
    bit = 1 << colour if colour >= 0 else 0
    takes = facts_for(g.tables).worker_bits[i // slots] & bit
    if isinstance(then, PlaceWorker) and (p.workers[colour] < 1 or g.market_workers[i] & bit or not takes):
        raise SaveError(f"{where}: the current player must have a worker of colour {colour} and slot {i} must take it")
    if isinstance(then, TakeBackWorker) and (not g.market_workers[i] & bit or g.market_placed[i] & bit):
        raise SaveError(f"{where}: slot {i} must hold a worker of colour {colour} placed before this turn")


def _rule_draw(g, p, stack, s, where) -> None:
    row = stack[s].row
    f = facts_for(g.tables)
    for card, _i in held(stack[s], "card"):
        if f.row_of[card] != row:
            raise SaveError(f"{where}: card {card} must come from the {ROWS[row]} deck drawn from")


def _rule_reroll(g, p, stack, s, where) -> None:
    for d in stack[s].dice:
        if p.dice_loc[d] != SUPPLY:
            raise SaveError(f"{where}: die {d} of the current player must be in the supply, its location is {p.dice_loc[d]}")


def _rule_worker(g, p, stack, s, where) -> None:
    colour = stack[s].colour
    if p.workers[colour] < 1:
        raise SaveError(f"{where}: the current player has no worker of colour {colour} to place")


_RULES = {
    Turn: _rule_turn,
    CaravanChain: _die_in_supply,
    DieSpace: _die_in_supply,
    TradeGuild: _rule_yellow,
    InfluenceSource: _rule_inf_source,
    Fee: _rule_fee,
    DrawKeep: _rule_draw,
    DrawOrder: _rule_draw,
    RestReroll: _rule_reroll,
    WorkerTarget: _rule_worker,
}
