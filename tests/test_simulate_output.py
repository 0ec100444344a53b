"""``wayfarers simulate --out``: never overwritten silently, resumable, consistent after Ctrl-C or a
crash; flat memory in the number of games; a table that fits 100 columns."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import foreground
import pytest

from experiments import tournament
from experiments.cli import main
from experiments.stats import fitted_ratings, mean, openskill_ratings, ranks, stdev, wilson
from experiments.tally import TABLE_WIDTH, Tally, entrant_labels, format_table
from experiments.tournament import IN_FLIGHT_PER_WORKER, play_games, schedule
from wayfarers_env import GameConfig
from wayfarers_env.rules.scoring import BASE_SOURCES as SOURCES  # base-game runs report these

CLI = [sys.executable, "-m", "experiments.cli", "simulate"]
SLOW = ["--players", "greedy,random", "--games", "8", "--seed", "3"]  # ~0.5 s a game: time to press Ctrl-C


def cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=300, **kw)


def lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The uninterrupted run that every interrupted or crashed run must end up equal to."""
    out = tmp_path_factory.mktemp("ref") / "run"
    assert main(["simulate", *SLOW, "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("small") / "run"
    assert main(["simulate", "--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--quiet"]) == 0
    return out


# ------------------------------------------------------------------------ refusing --out


def test_an_existing_run_is_refused_and_left_alone(small, tmp_path):
    before = snapshot(small)
    proc = cli("--players", "random,random", "--games", "2", "--out", str(small), "--quiet")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1
    assert "already holds games.jsonl and summary.json" in proc.stderr and "--resume" in proc.stderr and "--overwrite" in proc.stderr
    assert snapshot(small) == before and proc.stdout == ""


def test_overwrite_starts_afresh(small, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "games.jsonl").write_text("old\n" * 9)
    (out / "notes.txt").write_text("mine")
    proc = cli("--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--overwrite", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert (out / "games.jsonl").read_bytes() == (small / "games.jsonl").read_bytes()
    assert json.loads((out / "summary.json").read_text())["complete"] is True
    assert (out / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--seed", "8"], "was run with --seed 7, not --seed 8"),
        (["--games", "6"], "was run with --games 4, not --games 6"),
        (["--players", "random,greedy"], "was run with --players random,random, not --players random,greedy"),
        (["--board-sides", "aba"], "was run with --board-sides random, not --board-sides aba"),
        (["--no-rotate"], "was run with seats rotated, not --no-rotate"),
        (["--tides-of-trade"], "was run with the base game (no --tides-of-trade), not --tides-of-trade"),
    ],
)
def test_resume_refuses_other_arguments_by_name(small, extra, message):
    before = snapshot(small)
    proc = cli("--players", "random,random", "--games", "4", "--seed", "7", *extra, "--out", str(small), "--resume", "--quiet")
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert proc.stderr.startswith("error: --resume: ") and "Traceback" not in proc.stderr
    assert snapshot(small) == before


def test_resume_of_a_finished_run_changes_no_game(small, tmp_path):
    out = tmp_path / "copy"
    out.mkdir()
    for name, data in snapshot(small).items():
        (out / name).write_bytes(data)
    proc = cli("--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--resume", "--quiet")
    assert proc.returncode == 0 and "4 games," in proc.stdout
    assert (out / "games.jsonl").read_bytes() == (small / "games.jsonl").read_bytes()
    old, new = (json.loads((d / "summary.json").read_text()) for d in (small, out))
    assert new["entrants"]["random"]["score_mean"] == old["entrants"]["random"]["score_mean"]
    assert new["timed_games"] == 4  # the earlier session's timing is carried over


def test_resume_redoes_a_half_written_last_line(small, tmp_path):
    out = tmp_path / "cut"
    out.mkdir()
    data = (small / "games.jsonl").read_bytes()
    cut = data.rstrip(b"\n").rfind(b"\n") + 1 + 300  # three whole games and 300 bytes of the fourth
    (out / "games.jsonl").write_bytes(data[:cut])
    (out / "summary.json").write_bytes((small / "summary.json").read_bytes())
    proc = cli("--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--resume")
    assert proc.returncode == 0, proc.stderr
    assert "cut off mid-write; game 3 is played again" in proc.stderr
    assert (out / "games.jsonl").read_bytes() == data
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 4 and summary["complete"] is True
    assert summary["timed_games"] == 1  # the old summary timed 4 games, but only 3 of them survived


def test_resume_refuses_damage_before_the_end(small, tmp_path):
    out = tmp_path / "bad"
    out.mkdir()
    rows = lines(small / "games.jsonl")
    rows[1] = rows[1][:100]
    (out / "games.jsonl").write_text("\n".join(rows) + "\n")
    (out / "summary.json").write_bytes((small / "summary.json").read_bytes())
    before = snapshot(out)
    proc = cli("--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--resume")
    assert proc.returncode == 2 and "games.jsonl line 2: corrupt JSON" in proc.stderr and "--overwrite" in proc.stderr
    assert snapshot(out) == before


def test_resume_needs_the_recorded_arguments(small, tmp_path):
    out = tmp_path / "old"
    out.mkdir()
    (out / "games.jsonl").write_bytes((small / "games.jsonl").read_bytes())
    proc = cli("--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--resume")
    assert proc.returncode == 2 and "no summary.json with the run's arguments" in proc.stderr
    old = json.loads((small / "summary.json").read_text())
    del old["run"]  # what a summary.json of the previous version looks like
    (out / "summary.json").write_text(json.dumps(old))
    proc = cli("--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--resume")
    assert proc.returncode == 2 and "records no run arguments (an older version wrote it)" in proc.stderr


def test_resume_with_nothing_there_starts_the_run(small, tmp_path):
    out = tmp_path / "new"
    proc = cli("--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--resume")
    assert proc.returncode == 0 and "holds no run to resume" in proc.stderr
    assert (out / "games.jsonl").read_bytes() == (small / "games.jsonl").read_bytes()


@pytest.mark.parametrize(
    "make, args, message",
    [
        (lambda t: (t / "f").write_text("x"), ["--out", "{t}/f"], "is a file; give a directory"),
        (lambda t: (t / "f").write_text("x"), ["--out", "{t}/f/run"], "is a file, so no directory can be made under it"),
        (lambda t: None, ["--out", "{t}/r", "--resume", "--overwrite"], "--resume and --overwrite exclude each other"),
        (lambda t: None, ["--resume"], "--resume applies to an --out directory"),
        (lambda t: None, ["--out", "{t}/r", "--players", "random,wizard"], "unknown bot 'wizard'"),
        (lambda t: None, ["--out", "{t}/r", "--games", "0"], "--games"),
    ],
)
def test_bad_requests_are_one_line_and_write_nothing(tmp_path, make, args, message):
    make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    args = [a.replace("{t}", str(tmp_path)) for a in args]
    defaults = [] if "--players" in args else ["--players", "random,random"]
    proc = cli(*defaults, "--games", "2", *args, "--quiet") if "--games" not in args else cli(*defaults, *args, "--quiet")
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_folder_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        proc = cli("--players", "random,random", "--games", "1", "--out", str(locked / "run"))
    finally:
        locked.chmod(0o700)
    assert proc.returncode == 2 and "is not writable" in proc.stderr and not (locked / "run").exists()


# ---------------------------------------------------------------- Ctrl-C and hard crashes


def _start(out: Path, *extra: str) -> subprocess.Popen:
    return foreground.start([*CLI, *SLOW, "--out", str(out), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_games(proc: subprocess.Popen, path: Path, count: int) -> None:
    """Until ``count`` games of the SLOW run (not of an older run there) are in games.jsonl."""
    deadline = time.monotonic() + 120
    while not (path.exists() and path.read_text().count("\n") >= count and '"greedy"' in path.read_text()):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no games written"
        time.sleep(0.05)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_cleanly_and_resume_finishes_the_run(reference, tmp_path, workers):
    out = tmp_path / "run"
    proc = _start(out, "--workers", workers)
    _wait_for_games(proc, out / "games.jsonl", 2)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the parent and its workers get SIGINT
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr
    kept = lines(out / "games.jsonl")
    k = len(kept)
    assert 2 <= k < 8
    assert f"interrupted: {k} of 8 games finished; run the same command with --resume" in stderr
    assert "95% CI" in stdout and f"{k} games," in stdout  # the table of the finished games
    assert all(json.loads(row)["game"] == i for i, row in enumerate(kept))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == k and summary["complete"] is False and summary["games_requested"] == 8
    assert sum(e["wins"] for e in summary["entrants"].values()) == pytest.approx(k)
    assert not (out / ".summary.json.tmp").exists()

    proc = subprocess.run([*CLI, *SLOW, "--out", str(out), "--resume", "--quiet", "--workers", workers], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (out / "games.jsonl").read_bytes() == (reference / "games.jsonl").read_bytes()
    done, ref = (json.loads((d / "summary.json").read_text()) for d in (out, reference))
    assert done["complete"] is True and done["games"] == 8 and done["timed_games"] == 8
    for key in ("rating", "openskill", "turns_mean", "turns_sd", "seat_win_rate", "unfinished_games"):
        assert done[key] == ref[key], key
    for label, e in ref["entrants"].items():
        assert {k: v for k, v in done["entrants"][label].items() if k not in ("ms_per_decision", "think_s")} == {
            k: v for k, v in e.items() if k not in ("ms_per_decision", "think_s")
        }


def test_a_crash_never_leaves_an_old_summary_beside_new_games(reference, small, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    for name, data in snapshot(small).items():  # a finished run of other games
        (out / name).write_bytes(data)
    proc = _start(out, "--overwrite", "--quiet")
    _wait_for_games(proc, out / "games.jsonl", 1)
    os.killpg(proc.pid, signal.SIGKILL)  # no chance to clean up
    proc.communicate(timeout=60)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is False and summary["run"]["players"] == ["greedy", "random"]
    assert summary["games"] <= (out / "games.jsonl").read_text().count("\n")
    proc = subprocess.run([*CLI, *SLOW, "--out", str(out), "--resume", "--quiet"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (out / "games.jsonl").read_bytes() == (reference / "games.jsonl").read_bytes()
    assert json.loads((out / "summary.json").read_text())["complete"] is True


# --------------------------------------------------------------------------- flat memory


def test_the_schedule_of_a_huge_run_is_made_lazily():
    tracemalloc.start()
    try:
        start = time.perf_counter()
        specs = schedule(["random", "greedy"], 10**8, 1, GameConfig())
        first = list(itertools.islice(specs, 5))
        seconds = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [s.index for s in first] == [0, 1, 2, 3, 4]
    assert seconds < 1.0 and peak < 200_000  # a list of 10**8 specs would take tens of GB


def test_the_workers_are_fed_a_bounded_number_of_games():
    pulled = []

    def specs():
        for spec in schedule(["random", "random"], 10**6, 2, GameConfig()):
            pulled.append(spec.index)
            yield spec

    results = play_games(specs(), workers=2)
    try:
        records = [next(results)[0] for _ in range(3)]
    finally:
        results.close()
    assert [r["game"] for r in records] == [0, 1, 2]
    assert len(pulled) <= 3 + IN_FLIGHT_PER_WORKER * 2


def _batch_summary(players, records, think):
    """The summary as the previous version computed it, from every record held in a list."""
    labels = entrant_labels(players)
    per = {}
    for j, label in enumerate(labels):
        wins, totals, own, seconds = 0.0, [], [], 0.0
        by_source = {s: [] for s in SOURCES}
        for rec, secs in zip(records, think):
            seat = rec["lineup"].index(j)
            if seat in rec["winners"]:
                wins += 1.0 / len(rec["winners"])
            score = rec["scores"][seat]
            totals.append(score["total"])
            for s in SOURCES:
                by_source[s].append(score[s])
            own.append(rec["seat_decisions"][seat])
            seconds += secs[seat]
        n = len(records)
        lo, hi = wilson(wins, n)
        per[label] = {
            "bot": players[j],
            "games": n,
            "wins": round(wins, 3),
            "win_rate": round(wins / n, 4),
            "win_rate_95": [round(lo, 4), round(hi, 4)],
            "score_mean": round(mean(totals), 2),
            "score_sd": round(stdev(totals), 2),
            "score_min": min(totals),
            "score_max": max(totals),
            "vp_by_source": {s: round(mean(v), 2) for s, v in by_source.items()},
            "own_decisions_mean": round(mean(own), 1),
            "ms_per_decision": round(1000 * seconds / max(1, sum(own)), 3),
        }
    seat_wins = [0.0] * len(players)
    for rec in records:
        for seat in rec["winners"]:
            seat_wins[seat] += 1.0 / len(rec["winners"])
    rated = [([labels[j] for j in r["lineup"]], ranks([s["total"] for s in r["scores"]], r["winners"])) for r in records]
    return {
        "players": players,
        "games": len(records),
        "unfinished_games": sum(1 for r in records if not r["finished"]),
        "turns_mean": round(mean([r["turns"] for r in records]), 1),
        "turns_sd": round(stdev([r["turns"] for r in records]), 1),
        "decisions_mean": round(mean([r["decisions"] for r in records]), 1),
        "seat_win_rate": [round(w / len(records), 4) for w in seat_wins],
        "entrants": per,
        "rating": fitted_ratings(rated),
        "openskill": openskill_ratings(rated),
    }


def test_the_running_summary_equals_the_batch_computation(tmp_path):
    players = ["random", "journal", "random"]
    specs = list(schedule(players, 6, 11, GameConfig(num_players=3)))
    played = [tournament.play_game(spec) for spec in specs]
    records = [r for r, _ in played]
    think = [[0.001 * (i + 1), 0.002, 0.0005 * i] for i in range(len(records))]
    tally = Tally(players)
    for rec, secs in zip(records, think):
        tally.add(rec, secs)
    streamed = tally.summary()
    batch = _batch_summary(players, records, think)
    for key, value in batch.items():
        if key == "entrants":
            for label, e in value.items():
                assert {f: streamed[key][label][f] for f in e} == e, label
        else:
            assert streamed[key] == value, key


# -------------------------------------------------------------------------------- table


def test_the_table_fits_100_columns_from_the_shell():
    proc = cli("--players", "random,random,random,random", "--games", "1", "--seed", "2", "--quiet")
    assert proc.returncode == 0, proc.stderr
    rows = proc.stdout.splitlines()
    assert max(map(len, rows)) <= TABLE_WIDTH == 100
    assert "random#4" in proc.stdout and "95% CI" in proc.stdout and "primary tags" in proc.stdout
    header = next(r for r in rows if r.startswith("bot "))
    assert "turns" not in header  # the same for every entrant: said once, below the table
    assert any(" turns (sd " in r for r in rows)


def test_long_bot_names_are_cut_to_fit():
    long = "policy:runs/a-very-long-folder-name/with/subfolders/final_model.zip"
    labels = [long, long + "#2", "random"]
    entrant = {
        "win_rate": 0.3333,
        "win_rate_95": [0.0615, 0.7923],
        "score_mean": 123.45,
        "score_sd": 67.8,
        "own_decisions_mean": 1234.5,
        "ms_per_decision": 12.345,
        "vp_by_source": {s: 99.9 for s in SOURCES},
    }
    summary = {
        "entrants": {label: entrant for label in labels},
        "games": 100000,
        "turns_mean": 1234.0,
        "turns_sd": 567.0,
        "decisions_mean": 12345.0,
        "seat_win_rate": [0.25, 0.25, 0.5],
        "unfinished_games": 3,
        "max_decisions": 100000,
        "games_per_s": 12.5,
        "rating": {label: {"ordinal": 1.0} for label in labels},
    }
    text = format_table(summary)
    assert max(len(row) for row in text.splitlines()) <= 100
    rows = text.splitlines()
    assert rows[3].startswith("…") and rows[3].split()[0].endswith("final_model.zip#2")  # the end tells entrants apart


def test_a_failing_bot_leaves_a_summary_of_the_games_played(tmp_path, monkeypatch):
    real = tournament.play_game

    def fails_at_game_2(spec):
        if spec.index == 2:
            raise ValueError("bot 'random' chose illegal action 9999")
        return real(spec)

    monkeypatch.setattr(tournament, "play_game", fails_at_game_2)
    out = tmp_path / "run"
    with pytest.raises(ValueError, match="illegal action 9999"):
        main(["simulate", "--players", "random,random", "--games", "4", "--seed", "7", "--out", str(out), "--quiet"])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 2 == len(lines(out / "games.jsonl")) and summary["complete"] is False
