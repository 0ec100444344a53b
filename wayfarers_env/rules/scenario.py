"""Build a specific position from readable ids, for tests, examples and bug reports.

``build_scenario(spec)`` starts from a normally set-up game (``config`` and ``seed``), moves the
named cards, tiles, dice, workers and tokens where the spec says, and checks the result against
the rules: every card, influence token, worker and tile still exists exactly once, and every
piece sits where the rules allow. A position the rules cannot reach raises ScenarioError naming
the key and what is allowed, so a test never exercises the engine on a table that cannot occur.
The builder works on a fresh state and returns it only when every check passed. The keys and
their defaults are documented in docs/SCENARIOS.md.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from wayfarers_env.content.measures import TERM_INDEX
from wayfarers_env.rules import solo
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.caravan import footprint
from wayfarers_env.rules.engine import Game, settle
from wayfarers_env.rules.save_consistency import recount
from wayfarers_env.rules.state import (
    EXTRA_PLACED,
    EXTRA_WIDTH,
    RESERVE,
    SUPPLY,
    ConfigError,
    GameConfig,
    PlayerState,
    extra_on,
    extra_placed,
    new_state,
    recompute_caravan,
)
from wayfarers_env.rules.tables import COMET, Tables
from wayfarers_env.rules.turn import TURN
from wayfarers_env.rules.workers import never_blocked
from wayfarers_env.vocabulary import BASE_GUILDS, BLUE, GUILDS, ROWS, WORKER_COLOURS

WORKERS = WORKER_COLOURS
PLAYER_KEYS = {
    "silver",
    "provisions",
    "supply",
    "guild",
    "dice",
    "placed",
    "workers",
    "node",
    "land",
    "water",
    "above",
    "tucked",
    "inspired",
    "tiles",
    "board",
    "ink",
    "hourglass",
    "trader",
    "overseer",
    "worker_tiles",
}
THIS_TURN_KEYS = {"workers_placed", "acquired", "guild_used", "ship_hired"}
TOP_KEYS = {
    "config",
    "seed",
    "sides",
    "current",
    "turn",
    "players",
    "market",
    "decks",
    "known",
    "influence_on",
    "workers_on",
    "journal_tiles",
    "green",
    "tile_supply",
    "this_turn",
    "end_trigger",
    "final_turns",
    "extension_sides",
    "worker_stacks",
    "boxed",
    "solo",
}
TIDES_PLAYER_KEYS = ("ink", "hourglass", "trader", "overseer", "worker_tiles")
AI_PLAYER_KEYS = {"guild", "workers", "node"}  # the solo AI's seat (players[1]): what it has of a player's pieces
SOLO_KEYS = {"track", "comet", "shown", "draw", "cards", "tiles", "bonus_due"}
TIDES_TOP_KEYS = ("extension_sides", "worker_stacks", "boxed")


class ScenarioError(ValueError):
    """A spec naming something that does not exist, or a position the rules cannot reach. The
    message starts with the key at fault and says what is allowed."""


def build_scenario(spec: dict[str, Any]) -> Game:
    """A new Game at the start of ``current``'s turn, or ScenarioError; see docs/SCENARIOS.md."""
    return _Builder(spec).build()


# ------------------------------------------------------------------ reading spec values


