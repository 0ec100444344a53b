"""Issue 14's PPO paths: opponents drawn by decisions, fading potential shaping, per-opponent
TensorBoard statistics, --resume, training.init, and the training-speed benchmark.

Runs are tiny: games cut at ``max_cycles`` decisions (a truncated game is an episode like any
other), small policies, a few hundred steps."""

from __future__ import annotations

import csv
import random
import re
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
import yaml

pytest.importorskip("sb3_contrib")
pytest.importorskip("torch")

from experiments.opponents import SELF, DecisionMix, PoolEnv  # noqa: E402
from experiments.train import TrainConfigError, load_config, run_training  # noqa: E402

pytestmark = pytest.mark.train


def wayfarers(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True, timeout=600)


def _config(tmp_path, name: str = "tiny", **sections) -> str:
    cfg: dict[str, Any] = {
        "name": name,
        "env": {"max_cycles": 60},
        "opponents": {"mix": {"random": 0.5, "self": 0.5}},
        "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
        "policy": {"net_arch": [16]},
        "training": {"timesteps": 256, "envs": 1, "checkpoint_every": 128, "seed": 4},
        "evaluation": {"every": 128, "games": 1, "opponents": ["random"]},
    }
    for key, value in sections.items():
        cfg[key] = {**cfg.get(key, {}), **value}
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return str(path)


# ------------------------------------------------------------------ opponents by decisions


def test_decision_shares_match_the_mix_whatever_the_episode_lengths():
    """Games against random last ~8x longer than against greedy; drawn per episode with the mix's
    odds, random would take ~60% of the decisions instead of its 20%."""
    shares = {"random": 0.2, SELF: 0.5, "greedy": 0.2, "journal": 0.1}
    length = {"random": 1700, SELF: 1100, "greedy": 210, "journal": 270}
    mix, rng, gen = DecisionMix(shares), np.random.default_rng(3), random.Random(3)
    for _ in range(3000):
        name = mix.pick(rng)
        mix.count(name, gen.randint(length[name] // 2, 3 * length[name] // 2))
    total = sum(mix.decisions.values())
    for name, share in shares.items():
        assert abs(mix.decisions[name] / total - share) < 0.005, (name, mix.decisions[name] / total)

    # self is left out until the first snapshot: the others share its part in their own ratio
    fresh = DecisionMix(shares)
    for _ in range(400):
        name = fresh.pick(rng, available={"random", "greedy", "journal"})
        assert name != SELF
        fresh.count(name, length[name])
    total = sum(fresh.decisions.values())
    assert fresh.decisions[SELF] == 0 and abs(fresh.decisions["random"] / total - 0.4) < 0.01

    # new shares (leaning toward losses) steer the next episodes
    fresh.set_shares({"random": 0.0, SELF: 0.0, "greedy": 1.0, "journal": 0.0})
    assert {fresh.pick(rng) for _ in range(5)} == {"greedy"}
    with pytest.raises(ValueError, match="positive sum"):
        fresh.set_shares({"random": 0.0})


def test_shares_lean_toward_the_opponents_the_learner_loses_to():
    from experiments.train_loop import OpponentStats

    stats = OpponentStats(window=4)
    for won in (1, 1, 1, 0, 1):  # the window keeps the last 4: 3 wins of 4
        stats.add({"opponent": "random", "won": won, "margin": 5.0, "decisions": 100})
    stats.add({"opponent": "greedy", "won": 0.0, "margin": -20.0, "decisions": 30})
    assert stats.win_rate("random") == 0.75 and stats.win_rate("greedy") == 0.0 and stats.win_rate("journal") is None
    shares = stats.shares({"random": 0.5, "greedy": 0.25, "journal": 0.25}, floor=0.25)
    assert shares == {"random": 0.25, "greedy": 0.3125, "journal": 0.3125}  # base x ((1 - win rate) + floor)


# ------------------------------------------------------------------ potential shaping


def test_potential_shaping_telescopes_and_fades():
    from agents.evaluation import evaluate
    from experiments.train_loop import shaping_scale

    gamma, weight = 0.9, 0.5
    env = PoolEnv(bots=["random"], potential=weight, gamma=gamma, seat=0, num_players=2, max_cycles=400)
    env.reset(seed=5)
    phi0 = evaluate(env.game, env.seat)
    assert env.position_value() == pytest.approx(phi0)
    rng = np.random.default_rng(5)
    rewards = []
    for _ in range(40):
        _obs, r, term, trunc, _info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        assert not (term or trunc)
        rewards.append(r)
    discounted = sum(gamma**t * r for t, r in enumerate(rewards))  # no game reward before the end: all shaping
    assert discounted == pytest.approx(weight * (gamma**40 * evaluate(env.game, env.seat) - phi0), abs=1e-9)
    assert any(abs(r) > 1e-6 for r in rewards)

    # to the end of the episode (cut at max_cycles): Phi of the last state is 0, the sum is -Phi(s0)
    while True:
        _obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        rewards.append(r)
        if term or trunc:
            break
    assert trunc and "truncated_at" in info
    assert sum(gamma**t * r for t, r in enumerate(rewards)) == pytest.approx(-weight * phi0, abs=1e-9)

    # faded out: nothing but the game's own reward
    env.set_shaping_scale(0.0)
    env.reset(seed=6)
    assert all(env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))[1] == 0.0 for _ in range(30))
    cfg = {"shaping": {"fade_steps": 1000}}
    assert [shaping_scale(cfg, s) for s in (0, 250, 1000, 5000)] == [1.0, 0.75, 0.0, 0.0]
    assert shaping_scale({"shaping": {"fade_steps": 0}}, 10**9) == 1.0  # 0: never fades


