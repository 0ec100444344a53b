"""The Ray options from the shell, where Ray is not needed: a mistake, or Ray missing, is one
``error:`` line with status 2 that writes nothing. These run in the light default suite; Ray is
hidden from the command (``sys.modules["ray"] = None``) so that they mean the same where the
[ray] extra is installed."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

HIDE_RAY = "import sys; sys.modules['ray'] = None; from experiments.cli import main; sys.exit(main(sys.argv[1:]))"


def cli(*args: str, hide_ray: bool = False) -> subprocess.CompletedProcess:
    head = [sys.executable, "-c", HIDE_RAY] if hide_ray else [sys.executable, "-m", "experiments.cli"]
    return subprocess.run([*head, *args], capture_output=True, text=True, timeout=120)


def one_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    return proc.stderr


def tiny_config(tmp_path, **extra) -> str:
    cfg = {"ppo": {"train_batch_size": 200, "batch_size": 100, "n_epochs": 1}, "training": {"timesteps": 200}, **extra}
    path = tmp_path / "rllib.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return str(path)


def test_train_rllib_without_ray_names_the_extra(tmp_path):
    out = tmp_path / "run"
    err = one_error(cli("train", "--algo", "rllib-ppo", "--config", tiny_config(tmp_path), "--out", str(out), hide_ray=True))
    assert 'needs ray, from the [ray] extra: pip install -e ".[ray]"' in err
    assert not out.exists()


def test_simulate_backend_ray_without_ray_names_the_extra(tmp_path):
    out = tmp_path / "run"
    err = one_error(cli("simulate", "--players", "random,random", "--games", "2", "--backend", "ray", "--out", str(out), hide_ray=True))
    assert "--backend ray needs Ray, from the [ray] extra" in err
    assert not out.exists()


def test_tournament_backend_ray_without_ray_names_the_extra(tmp_path):
    pytest.importorskip("pyarrow")  # the tournament asks for its Parquet library first
    out = tmp_path / "league"
    err = one_error(cli("tournament", "--bots", "random,journal", "--games", "1", "--backend", "ray", "--out", str(out), hide_ray=True))
    assert "--backend ray needs Ray, from the [ray] extra" in err
    assert not out.exists()


@pytest.mark.parametrize("command", [["simulate", "--players", "random,random"], ["tournament", "--bots", "random,journal"]])
def test_address_needs_the_ray_backend(tmp_path, command):
    if command[0] == "tournament":
        pytest.importorskip("pyarrow")
    out = tmp_path / "run"
    err = one_error(cli(*command, "--games", "1", "--address", "auto", "--out", str(out)))
    assert "--address auto names a Ray cluster: add --backend ray, or drop --address" in err
    assert not out.exists()


@pytest.mark.parametrize("address", ["nowhere", "host:port", "10.0.0.5", "ray://10.0.0.5:10001"])
def test_a_malformed_address_is_refused_by_name(tmp_path, address):
    err = one_error(cli("simulate", "--players", "random,random", "--backend", "ray", "--address", address, "--out", str(tmp_path / "r")))
    assert f"must be 'auto' or HOST:PORT of a Ray head node (e.g. 10.0.0.5:6379), got {address!r}" in err
    assert not (tmp_path / "r").exists()


def test_an_unknown_backend_lists_the_choices():
    err = one_error(cli("simulate", "--players", "random,random", "--backend", "dask"))
    assert "invalid choice: 'dask'" in err and "'process'" in err and "'ray'" in err


def test_maskable_ppo_takes_no_address(tmp_path):
    err = one_error(cli("train", "--config", tiny_config(tmp_path), "--address", "auto", "--out", str(tmp_path / "run")))
    assert "--address names a Ray cluster for --algo rllib-ppo" in err
    assert not (tmp_path / "run").exists()


def test_an_unknown_algo_lists_the_choices(tmp_path):
    err = one_error(cli("train", "--algo", "dqn", "--config", tiny_config(tmp_path)))
    assert "invalid choice: 'dqn'" in err and "'maskable-ppo'" in err and "'rllib-ppo'" in err


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"selfplay": {"mapping": "league"}}, "selfplay.mapping must be shared (every seat one policy) or per_seat"),
        ({"selfplay": {"enabled": True}}, "unknown field 'selfplay.enabled'; allowed in selfplay: mapping"),
        ({"ppo": {"n_steps": 1024}}, "unknown field 'ppo.n_steps'"),
        ({"ppo": {"batch_size": 512, "train_batch_size": 256}}, "ppo.batch_size (512) must not exceed ppo.train_batch_size (256)"),
        ({"ppo": {"train_batch_size": 0}}, "ppo.train_batch_size must be a whole number >= 1, got 0"),
        ({"env": {"num_players": 5}}, "env: "),
        ({"evaluation": {"opponents": ["nobody"]}}, "evaluation.opponents: unknown bot 'nobody'"),
    ],
)
def test_a_bad_rllib_config_is_one_line_before_ray_is_needed(tmp_path, extra, message):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(extra))
    out = tmp_path / "run"
    err = one_error(cli("train", "--algo", "rllib-ppo", "--config", str(path), "--out", str(out), hide_ray=True))
    assert message in err and str(path) in err
    assert not out.exists()


def test_help_names_the_options():
    train = cli("train", "--help").stdout
    assert "--algo {maskable-ppo,rllib-ppo}" in train and "--address auto|HOST:PORT" in train
    for command in ("simulate", "tournament"):
        text = cli(command, "--help").stdout
        assert "--backend {process,ray}" in text and "--address auto|HOST:PORT" in text