def _int(value: Any, where: str, lo: int, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
        allowed = f"an int {lo}..{hi}" if hi is not None else f"an int >= {lo}"
        raise ScenarioError(f"{where}: {allowed}, got {value!r}")
    return value


def _list(value: Any, where: str, what: str) -> list:
    if not isinstance(value, (list, tuple)):
        raise ScenarioError(f"{where}: a list of {what}, got {value!r}")
    return list(value)


def _dict(value: Any, where: str, what: str) -> dict:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: a dict of {what}, got {value!r}")
    return value


def _keys(d: dict, allowed: set[str], where: str) -> None:
    unknown = set(d) - allowed
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {sorted(map(str, unknown))}; allowed: {sorted(allowed)}")


def _name(value: Any, names: tuple[str, ...] | list[str], where: str, what: str) -> int:
    if not isinstance(value, str) or value not in names:
        raise ScenarioError(f"{where}: unknown {what} {value!r}; allowed: {', '.join(names)}")
    return names.index(value)


def _names(value: Any, names: tuple[str, ...], where: str, what: str) -> list[int]:
    """A list of distinct names, as indices."""
    out: list[int] = []
    for v in _list(value, where, f"{what}s ({', '.join(names)})"):
        i = _name(v, names, where, what)
        if i in out:
            raise ScenarioError(f"{where}: {v!r} given twice; each {what} at most once")
        out.append(i)
    return out


def _card(t: Tables, cid: Any, where: str, kind: str | None = None) -> int:
    card = t.content.by_id.get(cid) if isinstance(cid, str) else None
    if card is None:
        raise ScenarioError(f"{where}: unknown card id {cid!r}")
    if kind is not None and card.kind != kind:
        raise ScenarioError(f"{where}: {cid} is a {card.kind} card; this key takes {kind} cards")
    return card.index


def _take_out(g: Any, card: int) -> None:
    for deck, known in zip(g.decks, g.known):
        if card in deck:
            i = deck.index(card)
            del deck[i]
            del known[i]
            return
    if card in g.market:
        i = g.market.index(card)
        g.market[i] = -1
        g.market_inf[i] = -1
        g.market_workers[i] = 0
        g.market_extra[i] = 0


# ------------------------------------------------------------------------ the builder


class _Builder:
    """One build: parses, places and checks, section by section, on a fresh state."""

    def __init__(self, spec: Any):
        if not isinstance(spec, dict):
            raise ScenarioError(f"a scenario is a dict of keys (docs/SCENARIOS.md), got {type(spec).__name__}")
        _keys(spec, TOP_KEYS, "scenario")
        config = spec.get("config", {})
        if not isinstance(config, GameConfig):
            try:
                config = GameConfig.from_dict(config)
            except ConfigError as exc:
                raise ScenarioError(f"config: {exc}") from None
        seed = spec.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ScenarioError(f"seed: an int, got {seed!r}")
        self.spec = spec
        self.g = new_state(config, seed)
        self.t = self.g.tables
        self.n = self.g.n
        self.guilds = GUILDS if config.tides_of_trade else BASE_GUILDS  # red is the expansion's guild
        self.named: dict[int, str] = {}  # card -> the key that placed it
        players = _list(spec.get("players", []), "players", "player dicts, one per seat")
        if len(players) > self.n:
            raise ScenarioError(f"players: {len(players)} player dicts for a {self.n}-player game")
        for k, ps in enumerate(players):
            _keys(_dict(ps, f"players[{k}]", "player keys"), PLAYER_KEYS, f"players[{k}]")
            extra = [key for key in TIDES_PLAYER_KEYS if key in ps]
            if extra and not config.tides_of_trade:
                raise ScenarioError(f"players[{k}].{extra[0]}: Tides of Trade's (config tides_of_trade: True)")
        extra = [key for key in TIDES_TOP_KEYS if key in spec]
        if extra and not config.tides_of_trade:
            raise ScenarioError(f"{extra[0]}: Tides of Trade's (config tides_of_trade: True)")
        if "solo" in spec and not config.solo:
            raise ScenarioError("solo: the solo AI's pieces need a solo game (config num_players: 1, solo_ai_board: 1-4)")
        if config.solo and len(players) > 1:
            _keys(players[1], AI_PLAYER_KEYS, "players[1] (the solo AI)")
        self.ps: list[dict] = players + [{}] * (self.n - len(players))
        self.ai_tiles: list[int] = []

    def build(self) -> Game:
        self._sides()
        panoramas = [self._panorama(k) for k in range(self.n)]
        overseers = self._overseers()
        self._solo_cards()
        market, decks = self._market_spec(), self._decks_spec()
        self._move_cards(market, decks, self._known_spec(decks))
        for k in range(self.n):
            self._player(k, panoramas[k])
        self._boards()
        self._influence()
        self._workers()
        self._tiles()
        self._journal_tiles()
        self._tides(overseers)
        self._solo()
        self._turn()
        self._end()
        self._this_turn()
        self._never_blocked()
        g = self.g
        g.stack = [TURN]
        settle(g)
        game = Game.__new__(Game)
        game.state = g
        game._legal = None
        return game

    # -- small helpers
    def _seat(self, value: Any, where: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < self.n:
            raise ScenarioError(f"{where}: a seat 0..{self.n - 1}, got {value!r}")
        return value

    def _place(self, cid: Any, where: str, kind: str) -> int:
        card = _card(self.t, cid, where, kind)
        if card in self.named:
            raise ScenarioError(f"{where}: {cid} is already placed by {self.named[card]}; every card exists once")
        self.named[card] = where
        return card

    def _node(self, value: Any, where: str) -> int:
        node = self.t.content.node_by_id.get(value) if isinstance(value, str) else None
        if node is None:
            raise ScenarioError(f"{where}: unknown journal node {value!r}; nodes are journal.COLUMN.ROW, from journal.0.1 to journal.10.5")
        return node.index

    def _face_up(self, cid: Any, where: str) -> int:
        card = _card(self.t, cid, where)
        if card not in self.g.market:
            raise ScenarioError(f"{where}: {cid} is not face up in the market (put it there with `market`)")
        return self.g.market.index(card)

    # -- sections
    def _sides(self) -> None:
        if "sides" not in self.spec:
            return
        s = self.spec["sides"]
        if not isinstance(s, str) or len(s) != 3 or not set(s) <= {"a", "b"}:
            raise ScenarioError(f"sides: three letters a/b for main-board sections 1-3 (e.g. 'aba'), got {s!r}")
        fixed = self.g.config.board_sides
        if fixed not in ("random", s):
            raise ScenarioError(f"sides: {s!r} contradicts config.board_sides {fixed!r}; give one of them")
        self.g.sides = tuple("ab".index(c) for c in s)

    def _panorama(self, k: int) -> tuple[list[int], list[int], dict[int, int], dict[int, int], dict[int, int]]:
        t, ps, where = self.t, self.ps[k], f"players[{k}]"
        land = [self._place(c, f"{where}.land", "land") for c in _list(ps.get("land", []), f"{where}.land", "Land card ids")]
        water = [self._place(c, f"{where}.water", "water") for c in _list(ps.get("water", []), f"{where}.water", "Water card ids")]
        own = set(land) | set(water)
        above: dict[int, int] = {}
        for h, c in _dict(ps.get("above", {}), f"{where}.above", "Land/Water card id -> Space card id").items():
            w = f"{where}.above[{h!r}]"
            host = _card(t, h, w)
            if host not in own:
                raise ScenarioError(f"{w}: {h} is not in this player's land or water; a Space card goes above one of those")
            above[host] = self._place(c, w, "space")
        tucked: dict[int, int] = {}
        for h, c in _dict(ps.get("tucked", {}), f"{where}.tucked", "host card id -> Townsfolk card id").items():
            w = f"{where}.tucked[{h!r}]"
            host = _card(t, h, w)
            if host not in own | {t.capital_city, t.capital_harbour}:
                raise ScenarioError(
                    f"{w}: {h} is not in this player's panorama; a Townsfolk goes under capital.city, capital.harbour "
                    "or one of the player's Land or Water cards"
                )
            folk = self._place(c, w, "townsfolk")
            need, tags = t.cards[folk].hosts, t.cards[host].tags
            if not any(tag in tags for tag in need):
                raise ScenarioError(f"{w}: {c} goes under a card with a {' or '.join(need)} tag; {h} has {', '.join(tags) or 'none'}")
            tucked[host] = folk
        inspired: dict[int, int] = {}
        targets = {t.capital_star} | set(above.values())
        for h, c in _dict(ps.get("inspired", {}), f"{where}.inspired", "capital.star or Space card id -> Inspiration card id").items():
            w = f"{where}.inspired[{h!r}]"
            target = _card(t, h, w)
            if target not in targets:
                raise ScenarioError(f"{w}: {h} is neither capital.star nor one of this player's Space cards (their `above`)")
            inspired[target] = self._place(c, w, "inspiration")
        return land, water, above, tucked, inspired

    def _market_spec(self) -> dict[int, list[int | None]]:
        out: dict[int, list[int | None]] = {}
        for row, cards in _dict(self.spec.get("market", {}), "market", "row -> card ids").items():
            r = _name(row, ROWS, "market", "row")
            w = f"market.{row}"
            cards = _list(cards, w, "up to 4 card ids, slot 1 first (None for an empty slot)")
            if len(cards) > 4:
                raise ScenarioError(f"{w}: {len(cards)} cards; a row has 4 slots")
            out[r] = [None if c is None else self._place(c, f"{w} slot {s + 1}", row) for s, c in enumerate(cards)]
        return out

    def _decks_spec(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for row, cards in _dict(self.spec.get("decks", {}), "decks", "row -> card ids, top card first").items():
            r = _name(row, ROWS, "decks", "row")
            w = f"decks.{row}"
            out[r] = [self._place(c, w, row) for c in _list(cards, w, "card ids, top card first")]
        return out

    def _known_spec(self, decks: dict[int, list[int]]) -> dict[int, int]:
        in_decks = {c for cards in decks.values() for c in cards}
        out: dict[int, int] = {}
        for cid, seats in _dict(self.spec.get("known", {}), "known", "deck card id -> seats that have seen it").items():
            w = f"known[{cid!r}]"
            card = _card(self.t, cid, w)
            if card not in in_decks:
                raise ScenarioError(f"{w}: {cid} is not listed in `decks`; only cards placed there can be marked as seen")
            bits = 0
            for s in _list(seats, w, "seats"):
                bits |= 1 << self._seat(s, w)
            out[card] = bits
        return out

    def _move_cards(self, market: dict[int, list[int | None]], decks: dict[int, list[int]], known: dict[int, int]) -> None:
        g = self.g
        t = g.tables
        for card in self.named:
            _take_out(g, card)
        for r, listed in market.items():  # listed slots exactly; a displaced card goes on top of its deck
            for slot, placed in enumerate(listed):
                i = r * t.slots + slot
                if g.market[i] >= 0:
                    g.decks[r].append(g.market[i])
                    g.known[r].append(0)
                g.market[i] = -1 if placed is None else placed
        for r in range(len(ROWS)):  # unlisted slots whose card is named elsewhere are dealt again, as a refill would
            for i in range(r * t.slots + len(market.get(r, ())), (r + 1) * t.slots):
                if g.market[i] < 0 and g.decks[r]:
                    g.market[i] = g.decks[r].pop()
                    g.known[r].pop()
        for r, cards in decks.items():  # named deck cards on top, the first listed drawn first
            for card in reversed(cards):
                g.decks[r].append(card)
                g.known[r].append(known.get(card, 0))
        for r in range(len(ROWS)):  # every turn ends with the rows slid towards slot 1 and refilled
            row = g.market[r * t.slots : (r + 1) * t.slots]
            if -1 not in row:
                continue
            hole, where = row.index(-1), f"market.{ROWS[r]}"
            if max(row[hole:]) >= 0:
                raise ScenarioError(f"{where}: slot {hole + 1} is empty but a later slot holds a card; rows slide towards slot 1")
            if g.decks[r]:
                raise ScenarioError(
                    f"{where}: slot {hole + 1} is empty while the {ROWS[r]} deck holds {len(g.decks[r])} cards; "
                    "a slot stays empty only once its deck is empty (name the deck's cards elsewhere)"
                )

    def _player(self, k: int, panorama: tuple) -> None:
        t, ps, where, p = self.t, self.ps[k], f"players[{k}]", self.g.players[k]
        for key in ("silver", "provisions"):
            if key in ps:
                setattr(p, key, _int(ps[key], f"{where}.{key}", 0))
        p.land, p.water, p.above, p.tucked, p.inspired = panorama
        ai = self.g.solo is not None and k == 1
        if "node" in ps:
            p.node = self._node(ps["node"], f"{where}.node")
        for colour, count in _dict(ps.get("guild", {}), f"{where}.guild", "guild colour -> influence").items():
            p.guild[_name(colour, self.guilds, f"{where}.guild", "guild")] = _int(count, f"{where}.guild.{colour}", 0)
        for colour, count in _dict(ps.get("workers", {}), f"{where}.workers", "worker colour -> count in supply").items():
            p.workers[_name(colour, WORKERS, f"{where}.workers", "worker colour")] = _int(count, f"{where}.workers.{colour}", 0)
        if "tiles" in ps:
            self._caravan(p, ps["tiles"], f"{where}.tiles")
        if "dice" in ps or "placed" in ps:
            self._dice(p, ps, where)
        if not ai:  # the AI's counts mirror what it acquired (_solo)
            p.counts = recount(t, p)
            recompute_caravan(t, p)

    def _caravan(self, p: PlayerState, tiles: Any, where: str) -> None:
        t = self.t
        p.tiles, p.cells = [], 0
        for j, entry in enumerate(_list(tiles, where, "[design id, row, column, flipped] entries")):
            w = f"{where}[{j}]"
            entry = _list(entry, w, "design id, row, column and optionally flipped (0/1)")
            if not 3 <= len(entry) <= 4:
                raise ScenarioError(f"{w}: [design id, row, column] or [design id, row, column, flipped], got {entry!r}")
            design = t.content.design_by_id.get(entry[0]) if isinstance(entry[0], str) else None
            if design is None:
                raise ScenarioError(f"{w}: unknown tile design {entry[0]!r}; designs: {', '.join(d.id for d in t.designs)}")
            row, col = _int(entry[1], f"{w} row", 1, t.rows), _int(entry[2], f"{w} column", 1, t.cols)
            faces = len(design.faces)
            flipped = _int(entry[3], f"{w} flipped ({design.id} has {faces} face(s))", 0, faces - 1) if len(entry) > 3 else 0
            mask = footprint(t, design.index, col - 1, row - 1)
            if not mask:
                size = f"{design.width} wide, {design.height} high"
                raise ScenarioError(f"{w}: {design.id} ({size}) at row {row}, column {col} leaves the {t.rows}x{t.cols} caravan")
            if mask & t.blocked:
                raise ScenarioError(f"{w}: {design.id} at row {row}, column {col} covers a printed cell of the caravan")
            if mask & p.cells:
                raise ScenarioError(f"{w}: {design.id} at row {row}, column {col} overlaps a tile listed before it")
            p.tiles.append((design.index, col - 1, row - 1, flipped))
            p.cells |= mask

    def _dice(self, p: PlayerState, ps: dict, where: str) -> None:
        t = self.t
        total = t.content.player["dice"]
        faces = [_int(f, f"{where}.dice", 1, 6) for f in _list(ps.get("dice", []), f"{where}.dice", "die faces 1-6 in supply")]
        placed = _dict(ps.get("placed", {}), f"{where}.placed", "die space id -> face")
        if len(faces) + len(placed) > total:
            raise ScenarioError(f"{where}: {len(faces)} dice in supply and {len(placed)} placed; a player has {total} dice")
        own = set(p.land) | set(p.water) | {t.capital_city, t.capital_harbour}
        p.dice_loc = [RESERVE] * total
        for d, f in enumerate(faces):
            p.dice_face[d], p.dice_loc[d] = f, SUPPLY
        for d, (sid, f) in enumerate(placed.items(), start=len(faces)):
            w = f"{where}.placed[{sid!r}]"
            s = CATALOG.space_index.get(sid) if isinstance(sid, str) else None
            if s is None:
                capital = ", ".join(x for x in CATALOG.space_ids if x.startswith("capital."))
                raise ScenarioError(f"{w}: not a die space; die spaces are the capital's ({capital}) and those printed on Land/Water cards")
            if t.space_card[s] >= 0 and t.space_card[s] not in own:
                raise ScenarioError(f"{w}: {sid} is not in this player's land or water; a die goes only on the player's own die spaces")
            p.dice_face[d], p.dice_loc[d] = _int(f, w, 1, 6), s

    def _boards(self) -> None:
        """Named boards first; a seat without one keeps its dealt board unless a named seat took it."""
        g, count = self.g, len(self.t.content.caravan.boards)
        named: dict[int, int] = {}
        for k, ps in enumerate(self.ps):
            if "board" in ps:
                b = _int(ps["board"], f"players[{k}].board", 1, count) - 1
                fixed = g.config.player_boards
                if fixed != "random" and b != fixed[k] - 1:
                    raise ScenarioError(f"players[{k}].board: {b + 1} contradicts config.player_boards {list(fixed)}; give one of them")
                other = next((j for j, x in named.items() if x == b), None)
                if other is not None:
                    raise ScenarioError(f"players[{k}].board: board {b + 1} is already players[{other}]'s; each seat has its own")
                named[k] = b
        taken = set(named.values())
        spare = [b for b in range(count) if b not in taken and b not in {p.board for j, p in enumerate(g.players) if j not in named}]
        for k, p in enumerate(g.players):
            if k in named:
                p.board = named[k]
            elif p.board in taken:
                p.board = spare.pop(0)

    def _influence(self) -> None:
        g = self.g
        for cid, owner in _dict(self.spec.get("influence_on", {}), "influence_on", "face-up card id -> seat").items():
            w = f"influence_on[{cid!r}]"
            i = self._face_up(cid, w)
            g.market_inf[i] = self._seat(owner, w)
        for k, p in enumerate(g.players):
            ps = self.ps[k]
            # the solo AI's influence is unlimited: a supply it never empties
            total = solo.AI_SUPPLY + 2 if g.solo is not None and k == 1 else self.t.content.player["influence"]
            if "ink" in ps or "hourglass" in ps:
                p.ink = _int(ps.get("ink", 0), f"players[{k}].ink", 0)
                hourglass = ps.get("hourglass", False)
                if not isinstance(hourglass, bool):
                    raise ScenarioError(f"players[{k}].hourglass: True (full side up) or False, got {hourglass!r}")
                p.hourglass = hourglass
            guilds, on_cards = sum(p.guild), g.market_inf.count(k)
            if guilds + p.ink > total:
                ink = f" and {p.ink} on the Ink Well" if p.ink else ""
                raise ScenarioError(f"players[{k}].guild: {guilds} influence in guilds{ink}; a player owns {total}")
            if guilds + on_cards + p.ink > total:
                raise ScenarioError(
                    f"influence_on: seat {k} has {on_cards} on market cards and {guilds} in guilds; a player owns {total} influence"
                )
            supply = total - guilds - on_cards - p.ink
            if "supply" in self.ps[k]:
                given = _int(self.ps[k]["supply"], f"players[{k}].supply", 0)
                if given != supply:
                    raise ScenarioError(
                        f"players[{k}].supply: {given}, but {total} influence - {guilds} in guilds - {on_cards} on market cards "
                        f"leaves {supply} (leave `supply` out and it is computed)"
                    )
            p.supply = supply

    def _overseers(self) -> dict[int, int]:
        """Overseers under players' Markets and dismissed ones (``boxed``), named before the cards move
        so that they leave the decks and the market like every named card."""
        out: dict[int, int] = {}
        for k, ps in enumerate(self.ps):
            if "overseer" in ps:
                w = f"players[{k}].overseer"
                card = self._place(ps["overseer"], w, "townsfolk")
                if not self.t.cards[card].is_overseer:
                    raise ScenarioError(f"{w}: {ps['overseer']} is not an Overseer; only Overseers go under the Market")
                out[k] = card
        for cid in _list(self.spec.get("boxed", []), "boxed", "Overseer card ids"):
            card = self._place(cid, "boxed", "townsfolk")
            if not self.t.cards[card].is_overseer:
                raise ScenarioError(f"boxed: {cid} is not an Overseer; only dismissed Overseers leave the game")
            self.g.boxed.append(card)
        return out

    def _tides(self, overseers: dict[int, int]) -> None:
        """The expansion's pieces: extension sides, traders on Markets, worker tiles in worker
        caravans and the stacks they come from."""
        g = self.g
        tides = self.t.content.tides
        if tides is None:
            return
        if "extension_sides" in self.spec:
            s = self.spec["extension_sides"]
            if not isinstance(s, str) or len(s) != 2 or not set(s) <= {"a", "b"}:
                raise ScenarioError(f"extension_sides: two letters a/b for the two main-board extensions (e.g. 'ab'), got {s!r}")
            fixed = g.config.extension_sides
            if fixed not in ("random", s):
                raise ScenarioError(f"extension_sides: {s!r} contradicts config.extension_sides {fixed!r}; give one of them")
            g.ext_sides = tuple("ab".index(c) for c in s)
        traders = {tr.id: k for k, tr in enumerate(tides.traders)}
        for k, ps in enumerate(self.ps):
            p = g.players[k]
            if k in overseers:
                p.overseer = overseers[k]
            if "trader" in ps:
                w = f"players[{k}].trader"
                j = traders.get(ps["trader"]) if isinstance(ps["trader"], str) else None
                if j is None:
                    raise ScenarioError(f"{w}: unknown trader {ps['trader']!r}; allowed: {', '.join(traders)}")
                if g.traders[j] == 0:
                    raise ScenarioError(f"{w}: no {ps['trader']} tile is left waiting (twins only with 3-4 players)")
                g.traders[j] -= 1
                p.trader = j
        if "worker_stacks" in self.spec:
            self._worker_stacks(tides)
        halves = {h.id: h.index for h in tides.halves}
        for k, ps in enumerate(self.ps):
            p = g.players[k]
            w = f"players[{k}].worker_tiles"
            for colour, pair in _dict(ps.get("worker_tiles", {}), w, "worker colour -> [top half id, bottom half id]").items():
                wc = f"{w}[{colour!r}]"
                if colour not in tides.worker_columns:
                    raise ScenarioError(f"{wc}: the worker caravan's columns are {', '.join(tides.worker_columns)}")
                ids = _list(pair, wc, "[top half id, bottom half id]")
                if len(ids) != 2 or not all(h in halves for h in ids):
                    raise ScenarioError(f"{wc}: [top half id, bottom half id] (worker_tile.topN, worker_tile.bottomN), got {pair!r}")
                top, bottom = (halves[h] for h in ids)
                if (tides.halves[top].half, tides.halves[bottom].half) != ("top", "bottom"):
                    raise ScenarioError(f"{wc}: a top half then a bottom half, got {ids}")
                self._out_of_stacks(top, bottom, wc)
                p.worker_tiles[tides.worker_columns.index(colour)] = (top, bottom)
            if p.overseer >= 0 or "worker_tiles" in ps:
                p.counts = recount(self.t, p)

    def _worker_stacks(self, tides: Any) -> None:
        """``worker_stacks``: per stack pair, its tiles as [top id, bottom id], the face-up one last."""
        g, n_stacks = self.g, tides.stacks
        halves = {h.id: h.index for h in tides.halves}
        spec = _list(self.spec["worker_stacks"], "worker_stacks", f"{n_stacks} lists of [top id, bottom id] tiles, face up last")
        per = 2 if self.n == 1 else self.n
        if len(spec) != n_stacks:
            raise ScenarioError(f"worker_stacks: {n_stacks} stack pairs, got {len(spec)}")
        stacks: list[list[int]] = [[] for _ in range(2 * n_stacks)]
        seen: set[int] = set()
        for i, tiles in enumerate(spec):
            w = f"worker_stacks[{i}]"
            tiles = _list(tiles, w, "[top id, bottom id] tiles, face up last")
            if len(tiles) > per:
                raise ScenarioError(f"{w}: {len(tiles)} tiles; a stack holds {per} with {self.n} players")
            for pair in tiles:
                ids = _list(pair, w, "[top id, bottom id]")
                if len(ids) != 2 or not all(h in halves for h in ids):
                    raise ScenarioError(f"{w}: [top half id, bottom half id] pairs, got {pair!r}")
                top, bottom = (halves[h] for h in ids)
                if (tides.halves[top].half, tides.halves[bottom].half) != ("top", "bottom") or {top, bottom} & seen:
                    raise ScenarioError(f"{w}: a top half then a bottom half, each named once, got {ids}")
                seen |= {top, bottom}
                stacks[i].append(top)
                stacks[i + n_stacks].append(bottom)
        g.worker_stacks = stacks

    def _out_of_stacks(self, top: int, bottom: int, where: str) -> None:
        """A tile in a worker caravan left its stacks: a named half still in a stack swaps with a
        half of the same kind that no stack holds (the game leaves some out with 2-3 players)."""
        g = self.g
        tides = self.t.content.tides
        assert tides is not None
        placed = {h for p in g.players for pair in p.worker_tiles for h in pair if h >= 0}
        for half in (top, bottom):
            if half in placed:
                raise ScenarioError(f"{where}: {tides.halves[half].id} is already in a worker caravan; every half exists once")
            held = next((s for s in g.worker_stacks if half in s), None)
            if held is None:
                continue
            stacked = {h for s in g.worker_stacks for h in s}
            spare = [h.index for h in tides.halves if h.half == tides.halves[half].half and h.index not in stacked | placed | {top, bottom}]
            if not spare:
                raise ScenarioError(f"{where}: {tides.halves[half].id} is in a worker stack; give `worker_stacks` without it")
            held[held.index(half)] = spare[0]

    def _colours(self, value: Any, where: str) -> list[int]:
        """Worker colours as indices; a colour twice or more only in Tides of Trade (a never-blocked
        worker tile's second worker on a card, ToT l.233)."""
        if self.g.config.tides_of_trade:
            return [_name(v, WORKERS, where, "worker colour") for v in _list(value, where, f"worker colours ({', '.join(WORKERS)})")]
        return _names(value, WORKERS, where, "worker colour")

    def _workers(self) -> None:
        g, t, n = self.g, self.t, self.n
        for cid, colours in _dict(self.spec.get("workers_on", {}), "workers_on", "face-up card id -> worker colours").items():
            w = f"workers_on[{cid!r}]"
            i = self._face_up(cid, w)
            takes = t.row_workers[i // t.slots]
            for c in self._colours(colours, w):
                if c not in takes:
                    allowed = f"{' and '.join(WORKERS[x] for x in takes)} workers, not {WORKERS[c]}" if takes else "no workers"
                    raise ScenarioError(f"{w}: the {ROWS[i // t.slots]} row takes {allowed}")
                if g.market_workers[i] >> c & 1:
                    g.market_extra[i] += 1 << (EXTRA_WIDTH * c)
                g.market_workers[i] |= 1 << c
        held = [sum(p.workers[c] for p in g.players) for c in range(len(WORKERS))]
        on_cards = [sum((bits >> c & 1) + extra_on(e, c) for bits, e in zip(g.market_workers, g.market_extra)) for c in range(len(WORKERS))]
        for c in (0, 1):
            if held[c] + on_cards[c] != n:
                raise ScenarioError(
                    f"players[*].workers / workers_on: {held[c]} {WORKERS[c]} worker(s) in supplies + {on_cards[c]} on market cards; "
                    f"a {n}-player game has exactly {n} (1 per player, and they change hands, so any seat may hold them)"
                )
        greens, columns = held[2] + on_cards[2], len(t.green_columns)
        if "green" not in self.spec:  # the green workers in play come off the journal, first columns first
            if greens > columns:
                raise ScenarioError(f"players[*].workers / workers_on: {greens} green workers in play; the game has {columns}")
            g.green = [k >= greens for k in range(columns)]
            return
        flags = _list(self.spec["green"], "green", f"{columns} bools (True: that column's green worker is still on the journal)")
        if len(flags) != columns or not all(isinstance(f, bool) for f in flags):
            raise ScenarioError(f"green: {columns} bools, one per green-worker column {list(t.green_columns)}, got {flags!r}")
        if sum(flags) + greens != columns:
            raise ScenarioError(
                f"green: {sum(flags)} still on the journal + {greens} in play (players' workers and workers_on); "
                f"the game has exactly {columns} green workers"
            )
        g.green = flags

    def _never_blocked(self) -> None:
        """Two workers of a colour on one card need a never-blocked worker tile under that colour (ToT
        l.233), in the caravan of the seat to play where one of them was placed this turn."""
        g = self.g
        for i, extra in enumerate(g.market_extra):
            for c in range(len(WORKERS)):
                if not extra_on(extra, c):
                    continue
                cid, name, now = self.t.cards[g.market[i]].id, WORKERS[c], g.market_placed[i] >> c & 1
                if now and not never_blocked(g, g.players[g.current], c):
                    raise ScenarioError(
                        f"this_turn.workers_placed[{cid!r}]: seat {g.current} placed a {name} worker on a card holding another "
                        f"this turn, so its worker_tiles need a never-blocked half under {name} (worker_tile.top13, top14)"
                    )
                if not any(never_blocked(g, p, c) for p in g.players):
                    raise ScenarioError(
                        f"workers_on[{cid!r}]: {1 + extra_on(extra, c)} {name} workers on one card need a never-blocked worker tile "
                        f"under {name} in some seat's worker_tiles (worker_tile.top13, top14)"
                    )

    def _tiles(self) -> None:
        g, t, n = self.g, self.t, self.n
        box = [1 if d.kind == "special" else n * t.content.copies_per_player for d in t.designs]
        used: Counter[int] = Counter(self.ai_tiles)
        for d, count in used.items():
            if count > box[d]:
                raise ScenarioError(f"solo.tiles: {count} {t.designs[d].id} tiles; a game has {box[d]}")
        for k, p in enumerate(g.players):
            for d, *_ in p.tiles:
                used[d] += 1
                if used[d] > box[d]:
                    raise ScenarioError(
                        f"players[{k}].tiles: {used[d]} {t.designs[d].id} tiles in caravans; a {n}-player game has {box[d]} "
                        "(the supply of that design is exhausted)"
                    )
        g.tile_supply = [box[d] - used[d] for d in range(len(box))]
        for did, left in _dict(self.spec.get("tile_supply", {}), "tile_supply", "tile design id -> tiles left").items():
            w = f"tile_supply[{did!r}]"
            design = t.content.design_by_id.get(did) if isinstance(did, str) else None
            if design is None:
                raise ScenarioError(f"{w}: unknown tile design {did!r}; designs: {', '.join(d.id for d in t.designs)}")
            d = design.index
            if left != g.tile_supply[d] or isinstance(left, bool):
                raise ScenarioError(
                    f"{w}: {left!r} left, but a {n}-player game has {box[d]} and the caravans hold {used[d]}, so {g.tile_supply[d]} "
                    "are left; tiles are never lost, so put the missing copies in players' `tiles`"
                )

    def _journal_tiles(self) -> None:
        g, t = self.g, self.t
        ids = [tid for tid, _effect in t.content.journal_tiles]
        seen: dict[int, str] = {}
        for node_id, tile_id in _dict(self.spec.get("journal_tiles", {}), "journal_tiles", "journal node id -> journal tile id").items():
            w = f"journal_tiles[{node_id!r}]"
            node = self._node(node_id, w)
            if node not in t.tile_nodes:
                raise ScenarioError(f"{w}: {node_id} holds no journal tile; these do: {', '.join(t.nodes[x].id for x in t.tile_nodes)}")
            tile = _name(tile_id, ids, w, "journal tile")
            if tile in seen:
                raise ScenarioError(f"{w}: {tile_id} is already on {seen[tile]}; each journal tile exists once")
            seen[tile] = node_id
            if tile in g.node_tile:  # the tile's old node takes this node's tile: a swap
                g.node_tile[g.node_tile.index(tile)] = g.node_tile[node]
            g.node_tile[node] = tile

    def _turn(self) -> None:
        g, spec, n = self.g, self.spec, self.n
        current = self._seat(spec["current"], "current") if "current" in spec else None
        turn = _int(spec["turn"], "turn", 0, g.config.max_turns - 1) if "turn" in spec else None
        if current is None:
            current = 0 if turn is None else turn % n
        if turn is None:
            turn = current
        if turn % n != current:
            raise ScenarioError(
                f"turn: turn {turn} of a {n}-player game is seat {turn % n}'s (seat 0 plays turn 0, then in order), not seat {current}'s"
            )
        if g.solo is not None and current != 0:
            raise ScenarioError("current: a solo game's positions start on the human's turn (seat 0); the AI's turns run inside the engine")
        g.current, g.turn = current, turn

    def _end(self) -> None:
        g, t, n, spec = self.g, self.t, self.n, self.spec
        finals: dict[int, int] = {}
        for k, p in enumerate(g.players):
            if t.nodes[p.node].final:
                other = next((j for j, x in finals.items() if x == p.node), None)
                if other is not None:
                    node = t.nodes[p.node].id
                    raise ScenarioError(f"players[{k}].node: {node} already holds players[{other}]'s marker; a final space holds one")
                finals[k] = p.node
        if "end_trigger" not in spec:
            if "final_turns" in spec:
                raise ScenarioError("final_turns: given without end_trigger; the countdown starts once a seat reaches a final space")
            if finals:
                k = next(iter(finals))
                raise ScenarioError(
                    f"players[{k}].node: {t.nodes[finals[k]].id} is a final journal space, and reaching one triggers the end: "
                    "give end_trigger (the seat that got to one first)"
                )
            return
        s = self._seat(spec["end_trigger"], "end_trigger")
        if s not in finals:
            ids = ", ".join(t.nodes[x].id for x in t.final_nodes)
            node = t.nodes[g.players[s].node].id
            raise ScenarioError(f"end_trigger: seat {s} is on {node}, not a final journal space ({ids}); set players[{s}].node")
        left = n - (g.current - s - 1) % n  # every seat plays once more after the trigger turn, seat s last
        if "final_turns" in spec and _int(spec["final_turns"], "final_turns", 1, n) != left:
            raise ScenarioError(
                f"final_turns: {spec['final_turns']}, but after seat {s} triggered the end every seat plays one more turn, "
                f"seat {s} last, so with seat {g.current} to play {left} turn(s) are left, this one included"
            )
        g.end_trigger, g.final_turns = s, left

    def _this_turn(self) -> None:
        g, t = self.g, self.t
        tt = _dict(self.spec.get("this_turn", {}), "this_turn", "per-turn keys")
        _keys(tt, THIS_TURN_KEYS, "this_turn")
        for cid, colours in _dict(tt.get("workers_placed", {}), "this_turn.workers_placed", "card id -> worker colours").items():
            w = f"this_turn.workers_placed[{cid!r}]"
            i = self._face_up(cid, w)
            for c in self._colours(colours, w):
                if not g.market_workers[i] >> c & 1:
                    raise ScenarioError(f"{w}: no {WORKERS[c]} worker on {cid}; a worker placed this turn stands on it (see workers_on)")
                if g.market_placed[i] >> c & 1:  # a second one placed this turn
                    if extra_placed(g.market_extra[i], c) >= extra_on(g.market_extra[i], c):
                        on = 1 + extra_on(g.market_extra[i], c)
                        raise ScenarioError(f"{w}: {WORKERS[c]} listed more often than the {on} on the card (workers_on[{cid!r}])")
                    g.market_extra[i] += 1 << (EXTRA_PLACED + EXTRA_WIDTH * c)
                g.market_placed[i] |= 1 << c
        p = g.players[g.current]
        own = {*p.land, *p.water, *p.above.values(), *p.tucked.values(), *p.inspired.values()}
        for cid in _list(tt.get("acquired", []), "this_turn.acquired", "card ids"):
            w = "this_turn.acquired"
            card = _card(t, cid, w)
            if card not in own:
                raise ScenarioError(f"{w}: {cid} is not in the panorama of seat {g.current}; only the seat whose turn it is acquires cards")
            if card in p.acquired:
                raise ScenarioError(f"{w}: {cid} given twice")
            if card in t.space_of_card and t.space_of_card[card] in p.dice_loc:
                raise ScenarioError(f"{w}: {cid} holds a die (players[{g.current}].placed); a card acquired this turn is not used yet")
            p.acquired.append(card)
        for x in _names(tt.get("guild_used", []), self.guilds, "this_turn.guild_used", "guild"):
            g.guild_used[x] = True
        ship = tt.get("ship_hired", g.guild_used[BLUE])
        if not isinstance(ship, bool):
            raise ScenarioError(f"this_turn.ship_hired: True or False, got {ship!r}")
        if g.guild_used[BLUE] and not ship:
            raise ScenarioError("this_turn.ship_hired: False, but guild_used has blue, whose ability hires the ship: give both or neither")
        g.guild_used[BLUE] = g.ship_hired = ship

    # -- the solo AI (num_players=1)
    def _solo_cards(self) -> None:
        """The AI's cards leave the decks and the market like every named card; its tiles are read here
        so that the tile count includes them."""
        if "solo" not in self.spec:
            return
        spec = _dict(self.spec["solo"], "solo", "the solo AI's pieces")
        _keys(spec, SOLO_KEYS, "solo")
        t = self.t
        cards = []
        for cid in _list(spec.get("cards", []), "solo.cards", "card ids the AI acquired"):
            card = _card(t, cid, "solo.cards")
            if t.kind_row[card] < 0:
                raise ScenarioError(f"solo.cards: {cid} is a capital card; the AI acquires cards of the five decks")
            if card in self.named:
                raise ScenarioError(f"solo.cards: {cid} is already placed by {self.named[card]}; every card exists once")
            self.named[card] = "solo.cards"
            cards.append(card)
        self.ai_cards = cards
        for did in _list(spec.get("tiles", []), "solo.tiles", "tile design ids, in the order the AI took them"):
            design = t.content.design_by_id.get(did) if isinstance(did, str) else None
            if design is None:
                raise ScenarioError(f"solo.tiles: unknown tile design {did!r}; designs: {', '.join(d.id for d in t.designs)}")
            self.ai_tiles.append(design.index)

    def _solo(self) -> None:
        g, t = self.g, self.t
        s = g.solo
        if s is None:
            return
        ai = g.players[1]
        spec = self.spec.get("solo", {})
        schemes = [sc.id for sc in t.content.solo.schemes]
        s.track = _int(spec.get("track", 0), "solo.track", 0, len(t.content.solo.track) - 1)
        ai.counts = [0] * len(ai.counts)
        ai.counts[COMET] = _int(spec.get("comet", 0), "solo.comet", 0, solo.COMET_TOP)
        s.bonus_due = _int(spec.get("bonus_due", 0), "solo.bonus_due", 0)
        shown = _names(spec.get("shown", []), tuple(schemes), "solo.shown", "scheme card")
        colours = [t.content.solo.schemes[x].colour for x in shown]
        if (
            colours.count("red") > 3
            or colours.count("blue") > 3
            or (len(shown) > 1 and colours[:-1].count("red") >= 3)
            or (len(shown) > 1 and colours[:-1].count("blue") >= 3)
        ):
            raise ScenarioError("solo.shown: the AI rests once 3 red or 3 blue cards are face up, so no card is revealed after that")
        rest = [x for x in range(len(schemes)) if x not in shown]
        if "draw" in spec:
            draw = _names(spec["draw"], tuple(schemes), "solo.draw", "scheme card")
            if sorted(draw) != rest:
                raise ScenarioError(f"solo.draw: the scheme cards not face up, top first: {', '.join(schemes[x] for x in rest)}")
            rest = draw[::-1]
        else:
            rest = [x for x in s.draw if x not in shown]
        s.shown, s.draw = shown, rest
        s.cards = getattr(self, "ai_cards", [])
        s.tiles, s.cells = list(self.ai_tiles), 0
        for card in s.cards:
            ai.counts[TERM_INDEX[solo.COUNT_TERM[t.cards[card].kind]]] += 1
        for d in s.tiles:
            s.cells |= solo.ai_footprint(s.cells, t.designs[d].width, t.designs[d].height)
            ai.counts[TERM_INDEX["tiles"]] += 1
            ai.counts[TERM_INDEX[f"{t.designs[d].kind}_tiles"]] += 1
