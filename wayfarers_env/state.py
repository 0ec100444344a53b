"""Plain-data game state: the configuration, each player's panorama and caravan, the market,
the decks and the pending-decision stack, with cheap ``clone()`` and exact ``to_dict()``.

The state holds only integers, small lists, dicts and immutable effect trees, so that a search
bot can copy it thousands of times a second and a replay can save it as JSON.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from . import effects
from .measures import TAGS, TERMS
from .tables import (
    COMET,
    T_BLACK,
    T_LAND_CARDS,
    T_PROVISIONS,
    T_SILVER,
    T_SPACE_CARDS,
    T_TOWNSFOLK,
    T_WATER_CARDS,
    Tables,
    tables_for,
)

SCHEMA_VERSION = 1
RESERVE, SUPPLY = -2, -1  # die locations; >= 0 is a die-space index


class ConfigError(ValueError):
    """A bad GameConfig; the message names the field and what is allowed."""


@dataclass(frozen=True)
class GameConfig:
    """How a game is set up.

    ``board_sides``: "random" (each main-board section independently, as the rulebook allows)
    or three letters "a"/"b" for sections 1-3, e.g. "aba". ``player_boards``: "random" or a
    list of board numbers 1-4, one per seat. ``auto_forced``: apply a decision automatically
    when it has exactly one legal option (off by default, so every rules choice is visible).
    ``max_turns``: a safety net the rulebook does not have. If nobody has reached a final
    journal space after this many player turns (it can happen when every deck runs dry and no
    route is open), the game ends and is scored as it stands (``Game.ended_by_turn_limit``).
    """

    num_players: int = 2
    board_sides: str = "random"
    player_boards: str | tuple[int, ...] = "random"
    content_options: frozenset[str] = field(default_factory=frozenset)
    auto_forced: bool = False
    max_turns: int = 2000

    def __post_init__(self) -> None:
        if not isinstance(self.num_players, int) or isinstance(self.num_players, bool) or not 2 <= self.num_players <= 4:
            raise ConfigError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
        sides = self.board_sides
        if not isinstance(sides, str) or not (sides == "random" or (len(sides) == 3 and set(sides) <= {"a", "b"})):
            raise ConfigError(f"board_sides must be 'random' or three letters a/b for sections 1-3 (e.g. 'aba'), got {sides!r}")
        pb = self.player_boards
        if isinstance(pb, list):
            object.__setattr__(self, "player_boards", tuple(pb))
            pb = self.player_boards
        if pb != "random":
            if (
                not isinstance(pb, tuple)
                or len(pb) != self.num_players
                or any(not isinstance(b, int) or not 1 <= b <= 4 for b in pb)
                or len(set(pb)) != len(pb)
            ):
                raise ConfigError(f"player_boards must be 'random' or {self.num_players} different board numbers 1-4, got {pb!r}")
        opts = frozenset(self.content_options)
        object.__setattr__(self, "content_options", opts)
        if opts - {"tides_inspiration"}:
            raise ConfigError(f"unknown content_options {sorted(opts)}; allowed: tides_inspiration")
        if not isinstance(self.auto_forced, bool):
            raise ConfigError(f"auto_forced must be True or False, got {self.auto_forced!r}")
        if not isinstance(self.max_turns, int) or isinstance(self.max_turns, bool) or self.max_turns < 1:
            raise ConfigError(f"max_turns must be a positive int, got {self.max_turns!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "num_players": self.num_players,
            "board_sides": self.board_sides,
            "player_boards": self.player_boards if self.player_boards == "random" else list(self.player_boards),
            "content_options": sorted(self.content_options),
            "auto_forced": self.auto_forced,
            "max_turns": self.max_turns,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameConfig:
        if not isinstance(d, dict):
            raise ConfigError(f"a config must be a dict, got {type(d).__name__}")
        allowed = {"num_players", "board_sides", "player_boards", "content_options", "auto_forced", "max_turns"}
        unknown = set(d) - allowed
        if unknown:
            raise ConfigError(f"unknown config field(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
        d = dict(d)
        if "content_options" in d:
            d["content_options"] = frozenset(d["content_options"])
        if isinstance(d.get("player_boards"), list):
            d["player_boards"] = tuple(d["player_boards"])
        return cls(**d)


class PlayerState:
    """One player's pieces. ``counts`` holds the static part of the TERMS vector."""

    __slots__ = (
        "silver",
        "provisions",
        "supply",
        "guild",
        "dice_face",
        "dice_loc",
        "workers",
        "node",
        "land",
        "water",
        "above",
        "tucked",
        "inspired",
        "tiles",
        "cells",
        "board",
        "counts",
        "acquired",
        "col",
    )

    def __init__(self) -> None:
        self.silver = 0
        self.provisions = 0
        self.supply = 0  # influence tokens in supply
        self.guild = [0, 0, 0]  # black, yellow, blue
        self.dice_face = [1] * 5
        self.dice_loc = [RESERVE] * 5
        self.workers = [0, 0, 0]  # yellow, blue, green
        self.node = 0
        self.land: list[int] = []  # acquired Land cards, in order away from the board
        self.water: list[int] = []
        self.above: dict[int, int] = {}  # land/water card -> space card above it
        self.tucked: dict[int, int] = {}  # host card -> townsfolk
        self.inspired: dict[int, int] = {}  # space card (or capital star) -> inspiration card
        self.tiles: list[tuple[int, int, int, int]] = []  # design, x, y, flipped
        self.cells = 0  # bitmask of covered caravan cells
        self.board = 0  # player board (caravan bonus layout) index
        self.counts = [0] * len(TERMS)
        self.acquired: list[int] = []  # cards acquired this turn (their benefits wait a turn)
        self.col: list[tuple[int, ...]] = []  # per die face: icon vector of that caravan column

    def clone(self) -> PlayerState:
        p = PlayerState.__new__(PlayerState)
        p.silver, p.provisions, p.supply = self.silver, self.provisions, self.supply
        p.guild = self.guild[:]
        p.dice_face = self.dice_face[:]
        p.dice_loc = self.dice_loc[:]
        p.workers = self.workers[:]
        p.node = self.node
        p.land = self.land[:]
        p.water = self.water[:]
        p.above = self.above.copy()
        p.tucked = self.tucked.copy()
        p.inspired = self.inspired.copy()
        p.tiles = self.tiles[:]
        p.cells = self.cells
        p.board = self.board
        p.counts = self.counts[:]
        p.acquired = self.acquired[:]
        p.col = self.col  # replaced, never mutated
        return p

    def terms(self) -> list[int]:
        """The full TERMS vector (comet_majority left 0; scoring fills it)."""
        v = self.counts[:]
        v[T_BLACK] = self.guild[0]
        v[T_BLACK + 1] = self.guild[1]
        v[T_BLACK + 2] = self.guild[2]
        v[T_SILVER] = self.silver
        v[T_PROVISIONS] = self.provisions
        return v


