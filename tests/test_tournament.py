"""``wayfarers tournament``, run from the shell as a user runs it: line-ups, standings, the Parquet
game-seat logs beside games.jsonl, --workers, Ctrl-C and crashes with --resume, and every user
mistake as one ``error:`` line that writes nothing.

The bots are the fast ones (random, cartographer, journal) and the runs one or a few deals."""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import foreground
import pyarrow.parquet as pq
import pytest

from experiments.game_log import VP_SOURCES, schema
from experiments.league import seatings
from experiments.stats import Rating, SkillTable, ranks, wilson

CLI = [sys.executable, "-m", "experiments.cli", "tournament"]
HAVE_TRAIN = bool(importlib.util.find_spec("torch") and importlib.util.find_spec("sb3_contrib"))
TIMING = ("think_s", "ms_per_decision")  # the only columns that differ between two runs of the same games


def tournament(*args: str, check: bool = True, **kw) -> subprocess.CompletedProcess:
    res = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600, **kw)
    assert "Traceback" not in res.stderr, res.stderr
    if check:
        assert res.returncode == 0, res.stderr
    return res


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def log_rows(out: Path, drop: tuple[str, ...] = ()) -> list[dict]:
    """Every game-seat row of the run's Parquet parts, in game and seat order."""
    paths = sorted((out / "logs").glob("seats-*.parquet"))
    rows = [r for p in paths for r in pq.read_table(p).to_pylist()]
    return [{k: v for k, v in r.items() if k not in drop} for r in sorted(rows, key=lambda r: (r["game"], r["seat"]))]


LEAGUE = ["--bots", "random,cartographer,journal", "--players-per-game", "2,3", "--games", "1", "--seed", "5"]


