"""The observation's layout: named, contiguous slices of one float32 vector per seat, declared once.

One vector serves every player count: the observing seat comes first, then the opponents in
turn order, padded to four seats with a "present" flag. The per-card feature vector it embeds is
in ``card_features.py``; ``docs/OBSERVATION.md`` is generated from this layout
(``python -m wayfarers_env.docs observation > docs/OBSERVATION.md``) so the doc cannot drift. The
encoder that fills it is ``observation.py``.

Each slice says how a network should read it (``Slice.kind``: numbers, card indices to embed, card
sets, card feature vectors) and, for the card slots, which group of rows it belongs to, so that a
feature extractor (experiments/extractor.py) finds the cards without knowing the slices' names.
Every count is divided by a named scale (below) and clipped where the rules set no maximum.
"""

from __future__ import annotations

import numpy as np

from wayfarers_env.content.measures import TERM_INDEX, TERMS
from wayfarers_env.envs.card_features import (  # noqa: F401  (re-exported: the card vector used to be defined here)
    C_ABI,
    C_ABK,
    C_COST,
    C_DIE,
    C_GINF,
    C_GIVES,
    C_HOSTS,
    C_IMM,
    C_KIND,
    C_LINK,
    C_MEAS,
    C_SPINF,
    C_TAGS,
    C_TERMS,
    C_TRG,
    CARD,
    EFFECT_DOC,
    EFFECT_FEATURES,
    EFFECT_SCALE,
    FULL,
    HOSTS,
    NUM_CARDS,
    E,
    F,
    Layout,
    Slice,
    canonical_indices,
    card_feature_table,
    effect_histogram,
    effect_vector,
)
from wayfarers_env.rules import frames as fr
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.bag import PRICE_SIZE
from wayfarers_env.rules.engine import decision_kinds
from wayfarers_env.rules.scoring import SOURCES
from wayfarers_env.rules.tables import tables_for
from wayfarers_env.vocabulary import (
    CARD_INFLUENCE,
    COLUMN_ICONS,
    EXTENSIONS,
    FACES,
    GUILDS,
    LINK_ROWS,
    MAX_PLAYERS,
    ROWS,
    TIDES_INSPIRATION,
    TILE_KINDS,
    WORKER_COLOURS,
)

MAX_SEATS = MAX_PLAYERS
FRAME_NAMES = decision_kinds()
NUM_FRAMES = len(FRAME_NAMES)
_KIND_OF = {rule.record: rule.kind for rule in fr.BY_KIND}  # frame record -> its one-hot position
NUM_SPACES = len(CATALOG.space_ids)
NUM_NODES = len(CATALOG.node_ids)
NUM_DESIGNS = len(CATALOG.design_ids)
STATIC_TERMS = TERM_INDEX[GUILDS[0] + "_influence"]  # tag, card and tile counts: the part of TERMS kept in PlayerState.counts
# Tides of Trade's pieces, counted from the expansion's content for every game (their slices stay 0 when it is off)
TIDES = FULL.tides
assert TIDES is not None
N_TRADERS = len(TIDES.traders)
N_STACKS = 2 * TIDES.stacks  # the Top stacks, then the Bottom stacks (GameState.worker_stacks)
HALF_KINDS = ("top", "bottom")
N_HALF = max(sum(h.half == kind for h in TIDES.halves) for kind in HALF_KINDS)  # halves of one kind: one-hot width
N_WCOLS = len(TIDES.worker_columns)
VOCAB = NUM_CARDS + 1  # a card index slice holds card index + 1, 0 = no card

