"""The ``ismcts`` search bot: registered and playable from the command line, no search where
there is nothing to decide, reproducible, blind to hidden cards, options checked, stronger than
random. Small simulation counts keep the file quick; strength against the heuristics is a
measured figure (docs/RESULTS.md, "Search: ismcts"), not a test."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import bot_games
import numpy as np
import pytest

from agents.base import View
from agents.ismcts import BRANCHED, DEFAULT_SIMS, IsmctsBot, Options, _Node, parse_options
from agents.registry import BOTS, UnknownBotError, known_bots, make_bot
from wayfarers_env import Game, GameConfig

FAST = "ismcts:sims=8"


def wayfarers(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True, timeout=timeout)


def play(names: list[str], seed: int, limit: int) -> list[int]:
    return bot_games.play([make_bot(n) for n in names], seed, limit)


def positions(pick, count: int, seed: int = 0) -> list[Game]:
    """Positions of random games at which ``pick(game, legal)`` holds (a copy of each)."""
    out: list[Game] = []
    rng = random.Random(seed)
    for k in range(200):
        game = Game(GameConfig(), 900 + k)
        while not game.is_over and len(out) < count:
            legal = game.legal_actions()
            if pick(game, legal) and rng.random() < 0.2:
                out.append(game.clone())
            game.apply(rng.choice(legal))
        if len(out) == count:
            return out
    raise AssertionError("not enough positions")


# ------------------------------------------------------------------ registry and command line


def test_registered_under_its_name():
    assert "ismcts" in BOTS and "ismcts" in known_bots()
    bot = make_bot("ismcts")
    assert isinstance(bot, IsmctsBot) and bot.name == "ismcts" and bot.options == Options()
    assert bot.options.sims == DEFAULT_SIMS and bot.options.time == 0
    assert make_bot(" ISMCTS ").name == "ismcts"
    assert make_bot("ismcts") is not make_bot("ismcts")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Ten games against random, as a user runs them (seats rotate)."""
    out = tmp_path_factory.mktemp("ismcts") / "run"
    args = ["--games", "10", "--seed", "7", "--workers", "1", "--out", str(out), "--quiet"]
    proc = wayfarers("simulate", "--players", f"{FAST},random", *args)
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    return records, json.loads((out / "summary.json").read_text()), out


def test_simulate_plays_full_games_with_legal_actions_only(run):
    records, summary, _ = run
    assert len(records) == 10 and summary["games"] == 10
    for rec in records:
        assert rec["finished"] and FAST in rec["players"]
        game = Game(rec["config"], rec["seed"])
        for a in rec["actions"]:
            assert a in game.legal_actions()
            game.apply(a)
        assert game.is_over and game.scores() == rec["scores"]


def test_beats_random_in_every_game(run):
    records, summary, _ = run
    for rec in records:
        assert rec["winners"] == [rec["players"].index(FAST)], rec["scores"]
    assert summary["entrants"][FAST]["wins"] == 10


