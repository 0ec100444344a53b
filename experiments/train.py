"""``wayfarers train``: MaskablePPO on the single-agent view, against bots or in self-play.

The policy is sb3-contrib's MaskablePPO with an MLP over the flat observation vector
(docs/OBSERVATION.md): two hidden layers by default. An MLP sees every card slot as a fixed
position, so it must learn the same card features once per slot; a card-set encoder (a shared
per-card network pooled over the market rows and each panorama, DeepSets/attention style) would
share those weights and generalise across slots and panorama sizes. We keep the MLP as the
baseline because it trains fast on a CPU.

A run directory holds the resolved config (config.yaml), checkpoints/, final_model.zip,
TensorBoard logs (tb/) and evaluations.csv (every ``eval_every`` steps: win rate with a 95%
Wilson interval and mean score margin against each evaluation bot over a fixed set of seeds).
Self-play keeps a pool of frozen past checkpoints as opponents, mixed with bots at ``bot_rate``.
"""

from __future__ import annotations

import copy
import csv
import time
from pathlib import Path
from typing import Any

import yaml

DEFAULTS: dict[str, Any] = {
    "name": "ppo",
    "env": {"num_players": 2, "reward": "win", "board_sides": "random", "max_cycles": 20000},
    "opponents": {"bots": ["random"], "bot_rate": 1.0},
    "shaping": {"vp_margin": 0.0},
    "selfplay": {"enabled": False, "snapshot_every": 50000, "pool_size": 5},
    "ppo": {
        "learning_rate": 3.0e-4,
        "n_steps": 1024,
        "batch_size": 256,
        "n_epochs": 4,
        "gamma": 0.997,
        "gae_lambda": 0.95,
        "clip_range": 0.2,
        "ent_coef": 0.01,
        "vf_coef": 0.5,
    },
    "policy": {"net_arch": [256, 256], "activation": "relu"},
    "training": {"timesteps": 200000, "envs": 2, "seed": 0, "checkpoint_every": 50000},
    "evaluation": {"every": 25000, "games": 40, "opponents": ["random"], "seed": 10000},
}


class TrainConfigError(ValueError):
    """A training config naming an unknown section or field, or a bad value."""


def _merge(base: dict[str, Any], over: dict[str, Any], where: str) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if key not in base:
            raise TrainConfigError(f"{where}: unknown field {key!r}; allowed: {', '.join(sorted(base))}")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise TrainConfigError(f"{where}.{key}: expected a mapping, got {value!r}")
            out[key] = _merge(base[key], value, f"{where}.{key}")
        else:
            out[key] = value
    return out


def load_config(path: str | Path | None, **overrides: Any) -> dict[str, Any]:
    """DEFAULTS, updated by the YAML file, updated by command-line overrides (timesteps, seed, envs)."""
    cfg = copy.deepcopy(DEFAULTS)
    if path is not None:
        p = Path(path)
        if not p.exists():
            raise TrainConfigError(f"config file {p} does not exist")
        data = yaml.safe_load(p.read_text()) or {}
        if not isinstance(data, dict):
            raise TrainConfigError(f"{p}: expected a mapping at the top level")
        cfg = _merge(cfg, data, p.name)
    for key in ("timesteps", "seed", "envs"):
        if overrides.get(key) is not None:
            cfg["training"][key] = int(overrides[key])
    if cfg["policy"]["activation"] not in ("relu", "tanh"):
        raise TrainConfigError(f"policy.activation must be relu or tanh, got {cfg['policy']['activation']!r}")
    if not cfg["opponents"]["bots"]:
        raise TrainConfigError("opponents.bots needs at least one bot name")
    from agents.registry import make_bot

    for name in list(cfg["opponents"]["bots"]) + list(cfg["evaluation"]["opponents"]):
        make_bot(name)  # raises a clear error for an unknown name
    return cfg


def _env_factory(cfg: dict[str, Any], rank: int, seed: int):
    def make():
        import torch

        torch.set_num_threads(1)
        from experiments.opponents import PoolEnv

        env = PoolEnv(
            bots=cfg["opponents"]["bots"],
            bot_rate=cfg["opponents"]["bot_rate"],
            shaping=cfg["shaping"]["vp_margin"],
            seat="rotate",
            **cfg["env"],
        )
        env.reset(seed=seed + 1000 * rank)
        return env

    return make


def make_vec_env(cfg: dict[str, Any], n_envs: int, seed: int):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    fns = [_env_factory(cfg, rank, seed) for rank in range(n_envs)]
    vec = SubprocVecEnv(fns, start_method="fork") if n_envs > 1 else DummyVecEnv(fns)
    return VecMonitor(vec)  # episode return/length in the TensorBoard logs


