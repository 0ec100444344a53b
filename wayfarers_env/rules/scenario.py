"""Build a specific position from readable ids, for tests, examples and bug reports.

``build_scenario(spec)`` starts from a normally set-up game (``config`` and ``seed``) and then
moves the named cards, tiles, dice and tokens where the spec says. Cards named anywhere are
taken out of the decks and market first, so every card still exists exactly once. See
docs/ARCHITECTURE.md ("Scenarios") for the format.
"""

from __future__ import annotations

from typing import Any

from wayfarers_env.content.measures import TAGS
from wayfarers_env.rules.engine import Game, settle
from wayfarers_env.rules.state import RESERVE, SUPPLY, GameConfig, GameState, PlayerState, new_state, recompute_caravan
from wayfarers_env.rules.tables import (
    T_INSPIRATION,
    T_LAND_CARDS,
    T_SPACE_CARDS,
    T_TILE_KIND,
    T_TILES,
    T_TOWNSFOLK,
    T_WATER_CARDS,
    Tables,
)
from wayfarers_env.rules.turn import TURN

ROWS = ("townsfolk", "land", "water", "space", "inspiration")
GUILDS = ("black", "yellow", "blue")
WORKERS = ("yellow", "blue", "green")
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
}
TOP_KEYS = {"config", "seed", "current", "players", "market", "influence_on", "workers_on", "journal_tiles", "green", "sides"}


class ScenarioError(ValueError):
    """A scenario spec naming something that does not exist or cannot be placed."""


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


def _card(t: Tables, cid: str, where: str) -> int:
    card = t.content.by_id.get(cid)
    if card is None:
        raise ScenarioError(f"{where}: unknown card id {cid!r}")
    return card.index


def _take_out(g: GameState, card: int) -> None:
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


def build_scenario(spec: dict[str, Any]) -> Game:
    if not isinstance(spec, dict):
        raise ScenarioError("a scenario is a dict")
    unknown = set(spec) - TOP_KEYS
    if unknown:
        raise ScenarioError(f"unknown scenario key(s) {sorted(unknown)}; allowed: {sorted(TOP_KEYS)}")
    config = spec.get("config", {})
    config = config if isinstance(config, GameConfig) else GameConfig.from_dict(config)
    g = new_state(config, int(spec.get("seed", 0)))
    t = g.tables
    if "sides" in spec:
        g.sides = tuple("ab".index(s) for s in spec["sides"])
    players = spec.get("players", [])
    if len(players) > g.n:
        raise ScenarioError(f"{len(players)} player specs for a {g.n}-player game")
    # 1. take every named card out of the decks and market
    named = []
    for k, ps in enumerate(players):
        for key in ("land", "water"):
            named += [_card(t, c, f"players[{k}].{key}") for c in ps.get(key, [])]
        for key in ("above", "tucked", "inspired"):
            named += [_card(t, c, f"players[{k}].{key}") for c in ps.get(key, {}).values()]
    for row, cards in spec.get("market", {}).items():
        if row not in ROWS:
            raise ScenarioError(f"market: unknown row {row!r}; rows: {', '.join(ROWS)}")
        named += [_card(t, c, f"market.{row}") for c in cards if c is not None]
    for card in named:
        _take_out(g, card)
    # 2. market rows: listed slots exactly, displaced cards back on their deck
    for row, cards in spec.get("market", {}).items():
        r = ROWS.index(row)
        if len(cards) > 4:
            raise ScenarioError(f"market.{row}: at most 4 slots")
        for slot in range(4):
            i = r * 4 + slot
            old = g.market[i]
            if old >= 0 and slot < len(cards):
                g.decks[r].append(old)
                g.known[r].append(0)
            if slot < len(cards):
                g.market[i] = _card(t, cards[slot], f"market.{row}") if cards[slot] is not None else -1
                g.market_inf[i] = -1
                g.market_workers[i] = 0
    for cid, owner in spec.get("influence_on", {}).items():
        i = _market_slot(g, t, cid)
        g.market_inf[i] = owner
        g.players[owner].supply -= 1
    for cid, colours in spec.get("workers_on", {}).items():
        i = _market_slot(g, t, cid)
        for colour in colours:
            g.market_workers[i] |= 1 << WORKERS.index(colour)
    # 3. players
    for k, ps in enumerate(players):
        _player(g, t, g.players[k], ps, f"players[{k}]")
    for node_id, tile_id in spec.get("journal_tiles", {}).items():
        node = t.content.node_by_id[node_id].index
        tile = [tid for tid, _e in t.content.journal_tiles].index(tile_id)
        if tile in g.node_tile:
            g.node_tile[g.node_tile.index(tile)] = g.node_tile[node]
        g.node_tile[node] = tile
    if "green" in spec:
        g.green = list(spec["green"])
    g.current = int(spec.get("current", 0))
    g.stack = [TURN]
    settle(g)
    game = Game.__new__(Game)
    game.state = g
    game._legal = None
    return game


