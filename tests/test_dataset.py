"""``wayfarers dataset``: recorded rows are what the env gave, the file is the same for any
``--workers``, and bad input or a broken file gets one clear line.

Each recorded game costs about a second, so the module plays few: two games from the shell
(``--workers 1`` and ``--workers 2``), one game in-process for ``--record``.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import wayfarers_env
from experiments.dataset import DatasetError, build, load_dataset, save
from wayfarers_env import GameConfig

PLAYERS = "astronomer,journal"


def wayfarers(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict[str, Any]:
    """Two games of astronomer against journal (short games): written from the shell with the
    default --workers 1, and in-process by ``build`` with 2 worker processes."""
    root = tmp_path_factory.mktemp("dataset")
    res = wayfarers("dataset", "--players", PLAYERS, "--games", "2", "--out", "w1.npz", cwd=root)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    save(build(PLAYERS.split(","), 2, 0, GameConfig(num_players=2), workers=2, progress=False), root / "w2.npz")
    return {"1": root / "w1.npz", "2": root / "w2.npz", "stdout1": res.stdout, "stderr1": res.stderr}


def test_dataset_from_the_shell_writes_what_it_says(recorded):
    data = load_dataset(recorded["1"])
    assert f"wrote w1.npz: {len(data)} decisions from 2 games" in str(recorded["stdout1"])
    assert "dataset: 100%" in str(recorded["stderr1"])  # the progress bar
    assert [g["players"] for g in data.games] == [["astronomer", "journal"], ["journal", "astronomer"]]  # seats rotate
    for g, game in enumerate(data.games):
        rows = data.game == g
        # every seat is recorded by default: the rows are every decision of the game
        assert rows.sum() == game["decisions"] == len(data.actions_of(g))
        assert set(data.seat[rows].tolist()) == {0, 1}
    size = recorded["1"].stat().st_size
    assert size / len(data) < 100  # "compact": under 100 bytes a decision (a dense row is 38,532)


def test_rows_are_what_the_aec_env_gives_on_replay(recorded):
    """Replay game 1 in the PettingZoo env: every recorded observation, mask and action equals the env's."""
    data = load_dataset(recorded["1"])
    g = 1
    rows = np.flatnonzero(data.game == g)
    cfg = data.meta["config"]
    env = wayfarers_env.env(num_players=cfg["num_players"], board_sides=cfg["board_sides"], reward="win")
    env.reset(seed=data.games[g]["seed"])
    obs, masks = data.observations(rows), data.masks(rows)
    for k, action in enumerate(data.actions_of(g)):
        agent = env.agent_selection
        seen = env.observe(agent)
        assert int(data.seat[rows[k]]) == int(agent.split("_")[1])
        np.testing.assert_array_equal(obs[k], seen["observation"])
        np.testing.assert_array_equal(masks[k], seen["action_mask"].astype(bool))
        assert data.action[rows[k]] == action
        env.step(action)
    # the outcome: the env's final "win" reward and the VP margin of each seat
    for agent in env.possible_agents:
        seat = int(agent.split("_")[1])
        mine = rows[data.seat[rows] == seat]
        assert set(data.reward[mine].tolist()) == {env.unwrapped._cumulative_rewards[agent]}
        scores = env.unwrapped.infos[agent]["scores"]
        other = max(s["total"] for name, s in scores.items() if name != agent)
        assert set(data.margin[mine].tolist()) == {scores[agent]["total"] - other}
        # remaining counts this seat's later decisions: the last is 0, the first is the seat's count - 1
        assert data.remaining[mine].tolist() == list(range(len(mine) - 1, -1, -1))


def test_same_seed_same_file_for_any_number_of_workers(recorded):
    assert recorded["1"].read_bytes() == recorded["2"].read_bytes()


