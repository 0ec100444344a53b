"""Tides of Trade: the "never blocked" worker upgrade tile (ToT l.233: "This particular Upgrade Tile
allows players to ignore all other Workers on a Card when placing Workers of the coloured tied to
this Tile. In other words, they can never be blocked."). Reading (TIDES-QUESTIONS 24): other
workers only; the row's colours and an influence fee still apply. Line numbers are those of
../shared/rules/tides-of-trade-rulebook.txt; worker_tile.top13 and top14 are the never-blocked halves.
"""

from __future__ import annotations

import copy
import random

import pytest
from conftest import can, play, with_effect
from invariants import check

from wayfarers_env import Game, GameConfig, build_scenario
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import BY_KIND
from wayfarers_env.rules.scenario import ScenarioError
from wayfarers_env.rules.state import EXTRA_PLACED, EXTRA_WIDTH, extra_on, extra_placed
from wayfarers_env.rules.workers import retrievable

TIDES = {"num_players": 2, "tides_of_trade": True}
LAND = ["land.5", "land.6", "land.7", "land.8"]
LAND_2 = 4 + 1  # market index of the land row's slot 2 (land.6)
YELLOW = 0
NEVER_BLOCKED_YELLOW = {"yellow": ["worker_tile.top13", "worker_tile.bottom3"]}
PLAIN_YELLOW = {"yellow": ["worker_tile.top1", "worker_tile.bottom3"]}
KIND = {rule.name: rule.kind for rule in BY_KIND}
HALVES = build_scenario({"config": TIDES}).state.tables.content.tides.half_by_id


def yellows_on(st, i: int) -> int:
    return (st.market_workers[i] >> YELLOW & 1) + extra_on(st.market_extra[i], YELLOW)


def yellows_on_land_6(game: Game) -> int:
    return yellows_on(game.state, LAND_2)


def extra_on_bits(n: int, colour: int = YELLOW) -> int:
    """market_extra's count of ``n`` extras of ``colour`` (none placed this turn)."""
    return n << (EXTRA_WIDTH * colour)


def one_on_land_6(tiles: dict | None, **seat0) -> dict:
    """Seat 0 holds a yellow worker; the other yellow stands on land.6 (the land row's slot 2:
    '2 silver, guild(yellow)', always something to resolve)."""
    p0 = {"workers": {"yellow": 1}, **seat0}
    if tiles is not None:
        p0["worker_tiles"] = tiles
    return {"config": TIDES, "players": [p0, {"workers": {"yellow": 0}}], "market": {"land": LAND}, "workers_on": {"land.6": ["yellow"]}}


def two_on_land_6(**extra) -> dict:
    """Both yellow workers of a 2-player game on land.6; seat 1's tile put the second there."""
    spec = {
        "config": TIDES,
        "players": [{"workers": {"yellow": 0}}, {"workers": {"yellow": 0}, "worker_tiles": NEVER_BLOCKED_YELLOW}],
        "market": {"land": LAND},
        "workers_on": {"land.6": ["yellow", "yellow"]},
    }
    spec.update(extra)
    return spec


# ---------------------------------------------------------------- placing


def test_a_never_blocked_yellow_worker_goes_on_a_land_card_holding_a_yellow_worker():
    """ToT l.233: with the tile under yellow, a yellow worker ignores the yellow worker on land.6;
    without it, or with another tile there, land.6 stays blocked (Base p.16: one of each colour)."""
    g = build_scenario(one_on_land_6(NEVER_BLOCKED_YELLOW))
    play(g, ("worker", "yellow"))
    assert can(g, "card", "land", 2)
    play(g, ("card", "land", 2))
    assert yellows_on_land_6(g) == 2 and g.state.players[0].workers[YELLOW] == 0
    assert g.state.market_placed[LAND_2] == 1 << YELLOW and extra_placed(g.state.market_extra[LAND_2], YELLOW) == 0
    assert g.decision()[0] == "effect"  # the spot's effects, as for any placement
    for tiles in (None, PLAIN_YELLOW):
        h = build_scenario(one_on_land_6(tiles))
        play(h, ("worker", "yellow"))
        assert not can(h, "card", "land", 2) and can(h, "card", "land", 1)