def _market_slot(g: GameState, t: Tables, cid: str) -> int:
    card = _card(t, cid, "market reference")
    if card not in g.market:
        raise ScenarioError(f"{cid} is not face up in the market")
    return g.market.index(card)


def _player(g: GameState, t: Tables, p: PlayerState, ps: dict[str, Any], where: str) -> None:
    unknown = set(ps) - PLAYER_KEYS
    if unknown:
        raise ScenarioError(f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(PLAYER_KEYS)}")
    for key in ("silver", "provisions"):
        if key in ps:
            setattr(p, key, int(ps[key]))
    if "guild" in ps:
        for guild, n in ps["guild"].items():
            delta = n - p.guild[GUILDS.index(guild)]
            p.guild[GUILDS.index(guild)] = n
            p.supply -= delta
    if "supply" in ps:
        p.supply = int(ps["supply"])
    if "workers" in ps:
        p.workers = [int(ps["workers"].get(w, 0)) for w in WORKERS]
    if "board" in ps:
        p.board = int(ps["board"]) - 1
    p.land = [_card(t, c, f"{where}.land") for c in ps.get("land", [])]
    p.water = [_card(t, c, f"{where}.water") for c in ps.get("water", [])]
    p.above = {_card(t, h, f"{where}.above"): _card(t, c, f"{where}.above") for h, c in ps.get("above", {}).items()}
    p.tucked = {_card(t, h, f"{where}.tucked"): _card(t, c, f"{where}.tucked") for h, c in ps.get("tucked", {}).items()}
    p.inspired = {_card(t, h, f"{where}.inspired"): _card(t, c, f"{where}.inspired") for h, c in ps.get("inspired", {}).items()}
    if "tiles" in ps:
        from wayfarers_env.rules.caravan import footprint

        p.tiles, p.cells = [], 0
        for entry in ps["tiles"]:
            design_id, row, col = entry[0], entry[1], entry[2]
            flipped = int(entry[3]) if len(entry) > 3 else 0
            d = t.content.design_by_id[design_id].index
            x, y = col - 1, row - 1
            mask = footprint(t, d, x, y)
            if not mask or mask & (p.cells | t.blocked):
                raise ScenarioError(f"{where}.tiles: {design_id} does not fit at row {row}, column {col}")
            p.tiles.append((d, x, y, flipped))
            p.cells |= mask
            if g.tile_supply[d] > 0:
                g.tile_supply[d] -= 1
    if "dice" in ps or "placed" in ps:
        faces = list(ps.get("dice", []))
        placed = ps.get("placed", {})
        if len(faces) + len(placed) > 5:
            raise ScenarioError(f"{where}: at most 5 dice")
        p.dice_loc = [RESERVE] * 5
        d = 0
        for f in faces:
            p.dice_face[d], p.dice_loc[d] = int(f), SUPPLY
            d += 1
        from wayfarers_env.rules.actions import CATALOG

        for space_id, f in placed.items():
            p.dice_face[d], p.dice_loc[d] = int(f), CATALOG.space_index[space_id]
            d += 1
    if "node" in ps:
        p.node = t.content.node_by_id[ps["node"]].index
    p.counts = recount(t, p)
    recompute_caravan(t, p)