# ------------------------------------------------------------------ scales
# Every count is divided by a scale so that it lies in about [0, 1]. A scale is the rules' own
# maximum where the content gives one (the value then never exceeds 1); where the rules set no
# maximum, the value is clipped at CAP times the scale and the slice's meaning says so.
CAP = 2.0
DECK_MAX = max(len(d) for d in FULL.decks.values())  # the largest deck: deck sizes and depths
INFLUENCE = FULL.player["influence"]  # a player's influence tokens (supply, guilds, cards, Ink Well hold no more)
DICE = FULL.player["dice"]  # a player's dice
WORKERS_MAX = max(MAX_SEATS * max(FULL.player["workers"].count(c) for c in WORKER_COLOURS), FULL.player["green_workers"])
TILES_MAX = FULL.copies_in_box  # tiles of one design in the box (supply + placed)
TRADERS_MAX = max(tr.copies for tr in TIDES.traders)
STACK_MAX = MAX_SEATS  # worker-tile halves per stack: one per player at setup (2 in a solo game), then fewer
AMOUNT = 10  # silver, provisions, discounts and prices; clipped at CAP (20)
COUNT = 10  # panorama counts (tags, cards, tiles, hosts); clipped at CAP (20)
VP = 50  # victory points; clipped at CAP (100)
TURNS = 100  # turns played; clipped at CAP (200)
DEPTH = 10  # pending decisions; clipped at 1 (10)
PER_KIND = 4  # pending decisions of one kind; clipped at 1 (4)
COLUMN = 3  # caravan icons of one kind in a column (3 rows); clipped at 1
BONUS = 4  # the solo AI's track bonuses due; clipped at 1
AI_CARDS = 10  # the solo AI's cards of one kind; clipped at CAP (20)


# --------------------------------------------------------------------- the observation
L = Layout("observation")
_T = tables_for()  # the base content: counts of slots, boards, cells
N_SLOTS = _T.market_size
N_GUILDS = len(GUILDS)
N_COLOURS = len(WORKER_COLOURS)
N_MINF = N_SLOTS * MAX_SEATS
_N_JT = len(_T.tile_nodes) * len(_T.content.journal_tiles)
_CARD_LOW, _CARD_HIGH = CARD.bounds()


def _features(n: int) -> tuple:
    """Per-value bounds of ``n`` card feature vectors (the ``CARD`` layout's, repeated)."""
    return np.tile(_CARD_LOW, n), np.tile(_CARD_HIGH, n)


def _market(name: str, width: int, meaning: str, high: float = 1.0, **kw) -> int:
    """A slice of one row of ``width`` values per market slot (the "market" card-slot group)."""
    return L.add(name, N_SLOTS * width, meaning, high=high, group="market", items=N_SLOTS, **kw)


