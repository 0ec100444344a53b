"""The fixed-shape observation of one seat, built from named slices.

One vector serves every player count: the observing seat comes first, then the opponents in
turn order, padded to four seats with a "present" flag. It holds the public state in full and
the seat's own private knowledge (its own draw-3 cards while it decides, the cards it saw go
to the bottom of a deck) and nothing else: never the deck order, an opponent's private draw or
the random generator. The deck *contents* are public (everything not visible elsewhere), so
the unseen pool is shown card by card.

The layout is declared once, in ``observation_layout.py`` (docs/OBSERVATION.md is generated from
it); this module fills it. One layout serves the base game and Tides of Trade: the expansion's
slices stay 0 in a base game, and card indices are written in the one index space of
``card_features`` (a game's own indices are mapped into it), so one policy can train on both.

``Encoder`` caches per section (market, each seat, deck pool) and rebuilds a section only
when a cheap signature of the state it depends on changes, looking only where the engine's
change counters (``GameState.seat_ver``, ``GameState.board_ver``) say something may have moved:
the environment builds one observation per step, and rebuilding ~7,000 floats from scratch
would cost several times the engine's own decision. ``encode(game, seat)`` is the uncached
reference used by the tests.
"""

from __future__ import annotations

import struct
from functools import lru_cache

import numpy as np

from wayfarers_env.content.measures import TAGS
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
from wayfarers_env.envs.observation_layout import (  # noqa: F401  (the layout's names, re-exported for the environments and tests)
    _KIND_OF,
    AI_CARDS,
    AMOUNT,
    BONUS,
    CAP,
    COLUMN,
    COUNT,
    DEC_END,
    DECK_MAX,
    DEPTH,
    DICE,
    G_SCAL,
    INFLUENCE,
    MARKET_END,
    MAX_SEATS,
    N_COLOURS,
    N_GUILDS,
    N_HALF,
    N_MINF,
    N_SCAL,
    N_SUPPLY,
    NUM_DESIGNS,
    NUM_SPACES,
    O_ACQ,
    O_AIB,
    O_AICARDS,
    O_AICELLS,
    O_AIWANTS,
    O_BAG,
    O_BCTX,
    O_BELOW,
    O_BITEMS,
    O_BOXED,
    O_BSRC,
    O_CARD,
    O_CID,
    O_CINF,
    O_COLOUR,
    O_DCTX,
    O_DEC,
    O_DEPTH,
    O_DESIGN,
    O_DISC,
    O_DRAWN,
    O_DSRC,
    O_EXT,
    O_FACES,
    O_FEE,
    O_FEEF,
    O_FLAGS,
    O_GS,
    O_GUILD,
    O_JT,
    O_KIND,
    O_KNOWN,
    O_LEFT,
    O_MCARDS,
    O_MEXPL,
    O_MEXTRA,
    O_MIDS,
    O_MINF,
    O_MPLACED,
    O_MWORK,
    O_NODE,
    O_NP,
    O_OITEMS,
    O_OUTER,
    O_PDRAW,
    O_PIDS,
    O_PRICE,
    O_RECENT,
    O_ROW,
    O_SEATS,
    O_SHOWN,
    O_SIDES,
    O_SLOT,
    O_SOLO,
    O_SOLO_SCAL,
    O_STACK,
    O_SUPPLY,
    O_TIDES,
    O_TKIND,
    O_TRACK,
    O_TRADER,
    O_TRADERS,
    O_UNSEEN,
    O_WFACE,
    O_WSIZE,
    O_WTILE,
    OBS_SIZE,
    PER_KIND,
    S_ABOVE,
    S_BOARD,
    S_CARDS,
    S_CELLS,
    S_COLS,
    S_COUNTS,
    S_DPL,
    S_DSUP,
    S_HOSTS,
    S_INSP,
    S_LINKS,
    S_NODE,
    S_OVERSEER,
    S_PRESENT,
    S_SCAL,
    S_SCORE,
    S_SEAT,
    S_SPACES,
    S_TILES,
    S_TRADER,
    S_TUCK,
    S_WTILES,
    SEAT,
    SMALL_END,
    SOLO_END,
    STACK_MAX,
    STATIC_TERMS,
    TILES_MAX,
    TRADERS_MAX,
    TURNS,
    VP,
    WORKERS_MAX,
    B,
    L,
    markdown,
    observation_bounds,
)
from wayfarers_env.rules import solo_priority
from wayfarers_env.rules.caravan import TileDesign, TilePosition, TilePrice
from wayfarers_env.rules.dice import CaravanChain, DieSpace, TradeGuild
from wayfarers_env.rules.frames import EffectBag
from wayfarers_env.rules.influence import Fee, InfluenceSource
from wayfarers_env.rules.journal import HourglassSaving, JournalStep
from wayfarers_env.rules.market import Acquire, DrawKeep, DrawOrder, TakeCard
from wayfarers_env.rules.panorama import PlaceInspiration, PlaceSpaceCard, TuckTownsfolk
from wayfarers_env.rules.payments import FEE_AFTER, CardInfluencePaid, Payment
from wayfarers_env.rules.scoring import SOURCES, score_player
from wayfarers_env.rules.solo import AiWants
from wayfarers_env.rules.state import SUPPLY, GameState, extra_on, extra_placed
from wayfarers_env.rules.tables import COMET, Tables
from wayfarers_env.rules.traders import ChooseTrader, TraderArrives
from wayfarers_env.rules.turn import RestReroll
from wayfarers_env.rules.worker_tiles import WorkerColumn
from wayfarers_env.rules.workers import Capture, CaptureFrom, PlaceWorker, WorkerTarget
from wayfarers_env.vocabulary import (
    BASE_GUILDS,
    CARD_INFLUENCE,
    GUILDS,
    INSPIRATION_ROW,
    RED,
    ROWS,
)


def _floats(a: np.ndarray) -> memoryview[float]:
    """A float32 array's memoryview: scalar writes and zeroing through it cost a fraction of numpy's."""
    return memoryview(a)  # type: ignore[arg-type]  # numpy's stubs give ndarray __buffer__ only for Python >= 3.12


