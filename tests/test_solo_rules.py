"""The solo AI's rules (base rulebook "Solo Mode", l.740-905; RULES-FACTS §15): setup, scheme cards,
every priority rule with its fallbacks, the AI boards, the human's let-or-deny decision, scoring.

Positions are set on a real game's state and the AI's steps run through the engine (``ai_do``),
exactly as its turn runs them."""

from __future__ import annotations

import pytest

from wayfarers_env import Game, GameConfig
from wayfarers_env.rules import solo
from wayfarers_env.rules import solo_priority as prio
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.config import ConfigError
from wayfarers_env.rules.engine import settle
from wayfarers_env.rules.scoring import comet_majority, scores
from wayfarers_env.rules.solo import AI, HUMAN, AiTurn, AiWants
from wayfarers_env.rules.tables import COMET
from wayfarers_env.rules.turn import TURN
from wayfarers_env.vocabulary import GUILD_INDEX, ROW_INDEX, WORKER_INDEX

BLACK, YELLOW, BLUE = GUILD_INDEX["black"], GUILD_INDEX["yellow"], GUILD_INDEX["blue"]
GREEN_W, YELLOW_W, BLUE_W = WORKER_INDEX["green"], WORKER_INDEX["yellow"], WORKER_INDEX["blue"]
TOWNSFOLK, LAND, WATER, SPACE, INSPIRATION = (ROW_INDEX[k] for k in ("townsfolk", "land", "water", "space", "inspiration"))


def solo_game(board: int = 1, seed: int = 0, tides: bool = False) -> Game:
    return Game(GameConfig(num_players=1, solo_ai_board=board, tides_of_trade=tides), seed=seed)


def scheme(game: Game, number: int) -> int:
    """The scheme-card index of scheme.N."""
    return next(k for k, s in enumerate(game.state.tables.content.solo.schemes) if s.id == f"scheme.{number}")


def show(game: Game, *numbers: int) -> None:
    """Lay these scheme cards face up, in this order (the last one most recent)."""
    s = game.state.solo
    shown = [scheme(game, n) for n in numbers]
    s.draw = [x for x in s.draw + s.shown if x not in shown]
    s.shown = shown


def ai_do(game: Game, *steps: tuple) -> None:
    """Run AI steps through the engine as its turn would (a turn frame below, so nothing ends)."""
    g = game.state
    g.current = AI
    g.stack = [TURN, AiTurn(tuple(steps))]
    settle(g)
    game._legal = None


def slot(row: int, s: int) -> int:
    return row * 4 + s


# ------------------------------------------------------------------ config and setup


def test_a_solo_game_needs_an_ai_board_and_only_a_solo_game_takes_one():
    with pytest.raises(ConfigError, match="solo_ai_board 1-4"):
        GameConfig(num_players=1)
    with pytest.raises(ConfigError, match="solo_ai_board 1-4"):
        GameConfig(num_players=1, solo_ai_board=5)
    with pytest.raises(ConfigError, match="for solo games only"):
        GameConfig(num_players=2, solo_ai_board=1)
    with pytest.raises(ConfigError, match="turned over as the AI's board"):
        GameConfig(num_players=1, solo_ai_board=2, player_boards=(2,))
    assert GameConfig(num_players=1, solo_ai_board=3).seats == 2


@pytest.mark.parametrize("board", [1, 2, 3, 4])
def test_setup_seats_the_ai_second_without_dice_or_money(board):
    """Solo "Setup": no dice; 1 Yellow and 1 Blue worker; 1 Yellow and 1 Blue influence, no Silver or
    Provisions; markers on the track's start and comet 0; the shuffled scheme deck; the AI is 2nd."""
    game = solo_game(board, seed=board)
    g = game.state
    ai = g.players[AI]
    assert g.n == 2 and game.current_player == HUMAN
    assert ai.dice_loc == [] and ai.silver == 0 and ai.provisions == 0
    assert ai.guild == [0, 1, 1, 0] and ai.workers[YELLOW_W] == 1 and ai.workers[BLUE_W] == 1 and ai.workers[GREEN_W] == 0
    assert g.solo.track == 0 and ai.counts[COMET] == 0 and g.solo.shown == []
    assert sorted(g.solo.draw) == list(range(6))
    assert g.solo.board == board - 1
    assert g.players[HUMAN].board != board - 1  # the AI's board is a player board turned over


