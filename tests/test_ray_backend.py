"""``--backend ray`` from the shell (the [ray] extra): simulate and tournament play the games of
the process backend, byte for byte, with the same Parquet rows; Ctrl-C and ``--resume`` work as
they do with processes; ``--address`` joins a running Ray, whose CPUs bound ``--workers``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import foreground
import pytest

pytest.importorskip("ray")

pytestmark = pytest.mark.ray

CLI = [sys.executable, "-m", "experiments.cli"]
SIM = ["simulate", "--players", "random,random,random", "--games", "6", "--seed", "4", "--quiet"]
LEAGUE = ["tournament", "--bots", "random,cartographer", "--games", "3", "--seed", "2"]  # 6 games of about a second
TIMING = ("think_s", "ms_per_decision")  # what differs between two runs of the same games


def wayfarers(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600)
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    if check:
        assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def untimed(summary: dict) -> dict:
    """A simulate summary without what depends on the machine or the run's own settings."""
    drop = {"elapsed_s", "games_per_s", "workers"}
    out = {k: v for k, v in summary.items() if k not in drop}
    out["entrants"] = {name: {k: v for k, v in e.items() if k not in TIMING} for name, e in summary["entrants"].items()}
    return out


def log_rows(out: Path) -> list[dict]:
    import pyarrow.parquet as pq

    rows = [r for p in sorted((out / "logs").glob("seats-*.parquet")) for r in pq.read_table(p).to_pylist()]
    return [{k: v for k, v in r.items() if k not in TIMING} for r in sorted(rows, key=lambda r: (r["game"], r["seat"]))]


@pytest.fixture(scope="module")
def sim_reference(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sim") / "process"
    wayfarers(*SIM, "--workers", "2", "--out", str(out))
    return out


def test_simulate_through_ray_plays_the_process_backends_games(sim_reference, tmp_path):
    out = tmp_path / "ray"
    proc = wayfarers(*SIM, "--workers", "2", "--backend", "ray", "--out", str(out))
    assert "6 games," in proc.stdout and proc.stderr == ""  # --quiet: not a word from Ray either
    assert (out / "games.jsonl").read_bytes() == (sim_reference / "games.jsonl").read_bytes()
    ray_summary, ref = (json.loads((d / "summary.json").read_text()) for d in (out, sim_reference))
    assert ray_summary["complete"] is True and ray_summary["workers"] == 2
    assert untimed(ray_summary) == untimed(ref)


@pytest.fixture(scope="module")
def league_reference(tmp_path_factory) -> Path:
    pytest.importorskip("pyarrow")
    out = tmp_path_factory.mktemp("league") / "process"
    wayfarers(*LEAGUE, "--workers", "2", "--out", str(out), "--quiet")
    return out


def test_tournament_ctrl_c_through_ray_then_resume_ends_as_the_process_run(league_reference, tmp_path):
    """Ray's run is stopped by Ctrl-C after two games and resumed through Ray: the games, the
    standings and the Parquet rows are the uninterrupted process run's."""
    out = tmp_path / "ray"
    proc = foreground.start(
        [*CLI, *LEAGUE, "--backend", "ray", "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    games = out / "games.jsonl"
    deadline = time.monotonic() + 300
    while not (games.exists() and games.read_text().count("\n") >= 2):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no games written"
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "Traceback" not in stderr, stderr[-3000:]
    k = games.read_text().count("\n")
    assert 2 <= k < 6 and f"interrupted: {k} of 6 games finished; run the same command with --resume" in stderr
    assert len(log_rows(out)) == 2 * k

    wayfarers(*LEAGUE, "--backend", "ray", "--workers", "2", "--out", str(out), "--resume", "--quiet")
    assert games.read_bytes() == (league_reference / "games.jsonl").read_bytes()
    assert log_rows(out) == log_rows(league_reference)
    done, ref = (json.loads((d / "summary.json").read_text()) for d in (out, league_reference))
    assert (
        done["complete"]
        and done["rating"] == ref["rating"]
        and done["openskill"] == ref["openskill"]
        and done["pairwise"] == ref["pairwise"]
    )


@pytest.mark.parametrize("address", ["auto", "127.0.0.1:1"])
def test_no_ray_at_the_address_is_one_line_and_writes_nothing(tmp_path, address):
    if address == "auto" and os.environ.get("RAY_ADDRESS"):
        pytest.skip("RAY_ADDRESS names a cluster here")
    out = tmp_path / "none"
    started = time.monotonic()
    proc = wayfarers(*SIM, "--backend", "ray", "--address", address, "--out", str(out), check=False)
    assert proc.returncode == 2 and proc.stderr.startswith(f"error: cannot reach the Ray cluster at {address}")
    assert len(proc.stderr.strip().splitlines()) == 1 and not out.exists()
    assert time.monotonic() - started < 60  # not Ray's minutes of retries


@pytest.fixture(scope="module")
def running_ray():
    """A Ray started apart from the command (as ``ray start --head`` would), with 2 CPUs."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


def test_address_joins_a_running_ray(sim_reference, running_ray, tmp_path):
    out = tmp_path / "joined"
    wayfarers(*SIM, "--workers", "2", "--backend", "ray", "--address", running_ray, "--out", str(out))
    assert (out / "games.jsonl").read_bytes() == (sim_reference / "games.jsonl").read_bytes()


def test_more_workers_than_the_clusters_cpus_is_refused(running_ray, tmp_path):
    out = tmp_path / "big"
    proc = wayfarers(*SIM, "--workers", "3", "--backend", "ray", "--address", running_ray, "--out", str(out), check=False)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1
    assert f"--workers 3 needs 3 CPUs for its Ray actors; the Ray cluster at {running_ray} has 2: lower --workers" in proc.stderr
    assert not out.exists()
