"""Game.from_dict checks everything it loads (wayfarers_env/save_check.py).

Plain tests pin one broken field each and the name the message must carry (the solo AI's fields:
tests/test_solo_saves.py). A Hypothesis test mutates real saves taken mid-turn from seeded games,
solo ones included (values, types, deleted keys, duplicated or lost cards, swapped or truncated
lists, out-of-range ids, made-up stack frames) and proves that loading either raises SaveError, a
ValueError naming a field, or gives a sound game: the conservation laws of tests/invariants.py
hold, a live game has legal actions, every one of them applies (on a clone) and keeps those laws,
and the save round-trips exactly.
"""

from __future__ import annotations

import copy
import json
import random
import re
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from invariants import check

from wayfarers_env import Game, GameConfig, describe_action, env
from wayfarers_env.content import effects
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.frames import BY_KIND, kind_of
from wayfarers_env.rules.save_check import FRAMES, SaveError

# saved frames are [kind, *params]: the kind numbers by decision name
KIND = {rule.name: rule.kind for rule in BY_KIND}
FRAME_NAMES = tuple(rule.name for rule in BY_KIND)
BAG, DIE_SPACE, DRAW_KEEP, FEE = KIND["effect"], KIND["die_space"], KIND["draw_keep"], KIND["influence_fee"]
TUCK, TURN, YELLOW = KIND["tuck_townsfolk"], KIND["turn"], KIND["trade_guild"]
AI_WANTS = KIND["ai_wants"]

PASSIVE = {CATALOG.DONE, CATALOG.SKIP, CATALOG.REST}


# seeded games whose positions are sampled: 2, 3 and 4 players, and two solo games (AI boards 2 and
# 3, the second with Tides of Trade) whose seeds reach the human's let-or-deny decision
SAMPLED = (
    (1, GameConfig(num_players=2)),
    (2, GameConfig(num_players=3)),
    (3, GameConfig(num_players=4)),
    (8, GameConfig(num_players=1, solo_ai_board=2)),
    (6, GameConfig(num_players=1, solo_ai_board=3, tides_of_trade=True)),
)


@lru_cache(maxsize=1)
def saves() -> tuple[dict, ...]:
    """Saved positions of the SAMPLED games: every 40th decision, the first few of each frame kind
    on top of the stack, a few stacks of three or more, and the end."""
    out: list[dict] = []
    for seed, config in SAMPLED:
        g = Game(config, seed=seed)
        rng = random.Random(seed)
        seen: dict[int, int] = {}
        step = 0
        while not g.is_over:
            stack = g.state.stack
            kind = kind_of(stack[-1])
            if step % 40 == 0 or seen.get(kind, 0) < 2 or (len(stack) >= 3 and rng.random() < 0.2):
                out.append(g.to_dict())
                seen[kind] = seen.get(kind, 0) + 1
            legal = g.legal_actions()
            active = [a for a in legal if a not in PASSIVE]
            g.apply(rng.choice(active if active and rng.random() < 0.9 else legal))
            step += 1
        out.append(g.to_dict())
    return tuple(json.loads(json.dumps(d)) for d in out)


def a_save(pred=lambda d: True) -> dict:
    return copy.deepcopy(next(d for d in saves() if pred(d)))


def top_kind(d: dict) -> int:
    return d["stack"][-1][0] if d["stack"] else -1


def load_error(d: dict) -> str:
    with pytest.raises(SaveError) as info:
        Game.from_dict(d)
    return str(info.value)


def test_saves_cover_deep_stacks_and_every_common_frame():
    kinds = {top_kind(d) for d in saves()}
    assert {TURN, BAG, DIE_SPACE, YELLOW, FEE, DRAW_KEEP, TUCK, AI_WANTS} <= kinds
    assert sum(d["solo"] is not None for d in saves()) >= 80
    assert max(len(d["stack"]) for d in saves()) >= 3
    assert any(d["over"] for d in saves())


def test_every_sampled_save_loads_back_identically():
    for d in saves():
        assert Game.from_dict(d).to_dict() == d


# ---------------------------------------------------------------- one field each


def test_negative_silver_is_named():
    d = a_save()
    d["players"][1]["silver"] = -3
    assert load_error(d) == "players[1].silver: must be an int >= 0, got -3"


