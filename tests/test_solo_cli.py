"""Solo games from the shell: ``wayfarers simulate --players BOT --solo-board 1-4|all``, replaying
its games, and ``wayfarers play --players human --solo-board B``, each run as a user runs it.

The usage mistakes (a bad board, two bots with a board, one bot without) are rows of the table in
tests/test_cli_errors.py, which also checks that a refused command writes nothing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import foreground
import pytest

from experiments.cli import AI_BOARDS
from experiments.stats import wilson
from wayfarers_env.rules.config import AI_BOARDS as ENGINE_AI_BOARDS

CLI = [sys.executable, "-m", "experiments.cli"]
ALL = ["--players", "journal", "--solo-board", "all", "--games", "12", "--seed", "2"]  # ~0.3 s a game: time for Ctrl-C


def wayfarers(*args: str, stdin: str | None = None, ok: bool = True) -> subprocess.CompletedProcess:
    res = subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in res.stderr, res.stderr
    if ok:
        assert res.returncode == 0, res.stderr
    return res


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def table_rows(stdout: str) -> dict[str, list[str]]:
    """AI board label ('3 Mayor', 'all boards') -> the cells of its row in the results table."""
    rows = {}
    for line in stdout.splitlines():
        m = re.match(r"^(\d \w+|all boards)\s{2,}(.*)$", line)
        if m:
            rows[m.group(1)] = re.split(r"\s{2,}", m.group(2).strip())
    return rows


def expected_row(games: list[dict]) -> list[str]:
    """The row the table should show for these records, computed from them alone."""
    wins = sum(1 / len(r["winners"]) for r in games if 0 in r["winners"])
    lo, hi = (round(x, 4) for x in wilson(wins, len(games)))  # as summary.json keeps them
    bot = [r["scores"][0]["total"] for r in games]
    ai = [r["scores"][1]["total"] for r in games]
    return [
        f"{wins:g}/{len(games)}",
        f"{100 * wins / len(games):.1f}%",
        f"{100 * lo:.1f}-{100 * hi:.1f}%",
        sum(bot) / len(bot),
        sum(ai) / len(ai),
    ]


def check_row(row: list[str], games: list[dict]) -> None:
    want = expected_row(games)
    assert row[:3] == want[:3], (row, want)
    assert float(row[3].split()[0]) == pytest.approx(want[3], abs=0.05)  # "48.5 (0.7)": mean (sd)
    assert float(row[4].split()[0]) == pytest.approx(want[4], abs=0.05)


@pytest.fixture(scope="module")
def one_board(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    out = tmp_path_factory.mktemp("solo") / "run"
    return out, wayfarers("simulate", "--players", "random", "--solo-board", "3", "--games", "6", "--seed", "4", "--out", str(out))


@pytest.fixture(scope="module")
def all_boards(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """The uninterrupted run that the interrupted and resumed ones must equal."""
    out = tmp_path_factory.mktemp("solo_all") / "run"
    return out, wayfarers("simulate", *ALL, "--out", str(out), "--quiet")


def test_the_command_knows_the_engines_ai_boards():
    assert AI_BOARDS == ENGINE_AI_BOARDS  # spelled out in experiments.cli so that --help loads no engine


def test_one_board_prints_its_row_and_writes_every_game(one_board):
    out, res = one_board
    games = records(out)
    assert len(games) == 6
    for r in games:
        assert r["players"] == ["random"] and r["lineup"] == [0]
        assert r["config"]["num_players"] == 1 and r["config"]["solo_ai_board"] == 3
        assert len(r["scores"]) == 2 and set(r["scores"][1]) >= {"ai_cards", "caravan", "guilds", "total"}
        assert r["finished"] and r["seat_decisions"][1] == 0  # the AI's turns are no one's decisions
    assert len({r["seed"] for r in games}) == 6  # one board: a new deal every game
    assert "random against the solo AI (the base game)" in res.stdout
    rows = table_rows(res.stdout)
    assert list(rows) == ["3 Mayor"]  # one board: no 'all boards' row
    check_row(rows["3 Mayor"], games)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] and summary["run"]["solo_boards"] == [3] and "solo_ai_board" not in summary["config"]
    assert summary["rating"] is None and summary["openskill"] is None  # one entrant: nothing to rate against
    board = summary["by_ai_board"]["3"]
    assert board["games"] == 6 and board["wins"] == sum(0 in r["winners"] for r in games)
    assert "6/6" in res.stderr  # the progress bar


def test_all_plays_each_deal_against_the_four_boards(all_boards):
    out, res = all_boards
    games = records(out)
    assert [r["config"]["solo_ai_board"] for r in games] == [1, 2, 3, 4] * 3
    for block in range(3):  # the same deal against every board
        assert len({r["seed"] for r in games[4 * block : 4 * block + 4]}) == 1
    assert len({r["seed"] for r in games}) == 3
    rows = table_rows(res.stdout)
    assert list(rows) == [f"{b} {name}" for b, name in enumerate(AI_BOARDS, start=1)] + ["all boards"]
    for b, name in enumerate(AI_BOARDS, start=1):
        check_row(rows[f"{b} {name}"], [r for r in games if r["config"]["solo_ai_board"] == b])
    check_row(rows["all boards"], games)


def test_the_games_do_not_depend_on_the_worker_count(all_boards, tmp_path):
    reference, _res = all_boards
    out = tmp_path / "run"
    wayfarers("simulate", *ALL, "--out", str(out), "--workers", "2", "--quiet")
    assert (out / "games.jsonl").read_bytes() == (reference / "games.jsonl").read_bytes()


def test_ctrl_c_then_resume_gives_the_uninterrupted_run(all_boards, tmp_path):
    reference, _res = all_boards
    out = tmp_path / "run"
    proc = foreground.start([*CLI, "simulate", *ALL, "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    path = out / "games.jsonl"
    deadline = time.monotonic() + 120
    while not (path.exists() and path.read_text().count("\n") >= 2):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does
    stdout, stderr = proc.communicate(timeout=120)
    kept = len(path.read_text().splitlines())
    assert proc.returncode == 130 and "Traceback" not in stderr, stderr
    assert 2 <= kept < 12 and f"interrupted: {kept} of 12 games finished; run the same command with --resume" in stderr
    assert f"{kept} games," in stdout and "journal against the solo AI" in stdout  # the table of the games played
    refused = wayfarers("simulate", *ALL[:3], "3", *ALL[4:], "--out", str(out), "--resume", ok=False)
    assert refused.returncode == 2 and "was run with --solo-board all, not --solo-board 3" in refused.stderr
    wayfarers("simulate", *ALL, "--out", str(out), "--resume", "--quiet")
    assert path.read_bytes() == (reference / "games.jsonl").read_bytes()
    done, ref = (json.loads((d / "summary.json").read_text()) for d in (out, reference))
    assert done["complete"] and done["by_ai_board"] == ref["by_ai_board"] and done["all_ai_boards"] == ref["all_ai_boards"]


def test_replay_rebuilds_a_solo_game_and_shows_the_ais_turns(one_board, tmp_path):
    out, _res = one_board
    record = records(out)[1]
    res = wayfarers("replay", str(out / "games.jsonl"), "--game", "1")
    assert "line 2: replay reproduces the recorded scores" in res.stdout
    assert f"seed {record['seed']}, random vs the AI (3 Mayor)" in res.stdout
    ai_lines = re.findall(r"^   AI: .+$", res.stdout, re.M)
    assert len(ai_lines) >= record["turns"] // 2 - 1  # a line for (nearly) every AI turn
    assert any("revealed scheme card " in line for line in ai_lines)  # scheme cards by number, not by id
    bot = re.search(r"^0\s+random( \*)?\s+.*?(\d+)$", res.stdout, re.M)
    ai = re.search(r"^1\s+AI \(3 Mayor\)( \*)?\s+.*?(\d+)$", res.stdout, re.M)
    assert int(bot.group(2)) == record["scores"][0]["total"] and int(ai.group(2)) == record["scores"][1]["total"]
    assert (ai.group(1) is not None) == (1 in record["winners"])  # the winner's mark
    # a record whose AI score was edited does not replay, and says which seat differs
    record["scores"][1]["total"] += 1
    bad = tmp_path / "games.jsonl"
    bad.write_text(json.dumps(record) + "\n")
    res = wayfarers("replay", str(bad), ok=False)
    assert res.returncode == 2 and "does not reproduce the recorded scores (seat 1: total" in res.stderr
    record["players"] = ["random", "greedy"]
    bad.write_text(json.dumps(record) + "\n")
    res = wayfarers("replay", str(bad), ok=False)
    assert res.returncode == 2 and "field 'players' should be a list of one bot name (a solo game)" in res.stderr


def test_the_expansion_plays_solo_too(tmp_path):
    out = tmp_path / "run"
    res = wayfarers(
        "simulate", "--players", "random", "--solo-board", "2", "--games", "2", "--tides-of-trade", "--card-influence", "ink_well",
        "--out", str(out), "--quiet",
    )  # fmt: skip
    assert "random against the solo AI (Tides of Trade)" in res.stdout
    for r in records(out):
        assert r["config"]["tides_of_trade"] and r["config"]["card_influence"] == "ink_well" and r["config"]["solo_ai_board"] == 2
        assert "red_guild" in r["scores"][0]
    assert "reproduces the recorded scores" in wayfarers("replay", str(out / "games.jsonl"), "--game", "1").stdout


def test_a_person_plays_the_ai_from_the_terminal():
    # seed 0, AI board 1: always answering 1 (forced decisions taken for the person), the AI asks about a card on turn 16
    res = wayfarers("play", "--players", "human", "--solo-board", "1", "--seed", "0", stdin="1\n" * 50)
    text = res.stdout
    assert text.count("choose 1-") == 51  # every answer taken, then asked once more
    assert text.rstrip().endswith("game abandoned (end of input)")
    first = text.index("== turn 3: seat 0 (human)")
    assert re.search(r"^(.*: )?   AI: revealed scheme card \d", text[:first], re.M)  # the AI's first turn, summarised after yours
    asked = text.index("== turn 16: the AI's turn; it asks seat 0 (human)")
    wants = text.index("the AI wants to place its green worker on 'Translator' (townsfolk row, slot 1), which you influenced", asked)
    choices = text.index("decision: ai wants", wants)
    assert text.index("1. let the AI go ahead and take 1 silver", choices) < text.index("AI: ", choices)  # then what it did


def test_a_bot_plays_the_ai_to_the_score_table():
    text = wayfarers("play", "--players", "random", "--solo-board", "4", "--seed", "1").stdout
    assert re.search(r"^0\s+random( \*)?\s+.*\d+$", text, re.M) and re.search(r"^1\s+AI \(4 Wayfarer\)( \*)?\s+.*\d+$", text, re.M)
    assert re.search(r"game over after \d+ turns", text) and text.count("   AI: ") >= 10


def test_the_results_page_table_is_made_from_the_run_folders(one_board, all_boards, tmp_path):
    """As docs/RESULTS.md makes it: python -c "from experiments.solo_tally import solo_markdown; ..." over the runs."""
    for name, (out, _res) in (("random", one_board), ("journal", all_boards)):
        shutil.copytree(out, tmp_path / name)
    code = f"from experiments.solo_tally import solo_markdown; print(solo_markdown({str(tmp_path)!r}))"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    rows = [line.split(" | ") for line in res.stdout.splitlines() if line.startswith("| random |") or line.startswith("| journal |")]
    assert [(r[0], r[1]) for r in rows] == [("| random", "3 Mayor")] + [("| journal", f"{b} {n}") for b, n in enumerate(AI_BOARDS, 1)] + [
        ("| journal", "all boards")
    ]
    games = records(all_boards[0])
    want = expected_row(games)
    assert rows[-1][2:5] == ["12", want[0].split("/")[0], want[1]] and rows[-1][5] == want[2].replace("-", "–")
    assert "| **journal** |" in res.stdout and "| **random** |" in res.stdout  # the win-rate grid
