"""Conservation laws and sanity checks that must hold after every action of any game."""

from __future__ import annotations

from collections import Counter

from wayfarers_env import Game
from wayfarers_env.content.measures import TERM_INDEX
from wayfarers_env.rules.caravan import TilePosition, TilePrice
from wayfarers_env.rules.market import DrawKeep, DrawOrder
from wayfarers_env.rules.panorama import PlaceInspiration, PlaceSpaceCard, TuckTownsfolk
from wayfarers_env.rules.scenario import recount
from wayfarers_env.rules.solo import AI, AI_SUPPLY, COMET_TOP, AiTurn
from wayfarers_env.rules.state import extra_on, extra_placed
from wayfarers_env.rules.tables import COMET


def all_cards(game: Game) -> list[int]:
    """Where every card is: decks, market, panoramas and a pending private draw (sorted)."""
    g = game.state
    where: list[int] = [c for c in g.market if c >= 0]
    for deck in g.decks:
        where += deck
    for p in g.players:
        where += p.land
        where += p.water
        where += p.above.values()
        where += p.tucked.values()
        where += p.inspired.values()
        if p.overseer >= 0:  # Tides of Trade: under the Market
            where.append(p.overseer)
    where += g.boxed  # Tides of Trade: dismissed Overseers
    if g.solo is not None:  # the solo AI's cards, face down by its board
        where += g.solo.cards
    for frame in g.stack:
        if isinstance(frame, DrawKeep):
            where += frame.cards
        elif isinstance(frame, DrawOrder):
            where += frame.rest
            where.append(frame.kept)
        elif isinstance(frame, (TuckTownsfolk, PlaceSpaceCard, PlaceInspiration)):  # acquired, waiting for its place
            where.append(frame.card)
    where.sort()
    return where


_EXPECTED: dict[int, list[int]] = {}
_MASKS: dict[int, dict] = {}
_VERIFIED: dict[tuple[int, int], tuple] = {}
_CARDS_SEEN: dict[int, tuple] = {}  # per game state: the card places last verified
_TILES_SEEN: dict[int, tuple] = {}  # per game state: the tile supply and caravans last verified


def _card_places(g) -> tuple:
    """Everything that changes when a card moves: the market, deck sizes, panorama sizes, the stack.
    While it stands still no card can have moved, so the census is not redone."""
    return (
        tuple(g.market),
        tuple(map(len, g.decks)),
        tuple((len(p.land), len(p.water), len(p.above), len(p.tucked), len(p.inspired), p.overseer) for p in g.players),
        len(g.boxed),
        tuple(g.stack[-3:]),
        len(g.stack),
    )