def test_mix_config_is_checked(tmp_path):
    with pytest.raises(TrainConfigError, match=r"opponents.mix: .*'grandmaster'.*or self"):
        load_config(_config(tmp_path, opponents={"mix": {"grandmaster": 1.0}}))
    with pytest.raises(TrainConfigError, match=r"opponents.mix must be a mapping of opponent .* shares? of the learner's decisions"):
        load_config(_config(tmp_path, opponents={"mix": {"random": -1}}))
    with pytest.raises(TrainConfigError, match=r"shaping.fade_steps must be a whole number"):
        load_config(_config(tmp_path, shaping={"fade_steps": 0.5}))
    cfg = load_config("experiments/configs/ppo_2p_vs_bots.yaml")
    assert SELF in cfg["opponents"]["mix"] and cfg["shaping"]["potential"] > 0 and cfg["shaping"]["fade_steps"] > 0


def test_trunk_config_is_checked(tmp_path):
    for bad, words in ((-1, "policy.trunk must be a whole number >= 0"), (1.5, "policy.trunk must be a whole number")):
        path = _config(tmp_path, "bad", policy={"trunk": bad})
        res = wayfarers("train", "--config", path, "--out", str(tmp_path / "bad"))
        assert res.returncode == 2 and res.stderr.startswith("error: ") and "Traceback" not in res.stderr, res.stderr
        assert words in res.stderr and repr(bad) in res.stderr and len(res.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "bad").exists()
    assert load_config(_config(tmp_path))["policy"]["trunk"] == 0  # old configs: no trunk, the heads as before
    assert load_config("experiments/configs/ppo_2p_vs_bots.yaml")["policy"]["trunk"] > 0


def test_the_default_policy_trains_from_the_shell_and_evaluate_plays_it(tmp_path):
    """The shipped config's policy section (a trunk, then the heads), as a user runs train and evaluate."""
    policy = yaml.safe_load(open("experiments/configs/ppo_2p_vs_bots.yaml"))["policy"]
    run = tmp_path / "run"
    res = wayfarers("train", "--config", _config(tmp_path, "shipped", policy=policy), "--out", str(run))
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    from agents.policy_bot import load_model

    model = load_model(run / "final_model.zip")
    assert model.policy.features_extractor.features_dim == policy["trunk"] and model.num_timesteps == 256
    res = wayfarers("evaluate", str(run / "final_model.zip"), "--vs", "random", "--games", "1", "--seed", "3")
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    row = res.stdout.splitlines()[1].split()
    assert row[0] == "random" and int(row[1]) == 1 and float(row[2]) in (0.0, 0.5, 1.0)