def test_negative_or_extra_workers_are_named():
    d = a_save()
    d["players"][0]["workers"][1] = -1
    assert load_error(d).startswith("players[0].workers[1]: must be an int >= 0, got -1")
    d = a_save()
    d["players"][0]["workers"][0] += 1  # a yellow worker out of nowhere
    assert load_error(d).startswith("players[*].workers[0]: the game has 2 yellow workers, got 3")


def test_current_out_of_range_is_named():
    d = a_save()
    d["current"] = -1
    assert load_error(d) == "current: must be an int in 0..1, got -1"


def test_duplicated_deck_card_is_named():
    d = a_save()
    d["decks"][1].append(d["decks"][1][0])
    d["known"][1].append(0)
    last = len(d["decks"][1]) - 1
    assert re.match(rf"decks\[1\]\[{last}\]: card \d+ \(land\.\d+\) is also at decks\[1\]\[0\]", load_error(d))


def test_lost_card_is_named():
    d = a_save()
    d["decks"][0].pop()
    d["known"][0].pop()
    assert load_error(d).startswith("decks: 1 card(s) are nowhere (townsfolk.")


def test_over_must_be_a_bool():
    d = a_save()
    d["over"] = "no"
    assert load_error(d) == "over: must be true or false, got 'no'"


def test_ints_are_not_bools_or_floats():
    d = a_save()
    d["players"][0]["provisions"] = True
    assert load_error(d).startswith("players[0].provisions: must be an int")
    d = a_save()
    d["turn"] = 3.0
    assert load_error(d).startswith("turn: must be an int")


@pytest.mark.parametrize(
    "where, value, message",
    [
        (("market", 0), 999, "market[0]: must be an int in 0..163"),
        (("market", 4), 108, "market[4]: must be a land card, got 108 (townsfolk."),
        (("players", 0, "node"), 28, "players[0].node: must be an int in 0..27"),
        (("players", 1, "board"), 4, "players[1].board: must be an int in 0..3"),
        (("players", 0, "dice_face", 2), 7, "players[0].dice_face[2]: must be an int in 1..6"),
        (("node_tile", 0), 10, "node_tile[0]: must be an int in -1..9"),
        (("market_inf", 3), 2, "market_inf[3]: must be an int in -1..1"),
    ],
)
def test_out_of_range_ids_are_named(where, value, message):
    d = a_save()
    target = d
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    assert load_error(d).startswith(message)


def test_list_lengths_are_named():
    for field, path in (("guild", ("players", 0, "guild")), ("dice_loc", ("players", 1, "dice_loc"))):
        d = a_save()
        d[path[0]][path[1]][path[2]].pop()
        assert load_error(d).startswith(f"players[{path[1]}].{field}: must be a list of")
    d = a_save()
    d["market_workers"] = d["market_workers"][:19]
    assert load_error(d) == "market_workers: must be a list of 20, got 19 item(s)"
    d = a_save()
    d["decks"].pop()
    assert load_error(d) == "decks: must be a list of 5, got 4 item(s)"


def test_missing_and_unknown_fields_are_named():
    d = a_save()
    del d["players"][1]["tiles"]
    assert load_error(d) == "players[1].tiles: missing field"
    d = a_save()
    d["bonus"] = 1
    assert load_error(d).startswith("saved game: unknown field(s) ['bonus']")
    d = a_save()
    d["config"]["content_options"] = 5
    assert load_error(d).startswith("config.content_options: must be a list")


def test_cards_of_the_wrong_kind_in_a_panorama_are_named():
    d = a_save()
    d["players"][0]["land"].append(d["decks"][2][-1])  # a water card among the land cards
    assert re.match(r"players\[0\]\.land\[\d+\]: must be a land card, got \d+ \(water\.", load_error(d))


def test_conservation_of_influence_dice_tiles_counts_and_cells():
    d = a_save()
    d["players"][0]["supply"] += 1
    assert "players[0].supply: supply" in load_error(d) and "must be 15 influence" in load_error(d)
    d = a_save(lambda d: sum(loc >= 0 for loc in d["players"][0]["dice_loc"]) == 1)
    locs = d["players"][0]["dice_loc"]
    free, placed = next(i for i, loc in enumerate(locs) if loc < 0), next(i for i, loc in enumerate(locs) if loc >= 0)
    locs[free] = locs[placed]
    later, earlier = max(free, placed), min(free, placed)
    assert load_error(d) == f"players[0].dice_loc[{later}]: die space {locs[free]} already holds die {earlier}; one die per space"
    d = a_save()
    d["tile_supply"][0] -= 1
    assert load_error(d).startswith("tile_supply[0]:")
    d = a_save()
    d["players"][1]["counts"][0] += 1
    assert load_error(d).startswith("players[1].counts[0] (city): must be")
    d = a_save()
    d["players"][0]["cells"] = 1
    assert load_error(d).startswith("players[0].cells: must be 0")