def test_the_rows_colours_and_the_influence_fee_still_apply():
    """ToT l.233 ignores other workers only (TIDES-QUESTIONS 24): a never-blocked blue worker still
    never goes on a Land card (the land row takes green and yellow), and an opponent's influence
    on the card still costs its fee (Base p.6), so without Silver or Provisions there is no placing."""
    blue = {"blue": ["worker_tile.top13", "worker_tile.bottom3"]}
    spec = {
        "config": TIDES,
        "players": [{"workers": {"blue": 1}, "worker_tiles": blue}, {"workers": {"blue": 0}}],
        "market": {"land": LAND, "water": ["water.5", "water.6", "water.7", "water.8"]},
        "workers_on": {"water.6": ["blue"]},
    }
    g = build_scenario(spec)
    play(g, ("worker", "blue"))
    assert can(g, "card", "water", 2)
    assert not any(can(g, "card", "land", s) for s in range(1, 5))

    poor = build_scenario({**one_on_land_6(NEVER_BLOCKED_YELLOW, silver=0, provisions=0), "influence_on": {"land.6": 1}})
    play(poor, ("worker", "yellow"))
    assert not can(poor, "card", "land", 2) and can(poor, "card", "land", 1)
    rich = build_scenario({**one_on_land_6(NEVER_BLOCKED_YELLOW, silver=1, provisions=0), "influence_on": {"land.6": 1}})
    play(rich, ("worker", "yellow"), ("card", "land", 2))
    assert rich.decision()[0] == "influence_fee" and yellows_on_land_6(rich) == 1  # placed once the fee is paid
    saved = rich.to_dict()
    assert Game.from_dict(saved).to_dict() == saved  # the fee for a second yellow loads back
    play(rich, ("fee", "silver"))
    assert yellows_on_land_6(rich) == 2 and rich.state.players[1].silver == 4


# ---------------------------------------------------------------- taking them off


def test_acquiring_the_card_gives_both_workers():
    """Base p.16: workers on an acquired card go to the acquirer; ToT l.233's second one too."""
    g = build_scenario(two_on_land_6(players=[{"workers": {"yellow": 0}, "dice": [1], "provisions": 2}, two_on_land_6()["players"][1]]))
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"), ("take_slot", 2))
    st = g.state
    assert st.players[0].workers[YELLOW] == 2
    assert st.market_workers[LAND_2] == 0 and st.market_extra[LAND_2] == 0
    check(g)


def test_the_slide_moves_both_workers_with_their_card():
    """Base p.11: at the end of the turn cards slide towards slot 1 with their workers."""
    seat0 = {"workers": {"yellow": 0}, "dice": [1], "provisions": 2}
    g = build_scenario(two_on_land_6(players=[seat0, two_on_land_6()["players"][1]]))
    play(g, ("die", 1), ("space", "capital.city"), ("do", "pay_provisions"), ("do", "land_card"), ("take_slot", 1), ("done",), ("done",))
    st = g.state
    assert g.current_player == 1 and st.tables.cards[st.market[4]].id == "land.6"
    assert st.market_workers[4] == 1 << YELLOW and extra_on(st.market_extra[4], YELLOW) == 1
    assert st.market_extra[LAND_2] == 0
    check(g)


def test_retrieving_takes_one_yellow_and_leaves_the_other():
    """Base p.16's retrieve icon brings one worker back; the other yellow stays on land.6."""
    g = with_effect(two_on_land_6(), "retrieve_worker")
    play(g, ("do", "retrieve_worker"), ("retrieve", "land", 2, "yellow"))
    assert g.state.players[0].workers[YELLOW] == 1 and yellows_on_land_6(g) == 1
    assert g.state.market_workers[LAND_2] == 1 << YELLOW and g.state.market_extra[LAND_2] == 0
    h = with_effect(two_on_land_6(), "2 x retrieve_worker")
    play(h, ("do", "retrieve_worker"), ("retrieve", "land", 2, "yellow"), ("do", "retrieve_worker"), ("retrieve", "land", 2, "yellow"))
    assert h.state.players[0].workers[YELLOW] == 2 and yellows_on_land_6(h) == 0
    check(h)


