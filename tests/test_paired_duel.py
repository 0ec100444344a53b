"""``python -m benchmarks.paired_duel``: two bots on paired deals, seats swapped."""

from __future__ import annotations

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