def test_tides_of_trade_solo_setup():
    """ToT "Solo Play": the new scheme card joins the deck, 2 worker tiles per stack, 1 of each trader,
    and no player-board extension for the AI."""
    g = solo_game(2, tides=True).state
    assert sorted(g.solo.draw) == list(range(7))
    assert all(len(s) == 2 for s in g.worker_stacks)
    assert all(x == 1 for x in g.traders)
    assert g.players[AI].worker_tiles == [] and g.players[HUMAN].worker_tiles != []


# ------------------------------------------------------------------ scheme cards and the track


def test_reveal_moves_the_marker_by_the_silver_value_then_the_first_action():
    """ "Move their Marker clockwise ... equal to the Scheme Card's Silver Value", then the First Action:
    scheme.1 (2 silver) places a green worker; with none it takes the Focus action (Stargazer: Space card)."""
    game = solo_game(1)
    g = game.state
    g.solo.draw.remove(scheme(game, 1))
    g.solo.draw.append(scheme(game, 1))
    before = len(g.solo.cards)
    ai_do(game, ("reveal",))
    assert g.solo.track == 2 and g.solo.shown == [scheme(game, 1)]
    assert len(g.solo.cards) == before + 1 and g.tables.cards[g.solo.cards[-1]].kind == "space"  # no green worker: Focus
    g.players[AI].workers[GREEN_W] = 1
    g.solo.draw.remove(scheme(game, 1)) if scheme(game, 1) in g.solo.draw else None
    g.solo.shown = []
    g.solo.draw.append(scheme(game, 1))
    ai_do(game, ("reveal",))
    assert g.players[AI].workers[GREEN_W] == 0  # now the first action: a green worker on a Townsfolk card
    assert any(g.market_workers[slot(TOWNSFOLK, s)] >> GREEN_W & 1 for s in range(4))


def test_the_first_action_needs_the_influence_to_spend_else_the_second():
    """scheme.4: "spend 2 Blue -> Water card", else "Blue influence + upgrade tile". Never both."""
    game = solo_game(1)
    g = game.state
    ai = g.players[AI]
    ai.guild[BLUE] = 1
    g.solo.cells = (1 << 21) - 1  # a full caravan: the tile goes beside the board, no cell pays out
    show(game, 4)
    ai_do(game, ("act", scheme(game, 4)))
    assert ai.guild[BLUE] == 2 and len(g.solo.tiles) == 1 and g.solo.cards == []
    ai_do(game, ("act", scheme(game, 4)))
    assert ai.guild[BLUE] == 0 and len(g.solo.tiles) == 1 and [g.tables.cards[c].kind for c in g.solo.cards] == ["water"]


@pytest.mark.parametrize(("board", "check"), [(1, "comet"), (2, "yellow"), (3, "townsfolk"), (4, "black")])
def test_the_track_bonus_between_spaces_4_and_5(board, check):
    """Each AI board's bonus is gained when the marker moves from space 4 to 5, never otherwise."""
    game = solo_game(board)
    g = game.state
    ai = g.players[AI]
    g.solo.track = 3
    before = (ai.counts[COMET], ai.guild[YELLOW], len(g.solo.cards), ai.guild[BLACK])
    ai_do(game, ("track", 1))
    assert (ai.counts[COMET], ai.guild[YELLOW], len(g.solo.cards), ai.guild[BLACK]) == before
    ai_do(game, ("track", 2))
    assert g.solo.track == 6
    after = {"comet": ai.counts[COMET] - before[0], "yellow": ai.guild[YELLOW] - before[1]}
    after |= {"townsfolk": len(g.solo.cards) - before[2], "black": ai.guild[BLACK] - before[3]}
    assert after[check] == 1 and sum(after.values()) == 1


def test_rest_after_three_red_or_three_blue_face_up_cards():
    """ "If, at the start of their turn, the AI has either 3 faceup Red ... or 3 faceup Blue ... they will
    Rest." The rest: the last card's comet, the board's acquisition, journal, then all cards shuffled back."""
    game = solo_game(3)
    g = game.state
    show(game, 1, 4, 2, 3)  # three blue, the last (scheme.3) shows a comet
    node = g.players[AI].node
    ai_do(game, ("start",))
    assert g.solo.shown == [] and sorted(g.solo.draw) == list(range(6))
    assert g.players[AI].counts[COMET] == 1
    assert g.tables.cards[g.solo.cards[0]].kind == "townsfolk"  # the Mayor rests for a Townsfolk card (then journals)
    assert g.players[AI].node != node
    show(game, 4, 1, 5)  # two blue at most, two red: a reveal
    ai_do(game, ("start",))
    assert len(g.solo.shown) == 4