def test_of_two_yellows_one_placed_this_turn_the_other_may_be_retrieved():
    """Base p.16: a worker is never placed and retrieved in the same turn; with two of a colour on a
    card (ToT l.233), that holds for the one placed this turn only."""
    spec = two_on_land_6(this_turn={"workers_placed": {"land.6": ["yellow"]}})
    spec["players"] = [{"workers": {"yellow": 0}, "worker_tiles": NEVER_BLOCKED_YELLOW}, {"workers": {"yellow": 0}}]
    g = with_effect(spec, "2 x retrieve_worker")
    play(g, ("do", "retrieve_worker"))
    assert can(g, "retrieve", "land", 2, "yellow")
    play(g, ("retrieve", "land", 2, "yellow"))
    assert yellows_on_land_6(g) == 1 and g.state.market_placed[LAND_2] == 1 << YELLOW
    assert not can(g, "do", "retrieve_worker")  # the one left was placed this turn
    both = copy.deepcopy(spec)
    both["this_turn"]["workers_placed"]["land.6"] = ["yellow", "yellow"]
    h = with_effect(both, "retrieve_worker")
    assert extra_placed(h.state.market_extra[LAND_2], YELLOW) == 1
    assert not can(h, "do", "retrieve_worker")  # both were placed this turn
    play(h, ("done",))
    assert h.current_player == 1 and h.state.market_extra[LAND_2] == 1  # the turn over, only the count on the card stays
    check(h)


def test_a_second_yellow_placed_in_one_turn_counts_as_placed_too():
    """A yellow placed on land.6 this turn, then the capture icon's "capture 1 Worker then place"
    (ToT l.270) puts a captured yellow there too (ToT l.233): neither may be retrieved this turn
    (Base p.16), and a save taken then keeps both counts."""
    spec = one_on_land_6(NEVER_BLOCKED_YELLOW, silver=1, workers={"yellow": 0})
    spec["players"][1] = {"workers": {"yellow": 1}}
    spec["this_turn"] = {"workers_placed": {"land.6": ["yellow"]}}
    g = with_effect(spec, "capture_worker")
    play(g, ("do", "capture_worker"), ("capture_from_player", 1, "yellow"), ("fee", "silver"), ("worker", "yellow"))
    assert can(g, "card", "land", 2)
    play(g, ("card", "land", 2))
    st = g.state
    assert yellows_on_land_6(g) == 2 and extra_placed(st.market_extra[LAND_2], YELLOW) == 1
    assert (LAND_2, YELLOW) not in retrievable(st)
    d = g.to_dict()
    assert Game.from_dict(d).to_dict() == d
    check(g)


# ---------------------------------------------------------------- saves


def test_a_save_with_two_yellows_on_a_card_loads_back_unchanged():
    """ToT l.233's second yellow on land.6, one of the two placed this turn: the save holds both
    counts (market_extra) and loads back to the same position and the same legal actions."""
    g = with_effect(
        two_on_land_6(
            this_turn={"workers_placed": {"land.6": ["yellow"]}},
            players=[{"workers": {"yellow": 0}, "worker_tiles": NEVER_BLOCKED_YELLOW}, {"workers": {"yellow": 0}}],
        ),
        "retrieve_worker",
    )
    d = g.to_dict()
    assert d["market_extra"][LAND_2] == extra_on_bits(1) and d["market_placed"][LAND_2] == 1
    back = Game.from_dict(d)
    assert back.to_dict() == d and back.legal_actions() == g.legal_actions()


def _corrupt(kind: str) -> dict:
    d = build_scenario(two_on_land_6()).to_dict()
    if kind == "no bit":
        d["market_extra"][LAND_2 + 1] = extra_on_bits(1)  # land.7 has no yellow worker
        d["players"][0]["workers"][YELLOW] = 0
    elif kind == "base game":
        d = Game(GameConfig(num_players=2), seed=0).to_dict()
        d["market_extra"][LAND_2] = extra_on_bits(1)
    elif kind == "no tile":  # seat 1's tile swapped for one that blocks (top3: no tags or VP either, in no stack)
        d["players"][1]["worker_tiles"][0][0] = HALVES["worker_tile.top3"].index
    elif kind == "placed":
        d["market_extra"][LAND_2] += 1 << EXTRA_PLACED  # one more placed this turn than market_placed shows
    elif kind == "too many":
        d["market_extra"][LAND_2] = extra_on_bits(2)
    return d


@pytest.mark.parametrize(
    "kind, message",
    [
        ("no bit", "market_extra[6]: 1 more yellow worker(s) on a card whose market_workers (0) shows no yellow one"),
        ("base game", "market_extra[5]: must be 0 in a base game"),
        ("no tile", "market_extra[5]: 2 yellow workers on one card need a never-blocked worker tile under yellow"),
        ("placed", "market_extra[5]: 1 more yellow worker(s) placed this turn need"),
        ("too many", "players[*].workers[0]: the game has 2 yellow workers, got 3"),
    ],
)
def test_a_corrupt_save_with_extra_workers_is_refused_by_name(kind, message):
    """A save is outside data (rules/save_check.py): extras need a first worker of their colour on the
    card, a Tides of Trade game, a never-blocked tile (ToT l.233) and count in the conservation."""
    with pytest.raises(ValueError) as info:
        Game.from_dict(_corrupt(kind))
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