O_NP = L.add("game.num_players", MAX_SEATS - 1, "one-hot: 2, 3 or 4 players")
O_SIDES = L.add("game.board_sides", 3, "main-board sections 1-3: 1 = side b")
O_JT = L.add("game.journal_tiles", _N_JT, "per journal node that takes a tile (in node order), one-hot of its journal tile")
O_GS = L.add("game.over", 1, "the game has ended")
L.add("game.turn", 1, f"turns played (all players) / {TURNS}, clipped at {CAP:g}", high=CAP)
L.add("game.end_triggered", 1, "a final journal space was reached: the last round is running")
L.add("game.final_turns", 1, "turns left in the last round / 4")
L.add("game.guild_used", N_GUILDS, "this turn the guild ability was used: " + " / ".join(GUILDS))
L.add("game.ship_hired", 1, "this turn a ship was hired")
L.add("game.deck_sizes", len(ROWS), f"cards left per deck / {DECK_MAX} (the largest deck): " + ", ".join(ROWS))
L.add("game.ink_used", 1, "Tides of Trade: this turn an Ink Well ability was used")
L.add("game.ink_assets", 1, "Tides of Trade: this turn's die counts the Ink Well's pigeon, camel and telescope")
G_SCAL = L.size - O_GS
O_DEPTH = L.add("game.stack_depth", 1, f"pending decisions on the stack / {DEPTH}, clipped at 1")
O_SUPPLY = L.add("game.tile_supply", NUM_DESIGNS, f"upgrade tiles left per design (catalog design order) / {TILES_MAX} (the box's)")
L.add("game.green_workers", len(_T.green_columns), "green worker still on the journal track, per green column")
N_SUPPLY = L.size - O_SUPPLY
O_TIDES = L.add("game.tides_of_trade", 1, "the Tides of Trade expansion is on (slices marked Tides of Trade are 0 when it is off)")
O_CINF = L.add("game.card_influence", len(CARD_INFLUENCE), "Tides of Trade: one-hot card-influence setting: " + ", ".join(CARD_INFLUENCE))
O_EXT = L.add("game.extension_sides", EXTENSIONS, "Tides of Trade: main-board extensions 1-2: 1 = side b")
O_TRADERS = L.add(
    "game.traders",
    N_TRADERS,
    f"Tides of Trade: trader tiles waiting on the extensions / {TRADERS_MAX}, per trader: " + ", ".join(t.name for t in TIDES.traders),
)
O_WSIZE = L.add(
    "game.worker_stacks", N_STACKS, f"Tides of Trade: worker-tile halves per stack (Top stacks, then Bottom stacks) / {STACK_MAX}"
)
O_WFACE = L.add(
    "game.worker_faces",
    N_STACKS * N_HALF,
    "Tides of Trade: per stack, one-hot of its face-up half (by number within Top or Bottom); the halves below are hidden",
)
O_BOXED = L.add("game.boxed", NUM_CARDS, "Tides of Trade: cards out of the game (dismissed Overseers) by card index", kind="cards")
TIDES_END = L.size
# the solo game (num_players=1): the AI's public pieces beyond its seat block (seat1)
N_SCHEMES = len(FULL.solo.schemes)
O_SOLO = L.add("solo.on", 1, "a solo game: seat1 is the AI (its influence, workers, journal marker, comet track as comets, score)")
O_AIB = L.add("solo.ai_board", len(FULL.solo.ai_boards), "one-hot AI board: " + ", ".join(b.name for b in FULL.solo.ai_boards))
O_TRACK = L.add("solo.track", len(FULL.solo.track), "one-hot space of the AI's resource-track marker")
O_SHOWN = L.add("solo.shown", N_SCHEMES, "face-up scheme cards (scheme.1-7)")
O_RECENT = L.add("solo.recent", N_SCHEMES, "the two most recently revealed face-up scheme cards (they set the sum value)")
O_SOLO_SCAL = L.add("solo.sum_value", 1, "the AI's sum value / 4")
L.add("solo.draw_pile", 1, "scheme cards in the AI's draw pile / 7")
L.add("solo.bonus_due", 1, f"track bonuses the AI gains at the start of its next turn / {BONUS}, clipped at 1")
O_AICARDS = L.add(
    "solo.ai_cards", len(ROWS), f"cards the AI acquired per kind / {AI_CARDS}, clipped at {CAP:g}: " + ", ".join(ROWS), high=CAP
)
O_AICELLS = L.add("solo.ai_cells", 21, "AI caravan cells covered (row-major, 7 x 3)")
O_BELOW = L.add("solo.traders_below", N_TRADERS, "Tides of Trade solo: traders out of play below the extensions, per trader (at most 1)")
O_AIWANTS = L.add("solo.ai_wants", 4, "the AI wants a card you influenced: to acquire it, to place a worker, to take a worker; denials / 4")
SOLO_END = L.size
O_DEC = L.add("decision.decider", MAX_SEATS, "one-hot relative seat deciding now (0 = me)")
O_KIND = L.add("decision.kind", NUM_FRAMES, "one-hot decision kind: " + ", ".join(FRAME_NAMES))
O_STACK = L.add("decision.stack", NUM_FRAMES, f"pending decisions below the current one per kind (same order) / {PER_KIND}, clipped at 1")
O_FACES = L.add("decision.faces", len(FACES), f"faces of the dice concerned (die being placed or changed; dice to reroll) / {DICE}")
O_ROW = L.add("decision.row", len(ROWS), "row the decision is about (acquire, draw 3)")
O_SLOT = _market("decision.slot", 1, "market slot concerned (row*4+slot): influence target, fee, inspiration slot")
O_GUILD = L.add("decision.guild", N_GUILDS, "guild concerned (influence target when the supply is empty)")
O_COLOUR = L.add("decision.colour", N_COLOURS, "worker colour concerned: " + ", ".join(WORKER_COLOURS))
O_FEE = L.add("decision.fee_owner", MAX_SEATS, "relative seat to be paid the influence fee")
O_FEEF = L.add(
    "decision.fee_for",
    4,
    "the fee is for: taking the card, placing a worker, retrieving a worker, capturing a worker from a supply (Tides of Trade)",
)
O_FLAGS = L.add(
    "decision.flags",
    8,
    "free, draw-3 allowed, spare pigeon, second journal move, trade-guild steps left / 2; Tides of Trade: "
    "the token comes from the Ink Well, a fee follows the payment, a worker is placed after the capture",
)
O_DISC = L.add("decision.discount", 1, f"silver discount on the card or tile / {AMOUNT}, clipped at {CAP:g}", high=CAP)
O_DRAWN = L.add("decision.draw_count", 1, "cards in the current draw 3 (public, whoever draws) / 3")
O_TKIND = L.add("decision.tile_kind", len(TILE_KINDS), "upgrade tile kind: " + ", ".join(TILE_KINDS))
O_DESIGN = L.add("decision.design", NUM_DESIGNS, "upgrade tile design being paid or placed")
O_NODE = L.add("decision.node", NUM_NODES, "Tides of Trade: one-hot journal node the marker came from (hourglass saving)")
O_PRICE = L.add(
    "decision.price",
    PRICE_SIZE,
    f"Tides of Trade: price that can be paid another way / {AMOUNT}, clipped at {CAP:g}: silver, provisions, influence per guild ("
    + ", ".join(GUILDS)
    + "), card influence",
    high=CAP,
)
O_DSRC = L.add("decision.source", len(fr.SOURCE_NAMES), "Tides of Trade: employing a trader: one-hot source of the effect that employs it")
O_DCTX = L.add(
    "decision.context",
    3,
    f"Tides of Trade: employing a trader: silver discount, provision discount (/ {AMOUNT}, clipped at {CAP:g}), spare pigeon",
    high=CAP,
)
O_TRADER = L.add("decision.trader", N_TRADERS, "Tides of Trade: one-hot trader arriving on the Market")
O_WTILE = L.add("decision.worker_tile", 2 * N_HALF, "Tides of Trade: worker tile being placed: one-hot top half, then one-hot bottom half")
O_LEFT = L.add("decision.left", 1, f"Tides of Trade: card influence tokens still to pay / {INFLUENCE}")
O_BAG = L.add("bag.present", 1, "an effect is being resolved (nearest effect frame on the stack)")
O_BSRC = L.add("bag.source", len(fr.SOURCE_NAMES), "one-hot source of that effect: " + ", ".join(fr.SOURCE_NAMES))
O_BCTX = L.add("bag.context", 3, f"its silver discount, provision discount (/ {AMOUNT}, clipped at {CAP:g}), spare pigeon", high=CAP)
O_BITEMS = L.add("bag.items", E, f"effect histogram of the parts not yet resolved / {EFFECT_SCALE}, clipped to +-{CAP:g}", -CAP, CAP)
O_OUTER = L.add("bag.outer_source", len(fr.SOURCE_NAMES), "one-hot source of the next effect frame further down the stack")
O_OITEMS = L.add("bag.outer_items", E, f"its effect histogram (parts not yet resolved) / {EFFECT_SCALE}, clipped to +-{CAP:g}", -CAP, CAP)
SMALL_END = L.size  # the part of the decision section rewritten at every step
O_CID = L.add(
    "decision.card_id",
    1,
    "card being placed (townsfolk, space, inspiration): card index + 1, 0 = none",
    high=NUM_CARDS,
    kind="index",
    vocab=VOCAB,
    group="decision",
    items=1,
)
O_CARD = L.add("decision.card", F, "its card feature vector", kind="features", group="decision", items=1, per_value=_features(1))
O_ACQ = L.add("decision.acquired", NUM_CARDS, "cards the deciding player acquired this turn (their benefits wait)", kind="cards")
O_PIDS = L.add(
    "private.draw_ids",
    3,
    "MY draw 3 only: card index + 1, 0 = none (draw_order: the two to return, then the kept one)",
    high=NUM_CARDS,
    kind="index",
    vocab=VOCAB,
    group="draw",
    items=3,
)
O_PDRAW = L.add("private.draw", 3 * F, "their card feature vectors", kind="features", group="draw", items=3, per_value=_features(3))
DEC_END = L.size
O_MIDS = _market(
    "market.ids", 1, "face-up card per slot (row*4+slot): card index + 1, 0 = empty", high=NUM_CARDS, kind="index", vocab=VOCAB
)
O_MCARDS = _market("market.cards", F, "card feature vector per slot", kind="features", per_value=_features(N_SLOTS))
O_MWORK = _market("market.workers", N_COLOURS, "per slot: " + ", ".join(WORKER_COLOURS) + " worker on the card")
O_MPLACED = _market("market.placed", N_COLOURS, "per slot: that worker was placed this turn")
O_MEXTRA = _market(
    "market.extra_workers",
    N_COLOURS,
    f"Tides of Trade: per slot, per colour: workers on the card beyond the first (never-blocked worker tiles) / {WORKERS_MAX - 1}",
)
O_MEXPL = _market("market.extra_placed", N_COLOURS, f"Tides of Trade: per slot, per colour: of those, placed this turn / {WORKERS_MAX - 1}")
MARKET_END = L.size
O_MINF = _market("market.influence", MAX_SEATS, "per slot: one-hot relative seat whose influence is on the card")