def test_sum_value_of_the_two_most_recent_cards():
    """ "The sum value of the 2 most recently revealed Scheme Cards (or of the only faceup Card)": the
    rulebook's example shows 2; a sum of 0 counts as 1 (RULES-FACTS §15.5)."""
    game = solo_game()
    show(game, 1)
    assert prio.sum_value(game.state) == 2
    show(game, 5, 1, 4)
    assert prio.sum_value(game.state) == 3
    show(game, 2, 3)
    assert prio.sum_value(game.state) == 1
    show(game, 5, 1)
    assert prio.sum_value(game.state) == 4


def test_centre_out_order_moves_outward_for_1_and_2_inward_for_3_and_4():
    """The arrows of the reference: 1 -> 1,2,3,4; 2 -> 2,3,4,1; 3 -> 3,2,1,4; 4 -> 4,3,2,1; with three
    piles a sum of 4 aims at the missing 4th and moves inward (rulebook)."""
    assert prio.centre_out(1, 4) == [1, 2, 3, 4]
    assert prio.centre_out(2, 4) == [2, 3, 4, 1]
    assert prio.centre_out(3, 4) == [3, 2, 1, 4]
    assert prio.centre_out(4, 4) == [4, 3, 2, 1]
    assert prio.centre_out(4, 3) == [3, 2, 1]
    assert prio.centre_out(2, 3) == [2, 3, 1]


def test_colour_priority_from_the_track_and_its_clockwise_fallback():
    game = solo_game()
    g = game.state
    for space, first in [(0, "black"), (3, "blue"), (4, "blue"), (5, "yellow"), (7, "green")]:
        g.solo.track = space
        assert prio.colours(g)[0] == first
    g.solo.track = 5
    assert prio.colours(g) == ("yellow", "green", "black", "blue")


# ------------------------------------------------------------------ influence on cards (the rulebook's example)


def test_rulebook_example_influence_on_the_second_water_card_else_the_third():
    """ "the AI is prioritising Blue, with a sum value of 2 ... they would place 1 Influence ... onto the 2nd
    Water Card from the left. If there was already an Influence there, or if that Card space were empty, they
    would instead place their Influence on the Card in the 3rd space.\""""
    game = solo_game()
    g = game.state
    g.solo.track = 3  # blue first
    show(game, 2, 1)  # 0 + 2
    ai_do(game, ("card_influence",))
    assert g.market_inf[slot(WATER, 1)] == AI and g.players[AI].supply == solo.AI_SUPPLY - 1
    ai_do(game, ("card_influence",))
    assert g.market_inf[slot(WATER, 2)] == AI
    g.market[slot(WATER, 3)] = -1
    ai_do(game, ("card_influence",))
    assert g.market_inf[slot(WATER, 0)] == AI  # 4th empty: wrapped to the 1st
    ai_do(game, ("card_influence",))
    assert g.market_inf[slot(LAND, 1)] == AI  # every Water card has influence: the next colour, yellow


# ------------------------------------------------------------------ cards


def test_card_acquisition_by_sum_value_ignores_icons_and_collects_workers():
    """The AI takes the card at its sum value's position, collects workers on it and returns influence,
    and ignores its icons (no tags, no comets for the AI)."""
    game = solo_game()
    g = game.state
    show(game, 4, 2)  # sum 1: the centre-most card
    i = slot(LAND, 0)
    card = g.market[i]
    g.market_workers[i] = 1 << BLUE_W
    g.market_inf[i] = AI
    supply = g.players[AI].supply
    ai_do(game, ("card", LAND))
    assert g.solo.cards == [card] and g.market[i] == -1
    assert g.players[AI].workers[BLUE_W] == 2 and g.players[AI].supply == supply + 1
    assert g.players[AI].counts[COMET] == 0


def test_inspiration_priority_by_track_row_counted_from_the_top():
    """ "The Inspiration Card they want to acquire is the 2nd Card from the bottom" for the example's
    marker; the top row's spaces aim at the 2nd from the top, the bottom row's at the bottom card; the
    next lowest is tried when that one cannot be taken, wrapping up to the highest."""
    game = solo_game()
    g = game.state
    g.solo.track = 0
    assert prio.inspiration_order(g) == [2, 1, 0, 3]  # index 3 is the top card
    g.solo.track = 3
    assert prio.inspiration_order(g)[0] == 1  # 3rd from the top = 2nd from the bottom
    g.solo.track = 5
    assert prio.inspiration_order(g)[0] == 0
    g.market[slot(INSPIRATION, 0)] = -1
    card = g.market[slot(INSPIRATION, 3)]
    ai_do(game, ("card", INSPIRATION))
    assert g.solo.cards == [card]  # bottom empty: wrapped up to the highest