def test_a_base_save_holding_an_expansion_frame_is_refused_by_name():
    """Found by tests/test_save_validation.py's mutations once saves grew market_extra: a Tides of
    Trade decision (here the worker tile's price) on a base game's stack is refused with its name,
    not an assertion deep in the expansion's rules."""
    d = Game(GameConfig(num_players=2), seed=1).to_dict()
    d["stack"] = [[KIND["worker_tile_price"]]]
    with pytest.raises(ValueError) as info:
        Game.from_dict(d)
    assert str(info.value) == "stack[0]: a worker_tile_price frame is Tides of Trade's; this game is a base game (config.tides_of_trade)"


# ---------------------------------------------------------------- build_scenario


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {"config": {"num_players": 2}, "players": [{"workers": {"yellow": 0}}, {"workers": {"yellow": 0}}]},
            "workers_on['land.6']: 'yellow' given twice",
        ),
        (
            {"players": [{"workers": {"yellow": 0}}, {"workers": {"yellow": 0}}]},
            "workers_on['land.6']: 2 yellow workers on one card need a never-blocked",
        ),
        (
            {"players": [{"workers": {"yellow": 1}}, {"workers": {"yellow": 0}, "worker_tiles": NEVER_BLOCKED_YELLOW}]},
            "players[*].workers / workers_on: 1 yellow worker(s) in supplies + 2 on market cards",
        ),
        ({"this_turn": {"workers_placed": {"land.6": ["yellow"]}}}, "this_turn.workers_placed['land.6']: seat 0 placed a yellow worker"),
        (
            {"this_turn": {"workers_placed": {"land.6": ["yellow"] * 3}}},
            "this_turn.workers_placed['land.6']: yellow listed more often than the 2 on the card",
        ),
    ],
)
def test_build_scenario_refuses_two_yellows_the_rules_cannot_reach(change, message):
    """Two of a colour on a card only in Tides of Trade, only with a never-blocked tile (ToT l.233)
    under that colour (the placer's, for one placed this turn), and counted with every other worker."""
    with pytest.raises(ScenarioError) as info:
        build_scenario(two_on_land_6(**change))
    assert str(info.value).startswith(message), str(info.value)


def test_build_scenario_puts_two_yellows_on_a_card():
    """A colour listed twice in workers_on (Tides of Trade, with a never-blocked tile, ToT l.233)."""
    g = build_scenario(two_on_land_6())
    assert yellows_on_land_6(g) == 2 and g.state.market_extra[LAND_2] == extra_on_bits(1)
    check(g)


# ---------------------------------------------------------------- whole games


def _random_game(seed: int, steps: int) -> tuple[Game, int]:
    """Both seats hold a never-blocked tile under yellow; random actions, most often placing a yellow
    worker onto a yellow one, checked after each. Returns the game and the most yellows one card held."""
    spec = {
        "config": TIDES,
        "seed": seed,
        "players": [
            {"worker_tiles": {"yellow": ["worker_tile.top13", "worker_tile.bottom3"]}},
            {"worker_tiles": {"yellow": ["worker_tile.top14", "worker_tile.bottom4"]}},
        ],
    }
    g = build_scenario(spec)
    rng = random.Random(seed)
    most = 0
    for _ in range(steps):
        if g.is_over:
            break
        legal = g.legal_actions()
        kind, frame = g.decision()
        if kind == "worker_target" and frame.colour == YELLOW:
            liked = [a for a in legal if g.state.market_workers[CATALOG.at[a]] >> YELLOW & 1]
        else:
            liked = [a for a in legal if a == CATALOG.WORKER[YELLOW]]
        g.apply(rng.choice(liked if liked and rng.random() < 0.8 else legal))
        check(g)
        most = max(most, max(yellows_on(g.state, i) for i in range(len(g.state.market))))
    return g, most


def test_random_games_with_never_blocked_tiles_keep_every_worker_and_repeat_exactly():
    """Determinism and conservation with ToT l.233 in play: the same seed and actions give the same
    game, every worker exists once after every action, and saves round-trip."""
    stacked = 0
    for seed in (1, 2, 3):
        a, most = _random_game(seed, 400)
        b, _ = _random_game(seed, 400)
        assert a.to_dict() == b.to_dict()
        assert Game.from_dict(a.to_dict()).to_dict() == a.to_dict()
        stacked += most == 2
    assert stacked >= 2, "two yellow workers met on one card in fewer than 2 of 3 games"
