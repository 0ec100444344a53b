"""Plain-data game state: each player's panorama and caravan, the market, the decks and the
pending-decision stack, with a cheap ``clone()``. Saving and loading live in rules/saves.py.

The state holds only integers, small lists, dicts and immutable records and effect trees, so that
a search bot can copy it thousands of times a second and a replay can save it as JSON.
"""

from __future__ import annotations

import random
from typing import Any

from wayfarers_env.content.measures import TERMS
from wayfarers_env.rules.config import ConfigError, GameConfig
from wayfarers_env.rules.tables import (
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
from wayfarers_env.vocabulary import BOARD_SECTIONS, BOARD_SIDES, GUILD_INDEX, GUILDS, ROWS, TAGS, WORKER_COLOURS, WORKER_INDEX

__all__ = [
    "EXTRA_ON_CARDS",
    "EXTRA_PLACED",
    "EXTRA_WIDTH",
    "RESERVE",
    "SUPPLY",
    "ConfigError",
    "GameConfig",
    "GameState",
    "PlayerState",
    "extra_on",
    "extra_placed",
    "new_state",
    "recompute_caravan",
]

RESERVE, SUPPLY = -2, -1  # die locations; >= 0 is a die-space index
AI_SUPPLY = 99  # the solo AI is "not limited by the Influence in their supply": more than a game ever places

# Tides of Trade's never-blocked worker tiles (ToT l.233) let a second worker of a colour onto a card.
# A card's first worker of each colour stays a bit of market_workers (and market_placed), so the base
# game and every reader of those bits are untouched; the rest are counted in market_extra, one int per
# market slot holding per colour c two small counts: the extra workers of c on the card (bits
# EXTRA_WIDTH*c up) and how many of those extras were placed this turn (bits EXTRA_PLACED + EXTRA_WIDTH*c
# up). A colour has at most 4 workers in the game, so 3 bits never overflow.
EXTRA_WIDTH = 3
EXTRA_MASK = (1 << EXTRA_WIDTH) - 1
EXTRA_PLACED = EXTRA_WIDTH * len(WORKER_COLOURS)  # shift of the placed-this-turn counts
EXTRA_ON_CARDS = (1 << EXTRA_PLACED) - 1  # the counts of extras on the card, without the placed ones


def extra_on(extra: int, colour: int) -> int:
    """Workers of ``colour`` on the card beyond the one its market_workers bit shows."""
    return (extra >> (EXTRA_WIDTH * colour)) & EXTRA_MASK


def extra_placed(extra: int, colour: int) -> int:
    """Of those extras, how many were placed this turn beyond the one its market_placed bit shows."""
    return (extra >> (EXTRA_PLACED + EXTRA_WIDTH * colour)) & EXTRA_MASK


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
        "ink",
        "hourglass",
        "trader",
        "overseer",
        "worker_tiles",
    )
    silver: int
    provisions: int
    supply: int  # influence tokens in supply
    guild: list[int]  # influence per guild (vocabulary.GUILDS order)
    dice_face: list[int]
    dice_loc: list[int]  # RESERVE, SUPPLY or a die-space index
    workers: list[int]  # workers in supply per colour (vocabulary.WORKER_COLOURS order)
    node: int  # journal node of the marker
    land: list[int]  # acquired Land cards, in order away from the board
    water: list[int]
    above: dict[int, int]  # land/water card -> space card above it
    tucked: dict[int, int]  # host card -> townsfolk
    inspired: dict[int, int]  # space card (or capital star) -> inspiration card
    tiles: list[tuple[int, int, int, int]]  # design, x, y, flipped
    cells: int  # bitmask of covered caravan cells
    board: int  # player board (caravan bonus layout) index
    counts: list[int]
    acquired: list[int]  # cards acquired this turn (their benefits wait a turn)
    col: list[tuple[int, ...]]  # per die face: icon vector of that caravan column (vocabulary.COLUMN_ICONS)
    ink: int  # Tides of Trade: this player's card influence on the Ink Well
    hourglass: bool  # Tides of Trade: the hourglass shows its full side
    trader: int  # Tides of Trade: the trader on this player's Market (index in content.tides.traders), -1 = none
    overseer: int  # Tides of Trade: the Overseer card tucked under the Market, -1 = none
    worker_tiles: list[tuple[int, int]]  # Tides of Trade: per worker-caravan column, (top, bottom) halves or (-1, -1)

    def __init__(self, dice: int = 5) -> None:
        self.silver = 0
        self.provisions = 0
        self.supply = 0
        self.guild = [0] * len(GUILDS)
        self.dice_face = [1] * dice
        self.dice_loc = [RESERVE] * dice
        self.workers = [0] * len(WORKER_COLOURS)
        self.node = 0
        self.land = []
        self.water = []
        self.above = {}
        self.tucked = {}
        self.inspired = {}
        self.tiles = []
        self.cells = 0
        self.board = 0
        self.counts = [0] * len(TERMS)
        self.acquired = []
        self.col = []
        self.ink = 0
        self.hourglass = False
        self.trader = -1
        self.overseer = -1
        self.worker_tiles = []

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
        p.ink = self.ink
        p.hourglass = self.hourglass
        p.trader = self.trader
        p.overseer = self.overseer
        p.worker_tiles = self.worker_tiles[:]
        return p

    def terms(self) -> list[int]:
        """The full TERMS vector (comet_majority left 0; scoring fills it)."""
        v = self.counts[:]
        v[T_BLACK : T_BLACK + len(GUILDS)] = self.guild
        v[T_SILVER] = self.silver
        v[T_PROVISIONS] = self.provisions
        return v


