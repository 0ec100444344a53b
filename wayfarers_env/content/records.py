"""The frozen records the content is loaded into: cards, the capital, caravans, upgrade tiles,
the journal track, market rows, setup, the solo AI's schemes and boards, and ``Content`` holding
them all. The readers of the data files (content/files.py) build them; the loader
(content/loader.py) checks and caches them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wayfarers_env.content.effects import Atom, Effect
from wayfarers_env.content.measures import Measure
from wayfarers_env.vocabulary import TAGS


class ContentError(ValueError):
    """Broken data: the message names the file, the entry, the field and what is allowed."""


@dataclass(frozen=True, slots=True)
class DieSpace:
    requires: tuple[str, ...]
    action: Effect
    need: tuple[int, int, int, int]  # camel, ship, pigeon, telescope counts
    # Tides of Trade: guild colours spent before the action (a City or Harbour with an influence
    # cost takes a die of any value; a tucked townsfolk may provide the influence)
    influence: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Fields that do not apply to a card's kind stay empty."""

    id: str
    index: int
    kind: str
    name: str
    tags: tuple[str, ...] = ()
    immediate: Effect | None = None
    die_space: DieSpace | None = None
    trigger_on: tuple[str, ...] = ()
    trigger: Effect | None = None
    links_left: tuple[bool, bool, bool, bool] = (False, False, False, False)
    links_right: tuple[Atom | None, ...] = (None, None, None, None)  # one bonus icon per link row, or none
    vp: Measure | None = None
    cost: int = 0
    hosts: tuple[str, ...] = ()
    gives: tuple[str, ...] = ()
    ability: Effect | None = None
    resting: Effect | None = None
    goal: Measure | None = None
    expansion: str | None = None
    tag_counts: tuple[int, ...] = field(default=(0,) * len(TAGS))
    # Tides of Trade
    provenance: str | None = None  # expansion entries: "rulebook", "reference-table" or "reconstructed"
    dismiss: Effect | None = None  # an Overseer's top-right effect, for dismissing it instead of tucking it
    gives_influence: tuple[str, ...] = ()  # guild colours a townsfolk provides for its host's influence cost

    @property
    def is_overseer(self) -> bool:
        """Tides of Trade's Overseers are townsfolk tucked only under the player board's Market."""
        return self.kind == "townsfolk" and self.hosts == ("market",)

    @property
    def is_vista(self) -> bool:
        return "vista" in self.tags


@dataclass(frozen=True, slots=True)
class CentreSpace:
    id: str
    name: str
    die_space: DieSpace


@dataclass(frozen=True, slots=True)
class Capital:
    city: Card
    harbour: Card
    star: Card
    townsfolk: Card
    centre_tags: tuple[str, ...]
    centre: tuple[CentreSpace, ...]


@dataclass(frozen=True, slots=True)
class CaravanBoard:
    id: str
    bonuses: dict[tuple[int, int], Effect]  # (row, column) 1-based -> effect


@dataclass(frozen=True, slots=True)
class Caravan:
    columns: int
    rows: int
    printed: dict[tuple[int, int], str]  # blocked cells with their printed asset
    boards: tuple[CaravanBoard, ...]


@dataclass(frozen=True, slots=True)
class TileDesign:
    id: str
    index: int
    kind: str
    width: int
    height: int
    faces: tuple[tuple[tuple[str, ...], ...], ...]  # faces[f][col] -> icons
    vp: int
    pile: int = 0
    tags: tuple[str, ...] = ()
    board: tuple[str, int] | None = None
    solo_order: int = 0
    tag_counts: tuple[int, ...] = field(default=(0,) * len(TAGS))
    expansion: str | None = None  # Tides of Trade's pink Trading Post tile
    provenance: str | None = None
    # the solo AI's clockwise search visits this tile right after the tile with this solo_order
    # (Tides of Trade's pink tile lies on the main-board extension, between the bottom row's left end
    # and the top row's); 0: its place is its own solo_order
    solo_after: int = 0


@dataclass(frozen=True, slots=True)
class JournalNode:
    id: str
    index: int
    column: int
    row: int
    next: tuple[int, ...]
    effect: Effect | None
    takes_tile: bool
    final: bool


@dataclass(frozen=True, slots=True)
class JournalLink:
    source: int
    target: int
    section: int
    requires: tuple[Measure | None, Measure | None]  # per side a/b
    cost: tuple[Effect | None, Effect | None]


