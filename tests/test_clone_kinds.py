"""``python -m benchmarks.clone_kinds``: a clone that hands some decision kinds back to its teacher."""

from __future__ import annotations

import re
import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmarks.clone_kinds", *args], capture_output=True, text=True, timeout=600)


def rows(stdout: str) -> dict[str, tuple[float, float, float, float]]:
    """label -> (win rate, interval low, interval high, share answered by the teacher), in percent."""
    out = {}
    for m in re.finditer(r"^(\S+)\s+([\d.]+)%\s+([\d.]+)-([\d.]+)%\s+[\d.]+ / [\d.]+\s+([\d.]+)%", stdout, re.M):
        out[m[1]] = (float(m[2]), float(m[3]), float(m[4]), float(m[5]))
    return out


def test_the_teacher_in_every_decision_mirrors_it_and_none_leaves_the_clone_alone(tiny_model):
    res = run(str(tiny_model), "--rows", "all", "none", "turn", "all-turn", "--deals", "2", "--seed", "3")
    assert res.returncode == 0, res.stderr
    got = rows(res.stdout)
    assert got["all"] == (50.0, 50.0, 50.0, 100.0)  # the hybrid is the cartographer, move for move
    assert got["none"][3] == 0.0 and got["none"][0] < 50.0  # an untrained clone alone loses to it
    assert 0.0 < got["turn"][3] < 50.0 < got["all-turn"][3] < 100.0  # main actions are a minority of the decisions


def test_a_bad_kind_or_model_is_one_usage_error(tiny_model, tmp_path):
    res = run(str(tiny_model), "--rows", "turn,nope")
    assert res.returncode == 2 and "unknown decision kind(s) nope; kinds: none, all, turn" in res.stderr
    res = run(str(tiny_model), "--rows", "all-nope")
    assert res.returncode == 2 and "unknown decision kind(s) nope" in res.stderr
    assert "Traceback" not in res.stderr
    res = run(str(tmp_path / "missing.zip"))
    assert res.returncode == 2 and "missing.zip" in res.stderr and "Traceback" not in res.stderr