class SoloState:
    """The AI's pieces beyond a player's (which live in ``GameState.players[AI]``: its influence,
    workers, journal marker, and its comet track as its comet count)."""

    __slots__ = ("board", "track", "draw", "shown", "cards", "tiles", "cells", "worker_tiles", "bonus_due", "traders_below")
    board: int  # AI board (content.solo.ai_boards index)
    track: int  # resource-track space 0-7
    draw: list[int]  # scheme draw pile (content.solo.schemes indexes), top last
    shown: list[int]  # face-up scheme cards, in the order revealed
    cards: list[int]  # cards the AI acquired (face down, by type)
    tiles: list[int]  # upgrade tile designs the AI acquired (on its caravan or beside it)
    cells: int  # bits of its caravan's covered cells (x + 7y, y = 0 the top row)
    worker_tiles: list[tuple[int, int]]  # Tides of Trade: worker-tile halves it took (top, bottom)
    bonus_due: int  # track bonuses the human's fees crossed, resolved at the start of the AI's next turn
    traders_below: list[int]  # Tides of Trade: traders returned below the main-board extensions (out of play)

    def clone(self) -> SoloState:
        s = SoloState.__new__(SoloState)
        s.board, s.track, s.cells, s.bonus_due = self.board, self.track, self.cells, self.bonus_due
        s.draw, s.shown, s.cards, s.tiles = self.draw[:], self.shown[:], self.cards[:], self.tiles[:]
        s.worker_tiles = self.worker_tiles[:]
        s.traders_below = self.traders_below[:]
        return s


