"""``python -m benchmarks.bot_duel`` as a user runs it: the before/after table of docs/RESULTS.md.

A real run here takes today's ``agents/`` folder as the "before" checkout too (any agents folder
loads as ``agents_before``), so the old and new bots are the same code: on the same deals and
draws they must play the same games, which the records show.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def duel(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmarks.bot_duel", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(
    "args,says",
    [
        (["--games", "3"], "--games: must be an even number of games"),
        (["--games", "0"], "--games: must be an even number of games"),
        (["--workers", "0"], "--workers: must be a whole number of processes"),
        (["--seed", "x"], "--seed: must be an integer"),
        (["--bots", "greedy,chess"], "--bots 'greedy,chess': two or more different names of greedy, journal, astronomer, cartographer"),
        (["--bots", "greedy"], "two or more different names"),
        (["--before", "/nonexistent"], "--before /nonexistent: not an agents/ folder"),
        ([], "give --before (the old agents/ folder) and --out (a new folder), or --table FOLDER"),
    ],
)
def test_bad_arguments_are_one_line_errors_and_write_nothing(tmp_path, args, says):
    out = tmp_path / "run"
    full = [*args]
    if "--before" not in args and args:
        full += ["--before", str(ROOT / "agents")]
    if args:
        full += ["--out", str(out)]
    r = duel(*full)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("error: ") and says in r.stderr and r.stderr.count("\n") == 1
    assert "Traceback" not in r.stderr and not out.exists()


def test_an_existing_out_folder_is_refused_and_kept(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "games.jsonl").write_text("kept\n")
    r = duel("--before", str(ROOT / "agents"), "--out", str(out), "--games", "2")
    assert r.returncode == 2 and r.stderr.startswith("error: --out") and "exists" in r.stderr
    assert (out / "games.jsonl").read_text() == "kept\n"


def test_table_of_a_folder_without_records_is_an_error(tmp_path):
    r = duel("--table", str(tmp_path))
    assert r.returncode == 2 and r.stderr == f"error: --table {tmp_path}: no games.jsonl there; give the --out folder of a finished run\n"


def test_a_run_plays_every_matchup_on_the_same_deals_and_prints_its_tables(tmp_path):
    """Two bots, two games a matchup: before (old pair), after (new pair), each new bot against its
    old self. With the same code on both sides, 'before' and 'after' are the same games."""
    out = tmp_path / "run"
    r = duel("--before", str(ROOT / "agents"), "--out", str(out), "--games", "2", "--bots", "greedy,journal", "--workers", "2")
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    matchups = [(x["section"], *x["matchup"]) for x in records]
    assert sorted(set(matchups)) == sorted(
        {
            ("before", "greedy@before", "journal@before"),
            ("after", "greedy", "journal"),
            ("new vs old", "greedy", "greedy@before"),
            ("new vs old", "journal", "journal@before"),
        }
    )
    assert all(matchups.count(m) == 2 for m in set(matchups))
    before = {x["game"]: x for x in records if x["section"] == "before"}
    after = {x["game"]: x for x in records if x["section"] == "after"}
    for i in (0, 1):
        assert before[i]["totals"] == after[i]["totals"] and before[i]["turns"] == after[i]["turns"]
        assert [p.replace("@before", "") for p in before[i]["players"]] == after[i]["players"]
    assert before[0]["players"][0] == "greedy@before" and before[1]["players"][0] == "journal@before"  # seats rotated
    assert "| after | greedy vs journal | 2 |" in r.stdout and "| greedy@before | 4 |" in r.stdout
    again = duel("--table", str(out))
    assert again.returncode == 0 and again.stdout == r.stdout


def test_the_waste_counter_replays_a_simulate_run(tmp_path):
    """``python benchmarks/bot_wastes.py GAMES.jsonl`` (the before/after waste counts of RESULTS):
    a simulate run's games replayed, one row per bot; a file it cannot replay is a one-line error."""
    out = tmp_path / "sim"
    command = ["simulate", "--players", "random,greedy", "--games", "2", "--seed", "3", "--out", str(out), "--quiet"]
    sim = subprocess.run([sys.executable, "-m", "experiments.cli", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert sim.returncode == 0, sim.stderr
    r = subprocess.run([sys.executable, "benchmarks/bot_wastes.py", str(out / "games.jsonl")], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ") for line in r.stdout.splitlines()[2:]}
    assert set(rows) == {"greedy", "random"} and rows["greedy"][1] == "2" and int(rows["random"][2]) > 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"config": {}, "seed": 1, "players": ["a", "b"], "actions": [99999]}\n')
    r = subprocess.run([sys.executable, "benchmarks/bot_wastes.py", str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith(f"error: {bad}: cannot replay it") and r.stderr.count("\n") == 1