def test_land_and_water_slot_four_give_the_top_card_of_the_deck():
    """The AI's worker on Land or Water slot 4 ('pay 3 Provisions: draw 3') takes the deck's top card,
    free: it draws from the top, nothing else."""
    game = solo_game()
    g = game.state
    top = g.decks[LAND][-1]
    ai_do(game, ("top_card", LAND))
    assert g.solo.cards == [top] and top not in g.decks[LAND]


# ------------------------------------------------------------------ workers


def test_worker_placement_green_first_on_townsfolk_skipping_a_card_with_that_colour():
    """ "When given the option of 2 Workers, they will prioritize placing a Green Worker"; green goes on
    Townsfolk only, by the sum value, skipping cards that already hold a green worker; all the slot's
    actions resolve (Townsfolk slot 2: Blue, Yellow and Black influence)."""
    game = solo_game()
    g = game.state
    ai = g.players[AI]
    ai.workers[GREEN_W] = 1
    show(game, 2, 1)  # sum 2: slot index 1
    g.market_workers[slot(TOWNSFOLK, 1)] = 0
    before = ai.guild[:]
    ai_do(game, ("act", scheme(game, 2)))
    assert g.market_workers[slot(TOWNSFOLK, 1)] >> GREEN_W & 1
    assert [a - b for a, b in zip(ai.guild, before)] == [1, 1, 1, 0]
    ai.workers[GREEN_W] = 1
    ai_do(game, ("act", scheme(game, 2)))  # slot 2 taken by green: the next, slot 3 (a green tile)
    assert g.market_workers[slot(TOWNSFOLK, 2)] >> GREEN_W & 1 and [g.tables.designs[d].kind for d in g.solo.tiles] == ["basic"]


def test_a_worker_with_no_card_to_go_on_makes_the_first_action_impossible():
    """scheme.3 "green, else yellow worker": no yellow-free Land card and no green worker: second action
    (an upgrade tile). RULES-FACTS §16.B4: BGA would do nothing; the rulebook's order falls through."""
    game = solo_game()
    g = game.state
    for s in range(4):
        g.market_workers[slot(LAND, s)] |= 1 << YELLOW_W
    ai_do(game, ("act", scheme(game, 3)))
    assert g.players[AI].workers[YELLOW_W] == 1 and len(g.solo.tiles) == 1


def test_retrieval_takes_green_first_then_the_colour_priority():
    game = solo_game()
    g = game.state
    g.solo.track = 5  # yellow before blue
    g.market_workers[slot(WATER, 0)] = 1 << BLUE_W
    g.market_workers[slot(LAND, 3)] = 1 << YELLOW_W
    g.market_workers[slot(TOWNSFOLK, 2)] = 1 << GREEN_W
    ai = g.players[AI]
    ai_do(game, ("retrieve",))
    assert ai.workers[GREEN_W] == 1 and g.market_workers[slot(TOWNSFOLK, 2)] == 0
    ai_do(game, ("retrieve",))
    assert ai.workers[YELLOW_W] == 2 and g.market_workers[slot(LAND, 3)] == 0
    g.market_placed[slot(WATER, 0)] = 1 << BLUE_W  # placed this turn: never retrieved
    ai_do(game, ("retrieve",))
    assert ai.workers[BLUE_W] == 1 and g.market_workers[slot(WATER, 0)] == 1 << BLUE_W


# ------------------------------------------------------------------ tiles and the caravan


def test_rulebook_caravan_example_a_wide_tile_stands_at_the_end_of_the_bottom_row():
    """RULES-FACTS §15.8's example of the winding path: with cells 15-20 full, a 2x1 tile goes vertical at
    14 and covers 14 and 21 (cells numbered 1-21 from the top-left)."""
    full = sum(1 << (c - 1) for c in range(15, 21))
    mask = solo.ai_footprint(full, 2, 1)
    assert mask == (1 << 13) | (1 << 20)
    assert solo.ai_footprint(0, 2, 1) == (1 << 14) | (1 << 15)  # an empty board: the bottom-left corner, lying
    assert solo.ai_footprint(0, 1, 2) == (1 << 14) | (1 << 15)  # a standing tile is laid along the row too
    assert solo.ai_footprint((1 << 21) - 1, 1, 1) == 0  # full: beside the board


