"""The short-circuit legality checks agree with the full lists they stand for.

The engine asks "can this effect part be resolved?" thousands of times a game, so it uses
stop-at-the-first-hit forms (``can_journal``, ``can_retrieve``, ``can_gain_tile``, ...) and
checks the cheapest parts first. These tests play random games and, at every decision, compare
each shortcut with the full enumeration (or a plain restatement of the rule), so a faster form
can never change which actions are legal.
"""

from __future__ import annotations

import random

import pytest

from wayfarers_env import Game, GameConfig
from wayfarers_env.rules import bag, caravan, dice, influence, journal, panorama, workers
from wayfarers_env.rules.dice import DieSpace


def _journal_oracle(g, black_reserved: int) -> list[int]:
    """Rulebook p.7, restated: a link is open if its final node is free of other markers, its
    requirement holds and its influence cost can be paid (one black kept for a guild move)."""
    t = g.tables
    p = g.players[g.current]
    out = []
    for dst in t.nodes[p.node].next:
        if t.nodes[dst].final and any(q.node == dst for k, q in enumerate(g.players) if k != g.current):
            continue
        link = t.link[(p.node, dst)]
        side = g.sides[link.section - 1]
        req = link.requires[side]
        if req is not None and not req(p.terms()):
            continue
        cost = link.cost[side]
        if cost is not None:
            _s, _p, guilds = bag.cost_need(cost)
            guilds[0] += black_reserved
            if any(p.guild[k] < guilds[k] for k in range(3)):
                continue
        out.append(dst)
    return out


def _games(players: int, options: tuple[str, ...], seeds: range):
    config = GameConfig(num_players=players, content_options=frozenset(options))
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(config, seed=seed)
        while not game.is_over:
            yield game
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])


def _poor(game: Game) -> Game:
    """A copy where the deciding player has no silver, provisions or influence in supply: the
    branches where fees, prices and tokens run out, which random play seldom reaches."""
    other = game.clone()
    p = other.state.players[other.state.current]
    p.silver = p.provisions = p.supply = 0
    return other


def _check_shortcuts(g) -> None:
    seat = g.current
    # journal (rulebook p.7): the cached exits give the same moves as the rule
    for reserved in (0, 1):
        assert journal.moves(g, reserved) == _journal_oracle(g, reserved)
    assert journal.can_journal(g) == bool(journal.moves(g))
    # retrieving a worker (rulebook p.16): some worker not placed this turn, fee payable
    assert workers.can_retrieve(g) == bool(workers.retrievable(g))
    # card influence (rulebook p.9): a free card and a token to put on it
    p = g.players[seat]
    token = p.supply > 0 or any(p.guild) or seat in g.market_inf
    assert influence.can_place_card(g, seat) == (bool(influence.free_cards(g)) and token)
    # space cards (rulebook p.10) go above a land or water card that has none yet
    assert panorama.has_space_host(p) == bool(panorama.open_space_hosts(g, p))
    # upgrade tiles (rulebook pp.12-13): some design affordable, in supply and fitting
    for kind in range(5):
        for free in (False, True):
            for discount in (0, 2):
                assert caravan.can_gain_tile(g, kind, free, discount) == bool(caravan.buyable_designs(g, kind, free, discount))


@pytest.mark.parametrize("players,options", [(2, ()), (3, ("tides_inspiration",)), (4, ())])
def test_shortcuts_match_full_lists(players, options):
    decisions = 0
    for game in _games(players, options, range(4)):
        _check_shortcuts(game.state)
        if decisions % 7 == 0:
            _check_shortcuts(_poor(game).state)
        decisions += 1
    assert decisions > 1000


@pytest.mark.parametrize("players", [2, 4])
def test_die_space_check_matches_its_leaves(players):
    """Rulebook p.14: a die may go only where some part of the action resolves. The short-circuit
    check (cheapest parts first) agrees with the full set of resolvable parts, space by space."""
    checked = 0
    for game in _games(players, (), range(4)):
        g = game.state
        top = g.stack[-1]
        if not isinstance(top, DieSpace):
            continue
        p = g.players[g.current]
        for s in dice.owned_spaces(g, p):
            items, ctx = dice.die_action(g, p, s, p.dice_face[top.die])
            assert bag.items_resolvable(g, items, ctx) == bool(bag.leaves(g, items, ctx))
            checked += 1
    assert checked > 500