def test_timing_script_counts_the_searched_decisions(run):
    """benchmarks/ismcts_timing.py, as docs/RESULTS.md runs it: searched decisions are those with
    a choice of a searched kind, and each ran exactly ``sims`` simulations."""
    records, summary, out = run
    proc = subprocess.run([sys.executable, "-m", "benchmarks.ismcts_timing", str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    decisions = sum(r["seat_decisions"][r["players"].index(FAST)] for r in records)
    head, times = proc.stdout.splitlines()
    assert head.startswith(f"{FAST}: 10 games, {decisions} decisions, ")
    searched = int(head.split(", ")[2].split()[0])
    assert 0 < searched < decisions
    think = summary["entrants"][FAST]["think_s"]
    assert f"{1000 * think / searched:.1f} ms per searched decision" in times
    again = subprocess.run(
        [sys.executable, "-m", "benchmarks.ismcts_timing", str(out), "--resample", "50"], capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[:2] == [head, times]
    assert f"asked again at {searched // 50} searched decisions: " in again.stdout
    bad = subprocess.run([sys.executable, "-m", "benchmarks.ismcts_timing", str(out), "--bot", "greedy"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --bot 'greedy' did not play") and "random" in bad.stderr


def test_plays_as_a_training_opponent():
    from wayfarers_env.envs.wrappers import SingleAgentEnv

    bot = make_bot(FAST)
    env = SingleAgentEnv(opponents=bot, seat=0)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    steps = 0
    while bot.searches < 3 and steps < 400:
        legal = np.flatnonzero(env.action_masks())
        _obs, _reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert "illegal_action" not in info
        steps += 1
        if terminated or truncated:
            env.reset()
    assert bot.searches >= 3 and bot.simulations == 8 * bot.searches


# ---------------------------------------------------------------------- what costs a search


def test_forced_and_trivial_decisions_run_no_simulation():
    bot = IsmctsBot(Options(sims=7))
    for k, game in enumerate(positions(lambda g, legal: len(legal) == 1, 5)):
        legal = game.legal_actions()
        assert bot.decide(View(game, game.current_player, random.Random(k)), legal, random.Random(k)) == legal[0]
    trivial = positions(lambda g, legal: len(legal) > 1 and g.decision()[0] not in BRANCHED, 5, seed=1)
    for k, game in enumerate(trivial):
        legal = game.legal_actions()
        a = bot.decide(View(game, game.current_player, random.Random(k)), legal, random.Random(k))
        assert a == bot.policy(game.clone(), legal)  # the rule's answer
    assert bot.searches == 0 and bot.simulations == 0
    searched = positions(lambda g, legal: len(legal) > 1 and g.decision()[0] in BRANCHED, 3, seed=2)
    for k, game in enumerate(searched):
        bot.decide(View(game, game.current_player, random.Random(k)), game.legal_actions(), random.Random(k))
    assert bot.searches == 3 and bot.simulations == 3 * 7


def test_time_option_caps_a_search():
    bot = make_bot("ismcts:sims=1000000:time=0.02")
    (game,) = positions(lambda g, legal: len(legal) > 2 and g.decision()[0] == "turn", 1, seed=3)
    start = time.perf_counter()
    a = bot.decide(View(game, game.current_player, random.Random(0)), game.legal_actions(), random.Random(0))
    assert time.perf_counter() - start < 0.5
    assert a in game.legal_actions() and 1 <= bot.simulations < 1000000


# ---------------------------------------------------------------- determinism and secrecy


def test_same_seed_same_game():
    first = play([FAST, "random"], 11, limit=150)
    assert first == play([FAST, "random"], 11, limit=150)
    assert play(["random", FAST], 11, limit=150) != first


def _permute_unseen(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with the cards ``seat`` has not seen shuffled among their positions."""
    d = game.to_dict()
    changed = False
    for deck, known in zip(d["decks"], d["known"]):
        pos = [i for i in range(len(deck)) if not known[i] & (1 << seat)]
        cards = [deck[i] for i in pos]
        shuffled = cards[:]
        while len(set(cards)) > 1 and shuffled == cards:
            rng.shuffle(shuffled)
        changed |= shuffled != cards
        for i, c in zip(pos, shuffled):
            deck[i] = c
    assert changed
    return Game.from_dict(d)


def test_decisions_ignore_the_order_of_unseen_cards():
    """Searched positions where seeing the decks would pay (draws among the choices): the true
    order of the unseen cards changes nothing, because the bot only ever plays in its View's
    determinizations."""
    from wayfarers_env.rules.actions import CATALOG, LEAF_INDEX

    draws = {CATALOG.DRAW, CATALOG.LEAF[LEAF_INDEX["draw_land"]], CATALOG.LEAF[LEAF_INDEX["draw_water"]]}
    found = positions(lambda g, legal: g.decision()[0] in BRANCHED and bool(draws & set(legal)), 8, seed=4)
    bot = make_bot("ismcts:sims=24")
    for k, game in enumerate(found):
        seat = game.current_player
        other = _permute_unseen(game, seat, random.Random(k))
        legal = game.legal_actions()
        picks = [bot.decide(View(g, seat, random.Random(k)), legal, random.Random(k)) for g in (game, other)]
        assert picks[0] == picks[1], (k, game.decision())


# ------------------------------------------------------------------------------- options


def test_options_parse_and_name_the_bot():
    opts = parse_options("sims=200:time=0.05:c=1.5:reply=0:worlds=4")
    assert opts == Options(sims=200, time=0.05, c=1.5, reply=0, worlds=4)
    bot = make_bot("ismcts:sims=200:time=0.05")
    assert bot.options == Options(sims=200, time=0.05)
    assert bot.name == "ismcts:sims=200:time=0.05"
    assert make_bot(bot.name).options == bot.options


@pytest.mark.parametrize(
    "name, words",
    [
        ("ismcts:simz=5", ["'simz'", "sims=", "time="]),
        ("ismcts:sims=0", ["sims='0'", "1..1000000"]),
        ("ismcts:sims=many", ["sims='many'", "whole number"]),
        ("ismcts:time=-1", ["time='-1'", "seconds"]),
        ("ismcts:time=nan", ["time='nan'"]),
        ("ismcts:sims", ["'sims' needs a value"]),
        ("ismcts:", ["empty option", "sims="]),
        ("ismcts:sims=5:sims=6", ["twice"]),
    ],
)
def test_bad_option_names_what_is_allowed(name, words):
    with pytest.raises(UnknownBotError) as err:
        make_bot(name)
    for w in words:
        assert w in str(err.value)


def test_bad_option_on_the_command_line(tmp_path):
    out = tmp_path / "out"
    proc = wayfarers("simulate", "--players", "ismcts:simz=5,random", "--games", "2", "--out", str(out))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "'simz'" in proc.stderr and "sims=" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


# ---------------------------------------------------------------- guided by a trained policy


def _searched(count: int, seed: int = 3) -> list[Game]:
    return positions(lambda g, legal: g.decision()[0] in BRANCHED and len(legal) >= 3, count, seed=seed)


def test_guide_prior_is_the_policys_masked_distribution_and_value_its_value_head(tiny_model):
    """The prior is what MaskablePPO samples from (summing to 1 over the legal actions only) and
    the value is the value head's on the env's own observation of the seat."""
    import torch

    from agents.guide import Guide
    from wayfarers_env.envs.observation import encode

    guide = Guide(tiny_model)
    for game in _searched(4):
        seat, legal = game.current_player, game.legal_actions()
        prior = guide.prior(game, seat, legal)
        assert set(prior) == set(legal) and abs(sum(prior.values()) - 1) < 1e-5
        assert len({round(p, 6) for p in prior.values()}) > 1  # an untrained net is not uniform
        obs = guide.policy.obs_to_tensor(encode(game, seat))[0]
        with torch.no_grad():
            assert guide.value(game, seat) == pytest.approx(float(guide.policy.predict_values(obs)[0, 0]), abs=1e-6)
        best = max(legal, key=lambda a: prior[a])
        assert guide.model.predict(encode(game, seat), action_masks=_mask_of(legal), deterministic=True)[0] == best


def _mask_of(legal: list[int]) -> np.ndarray:
    from wayfarers_env.rules.actions import NUM_ACTIONS

    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[legal] = True
    return mask


def test_prior_steers_the_roots_visits(tiny_model, monkeypatch):
    """PUCT at the root: a prior that backs one action draws the simulations to it, where the
    unguided search spreads them by value alone."""
    from agents.guide import Guide

    game = _searched(1, seed=5)[0]
    seat, legal = game.current_player, game.legal_actions()
    plain = make_bot("ismcts:sims=80")
    plain_root = plain.tree(View(game, seat, random.Random(1)), random.Random(1), time.perf_counter(), legal)
    least = min(legal, key=lambda a: (plain_root.children[a].visits, a))
    monkeypatch.setattr(Guide, "prior", lambda self, g, s, lg: {a: float(a == least) for a in lg})
    guided = make_bot(f"ismcts:sims=80:policy={tiny_model}:prior=50")
    root = guided.tree(View(game, seat, random.Random(1)), random.Random(1), time.perf_counter(), legal)
    visits = {a: ch.visits for a, ch in root.children.items()}
    assert max(visits, key=lambda a: visits[a]) == least, (visits, plain_root.children[least].visits)
    assert visits[least] > plain_root.children[least].visits


def test_a_constant_value_changes_no_choice(tiny_model, monkeypatch):
    """The value enters as VP added to every rollout's score; the same value everywhere shifts
    every score alike and the search (normalised by its own bounds) picks the same actions."""
    from agents.guide import Guide

    asked: list[int] = []
    monkeypatch.setattr(Guide, "value", lambda self, g, s: asked.append(s) or 0.5)
    plain = make_bot("ismcts:sims=30")
    guided = make_bot(f"ismcts:sims=30:policy={tiny_model}:prior=0:value=2")
    for k, game in enumerate(_searched(5, seed=6)):
        seat, legal = game.current_player, game.legal_actions()
        picks = [bot.decide(View(game, seat, random.Random(k)), legal, random.Random(k)) for bot in (plain, guided)]
        assert picks[0] == picks[1]
        assert asked == [seat] * 30  # asked once a simulation, for the searching seat
        asked.clear()


def test_guided_bot_replays_and_plays_from_the_command_line(tiny_model, tmp_path):
    name = f"ismcts:sims=8:policy={tiny_model}:value=1"
    assert play([name, "random"], 2, 150) == play([name, "random"], 2, 150)
    out = tmp_path / "run"
    proc = wayfarers("simulate", "--players", f"{name},random", "--games", "1", "--seed", "3", "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    record = json.loads((out / "games.jsonl").read_text().splitlines()[0])
    assert record["finished"] and name in record["players"]


@pytest.mark.parametrize(
    "options, words",
    [
        ("sims=8:prior=2", ["prior", "policy=PATH"]),
        ("value=1:prior=2", ["prior and value", "policy=PATH"]),
        ("policy=/no/such/model.zip", ["/no/such/model.zip", "no trained policy"]),
        ("policy=", ["'policy' needs a value"]),
    ],
)
def test_guidance_options_are_checked(options, words):
    with pytest.raises(UnknownBotError) as err:
        make_bot(f"ismcts:{options}")
    for w in words:
        assert w in str(err.value)


# ------------------------------------------------------------------ common worlds (crn)


def _worlds_played(crn: int, monkeypatch) -> tuple[list[tuple[int, int]], list[int]]:
    """Search one position with 4 worlds and 40 simulations: per simulation, (the root action it
    went down, the index of the world it was played in); and the worlds in simulation order."""
    (game,) = _searched(1, seed=4)
    legal = game.legal_actions()
    bot = IsmctsBot(Options(sims=40, worlds=4, crn=crn))
    view = View(game, game.current_player, random.Random(0))
    worlds = [view.game]
    sample, clone = View.sample, Game.clone
    cloned: list[int] = []  # per clone made in the search: the index of the world cloned (-1: another game)
    sampling = [False]

    def recording_sample(self, rng):
        sampling[0] = True  # drawing a world clones the first one: not a simulation
        worlds.append(sample(self, rng))
        sampling[0] = False
        return worlds[-1]

    def recording_clone(self):
        if not sampling[0]:
            cloned.append(next((i for i, w in enumerate(worlds) if w is self), -1))
        return clone(self)

    went: list[int] = []  # per simulation: id of the root child it went down
    common, descend = IsmctsBot._common_world_step, IsmctsBot._descend

    def recording_common(self, *args):
        path, g, w = common(self, *args)
        went.append(id(path[0]))
        return path, g, w

    def recording_descend(self, g, node, *args, **kwargs):
        path = descend(self, g, node, *args, **kwargs)
        if not crn:  # only the root calls it without common worlds: its path starts at the root's child
            went.append(id(path[0]))
        return path

    monkeypatch.setattr(View, "sample", recording_sample)
    monkeypatch.setattr(Game, "clone", recording_clone)
    monkeypatch.setattr(IsmctsBot, "_common_world_step", recording_common)
    monkeypatch.setattr(IsmctsBot, "_descend", recording_descend)
    root = bot.tree(view, random.Random(0), time.perf_counter(), legal)
    monkeypatch.undo()
    from_worlds = [i for i in cloned if i >= 0]
    assert len(from_worlds) == 40 == root.visits  # one world cloned per simulation, nothing else cloned from one
    action_of = {id(node): a for a, node in root.children.items()}
    return [(action_of[w], k) for w, k in zip(went, from_worlds, strict=True)], from_worlds


def test_common_worlds_value_each_root_child_in_the_same_worlds(monkeypatch):
    """With crn=1 the k-th visit of every root child plays in world k (mod the worlds): children are
    compared over the same deck orders and dice, not each over its own."""
    iterations, _ = _worlds_played(1, monkeypatch)
    per_child: dict[int, list[int]] = {}
    for a, world in iterations:
        per_child.setdefault(a, []).append(world)
    assert len(per_child) >= 3
    for a, seq in per_child.items():
        assert seq == [k % 4 for k in range(len(seq))], (a, seq)
    assert max(len(seq) for seq in per_child.values()) > 4  # some child came round to world 0 again


def test_without_common_worlds_simulation_i_plays_world_i(monkeypatch):
    iterations, worlds = _worlds_played(0, monkeypatch)
    assert worlds == [i % 4 for i in range(40)]
    first_visits = {}
    for i, (a, _w) in enumerate(iterations):
        first_visits.setdefault(a, i)
    assert len({worlds[i] for i in first_visits.values()}) > 1  # the root's children start in different worlds


def test_common_worlds_choose_legally_and_reproducibly():
    for k, game in enumerate(_searched(3, seed=5)):
        legal = game.legal_actions()
        picks = {
            IsmctsBot(Options(sims=30, crn=1)).decide(View(game, game.current_player, random.Random(k)), legal, random.Random(k))
            for _ in range(2)
        }
        assert len(picks) == 1 and picks <= set(legal)
    assert make_bot("ismcts:crn=1").options.crn == 1
    with pytest.raises(UnknownBotError, match="crn"):
        make_bot("ismcts:crn=2")


# ------------------------------------------------------------------ the final choice


def test_final_1_plays_the_most_visited_root_child_and_final_0_the_highest_value(monkeypatch):
    """``final=1`` picks the root child with the most visits (ties: value, then the lower id), the
    default the child of highest value, both read off the same tree. The two rules mostly agree on
    a real search, so the tree here is one where they disagree: a child visited most whose value
    is not the highest."""
    game = _searched(1, seed=11)[0]
    legal = game.legal_actions()
    a, b, c = legal[:3]

    def tree(self, view, rng, start, legal, rule=None):
        root = _Node()
        for action, visits, value in ((a, 10, 1.0), (b, 3, 2.0), (c, 10, 0.5)):
            child = root.children[action] = _Node()
            child.visits, child.value = visits, value
        root.visits = 23
        return root

    monkeypatch.setattr(IsmctsBot, "tree", tree)
    view = View(game, game.current_player, random.Random(0))
    picks = {final: IsmctsBot(Options(final=final)).search(view, legal, random.Random(0), time.perf_counter()) for final in (0, 1)}
    assert picks == {0: (b, 23), 1: (a, 23)}  # final=1: a and c tie on visits, a has the higher value
    assert make_bot("ismcts:final=1").options.final == 1
    with pytest.raises(UnknownBotError, match="final"):
        make_bot("ismcts:final=2")


# ------------------------------------------------------------------ the backup


def test_backup_takes_the_best_child_the_most_visited_child_or_the_mean():
    """A node with children is worth its best child's value (``backup=0``, the default), its most
    visited child's (``backup=1``; ties: the higher value), or the mean of every rollout through
    it (``backup=2``, plain UCT); a leaf is always worth its mean."""
    node = _Node()
    node.visits, node.total = 8, 12.0  # mean 1.5
    for action, visits, value in ((1, 5, 1.0), (2, 2, 3.0), (3, 5, 0.5)):
        child = node.children[action] = _Node()
        child.visits, child.value = visits, value
    values = {backup: IsmctsBot(Options(backup=backup)).backed_up(node) for backup in (0, 1, 2)}
    assert values == {0: 3.0, 1: 1.0, 2: 1.5}  # backup=1: children 1 and 3 tie on visits, 1 has the higher value
    leaf = _Node()
    leaf.visits, leaf.total = 4, 2.0
    assert {IsmctsBot(Options(backup=b)).backed_up(leaf) for b in (0, 1, 2)} == {0.5}
    assert make_bot("ismcts:backup=2").options.backup == 2
    with pytest.raises(UnknownBotError, match="backup"):
        make_bot("ismcts:backup=3")


# ------------------------------------------------------------------ the cartographer's search (playout, top, depth, kinds)

LED = "ismcts:playout=cartographer:top=3:depth=1:crn=1:reply=0:kinds=turn:worlds=2:sims=6"  # small and cheap


def _main_actions(count: int, seed: int) -> list[Game]:
    """Positions where a seat chooses its main action among several."""
    return positions(lambda g, legal: len(legal) > 2 and g.decision()[0] == "turn", count, seed)


def test_cartographer_options_parse_and_name_the_bot():
    bot = make_bot(LED)
    assert bot.options == Options(playout="cartographer", top=3, depth=1, crn=1, reply=0, kinds="turn", worlds=2, sims=6)
    assert make_bot(bot.name).options == bot.options
    assert make_bot("ismcts:playout=Cartographer:kinds=TURN").options == Options(playout="cartographer", kinds="turn")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ("playout=greedy", "playout is one of rule, cartographer"),
        ("kinds=main", "kinds is one of all, turn"),
        ("top=-1", "top is the root actions searched"),
        ("depth=x", "depth is the tree levels"),
        ("margin=nan", "margin is the VP below"),
    ],
)
def test_cartographer_options_are_checked(options, words):
    with pytest.raises(UnknownBotError, match=words):
        make_bot(f"ismcts:{options}")


def test_top_searches_only_the_cartographers_best_main_actions(monkeypatch):
    """With ``top=3`` the root's children are the cartographer's three best main actions within
    the margin (its own pick among them) and the choice is one of them; ``top=1`` leaves nothing
    to search: the cartographer's pick, no simulation."""
    from agents.strategies import Cartographer

    seen: list[list[int]] = []
    search = IsmctsBot.search
    monkeypatch.setattr(IsmctsBot, "search", lambda self, v, lg, r, s, rule=None: seen.append(lg) or search(self, v, lg, r, s, rule))
    for k, game in enumerate(_main_actions(4, seed=21)):
        seen.clear()
        seat, legal = game.current_player, game.legal_actions()
        cart = Cartographer()
        pick = cart.decide(View(game, seat, random.Random(k)), legal, random.Random(k))
        actions, values = cart.last_values
        best = max(values)
        ranked = [a for _v, a in sorted(zip(values, actions), key=lambda va: (-va[0], va[1])) if _v >= best - 3.0][:3]
        expected = ranked if pick in ranked else [pick, *ranked[:2]]
        bot = make_bot(LED)
        choice = bot.decide(View(game, seat, random.Random(k)), legal, random.Random(k))
        if len(expected) > 1:
            assert seen == [expected] and choice in expected and bot.simulations == 6
        else:
            assert seen == [] and choice == pick
        one = make_bot("ismcts:top=1:playout=cartographer")
        assert one.decide(View(game, seat, random.Random(k)), legal, random.Random(k)) == pick and one.simulations == 0


def test_depth_1_branches_only_at_the_root():
    """``depth=1``: every simulation adds at most a root child, the rest is played out; without a
    limit the tree grows below the root."""
    game = _main_actions(1, seed=7)[0]
    seat, legal = game.current_player, game.legal_actions()
    trees = {}
    for depth in (0, 1):
        bot = IsmctsBot(Options(sims=60, depth=depth))
        trees[depth] = bot.tree(View(game, seat, random.Random(2)), random.Random(2), time.perf_counter(), legal)
    assert all(not child.children for child in trees[1].children.values())
    assert sum(child.visits for child in trees[1].children.values()) == 60
    assert any(child.children for child in trees[0].children.values())


def test_kinds_turn_answers_the_rest_as_the_cartographer():
    """With ``playout=cartographer:kinds=turn`` every decision but the main action is the
    cartographer's own answer (same view, same rng); the main action is searched."""
    from agents.strategies import Cartographer

    rest = positions(lambda g, legal: len(legal) > 1 and g.decision()[0] in BRANCHED - {"turn"}, 6, seed=8)
    bot = make_bot(LED)
    for k, game in enumerate(rest):
        seat, legal = game.current_player, game.legal_actions()
        mine = bot.decide(View(game, seat, random.Random(k)), legal, random.Random(k))
        assert mine == Cartographer().decide(View(game, seat, random.Random(k)), legal, random.Random(k))
    assert bot.searches == 0
    main = _main_actions(3, seed=9)
    for k, game in enumerate(main):
        bot.decide(View(game, game.current_player, random.Random(k)), game.legal_actions(), random.Random(k))
    assert bot.searches >= 1


def test_cartographer_playouts_are_reproducible_and_play_whole_games():
    first = play([LED, "cartographer"], 13, limit=120)
    assert first == play([LED, "cartographer"], 13, limit=120)
    mine = play([LED, "random"], 4, limit=10_000)
    game = Game(GameConfig(), 4)
    for a in mine:
        assert a in game.legal_actions()
        game.apply(a)
    assert game.is_over and game.winners() == [0]


def test_timing_script_counts_only_main_actions_with_kinds_turn(tmp_path):
    """A ``kinds=turn`` bot searches main actions alone: the timing script's searched decisions
    are its main actions with a choice, counted from the run's records."""
    out = tmp_path / "run"
    proc = wayfarers("simulate", "--players", f"{LED},random", "--games", "1", "--seed", "2", "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    (rec,) = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    seat = rec["players"].index(LED)
    game, main = Game(rec["config"], rec["seed"]), 0
    for a in rec["actions"]:
        main += game.current_player == seat and len(game.legal_actions()) > 1 and game.decision()[0] == "turn"
        game.apply(a)
    timing = subprocess.run([sys.executable, "-m", "benchmarks.ismcts_timing", str(out)], capture_output=True, text=True, timeout=120)
    assert timing.returncode == 0, timing.stderr
    assert f", {main} searched (" in timing.stdout.splitlines()[0] and main > 10
