"""Integer lookup tables derived once from the content, for the engine's hot paths.

The engine works on small integers (card index, die-space index, design index, node index)
instead of ids and dataclasses, so that legality checks are list lookups.
"""

from __future__ import annotations

from functools import lru_cache

from wayfarers_env.content.effects import Seq, flatten
from wayfarers_env.content.loader import Content, load_content
from wayfarers_env.content.measures import TERM_INDEX
from wayfarers_env.rules.actions import CATALOG, EXTENSION_SPACE
from wayfarers_env.vocabulary import (
    ASSETS,
    COLUMN_ICONS,
    DOWN,
    GUILD_INDEX,
    ROW_INDEX,
    ROWS,
    TAGS,
    TILE_KIND_INDEX,
    TILE_KINDS,
    UP,
    WORKER_INDEX,
)

ICON_SLOT = {name: i for i, name in enumerate(COLUMN_ICONS)}  # per caravan column
T_LAND_CARDS = TERM_INDEX["land_cards"]
T_WATER_CARDS = TERM_INDEX["water_cards"]
T_SPACE_CARDS = TERM_INDEX["space_cards"]
T_TOWNSFOLK = TERM_INDEX["townsfolk_cards"]
T_INSPIRATION = TERM_INDEX["inspiration_cards"]
T_TILES = TERM_INDEX["tiles"]
T_TILE_KIND = tuple(TERM_INDEX[k + "_tiles"] for k in TILE_KINDS)
T_BLACK = TERM_INDEX["black_influence"]
T_SILVER = TERM_INDEX["silver"]
T_PROVISIONS = TERM_INDEX["provisions"]
T_COMET_MAJORITY = TERM_INDEX["comet_majority"]
COMET = TAGS.index("comet")


