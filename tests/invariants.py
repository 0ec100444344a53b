"""Conservation laws and sanity checks that must hold after every action of any game."""

from __future__ import annotations

from collections import Counter

from wayfarers_env import Game
from wayfarers_env.frames import DRAW_KEEP, DRAW_ORDER, INSPIRE, SPACE_PLACE, TILE_PAY, TILE_PLACE, TUCK
from wayfarers_env.scenario import recount


def all_cards(game: Game) -> Counter:
    """Where every card is: decks, market, panoramas and a pending private draw."""
    g = game.state
    where: Counter = Counter()
    for deck in g.decks:
        where.update(deck)
    where.update(c for c in g.market if c >= 0)
    for p in g.players:
        where.update(p.land)
        where.update(p.water)
        where.update(p.above.values())
        where.update(p.tucked.values())
        where.update(p.inspired.values())
    for frame in g.stack:
        if frame[0] == DRAW_KEEP:
            where.update(frame[2])
        elif frame[0] == DRAW_ORDER:
            where.update(frame[2])
            where[frame[3]] += 1
        elif frame[0] in (TUCK, SPACE_PLACE, INSPIRE):  # acquired, waiting for its place
            where[frame[1]] += 1
    return where


def check(game: Game) -> None:
    g = game.state
    t = g.tables
    n = g.n
    expected_cards = Counter(i for deck in t.content.decks.values() for i in deck)
    assert all_cards(game) == expected_cards, "cards were lost or duplicated"
    # influence: 15 per player across supply, guilds and cards
    for k, p in enumerate(g.players):
        on_cards = sum(1 for owner in g.market_inf if owner == k)
        assert p.supply + sum(p.guild) + on_cards == 15, f"player {k} influence {p.supply}+{p.guild}+{on_cards}"
        assert p.supply >= 0 and min(p.guild) >= 0
        assert p.silver >= 0 and p.provisions >= 0, f"player {k} negative resources"
        assert min(p.workers) >= 0
        # five dice; placed dice on distinct owned spaces
        assert len(p.dice_loc) == 5 and all(-2 <= loc < 42 for loc in p.dice_loc)
        placed = [loc for loc in p.dice_loc if loc >= 0]
        assert len(placed) == len(set(placed)), "two dice on one space"
        owned = {0, 1, *t.centre_spaces} | {t.space_of_card[c] for c in p.land + p.water if c in t.space_of_card}
        assert set(placed) <= owned, "a die on a space the player does not own"
        assert all(1 <= f <= 6 for f in p.dice_face)
        assert p.counts == recount(t, p), f"player {k} counts drifted"
        # panorama structure
        assert set(p.above) <= set(p.land) | set(p.water)
        assert set(p.inspired) <= set(p.above.values()) | {t.capital_star}
        assert set(p.tucked) <= set(p.land) | set(p.water) | {t.capital_city, t.capital_harbour}
        covered = 0
        for d, x, y, _f in p.tiles:
            mask = next(m for ax, ay, m in t.design_masks[d] if (ax, ay) == (x, y))
            assert not mask & covered and not mask & t.blocked, "overlapping tiles"
            covered |= mask
        assert covered == p.cells
    # workers: n yellow, n blue, 4 green
    totals = [sum(p.workers[c] for p in g.players) for c in range(3)]
    for i in range(20):
        for c in range(3):
            if g.market_workers[i] >> c & 1:
                totals[c] += 1
                assert g.market[i] >= 0, "a worker on an empty slot"
    totals[2] += sum(g.green)
    assert totals == [n, n, 4], f"workers {totals}"
    # tiles: supply + owned = the box for this player count
    owned = Counter(d for p in g.players for d, *_ in p.tiles)
    for d, design in enumerate(t.designs):
        start = 1 if design.kind == "special" else n * t.content.copies_per_player
        pending = sum(1 for f in g.stack if f[0] in (TILE_PAY, TILE_PLACE) and f[1] == d)  # bought, not yet placed
        assert g.tile_supply[d] + owned[d] + pending == start, f"tile {design.id} not conserved"
    # journal: at most one marker per final space
    finals = [p.node for p in g.players if t.nodes[p.node].final]
    assert len(finals) == len(set(finals))
    if not g.over:
        assert game.legal_actions(), "a live game without a legal action"