def evaluate(model, cfg: dict[str, Any], opponent: str, games: int, seed: int) -> dict[str, float]:
    """Win rate (95% Wilson interval) and mean VP margin of the model against one bot, over the
    fixed seeds seed..seed+games-1, seats alternating."""
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from stable_baselines3.common.vec_env import DummyVecEnv

    from experiments.opponents import PoolEnv
    from experiments.stats import wilson

    finals: list[dict[str, Any]] = []

    def grab(local: dict[str, Any], _glob: dict[str, Any]) -> None:
        if local.get("done"):
            finals.append(local["info"])

    env_cfg = dict(cfg["env"])
    env = DummyVecEnv([lambda: PoolEnv(bots=[opponent], seat="rotate", **env_cfg)])
    env.seed(seed)
    evaluate_policy(model, env, n_eval_episodes=games, deterministic=True, callback=grab, warn=False)
    wins = margins = 0.0
    for info in finals:
        me = info["agent"]
        totals = {name: sc["total"] for name, sc in info["scores"].items()}
        margins += totals[me] - max(t for name, t in totals.items() if name != me)
        winners = info.get("winners", [])
        if me in winners:
            wins += 1.0 / len(winners)
    n = max(1, len(finals))
    lo, hi = wilson(wins, len(finals))
    return {"games": len(finals), "win_rate": wins / n, "win_low": lo, "win_high": hi, "mean_margin": margins / n}


def run_training(cfg: dict[str, Any], out: str | Path, progress: bool = True) -> Path:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    out = Path(out)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    (out / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    tr, ev, sp = cfg["training"], cfg["evaluation"], cfg["selfplay"]
    env = make_vec_env(cfg, tr["envs"], tr["seed"])
    activation = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh}[cfg["policy"]["activation"]]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        policy_kwargs={"net_arch": list(cfg["policy"]["net_arch"]), "activation_fn": activation},
        tensorboard_log=str(out / "tb"),
        seed=tr["seed"],
        device="cpu",
        verbose=0,
        **cfg["ppo"],
    )
    csv_path = out / "evaluations.csv"
    fields = ["timesteps", "wall_seconds", "opponent", "games", "win_rate", "win_low", "win_high", "mean_margin"]
    with csv_path.open("w", newline="") as fh:
        csv.DictWriter(fh, fields).writeheader()
    started = time.time()

    def run_eval(steps: int) -> None:
        for opponent in ev["opponents"]:
            row = evaluate(model, cfg, opponent, ev["games"], ev["seed"])
            row.update(timesteps=steps, wall_seconds=round(time.time() - started, 1), opponent=opponent)
            with csv_path.open("a", newline="") as fh:
                csv.DictWriter(fh, fields).writerow({k: row[k] for k in fields})
            model.logger.record(f"eval/win_rate_{opponent}", row["win_rate"])
            model.logger.record(f"eval/margin_{opponent}", row["mean_margin"])

    pool: list[str] = []

    class Periodic(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = ev["every"]
            self.next_ckpt = tr["checkpoint_every"]
            self.next_snap = sp["snapshot_every"]

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            if steps >= self.next_ckpt:
                self.model.save(out / "checkpoints" / f"step_{steps}.zip")
                self.next_ckpt += tr["checkpoint_every"]
            if sp["enabled"] and steps >= self.next_snap:
                path = out / "checkpoints" / f"selfplay_{steps}.zip"
                self.model.save(path)
                pool.append(str(path))
                del pool[: -sp["pool_size"]]
                self.training_env.env_method("set_frozen", list(pool))
                self.next_snap += sp["snapshot_every"]
            if steps >= self.next_eval:
                run_eval(steps)
                self.next_eval += ev["every"]
            return True

    model.learn(total_timesteps=tr["timesteps"], callback=Periodic(), progress_bar=progress, tb_log_name="run")
    model.save(out / "final_model.zip")
    with csv_path.open() as fh:
        done_at = [int(r["timesteps"]) for r in csv.DictReader(fh)]
    if model.num_timesteps not in done_at:
        run_eval(model.num_timesteps)
    env.close()
    return out


def run(args) -> int:
    cfg = load_config(args.config, timesteps=args.timesteps, seed=args.seed, envs=args.envs)
    out = args.out or f"runs/{cfg['name']}_seed{cfg['training']['seed']}"
    path = run_training(cfg, out)
    print(f"run directory: {path}")
    with (path / "evaluations.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    final = [r for r in rows if int(r["timesteps"]) == max(int(x["timesteps"]) for x in rows)]
    for r in final:
        print(
            f"  vs {r['opponent']:<13} win rate {float(r['win_rate']):.2f} "
            f"[{float(r['win_low']):.2f}, {float(r['win_high']):.2f}]  margin {float(r['mean_margin']):+.1f} VP"
        )
    return 0