class Tables:
    """Everything the engine looks up by integer index."""

    def __init__(self, content: Content):
        c = self.content = content
        self.cards = c.cards
        self.slots = c.player["face_up"]  # face-up cards per market row
        self.market_size = len(ROWS) * self.slots
        self.dice = c.player["dice"]  # per player
        cap = c.capital
        self.capital_city = cap.city.index
        self.capital_harbour = cap.harbour.index
        self.capital_star = cap.star.index
        self.capital_townsfolk = cap.townsfolk.index
        # the tags every player starts with: the capital's cards and centre, and with Tides of Trade
        # the player-board extension's printed tags
        start = [sum(x) for x in zip(*(c.cards[i].tag_counts for i in (cap.city.index, cap.harbour.index, cap.star.index)))]
        for tag in cap.centre_tags + (c.tides.extension_tags if c.tides is not None else ()):
            start[TAGS.index(tag)] += 1
        self.start_tags = tuple(start)
        # Tides of Trade: the extension's Market "is still considered a Land Card" (ToT l.146); the
        # tags of each worker-tile half
        self.market_land = int(c.tides is not None)
        self.half_tags = tuple(h.tag_counts for h in c.tides.halves) if c.tides is not None else ()
        # die spaces, in catalog order
        self.space_card: list[int] = []  # card index owning the space, -1 for the centre spaces
        self.space_need: list[tuple[int, int, int, int]] = []
        self.space_action = []
        # Tides of Trade: the guilds whose influence a City or Harbour's die space costs, per space
        self.space_influence: dict[int, tuple[int, ...]] = {}
        for sid in CATALOG.space_ids:
            if sid in c.by_id:
                card = c.by_id[sid]
                space = card.die_space
                assert space is not None, sid  # the catalog names only cards that print a die space
                self.space_card.append(card.index)
                self.space_need.append(space.need)
                self.space_action.append(space.action)
                if space.influence:
                    self.space_influence[len(self.space_card) - 1] = tuple(GUILD_INDEX[x] for x in space.influence)
            elif sid == EXTENSION_SPACE and c.tides is not None:  # the player-board extension's: every player's own
                self.space_card.append(-1)
                self.space_need.append(c.tides.die_space.need)
                self.space_action.append(c.tides.die_space.action)
            elif sid not in {s.id for s in cap.centre}:  # an expansion card (or extension) this content lacks:
                self.space_card.append(-2)  # never owned, so never offered; an empty action that never resolves
                self.space_need.append((0, 0, 0, 0))
                self.space_action.append(Seq(()))
            else:
                centre = next(s for s in cap.centre if s.id == sid)
                self.space_card.append(-1)
                self.space_need.append(centre.die_space.need)
                self.space_action.append(centre.die_space.action)
        self.space_of_card = {card: s for s, card in enumerate(self.space_card) if card >= 0}
        self.centre_spaces = tuple(s for s, card in enumerate(self.space_card) if card == -1)
        # hosts, space-card slots, inspiration targets: catalog positions
        self.host_pos = {c.by_id[h].index: i for i, h in enumerate(CATALOG.host_ids) if h in c.by_id}
        self.above_pos = {c.by_id[h].index: i for i, h in enumerate(CATALOG.above_ids) if h in c.by_id}
        self.space_card_pos = {c.by_id[h].index: i for i, h in enumerate(CATALOG.space_card_ids) if h in c.by_id}
        self.cards_by_host = [c.by_id[h].index if h in c.by_id else -1 for h in CATALOG.host_ids]
        self.cards_by_above = [c.by_id[h].index if h in c.by_id else -1 for h in CATALOG.above_ids]
        self.cards_by_space_pos = [c.by_id[h].index if h in c.by_id else -1 for h in CATALOG.space_card_ids]
        self.retrieve_of_action = [
            (row * self.slots + slot, colour)
            for row in CATALOG.worker_rows
            for slot in range(self.slots)
            for colour in range(len(WORKER_INDEX))
        ]
        self.kind_row = [ROW_INDEX.get(card.kind, -1) for card in c.cards]
        self.gives = [tuple(card.gives.count(a) for a in ASSETS) for card in c.cards]
        # vista trigger sets, as sets of trigger names
        self.vista_on = {card.index: frozenset(card.trigger_on) for card in c.cards if card.trigger is not None}
        # upgrade tiles
        self.designs = c.designs
        self.design_kind = [TILE_KIND_INDEX[d.kind] for d in c.designs]
        self.designs_of_kind = [tuple(d.index for d in c.designs if d.kind == k) for k in TILE_KINDS]
        # per design, per face: list of (dx, column icon vector)
        self.design_faces = []
        for d in c.designs:
            faces = []
            for face in d.faces:
                cols = []
                for col in face:
                    vec = [0] * len(COLUMN_ICONS)
                    for icon in col:
                        if icon == "up_down":
                            vec[UP] += 1
                            vec[DOWN] += 1
                        else:
                            vec[ICON_SLOT[icon]] += 1
                    cols.append(tuple(vec))
                faces.append(tuple(cols))
            self.design_faces.append(tuple(faces))
        self.cols, self.rows = c.caravan.columns, c.caravan.rows
        # per design: every in-grid anchor (x, y) with the cell mask it covers
        self.design_masks = []
        for d in c.designs:
            anchors = []
            for y in range(self.rows - d.height + 1):
                for x in range(self.cols - d.width + 1):
                    mask = 0
                    for dy in range(d.height):
                        for dx in range(d.width):
                            mask |= 1 << ((y + dy) * self.cols + x + dx)
                    anchors.append((x, y, mask))
            self.design_masks.append(tuple(anchors))
        self.blocked = 0
        printed = [[0] * len(COLUMN_ICONS) for _ in range(self.cols)]
        for (r, column), asset in c.caravan.printed.items():
            self.blocked |= 1 << ((r - 1) * self.cols + (column - 1))
            printed[column - 1][ICON_SLOT[asset]] += 1
        self.printed = [tuple(v) for v in printed]
        self.board_bonus = []
        for b in c.caravan.boards:
            self.board_bonus.append({(r - 1) * self.cols + (col - 1): eff for (r, col), eff in b.bonuses.items()})
        # journal
        self.nodes = c.nodes
        self.start_node = next(n.index for n in c.nodes if n.column == 0)
        self.link = {(lk.source, lk.target): lk for lk in c.links}
        self.final_nodes = tuple(n.index for n in c.nodes if n.final)
        self.tile_nodes = tuple(n.index for n in c.nodes if n.takes_tile)
        self.green_columns = c.green_worker_columns
        self.rows_ = c.rows
        self.spots = [c.rows[k].spots for k in ROWS]
        # the same, opened up into effect-bag items (sequences and repeats flattened)
        self.spot_items = [tuple(tuple(flatten(e)) for e in row) for row in self.spots]
        self.row_workers = [tuple(WORKER_INDEX[w] for w in c.rows[k].workers) for k in ROWS]
        self.slot_costs = c.rows["space"].slot_costs


@lru_cache(maxsize=4)
def tables_for(options: frozenset[str] = frozenset()) -> Tables:
    return Tables(load_content(options=options))
