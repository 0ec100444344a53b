"""Training smoke test (needs the [train] extra: torch, sb3-contrib): a few thousand MaskablePPO
steps leave a usable run directory."""

from __future__ import annotations

import csv
import random
import re
import subprocess
import sys

import gymnasium
import numpy as np
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

    # the learning curve of the run, and a clear refusal of a folder that holds no run
    plot = [sys.executable, "-m", "experiments.plot"]
    res = subprocess.run([*plot, str(out), "--out", str(tmp_path / "curve.png")], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = subprocess.run([*plot, str(tmp_path / "nothing")], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stderr.startswith("error: no evaluations.csv") and "Traceback" not in res.stderr


def wayfarers(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def test_train_command_from_the_shell_with_its_progress_bar(tmp_path):
    """As the README runs it, progress bar on (SB3 needs rich and tqdm from the [train] extra)."""
    config = tmp_path / "tiny.yaml"
    tiny = {
        "name": "shell",
        "ppo": {"n_steps": 64, "batch_size": 32, "n_epochs": 1},
        "policy": {"net_arch": [16]},
        "training": {"timesteps": 256, "envs": 1, "checkpoint_every": 128, "seed": 4},
        "evaluation": {"every": 128, "games": 1, "opponents": ["random", "journal"]},
    }
    config.write_text(yaml.safe_dump(tiny))
    run = tmp_path / "run"
    res = wayfarers("train", "--config", str(config), "--out", str(run))
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    assert "256/256" in res.stdout + res.stderr  # the progress bar reached the end
    assert f"run directory: {run}" in res.stdout
    assert re.search(r"vs random\s+win rate [01]\.\d\d \[\d\.\d\d, \d\.\d\d\]\s+margin [+-]\d+\.\d VP", res.stdout)
    assert "vs journal" in res.stdout
    assert (run / "final_model.zip").is_file()
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["step_128.zip", "step_256.zip"]
    rows = list(csv.DictReader((run / "evaluations.csv").open()))
    assert [(int(r["timesteps"]), r["opponent"]) for r in rows] == [(128, "random"), (128, "journal"), (256, "random"), (256, "journal")]
    assert all(int(r["games"]) == 1 and float(r["win_rate"]) in (0.0, 1.0) for r in rows)
    assert yaml.safe_load((run / "config.yaml").read_text())["training"]["seed"] == 4
    from agents.policy_bot import load_model

    assert load_model(run / "final_model.zip").num_timesteps == 256

    # a second run into the same folder is refused, the first run untouched
    model_bytes = (run / "final_model.zip").read_bytes()
    res = wayfarers("train", "--config", str(config), "--out", str(run), "--seed", "5")
    assert res.returncode == 2 and res.stderr.startswith("error: ") and "--overwrite" in res.stderr
    assert (run / "final_model.zip").read_bytes() == model_bytes

    # --overwrite replaces the whole run: no checkpoint of the old one is left behind
    res = wayfarers("train", "--config", str(config), "--out", str(run), "--seed", "5", "--timesteps", "64", "--overwrite")
    assert res.returncode == 0, res.stderr
    assert yaml.safe_load((run / "config.yaml").read_text())["training"]["seed"] == 5
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == []  # 64 steps: before the first checkpoint
    assert {int(r["timesteps"]) for r in csv.DictReader((run / "evaluations.csv").open())} == {64}

    # evaluate from the shell: progress bar on stderr, one row per bot, under 100 columns
    long_name = "policy:" + str(run / "final_model.zip")
    res = wayfarers("evaluate", str(run / "final_model.zip"), "--vs", f"random,greedy,{long_name}", "--games", "2", "--seed", "7")
    assert res.returncode == 0, res.stderr
    assert "evaluate: 100%" in res.stderr and "6/6" in res.stderr
    # on the game the run trained on, read from its config.yaml
    assert f"note: evaluating on the base game, 2 players, board sides random: the env of {run / 'config.yaml'}" in res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].split() == ["opponent", "games", "win", "rate", "95%", "interval", "margin"]
    assert [line.split()[0] for line in lines[1:]] == ["random", "greedy", "..." + long_name[-37:]]
    for line in lines[1:]:
        games, rate, lo, hi = line.split()[1:5]
        assert int(games) == 2 and float(rate) in (0.0, 0.25, 0.5, 0.75, 1.0)  # a shared win counts 1/2 (the policy against itself)
        assert float(lo.strip("[,")) <= float(rate) <= float(hi.strip("]"))
    assert max(len(line) for line in lines) <= 100


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


# ------------------------------------------------------------------ feature extractors (issue 14)


def test_extractors_read_a_real_observation_batch():
    import torch

    from experiments import train
    from experiments.extractor import EXTRACTORS, CardsExtractor, ValuesExtractor, policy_kwargs, sample_observations, value_columns
    from wayfarers_env.envs.observation import OBS_SIZE, L, observation_bounds

    assert tuple(EXTRACTORS) == train.EXTRACTORS
    low, high = observation_bounds()
    space = gymnasium.spaces.Box(low, high, (OBS_SIZE,), np.float32)
    batch = sample_observations(12, seed=3)
    assert batch.shape == (12, OBS_SIZE) and ((batch >= low) & (batch <= high)).all()
    obs = torch.as_tensor(batch)

    flat = ValuesExtractor(space)
    out = flat(obs)
    index_cols = [i for s in L.slices if s.kind == "index" for i in range(s.start, s.stop)]
    assert out.shape == (12, OBS_SIZE - len(index_cols)) == (12, flat.features_dim)
    assert torch.equal(out, obs[:, value_columns()]) and out.abs().max() <= 2  # no card index among its values
    assert batch[:, index_cols].max() > 100  # ... while the batch holds indices up to 194

    torch.manual_seed(0)
    cards = CardsExtractor(space)
    assert sorted(cards.columns()) == list(range(OBS_SIZE))  # every value read once, by kind
    out = cards(obs)
    assert out.shape == (12, 256) == (12, cards.features_dim) and torch.isfinite(out).all() and out.abs().sum() > 0
    # a card index is read as a category: another card in a market slot changes the features
    ids = L["market.ids"]
    slot = int(np.flatnonzero(batch[0, ids.start : ids.stop])[0])
    other = obs.clone()
    other[0, ids.start + slot] = 1 + (int(obs[0, ids.start + slot]) % 194)
    assert not torch.allclose(cards(other)[0], out[0]) and torch.equal(cards(other)[1:], out[1:])
    out.sum().backward()  # the shared embedding learns from every card named
    named = {int(i) for i in obs[:, index_cols].flatten().tolist() if i > 0}
    grads = cards.embed.weight.grad
    assert grads[0].abs().sum() == 0 and all(grads[i].abs().sum() > 0 for i in named)
    with pytest.raises(ValueError, match="mlp, cards"):
        policy_kwargs("transformer", [8], "relu")


def test_train_with_the_card_extractor_from_the_shell(tmp_path):
    config = tmp_path / "cards.yaml"
    tiny = {
        "name": "cards",
        "ppo": {"n_steps": 64, "batch_size": 32, "n_epochs": 1},
        "policy": {"extractor": "cards", "net_arch": [16]},
        "training": {"timesteps": 128, "envs": 1, "checkpoint_every": 128, "seed": 6},
        "evaluation": {"every": 128, "games": 1, "opponents": ["random"]},
    }
    config.write_text(yaml.safe_dump(tiny))
    run = tmp_path / "run"
    res = wayfarers("train", "--config", str(config), "--out", str(run))
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr and f"run directory: {run}" in res.stdout
    saved = yaml.safe_load((run / "config.yaml").read_text())["policy"]
    assert saved == {"extractor": "cards", "net_arch": [16], "activation": "relu", "trunk": 0}
    rows = list(csv.DictReader((run / "evaluations.csv").open()))
    assert [(int(r["timesteps"]), r["opponent"]) for r in rows] == [(128, "random")]

    from agents.base import choose
    from agents.policy_bot import PolicyBot, load_model
    from experiments.extractor import CardsExtractor
    from wayfarers_env import Game, GameConfig

    model = load_model(run / "final_model.zip")
    assert type(model.policy.features_extractor) is CardsExtractor and model.num_timesteps == 128
    bot, game, rng = PolicyBot(model), Game(GameConfig(num_players=2), seed=2), random.Random(2)
    for _ in range(60):  # the saved policy decides legal moves (choose() rejects any other)
        game.apply(choose(bot, game, rng))

    # a model of another observation version (the same size, other bounds: v3's were +-1000) is refused
    model.observation_space = gymnasium.spaces.Box(-1000, 1000, model.observation_space.shape, np.float32)
    model.save(tmp_path / "v3.zip")
    res = wayfarers("evaluate", str(tmp_path / "v3.zip"), "--vs", "random", "--games", "1")
    assert res.returncode == 2 and "Traceback" not in res.stderr and res.stderr.startswith("error: ")
    assert "trained on another version of the observation" in res.stderr

    # an unknown extractor: one error line naming the allowed ones, exit 2, nothing written
    config.write_text(yaml.safe_dump({**tiny, "policy": {"extractor": "transformer"}}))
    res = wayfarers("train", "--config", str(config), "--out", str(tmp_path / "bad"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.startswith("error: ") and len(res.stderr.strip().splitlines()) == 1
    assert "policy.extractor must be mlp" in res.stderr and "or cards" in res.stderr and "'transformer'" in res.stderr
    assert not (tmp_path / "bad").exists()
