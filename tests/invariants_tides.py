"""Tides of Trade's conservation laws, checked after every action of an expansion game (besides
tests/invariants.py, which covers influence with the Ink Well, cards with Overseers, workers and
tiles): every trader tile and worker-tile half exists once, the stacks stay aligned, per-turn
flags are sane."""

from __future__ import annotations

from wayfarers_env import Game
from wayfarers_env.rules.traders import TraderArrives
from wayfarers_env.rules.worker_tiles import WorkerColumn
from wayfarers_env.vocabulary import RED


def check_tides(game: Game) -> None:
    g = game.state
    tides = g.tables.content.tides
    assert tides is not None
    n_stacks = tides.stacks
    # traders: waiting + on Markets + arriving = the tiles for this player count
    for k, tr in enumerate(tides.traders):
        on_markets = sum(p.trader == k for p in g.players)
        arriving = sum(type(f) is TraderArrives and f.trader == k for f in g.stack)
        below = g.solo.traders_below.count(k) if g.solo is not None else 0  # a solo game's: out of play for now
        assert g.traders[k] + on_markets + arriving + below == (tr.copies if g.n >= 3 else 1), f"trader {tr.id} not conserved"
    # worker-tile halves: each at most once across stacks, caravans and a tile being placed;
    # the taken ones are as many as the stacks lost
    halves: list[int] = [h for s in g.worker_stacks for h in s]
    placed = 0
    for k, p in enumerate(g.players):
        if g.solo is not None and k == 1:  # the solo AI has no worker caravan: its pairs lie beside its board
            assert p.worker_tiles == []
            for top, bottom in g.solo.worker_tiles:
                halves += [top, bottom]
                placed += 1
            continue
        assert len(p.worker_tiles) == len(tides.worker_columns)
        for top, bottom in p.worker_tiles:
            assert (top < 0) == (bottom < 0)
            if top >= 0:
                halves += [top, bottom]
                placed += 1
    for f in g.stack:
        if type(f) is WorkerColumn:
            halves += [f.top, f.bottom]
            placed += 1
    assert len(halves) == len(set(halves)), "a worker-tile half in two places"
    per = 2 if g.n == 1 else g.n
    assert sum(map(len, g.worker_stacks)) + 2 * placed == 2 * n_stacks * per, "worker tiles not conserved"
    for i in range(n_stacks):
        assert len(g.worker_stacks[i]) == len(g.worker_stacks[i + n_stacks]), "top and bottom stacks out of line"
    # Overseers: under a Market at most one each, dismissed ones in the box
    assert all(g.tables.cards[c].is_overseer for c in g.boxed)
    assert all(p.overseer < 0 or g.tables.cards[p.overseer].is_overseer for p in g.players)
    for p in g.players:
        assert p.ink >= 0 and p.guild[RED] >= 0
    if g.config.card_influence == "cards":
        assert all(p.ink == 0 for p in g.players), "the Ink Well is used under the original rules"
