"""A stalled game ends: past ``STALL_TURNS`` turns a player the bots head for the journal's end.

Rulebook, "END OF THE GAME": the end is triggered only when a player reaches one of the final
journal spaces. Once the decks run dry a seat whose next splotches ask for what it can no
longer get does not move, and a trailing seat that could end the game would not (ending loses): in one of 1,000
cartographer mirror games the scores froze at turn 300 and the game ran to the 2,000-turn limit.
``tests/positions/stalled_mirror_turn300.json`` is that game's position at turn 300 (seed 8000's
run of `wayfarers simulate --players cartographer,cartographer --games 1000`, game 360), saved
with ``Game.to_dict``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_bots_sharper import HEURISTICS, _one_step_from_the_end, _play_out_the_effect

from agents.base import choose
from agents.evaluation import NEUTRAL, STALL_TURNS, evaluate, link_passable, stalled
from agents.registry import make_bot
from wayfarers_env import Game

STALLED = Path(__file__).parent / "positions" / "stalled_mirror_turn300.json"


def _stalled_game() -> Game:
    return Game.from_dict(json.loads(STALLED.read_text()))


def _can_cross(game: Game, seat: int) -> bool:
    """Some splotch ahead of the seat's marker can be crossed now (rulebook: Journaling)."""
    g = game.state
    p = g.players[seat]
    return any(link_passable(g, p, p.node, dst) for dst in g.tables.nodes[p.node].next)


def test_the_saved_position_is_the_stall():
    """Seat 0 leads and cannot move (its splotches ask for a planet, and the Space decks are
    empty, or a second land tile, which it did not take in the 1,700 turns that followed); seat 1
    trails and could move."""
    game = _stalled_game()
    g = game.state
    assert g.turn == 300 and not g.over and g.end_trigger == -1
    assert [s["total"] for s in game.scores()] == [299, 231]
    assert not _can_cross(game, 0)
    assert _can_cross(game, 1)
    assert stalled(g)


@pytest.mark.parametrize("name", ["cartographer", "ismcts:sims=20"])
def test_the_bots_end_the_stalled_game_by_the_journal(name):
    """Before the rule two cartographers played on to turn 2,000 without a point scored; the
    search, whose rollouts are scored by the same evaluation, ends it too."""
    game = _stalled_game()
    g = game.state
    bots, rng = [make_bot(name), make_bot(name)], random.Random(0)
    while not g.over and g.turn < 340:
        game.apply(choose(bots[g.current], game, rng))
    assert g.over and not game.ended_by_turn_limit
    assert g.end_trigger == 1  # the trailing seat triggered the end
    assert game.winners() == [0]
    totals = [s["total"] for s in game.scores()]
    assert evaluate(game, 0) == pytest.approx(totals[0] - totals[1] + NEUTRAL.win_bonus)  # a finished game: its result alone
    assert evaluate(game, 1) == pytest.approx(totals[1] - totals[0])


@pytest.mark.parametrize("name", HEURISTICS)
def test_a_bot_behind_ends_a_stalled_game(name):
    """The position of ``test_a_bot_well_behind_does_not_end_the_game`` (3 VP against 15, one
    journal step from a final space), at turn 2 x STALL_TURNS of a 2-player game: the step is
    taken; one turn earlier it is not."""
    turn = 2 * STALL_TURNS
    late = _one_step_from_the_end(0, 6, turn=turn)
    assert stalled(late.state)
    _play_out_the_effect(name, late)
    assert late.state.end_trigger == 0
    earlier = _one_step_from_the_end(0, 6, turn=turn - 2)
    assert not stalled(earlier.state)
    _play_out_the_effect(name, earlier)
    assert earlier.state.end_trigger < 0


def test_the_push_is_per_column_and_only_once_stalled():
    """``stall_push`` VP per journal column reached, added only from STALL_TURNS turns a player."""
    earlier, late = (_one_step_from_the_end(0, 6, turn=t) for t in (2 * STALL_TURNS - 2, 2 * STALL_TURNS))
    before, after = evaluate(earlier, 0, NEUTRAL, h=0.5), evaluate(late, 0, NEUTRAL, h=0.5)
    g = late.state
    column = g.tables.nodes[g.players[0].node].column
    assert column == 9
    assert after - before == pytest.approx(NEUTRAL.stall_push * column)