class GameState:
    """The whole table. ``stack`` holds pending decisions (frame records), top last."""

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
        "market_extra",
        "decks",
        "known",
        "tile_supply",
        "node_tile",
        "green",
        "current",
        "turn",
        "guild_used",
        "ink_used",
        "ship_hired",
        "ink_assets",
        "ext_sides",
        "traders",
        "worker_stacks",
        "boxed",
        "end_trigger",
        "final_turns",
        "over",
        "stack",
        "decisions",
        "space_memo",
        "seat_ver",
        "board_ver",
        "solo",
    )
    config: GameConfig
    tables: Tables
    n: int  # players
    rng: random.Random
    sides: tuple[int, ...]  # main-board sections 1-3: 0 = side a, 1 = side b
    players: list[PlayerState]
    market: list[int]  # card per slot (row * slots + slot), -1 = empty
    market_inf: list[int]  # seat whose influence is on the card, -1 = none
    market_workers: list[int]  # bits of the worker colours on the card
    market_placed: list[int]  # bits of the colours placed there this turn
    market_extra: list[int]  # Tides of Trade: second and later workers of a colour on the card (extra_on, extra_placed)
    decks: list[list[int]]  # per row, bottom card first (draws pop from the end)
    known: list[list[int]]  # per deck position: bitmask of the seats that have seen that card
    tile_supply: list[int]  # upgrade tiles left per design
    node_tile: list[int]  # journal tile on each node, -1 = none
    green: list[bool]  # green worker still on the track, per green column
    current: int  # the seat whose turn it is (and who decides)
    turn: int  # player turns played
    guild_used: list[bool]  # guild abilities used this turn (vocabulary.GUILDS order; red: its substitution)
    ink_used: bool  # Tides of Trade: an Ink Well ability was used this turn
    ship_hired: bool  # the Exploration guild's ship hired this turn
    ink_assets: bool  # Tides of Trade: this turn's die counts a pigeon, camel and telescope more (the Ink Well)
    # Tides of Trade (empty in the base game):
    ext_sides: tuple[int, ...]  # the two main-board extensions: 0 = side a, 1 = side b (their traders' side)
    traders: list[int]  # trader tiles waiting on the main-board extensions, per trader
    worker_stacks: list[list[int]]  # worker-tile halves: the Top stacks, then the Bottom stacks; face up last
    boxed: list[int]  # cards out of the game (dismissed Overseers)
    end_trigger: int  # the seat that reached a final journal space first, -1 = nobody yet
    final_turns: int  # turns left after the end was triggered, -1 = not counting
    over: bool
    stack: list[Any]  # pending decisions, frame records (rules/frames.py), top last
    decisions: int  # decisions applied so far
    # transient, never saved (a clone or a loaded game starts them afresh):
    space_memo: dict[tuple[int, ...], bool]  # die-space answers while a die is chosen or turned
    seat_ver: list[int]  # per seat: bumped whenever an action may have changed that player (rules/frames.py)
    board_ver: int  # bumped whenever an action may have changed anything not a player's or the stack
    solo: SoloState | None  # a solo game's AI pieces beyond its seat (players[1]); None otherwise (rules/solo.py)

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
        g.market_extra = self.market_extra[:]
        g.decks = [d[:] for d in self.decks]
        g.known = [k[:] for k in self.known]
        g.tile_supply = self.tile_supply[:]
        g.node_tile = self.node_tile[:]
        g.green = self.green[:]
        g.current, g.turn = self.current, self.turn
        g.guild_used = self.guild_used[:]
        g.ink_used = self.ink_used
        g.ship_hired = self.ship_hired
        g.ink_assets = self.ink_assets
        g.ext_sides = self.ext_sides
        g.traders = self.traders[:]
        g.worker_stacks = [s[:] for s in self.worker_stacks]
        g.boxed = self.boxed[:]
        g.end_trigger, g.final_turns, g.over = self.end_trigger, self.final_turns, self.over
        g.stack = self.stack[:]
        g.decisions = self.decisions
        g.space_memo = {}
        g.seat_ver = [0] * self.n
        g.board_ver = 0
        g.solo = self.solo.clone() if self.solo is not None else None
        return g


