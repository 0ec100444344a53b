"""``wayfarers replay`` from the shell: every field of a record is checked before the engine sees
it, and a bad one is named in one ``error:`` line (exit status 2), never a traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from experiments.cli import main


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("rec") / "run"
    assert main(["simulate", "--players", "random,greedy", "--games", "1", "--seed", "4", "--out", str(out), "--quiet"]) == 0
    return json.loads((out / "games.jsonl").read_text().splitlines()[0])


def replay(path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "experiments.cli", "replay", str(path), *extra], capture_output=True, text=True, timeout=120
    )


def test_a_good_record_replays(record, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    proc = replay(path)
    assert proc.returncode == 0, proc.stderr
    assert "line 1: replay reproduces the recorded scores" in proc.stdout and "* = winner" in proc.stdout


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("players", [1, "random"], "field 'players' should be a list of 2 to 4 bot names (strings), found [1, \"random\"]"),
        ("players", "random,greedy", "field 'players' should be a list of 2 to 4 bot names"),
        ("players", ["random", "greedy", "random"], "3 players but 2 scores"),
        ("config", lambda r: {**r["config"], "num_players": 3}, "field 'players' names 2 bots but the config is for 3 players"),
        ("seed", "12", "field 'seed' should be an integer, found \"12\""),
        ("seed", 1.5, "field 'seed' should be an integer"),
        ("schema_version", True, "field 'schema_version' should be an integer, found true"),
        ("config", [], "field 'config' should be an object"),
        ("config", {"num_players": 7}, "field 'config' does not set up a game: num_players must be 1, 2, 3 or 4"),
        ("actions", [1, "2"], "field 'actions' should be a list of integer action ids"),
        ("winners", [0, None], "field 'winners' should be a list of seat numbers"),
        ("winners", [5], "field 'winners' holds a seat outside 0..1"),
        ("scores", [{"total": "3"}, {"total": 1}], "field 'scores' should be a list of per-seat objects with integer"),
        ("scores", [{"total": 3}], "field 'scores' should be a list of per-seat objects"),
        ("game", -1, "field 'game' should be a game index"),
        ("lineup", [0, 0], "field 'lineup' should order the entrants 0..1"),
        ("finished", "yes", "field 'finished' should be true or false"),
        ("turns", "many", "field 'turns' should be an integer, 0 or more"),
        ("seat_decisions", [1], "field 'seat_decisions' should have 2 entries"),
    ],
)
def test_a_field_of_the_wrong_type_is_named(record, tmp_path, field, value, message):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({**record, field: value(record) if callable(value) else value}) + "\n")
    proc = replay(path)
    assert proc.returncode == 2, proc.stdout
    assert proc.stderr.startswith(f"error: games.jsonl line 1: {message}"), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_files_that_are_not_games(record, tmp_path):
    proc = replay(tmp_path)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and "cannot be read" in proc.stderr
    path = tmp_path / "binary.jsonl"
    path.write_bytes(b"\xff\xfe\x00\n")
    proc = replay(path)
    assert proc.returncode == 2 and "line 1: not UTF-8 text" in proc.stderr
    path.write_text(json.dumps(record) + "\n")
    proc = replay(path, "--game", "-1")
    assert proc.returncode == 2 and "--game -1 is out of range: binary.jsonl holds 1 games (0..0)" in proc.stderr
    assert "Traceback" not in proc.stderr


# ------------------------------------------------------------------------------ issue 15: readable replays


def turn_lines(out: str) -> list[list[str]]:
    """Each turn's lines: its '-- turn' line and the lines that continue it."""
    turns: list[list[str]] = []
    for line in out.splitlines():
        if line.startswith("-- turn "):
            turns.append([line])
        elif turns and line.startswith("     "):
            turns[-1].append(line)
    return turns


def test_replay_is_one_short_line_a_turn_with_consistent_numbers(record, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    proc = replay(path)
    assert proc.returncode == 0, proc.stderr
    turns = turn_lines(proc.stdout)
    assert [int(t[0].split()[2].rstrip(":")) for t in turns] == list(range(1, record["turns"] + 1))  # 1, 2, 3... every turn
    for t in turns:
        assert len(t) <= 3 and max(map(len, t)) <= 100, t  # bounded per turn
        assert re.match(r"-- turn \d+: seat [01] \((random|greedy)\), \d+ VP after: \S", t[0]), t[0]
    lines = proc.stdout.splitlines()
    assert len(lines) <= 3 * record["turns"] + 8
    assert lines[-1] == f"game over after {record['turns']} turns; * = winner"
    last_vp = {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"^-- turn \d+: seat (\d) \(\w+\), (\d+) VP after", proc.stdout, re.M)}
    assert last_vp == {seat: s["total"] for seat, s in enumerate(record["scores"])}  # VP now, the last of them final


def test_replay_shows_the_table_on_request_and_at_each_step(record, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(record) + "\n")
    out = replay(path, "--table").stdout
    tables = out.split("AFTER TURN ")[1:]
    assert len(tables) == record["turns"]
    for k, text in enumerate(tables, start=1):
        table, _sep, _rest = text.partition("\n-- turn ")
        assert table.startswith(f"{k} · ") and len(table.splitlines()) <= 50
        assert _rest.startswith(f"{k}: seat")  # the turn's line right under its table
    proc = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "replay", str(path), "--step"],
        input="\n\nq\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    prompts = proc.stdout.split("[Enter] next turn, q to quit: ")
    assert len(prompts) == 4  # three turns shown, q at the third prompt
    for k, before in enumerate(prompts[:3], start=1):
        table, _sep, line = before.rpartition("\n-- turn ")
        assert line.startswith(f"{k}: ") and f"AFTER TURN {k} · " in table  # the table, then the turn's line at the prompt