class GameState:
    """The whole table. ``stack`` holds pending decisions, top last."""

    __slots__ = (
        "config",
        "tables",
        "n",
        "rng",
        "sides",
        "players",
        "market",
        "market_inf",
        "market_workers",
        "market_placed",
        "decks",
        "known",
        "tile_supply",
        "node_tile",
        "green",
        "current",
        "turn",
        "guild_used",
        "ship_hired",
        "end_trigger",
        "final_turns",
        "over",
        "stack",
        "decisions",
        "space_memo",  # transient: die-space answers while a die is chosen (never saved)
        "seat_ver",  # transient: per seat, bumped whenever the engine may have changed that player
        "board_ver",  # transient: bumped whenever the engine may have changed anything not a player's or the stack
    )

    def clone(self) -> GameState:
        g = GameState.__new__(GameState)
        g.config, g.tables, g.n = self.config, self.tables, self.n
        g.rng = random.Random()
        g.rng.setstate(self.rng.getstate())
        g.sides = self.sides
        g.players = [p.clone() for p in self.players]
        g.market = self.market[:]
        g.market_inf = self.market_inf[:]
        g.market_workers = self.market_workers[:]
        g.market_placed = self.market_placed[:]
        g.decks = [d[:] for d in self.decks]
        g.known = [k[:] for k in self.known]
        g.tile_supply = self.tile_supply[:]
        g.node_tile = self.node_tile[:]
        g.green = self.green[:]
        g.current, g.turn = self.current, self.turn
        g.guild_used = self.guild_used[:]
        g.ship_hired = self.ship_hired
        g.end_trigger, g.final_turns, g.over = self.end_trigger, self.final_turns, self.over
        g.stack = self.stack[:]
        g.decisions = self.decisions
        g.space_memo = {}
        g.seat_ver = [0] * self.n
        g.board_ver = 0
        return g


