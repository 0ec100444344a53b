"""``python -m experiments.agreement``: a bot asked twice about the same decision, per kind."""

from __future__ import annotations

import re
import subprocess
import sys

from experiments.agreement import agreement, table


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.agreement", *args], capture_output=True, text=True, timeout=300)


def rows(text: str) -> dict[str, tuple[float, float]]:
    return {m[1]: (float(m[2]), float(m[3])) for m in re.finditer(r"^(\S+) +([01]\.\d{3}) +([01]\.\d{3})$", text, re.M)}


def test_a_heuristic_agrees_with_itself_far_more_than_random_play_does():
    res = run("--bot", "journal", "--games", "1")
    assert res.returncode == 0, res.stderr
    journal = rows(res.stdout)
    assert "turn" in journal and "(all)" in journal
    assert 0.6 < journal["(all)"][1] <= 1.0  # rule play: the sampled world moves only some choices
    shown = sum(share for kind, (share, _a) in journal.items() if kind != "(all)")
    assert 0.9 < shown <= 1.0 + 0.0005 * 12  # the 12 most frequent kinds hold nearly every choice (rounded shares)
    rnd = rows(run("--bot", "random", "--games", "1").stdout)
    assert rnd["(all)"][1] < journal["(all)"][1] - 0.3  # a random bot's two answers agree by chance only


def test_counts_are_the_decisions_with_a_choice_and_the_table_reads_them():
    counts = agreement("random", 1, 7)
    assert all(0 <= same <= n for n, same in counts.values())
    total = sum(n for n, _s in counts.values())
    text = rows(table(counts, top=2))
    assert text["(all)"] == (1.0, round(sum(s for _n, s in counts.values()) / total, 3))
    assert len(text) == 3


def test_a_bad_bot_or_game_count_is_one_usage_error():
    res = run("--bot", "nope")
    assert res.returncode == 2 and "--bot: unknown bot 'nope'; known bots: random" in res.stderr and "Traceback" not in res.stderr
    res = run("--games", "0")
    assert res.returncode == 2 and "--games: must be a whole number of at least 1, got '0'" in res.stderr
