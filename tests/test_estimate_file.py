"""Estimate files (``agents.estimate_file``), the bots that play them, and ``experiments.estimate_fit``."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys

import numpy as np
import pytest

from agents.estimate_file import EstimateFileError, load, save
from agents.evaluation import NEUTRAL, Estimate, evaluate, potential
from agents.registry import UnknownBotError, make_bot
from agents.strategies import Cartographer
from experiments.estimate_fit import units, weight_names, weights
from wayfarers_env import Game, GameConfig
from wayfarers_env.envs.players import View


def played(seed: int, steps: int) -> Game:
    game = Game(GameConfig(num_players=2), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def test_a_saved_estimate_loads_back_field_for_field(tmp_path):
    est = dataclasses.replace(Cartographer.estimate, journal_open=3.5, symmetric=True, end_spread=2.0, asset_extra=(1.0, 0.0, -0.5, 0.25))
    save(est, tmp_path / "e.json")
    assert load(tmp_path / "e.json") == est


def test_a_strategy_plays_the_file_over_its_own_weights(tmp_path):
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"journal_open": 6.0, "tags": {"comet": 1.0}}))
    bot = make_bot(f"cartographer:estimate={path}")
    assert bot.estimate.journal_open == 6.0 and bot.estimate.tags == {"comet": 1.0}
    assert bot.estimate.unique_set == Cartographer.estimate.unique_set  # left out: the cartographer's own
    assert bot.name == f"cartographer:estimate={path}"
    search = make_bot(f"ismcts:sims=5:estimate={path}")
    assert search.estimate.journal_open == 6.0 and search.estimate.land_card == Cartographer.estimate.land_card


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"jornal_open": 1}', "unknown field 'jornal_open'; fields: silver,"),
        ('{"silver": "a lot"}', "silver must be a finite number, got 'a lot'"),
        ('{"silver": NaN}', "silver must be a finite number, got nan"),
        ('{"asset_extra": [1, 2]}', "asset_extra is a list of 4 numbers (camel, ship, pigeon, telescope)"),
        ('{"tags": {"dragon": 1}}', "tags maps tag names (city, vista,"),
        ('{"symmetric": 1}', "symmetric must be true or false"),
        ('{"resource_cap": 2.5}', "resource_cap must be a whole number of at least 0"),
        ("[1, 2]", "an estimate is a JSON object of Estimate fields, got list"),
        ("{not json", "is not readable JSON"),
    ],
)
def test_a_broken_estimate_file_is_named_and_refused(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(EstimateFileError) as err:
        load(path)
    assert message in str(err.value)
    with pytest.raises(UnknownBotError, match="estimate"):  # what a bot name with that file raises
        make_bot(f"cartographer:estimate={path}")


def test_a_missing_file_or_unknown_strategy_option_is_refused(tmp_path):
    with pytest.raises(EstimateFileError, match="does not exist"):
        make_bot(f"astronomer:estimate={tmp_path / 'none.json'}")
    for bad in ("journal:depth=3", "journal:worlds=0", "journal:worlds=x", "journal:estimate="):
        with pytest.raises(UnknownBotError, match="options: estimate=PATH .* and worlds=1..64"):
            make_bot(bad)


def test_worlds_values_a_choice_in_several_determinizations():
    game = played(5, 120)
    while game.decision()[0] != "turn" or len(game.legal_actions()) < 3:
        game.apply(game.legal_actions()[0])
    seat, legal = game.state.current, game.legal_actions()
    one, four = make_bot("cartographer"), make_bot("cartographer:worlds=4")
    assert four.worlds == 4 and four.name == "cartographer:worlds=4"
    samples = []
    original = View.sample

    def counting(view, rng):
        samples.append(1)
        return original(view, rng)

    View.sample = counting
    try:
        one.decide(View(game, seat, random.Random(1)), legal, random.Random(1))
        assert samples == []  # one world: the view's own determinization only
        choice = four.decide(View(game, seat, random.Random(1)), legal, random.Random(1))
        assert len(samples) == 3 and choice in legal
    finally:
        View.sample = original


def test_symmetric_values_the_opponent_with_the_same_weights():
    game = played(3, 300)
    rich = dataclasses.replace(NEUTRAL, worker=5.0)
    plain, sym = evaluate(game, 0, rich), evaluate(game, 0, dataclasses.replace(rich, symmetric=True))
    workers = sum(game.state.players[1].workers)
    assert workers > 0 and sym < plain  # the opponent's workers now count 5 VP each too
    assert evaluate(game, 0, dataclasses.replace(NEUTRAL, symmetric=True)) == evaluate(game, 0, NEUTRAL)


def test_a_narrower_spread_makes_a_lead_count_for_more():
    for seed in range(20):
        game = played(seed, 250)
        lead = evaluate(game, 0, dataclasses.replace(NEUTRAL, win_bonus=0.0, closing=0.0))  # mine - rival
        if game.state.end_trigger >= 0 or abs(lead) < 1:
            continue
        base = evaluate(game, 0, NEUTRAL)
        narrow = evaluate(game, 0, dataclasses.replace(NEUTRAL, spread_per_horizon=10.0))
        assert (narrow - base) * lead > 0  # a lead's win guess grows, a deficit's shrinks
        return
    pytest.fail("no position with a lead in 20 games")


def test_the_fit_features_are_potential_itself():
    """``potential`` is linear in every weight, so the fit's features reproduce it exactly."""
    names = weight_names()
    feats = units(names)
    for est in (NEUTRAL, Cartographer.estimate):
        w = weights(est, names)
        for seed in (1, 2):
            game = played(seed, 400)
            for seat in (0, 1):
                f = np.array([potential(game.state, seat, u) for u in feats])
                assert f @ w == pytest.approx(potential(game.state, seat, est), abs=1e-9)


