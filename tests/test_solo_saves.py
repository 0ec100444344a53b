"""Solo games (``GameConfig(num_players=1, solo_ai_board=1..4)``) save and load exactly, and a
broken solo save is refused by the name of the field that is wrong (rules/saves.py, save_check.py,
save_consistency.py).

One seeded game per AI board, with and without Tides of Trade, is recorded position by position
through JSON. The human's policy denies the AI when it can (most of the time), so the records hold
the let-or-deny decision with and without earlier denials, besides rests, owed track bonuses and the
AI's worker tiles. Every recorded save loads back to itself, and the action played there gives the
next recorded save.
"""

from __future__ import annotations

import copy
import json
import random
import re
from functools import cache

import pytest
from invariants import check

from wayfarers_env import Game, GameConfig
from wayfarers_env.content.measures import TERM_INDEX
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import BY_KIND
from wayfarers_env.rules.save_check import MAX_BONUS_DUE, SOLO_FIELDS, SaveError
from wayfarers_env.rules.solo import AI_SUPPLY, COMET_TOP, SoloState
from wayfarers_env.rules.solo import candidates as ai_candidates
from wayfarers_env.rules.tables import tables_for

KIND = {rule.name: rule.kind for rule in BY_KIND}
AI_TURN, AI_WANTS, TURN = KIND["ai_turn"], KIND["ai_wants"], KIND["turn"]
PASSIVE = {CATALOG.DONE, CATALOG.SKIP, CATALOG.REST}
DENY = set(CATALOG.SOLO[2:])  # deny the AI, paying 1 Silver or 1 Provision
# per (AI board, Tides of Trade): a seed whose game, with _policy, holds what test_records_cover_the_solo_game checks
SEEDS = {(1, False): 10, (1, True): 4, (2, False): 2, (2, True): 9, (3, False): 11, (3, True): 4, (4, False): 1, (4, True): 4}
CONFIGS = sorted(SEEDS)


def _policy(rng: random.Random, legal: list[int]) -> int:
    deny = [a for a in legal if a in DENY]
    if deny and rng.random() < 0.7:
        return rng.choice(deny)
    active = [a for a in legal if a not in PASSIVE]
    return rng.choice(active if active and rng.random() < 0.9 else legal)


@cache
def record(board: int, tides: bool) -> tuple[tuple[dict, int | None], ...]:
    """Every position of one seeded solo game, saved through JSON, with the action played there
    (None at the end)."""
    seed = SEEDS[(board, tides)]
    g = Game(GameConfig(num_players=1, solo_ai_board=board, tides_of_trade=tides), seed=seed)
    rng = random.Random(seed)
    out = []
    while not g.is_over:
        action = _policy(rng, g.legal_actions())
        out.append((json.loads(json.dumps(g.to_dict())), action))
        g.apply(action)
    out.append((json.loads(json.dumps(g.to_dict())), None))
    return tuple(out)


def saves():
    for config in CONFIGS:
        for d, _a in record(*config):
            yield d


def top_kind(d: dict) -> int:
    return d["stack"][-1][0] if d["stack"] else -1


def a_save(pred) -> dict:
    return copy.deepcopy(next(d for d in saves() if pred(d)))


def wants(d: dict) -> bool:
    return top_kind(d) == AI_WANTS


def load_error(d: dict) -> str:
    with pytest.raises(SaveError) as info:
        Game.from_dict(d)
    return str(info.value)


# ---------------------------------------------------------------- exact round trips


@pytest.mark.parametrize("board, tides", CONFIGS)
def test_every_position_loads_back_identically_and_plays_on_identically(board, tides):
    rec = record(board, tides)
    for (d, action), (after, _next) in zip(rec, rec[1:]):
        game = Game.from_dict(d)
        assert game.to_dict() == d
        game.apply(action)
        assert game.to_dict() == after
    end = Game.from_dict(rec[-1][0])
    assert end.is_over and end.to_dict() == rec[-1][0]