def test_tiles_by_colour_priority_and_pile_and_covered_cells_pay_out():
    """An upgrade tile of the first colour with tiles left, from the pile the sum value names; the
    Stargazer's bottom-left cell shows a Water card, gained when covered."""
    game = solo_game(1)
    g = game.state
    g.solo.track = 0  # black first: Space tiles
    show(game, 5, 1)  # sum 4: three Space piles, aim at the missing 4th, move inward: pile 3
    ai_do(game, ("tile", "any"))
    d = g.solo.tiles[0]
    assert g.tables.designs[d].kind == "space" and g.tables.designs[d].pile == 3
    assert g.solo.cells == (1 << 14) | (1 << 15)
    assert [g.tables.cards[c].kind for c in g.solo.cards] == ["water"]  # cell (3, 1) of the Stargazer
    for design in g.tables.designs_of_kind[2]:
        g.tile_supply[design] = 0
    ai_do(game, ("tile", "any"))  # no Space tiles left: the next colour, blue (Water tiles)
    assert g.tables.designs[g.solo.tiles[1]].kind == "water"


def test_special_tile_from_the_scheme_reference_clockwise():
    """ "When acquiring a Special (Pink) Upgrade Tile, the AI prioritises using the reference at the bottom
    of their most recently revealed Scheme Card. If that Upgrade Tile has already been acquired, they
    instead acquire the next available Tile in clockwise order.\""""
    game = solo_game(1)
    g = game.state
    show(game, 3)  # reference 10 (two comets)
    ai_do(game, ("tile", "special"))
    assert g.tables.designs[g.solo.tiles[-1]].solo_order == 10
    ai_do(game, ("tile", "special"))
    assert g.tables.designs[g.solo.tiles[-1]].solo_order == 1  # 10 taken: clockwise wraps to 1


# ------------------------------------------------------------------ journal


def test_journal_path_by_scheme_colour_majority_and_the_extra_step_cost():
    """More Blue face-up cards: the higher path; more Red: the lower; a tie follows the most recent
    card. The extra step costs 1 Black behind the human's column, 2 level, 3 ahead."""
    game = solo_game()
    g = game.state
    nodes = g.tables.nodes
    ai = g.players[AI]
    g.node_tile = [-1] * len(g.node_tile)  # no journal tiles and a full caravan: the steps give no Black
    g.solo.cells = (1 << 21) - 1
    show(game, 1, 2, 4)
    ai_do(game, ("journal",))
    assert nodes[ai.node].id == "journal.1.1" and ai.guild[BLACK] == 0
    ai.node = nodes.index(next(n for n in nodes if n.id == "journal.0.1"))
    show(game, 4, 5, 1)
    ai_do(game, ("journal",))
    assert nodes[ai.node].id == "journal.1.2"
    ai.node = 0
    show(game, 4, 1)  # tie: the most recent (blue) wins
    ai_do(game, ("journal",))
    assert nodes[ai.node].id == "journal.1.1"
    # the extra step: level with the human (column 1 vs 1) costs 2 Black, counted before the first step
    ai.node = 0
    g.players[HUMAN].node = ai.node
    ai.guild[BLACK] = 2
    ai_do(game, ("journal",))
    assert nodes[ai.node].column == 2 and ai.guild[BLACK] == 0
    ai.guild[BLACK] = 2  # ahead of the human (column 2 vs 0): 3 needed
    before = ai.node
    ai_do(game, ("journal",))
    assert ai.node in nodes[before].next and ai.guild[BLACK] == 2
    ai.guild[BLACK] = 1  # behind the human: 1 is enough
    g.players[HUMAN].node = len(nodes) - 1
    before = ai.node
    ai_do(game, ("journal",))
    assert ai.node not in nodes[before].next and ai.guild[BLACK] == 0