SEAT = Layout("seat block")
S_PRESENT = SEAT.add("present", 1, "this seat is in the game")
S_SEAT = SEAT.add("seat", MAX_SEATS, "one-hot absolute seat (turn order; seat 0 started)")
S_SCAL = SEAT.add("silver", 1, f"silver / {AMOUNT}, clipped at {CAP:g}", high=CAP)
SEAT.add("provisions", 1, f"provisions / {AMOUNT}, clipped at {CAP:g}", high=CAP)
SEAT.add("influence_supply", 1, f"influence tokens in supply / {INFLUENCE} (a player's tokens; the solo AI's endless supply shows 1)")
SEAT.add("guilds", N_GUILDS, f"influence in the guilds / {INFLUENCE}, clipped at 1 (only the solo AI can exceed it): " + ", ".join(GUILDS))
SEAT.add("workers", N_COLOURS, f"workers available / {WORKERS_MAX}: " + ", ".join(WORKER_COLOURS))
SEAT.add("ink_well", 1, f"Tides of Trade: this seat's card influence on the Ink Well / {INFLUENCE}")
SEAT.add("hourglass", 1, "Tides of Trade: the hourglass shows its full side")
SEAT.add("dice_reserve", 1, f"dice still in the reserve / {DICE}")
SEAT.add("open_space_hosts", 1, f"land/water cards with no space card above / {COUNT}, clipped at {CAP:g}", high=CAP)
SEAT.add("inspiration_targets", 1, f"space cards with no inspiration card / {COUNT}, clipped at {CAP:g}", high=CAP)
N_SCAL = SEAT.size - S_SCAL
S_NODE = SEAT.add("journal", NUM_NODES, "one-hot journal node of the marker")
S_DSUP = SEAT.add("dice_supply", len(FACES), f"dice in supply per face / {DICE}")
S_DPL = SEAT.add("dice_placed", NUM_SPACES, "die spaces (catalog order) holding one of this seat's dice")
S_SPACES = SEAT.add("spaces", NUM_SPACES, "die spaces this seat may use now (owned, not acquired this turn)")
S_COUNTS = SEAT.add("counts", STATIC_TERMS, f"counts / {COUNT}, clipped at {CAP:g}: " + ", ".join(TERMS[:STATIC_TERMS]), high=CAP)
S_HOSTS = SEAT.add(
    "open_hosts",
    len(HOSTS),
    f"per tag: cards with that tag and no tucked townsfolk / {COUNT}, clipped at {CAP:g}; "
    "market: 1 = no Overseer under the Market yet (Tides of Trade)",
    high=CAP,
)
S_CARDS = SEAT.add("cards", NUM_CARDS, "cards in the panorama (land, water, space, townsfolk, inspiration) by card index", kind="cards")
S_TUCK = SEAT.add(
    "tucked_under",
    len(CATALOG.host_ids),
    "per host card (catalog tuck_under order): its townsfolk's index + 1, 0 = none",
    high=NUM_CARDS,
    kind="index",
    vocab=VOCAB,
)
S_ABOVE = SEAT.add(
    "space_above",
    len(CATALOG.above_ids),
    "per land/water card (place_above order): the space card's index + 1, 0 = none",
    high=NUM_CARDS,
    kind="index",
    vocab=VOCAB,
)
S_INSP = SEAT.add(
    "inspiration_on",
    len(CATALOG.space_card_ids),
    "per space card (inspire order): its inspiration's index + 1, 0 = none",
    high=NUM_CARDS,
    kind="index",
    vocab=VOCAB,
)
S_LINKS = SEAT.add("links", len(LINK_ROWS), "right-link bonuses of the rightmost water card: " + ", ".join(LINK_ROWS))
S_BOARD = SEAT.add("board", len(_T.board_bonus), "one-hot player board (caravan bonus layout)")
S_CELLS = SEAT.add("caravan_cells", _T.cols * _T.rows, "caravan cells covered by tiles (row-major)")
S_COLS = SEAT.add(
    "caravan_columns", len(FACES) * len(COLUMN_ICONS), f"per die face 1-6 / {COLUMN}, clipped at 1: " + ", ".join(COLUMN_ICONS)
)
S_TILES = SEAT.add("tiles", NUM_DESIGNS, f"upgrade tiles placed per design / {TILES_MAX}")
S_SCORE = SEAT.add("score", len(SOURCES) + 1, f"VP now / {VP}, clipped at {CAP:g}: " + ", ".join(SOURCES) + ", total", high=CAP)
S_TRADER = SEAT.add("trader", 2 * N_TRADERS, "Tides of Trade: trader on the Market: one-hot trader * 2 + side shown (0 = a, 1 = b)")
S_OVERSEER = SEAT.add(
    "overseer", 1, "Tides of Trade: Overseer tucked under the Market: card index + 1, 0 = none", high=NUM_CARDS, kind="index", vocab=VOCAB
)
S_WTILES = SEAT.add(
    "worker_tiles",
    N_WCOLS * 2 * N_HALF,
    "Tides of Trade: per worker-caravan column (" + ", ".join(TIDES.worker_columns) + "): one-hot top half, then bottom half (0: no tile)",
)
B = SEAT.size
O_SEATS = L.size
for _k in range(MAX_SEATS):
    who = "me" if _k == 0 else f"{_k} seat(s) after me in turn order"
    for _s in SEAT.slices:
        L.add(f"seat{_k}.{_s.name}", _s.size, f"({who}) {_s.meaning}", _s.low, _s.high, kind=_s.kind, vocab=_s.vocab)