def test_records_cover_the_solo_game():
    """The records hold what a solo save must carry: the let-or-deny decision for each thing the AI
    wants (with denials, and with the AI's turn still holding steps under it), rests, owed track
    bonuses, the AI's cards, tiles and worker tiles, and the game's end."""
    steps, denied, queued, rests, due, worker_tiles = set(), 0, 0, 0, 0, 0
    for config in CONFIGS:
        shown = 0
        for d, _a in record(*config):
            solo = d["solo"]
            assert solo["board"] == config[0] - 1
            if wants(d):
                steps.add(d["stack"][-1][1][0])
                denied += bool(d["stack"][-1][2])
                queued += bool(d["stack"][0][1])
            rests += len(solo["shown"]) < shown
            shown = len(solo["shown"])
            due += solo["bonus_due"] > 0
            worker_tiles += bool(solo["worker_tiles"])
        last = record(*config)[-1][0]
        assert last["over"] and last["solo"]["cards"] and last["solo"]["tiles"]
    assert steps == {"card", "worker", "retrieve"}
    assert denied and queued and rests >= 8 and due and worker_tiles


def test_a_solo_save_names_every_piece_of_the_ai():
    d = record(1, True)[-1][0]
    assert set(d["solo"]) == set(SOLO_FIELDS) == set(SoloState.__slots__)
    ai = d["players"][1]
    assert ai["dice_face"] == ai["dice_loc"] == ai["worker_tiles"] == []
    assert d["config"]["num_players"] == 1 and d["config"]["solo_ai_board"] == 1 and len(d["players"]) == 2
    assert Game(GameConfig(num_players=2), seed=1).to_dict()["solo"] is None


def _first(what: str) -> tuple[tuple[int, bool], int]:
    """(config, position) of the first recorded live position that is ``what``."""
    for config in CONFIGS:
        rec = record(*config)
        rests = 0
        for i in range(1, len(rec) - 1):
            d = rec[i][0]
            rested = len(d["solo"]["shown"]) < len(rec[i - 1][0]["solo"]["shown"])
            rests += rested
            if what == "an ai_wants after a denial":
                hit = wants(d) and d["stack"][-1][2]
            elif what == "an ai_wants over queued steps":
                hit = wants(d) and d["stack"][0][1]
            else:
                hit = rested and rests == 2
            if hit:
                return config, i
    raise AssertionError(f"no recorded position is {what}")


@pytest.mark.parametrize("what", ["an ai_wants after a denial", "an ai_wants over queued steps", "the second rest"])
def test_a_game_loaded_mid_game_plays_to_the_same_end(what):
    """From an open let-or-deny decision or mid-game after rests, the loaded game plays the recorded
    actions to the recorded end, with the scores of the same game played from its seed."""
    config, i = _first(what)
    rec = record(*config)
    game = Game.from_dict(rec[i][0])
    check(game)
    for _d, action in rec[i:-1]:
        game.apply(action)
    assert game.to_dict() == rec[-1][0]
    fresh = Game(GameConfig(num_players=1, solo_ai_board=config[0], tides_of_trade=config[1]), seed=SEEDS[config])
    for _d, action in rec[:-1]:
        fresh.apply(action)
    assert game.scores() == fresh.scores() and game.winners() == fresh.winners()


def test_the_open_decision_of_a_loaded_save_is_the_originals():
    d = a_save(lambda d: wants(d) and d["stack"][-1][2])
    game = Game.from_dict(d)
    kind, frame = game.decision()
    assert kind == "ai_wants" and frame.denied == tuple(d["stack"][-1][2]) and frame.step == tuple(d["stack"][-1][1])
    assert game.current_player == 0


# ---------------------------------------------------------------- broken solo fields, one each


def test_solo_must_be_null_in_other_games_and_a_dict_in_solo_ones():
    d = Game(GameConfig(num_players=2), seed=1).to_dict()
    d["solo"] = copy.deepcopy(record(1, False)[0][0]["solo"])
    assert load_error(d).startswith("solo: must be null: the AI's pieces belong to a solo game")
    d = a_save(lambda d: True)
    d["solo"] = None
    assert load_error(d) == "solo: must be a dict, got None"
    d = a_save(lambda d: True)
    del d["solo"]["track"]
    assert load_error(d) == "solo.track: missing field"
    d = a_save(lambda d: True)
    d["solo"]["deck"] = []
    assert load_error(d).startswith("solo: unknown field(s) ['deck']")