def new_state(config: GameConfig, seed: int) -> GameState:
    """Set up a game as the rulebook's setup pages describe."""
    t = tables_for(config.content_options)
    c = t.content
    rng = random.Random(seed)
    g = GameState.__new__(GameState)
    g.config, g.tables, g.n, g.rng = config, t, config.num_players, rng
    g.sides = (
        tuple(rng.randrange(2) for _ in range(3)) if config.board_sides == "random" else tuple("ab".index(s) for s in config.board_sides)
    )
    # decks: index 0 is the bottom card; draws pop from the end
    g.decks = []
    for kind in ("townsfolk", "land", "water", "space", "inspiration"):
        deck = list(c.decks[kind])
        rng.shuffle(deck)
        g.decks.append(deck)
    g.known = [[0] * len(d) for d in g.decks]
    g.market = [-1] * 20
    g.market_inf = [-1] * 20
    g.market_workers = [0] * 20
    g.market_placed = [0] * 20
    for row in range(5):
        for slot in range(4):
            g.market[row * 4 + slot] = g.decks[row].pop()
            g.known[row].pop()
    jt = list(range(len(c.journal_tiles)))
    rng.shuffle(jt)
    g.node_tile = [-1] * len(c.nodes)
    for node, tile in zip(t.tile_nodes, jt):
        g.node_tile[node] = tile
    g.green = [True] * len(t.green_columns)
    per_player = g.n
    g.tile_supply = [1 if d.kind == "special" else per_player * c.copies_per_player for d in c.designs]
    boards = list(range(len(c.caravan.boards)))
    rng.shuffle(boards)
    if config.player_boards != "random":
        boards = [b - 1 for b in config.player_boards]
    g.players = []
    for seat in range(g.n):
        p = PlayerState()
        s = c.setup[seat]
        p.silver, p.provisions = s.silver, s.provisions
        p.supply = c.player["influence"]
        for guild in s.guilds:
            p.guild[("black", "yellow", "blue").index(guild)] += 1
            p.supply -= 1
        p.workers = [1, 1, 0]
        p.node = t.start_node
        p.board = boards[seat]
        for d in range(c.player["dice_in_supply"]):
            p.dice_loc[d] = SUPPLY
            p.dice_face[d] = rng.randint(1, 6)
        for tag_i in range(len(TAGS)):
            p.counts[tag_i] = (
                t.cards[t.capital_city].tag_counts[tag_i]
                + t.cards[t.capital_harbour].tag_counts[tag_i]
                + t.cards[t.capital_star].tag_counts[tag_i]
                + c.capital.centre_tags.count(TAGS[tag_i])
            )
        p.counts[T_LAND_CARDS] = 1
        p.counts[T_WATER_CARDS] = 1
        p.counts[T_SPACE_CARDS] = 1
        p.counts[T_TOWNSFOLK] = 1
        recompute_caravan(t, p)
        g.players.append(p)
    g.current = 0
    g.turn = 0
    g.guild_used = [False, False, False]
    g.ship_hired = False
    g.end_trigger = -1
    g.final_turns = -1
    g.over = False
    g.stack = []
    g.decisions = 0
    g.space_memo = {}
    g.seat_ver = [0] * g.n
    g.board_ver = 0
    return g


def recompute_caravan(t: Tables, p: PlayerState) -> None:
    """Rebuild the per-face icon vectors after a tile is placed."""
    col = [list(v) for v in t.printed]
    for design, x, _y, flipped in p.tiles:
        for dx, vec in enumerate(t.design_faces[design][flipped]):
            target = col[x + dx]
            for i, v in enumerate(vec):
                target[i] += v
    p.col = [tuple(v) for v in col]


def comet_tags(p: PlayerState) -> int:
    return p.counts[COMET]


# ------------------------------------------------------------------------ serialisation


def _enc(value: Any) -> Any:
    if isinstance(value, (effects.Atom, effects.Seq, effects.Choice, effects.Cost, effects.Repeat)):
        return {"effect": effects.to_text(value)}
    if isinstance(value, tuple):
        return [_enc(v) for v in value]
    return value