class _Static:
    """Per-content lookup tables (one per Tables): card features and small index maps."""

    def __init__(self, t: Tables):
        c = t.content
        self.feat = card_feature_table(c)  # row -1 is all zeros: an empty market slot gathers zeros
        # per card of this content, its index in the observation's one index space; [-1] = -1, so
        # that an empty market slot (-1) is written as 0 (index + 1)
        deck = canonical_indices(c)
        self.canon = [*deck, *range(len(deck), len(c.cards)), -1]  # the capital's cards: never written
        self.feat_rows = [memoryview(row) for row in self.feat]
        self.tag_idx = [tuple(k for k, n in enumerate(card.tag_counts) for _ in range(n)) for card in c.cards]
        self.links = [tuple(int(b is not None) for b in card.links_right) for card in c.cards]
        self.space_of_card = t.space_of_card
        self.fixed_spaces = (0, 1, *t.centre_spaces)
        self.host_extra = (t.capital_city, t.capital_harbour)
        self.star = t.capital_star
        # per card: does its VP or goal count silver, provisions, influence (bits 1, 2, 4)?
        self.money = []
        for card in c.cards:
            measure = card.vp or card.goal
            terms = measure.terms if measure else frozenset()
            inf = any(guild + "_influence" in terms for guild in GUILDS)
            self.money.append(("silver" in terms) | ("provisions" in terms) << 1 | inf << 2)
        self.harbour = t.capital_harbour
        self.host_pos, self.above_pos, self.space_card_pos = t.host_pos, t.above_pos, t.space_card_pos
        self.tile_nodes = t.tile_nodes
        self.n_jtiles = len(c.journal_tiles)
        self.cols, self.rows = t.cols, t.rows
        self.histograms: dict = {}  # effect histograms of bag items, shared by every game of this content
        # each deck holds the cards of one kind: a few runs of the one index space (the base game's,
        # then an expansion's). Per deck row: (lo, hi, offset in the row's pool block, zero bytes) per
        # run; per card: its position in its row's pool block
        self.row_runs: list[tuple[tuple[int, int, int, bytes], ...]] = []
        self.row_len: list[int] = []
        self.row_pos = [0] * len(c.cards)
        for kind in ROWS:
            idx = sorted((self.canon[i], i) for i, card in enumerate(c.cards) if card.kind == kind)
            runs: list[tuple[int, int, int, bytes]] = []
            for pos, (x, i) in enumerate(idx):
                self.row_pos[i] = pos
                if runs and runs[-1][1] == x:
                    lo, _hi, off, _z = runs[-1]
                    runs[-1] = (lo, x + 1, off, b"")
                else:
                    runs.append((x, x + 1, pos, b""))
            self.row_runs.append(tuple((lo, hi, off, bytes(4 * (hi - lo))) for lo, hi, off, _z in runs))
            self.row_len.append(len(idx))
        # Tides of Trade: each worker-tile half's number within the Top or the Bottom halves
        tides = c.tides
        self.half_pos = [sum(o.half == h.half for o in tides.halves[: h.index]) for h in tides.halves] if tides else []


@lru_cache(maxsize=4)
def _static(t: Tables) -> _Static:
    return _Static(t)


# zero bytes for the regions the encoder clears through byte views (float32: 4 bytes a value)
_Z_SMALL = bytes(4 * (SMALL_END - O_DEC))
_B_DEC, _B_SMALL_END = 4 * O_DEC, 4 * SMALL_END  # byte offsets of the part rewritten every step
_Z_CARD = bytes(4 * (O_CARD + F - O_CID))  # decision.card_id, then decision.card
assert O_CARD == O_CID + 1
_Z_PRIV = bytes(4 * (DEC_END - O_PIDS))
_Z_INF = bytes(4 * N_MINF)
_Z_DICE = bytes(4 * (S_SPACES - S_DSUP))
_GUILDS, _RED = SOURCES.index("guilds"), SOURCES.index("red_guild")
_MARKET_HOST = len(TAGS)  # open_hosts: the tags, then the Market (Tides of Trade's Overseers)
assert len(HOSTS) == _MARKET_HOST + 1
_PACK_GAME = struct.Struct(f"<{G_SCAL}f")  # writes several float32 values in one call
_RESERVE = (
    3 + N_GUILDS + N_COLOURS + 2
)  # seat block scalars: the resource values (Ink Well, hourglass last), then dice reserve, then two panorama counts
assert N_SCAL == _RESERVE + 3
_PACK_RES = struct.Struct(f"<{_RESERVE}f")
_PACK_SCORE = struct.Struct(f"<{len(SOURCES) + 1}f")
# market block offsets (the block starts at market.ids), and per bitmask of worker colours its bits as floats
_M_CARDS, _M_WORK, _M_PLACED = O_MCARDS - O_MIDS, O_MWORK - O_MIDS, O_MPLACED - O_MIDS
_M_EXTRA, _M_EXPL = O_MEXTRA - O_MIDS, O_MEXPL - O_MIDS
_BITS = [_floats(np.array([bits >> c & 1 for c in range(N_COLOURS)], np.float32)) for bits in range(1 << N_COLOURS)]
# the scales of observation_layout, as the encoder writes them
_AMOUNT_TOP = AMOUNT * CAP  # silver, provisions, discounts, prices: clipped here
_DIE = 1 / DICE  # one die among a player's dice
_PER_KIND = 1 / PER_KIND
_EXTRA = [x / (WORKERS_MAX - 1) for x in range(WORKERS_MAX)]  # extra workers of a colour on a card


def _amount(x: int) -> float:
    """Silver, provisions, a discount or a price, scaled and clipped as the layout declares."""
    return x / AMOUNT if x < _AMOUNT_TOP else CAP


def _count(x: int) -> float:
    """A panorama count (tags, cards, tiles, hosts), scaled and clipped as the layout declares."""
    return x / COUNT if x < COUNT * CAP else CAP