def test_solo_board_must_be_the_configs():
    d = a_save(lambda d: True)  # AI board 1
    d["solo"]["board"] = 2
    assert load_error(d) == "solo.board: must be 0 (config.solo_ai_board 1), got 2"
    d["solo"]["board"] = 4
    assert load_error(d) == "solo.board: must be an int in 0..3, got 4"


def test_solo_track_is_a_space_of_the_track():
    d = a_save(lambda d: True)
    d["solo"]["track"] = 8
    assert load_error(d) == "solo.track: must be an int in 0..7, got 8"
    d["solo"]["track"] = True
    assert load_error(d) == "solo.track: must be an int in 0..7, got True"


def test_solo_draw_and_shown_are_the_scheme_cards_once_each():
    d = a_save(lambda d: d["solo"]["shown"] and len(d["solo"]["draw"]) > 1)
    d["solo"]["draw"][0] = d["solo"]["shown"][0]
    assert load_error(d).startswith("solo.draw, solo.shown: together must hold the scheme cards 0..5 once each")
    d = a_save(lambda d: d["solo"]["shown"])
    d["solo"]["shown"].pop()
    assert load_error(d).startswith("solo.draw, solo.shown: together must hold")
    d = a_save(lambda d: True)
    d["solo"]["draw"][0] = 6  # scheme.7 is Tides of Trade's
    assert load_error(d) == "solo.draw[0]: must be an int in 0..5, got 6"
    d = a_save(lambda d: d["config"]["tides_of_trade"])
    d["solo"]["draw"][0] = 7
    assert load_error(d) == "solo.draw[0]: must be an int in 0..6, got 7"


def test_solo_cards_are_deck_cards_counted_once_and_in_the_ais_counts():
    d = a_save(lambda d: d["solo"]["cards"])
    d["solo"]["cards"][0] = 999
    assert load_error(d).startswith("solo.cards[0]: must be an int in 0..")
    d = a_save(lambda d: d["solo"]["cards"])
    land = d["decks"][1][-1]
    d["solo"]["cards"].append(land)  # a land card still in its deck
    d["players"][1]["counts"][12] += 1  # counted, so that only the census can tell
    assert re.match(
        r"solo\.cards\[\d+\]: card \d+ \(land\.\d+\) is also at decks\[1\]\[\d+\]; every card exists exactly once", load_error(d)
    )
    d = a_save(lambda d: d["solo"]["cards"])
    card = d["solo"]["cards"].pop()  # lost, and the AI's counts no longer match
    assert re.match(r"players\[1\]\.counts\[1[2-6]\] \(\w+_cards\): must be \d+, a recount of the AI's cards and tiles", load_error(d))
    kind = tables_for(GameConfig.from_dict(d["config"]).content()).cards[card].kind
    d["players"][1]["counts"][TERM_INDEX[f"{kind}_cards"]] -= 1  # the counts agree: only the census can tell
    assert load_error(d).startswith("decks: 1 card(s) are nowhere")


def test_solo_tiles_are_designs_counted_against_the_supply():
    d = a_save(lambda d: d["solo"]["tiles"])
    d["solo"]["tiles"][0] = 99
    assert load_error(d).startswith("solo.tiles[0]: must be an int in 0..")
    d = a_save(lambda d: d["solo"]["tiles"])
    d["tile_supply"][d["solo"]["tiles"][0]] += 1  # the AI's tile back in the supply as well
    assert re.match(r"tile_supply\[\d+\]: tile\.\S+ has \d+ in supply and \d+ taken; the box holds", load_error(d))
    d = a_save(lambda d: d["solo"]["tiles"])
    d["solo"]["tiles"].pop()
    assert load_error(d).startswith("players[1].counts[17] (tiles): must be")


