"""Every command of README.md's "The `wayfarers` command" table, run from the shell as shown there.

The command names are read from the README, so a command added to the table without a case here
fails ``test_every_readme_command_has_a_case``. Each case uses small arguments (few games, short
seconds), its defaults otherwise and its progress bar on, and checks real values in its output.
simulate/replay/play are checked only through what the README documents about them.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

README = Path(__file__).resolve().parent.parent / "README.md"
HAVE_TRAIN = bool(importlib.util.find_spec("torch") and importlib.util.find_spec("sb3_contrib"))
HAVE_REFERENCES = bool(importlib.util.find_spec("pygame") and importlib.util.find_spec("chess"))


def readme_rows() -> dict[str, str]:
    """Command name -> the command cell of its row in the README table."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## The `wayfarers` command", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(wayfarers (\w+)[^`]*)` \|", section, re.M)
    return {name: cell for cell, name in rows}


def wayfarers(*args: str, stdin: str | None = None, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "experiments.cli", *args]
    res = subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    assert "Traceback" not in res.stderr, res.stderr
    assert res.returncode == 0, res.stderr
    return res


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """`wayfarers simulate --players greedy,random --games N --seed S --workers K --out DIR`."""
    out = tmp_path_factory.mktemp("simulate") / "run"
    res = wayfarers("simulate", "--players", "greedy,random", "--games", "2", "--seed", "3", "--workers", "2", "--out", str(out))
    return out, res


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """`wayfarers train --config CONFIG --out DIR` on a config as small as training gets."""
    root = tmp_path_factory.mktemp("train")
    config = root / "tiny.yaml"
    tiny = {
        "name": "readme",
        "ppo": {"n_steps": 64, "batch_size": 32, "n_epochs": 1},
        "policy": {"net_arch": [16]},
        "training": {"timesteps": 128, "envs": 1, "checkpoint_every": 128},
        "evaluation": {"every": 128, "games": 1, "opponents": ["random"]},
    }
    config.write_text(yaml.safe_dump(tiny))
    out = root / "run"
    return out, wayfarers("train", "--config", str(config), "--out", str(out))


def case_cards(_request) -> None:
    table = wayfarers("cards", "--kind", "land").stdout
    count = int(re.search(r"LAND CARDS \((\d+) cards\)", table).group(1))
    cards = json.loads(wayfarers("cards", "--kind", "land", "--json").stdout)
    assert len(cards) == count > 0
    assert {c["kind"] for c in cards} == {"land"}
    assert all(re.search(rf"^{re.escape(c['id'])}\s", table, re.M) for c in cards)  # the same cards in the table


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """`wayfarers tournament --bots ... --players-per-game 2 --games N --seed S --workers K --out DIR`."""
    out = tmp_path_factory.mktemp("tournament") / "run"
    args = ["--bots", "random,cartographer", "--players-per-game", "2", "--games", "1", "--seed", "3", "--workers", "2"]
    return out, wayfarers("tournament", *args, "--out", str(out))


def case_tournament(request) -> None:
    import pyarrow.parquet as pq

    out, res = request.getfixturevalue("league")
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert [r["players"] for r in records] == [["random", "cartographer"], ["cartographer", "random"]]  # one deal, both seatings
    for name in ("random", "cartographer"):  # a leaderboard row per bot: rank, name, ..., its share of the wins
        wins = sum(len(r["winners"]) and (r["players"].index(name) in r["winners"]) / len(r["winners"]) for r in records)
        assert re.search(rf"^[12]\. {name}\s.*\s{100 * wins / 2:.1f}%\s", res.stdout, re.M), (name, res.stdout)
    rows = [row for p in (out / "logs").glob("*.parquet") for row in pq.read_table(p).to_pylist()]
    assert sorted((row["game"], row["bot"]) for row in rows) == [(0, "cartographer"), (0, "random"), (1, "cartographer"), (1, "random")]
    assert f"wrote 4 game-seat rows in 1 Parquet files under {out / 'logs'}" in res.stdout
    assert "2/2" in res.stderr  # the progress bar


def case_analyze(request) -> None:
    league, _res = request.getfixturevalue("league")
    dirs = [str(league)]
    if HAVE_TRAIN:
        dirs.append(str(request.getfixturevalue("trained")[0]))
    out = league.parent / "report"
    res = wayfarers("analyze", *dirs, "--out", str(out), "--min-seats", "1")
    plots = sorted(p.name for p in (out / "plots").glob("*.png"))
    assert "ratings.png" in plots and "vp_by_source.png" in plots and ("checkpoint_league.png" in plots) == HAVE_TRAIN
    assert f"wrote {out / 'report.html'}, {len(plots)} plots" in res.stdout
    page = (out / "report.html").read_text()
    assert page.count('<img src="data:image/png;base64,') == len(plots)
    assert re.search(r"^leaderboard: 1\. (random|cartographer) \(\d+\.\d% wins\), 2\. ", res.stdout, re.M)


def case_simulate(request) -> None:
    out, res = request.getfixturevalue("tournament")
    rates = {}  # the results table: a row per bot with its win rate (later tables break the rate down)
    for m in re.finditer(r"^(greedy|random)\s+(\d+\.\d)%", res.stdout, re.M):
        rates.setdefault(m.group(1), float(m.group(2)))
    assert set(rates) == {"greedy", "random"}
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 2 and all(sorted(r["players"]) == ["greedy", "random"] for r in records)
    for name, rate in rates.items():  # the win rates are those of the recorded games
        assert 0 <= rate <= 100
        if all(len(r["winners"]) == 1 for r in records):
            wins = sum(r["players"][r["winners"][0]] == name for r in records)
            assert rate == pytest.approx(100 * wins / len(records), abs=0.1)
    assert json.loads((out / "summary.json").read_text())
    assert "2/2" in res.stderr  # the progress bar


def case_replay(request) -> None:
    out, _res = request.getfixturevalue("tournament")
    record = json.loads((out / "games.jsonl").read_text().splitlines()[1])
    text = wayfarers("replay", str(out / "games.jsonl"), "--game", "1").stdout
    assert "score" in text.lower()
    for name, score in zip(record["players"], record["scores"]):  # each seat's recorded total, shown again
        assert re.search(rf"\b{name}\b.*\b{score['total']}\s*$", text, re.M), (name, score["total"])


def case_view(request) -> None:
    out, _res = request.getfixturevalue("tournament")
    record = json.loads((out / "games.jsonl").read_text().splitlines()[1])
    res = wayfarers("view", str(out / "games.jsonl"), "--game", "1")
    page = out / "game_1.html"
    assert res.stdout.startswith(f"wrote {page} (")
    text = page.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)</script>', text, re.S).group(1))
    assert data["scores"] == record["scores"] and len(data["steps"]) == len(record["actions"]) + 1
    assert "https://" not in text and "http://" not in text  # self-contained: nothing to fetch


def case_play(_request) -> None:
    answers = 8
    res = wayfarers("play", "--players", "human,greedy", stdin="1\n" * answers)  # then end of input
    assert res.stdout.count("choose") >= answers + 1  # every answer taken, then asked once more
    assert "greedy" in res.stdout and " 1. " in res.stdout  # the bot plays, the choices are numbered


def case_bench(_request) -> None:
    res = wayfarers("bench", "--seconds", "1", "--rounds", "2", "--players", "2")
    rates = dict(re.findall(r"^(wayfarers AEC 2p|wayfarers engine 2p \(no obs\)|connect_four_v3|chess_v6)\s+(\d+) ", res.stdout, re.M))
    assert int(rates["wayfarers AEC 2p"]) > 0 and int(rates["wayfarers engine 2p (no obs)"]) > 0
    if HAVE_REFERENCES:
        assert int(rates["connect_four_v3"]) > 0 and int(rates["chess_v6"]) > 0
    else:
        assert 'pip install -e ".[bench]"' in res.stderr
    assert re.search(r"peak RSS of this process: \d+ MiB", res.stdout)
    assert "bench: 100%" in res.stderr  # the progress bar, kept off stdout
    assert "loop/s" not in res.stdout


def case_train(request) -> None:
    out, res = request.getfixturevalue("trained")
    assert f"run directory: {out}" in res.stdout
    assert re.search(r"vs random\s+win rate [01]\.\d\d \[", res.stdout)
    assert "128/128" in res.stdout + res.stderr  # the progress bar ran to the end
    rows = list(csv.DictReader((out / "evaluations.csv").open()))
    assert [(r["timesteps"], r["opponent"], r["games"]) for r in rows] == [("128", "random", "1")]
    assert (out / "final_model.zip").is_file()


def case_evaluate(request) -> None:
    out, _res = request.getfixturevalue("trained")
    res = wayfarers("evaluate", str(out / "final_model.zip"), "--vs", "greedy,random", "--games", "2")
    rows = {line.split()[0]: line.split() for line in res.stdout.splitlines()[1:]}
    assert set(rows) == {"greedy", "random"}  # a results-table row per bot
    for cells in rows.values():
        assert int(cells[1]) == 2 and 0.0 <= float(cells[2]) <= 1.0
    assert "4/4" in res.stderr


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """`wayfarers dataset --players cartographer,greedy --games N --seed S --workers K --out FILE.npz`."""
    out = tmp_path_factory.mktemp("dataset") / "games.npz"
    res = wayfarers("dataset", "--players", "cartographer,greedy", "--games", "2", "--seed", "3", "--workers", "2", "--out", str(out))
    return out, res


def case_dataset(request) -> None:
    out, res = request.getfixturevalue("recorded")
    m = re.search(r"wrote (\S+): (\d+) decisions from 2 games \(([\d,]+) bytes, ([\d.]+) bytes a decision\)", res.stdout)
    assert m and m.group(1) == str(out), res.stdout
    decisions, size = int(m.group(2)), int(m.group(3).replace(",", ""))
    assert decisions > 100 and size == out.stat().st_size
    assert "2/2" in res.stderr  # the progress bar ran to the end
    from experiments.dataset import load_dataset

    data = load_dataset(out)
    assert len(data.action) == decisions  # every decision of both seats (the default --record)


def case_imitate(request) -> None:
    data, _res = request.getfixturevalue("recorded")
    model = data.parent / "bc.zip"
    res = wayfarers("imitate", "--data", str(data), "--out", str(model), "--epochs", "1")
    epoch = re.search(r"bc epoch 1/1 .* train acc (0\.\d+) .* val acc (0\.\d+)", res.stdout)
    baseline = re.search(r"masked-uniform baseline: train (0\.\d+), val (0\.\d+)", res.stdout)
    assert epoch and baseline, res.stdout
    assert float(epoch.group(1)) > float(baseline.group(1))  # one epoch already beats guessing among the legal moves
    assert f"wrote {model}" in res.stdout and model.is_file()
    played = wayfarers("evaluate", str(model), "--vs", "random", "--games", "2")
    assert played.stdout.splitlines()[1].split()[:2] == ["random", "2"]


CASES = {
    "cards": case_cards,
    "simulate": case_simulate,
    "tournament": case_tournament,
    "analyze": case_analyze,
    "replay": case_replay,
    "view": case_view,
    "play": case_play,
    "bench": case_bench,
    "train": case_train,
    "evaluate": case_evaluate,
    "dataset": case_dataset,
    "imitate": case_imitate,
}
NEEDS_TRAIN = {"train", "evaluate", "imitate"}


def test_every_readme_command_has_a_case():
    names = list(readme_rows())
    assert len(names) >= 7
    assert set(names) == set(CASES), f"README commands without a case here: {set(names) - set(CASES)}"


def test_every_option_in_the_readme_exists():
    for name, cell in readme_rows().items():
        help_text = wayfarers(name, "--help").stdout
        for option in re.findall(r"--[a-z][a-z-]*", cell):
            assert option in help_text, (name, option)


PARAMS = [pytest.param(name, marks=pytest.mark.train if name in NEEDS_TRAIN else ()) for name in CASES]


@pytest.mark.parametrize("name", PARAMS)
def test_readme_command(request, name):
    if name in NEEDS_TRAIN and not HAVE_TRAIN:
        pytest.skip('needs the [train] extra: pip install -e ".[train]"')
    CASES[name](request)