def new_state(config: GameConfig, seed: int) -> GameState:
    """Set up a game as the rulebook's setup pages describe."""
    t = tables_for(config.content())
    c = t.content
    rng = random.Random(seed)
    g = GameState.__new__(GameState)
    g.config, g.tables, g.n, g.rng = config, t, config.seats, rng
    g.sides = (
        tuple(rng.randrange(len(BOARD_SIDES)) for _ in range(BOARD_SECTIONS))
        if config.board_sides == "random"
        else tuple(BOARD_SIDES.index(s) for s in config.board_sides)
    )
    # decks: index 0 is the bottom card; draws pop from the end
    g.decks = []
    for kind in ROWS:
        deck = list(c.decks[kind])
        rng.shuffle(deck)
        g.decks.append(deck)
    g.known = [[0] * len(d) for d in g.decks]
    size = t.market_size
    g.market = [-1] * size
    g.market_inf = [-1] * size
    g.market_workers = [0] * size
    g.market_placed = [0] * size
    g.market_extra = [0] * size
    for row in range(len(ROWS)):
        for slot in range(t.slots):
            g.market[row * t.slots + slot] = g.decks[row].pop()
            g.known[row].pop()
    jt = list(range(len(c.journal_tiles)))
    rng.shuffle(jt)
    g.node_tile = [-1] * len(c.nodes)
    for node, tile in zip(t.tile_nodes, jt):
        g.node_tile[node] = tile
    g.green = [True] * len(t.green_columns)
    g.tile_supply = [1 if d.kind == "special" else g.n * c.copies_per_player for d in c.designs]
    boards = list(range(len(c.caravan.boards)))
    rng.shuffle(boards)
    if config.solo_ai_board is not None:  # the AI's board is a player board turned over: the human takes another
        boards.remove(config.solo_ai_board - 1)
        boards.append(config.solo_ai_board - 1)
    if config.player_boards != "random":
        boards = [b - 1 for b in config.player_boards] + ([config.solo_ai_board - 1] if config.solo_ai_board else [])
    g.players = []
    for seat in range(g.n):
        ai = config.solo and seat == 1  # the solo AI: no dice (rules/solo.py sets up the rest)
        p = PlayerState(0 if ai else t.dice)
        s = c.setup[seat]
        p.silver, p.provisions = s.silver, s.provisions
        p.supply = c.player["influence"]
        for guild in s.guilds:
            p.guild[GUILD_INDEX[guild]] += 1
            p.supply -= 1
        for colour in c.player["workers"]:
            p.workers[WORKER_INDEX[colour]] += 1
        p.node = t.start_node
        p.board = config.solo_ai_board - 1 if ai else boards[seat]  # type: ignore[operator]  # the AI's: its board turned over
        for d in range(0 if ai else c.player["dice_in_supply"]):
            p.dice_loc[d] = SUPPLY
            p.dice_face[d] = rng.randint(1, 6)
        p.counts[: len(TAGS)] = t.start_tags
        p.counts[T_LAND_CARDS] = 1 + t.market_land
        p.counts[T_WATER_CARDS] = 1
        p.counts[T_SPACE_CARDS] = 1
        p.counts[T_TOWNSFOLK] = 1
        recompute_caravan(t, p)
        g.players.append(p)
    g.ext_sides, g.traders, g.worker_stacks, g.boxed = (), [], [], []
    if c.tides is not None:
        _setup_tides(g, rng)
    g.current = 0
    g.turn = 0
    g.guild_used = [False] * len(GUILDS)
    g.ink_used = False
    g.ship_hired = False
    g.ink_assets = False
    g.end_trigger = -1
    g.final_turns = -1
    g.over = False
    g.stack = []
    g.decisions = 0
    g.space_memo = {}
    g.seat_ver = [0] * g.n
    g.board_ver = 0
    g.solo = None
    if config.solo:
        _setup_solo(g)
    return g


def _setup_solo(g: GameState) -> None:
    """Rulebook "Setup" (solo): the AI is the second player with no dice, no Silver or Provisions,
    1 Yellow and 1 Blue influence, its workers, markers at the track's start and comet 0, and the
    shuffled scheme deck (Tides of Trade's scheme card in it when the expansion is on)."""
    c = g.tables.content
    ai = g.players[1]
    ai.silver = ai.provisions = 0
    ai.guild = [0] * len(ai.guild)
    for guild in ("yellow", "blue"):
        ai.guild[GUILD_INDEX[guild]] += 1
    ai.supply = AI_SUPPLY  # the AI's influence is unlimited: a supply it never empties
    ai.counts = [0] * len(ai.counts)
    ai.worker_tiles = []  # no player-board extension for the AI (ToT "Solo Play")
    s = SoloState.__new__(SoloState)
    s.board = g.config.solo_ai_board - 1  # type: ignore[operator]  # set whenever a game is solo
    s.track, s.cells, s.bonus_due = 0, 0, 0
    s.draw = list(range(len(c.solo.schemes)))
    g.rng.shuffle(s.draw)
    s.shown, s.cards, s.tiles, s.worker_tiles, s.traders_below = [], [], [], [], []
    g.solo = s


def _setup_tides(g: GameState, rng: random.Random) -> None:
    """Tides of Trade's setup (ToT "Setup" 1-6), after the base game's so that the base game's draws
    are the same with or without the expansion: the extensions' sides, the traders (twins only with
    3-4 players), worker-tile stacks of one tile per player (2 in a solo game), and per player an
    empty worker caravan."""
    tides = g.tables.content.tides
    assert tides is not None
    sides = g.config.extension_sides
    g.ext_sides = (
        tuple(rng.randrange(len(BOARD_SIDES)) for _ in range(2)) if sides == "random" else tuple(BOARD_SIDES.index(x) for x in sides)
    )
    g.traders = [tr.copies if g.n >= 3 else 1 for tr in tides.traders]
    per = 2 if g.config.solo else g.n
    stacks = []
    for half in ("top", "bottom"):
        pool = [h.index for h in tides.halves if h.half == half]
        rng.shuffle(pool)
        stacks += [pool[k * per : (k + 1) * per] for k in range(tides.stacks)]
    g.worker_stacks = stacks
    for p in g.players:
        p.worker_tiles = [(-1, -1)] * len(tides.worker_columns)


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