# ------------------------------------------------------------------------------ encoder
class _Shown:
    """What one observing seat's buffer shows now, so that ``Encoder.encode`` rewrites only the
    sections whose inputs moved since that seat's last observation."""

    __slots__ = (
        "buf",
        "floats",
        "bytes",
        "market_ver",
        "market_inf",
        "seat_vers",
        "deck_rows",
        "tile_supply",
        "green",
        "card_set",
        "acquired",
        "draw_set",
        "game_sig",
        "board_ver",
        "block_tick",
        "deck_sig",
        "tides_sig",
    )

    def __init__(self, buf: np.ndarray):
        self.buf = buf
        self.floats = _floats(buf)
        self.bytes = self.floats.cast("B")
        self.market_ver: int | None = None  # Encoder._market_ver copied last
        self.market_inf: list[int] | None = None  # GameState.market_inf shown
        self.seat_vers: list[int | None] = [None] * MAX_SEATS  # per relative seat: the block version copied
        self.deck_rows: list[tuple | None] = [None] * len(ROWS)  # per deck: (size, bottom card, hidden draw) shown
        self.tile_supply: list[int] | None = None
        self.green: list[bool] | None = None
        self.card_set = False  # decision.card holds a card's features
        self.acquired: list[int] = []  # cards shown in decision.acquired
        self.draw_set = False  # private.draw holds cards
        self.game_sig: tuple | None = None  # the game scalars shown
        self.board_ver: int | None = None  # GameState.board_ver at the last look at the board
        self.block_tick: int | None = None  # Encoder._tick at the last look at the seat blocks
        self.deck_sig: tuple | None = None  # every deck's (size, bottom card) and the hidden draw
        self.tides_sig: tuple | None = None  # Tides of Trade's board: traders waiting, worker stacks' faces and sizes, boxed cards