def test_rng_and_sides_are_checked():
    d = a_save()
    d["rng"][1] = d["rng"][1][:-1]
    assert load_error(d) == "rng[1]: must be a list of 625, got 624 item(s)"
    d = a_save()
    d["rng"][1][-1] = 700
    assert load_error(d) == "rng[1][624]: must be a position 0..624, got 700"
    d = a_save()
    d["rng"][2] = "x"
    assert load_error(d) == "rng[2]: must be null or a float, got 'x'"
    d = a_save()
    d["sides"] = "abc"
    assert load_error(d).startswith("sides: must be three letters a/b")


def test_bad_stack_frames_are_named():
    d = a_save(lambda d: top_kind(d) == TURN)
    d["stack"] = [[99]]
    assert load_error(d) == f"stack[0][0]: must be an int in 0..{len(FRAME_NAMES) - 1}, got 99"
    d["stack"] = [[DIE_SPACE]]
    assert load_error(d) == "stack[0]: a die_space frame is [kind, die], got 1 item(s)"
    d["stack"] = [{"kind": 0}]
    assert load_error(d).startswith("stack[0]: must be a frame [kind, ...parameters]")
    d["stack"] = []
    assert load_error(d) == "stack: must hold the decision being asked in a game not over, got []"
    d["stack"] = [[TURN], [TURN]]
    assert load_error(d) == "stack[0] (turn): only an effect, science_guild or trader_arrives frame waits under another decision"


def test_bad_effects_in_a_bag_are_named():
    d = a_save(lambda d: top_kind(d) == BAG)
    items = d["stack"][-1][1]
    for text, message in (
        ("silver ->", "unexpected end"),
        ("tile(any)", "is not a part a player can resolve"),
        ("ai_focus", "is not a part a player can resolve"),
        ("(silver / provisions), spend(black) -> journal", "cannot be paid"),
        ("silver, provisions", "a bag item is one part"),
        ("1000000 x silver / journal", "opens up into more than 256 parts"),
        ("silver / " * 200 + "silver", "an effect of 1806 characters; at most 1000"),
    ):
        items[0] = {"effect": text}
        msg = load_error(d)
        assert msg.startswith(f"stack[{len(d['stack']) - 1}][1] (effect items)[0]: ") and message in msg, msg


def test_a_frame_parameter_out_of_range_is_named():
    d = a_save(lambda d: top_kind(d) == DRAW_KEEP)
    top = len(d["stack"]) - 1
    d["stack"][-1][1] = 3  # only land (1) and water (2) are drawn from
    assert load_error(d) == f"stack[{top}][1] (draw_keep row): must be an int in 1..2, got 3"
    d = a_save(lambda d: top_kind(d) == FEE)
    d["stack"][-1][2][0] = "steal"
    assert load_error(d).startswith(f"stack[{len(d['stack']) - 1}][2] (influence_fee then)[0]: must be one of take, worker, retrieve")


def test_an_over_game_has_an_empty_stack_and_a_live_one_a_decision():
    d = a_save(lambda d: d["over"])
    d["stack"] = [[TURN]]
    assert load_error(d) == "stack: must be empty in a game that is over, got 1 frame(s)"
    d = a_save(lambda d: top_kind(d) == BAG)
    d["stack"][-1][1] = []
    assert load_error(d).endswith("(effect): the engine settles this effect frame by itself (nothing to decide), so it is never asked")


def test_frame_table_covers_every_kind():
    """Every frame record a rule module declares has its saved layout checked (save_check.FRAMES)."""
    assert set(FRAMES) == {rule.record for rule in BY_KIND}


# ---------------------------------------------------------------- property test

VALUES = st.one_of(
    st.integers(-3, 170),
    st.sampled_from([2**32, -(2**40), True, False, None, "a", "take", 1.5, 1.0, -1.0, 3.0, [], {}, [0], [1, 2, 3], {"effect": "silver"}]),
    st.sampled_from([{"effect": t} for t in ("journal", "tile(special)", "2 x silver", "provision -> journal / silver", "!new_die")]),
)


