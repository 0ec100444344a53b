"""`python -m experiments.mechanics` from the shell: the per-bot usage of Tides of Trade's mechanics
read back from a simulate run, checked against a count made here from the records."""

from __future__ import annotations

import json
import subprocess
import sys

from wayfarers_env import Game
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.scoring import TIDES_SOURCES


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def test_the_report_counts_what_the_records_hold(tmp_path):
    out = tmp_path / "run"
    sim = run(
        "-m",
        "experiments.cli",
        "simulate",
        "--players",
        "greedy,random",
        "--games",
        "2",
        "--tides-of-trade",
        "--quiet",
        "--out",
        str(out),
    )
    assert sim.returncode == 0, sim.stderr
    report = run("-m", "experiments.mechanics", str(out / "games.jsonl"))
    assert report.returncode == 0, report.stderr
    rows = {
        line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in report.stdout.splitlines()
        if line.startswith("| ")
    }
    assert set(rows) >= {"greedy", "random"}
    header = rows["bot"]
    traders = {bot: 0 for bot in ("greedy", "random")}
    new_vp = {bot: 0 for bot in ("greedy", "random")}
    for line in (out / "games.jsonl").read_text().splitlines():
        record = json.loads(line)
        game = Game(record["config"], record["seed"])
        for a in record["actions"]:
            if a in CATALOG.EMPLOY:
                traders[record["players"][game.current_player]] += 1
            game.apply(a)
        for seat, bot in enumerate(record["players"]):
            new_vp[bot] += sum(game.scores()[seat][k] for k in TIDES_SOURCES)
    for bot in traders:
        assert rows[bot][header.index("games")] == "2"
        assert float(rows[bot][header.index("traders")]) == round(traders[bot] / 2, 2)
        assert float(rows[bot][header.index("new VP")]) == round(new_vp[bot] / 2, 2)


def test_a_base_game_run_is_refused_with_a_clear_error(tmp_path):
    out = tmp_path / "run"
    assert (
        run("-m", "experiments.cli", "simulate", "--players", "random,random", "--games", "1", "--quiet", "--out", str(out)).returncode == 0
    )
    report = run("-m", "experiments.mechanics", str(out / "games.jsonl"))
    assert report.returncode == 2 and report.stderr.startswith("error: ") and "Tides of Trade" in report.stderr
    assert "Traceback" not in report.stderr