O_UNSEEN = L.add(
    "deck.unseen",
    NUM_CARDS,
    "card in the unseen pool: in a deck where I do not know it, or in an opponent's private draw",
    kind="cards",
)
O_KNOWN = L.add(
    "deck.known_depth", NUM_CARDS, f"card I saw go to a deck bottom: (cards above it + 1) / {DECK_MAX}, 0 = not known", kind="cards"
)
OBS_SIZE = L.size

assert B * MAX_SEATS == O_UNSEEN - O_SEATS


def observation_bounds() -> tuple[np.ndarray, np.ndarray]:
    """Per-value (low, high) of the observation, for the Box spaces of the environments."""
    return L.bounds()


def _card_ranges() -> str:
    """The card index ranges per kind, e.g. "land 0-35 and 160-167"."""
    out = []
    for kind in sorted(FULL.decks, key=lambda k: min(FULL.decks[k])):  # in index order
        idx = sorted(FULL.decks[kind])
        runs: list[list[int]] = []
        for i in idx:
            if runs and runs[-1][1] == i - 1:
                runs[-1][1] = i
            else:
                runs.append([i, i])
        out.append(kind + " " + " and ".join(f"{a}-{b}" for a, b in runs))
    return ", ".join(out)


def markdown() -> str:
    """docs/OBSERVATION.md, generated from the layout so that the doc and the code cannot drift."""
    lines = [
        "# Observation layout",
        "",
        "Generated by `python -m wayfarers_env.docs observation`; do not edit by hand.",
        "",
        f"`observation` is a float32 vector of **{OBS_SIZE}** values, the same for 2, 3 and 4 players;",
        "`action_mask` is an int8 vector of the action catalog's size (see ACTIONS.md), 1 = legal.",
        "",
        "Point of view: the observing seat is `seat0`, then the opponents in turn order (`seat1`...),",
        "padded to four seats (`present` = 0). Relative seats elsewhere use the same numbering.",
        "Hidden information is never encoded: deck order, other players' private draw-3 cards and the",
        "random generator. The deck *contents* are public (everything not visible elsewhere), so",
        "`deck.unseen` lists them card by card; a card the observer saw go to a deck bottom is in",
        "`deck.known_depth` instead.",
        "",
        "Card indices are the same in every game: " + _card_ranges() + ". The base game's cards are 0-159;",
        "the others are Tides of Trade's (its two Inspiration cards also come with the `" + TIDES_INSPIRATION + "` content option).",
        "Tides of Trade's slices are 0 in a base game, so one policy can play both. Worker-tile stacks show",
        "only their face-up halves and sizes: the order below is hidden like a deck's.",
        "",
        "## How to read the values",
        "",
        "The `kind` column says how a network should read each slice:",
        "",
        f"- *index of {VOCAB}*: a card identity, written as its card index + 1 (0 = no card). It is a category,",
        "  not a magnitude: embed it (one table of card embeddings serves every index slice) or leave it out;",
        "  never feed it to a layer as a number. The card's feature vector sits beside it where the card is",
        "  on show (market, decision, draw). Index slices hold whole numbers in [0, " + str(NUM_CARDS) + "].",
        "- *card set*: one value per card index (" + str(NUM_CARDS) + " of them): 1 = the card is in the set, or a weight",
        "  (`deck.known_depth`). A bag of the same card embeddings reads it whatever the set's size.",
        "- *card features*: card feature vectors (below), one per card slot, each value within its own",
        "  bounds (the Box bounds are set feature by feature).",
        "- blank: flags, one-hots and scaled counts, usable as numbers.",
        "",
        "Card slots: the slices of one group (`market`: 20 slots, `decision`: 1, `draw`: 3) are rows, one per",
        "slot and in slot order, so one shared card encoder can read every slot: for market slot *i*, row *i*",
        "of `market.ids`, `market.cards`, `market.workers`, `market.placed`, `market.extra_workers`,",
        "`market.extra_placed`, `market.influence` and `decision.slot`. The seat blocks' index slices",
        "(`tucked_under`, `space_above`, `inspiration_on`, `overseer`) give per position (host card, in",
        "catalog order) the index of the card attached there. `experiments/extractor.py` reads the layout",
        "this way (`policy: {extractor: cards}` in a training config).",
        "",
        "Counts are divided by the scale the meaning names, so that every value lies in about [0, 1]:",
        "a scale is the rules' own maximum where the content has one (the value then never exceeds 1);",
        f"where the rules set none, the value is clipped at the stated bound (at most {CAP:g}), and the",
        "meaning says so. Every value lies within the slice's range, which is the `Box` bound.",
        "",
        "## Slices",
        "",
        *L.markdown_table(),
        "",
        f"Total size: **{OBS_SIZE}**.",
        "",
        f"## Card feature vector ({F} values)",
        "",
        "Used for `market.cards`, `decision.card` and `private.draw` (offsets within one card's vector).",
        "",
        *CARD.markdown_table(),
        "",
        EFFECT_DOC + ".",
        "Gains count +amount, costs -amount; `choice` counts either/or nodes (every option is counted);",
        "`free` counts free or discounted gains.",
        "",
    ]
    return "\n".join(lines)