def _slots(node, path=()):
    """Every (path, value) below node, containers included."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _slots(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _slots(v, path + (i,))


def _parent(d, path):
    for key in path[:-1]:
        d = d[key]
    return d


@st.composite
def mutated(draw):
    """A saved position with 1 to 3 mutations; most aim at the players, market and stack."""
    d = copy.deepcopy(draw(st.sampled_from(saves())))
    for _ in range(draw(st.integers(1, 3))):
        slots = [(p, v) for p, v in _slots(d) if p and p[0] != "rng"]
        if len(d["rng"]) > 2:  # the generator's state only by its third item (until a deletion there)
            slots.append((("rng", 2), d["rng"][2]))
        path, value = draw(st.sampled_from(slots))
        parent = _parent(d, path)
        op = draw(st.sampled_from(["set", "set", "nudge", "nudge", "delete", "dup", "swap", "copy", "frame"]))
        if op == "set":
            parent[path[-1]] = copy.deepcopy(draw(VALUES))  # a fresh copy: later mutations must not reach VALUES
        elif op == "nudge" and isinstance(value, int) and not isinstance(value, bool):
            parent[path[-1]] = value + draw(st.sampled_from([-2, -1, 1, 2]))
        elif op == "delete":
            del parent[path[-1]]
        elif op == "dup" and isinstance(value, list) and value:
            value.insert(draw(st.integers(0, len(value))), copy.deepcopy(draw(st.sampled_from(value))))
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            parent[path[-1]], parent[j] = parent[j], parent[path[-1]]
        elif op == "copy":
            other = draw(st.sampled_from(slots))[1]
            parent[path[-1]] = copy.deepcopy(other)
        elif op == "frame" and d["stack"]:
            kind = draw(st.integers(0, len(FRAME_NAMES) - 1))
            params = [
                draw(st.one_of(st.integers(-1, 25), st.booleans(), st.lists(st.integers(-1, 170), max_size=3)))
                for _ in FRAMES[BY_KIND[kind].record].params
            ]
            at = draw(st.integers(0, len(d["stack"])))
            d["stack"][at : at + draw(st.integers(0, 1))] = [[kind, *params]]
        elif isinstance(value, list) and value:
            del value[draw(st.integers(0, len(value) - 1)) :]  # truncate
    return d


def _canonical(d: dict) -> dict:
    """The save as the engine writes it: effects in their canonical text."""
    d = copy.deepcopy(d)
    for frame in d["stack"]:
        if frame[0] == BAG:
            frame[1] = [{"effect": effects.to_text(effects.parse(item["effect"]))} for item in frame[1]]
    return d


def _sound(d: dict) -> None:
    try:
        game = Game.from_dict(d)
    except SaveError as exc:
        field = str(exc).split(": ", 1)[0]
        assert field and "\n" not in str(exc)
        return
    assert json.dumps(game.to_dict(), sort_keys=True) == json.dumps(_canonical(d), sort_keys=True)  # tells 1, 1.0 and true apart
    check(game)
    legal = game.legal_actions()
    assert bool(legal) != game.is_over
    for a in legal:
        other = game.clone()
        other.apply(a)
        check(other)


SETTINGS = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(max_examples=250, derandomize=True, **SETTINGS)
@given(mutated())
def test_any_mutated_save_is_refused_by_name_or_loads_sound(d):
    _sound(d)


@pytest.mark.slow
@settings(max_examples=5000, **SETTINGS)
@given(mutated())
def test_any_mutated_save_is_refused_by_name_or_loads_sound_long(d):
    _sound(d)


# ---------------------------------------------------------------- numpy integers


def test_numpy_integer_seed_gives_the_same_game_as_the_plain_int():
    assert Game(seed=np.int64(5)).to_dict() == Game(seed=5).to_dict()
    assert Game(seed=np.uint16(7)).to_dict() == Game(seed=7).to_dict()
    e = env()
    e.reset(seed=np.int64(5))
    assert e.unwrapped.game.to_dict() == Game(seed=np.int64(5)).to_dict()
    for bad in (True, np.bool_(True), 5.0, "5"):
        with pytest.raises(TypeError, match="seed must be an int"):
            Game(seed=bad)


def test_describe_action_takes_numpy_integers():
    assert describe_action(np.int64(3)) == describe_action(3) == "place a die showing 4"
    assert describe_action(np.int32(CATALOG.REST)) == "rest"
    for bad in (np.int64(-1), np.bool_(True), True, 3.0):
        with pytest.raises(ValueError, match="outside the catalog"):
            describe_action(bad)