def check(game: Game) -> None:
    g = game.state
    t = g.tables
    n = g.n
    expected = _EXPECTED.get(id(t))
    if expected is None:
        expected = _EXPECTED[id(t)] = sorted(i for deck in t.content.decks.values() for i in deck)
    places = _card_places(g)
    seen = _CARDS_SEEN.get(id(g))
    if seen is None or seen[0] is not g or seen[1] != places:
        assert all_cards(game) == expected, "cards were lost or duplicated"
        if len(_CARDS_SEEN) > 64:
            _CARDS_SEEN.clear()
        _CARDS_SEEN[id(g)] = (g, places)
    masks = _MASKS.get(id(t))
    if masks is None:
        masks = _MASKS[id(t)] = {(d, x, y): m for d, anchors in enumerate(t.design_masks) for x, y, m in anchors}
    total = t.content.player["influence"]
    n_spaces = len(t.space_card)
    # influence: 15 per player across supply, guilds and cards
    for k, p in enumerate(g.players):
        if g.solo is not None and k == AI:
            check_ai(game)
            continue
        on_cards = g.market_inf.count(k)
        assert p.supply + sum(p.guild) + on_cards + p.ink == total, f"player {k} influence {p.supply}+{p.guild}+{on_cards}+{p.ink}"
        assert p.supply >= 0 and min(p.guild) >= 0
        assert p.silver >= 0 and p.provisions >= 0, f"player {k} negative resources"
        assert min(p.workers) >= 0
        # five dice; placed dice on distinct owned spaces
        locs = p.dice_loc
        assert len(locs) == t.dice and min(locs) >= -2 and max(locs) < n_spaces
        placed = [loc for loc in locs if loc >= 0]
        if placed:
            assert len(placed) == len(set(placed)), "two dice on one space"
            owned = {0, 1, *t.centre_spaces} | {t.space_of_card[c] for c in p.land + p.water if c in t.space_of_card}
            assert owned.issuperset(placed), "a die on a space the player does not own"
        assert min(p.dice_face) >= 1 and max(p.dice_face) <= 6
        # counts are rebuilt from scratch whenever the panorama or the counts themselves change;
        # the panorama's structure and the caravan only then too
        sig = (len(p.land), len(p.water), len(p.above), len(p.tucked), len(p.inspired), len(p.tiles), tuple(p.counts), p.cells)
        if _VERIFIED.get((id(p), k)) != sig:
            assert p.counts == recount(t, p), f"player {k} counts drifted"
            assert set(p.above) <= set(p.land) | set(p.water)
            assert set(p.inspired) <= set(p.above.values()) | {t.capital_star}
            assert set(p.tucked) <= set(p.land) | set(p.water) | {t.capital_city, t.capital_harbour}
            covered = 0
            for d, x, y, _f in p.tiles:
                mask = masks[(d, x, y)]
                assert not mask & covered and not mask & t.blocked, "overlapping tiles"
                covered |= mask
            assert covered == p.cells
            _VERIFIED[(id(p), k)] = sig
    # workers: n yellow, n blue, 4 green
    totals = [0, 0, 0]
    for p in g.players:
        totals[0] += p.workers[0]
        totals[1] += p.workers[1]
        totals[2] += p.workers[2]
    for i, bits in enumerate(g.market_workers):
        if bits:
            assert g.market[i] >= 0, "a worker on an empty slot"
            totals[0] += bits & 1
            totals[1] += bits >> 1 & 1
            totals[2] += bits >> 2 & 1
        assert not g.market_placed[i] & ~bits, "a worker placed this turn is not on the card"
        extra = g.market_extra[i]
        if extra:  # Tides of Trade's never-blocked tiles: second workers of a colour, each over a first one
            assert g.config.tides_of_trade, "a second worker of a colour on a card in a base game"
            for c in range(3):
                on, now = extra_on(extra, c), extra_placed(extra, c)
                assert not on or bits >> c & 1, "an extra worker on a card without a first one"
                assert now <= on and (not now or g.market_placed[i] >> c & 1), "more extras placed this turn than on the card"
                totals[c] += on
    totals[2] += sum(g.green)
    assert totals == [n, n, 4], f"workers {totals}"
    # tiles: supply + owned = the box for this player count (recounted when the supply or a caravan moved)
    pending = tuple(f.design for f in g.stack if isinstance(f, (TilePrice, TilePosition)))  # bought, not yet placed
    tile_sig = (tuple(g.tile_supply), tuple(len(p.tiles) for p in g.players), pending, len(g.solo.tiles) if g.solo else 0)
    if _TILES_SEEN.get(id(g)) != (g, tile_sig):
        owned_tiles = Counter(d for p in g.players for d, *_ in p.tiles)
        owned_tiles.update(pending)
        owned_tiles.update(g.solo.tiles if g.solo is not None else ())
        for d, design in enumerate(t.designs):
            start = 1 if design.kind == "special" else n * t.content.copies_per_player
            assert g.tile_supply[d] + owned_tiles[d] == start, f"tile {design.id} not conserved"
        if len(_TILES_SEEN) > 64:
            _TILES_SEEN.clear()
        _TILES_SEEN[id(g)] = (g, tile_sig)
    # journal: at most one marker per final space
    finals = [p.node for p in g.players if t.nodes[p.node].final]
    assert len(finals) == len(set(finals))
    if not g.over:
        assert game.legal_actions(), "a live game without a legal action"


def check_ai(game: Game) -> None:
    """The solo AI's pieces: its unlimited influence still counted (supply + guilds + cards stay what it
    started with), no dice, no money, its counts mirroring what it acquired, its comet track capped,
    its scheme cards all present, and its turn never left waiting without a human decision on top."""
    g = game.state
    t = g.tables
    ai, solo = g.players[AI], g.solo
    assert ai.supply + sum(ai.guild) + g.market_inf.count(AI) == AI_SUPPLY + 2, "AI influence"
    assert ai.supply >= 0 and min(ai.guild) >= 0 and min(ai.workers) >= 0
    assert ai.dice_loc == [] and ai.silver == 0 and ai.provisions == 0 and ai.acquired == []
    assert sorted(solo.draw + solo.shown) == list(range(len(t.content.solo.schemes)))
    assert 0 <= ai.counts[COMET] <= COMET_TOP and 0 <= solo.track < 8
    kinds = Counter(t.cards[c].kind for c in solo.cards)
    for kind, term in (("land", "land_cards"), ("water", "water_cards"), ("space", "space_cards")):
        assert ai.counts[TERM_INDEX[term]] == kinds[kind], f"AI {term}"
    assert ai.counts[TERM_INDEX["tiles"]] == len(solo.tiles)
    cells = sum(t.designs[d].width * t.designs[d].height for d in solo.tiles) + 2 * len(solo.worker_tiles)
    assert bin(solo.cells).count("1") <= cells, "AI caravan cells not covered by its tiles"
    if g.stack and not g.over:
        assert not isinstance(g.stack[-1], AiTurn), "the AI's turn is settled by the engine, never asked"
        assert g.current == 0, "in a solo game only the human decides"