class Encoder:
    """Builds observations of one game for any seat, reusing the sections that did not change."""

    def __init__(self) -> None:
        self._state: GameState | None = None

    def _bind(self, g: GameState) -> None:
        self._state = g
        self._st = _static(g.tables)
        self._shown: dict[int, _Shown] = {}  # per observing seat
        self._tick = 0  # version stamps, unique over all seat blocks and the market block
        self._seat_blk = [np.zeros(B, np.float32) for _ in range(g.n)]
        self._order = [tuple((seat + k) % g.n for k in range(g.n)) for seat in range(g.n)]
        self._seat_mv = [_floats(b) for b in self._seat_blk]
        self._seat_mb = [v.cast("B") for v in self._seat_mv]
        self._res_sig: list = [None] * g.n
        self._dice_sig: list = [None] * g.n
        self._seen_ver = [-1] * g.n  # GameState.seat_ver at the last look at each seat
        self._pano_sig: list = [None] * g.n
        self._caravan_sig: list = [None] * g.n  # per seat: (p.col, p.cells) when its caravan was written
        self._money = [7] * g.n  # per seat: which resources its score counts (see _Static.money)
        self._seat_ver = [0] * g.n
        self._redo = [False] * g.n
        self._comet = [-1] * g.n  # per seat: 1 if it holds the comet majority (scoring's majority list)
        self._leads = [0] * g.n  # per seat: guilds it leads alone
        self._red_leads = [0] * g.n  # per seat: 1 if it leads the Red guild alone (Tides of Trade)
        self._score_vals: list = [None] * g.n  # VP per source
        self._guild_vp = g.tables.content.player["scoring"]["guild_majority"]
        self._tides = g.config.tides_of_trade
        tides = g.tables.content.tides
        self._red_vp = tides.scoring["red_majority"] if tides else 0
        # Tides of Trade: per trader, its seat-block position for the side it shows in this game
        self._trader_at = [S_TRADER + 2 * k + g.ext_sides[tr.extension - 1] for k, tr in enumerate(tides.traders)] if tides else []
        self._market_blk = np.zeros(MARKET_END - O_MIDS, np.float32)
        self._market_mv = _floats(self._market_blk)
        self._market_sig: tuple = (None, None, None, None)
        self._market_ver = 0
        self._histograms = self._st.histograms
        self._pools: dict = {}  # deck pools nobody knows a card of, shared by every seat (this game)
        self._last: list = [None, None, None, None]  # the two histograms used last: items, histogram, items, histogram

    def encode(self, game, seat: int) -> np.ndarray:
        """The observation of ``seat`` (a new array the caller may keep)."""
        g = game.state
        if g is not self._state:
            self._bind(g)
        shown = self._shown.get(seat)
        if shown is None:
            shown = self._shown[seat] = _Shown(self._fresh_buffer(g))
        buf, mv, mb = shown.buf, shown.floats, shown.bytes
        stack = g.stack
        mv[O_DEPTH] = len(stack) / DEPTH if len(stack) < DEPTH else 1.0
        self._decision(g, seat, shown)
        if shown.board_ver != g.board_ver:  # the engine counts every possible change to the board
            shown.board_ver = g.board_ver
            d0, d1, d2, d3, d4 = decks = g.decks
            # game scalars and deck pool. Decks only lose cards at the top and gain them at the bottom,
            # so their sizes and bottom cards change whenever their contents do (a card returned and
            # one dealt too)
            top = stack[-1] if stack and not g.over else None
            hidden = top if (type(top) is DrawKeep or type(top) is DrawOrder) and g.current != seat else None
            hidden_row = hidden.row if hidden is not None else -1
            gsig = (g.turn, g.over, g.end_trigger, g.final_turns, g.ship_hired, g.ink_used, g.ink_assets, *g.guild_used)
            dsig = (
                len(d0), len(d1), len(d2), len(d3), len(d4), d0 and d0[0], d1 and d1[0], d2 and d2[0], d3 and d3[0], d4 and d4[0],
                hidden,
            )  # fmt: skip
            decks_moved = shown.deck_sig != dsig
            if decks_moved or shown.game_sig != gsig:
                shown.game_sig = gsig
                _PACK_GAME.pack_into(
                    mb, O_GS * 4, g.over, min(g.turn / TURNS, CAP), g.end_trigger >= 0, max(g.final_turns, 0) / 4, *g.guild_used,
                    g.ship_hired, len(d0) / DECK_MAX, len(d1) / DECK_MAX, len(d2) / DECK_MAX, len(d3) / DECK_MAX, len(d4) / DECK_MAX,
                    g.ink_used, g.ink_assets,
                )  # fmt: skip
            if decks_moved:
                shown.deck_sig = dsig
                rows = shown.deck_rows
                for r in range(len(ROWS)):
                    deck = decks[r]
                    draw = hidden if hidden_row == r else None
                    rsig = (len(deck), deck and deck[0], draw)
                    if rows[r] != rsig:
                        rows[r] = rsig
                        self._deck_row(g, seat, shown, r, draw)
            if shown.tile_supply != g.tile_supply or shown.green != g.green:
                shown.tile_supply, shown.green = g.tile_supply[:], g.green[:]
                pad = [0] * (NUM_DESIGNS - len(g.tile_supply))  # designs of content this game does not load
                buf[O_SUPPLY : O_SUPPLY + N_SUPPLY] = [*(x / TILES_MAX for x in g.tile_supply), *pad, *g.green]
            if self._tides:
                # stacks only lose their face-up halves and cards only join the box, so sizes tell every change
                tsig = (*g.traders, *map(len, g.worker_stacks), len(g.boxed))
                if shown.tides_sig != tsig:
                    self._tides_board(g, shown, tsig)
            if g.solo is not None:
                _solo_board(g, buf)
            # market
            ms = self._market_sig
            if g.market != ms[0] or g.market_workers != ms[1] or g.market_placed != ms[2] or (self._tides and g.market_extra != ms[3]):
                self._market_sig = (g.market[:], g.market_workers[:], g.market_placed[:], g.market_extra[:])
                self._tick += 1
                self._market_ver = self._tick
                self._build_market(g, ms)
            if shown.market_ver != self._market_ver:
                shown.market_ver = self._market_ver
                mv[O_MIDS:MARKET_END] = self._market_mv
            inf = g.market_inf
            if shown.market_inf != inf:
                shown.market_inf = inf[:]
                mb[O_MINF * 4 : (O_MINF + N_MINF) * 4] = _Z_INF
                n = g.n
                for i in range(len(inf)):
                    if inf[i] >= 0:
                        mv[O_MINF + i * MAX_SEATS + (inf[i] - seat) % n] = 1
        # seats
        self._refresh_seats(g)
        if shown.block_tick != self._tick:  # some block changed since this seat's last look (every change ticks)
            shown.block_tick = self._tick
            seat_vers = shown.seat_vers
            vers = self._seat_ver
            for k, s in enumerate(self._order[seat]):  # me, then the others in turn order
                if seat_vers[k] != vers[s]:
                    seat_vers[k] = vers[s]
                    mv[O_SEATS + k * B : O_SEATS + (k + 1) * B] = self._seat_mv[s]
        return buf.copy()

    # -- sections
    def _fresh_buffer(self, g: GameState) -> np.ndarray:
        buf = np.zeros(OBS_SIZE, np.float32)
        buf[O_NP + g.n - 2] = 1
        buf[O_SIDES : O_SIDES + 3] = g.sides
        if self._tides:  # the expansion's setting (its slices stay 0 in a base game)
            buf[O_TIDES] = 1
            buf[O_CINF + CARD_INFLUENCE.index(g.config.card_influence)] = 1
            buf[O_EXT : O_EXT + len(g.ext_sides)] = g.ext_sides
        if g.solo is not None:
            buf[O_SOLO] = 1
            buf[O_AIB + g.solo.board] = 1
        st = self._st
        for j, node in enumerate(st.tile_nodes):
            tile = g.node_tile[node]
            if tile >= 0:
                buf[O_JT + j * st.n_jtiles + tile] = 1
        return buf

    def _tides_board(self, g: GameState, shown: _Shown, tsig: tuple) -> None:
        """Tides of Trade's board: traders waiting, each worker stack's size and face-up half (never
        the halves below it: they are hidden), and the cards out of the game. The traders move most
        (an employ and a return per trader visit); the stacks and the box are rewritten only when
        their part of ``tsig`` moved."""
        old, shown.tides_sig = shown.tides_sig, tsig
        buf, mv = shown.buf, shown.floats
        traders = g.traders
        for k in range(len(traders)):
            mv[O_TRADERS + k] = traders[k] / TRADERS_MAX
        n = len(traders)
        if old is not None and old[n:] == tsig[n:]:
            return
        stacks = g.worker_stacks
        buf[O_WSIZE : O_WSIZE + len(stacks)] = [len(s) / STACK_MAX for s in stacks]
        buf[O_WFACE:O_BOXED] = 0
        pos = self._st.half_pos
        for j, stack in enumerate(stacks):
            if stack:
                buf[O_WFACE + j * N_HALF + pos[stack[-1]]] = 1
        buf[O_BOXED : O_BOXED + NUM_CARDS] = 0
        cx = self._st.canon
        for c in g.boxed:
            buf[O_BOXED + cx[c]] = 1

    def _bag(self, mv: memoryview[float], bag: EffectBag, outer: bool) -> None:
        """The nearest effect frame in full, or the next one further down (its source and items)."""
        ctx = bag.ctx
        if outer:
            mv[O_OUTER + ctx.source] = 1
            mv[O_OITEMS : O_OITEMS + E] = self._histogram(bag.items)
            return
        mv[O_BAG] = 1
        mv[O_BSRC + ctx.source] = 1
        mv[O_BCTX], mv[O_BCTX + 1], mv[O_BCTX + 2] = _amount(ctx.silver_discount), _amount(ctx.provision_discount), ctx.spare_pigeon
        mv[O_BITEMS : O_BITEMS + E] = self._histogram(bag.items)

    def _decision(self, g: GameState, seat: int, shown: _Shown) -> None:
        buf, mv, mb = shown.buf, shown.floats, shown.bytes
        mb[_B_DEC:_B_SMALL_END] = _Z_SMALL
        if shown.card_set:
            mb[O_CID * 4 : (O_CARD + F) * 4] = _Z_CARD
            shown.card_set = False
        if shown.draw_set:
            mb[O_PIDS * 4 : DEC_END * 4] = _Z_PRIV
            shown.draw_set = False
        if g.over or not g.stack:
            if shown.acquired:
                for c in shown.acquired:
                    mv[O_ACQ + c] = 0
                shown.acquired = []
            return
        st = self._st
        cur = g.current
        me = g.players[cur]
        mv[O_DEC + (cur - seat) % g.n] = 1
        stack = g.stack
        top = stack[-1]
        kind = type(top)
        kind_of = _KIND_OF
        mv[O_KIND + kind_of[kind]] = 1
        # the nearest effect frame (the top one, if it is) in full, the next one's source and items
        bags = 0
        if kind is EffectBag:  # the top bag in full (as _bag does; inlined: most decisions are a bag's)
            ctx = top.ctx
            mv[O_BAG] = 1
            mv[O_BSRC + ctx.source] = 1
            sd, pd = ctx.silver_discount, ctx.provision_discount
            mv[O_BCTX] = sd / AMOUNT if sd < _AMOUNT_TOP else CAP
            mv[O_BCTX + 1] = pd / AMOUNT if pd < _AMOUNT_TOP else CAP
            mv[O_BCTX + 2] = ctx.spare_pigeon
            mv[O_BITEMS : O_BITEMS + E] = self._histogram(top.items)
            bags = 1
        for i in range(len(stack) - 2, -1, -1) if len(stack) > 1 else ():  # the frames below the top
            frame = stack[i]
            below = type(frame)
            mv[O_STACK + kind_of[below]] += _PER_KIND
            if below is EffectBag and bags < 2:
                self._bag(mv, frame, bags == 1)
                bags += 1
        if len(stack) > PER_KIND + 1:  # a kind may hold more frames than the scale: clipped at 1
            for k in range(O_STACK, O_STACK + len(kind_of)):
                if mv[k] > 1:
                    mv[k] = 1.0
        acquired = me.acquired
        if shown.acquired != acquired:  # what the deciding player acquired this turn, rewritten on change
            cx = st.canon
            for c in shown.acquired:
                mv[O_ACQ + cx[c]] = 0
            for c in acquired:
                mv[O_ACQ + cx[c]] = 1
            shown.acquired = acquired[:]
        if kind is EffectBag or not top:  # the most common decisions have no parameters to show
            return
        if kind is CaravanChain or kind is DieSpace:  # the die being placed
            mv[O_FACES + me.dice_face[top.die] - 1] = _DIE
        elif kind is TradeGuild:
            mv[O_FLAGS + 4] = top.steps / 2
            if top.die >= 0:
                mv[O_FACES + me.dice_face[top.die] - 1] = _DIE
        elif kind is InfluenceSource:
            if top.on_card == 0:
                mv[O_GUILD + top.target] = 1
            elif top.on_card == 1:
                mv[O_SLOT + top.target] = 1
            else:  # the Ink Well (Tides of Trade)
                mv[O_FLAGS + 5] = 1
        elif kind is JournalStep:
            mv[O_FLAGS + 3] = top.second
        elif kind is Acquire:
            mv[O_ROW + top.row] = 1
            mv[O_FLAGS] = top.free
            mv[O_DISC] = _amount(top.discount)
            mv[O_FLAGS + 1] = top.allow_draw
            mv[O_FLAGS + 2] = top.spare_pigeon
        elif kind is Fee:
            mv[O_FEE + (top.owner - seat) % g.n] = 1
            then = top.then
            slots = g.tables.slots
            if type(then) is TakeCard:
                mv[O_FEEF] = 1
                mv[O_SLOT + then.row * slots + then.slot] = 1
            elif type(then) is PlaceWorker:
                mv[O_FEEF + 1] = 1
                mv[O_COLOUR + then.colour] = 1
                mv[O_SLOT + then.spot] = 1
            elif type(then) is CaptureFrom:  # Tides of Trade: a worker from the owner's supply
                mv[O_FEEF + 3] = 1
                mv[O_COLOUR + then.colour] = 1
            else:
                mv[O_FEEF + 2] = 1
                mv[O_SLOT + then.spot] = 1
                mv[O_COLOUR + then.colour] = 1
        elif kind is DrawKeep or kind is DrawOrder:
            mv[O_ROW + top.row] = 1
            cards = top.cards if kind is DrawKeep else (*top.rest, top.kept)
            mv[O_DRAWN] = len(cards) / 3
            if cur == seat:  # private: only the drawer sees the cards
                shown.draw_set = True
                for j, c in enumerate(cards):
                    mv[O_PIDS + j] = st.canon[c] + 1
                    buf[O_PDRAW + j * F : O_PDRAW + (j + 1) * F] = st.feat[c]
        elif kind is TuckTownsfolk or kind is PlaceSpaceCard or kind is PlaceInspiration:
            c = top.card
            shown.card_set = True
            mv[O_CID] = st.canon[c] + 1
            buf[O_CARD : O_CARD + F] = st.feat[c]
            if kind is PlaceInspiration and top.slot >= 0:
                mv[O_SLOT + INSPIRATION_ROW * g.tables.slots + top.slot] = 1
        elif kind is TileDesign:
            mv[O_TKIND + top.kind] = 1
            mv[O_FLAGS] = top.free
            mv[O_DISC] = _amount(top.discount)
        elif kind is TilePrice or kind is TilePosition:
            d = top.design
            mv[O_DESIGN + d] = 1
            mv[O_TKIND + g.tables.design_kind[d]] = 1
            if kind is TilePrice:
                mv[O_DISC] = _amount(top.discount)
        elif kind is RestReroll:
            for d in top.dice:
                mv[O_FACES + me.dice_face[d] - 1] += _DIE
        elif kind is WorkerTarget:
            mv[O_COLOUR + top.colour] = 1
        # Tides of Trade's decisions
        elif kind is Payment:
            need = top.need
            for k in range(len(need)):
                mv[O_PRICE + k] = _amount(need[k])
            mv[O_FLAGS + 6] = top.then == FEE_AFTER
        elif kind is ChooseTrader:
            ctx = top.ctx
            mv[O_DSRC + ctx.source] = 1
            mv[O_DCTX], mv[O_DCTX + 1], mv[O_DCTX + 2] = _amount(ctx.silver_discount), _amount(ctx.provision_discount), ctx.spare_pigeon
        elif kind is WorkerColumn:
            mv[O_WTILE + st.half_pos[top.top]] = 1
            mv[O_WTILE + N_HALF + st.half_pos[top.bottom]] = 1
        elif kind is HourglassSaving:
            mv[O_NODE + top.source] = 1
        elif kind is Capture:
            mv[O_FLAGS + 7] = top.then_place
        elif kind is CardInfluencePaid:
            mv[O_LEFT] = top.left / INFLUENCE
        elif kind is TraderArrives:
            mv[O_TRADER + top.trader] = 1

    def _histogram(self, items: tuple) -> memoryview[float]:
        """Effect histogram of an effect frame's items, cached for every game of this content.

        The same effect objects come back again and again, so the cache is keyed by the items'
        ids (hashing effect trees is slow); an entry holds its items, so no id can be reused."""
        last = self._last  # the same frames seen again (another seat, a sub-decision, an outer effect)
        if items is last[0]:
            return last[1]
        if items is last[2]:
            return last[3]
        key = tuple(map(id, items))
        hit = self._histograms.get(key)
        if hit is None:
            if len(self._histograms) > 1 << 14:
                self._histograms.clear()
            scaled = np.clip(effect_histogram(items) / EFFECT_SCALE, -CAP, CAP)  # the layout's scale and bounds
            hit = self._histograms[key] = (items, _floats(scaled))
        last[2], last[3], last[0], last[1] = last[0], last[1], items, hit[1]
        return hit[1]

    def _build_market(self, g, old: tuple) -> None:
        """Rewrite the market slots that changed since ``old`` (cards, workers, placed flags, and
        Tides of Trade's extra workers)."""
        mv = self._market_mv
        rows = self._st.feat_rows
        cx = self._st.canon
        market, workers, placed, extra = g.market, g.market_workers, g.market_placed, g.market_extra
        old_cards, old_workers, old_placed, old_extra = old
        for i in range(len(market)):
            c = market[i]
            if old_cards is None or old_cards[i] != c:
                mv[i] = cx[c] + 1  # cx[-1] is -1: an empty slot shows 0
                mv[_M_CARDS + i * F : _M_CARDS + (i + 1) * F] = rows[c]  # row -1 is all zeros: an empty slot
            w, pl = workers[i], placed[i]
            if old_cards is None or old_workers[i] != w or old_placed[i] != pl:
                k = _M_WORK + i * N_COLOURS
                mv[k : k + N_COLOURS] = _BITS[w]
                k = _M_PLACED + i * N_COLOURS
                mv[k : k + N_COLOURS] = _BITS[pl]
        if not self._tides:
            return  # no second worker of a colour on a card without the expansion: the extras stay 0
        for i, x in enumerate(extra):
            if old_extra is None or old_extra[i] != x:
                for colour in range(N_COLOURS):
                    mv[_M_EXTRA + i * N_COLOURS + colour] = _EXTRA[extra_on(x, colour)]
                    mv[_M_EXPL + i * N_COLOURS + colour] = _EXTRA[extra_placed(x, colour)]

    def _refresh_seats(self, g) -> None:
        """Rebuild what changed per seat: resources, dice, panorama and caravan, score.

        The score is recounted only when its inputs move: the seat's panorama, its comet
        majority, its hourglass, and the silver, provisions or influence its own cards count;
        the guild majorities, the Red guild's too (influence moves often), are recounted here
        without it."""
        players = g.players
        ver, seen = g.seat_ver, self._seen_ver
        first = self._score_vals[0] is None
        pano_moved = guild_moved = first
        redo = self._redo  # per seat: the score apart from guild majorities must be recounted
        for s, p in enumerate(players):
            if ver[s] == seen[s]:
                continue  # the engine has not touched this player since the last look
            seen[s] = ver[s]
            changed = False
            # counts move with every card and tile added to the panorama; acquired empties at turn end
            pano = self._pano_sig[s]
            if pano is None or p.counts != pano[0]:
                pano_moved = redo[s] = changed = True
                self._pano_sig[s] = (p.counts[:], len(p.acquired))
                self._build_panorama(g, s)
            elif len(p.acquired) != pano[1]:  # only which die spaces are usable this turn moved
                self._pano_sig[s] = (pano[0], len(p.acquired))
                self._build_usable(g, s)
                changed = True
            # resources: compared field by field (cheaper than building a signature every step)
            old = self._res_sig[s]
            if (
                old is None or p.silver != old[0] or p.provisions != old[1] or p.supply != old[2] or p.node != old[3]
                or p.guild != old[4] or p.workers != old[5] or p.ink != old[6] or p.hourglass != old[7] or p.trader != old[8]
            ):  # fmt: skip
                self._res_sig[s] = (p.silver, p.provisions, p.supply, p.node, p.guild[:], p.workers[:], p.ink, p.hourglass, p.trader)
                self._build_resources(p, s, old)
                changed = True
                money = self._money[s]
                if old is None or p.guild != old[4]:
                    guild_moved = True
                    if money & 4:
                        redo[s] = True
                if old is None or (money & 1 and p.silver != old[0]) or (money & 2 and p.provisions != old[1]):
                    redo[s] = True
                if old is not None and p.hourglass != old[7]:  # Tides of Trade: a full hourglass scores
                    redo[s] = True
            old = self._dice_sig[s]
            if old is None or p.dice_face != old[0] or p.dice_loc != old[1]:
                self._dice_sig[s] = (p.dice_face[:], p.dice_loc[:])
                self._build_dice(p, s)
                changed = True
            if changed:
                self._tick += 1
                self._seat_ver[s] = self._tick
        if pano_moved:
            comets = [p.counts[COMET] for p in players]
            best = max(comets)
            sole = comets.count(best) == 1
            for s in range(len(players)):
                flag = int(sole and comets[s] == best)
                if flag != self._comet[s]:
                    self._comet[s] = flag
                    redo[s] = True
        leads, red = self._leads, self._red_leads
        if guild_moved:
            leads = [0] * len(players)
            for k in range(len(BASE_GUILDS)):  # as scoring: the red majority is scored apart
                vals = [p.guild[k] for p in players]
                top = max(vals)
                if top > 0 and vals.count(top) == 1:
                    leads[vals.index(top)] += 1
            if self._tides:  # Tides of Trade: the Red guild's majority, won the same way
                vals = [p.guild[RED] for p in players]
                top = max(vals)
                red = [int(top > 0 and v == top and vals.count(top) == 1) for v in vals]
            if leads == self._leads and red == self._red_leads and not any(redo):
                return
            self._leads, self._red_leads = leads, red
        elif not any(redo):
            return
        for s in range(len(players)):
            vals = self._score_vals[s]
            guilds, red_vp = self._guild_vp * leads[s], self._red_vp * red[s]
            if redo[s]:
                redo[s] = False
                sc = score_player(g, s, self._comet)
                vals = self._score_vals[s] = [sc.get(k, 0) for k in SOURCES]
                assert vals[_GUILDS] == guilds and vals[_RED] == red_vp, (s, vals, guilds, red_vp)
            elif vals[_GUILDS] != guilds or vals[_RED] != red_vp:
                vals[_GUILDS], vals[_RED] = guilds, red_vp
            else:
                continue
            _PACK_SCORE.pack_into(self._seat_mb[s], S_SCORE * 4, *[min(v / VP, CAP) for v in vals], min(sum(vals) / VP, CAP))
            self._tick += 1
            self._seat_ver[s] = self._tick

    def _build_resources(self, p, s: int, old: tuple | None) -> None:
        """Silver, provisions, influence, workers, the journal marker and the trader of a seat block."""
        mb = self._seat_mb[s]
        _PACK_RES.pack_into(
            mb, S_SCAL * 4, _amount(p.silver), _amount(p.provisions), min(p.supply / INFLUENCE, 1.0),
            *[min(x / INFLUENCE, 1.0) for x in p.guild], *[x / WORKERS_MAX for x in p.workers], p.ink / INFLUENCE, p.hourglass,
        )  # fmt: skip
        if old is None or old[3] != p.node:
            mv = self._seat_mv[s]
            if old is not None:
                mv[S_NODE + old[3]] = 0
            mv[S_NODE + p.node] = 1
        if old is None or old[8] != p.trader:  # Tides of Trade: the trader on the Market, with the side it shows
            mv = self._seat_mv[s]
            if old is not None and old[8] >= 0:
                mv[self._trader_at[old[8]]] = 0
            if p.trader >= 0:
                mv[self._trader_at[p.trader]] = 1

    def _build_dice(self, p, s: int) -> None:
        """Dice in the reserve, in supply per face, and on die spaces, of a seat block."""
        mv, mb = self._seat_mv[s], self._seat_mb[s]
        mb[S_DSUP * 4 : S_SPACES * 4] = _Z_DICE
        reserve = 0
        faces = p.dice_face
        for d, loc in enumerate(p.dice_loc):
            if loc >= 0:
                mv[S_DPL + loc] = 1
            elif loc == SUPPLY:
                mv[S_DSUP + faces[d] - 1] += _DIE
            else:
                reserve += 1
        mv[S_SCAL + _RESERVE] = reserve / DICE

    def _build_usable(self, g, s: int) -> None:
        """The die spaces a seat may use now: the capital's, and its cards' not acquired this turn."""
        st = self._st
        p = g.players[s]
        blk = self._seat_blk[s]
        blk[S_SPACES : S_SPACES + NUM_SPACES] = 0
        sp, acquired = st.space_of_card, p.acquired
        ones = [S_SPACES + x for x in st.fixed_spaces]
        for c in p.land + p.water:
            x = sp.get(c)
            if x is not None and c not in acquired:
                ones.append(S_SPACES + x)
        blk[ones] = 1

    def _build_panorama(self, g, s: int) -> None:
        """The slow part of a seat block: cards, usable die spaces, hosts, caravan (S_SPACES up to S_SCORE;
        the caravan part only after a tile landed)."""
        st = self._st
        p = g.players[s]
        blk = self._seat_blk[s]
        blk[S_SPACES:S_CELLS] = 0
        money = st.money[st.star]
        for c in (*p.above.values(), *p.inspired.values()):
            money |= st.money[c]
        self._money[s] = money
        blk[S_SCAL + _RESERVE + 1] = _count(len(p.land) + len(p.water) - len(p.above))  # open space hosts
        blk[S_SCAL + _RESERVE + 2] = _count(1 + len(p.above) - len(p.inspired))  # inspiration targets
        blk[S_PRESENT] = 1
        blk[S_SEAT + s] = 1
        panorama = p.land + p.water
        ones = [S_BOARD + p.board]
        blk[S_COUNTS : S_COUNTS + STATIC_TERMS] = np.minimum(np.array(p.counts[:STATIC_TERMS]) / COUNT, CAP)  # _count, one numpy pass
        acquired = p.acquired
        ones.extend(S_SPACES + x for x in st.fixed_spaces)
        sp = st.space_of_card
        cx = st.canon
        hosts = [0] * len(HOSTS)
        tucked = p.tucked
        for c in panorama:
            ones.append(S_CARDS + cx[c])
            x = sp.get(c)
            if x is not None and c not in acquired:
                ones.append(S_SPACES + x)
            if c not in tucked:
                for k in st.tag_idx[c]:
                    hosts[k] += 1
        for c in st.host_extra:
            if c not in tucked:
                for k in st.tag_idx[c]:
                    hosts[k] += 1
        open_hosts = np.minimum(np.array(hosts) / COUNT, CAP)  # _count over the hosts in one numpy pass
        if self._tides:  # the Market takes one Overseer (a flag, not a count)
            open_hosts[_MARKET_HOST] = int(p.overseer < 0)
        blk[S_HOSTS : S_HOSTS + len(HOSTS)] = open_hosts
        for host, c in tucked.items():
            ones.append(S_CARDS + cx[c])
            blk[S_TUCK + st.host_pos[host]] = cx[c] + 1
        for host, c in p.above.items():
            ones.append(S_CARDS + cx[c])
            blk[S_ABOVE + st.above_pos[host]] = cx[c] + 1
        for space_card, c in p.inspired.items():
            ones.append(S_CARDS + cx[c])
            blk[S_INSP + st.space_card_pos[space_card]] = cx[c] + 1
        if p.overseer >= 0:
            ones.append(S_CARDS + cx[p.overseer])
        blk[S_OVERSEER] = cx[p.overseer] + 1  # cx[-1] is -1: none shows 0
        if p.worker_tiles:  # Tides of Trade: worker tiles move only with the counts (each is an upgrade tile)
            blk[S_WTILES : S_WTILES + len(p.worker_tiles) * 2 * N_HALF] = 0
            pos = st.half_pos
            for col, (top, bottom) in enumerate(p.worker_tiles):
                if top >= 0:
                    ones.append(S_WTILES + col * 2 * N_HALF + pos[top])
                    ones.append(S_WTILES + col * 2 * N_HALF + N_HALF + pos[bottom])
        blk[S_LINKS : S_LINKS + 4] = st.links[p.water[-1] if p.water else st.harbour]
        blk[ones] = 1
        # the caravan (cells, columns, tiles) moves only when a tile lands, which replaces p.col
        caravan = self._caravan_sig[s]
        if caravan is None or caravan[0] is not p.col or caravan[1] != p.cells:
            self._caravan_sig[s] = (p.col, p.cells)
            blk[S_CELLS:S_SCORE] = 0
            cells = p.cells
            blk[[S_CELLS + i for i in range(18) if cells >> i & 1]] = 1
            blk[S_COLS : S_COLS + 48] = [v / COLUMN if v < COLUMN else 1.0 for col in p.col for v in col]
            for tile in p.tiles:
                blk[S_TILES + tile[0]] += 1 / TILES_MAX

    def _deck_row(self, g: GameState, seat: int, shown: _Shown, r: int, hidden_draw: DrawKeep | DrawOrder | None) -> None:
        """The unseen pool and known depths of deck ``r``: the cards of one kind, a few index runs."""
        buf, mv, mb = shown.buf, shown.floats, shown.bytes
        st = self._st
        runs = st.row_runs[r]
        deck, known = g.decks[r], g.known[r]
        if hidden_draw is None and not any(known):
            # nobody knows a card of this deck: every seat sees the same pool, built once per
            # game (size and bottom card identify it, as in encode) and copied per seat
            key = (r, len(deck), deck[0] if deck else -1)
            pool = self._pools.get(key)
            if pool is None:
                block = np.zeros(st.row_len[r], np.float32)
                pos = st.row_pos
                block[[pos[c] for c in deck]] = 1
                pool = self._pools[key] = _floats(block)
            for lo, hi, off, zero in runs:
                mv[O_UNSEEN + lo : O_UNSEEN + hi] = pool[off : off + hi - lo]
                mb[(O_KNOWN + lo) * 4 : (O_KNOWN + hi) * 4] = zero
            return
        for lo, hi, _off, zero in runs:
            mb[(O_UNSEEN + lo) * 4 : (O_UNSEEN + hi) * 4] = zero
            mb[(O_KNOWN + lo) * 4 : (O_KNOWN + hi) * 4] = zero
        cx = st.canon
        if any(known):  # somebody saw cards go to the bottom of this deck
            bit = 1 << seat
            size = len(deck)
            unseen = []
            for i, c in enumerate(deck):
                if known[i] & bit:
                    buf[O_KNOWN + cx[c]] = (size - i) / DECK_MAX
                else:
                    unseen.append(c)
        else:
            unseen = deck[:]
        if type(hidden_draw) is DrawKeep:
            unseen.extend(hidden_draw.cards)
        elif type(hidden_draw) is DrawOrder:
            unseen.extend(hidden_draw.rest)
            unseen.append(hidden_draw.kept)
        buf[O_UNSEEN:O_KNOWN][[cx[c] for c in unseen]] = 1