def test_solo_cells_follow_the_tiles_along_the_path():
    d = a_save(lambda d: d["solo"]["tiles"])
    cells = d["solo"]["cells"]
    d["solo"]["cells"] = cells ^ (1 << 20)
    assert (
        load_error(d)
        == f"solo.cells: must be {cells}, the cells its tiles {d['solo']['tiles']} cover along the AI board's path, got {cells ^ 1 << 20}"
    )
    d["solo"]["cells"] = 1 << 21
    assert load_error(d) == f"solo.cells: must be an int in 0..{(1 << 21) - 1}, got {1 << 21}"


def test_solo_cells_with_worker_tiles_are_bounded_by_what_the_tiles_cover():
    """A worker tile lies on the AI's caravan too, at a moment among its upgrade tiles the save does
    not keep: the cells are then bounded by the tiles' lengths, not recomputed."""
    d = a_save(lambda d: d["solo"]["worker_tiles"])  # its first: few tiles, well under 21 cells
    tiles, pairs = len(d["solo"]["tiles"]), len(d["solo"]["worker_tiles"])
    d["solo"]["cells"] = (1 << 21) - 1
    message = load_error(d)
    assert re.fullmatch(rf"solo\.cells: its {tiles} tiles and {pairs} worker tiles cover at most \d+ cells, got 21 \(2097151\)", message)


def test_solo_worker_tiles_are_halves_each_in_one_place():
    d = a_save(lambda d: not d["config"]["tides_of_trade"])
    d["solo"]["worker_tiles"] = [[0, 1]]
    assert load_error(d) == "solo.worker_tiles: must be a list of 0, got 1 item(s)"
    d = a_save(lambda d: d["solo"]["worker_tiles"])
    top, bottom = d["solo"]["worker_tiles"][0]
    d["solo"]["worker_tiles"].append([top, bottom])
    assert re.match(r"solo\.worker_tiles\[1\]\[0\]: \S+ is also at solo\.worker_tiles\[0\]\[0\]; every half exists once", load_error(d))
    d = a_save(lambda d: d["solo"]["worker_tiles"])
    d["solo"]["worker_tiles"][0].reverse()
    assert re.match(r"solo\.worker_tiles\[0\]\[0\]: must be a top half, got ", load_error(d))
    d = a_save(lambda d: d["solo"]["worker_tiles"])
    d["solo"]["worker_tiles"][0] = [d["solo"]["worker_tiles"][0][0]]
    assert load_error(d) == "solo.worker_tiles[0]: must be a list of 2, got 1 item(s)"


def test_solo_bonus_due_is_a_small_count_and_zero_in_the_ais_turn():
    d = a_save(lambda d: True)
    d["solo"]["bonus_due"] = -1
    assert load_error(d) == f"solo.bonus_due: must be an int in 0..{MAX_BONUS_DUE}, got -1"
    d["solo"]["bonus_due"] = 2**32  # would queue billions of AI steps
    assert load_error(d).startswith(f"solo.bonus_due: must be an int in 0..{MAX_BONUS_DUE}")
    d = a_save(wants)
    d["solo"]["bonus_due"] = 1
    assert load_error(d) == "solo.bonus_due: must be 0 during the AI's turn (it gains them first), got 1"


# ---------------------------------------------------------------- the AI's seat


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("dice_face", [3], "players[1].dice_face: must be []: the solo AI has no dice and no worker caravan, got [3]"),
        ("dice_loc", [-1], "players[1].dice_loc: must be []: the solo AI has no dice"),
        ("silver", 1, "players[1].silver: must be 0 for the solo AI (its other pieces are in solo), got 1"),
        ("provisions", 2, "players[1].provisions: must be 0 for the solo AI"),
        ("hourglass", True, "players[1].hourglass: must be False for the solo AI"),
    ],
)
def test_the_ais_seat_holds_no_dice_money_or_hourglass(key, value, message):
    d = a_save(lambda d: True)
    d["players"][1][key] = value
    assert load_error(d).startswith(message)