def test_estimate_fit_from_the_shell_fits_and_writes_a_playable_file(tmp_path):
    simulate = ["simulate", "--players", "greedy,random", "--games", "5", "--seed", "3", "--quiet", "--out", str(tmp_path / "run")]
    sim = subprocess.run([sys.executable, "-m", "experiments.cli", *simulate], capture_output=True, text=True, timeout=300)
    assert sim.returncode == 0, sim.stderr
    out = tmp_path / "fitted.json"
    cmd = [sys.executable, "-m", "experiments.estimate_fit", str(tmp_path / "run" / "games.jsonl"), "--steps", "300", "--out", str(out)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    rows = {
        line.split()[0]: [float(x) for x in line.split()[1:]]
        for line in res.stdout.splitlines()
        if line.split() and line.split()[0] in ("neutral", "cartographer", "fitted")
    }
    assert set(rows) == {"neutral", "cartographer", "fitted"}
    assert rows["fitted"][0] < rows["cartographer"][0]  # the fit lowers the loss on the games it fits
    fitted = make_bot(f"cartographer:estimate={out}").estimate
    assert fitted.symmetric and fitted != Cartographer.estimate and isinstance(fitted, Estimate)


def test_nonnegative_keeps_every_fitted_weight_at_zero_or_above(tmp_path):
    simulate = ["simulate", "--players", "journal,random", "--games", "4", "--seed", "5", "--quiet", "--out", str(tmp_path / "run")]
    assert subprocess.run([sys.executable, "-m", "experiments.cli", *simulate], capture_output=True, timeout=300).returncode == 0
    names = weight_names()
    fitted = {}
    for flag in ([], ["--nonnegative"]):
        out = tmp_path / f"fit{len(flag)}.json"
        cmd = [
            sys.executable,
            "-m",
            "experiments.estimate_fit",
            str(tmp_path / "run" / "games.jsonl"),
            "--steps",
            "400",
            "--ridge",
            "0",
            "--out",
            str(out),
        ]
        res = subprocess.run([*cmd, *flag], capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        fitted[bool(flag)] = weights(load(out), names)
    assert fitted[False].min() < 0  # unconstrained, a random opponent's holdings make some weight negative
    assert fitted[True].min() >= 0


def test_estimate_fit_refuses_what_it_cannot_read(tmp_path):
    run = [sys.executable, "-m", "experiments.estimate_fit"]
    res = subprocess.run([*run, str(tmp_path / "none.jsonl")], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "none.jsonl: no such file" in res.stderr and "Traceback" not in res.stderr
    res = subprocess.run([*run, str(tmp_path), "--ridge", "-1"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "--ridge must be a number of at least 0" in res.stderr