def encode(game, seat: int) -> np.ndarray:
    """Uncached observation of ``seat`` (reference implementation for tests and tools)."""
    if not 0 <= seat < game.state.n:
        raise ValueError(f"seat must be 0..{game.state.n - 1}, got {seat!r}")
    return Encoder().encode(game, seat)


_WANTS = {"card": 0, "worker": 1, "retrieve": 2}


def _solo_board(g: GameState, buf: np.ndarray) -> None:
    """The solo AI's public pieces: its track space, the face-up scheme cards (all public), its
    acquired cards and covered caravan cells, and what it wants when the human must let or deny it."""
    solo = g.solo
    assert solo is not None  # called only in solo games
    buf[O_TRACK:SOLO_END] = 0
    buf[O_TRACK + solo.track] = 1
    for s in solo.shown:
        buf[O_SHOWN + s] = 1
    for s in solo.shown[-2:]:
        buf[O_RECENT + s] = 1
    buf[O_SOLO_SCAL] = solo_priority.sum_value(g) / 4 if solo.shown else 0
    buf[O_SOLO_SCAL + 1] = len(solo.draw) / 7
    buf[O_SOLO_SCAL + 2] = min(solo.bonus_due / BONUS, 1.0)
    kinds = g.tables.kind_row
    for c in solo.cards:
        buf[O_AICARDS + kinds[c]] += 1 / AI_CARDS
    np.minimum(buf[O_AICARDS : O_AICARDS + len(ROWS)], CAP, out=buf[O_AICARDS : O_AICARDS + len(ROWS)])
    for cell in range(21):
        if solo.cells >> cell & 1:
            buf[O_AICELLS + cell] = 1
    for k in solo.traders_below:
        buf[O_BELOW + k] += 1
    top = g.stack[-1] if g.stack and not g.over else None
    if type(top) is AiWants:
        buf[O_AIWANTS + _WANTS[top.step[0]]] = 1
        buf[O_AIWANTS + 3] = len(top.denied) / 4