def test_the_ais_seat_has_no_panorama_and_no_cards_acquired():
    d = a_save(lambda d: d["solo"]["cards"])
    card = d["solo"]["cards"][0]
    d["players"][1]["acquired"] = [card]
    assert load_error(d) == f"players[1].acquired: must be [] for the solo AI (its other pieces are in solo), got [{card}]"
    d = a_save(lambda d: True)
    land = d["decks"][1].pop()
    d["known"][1].pop()
    d["players"][1]["land"] = [land]
    assert load_error(d) == f"players[1].land: must be [] for the solo AI (its other pieces are in solo), got [{land}]"


def test_the_ais_influence_is_its_unlimited_supply_plus_yellow_and_blue():
    d = a_save(lambda d: True)
    d["players"][1]["supply"] += 1
    assert load_error(d).endswith(f"must be {AI_SUPPLY + 2} influence, the solo AI's total")


def test_the_ais_comet_track_runs_to_ten():
    d = a_save(lambda d: True)
    d["players"][1]["counts"][10] = COMET_TOP + 1
    assert load_error(d) == f"players[1].counts[10] (comet): the AI's comet track runs 0..{COMET_TOP}, got {COMET_TOP + 1}"


def test_the_humans_board_is_not_the_ais_and_the_ais_follows_chosen_boards():
    d = a_save(lambda d: True)
    d["players"][0]["board"] = d["solo"]["board"]
    d["players"][1]["board"] = (d["solo"]["board"] + 1) % 4
    assert load_error(d).startswith(f"players[0].board: board {d['solo']['board']} lies turned over as the AI's board")
    g = Game(GameConfig(num_players=1, solo_ai_board=2, player_boards=[3]), seed=1)
    d = g.to_dict()
    assert d["players"][1]["board"] == 1 and Game.from_dict(d).to_dict() == d
    d["players"][1]["board"] = 0
    assert load_error(d) == "players[1].board: must be 1, the AI's board (config.solo_ai_board), got 0"


@pytest.mark.parametrize("top", [TURN, AI_WANTS])
def test_only_the_human_decides_in_a_live_solo_game(top):
    d = a_save(lambda d: top_kind(d) == top and not d["players"][0]["acquired"])
    d["current"] = 1
    assert load_error(d) == "current: must be 0 in a live solo game (the AI only ever asks the human), got 1"


# ---------------------------------------------------------------- the AI's frames


def test_the_ais_turn_is_never_the_top_frame():
    d = a_save(lambda d: top_kind(d) == TURN)
    d["stack"] = [[AI_TURN, [["journal"]]]]
    assert load_error(d).startswith("stack[0] (ai_turn): the AI's turn is settled by the engine; it waits only at the bottom")
    d = a_save(wants)
    d["stack"].pop()
    assert load_error(d).startswith("stack[0] (ai_turn): the AI's turn is settled by the engine")


def test_the_ais_frames_belong_to_solo_games():
    d = Game(GameConfig(num_players=2), seed=1).to_dict()
    d["stack"] = [[AI_TURN, []], [AI_WANTS, ["card", 1], []]]
    assert load_error(d) == "stack[0]: a ai_turn frame is the solo AI's; this game is not solo (config.num_players 1)"


@pytest.mark.parametrize(
    "step, message",
    [
        (["dance"], "must be a step [name, ...arguments] with a name of start, reveal, act"),
        ("journal", "must be a step [name, ...arguments]"),
        (["track"], "the step 'track' takes 1 argument(s), got 0"),
        (["track", 9], "[1]: must be an int in 0..8, got 9"),
        (["card", 5], "[1]: must be an int in 0..4, got 5"),
        (["top_card", 0], "[1]: must be an int in 1..2, got 0"),  # only Land and Water are drawn from the top
        (["worker", 2, 0, 1], "the step 'worker' takes 1..2 argument(s), got 3"),
        (["worker", 3], "[1]: must be an int in 0..2, got 3"),
        (["tile", "worker"], "[1]: must be one of land, water, space, basic, special, any, got 'worker'"),  # a base game
        (["guild", 3], "[1]: must be an int in 0..2, got 3"),  # red influence is Tides of Trade's
        (["extra_journal", 4], "[1]: must be an int in 1..3, got 4"),
        (["act", 6], "[1]: must be an int in 0..5, got 6"),
    ],
)
def test_each_ai_step_is_checked_by_name_and_argument(step, message):
    d = a_save(lambda d: wants(d) and not d["config"]["tides_of_trade"])
    d["stack"][0][1].insert(0, step)
    assert load_error(d).startswith("stack[0][1] (ai_turn steps)[0]") and message in load_error(d)