def test_a_trunk_is_one_layer_shared_by_the_policy_and_value_heads():
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from experiments.extractor import policy_kwargs, sample_observations, value_columns
    from wayfarers_env.envs.observation import OBS_SIZE, observation_bounds
    from wayfarers_env.rules.actions import NUM_ACTIONS

    low, high = observation_bounds()
    space = spaces.Box(low, high, (OBS_SIZE,), np.float32)

    def build(**kw):
        torch.manual_seed(0)
        return MaskableActorCriticPolicy(space, spaces.Discrete(NUM_ACTIONS), lambda _: 3e-4, **policy_kwargs("mlp", [8], "relu", **kw))

    def wide(policy) -> int:  # layers reading the whole vector of values
        return sum(isinstance(m, torch.nn.Linear) and m.in_features == len(value_columns()) for m in policy.modules())

    plain, shared = build(), build(trunk=16)
    assert wide(plain) == 2 and wide(shared) == 1  # without a trunk each head has its own first layer
    assert shared.features_extractor.features_dim == 16 and shared.share_features_extractor
    assert shared.mlp_extractor.policy_net[0].in_features == shared.mlp_extractor.value_net[0].in_features == 16
    obs = torch.as_tensor(sample_observations(6, seed=1))
    layer = shared.features_extractor.trunk[0]
    for head in ("values", "log_prob"):  # both heads learn through the one trunk
        shared.zero_grad()
        values, log_prob, _ = shared.evaluate_actions(obs, torch.zeros(6, dtype=torch.long))
        {"values": values, "log_prob": log_prob}[head].sum().backward()
        assert layer.weight.grad is not None and layer.weight.grad.abs().sum() > 0, head


# ------------------------------------------------------------------ statistics, resume, init