def test_a_game_comes_back_from_its_worker_already_coded():
    """A recorded game's observations arrive as three flat arrays coded against the game's own
    sorted table of values (4 bytes a value), not one array per decision: the per-decision arrays,
    kept for a whole run, were what ran 2,400 games out of 24 GiB. Decoding gives the rows back."""
    from experiments.dataset import from_rows, record_game, schedule

    spec = next(schedule(["astronomer", "journal"], 1, 5, GameConfig(num_players=2)))
    part = record_game((spec, (True, True)))
    assert all(isinstance(part[k], np.ndarray) for k in ("obs_lens", "obs_col", "obs_values", "obs_code"))
    assert part["obs_col"].dtype == np.uint16 and part["obs_code"].dtype == np.uint16
    assert len(part["obs_lens"]) == len(part["action"]) and part["obs_lens"].sum() == len(part["obs_col"]) == len(part["obs_code"])
    assert (np.diff(part["obs_values"]) > 0).all()  # sorted, each value once
    data = from_rows({}, [part, part])
    first, second = (
        data.observations(np.arange(len(part["action"]))),
        data.observations(len(part["action"]) + np.arange(len(part["action"]))),
    )
    assert (first == second).all() and first.any()
    rows = np.repeat(np.arange(len(part["obs_lens"])), part["obs_lens"])
    assert (first[rows, part["obs_col"]] == part["obs_values"][part["obs_code"]]).all()


def test_the_file_is_written_from_the_games_without_building_the_dataset(tmp_path):
    """``save_rows`` streams the observation arrays from each game's own arrays into the archive
    (what keeps a long run's merge from holding them twice, docs/TRAINING.md "Memory while
    writing"); the bytes are those of building the Dataset and saving it, and it loads back."""
    from experiments.dataset import file_meta, from_rows, play_and_record, save_rows

    config = GameConfig(num_players=2)
    meta, parts = play_and_record(["cartographer", "random"], 3, 8, config, progress=False)
    assert len(parts) == 3 and meta == file_meta(["cartographer", "random"], ["cartographer", "random"], 8, config)
    streamed, built = tmp_path / "streamed.npz", tmp_path / "built.npz"
    rows = save_rows(meta, parts, streamed)
    data = from_rows(meta, parts)
    save(data, built)
    assert rows == len(data) > 0
    assert streamed.read_bytes() == built.read_bytes()
    back = load_dataset(streamed)
    assert (back.obs_col == data.obs_col).all() and (back.obs_code == data.obs_code).all() and back.obs_code.dtype == data.obs_code.dtype
    empty = tmp_path / "empty.npz"
    assert save_rows(meta, [], empty) == 0
    assert empty.read_bytes() == (save(from_rows(meta, []), built) or built.read_bytes())


def test_record_keeps_only_the_seats_of_the_named_bots():
    data = build(["astronomer", "journal"], 1, 3, GameConfig(num_players=2), record={"journal"}, progress=False)
    journal_seat = data.games[0]["players"].index("journal")
    assert len(data) > 0 and set(data.seat.tolist()) == {journal_seat}
    assert data.games[0]["recorded"] == [journal_seat]
    assert len(data) < data.games[0]["decisions"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["--players", "cartographer,nobody"], ["--players", "unknown bot 'nobody'"]),
        (["--players", "greedy"], ["--players needs 2 to 4 bot names"]),
        (["--players", PLAYERS, "--games", "0"], ["--games", "at least 1"]),
        (["--players", PLAYERS, "--record", "greedy"], ["--record", "astronomer, journal"]),
        (["--players", PLAYERS, "--card-influence", "cards"], ["--card-influence", "--tides-of-trade"]),
        (["--players", PLAYERS, "--board-sides", "xyz"], ["board_sides"]),
    ],
)
def test_bad_input_is_one_error_line_and_writes_nothing(tmp_path, args, words, capsys, monkeypatch):
    """Through ``main`` in-process (the shell's path without an interpreter start per case; the
    shell itself is in the next test)."""
    from experiments.cli import main

    monkeypatch.chdir(tmp_path)
    try:
        status = main(["dataset", *args, "--out", "d.npz"])
    except SystemExit as exc:  # argparse's own checks (--games 0) exit from the parser
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    for word in words:
        assert word in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_an_existing_out_is_kept_without_overwrite(tmp_path):
    out = tmp_path / "d.npz"
    out.write_bytes(b"mine")
    res = wayfarers("dataset", "--players", PLAYERS, "--games", "1", "--out", str(out))
    assert res.returncode == 2 and "already exists" in res.stderr and "--overwrite" in res.stderr
    assert out.read_bytes() == b"mine"
    res = wayfarers("dataset", "--players", PLAYERS, "--games", "1", "--out", str(tmp_path))
    assert res.returncode == 2 and "is a folder" in res.stderr