def test_the_ais_pending_steps_are_ones_its_turn_could_hold():
    d = a_save(wants)
    d["stack"][0][1].insert(0, ["start"])
    assert load_error(d) == "stack[0] (ai_turn): a 'start' step runs before the AI wants anything; it is never pending under an ai_wants"
    d = a_save(lambda d: wants(d) and d["solo"]["draw"])
    d["stack"][0][1][:0] = [["reveal"], ["reveal"]]  # two reveals: the second could draw from an empty pile
    assert load_error(d).startswith("stack[0] (ai_turn): at most one 'reveal' step waits, and only with scheme cards in solo.draw")
    d = a_save(lambda d: wants(d) and d["solo"]["shown"])
    other = next(s for s in range(6) if s != d["solo"]["shown"][-1])
    d["stack"][0][1].insert(0, ["act", other])
    assert load_error(d) == f"stack[0] (ai_turn): an 'act' step resolves the scheme card just revealed (solo.shown[-1]), got {other}"


def test_what_the_ai_wants_is_checked():
    d = a_save(wants)
    d["stack"][-1][1] = ["steal", 1]
    assert load_error(d).startswith(
        "stack[1][1] (ai_wants step): must be a step [name, ...arguments] with a name of card, worker, retrieve"
    )
    d = a_save(wants)
    d["stack"][-1][1] = ["retrieve", 1]
    assert load_error(d) == "stack[1][1] (ai_wants step): the step 'retrieve' takes 0 argument(s), got 1"
    d = a_save(wants)
    d["stack"][-1][2] = [3, 3]
    assert load_error(d) == "stack[1][2] (ai_wants denied): must be a list of different market indexes, got [3, 3]"
    d = a_save(wants)
    d["stack"][-1][2] = [20]
    assert load_error(d) == "stack[1][2] (ai_wants denied)[0]: must be an int in 0..19, got 20"


def _first_choice(d: dict) -> int:
    """The market index the AI goes for in a saved ai_wants: its first choice not denied."""
    step, denied = d["stack"][-1][1], d["stack"][-1][2]
    game = Game.from_dict(copy.deepcopy(d))
    return next(i for i, _colour in ai_candidates(game.state, tuple(step)) if i not in denied)


def test_each_denial_was_the_ais_choice_then():
    d = a_save(lambda d: wants(d) and d["stack"][-1][2])
    first, denied = _first_choice(d), d["stack"][-1][2]
    other = next(i for i in range(20) if i != first and i not in denied)
    d["stack"][-1][2] = [*denied, other]  # a denial of a card the AI was not going for
    k = len(denied)
    assert (
        load_error(d) == f"stack[1] (ai_wants): denied[{k}] must be {first}, the AI's choice after the cards denied before it, got {other}"
    )


def test_the_ai_wants_a_card_the_human_influenced():
    d = a_save(wants)
    first = _first_choice(d)
    d["market_inf"][first] = -1  # no longer the human's: the AI would just take it
    d["players"][0]["supply"] += 1
    assert load_error(d) == (
        f"stack[1] (ai_wants): the AI's choice must be a card with the human's influence (market_inf 0), "
        f"got market slot {first} with influence -1"
    )


def test_the_ai_wants_to_place_a_worker_it_has():
    d = a_save(lambda d: wants(d) and d["stack"][-1][1][0] == "worker")
    colour = d["stack"][-1][1][1]
    d["players"][1]["workers"][colour] = 0
    d["players"][0]["workers"][colour] += 1  # kept in the game: only the AI's lack is wrong
    assert load_error(d) == f"stack[1] (ai_wants): the AI has no worker of colour {colour} to place"
