"""Training smoke test (needs the [train] extra: torch, sb3-contrib): a few thousand MaskablePPO
steps leave a usable run directory."""

from __future__ import annotations

import csv
import random

import pytest
import yaml

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

from experiments.train import TrainConfigError, load_config, run_training  # noqa: E402

pytestmark = pytest.mark.train


def _tiny(tmp_path, **extra):
    cfg = {
        "name": "smoke",
        "opponents": {"bots": ["random"]},
        "shaping": {"vp_margin": 0.02},
        "ppo": {"n_steps": 256, "batch_size": 128, "n_epochs": 1},
        "policy": {"net_arch": [32, 32]},
        "training": {"timesteps": 2048, "envs": 2, "checkpoint_every": 1024, "seed": 3},
        "evaluation": {"every": 1024, "games": 2, "opponents": ["random"]},
    }
    cfg.update(extra)
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


def test_training_run_directory(tmp_path):
    cfg = load_config(_tiny(tmp_path))
    out = run_training(cfg, tmp_path / "run", progress=False)
    saved = yaml.safe_load((out / "config.yaml").read_text())
    assert saved["training"]["timesteps"] == 2048 and saved["policy"]["net_arch"] == [32, 32]
    checkpoints = sorted((out / "checkpoints").glob("step_*.zip"))
    assert checkpoints and (out / "final_model.zip").exists()
    assert list((out / "tb").rglob("events.out.tfevents*"))
    rows = list(csv.DictReader((out / "evaluations.csv").open()))
    assert rows and {r["opponent"] for r in rows} == {"random"}
    assert all(int(r["games"]) == 2 and 0.0 <= float(r["win_rate"]) <= 1.0 for r in rows)
    assert float(rows[0]["win_low"]) <= float(rows[0]["win_rate"]) <= float(rows[0]["win_high"])

    # a checkpoint loads and plays a whole legal game as a bot
    from agents.base import choose
    from agents.random_bot import RandomBot
    from experiments.opponents import FrozenPolicy
    from wayfarers_env import Game, GameConfig

    bots = [FrozenPolicy(str(checkpoints[0])), RandomBot()]
    game = Game(GameConfig(num_players=2, max_turns=300), seed=5)
    rng = random.Random(5)
    decisions = 0
    while not game.is_over:
        game.apply(choose(bots[game.current_player], game, rng))  # choose() rejects illegal actions
        decisions += 1
    assert decisions > 10 and game.winners()


def test_evaluate_command_prints_a_table(tmp_path, capsys):
    cfg = load_config(_tiny(tmp_path, training={"timesteps": 512, "envs": 1, "checkpoint_every": 512, "seed": 1}))
    out = run_training(cfg, tmp_path / "run", progress=False)
    from experiments.cli import main

    assert main(["evaluate", str(out / "final_model.zip"), "--vs", "random", "--games", "2", "--seed", "7"]) == 0
    text = capsys.readouterr().out
    assert "random" in text and "win rate" in text


def test_bad_config_is_rejected(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"ppo": {"learnin_rate": 1e-3}}))
    with pytest.raises(TrainConfigError, match="learnin_rate.*allowed"):
        load_config(bad)
    bad.write_text(yaml.safe_dump({"opponents": {"bots": ["grandmaster"]}}))
    with pytest.raises(ValueError, match="grandmaster"):
        load_config(bad)
    with pytest.raises(TrainConfigError, match="does not exist"):
        load_config(tmp_path / "missing.yaml")


def test_shipped_configs_load():
    for name in ("ppo_2p_vs_bots", "ppo_2p_selfplay"):
        cfg = load_config(f"experiments/configs/{name}.yaml")
        assert cfg["env"]["num_players"] == 2
    assert load_config("experiments/configs/ppo_2p_selfplay.yaml")["selfplay"]["enabled"] is True


def test_selfplay_keeps_a_pool_of_frozen_checkpoints(tmp_path):
    extra = {
        "selfplay": {"enabled": True, "snapshot_every": 256, "pool_size": 2},
        "opponents": {"bots": ["random"], "bot_rate": 0.0},
        "training": {"timesteps": 1024, "envs": 1, "checkpoint_every": 1024, "seed": 2},
        "evaluation": {"every": 100000, "games": 1, "opponents": ["random"]},
    }
    out = run_training(load_config(_tiny(tmp_path, **extra)), tmp_path / "sp", progress=False)
    snaps = sorted((out / "checkpoints").glob("selfplay_*.zip"))
    assert len(snaps) >= 3
    from experiments.opponents import PoolEnv

    env = PoolEnv(bots=["random"], bot_rate=0.0, frozen=[str(s) for s in snaps[-2:]], seat=0, num_players=2)
    _obs, info = env.reset(seed=1)
    assert info["opponents"][0].startswith("frozen:")  # with bot_rate 0 every opponent is a past self
