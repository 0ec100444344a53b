"""The docs/RESULTS.md tables, made as that page says: ``wayfarers simulate --out`` per matchup, then
``python -c "from experiments.stats import results_markdown; ..."`` over the folder of runs.

results_markdown once reused its list of output lines as the games.jsonl file handle, so the command
failed with a TypeError whenever a run folder was there to read."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    done = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "simulate", "--players", "greedy,random", "--games", "2", "--seed", "5"]
        + ["--quiet", "--out", str(root / "greedy-vs-random")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return root


def tables(function: str, root) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"from experiments.stats import {function}; print({function}({str(root)!r}))"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_results_tables_end_with_the_ratings_of_every_bot(runs):
    out = tables("results_markdown", runs)
    assert out[0].startswith("| matchup | games | first bot wins |")
    assert out[2].startswith("| greedy vs random | 2 | ")
    header = out.index("| bot | rating μ | σ | ordinal (μ − 3σ) |")
    rated = [row.split(" | ")[0].strip("| ") for row in out[header + 2 :] if row]
    assert sorted(rated) == ["greedy", "random"]


def test_style_table_has_a_row_per_bot(runs):
    out = "\n".join(tables("style_markdown", runs))
    assert "| greedy |" in out and "| random |" in out