def state_to_dict(g: GameState) -> dict[str, Any]:
    rng_state = g.rng.getstate()
    return {
        "schema_version": SCHEMA_VERSION,
        "config": g.config.to_dict(),
        "rng": [rng_state[0], list(rng_state[1]), rng_state[2]],
        "sides": "".join("ab"[s] for s in g.sides),
        "players": [
            {
                "silver": p.silver,
                "provisions": p.provisions,
                "supply": p.supply,
                "guild": p.guild[:],
                "dice_face": p.dice_face[:],
                "dice_loc": p.dice_loc[:],
                "workers": p.workers[:],
                "node": p.node,
                "land": p.land[:],
                "water": p.water[:],
                "above": [[k, v] for k, v in p.above.items()],
                "tucked": [[k, v] for k, v in p.tucked.items()],
                "inspired": [[k, v] for k, v in p.inspired.items()],
                "tiles": [list(tile) for tile in p.tiles],
                "cells": p.cells,
                "board": p.board,
                "counts": p.counts[:],
                "acquired": p.acquired[:],
            }
            for p in g.players
        ],
        "market": g.market[:],
        "market_inf": g.market_inf[:],
        "market_workers": g.market_workers[:],
        "market_placed": g.market_placed[:],
        "decks": [d[:] for d in g.decks],
        "known": [k[:] for k in g.known],
        "tile_supply": g.tile_supply[:],
        "node_tile": g.node_tile[:],
        "green": g.green[:],
        "current": g.current,
        "turn": g.turn,
        "guild_used": g.guild_used[:],
        "ship_hired": g.ship_hired,
        "end_trigger": g.end_trigger,
        "final_turns": g.final_turns,
        "over": g.over,
        "stack": [_enc(f) for f in g.stack],
        "decisions": g.decisions,
    }


def state_from_dict(d: dict[str, Any]) -> GameState:
    """Inverse of state_to_dict. A save is outside data, so every field is checked first
    (save_check.py) and a wrong one raises ValueError naming it, instead of an odd failure
    many moves later."""
    from . import save_check  # it reads this module's records

    if not isinstance(d, dict):
        raise save_check.SaveError(f"a saved game must be a dict, got {type(d).__name__}")
    version = d.get("schema_version")
    if not save_check.is_int(version) or version != SCHEMA_VERSION:
        raise save_check.SaveError(f"schema_version: this version reads {SCHEMA_VERSION}, got {version!r}")
    checked = save_check.check_fields(d)
    t = checked.tables
    g = GameState.__new__(GameState)
    g.config, g.tables, g.n, g.rng = checked.config, t, checked.config.num_players, checked.rng
    g.sides = tuple("ab".index(s) for s in d["sides"])
    g.players = []
    for pd in d["players"]:
        p = PlayerState()
        p.silver, p.provisions, p.supply = pd["silver"], pd["provisions"], pd["supply"]
        p.guild = list(pd["guild"])
        p.dice_face = list(pd["dice_face"])
        p.dice_loc = list(pd["dice_loc"])
        p.workers = list(pd["workers"])
        p.node = pd["node"]
        p.land = list(pd["land"])
        p.water = list(pd["water"])
        p.above = {k: v for k, v in pd["above"]}
        p.tucked = {k: v for k, v in pd["tucked"]}
        p.inspired = {k: v for k, v in pd["inspired"]}
        p.tiles = [tuple(tile) for tile in pd["tiles"]]
        p.cells = pd["cells"]
        p.board = pd["board"]
        p.counts = list(pd["counts"])
        p.acquired = list(pd["acquired"])
        recompute_caravan(t, p)
        g.players.append(p)
    for name in ("market", "market_inf", "market_workers", "market_placed", "tile_supply", "node_tile", "green", "guild_used"):
        setattr(g, name, list(d[name]))
    g.decks = [list(x) for x in d["decks"]]
    g.known = [list(x) for x in d["known"]]
    g.current, g.turn = d["current"], d["turn"]
    g.ship_hired = d["ship_hired"]
    g.end_trigger, g.final_turns, g.over = d["end_trigger"], d["final_turns"], d["over"]
    g.stack = checked.stack
    g.decisions = d["decisions"]
    g.space_memo = {}
    g.seat_ver = [0] * g.n
    g.board_ver = 0
    save_check.check_state(g)
    return g