def _scalars(run) -> dict[str, list[tuple[int, float]]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # type: ignore[import-untyped]

    out: dict[str, list[tuple[int, float]]] = {}
    dirs = sorted(p.parent for p in (run / "tb").rglob("events.out.tfevents*"))
    for d in sorted(set(dirs)):
        acc = EventAccumulator(str(d))
        acc.Reload()
        for tag in acc.Tags()["scalars"]:
            out.setdefault(tag, []).extend((e.step, e.value) for e in acc.Scalars(tag))
    return out


def test_resume_continues_the_step_count_the_csv_and_the_tensorboard_log(tmp_path):
    config = _config(tmp_path, shaping={"potential": 0.01, "fade_steps": 512})
    run = tmp_path / "run"
    res = wayfarers("train", "--config", config, "--out", str(run))
    assert res.returncode == 0, res.stderr
    names = sorted(p.name for p in (run / "checkpoints").iterdir())
    assert names == ["selfplay_0.zip", "step_128.zip", "step_256.zip"]  # the untrained policy is the first self

    # per-opponent statistics from the episodes' infos, in TensorBoard during training
    tags = _scalars(run)
    for name in ("random", "self"):
        for what in ("win_rate", "margin", "episode_decisions", "decision_share"):
            assert f"opponents/{name}/{what}" in tags, sorted(tags)
    lengths = [v for _, v in tags["opponents/random/episode_decisions"]]
    assert all(5 <= v < 60 for v in lengths)  # games cut at 60 decisions of both seats
    scale = dict(tags["shaping/scale"])  # logged at each rollout's end: 1 - steps / fade_steps
    assert scale[64] == pytest.approx(0.875) and scale[256] == pytest.approx(0.5)

    # as if stopped after the first checkpoint: the 256 rows and checkpoint are gone or stale
    (run / "checkpoints" / "step_256.zip").unlink()
    (run / "final_model.zip").unlink()
    res = wayfarers("train", "--resume", str(run), "--timesteps", "384")
    assert res.returncode == 0, res.stderr
    rows = list(csv.DictReader((run / "evaluations.csv").open()))
    assert [int(r["timesteps"]) for r in rows] == [128, 256, 384]  # the stale 256 row evaluated again, once
    from agents.policy_bot import load_model

    assert load_model(run / "final_model.zip").num_timesteps == 384
    assert yaml.safe_load((run / "config.yaml").read_text())["training"]["timesteps"] == 384
    assert sorted(p.name for p in (run / "tb").iterdir()) == ["run_1"]  # one TensorBoard run, continued
    steps = [s for s, _ in _scalars(run)["time/fps"]]
    assert max(steps) == 384 and min(steps) == 64

    # refusals: one line, exit 2, nothing changed
    before = (run / "final_model.zip").read_bytes()
    for args, words in (
        (("--resume", str(run)), ["already trained to 384 steps", "--timesteps above 384"]),
        (("--resume", str(run), "--config", config), ["drop --config", "only --timesteps"]),
        (("--resume", str(tmp_path)), ["no run there", "config.yaml"]),
        ((), ["--config FILE", "--resume RUN_DIR"]),
    ):
        res = wayfarers("train", *args)
        assert res.returncode == 2 and res.stderr.startswith("error: ") and "Traceback" not in res.stderr, res.stderr
        assert all(w in res.stderr for w in words), res.stderr
    assert (run / "final_model.zip").read_bytes() == before


def test_init_starts_from_a_saved_model_and_refuses_another_architecture(tmp_path):
    import torch

    first = run_training(load_config(_config(tmp_path, "first", training={"timesteps": 64})), tmp_path / "first", progress=False)
    model_zip = first / "final_model.zip"
    # learning rate ~0: the second run's weights are the first run's
    cfg = load_config(_config(tmp_path, "second", ppo={"learning_rate": 1e-12}, training={"timesteps": 64, "init": str(model_zip)}))
    second = run_training(cfg, tmp_path / "second", progress=False)
    from agents.policy_bot import load_model

    rows = list(csv.DictReader((second / "evaluations.csv").open()))
    assert [int(r["timesteps"]) for r in rows] == [0, 64]  # the started-from model is evaluated first
    assert list(csv.DictReader((first / "evaluations.csv").open()))[0]["timesteps"] != "0"  # a fresh start is not
    a, b = load_model(model_zip).policy.state_dict(), load_model(second / "final_model.zip").policy.state_dict()
    assert a.keys() == b.keys() and all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)
    fresh = load_model(tmp_path / "first" / "checkpoints" / "selfplay_0.zip").policy.state_dict()
    assert not all(torch.allclose(a[k], fresh[k]) for k in a)  # the first run did move its weights

    # another architecture: one error line naming both, nothing written
    bad = _config(tmp_path, "bad", policy={"net_arch": [32]}, training={"init": str(model_zip)})
    res = wayfarers("train", "--config", bad, "--out", str(tmp_path / "bad"))
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert "training.init" in res.stderr and "[16]" in res.stderr and "[32]" in res.stderr
    assert not (tmp_path / "bad").exists()
    bad = _config(tmp_path, "bad", policy={"trunk": 8}, training={"init": str(model_zip)})  # the same heads after a trunk
    res = wayfarers("train", "--config", bad, "--out", str(tmp_path / "bad"))
    assert res.returncode == 2 and "training.init" in res.stderr and "'features': 8}" not in res.stderr, res.stderr
    assert "'features': 8," in res.stderr and "trunk" in res.stderr and not (tmp_path / "bad").exists()
    with pytest.raises(TrainConfigError, match="training.init: no trained policy"):
        load_config(_config(tmp_path, "missing", training={"init": str(tmp_path / "nothing.zip")}))


# ------------------------------------------------------------------ the benchmark