def test_a_broken_file_is_named_with_its_problem(recorded, tmp_path):
    good = recorded["1"].read_bytes()
    cases = {
        "truncated.npz": good[: len(good) // 2],
        "text.npz": b"not a dataset at all",
    }
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        with pytest.raises(DatasetError, match=rf"{name}'.*corrupt or truncated"):
            load_dataset(tmp_path / name)
    # a member's bytes flipped: the zip's checksum tells
    flipped = bytearray(good)
    flipped[len(good) // 3] ^= 0xFF
    (tmp_path / "flipped.npz").write_bytes(bytes(flipped))
    with pytest.raises(DatasetError, match="flipped.npz"):
        load_dataset(tmp_path / "flipped.npz")
    # a well-formed archive that is not ours
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(DatasetError, match=r"other.npz'.*lacks meta"):
        load_dataset(tmp_path / "other.npz")
    # a consistent archive whose actions do not fit its masks
    with zipfile.ZipFile(recorded["1"]) as src, zipfile.ZipFile(tmp_path / "bad_action.npz", "w") as dst:
        for item in src.infolist():
            body = src.read(item)
            if item.filename == "action.npy":
                data = load_dataset(recorded["1"])
                wrong = data.action.copy()
                wrong[0] = np.flatnonzero(~data.masks(np.array([0]))[0])[0]
                buf = io.BytesIO()
                np.lib.format.write_array(buf, wrong)
                body = buf.getvalue()
            dst.writestr(item, body)
    with pytest.raises(DatasetError, match="not legal under its recorded mask"):
        load_dataset(tmp_path / "bad_action.npz")
    with pytest.raises(DatasetError, match="does not exist"):
        load_dataset(tmp_path / "missing.npz")


def test_help_loads_no_heavy_module():
    code = """
import sys
from experiments.cli import main
for command in ("dataset", "imitate"):
    try:
        main([command, "--help"])
    except SystemExit as exc:
        assert exc.code == 0
print("LOADED", [m for m in ("numpy", "torch", "sb3_contrib", "experiments.dataset") if m in sys.modules])
"""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "LOADED []" in res.stdout
    assert "usage: wayfarers dataset" in res.stdout and "usage: wayfarers imitate" in res.stdout


def test_the_layout_benchmark_prints_bytes_a_decision(recorded):
    """``python -m benchmarks.dataset_size``, the source of docs/TRAINING.md's layout table."""
    res = subprocess.run(
        [sys.executable, "-m", "benchmarks.dataset_size", str(recorded["1"]), "--games", "1"], capture_output=True, text=True, timeout=120
    )
    assert res.returncode == 0, res.stderr
    sizes = {m[0].strip(): float(m[1].replace(",", "")) for m in re.findall(r"^(.+?)\s+([\d,]+\.\d)\s+[\d,]+x$", res.stdout, re.M)}
    assert set(sizes) >= {"dense float32", "sparse, value codes (the file's)", "changes from the seat's last row"}
    assert sizes["sparse, value codes (the file's)"] < sizes["sparse, float32 values"] < sizes["dense float32"] < 38_532