def test_final_column_never_the_middle_and_the_other_end_when_blocked():
    """ "When moving into the last column ... the AI will never take the middle option. If you blocked the
    space they would have moved into, they instead move into the other available space"; the final space
    gives a Special tile, not an Inspiration card."""
    game = solo_game()
    g = game.state
    nodes = g.tables.nodes
    by_id = {n.id: n.index for n in nodes}
    ai = g.players[AI]
    g.solo.cells = (1 << 21) - 1  # a full caravan: the Special tile pays no cell
    show(game, 1, 2)  # blue: the upper end
    ai.node = by_id["journal.9.1"]
    ai_do(game, ("journal",))
    assert ai.node == by_id["journal.10.1"] and g.end_trigger == AI
    assert [g.tables.designs[d].kind for d in g.solo.tiles] == ["special"] and g.solo.cards == []
    ai.node = by_id["journal.9.1"]
    g.players[HUMAN].node = by_id["journal.10.1"]
    ai_do(game, ("journal",))
    assert ai.node == by_id["journal.10.3"]  # upper end taken: the other end, never 10.2


def test_upper_and_lower_compare_heights_not_row_numbers():
    """From journal.6.1 the exits are 7.1 and 8.1: 8.1 sits higher (top of a three-node column)."""
    game = solo_game()
    g = game.state
    by_id = {n.id: n.index for n in g.tables.nodes}
    show(game, 1)
    assert prio.journal_target(g, [by_id["journal.7.1"], by_id["journal.8.1"]]) == by_id["journal.8.1"]
    show(game, 4)
    assert prio.journal_target(g, [by_id["journal.7.1"], by_id["journal.8.1"]]) == by_id["journal.7.1"]


# ------------------------------------------------------------------ the human's influence


def human_influence_on(game: Game, i: int) -> None:
    g = game.state
    g.market_inf[i] = HUMAN
    g.players[HUMAN].supply -= 1


def test_the_human_lets_the_ai_take_an_influenced_card_and_takes_1_silver():
    """ "Let them interact. You may then choose to take 1 Provision, or 1 Silver"; the influence returns."""
    game = solo_game()
    g = game.state
    show(game, 4, 2)  # sum 1
    i = slot(LAND, 0)
    human_influence_on(game, i)
    card, silver, supply = g.market[i], g.players[HUMAN].silver, g.players[HUMAN].supply
    ai_do(game, ("card", LAND))
    assert game.decision()[0] == "ai_wants" and game.current_player == HUMAN
    assert set(game.legal_actions()) == set(CATALOG.SOLO)
    game.apply(CATALOG.SOLO[0])
    assert g.solo.cards == [card] and g.players[HUMAN].silver == silver + 1 and g.players[HUMAN].supply == supply + 1


def test_denying_pushes_the_ai_to_its_next_choice_in_the_row_but_never_out_of_it():
    """ "Deny them. You may pay 1 Provision or 1 Silver to have them move to the next Card ... you cannot
    fully deny them a certain Card type": with every Land card influenced, the last one must be let."""
    game = solo_game()
    g = game.state
    show(game, 4, 2)
    for s in range(4):
        human_influence_on(game, slot(LAND, s))
    g.players[HUMAN].silver = 5
    ai_do(game, ("card", LAND))
    for _ in range(3):
        game.apply(CATALOG.SOLO[2])
        assert type(g.stack[-1]) is AiWants
    assert CATALOG.SOLO[2] not in game.legal_actions() and CATALOG.SOLO[3] not in game.legal_actions()
    card = g.market[slot(LAND, 3)]
    game.apply(CATALOG.SOLO[1])
    assert g.solo.cards == [card] and g.players[HUMAN].silver == 2


def test_a_fee_paid_to_the_ai_moves_its_marker_and_a_crossed_bonus_waits_for_its_turn():
    """ "If the AI has an Influence on a Card that you want to interact with, you still need to pay them.
    Doing so will move their Marker 1 space around their Resource Track." The 4-5 bonus waits for the
    AI's turn (RULES-FACTS §16.C1, BGA's timing)."""
    game = solo_game(4)
    g = game.state
    g.solo.track = 4
    black = g.players[AI].guild[BLACK]
    solo.pay_ai(g)
    assert g.solo.track == 5 and g.solo.bonus_due == 1 and g.players[AI].guild[BLACK] == black
    show(game, 1)
    ai_do(game, ("start",))
    assert g.solo.bonus_due == 0 and g.players[AI].guild[BLACK] >= black + 1


# ------------------------------------------------------------------ boards, substitutions, scoring