@dataclass(frozen=True, slots=True)
class Row:
    id: str
    slides: str
    workers: tuple[str, ...]
    spots: tuple[Effect, ...]
    slot_costs: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatSetup:
    seat: int
    silver: int
    provisions: int
    guilds: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Scheme:
    id: str
    colour: str
    silver: int
    first: Effect
    second: Effect
    special_tile: int
    comet: bool
    expansion: str | None = None
    draw_next: bool = False  # Tides of Trade's scheme card: the AI at once reveals another one
    provenance: str | None = None  # expansion entries: "rulebook", "reference-table" or "reconstructed"


@dataclass(frozen=True, slots=True)
class AIBoard:
    id: str
    name: str
    focus: Effect
    rest: Effect
    track_bonus: Effect
    caravan: dict[tuple[int, int], Effect]


@dataclass(frozen=True, slots=True)
class Solo:
    track: tuple[tuple[tuple[str, ...], int], ...]  # per space: colour priority, inspiration depth
    bonus_between: tuple[int, int]
    schemes: tuple[Scheme, ...]
    ai_boards: tuple[AIBoard, ...]
    card_vp: dict[str, int]  # the AI's VP per acquired card, by card kind


@dataclass(frozen=True, slots=True)
class Trader:
    """A Tides of Trade trader tile: one effect per side (the side shown is decided by the side of
    the main-board extension that holds its space)."""

    id: str
    index: int
    name: str
    extension: int  # 1 or 2: the main-board extension holding its space
    copies: int  # tiles of it with 3-4 players (one with fewer)
    sides: tuple[Effect, Effect]  # side a, side b: cost first, then effects
    provenance: str


@dataclass(frozen=True, slots=True)
class WorkerHalf:
    """One half (top or bottom) of a Tides of Trade worker upgrade tile. A top and the bottom below
    it make one tile; its effects resolve whenever a worker of the colour it lies under is placed."""

    id: str
    index: int
    half: str  # "top" or "bottom"
    effect: Effect | None  # may be "cost -> gain"
    tags: tuple[str, ...]
    vp: int
    never_blocked: bool  # workers of its colour ignore other workers on a card
    provenance: str
    tag_counts: tuple[int, ...] = field(default=(0,) * len(TAGS))


@dataclass(frozen=True)
class Tides:
    """Tides of Trade's components other than cards and the pink tile (data/tides.toml)."""

    traders: tuple[Trader, ...]
    trader_by_id: dict[str, Trader]
    halves: tuple[WorkerHalf, ...]
    half_by_id: dict[str, WorkerHalf]
    stacks: int  # Top stacks (and as many Bottom stacks) on the main-board extensions
    worker_tile_price: Effect  # "3 silver / 2 x spend(red)"
    worker_columns: tuple[str, ...]  # worker colour of each column of the worker caravan, left to right
    covered: dict[tuple[str, str], Effect]  # (half, worker colour) -> the icon printed under that cell
    extension_tags: tuple[str, ...]  # tags printed on each player-board extension
    market_hosts: tuple[str, ...]  # host tags of the extension's Market ("market": Overseers only)
    die_space: DieSpace  # the extension's die space (any value): employ a trader or acquire a worker tile
    ink_well: dict[str, int]  # card influence each Ink Well ability costs
    scoring: dict[str, int]  # set, square, worker_squares_max, dice_squares_max, hourglass, red_majority
    hourglasses: int  # one per player


@dataclass(frozen=True)
class Content:
    """All game content, frozen. Card ``index`` values are positions in ``cards``."""

    cards: tuple[Card, ...]
    by_id: dict[str, Card]
    decks: dict[str, tuple[int, ...]]  # kind -> card indices in the deck
    capital: Capital
    caravan: Caravan
    designs: tuple[TileDesign, ...]
    design_by_id: dict[str, TileDesign]
    copies_per_player: int
    copies_in_box: int
    copies_solo: int
    nodes: tuple[JournalNode, ...]
    node_by_id: dict[str, JournalNode]
    links: tuple[JournalLink, ...]
    green_worker_columns: tuple[int, ...]
    journal_tiles: tuple[tuple[str, Effect], ...]
    rows: dict[str, Row]
    tile_costs: dict[str, Effect | None]
    setup: tuple[SeatSetup, ...]
    player: dict[str, Any]
    solo: Solo
    options: frozenset[str]
    tides: Tides | None = None  # loaded with the expansion (content option "tides_of_trade")

    def card(self, card_id: str) -> Card:
        try:
            return self.by_id[card_id]
        except KeyError:
            raise KeyError(f"no card with id {card_id!r}") from None


# --------------------------------------------------------------------------- cross-file checks

# Which file holds the entries each EXPECTED count is taken from, so a count error points at it.