def test_bench_train_prints_learner_and_env_rates_beside_the_old_config(tmp_path):
    config = _config(tmp_path, "benchy")
    cmd = [sys.executable, "-m", "benchmarks.bench_train", "--config", config, "--seconds", "1", "--n-steps", "32", "--envs", "1"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("config"))
    assert lines[header].split() == ["config", "learner", "steps/s", "x", "old", "env-only", "steps/s", "learner/env"]
    old, mine = lines[header + 1].split(), lines[header + 2].split()
    assert old[0] == "old" and mine[0] == "benchy"
    assert float(old[2]) == 1.0 and float(old[1]) > 0 and float(mine[1]) > 0 and float(mine[3]) > 0
    # the rates are printed rounded to whole steps/s, the ratio from the unrounded ones: it lies
    # between the ratios of the rates' extremes (a busy machine's old rate can be ~7 steps/s)
    lo, hi = (float(mine[1]) - 0.5) / (float(old[1]) + 0.5), (float(mine[1]) + 0.5) / max(float(old[1]) - 0.5, 1e-9)
    assert lo - 0.005 <= float(mine[2]) <= hi + 0.005
    assert "old: MlpPolicy whole vector; per episode random/random/random/journal" in res.stdout
    assert "benchy: mlp [16]; mix random 0.5, self 0.5 of decisions" in res.stdout

    res = subprocess.run([*cmd[:3], "--seconds", "0"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and res.stderr.startswith("error: --seconds must be > 0")


def test_train_split_prints_where_the_learner_time_goes(tmp_path):
    config = _config(tmp_path, "splitty", ppo={"n_steps": 32, "batch_size": 32}, training={"envs": 2})
    cmd = [sys.executable, "-m", "benchmarks.train_split", "--config", config, "--rollouts", "2"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("splitty: 128 learner steps in ")  # 2 rollouts of 32 steps x 2 envs
    wall = float(re.search(r" in ([\d.]+) s", lines[0]).group(1))
    seconds = {line.split("  ")[1]: float(re.search(r"([\d.]+) s", line).group(1)) for line in lines[1:]}
    assert list(seconds) == ["update (env processes idle)", "rollouts", "learner process CPU", "env processes CPU"]
    assert seconds["rollouts"] > 0 and seconds["learner process CPU"] > 0
    assert seconds["update (env processes idle)"] + seconds["rollouts"] == pytest.approx(wall, abs=0.011)
    assert seconds["env processes CPU"] > 0  # the env processes' CPU time, read from /proc
    for flag in ("--rollouts", "--envs"):
        res = subprocess.run([sys.executable, "-m", "benchmarks.train_split", flag, "0"], capture_output=True, text=True, timeout=120)
        assert res.returncode == 2 and res.stderr.startswith(f"error: {flag} must be a whole number >= 1, got 0")


def test_step_major_buffer_keeps_every_sample_whole():
    """The update's rows hold the same (observation, action, mask, advantage) samples as SB3's buffer, without its copy."""
    import torch
    from gymnasium import spaces
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

    from experiments.train_loop import StepMajorBuffer

    obs_space, act_space = spaces.Box(-1e3, 1e3, (3,), np.float32), spaces.Discrete(4)
    rows = []
    for cls in (MaskableRolloutBuffer, StepMajorBuffer):
        buf = cls(5, obs_space, act_space, n_envs=2, gamma=0.9)
        for step in range(5):
            obs = np.array([[step, env, 10 * step + env] for env in range(2)], np.float32)
            masks = np.array([[(step + env + k) % 2 == 0 for k in range(4)] for env in range(2)])
            buf.add(
                obs,
                np.array([[step % 4], [(step + 1) % 4]]),
                np.array([step, -step], np.float32),
                np.array([step == 0] * 2),
                torch.tensor([0.5 * step, 0.1 * step]),
                torch.tensor([-1.0, -2.0]),
                action_masks=masks,
            )
        buf.compute_returns_and_advantage(last_values=torch.tensor([1.0, 2.0]), dones=np.array([False, True]))
        data = next(buf.get(batch_size=None))
        rows.append(
            sorted(
                (tuple(o), float(a), tuple(m), round(float(adv), 5), round(float(ret), 5))
                for o, a, m, adv, ret in zip(
                    data.observations.tolist(), data.actions, data.action_masks.tolist(), data.advantages, data.returns
                )
            )
        )
        if cls is StepMajorBuffer:  # flattened step-major: row k is step k // 2, env k % 2
            assert buf.observations[:, 2].tolist() == [10 * (k // 2) + k % 2 for k in range(10)]
    assert rows[0] == rows[1] and len(rows[0]) == 10