@pytest.mark.parametrize(("board", "kind"), [(1, "space"), (2, "tile"), (3, "townsfolk"), (4, "journal")])
def test_each_board_focus(board, kind):
    game = solo_game(board)
    g = game.state
    show(game, 1)
    node = g.players[AI].node
    ai_do(game, ("focus",))
    got = {"space": [g.tables.cards[c].kind for c in g.solo.cards] == ["space"], "tile": len(g.solo.tiles) == 1}
    got |= {"townsfolk": [g.tables.cards[c].kind for c in g.solo.cards] == ["townsfolk"], "journal": g.players[AI].node != node}
    assert got[kind]


def test_icon_substitutions_of_the_ai_boards():
    """The top strip: a new die is an upgrade tile, a refresh a worker retrieval, a +-1 an influence on a
    card, Silver and Provisions one track step each."""
    from wayfarers_env.content.effects import parse

    assert solo.ai_steps(parse("!new_die")) == [("tile", "any")]
    assert solo.ai_steps(parse("refresh_die")) == [("retrieve",)]
    assert solo.ai_steps(parse("adjust_die")) == [("card_influence",)]
    assert solo.ai_steps(parse("2 silver, provisions")) == [("track", 2), ("track", 1)]
    assert solo.ai_steps(parse("3 provisions -> draw_three(water)")) == [("top_card", WATER)]  # costs ignored
    assert solo.ai_steps(parse("tile(special) / inspiration")) == [("tile", "special")]


def test_ai_scoring_and_its_comets_in_the_comet_majority():
    """1 VP per Townsfolk, 2 per Water/Land, 3 per Space, 4 per Inspiration card, tiles as printed,
    guild majorities; its comet track only decides the human's comet majority."""
    game = solo_game()
    g = game.state
    t = g.tables
    by_kind = {k: next(iter(t.content.decks[k])) for k in ("townsfolk", "land", "space", "inspiration")}
    g.solo.cards = list(by_kind.values())
    g.solo.tiles = [next(d.index for d in t.designs if d.vp == 3)]
    g.players[AI].guild = [2, 1, 1, 0]
    g.players[HUMAN].guild = [0, 1, 2, 0]
    ai = scores(g)[AI]
    assert ai["ai_cards"] == 1 + 2 + 3 + 4 and ai["caravan"] == 3 and ai["guilds"] == 3
    assert ai["total"] == 16
    g.players[AI].counts[COMET] = g.players[HUMAN].counts[COMET] + 1
    assert comet_majority(g)[HUMAN] == 0
    g.players[AI].counts[COMET] = 0
    assert comet_majority(g)[HUMAN] == (g.players[HUMAN].counts[COMET] > 0)


def test_tides_scheme_card_reveals_another():
    """ToT "New Scheme Card": with 2 Red, spend it for an Inspiration card, else a worker tile and 3 Red;
    either way another scheme card is revealed at once."""
    game = solo_game(1, tides=True)
    g = game.state
    seven = scheme(game, 7)
    g.solo.draw.remove(seven)
    g.solo.draw.append(seven)
    ai_do(game, ("reveal",))
    red = GUILD_INDEX["red"]
    assert len(g.solo.shown) == 2 and g.solo.shown[0] == seven
    assert g.players[AI].guild[red] == 3 and len(g.solo.worker_tiles) == 1
    g.solo.shown = []
    g.solo.draw = [x for x in range(7) if x != seven] + [seven]
    ai_do(game, ("reveal",))
    assert g.players[AI].guild[red] == 1 and "inspiration" in [g.tables.cards[c].kind for c in g.solo.cards]


# ------------------------------------------------------------------ hidden information


def test_the_ai_reads_only_the_public_table_and_the_tops_of_decks():
    """The AI "draws from the top" and otherwise looks only at the face-up table: reordering every deck
    below its top cards changes nothing it does (40 AI turns from varied positions)."""
    import random

    for seed in range(40):
        game = solo_game(1 + seed % 4, seed=seed, tides=seed % 3 == 0)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 120)):  # some human play first
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over:
            continue
        twin = game.clone()
        for deck in twin.state.decks:
            below = deck[:-3]
            random.Random(seed).shuffle(below)
            deck[:-3] = below
        for g in (game, twin):
            g.state.rng = random.Random(seed)
            ai_do(g, ("start",))
        a, b = game.state, twin.state
        assert solo.snapshot(a) == solo.snapshot(b) and a.solo.cards == b.solo.cards and a.market == b.market


