"""``python -m benchmarks.paired_duel``: two bots on paired deals, seats swapped."""

from __future__ import annotations

import json
import re
import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmarks.paired_duel", *args], capture_output=True, text=True, timeout=300)


def test_a_bot_against_itself_wins_exactly_half_of_each_deal():
    res = run("journal", "journal", "--deals", "2", "--seed", "4")
    assert res.returncode == 0, res.stderr
    assert "4 games on 2 paired deals (seed 4)" in res.stdout
    assert "win rate 50.0%  95% interval 50.0-50.0%" in res.stdout  # same deal, same generators: the seats' games mirror
    vp = re.search(r"VP ([\d.]+) vs ([\d.]+)", res.stdout)
    assert vp and vp[1] == vp[2]


def test_a_stronger_bot_wins_most_deals():
    res = run("journal", "random", "--deals", "2", "--seed", "1")
    assert res.returncode == 0, res.stderr
    assert "win rate 100.0%" in res.stdout


def test_a_bad_bot_name_is_one_usage_error():
    res = run("journal", "nope")
    assert res.returncode == 2 and "second: unknown bot 'nope'" in res.stderr and "Traceback" not in res.stderr
    res = run("cartographer:worlds=99", "journal")
    assert res.returncode == 2 and "first: cartographer: bad option 'worlds=99'" in res.stderr


def test_out_keeps_each_game_and_against_compares_deal_by_deal(tmp_path):
    out = tmp_path / "journal.jsonl"
    res = run("journal", "random", "--deals", "2", "--seed", "1", "--out", str(out))
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["deal"], r["seat"]) for r in rows] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert all(r["first"] == "journal" and r["second"] == "random" and r["share"] == 1.0 for r in rows)
    assert all(r["vp"][0] > r["vp"][1] for r in rows)
    # random against random on the same deals: worse than journal on every deal it does not win in both seatings
    res = run("random", "random", "--deals", "2", "--seed", "1", "--against", str(out))
    assert res.returncode == 0, res.stderr
    line = next(x for x in res.stdout.splitlines() if x.startswith("against journal"))
    assert "on the same 2 deals: better on 0, worse on 2, the same on 0; win rate -50.0 points" in line
    # a third deal the earlier run did not play is left out of the comparison
    res = run("journal", "random", "--deals", "3", "--seed", "1", "--against", str(out))
    assert "on the same 2 deals: better on 0, worse on 0, the same on 2; win rate +0.0 points" in res.stdout


def test_against_refuses_a_foreign_file_before_playing(tmp_path):
    out = tmp_path / "journal.jsonl"
    out.write_text(json.dumps({"deal": 1, "seat": 0, "first": "journal", "second": "greedy", "share": 1.0}) + "\n")
    res = run("journal", "random", "--deals", "2", "--seed", "1", "--against", str(out))
    assert res.returncode == 2 and "against ['greedy']; compare only runs against 'random'" in res.stderr
    out.write_text(json.dumps({"deal": 1, "seat": 0, "first": "journal", "second": "random", "share": "all"}) + "\n")
    res = run("journal", "random", "--against", str(out))
    assert res.returncode == 2 and "share a number" in res.stderr
    out.write_text("not json\n")
    res = run("journal", "random", "--against", str(out))
    assert res.returncode == 2 and "is not a paired_duel --out file (line 1 is not JSON)" in res.stderr
    res = run("journal", "random", "--against", str(tmp_path / "none.jsonl"))
    assert res.returncode == 2 and "cannot read" in res.stderr
    res = run("journal", "random", "--out", str(tmp_path / "no" / "such.jsonl"))
    assert res.returncode == 2 and "create it first" in res.stderr and "Traceback" not in res.stderr