@pytest.fixture(scope="module")
def league(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """Three bots at tables of 2 and 3: 6 + 3 games on one deal, in two workers."""
    out = tmp_path_factory.mktemp("league") / "run"
    return out, tournament(*LEAGUE, "--workers", "2", "--out", str(out))


# ------------------------------------------------------------------------------- line-ups


def test_every_bot_meets_every_other_in_every_seat():
    games = seatings(4, (2, 3, 4))
    assert len(games) == 4 * 3 + 4 * 3 + 1 * 4  # ordered pairs, triples in 3 rotations, one foursome in 4
    for k in (2, 3, 4):
        tables = [seats for size, seats, _order in games if size == k]
        for a, b in itertools.permutations(range(4), 2):
            met = [seats for seats in tables if a in seats and b in seats]
            assert {seats.index(a) for seats in met} == set(range(k)), (k, a, b)  # a in every seat facing b
        assert Counter(b for seats in tables for b in seats) == Counter({b: len(tables) * k // 4 for b in range(4)})


def test_the_league_plays_each_deal_in_every_line_up(league):
    out, _res = league
    recs = records(out)
    assert [r["game"] for r in recs] == list(range(9))
    assert len({r["seed"] for r in recs}) == 1  # one deal, shared by every line-up and seating
    two = [tuple(r["players"]) for r in recs if len(r["players"]) == 2]
    assert sorted(two) == sorted(itertools.permutations(["random", "cartographer", "journal"], 2))
    three = [r["players"] for r in recs if len(r["players"]) == 3]
    assert len(three) == 3 and all(sorted(p) == ["cartographer", "journal", "random"] for p in three)
    assert {p.index("random") for p in three} == {0, 1, 2}


# ------------------------------------------------------------------------------ standings


def test_the_leaderboard_shows_the_recorded_games(league):
    out, res = league
    recs = records(out)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["kind"] == "tournament" and summary["complete"] and summary["games"] == 9 == summary["games_requested"]
    table, online = Rating(), SkillTable()
    wins: Counter = Counter()
    games: Counter = Counter()
    for r in recs:
        table.rate(r["players"], ranks([s["total"] for s in r["scores"]], r["winners"]))
        online.rate(r["players"], ranks([s["total"] for s in r["scores"]], r["winners"]))
        for seat, bot in enumerate(r["players"]):
            games[bot] += 1
            wins[bot] += (seat in r["winners"]) / len(r["winners"])
    assert summary["rating"] == table.result() and summary["openskill"] == online.result()
    board = summary["leaderboard"]
    assert [row["bot"] for row in board] == sorted(games, key=lambda b: -table.result()[b]["ordinal"])
    for row in board:
        b = row["bot"]
        assert row["games"] == games[b] and row["wins"] == pytest.approx(wins[b], abs=1e-3)
        assert row["win_rate_95"] == [pytest.approx(x, abs=1e-4) for x in wilson(wins[b], games[b])]
        assert row["by_players"]["2"]["games"] == 4 and row["by_players"]["3"]["games"] == 3
        # the printed line: rank, name, ordinal, the win rate
        assert f"{row['rank']}. {b}" in res.stdout
        line = next(ln for ln in res.stdout.splitlines() if ln.startswith(f"{row['rank']}. {b}"))
        assert f"{row['ordinal']:.1f}" in line and f"{100 * row['win_rate']:.1f}%" in line
    pair = summary["pairwise"]["cartographer"]["random"]
    both = [r for r in recs if {"cartographer", "random"} <= set(r["players"])]
    ahead = 0.0
    for r in both:
        place = ranks([s["total"] for s in r["scores"]], r["winners"])
        c, x = place[r["players"].index("cartographer")], place[r["players"].index("random")]
        ahead += 1.0 if c < x else 0.5 if c == x else 0.0
    assert pair["games"] == len(both) == 5 and pair["ahead_rate"] == pytest.approx(ahead / len(both), abs=1e-4)
    assert "row finishes ahead of column" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines() if not line.startswith("wrote")) <= 100


def test_the_parquet_log_has_a_row_per_game_and_seat(league):
    out, res = league
    recs = records(out)
    rows = log_rows(out)
    assert f"wrote {len(rows)} game-seat rows" in res.stdout
    assert pq.read_schema(next((out / "logs").glob("*.parquet"))).names == schema().names
    assert [(r["game"], r["seat"]) for r in rows] == [(g["game"], s) for g in recs for s in range(len(g["players"]))]
    for row in rows:
        rec = recs[row["game"]]
        score = rec["scores"][row["seat"]]
        assert row["bot"] == rec["players"][row["seat"]] and row["num_players"] == len(rec["players"])
        assert row["score"] == score["total"] == sum(row[f"vp_{s}"] for s in VP_SOURCES)
        assert all(row[f"vp_{s}"] == score[s] for s in VP_SOURCES if s in score)
        others = [s["total"] for k, s in enumerate(rec["scores"]) if k != row["seat"]]
        assert row["margin"] == score["total"] - max(others)
        assert row["won"] == (1 / len(rec["winners"]) if row["seat"] in rec["winners"] else 0)
        assert row["decisions"] == rec["seat_decisions"][row["seat"]] and row["turns"] == rec["turns"]
        assert row["think_s"] > 0 and row["ms_per_decision"] == pytest.approx(1000 * row["think_s"] / row["decisions"])
        assert row["seed"] == rec["seed"] and row["deal"] == 0 and row["tides_of_trade"] is False
        reached = [t for t in row["journal_turn"] if t is not None]
        assert reached == sorted(reached) and reached[0] == 1 and len(reached) == row["journal_column"] + 1
        assert row["n_cards"] == len(row["cards"]) and row["n_tiles"] == len(row["tiles"])
    active = [r for r in rows if r["bot"] != "random"]
    assert all(r["n_cards"] > 0 and r["n_tiles"] > 0 and r["journal_column"] > 0 for r in active)
    assert all(c.split(".")[0] in ("land", "water", "space", "townsfolk", "inspiration") for r in rows for c in r["cards"])


def test_a_tournament_record_replays(league):
    out, _res = league
    rec = records(out)[7]
    res = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "replay", str(out / "games.jsonl"), "--game", "7"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    for seat, (bot, score) in enumerate(zip(rec["players"], rec["scores"])):  # the final table: each seat's recorded total
        assert re.search(rf"^{seat}\s+{bot}\b.*\s{score['total']}$", res.stdout, re.M), (bot, score["total"])


# -------------------------------------------------------------- workers, Ctrl-C and crashes

PAIR = ["--bots", "random,cartographer", "--games", "3", "--seed", "2"]  # 6 games of about a second each


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """The uninterrupted run that every other run of PAIR must end up equal to."""
    out = tmp_path_factory.mktemp("ref") / "run"
    tournament(*PAIR, "--out", str(out), "--quiet")
    return out


def test_games_and_logs_do_not_depend_on_the_worker_count(reference, tmp_path):
    out = tmp_path / "run"
    tournament(*PAIR, "--workers", "2", "--out", str(out), "--quiet")
    assert (out / "games.jsonl").read_bytes() == (reference / "games.jsonl").read_bytes()
    assert log_rows(out, TIMING) == log_rows(reference, TIMING)


def _start(out: Path, *extra: str) -> subprocess.Popen:
    return foreground.start([*CLI, *PAIR, "--out", str(out), *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for_games(proc: subprocess.Popen, path: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while not (path.exists() and path.read_text().count("\n") >= count):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no games written"
        time.sleep(0.05)


def test_ctrl_c_keeps_the_logs_and_resume_finishes_the_run(reference, tmp_path):
    out = tmp_path / "run"
    proc = _start(out)
    _wait_for_games(proc, out / "games.jsonl", 2)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "Traceback" not in stderr, stderr
    k = len(records(out))
    assert 2 <= k < 6 and f"interrupted: {k} of 6 games finished" in stderr
    assert len(log_rows(out)) == 2 * k  # the rows of the finished games were written on the way out
    assert "1. " in stdout and "wrote" in stdout
    res = tournament(*PAIR, "--out", str(out), "--resume")
    assert "rebuilt" not in res.stderr  # nothing was lost: no row is rebuilt
    assert (out / "games.jsonl").read_bytes() == (reference / "games.jsonl").read_bytes()
    assert log_rows(out, TIMING) == log_rows(reference, TIMING)
    assert all(r["think_s"] is not None for r in log_rows(out))
    done, ref = (json.loads((d / "summary.json").read_text()) for d in (out, reference))
    assert (
        done["complete"]
        and done["rating"] == ref["rating"]
        and done["openskill"] == ref["openskill"]
        and done["pairwise"] == ref["pairwise"]
    )


def test_a_crash_loses_no_game_and_resume_rebuilds_the_lost_rows(reference, tmp_path):
    out = tmp_path / "run"
    proc = _start(out, "--quiet")
    _wait_for_games(proc, out / "games.jsonl", 2)
    os.killpg(proc.pid, signal.SIGKILL)  # no chance to write its buffered rows
    proc.communicate(timeout=60)
    k = len(records(out))
    assert log_rows(out) == []  # the rows were still in memory
    res = tournament(*PAIR, "--out", str(out), "--resume")
    assert f"the Parquet rows of {k} kept games were lost; rebuilt them" in res.stderr
    assert (out / "games.jsonl").read_bytes() == (reference / "games.jsonl").read_bytes()
    assert log_rows(out, TIMING) == log_rows(reference, TIMING)  # rebuilt rows equal the played ones
    assert [r["think_s"] is None for r in log_rows(out)] == [r["game"] < k for r in log_rows(out)]


def test_a_half_written_record_is_played_again(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    data = (out / "games.jsonl").read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    (out / "games.jsonl").write_bytes(data[: last + 40])  # game 5 cut off mid-write
    res = tournament(*PAIR, "--out", str(out), "--resume")
    assert "was cut off mid-write; game 5 is played again" in res.stderr
    assert (out / "games.jsonl").read_bytes() == data
    assert log_rows(out, TIMING) == log_rows(reference, TIMING)


def test_resuming_a_finished_run_plays_nothing(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    before = {p.name: p.read_bytes() for p in (out / "logs").iterdir()}
    res = tournament(*PAIR, "--out", str(out), "--resume", "--quiet")
    assert (out / "games.jsonl").read_bytes() == (reference / "games.jsonl").read_bytes()
    assert {p.name: p.read_bytes() for p in (out / "logs").iterdir()} == before
    assert "1. cartographer" in res.stdout or "1. random" in res.stdout


def test_overwrite_replaces_the_run_and_its_logs(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    tournament("--bots", "cartographer,random", "--games", "1", "--seed", "9", "--out", str(out), "--overwrite", "--quiet")
    assert len(records(out)) == 2 and {r["game"] for r in log_rows(out)} == {0, 1}
    assert [p.name for p in (out / "logs").iterdir()] == ["seats-00000000-00000001.parquet"]


def test_the_expansion_options_reach_games_and_logs(tmp_path):
    out = tmp_path / "run"
    tournament(
        "--bots", "random,cartographer", "--games", "1", "--tides-of-trade", "--card-influence", "ink_well", "--out", str(out), "--quiet"
    )
    recs = records(out)
    assert all(r["config"]["tides_of_trade"] and r["config"]["card_influence"] == "ink_well" for r in recs)
    rows = log_rows(out)
    assert all(r["tides_of_trade"] and r["card_influence"] == "ink_well" for r in rows)
    for row in rows:
        score = recs[row["game"]]["scores"][row["seat"]]
        assert row["score"] == sum(row[f"vp_{s}"] for s in VP_SOURCES) and row["vp_caravan_squares"] == score["caravan_squares"]


@pytest.mark.train
@pytest.mark.skipif(not HAVE_TRAIN, reason='needs the [train] extra: pip install -e ".[train]"')
def test_a_trained_policy_plays_in_the_league(tmp_path):
    import yaml

    config = tmp_path / "tiny.yaml"
    tiny = {
        "name": "tiny",
        "ppo": {"n_steps": 64, "batch_size": 32, "n_epochs": 1},
        "policy": {"net_arch": [16]},
        "training": {"timesteps": 64, "envs": 1, "checkpoint_every": 64},
        "evaluation": {"every": 64, "games": 1, "opponents": ["random"]},
    }
    config.write_text(yaml.safe_dump(tiny))
    run = tmp_path / "train"
    res = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "train", "--config", str(config), "--out", str(run)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr
    bot = f"policy:{run / 'final_model.zip'}"
    out = tmp_path / "league"
    res = tournament("--bots", f"random,{bot}", "--games", "1", "--out", str(out), "--quiet")
    assert {r["bot"] for r in log_rows(out)} == {"random", bot}
    assert "final_model.zip" in res.stdout


# ------------------------------------------------------------------------------ mistakes


def _one_error(res: subprocess.CompletedProcess, *words: str) -> None:
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert res.stderr.startswith("error: ") and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "Traceback" not in res.stderr and res.stdout == ""
    for w in words:
        assert w in res.stderr, (w, res.stderr)


BAD = [
    (["--bots", "random"], ["--bots needs at least 2", "simulate --solo-board"]),
    (["--bots", "random,random"], ["names random more than once"]),
    (["--bots", "random,nosuchbot"], ["unknown bot 'nosuchbot'", "known bots"]),
    (["--bots", "random,policy:/nowhere/model.zip"], ["/nowhere/model.zip"]),
    (["--bots", "random,journal", "--players-per-game", "3"], ["--players-per-game 3 needs at least 3 bots", "got 2"]),
    (["--bots", "random,journal", "--players-per-game", "1"], ["player counts 2-4", "multiplayer", "--solo-board"]),
    (["--bots", "random,journal", "--players-per-game", "2,5"], ["player counts 2-4"]),
    (["--bots", "random,journal", "--games", "0"], ["--games", "at least 1"]),
    (["--bots", "random,journal", "--workers", "0"], ["--workers", "at least 1"]),
    (["--bots", "random,journal", "--seed", "-1"], ["--seed", "0 to"]),
    (["--bots", "random,journal", "--card-influence", "cards"], ["--card-influence belongs to the Tides of Trade expansion"]),
    (["--bots", "random,journal", "--board-sides", "abc"], ["board_sides"]),
    (["--bots", "random,journal", "--resume", "--overwrite"], ["exclude each other"]),
]


@pytest.mark.parametrize("args, words", BAD, ids=[" ".join(a) for a, _w in BAD])
def test_a_mistake_is_one_line_and_writes_nothing(tmp_path, args, words):
    out = tmp_path / "out"
    _one_error(tournament(*args, "--out", str(out), check=False), *words)
    assert not out.exists()


def test_without_pyarrow_the_extra_is_named(tmp_path):
    block = "import sys\nsys.modules['pyarrow'] = None\nsys.modules['pyarrow.parquet'] = None\n"  # a machine without the extra
    code = block + "from experiments.cli import main\nsys.exit(main(sys.argv[1:]))"
    res = subprocess.run(
        [sys.executable, "-c", code, "tournament", "--bots", "random,journal", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
    )
    _one_error(res, "pyarrow", 'pip install -e ".[analysis]"')
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "args, words",
    [
        ([], ["already holds games.jsonl and summary.json", "--resume", "--overwrite"]),
        (["--resume", "--seed", "3"], ["was run with --seed 2, not --seed 3"]),
        (["--resume", "--bots", "cartographer,random"], ["was run with --bots random,cartographer, not --bots cartographer,random"]),
        (["--resume", "--board-sides", "aba"], ["was run with --board-sides random, not --board-sides aba"]),
        (["--resume", "--games", "4"], ["was run with --games 3, not --games 4"]),
        (["--resume", "--tides-of-trade"], ["the base game (no --tides-of-trade), not --tides-of-trade"]),
    ],
)
def test_an_existing_run_is_only_resumed_as_recorded(reference, tmp_path, args, words):
    out = tmp_path / "run"
    shutil.copytree(reference, out)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    given = [*PAIR, *args]
    for flag in ("--seed", "--bots", "--games"):  # a later flag overrides PAIR's
        if flag in args:
            i = given.index(flag)
            del given[i : i + 2]
            given += [flag, args[args.index(flag) + 1]]
    _one_error(tournament(*given, "--out", str(out), "--quiet", check=False), *words)
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_a_simulate_run_is_not_resumed_as_a_tournament(tmp_path):
    out = tmp_path / "run"
    sim = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "simulate", "--players", "random,random", "--games", "1", "--out", str(out), "--quiet"],
        capture_output=True,
        text=True,
    )
    assert sim.returncode == 0, sim.stderr
    before = (out / "games.jsonl").read_bytes()
    _one_error(
        tournament("--bots", "random,journal", "--out", str(out), "--resume", check=False),
        "holds a run of wayfarers simulate, not tournament",
    )
    assert (out / "games.jsonl").read_bytes() == before and not (out / "logs").exists()


def test_logs_without_their_run_are_refused(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference / "logs", out / "logs")
    _one_error(tournament(*PAIR, "--out", str(out), check=False), "holds Parquet logs in logs/ but no games.jsonl", "--overwrite")
    assert not (out / "games.jsonl").exists()
    (tmp_path / "file").write_text("x")
    _one_error(tournament(*PAIR, "--out", str(tmp_path / "file"), check=False), "is a file")


def test_other_table_sizes_are_another_run(league, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(league[0], out)
    args = [*LEAGUE[:2], "--players-per-game", "2", *LEAGUE[4:], "--out", str(out), "--resume"]
    _one_error(tournament(*args, check=False), "was run with --players-per-game 2,3, not --players-per-game 2")