def test_determinize_reshuffles_the_scheme_draw_pile_but_not_the_face_up_cards():
    game = solo_game(2, seed=3)
    show(game, 4, 1)
    orders = {tuple(game.determinize(0, k).state.solo.draw) for k in range(20)}
    assert len(orders) > 1
    assert all(game.determinize(0, k).state.solo.shown == game.state.solo.shown for k in range(5))
    assert all(sorted(o) == sorted(game.state.solo.draw) for o in orders)


def test_tides_worker_tile_priority_and_caravan():
    """ToT "Solo Play": "The AI will use the same priority rules as for when they acquire Basic (green)
    Upgrade Tiles. For example, a sum of 4 would target the left-most stack ... They place their Upgrade
    Tiles on their Caravan as they would any other Upgrade Tile" (a column of two halves: 1x2)."""
    game = solo_game(1, tides=True)
    g = game.state
    show(game, 5, 1)  # sum 4
    left_top, left_bottom = g.worker_stacks[0][-1], g.worker_stacks[4][-1]
    ai_do(game, ("tile", "worker"))
    assert g.solo.worker_tiles == [(left_top, left_bottom)]
    assert g.solo.cells == (1 << 14) | (1 << 15)  # laid along the bottom row from the left
    show(game, 4, 2)  # sum 1: the right-most stack
    right_top = g.worker_stacks[3][-1]
    ai_do(game, ("tile", "worker"))
    assert g.solo.worker_tiles[-1][0] == right_top


def test_tides_solo_traders_wait_below_the_extensions_until_two_are_there():
    """ToT "Solo Play": "whenever you would return a Trader Tile, place it below the Main Board
    Extensions. This Tile is no longer available. Once there are 2 Trader Tiles below the Main Board
    Extensions, immediately return all those below to their matching spaces.\""""
    from wayfarers_env.rules.traders import send_back

    game = solo_game(1, tides=True)
    g = game.state
    g.traders[0] -= 1  # two traders employed, now coming back
    g.traders[2] -= 1
    send_back(g, 0)
    assert g.solo.traders_below == [0] and g.traders[0] == 0
    send_back(g, 2)
    assert g.solo.traders_below == [] and g.traders[0] == 1 and g.traders[2] == 1


@pytest.mark.parametrize(("board", "kind"), [(1, "space"), (2, "tile"), (3, "townsfolk"), (4, "influence")])
def test_each_board_rest_acquisition(board, kind):
    """The blue banner's second step: the Stargazer a Space card, the Inventor an upgrade tile, the Mayor
    a Townsfolk card, the Wayfarer an influence on a card (RULES-FACTS §15.1's table)."""
    game = solo_game(board)
    g = game.state
    g.node_tile = [-1] * len(g.node_tile)  # the journal step after it gives nothing of these kinds
    g.solo.cells = (1 << 21) - 1
    show(game, 1, 2, 3)  # three blue: a rest; scheme.3 shows a comet
    before = g.market_inf.count(solo.AI)
    ai_do(game, ("start",))
    first = g.solo.cards[0] if g.solo.cards else None
    got = {
        "space": first is not None and g.tables.cards[first].kind == "space",
        "tile": bool(g.solo.tiles),
        "townsfolk": first is not None and g.tables.cards[first].kind == "townsfolk",
        "influence": g.market_inf.count(solo.AI) == before + 1,
    }
    assert got[kind]
    assert g.players[AI].counts[COMET] == 1 and g.solo.shown == []


@pytest.mark.parametrize(("number", "guild", "kind", "second"), [(5, BLACK, "space", "townsfolk"), (6, YELLOW, "land", None)])
def test_red_schemes_spend_two_for_a_card_else_their_second_action(number, guild, kind, second):
    """scheme.5: "spend 2 Black -> Space card", else Black influence + Townsfolk card; scheme.6: "spend 2
    Yellow -> Land card", else 2 Yellow influence + an influence on a card (RULES-FACTS §15.1)."""
    game = solo_game(1)
    g = game.state
    ai = g.players[AI]
    g.solo.cells = (1 << 21) - 1
    show(game, number)
    ai.guild[guild] = 2
    ai_do(game, ("act", scheme(game, number)))
    assert ai.guild[guild] == 0 and [g.tables.cards[c].kind for c in g.solo.cards] == [kind]
    on_cards = g.market_inf.count(AI)
    ai_do(game, ("act", scheme(game, number)))
    if second is None:
        assert ai.guild[guild] == 2 and g.market_inf.count(AI) == on_cards + 1
    else:
        assert ai.guild[guild] == 1 and g.tables.cards[g.solo.cards[-1]].kind == second
