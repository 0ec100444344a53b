"""Training speed of ``wayfarers train``: learner steps per second of MaskablePPO for a config,
beside the old default config and the environment alone, in one run.

A *learner step* is one environment step consumed by ``MaskablePPO.learn``: the rollout (the
learner's batched forward, the opponents' moves inside the env processes) and its share of the
PPO updates. The rate counts whole rollouts only, from the end of the first one (a warm-up:
process start-up, the first model loads) to the end of the update of the last one that finished
within ``--seconds``; building the env processes and the model is left out. The env-only rate
is one process playing the same opponents with random legal learner moves (no policy, no
update): what one core gives.

"old" is the default config before issue 14 (experiments/configs/ppo_2p_vs_bots.yaml at
09c31f4), reproduced exactly: SB3's plain MlpPolicy over the whole observation vector (card
indices included, as v3 trained), net_arch [256, 256]; one opponent per *episode* from [random,
random, random, journal]; vp_margin shaping 0.02; n_steps 1024, batch 256, 4 epochs; 2 envs.

    python -m benchmarks.bench_train                       (the default config, 60 s a row)
    python -m benchmarks.bench_train --config experiments/configs/ppo_2p_selfplay.yaml --seconds 30
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_CONFIG = "experiments/configs/ppo_2p_vs_bots.yaml"
OLD = {  # the default config before issue 14, as it trained (see the module docstring)
    "name": "old_default",
    "opponents": {"bots": ["random", "random", "random", "journal"], "bot_rate": 1.0},
    "shaping": {"vp_margin": 0.02},
    "ppo": {"learning_rate": 3.0e-4, "n_steps": 1024, "batch_size": 256, "n_epochs": 4, "gamma": 0.997, "ent_coef": 0.01},
    "policy": {"net_arch": [256, 256], "activation": "relu"},
    "training": {"envs": 2, "seed": 0},
}
OLD_POLICY = {"net_arch": [256, 256]}  # no features_extractor_class: SB3's FlattenExtractor, the whole vector


def old_config() -> dict[str, Any]:
    from experiments.train import DEFAULTS, _merge

    return _merge(copy.deepcopy(DEFAULTS), OLD)


def _bar(label: str, seconds: float):
    from tqdm import tqdm

    return tqdm(total=round(seconds), desc=label, unit="s", file=sys.stderr, leave=False, bar_format="{desc}: {n}/{total} s")


def learner_rate(cfg: dict[str, Any], seconds: float, policy: dict[str, Any] | None, label: str) -> dict[str, float]:
    """Learner steps/s of MaskablePPO on the config's envs, over the whole rollouts (and their
    updates) done within ``seconds``. With ``self`` in the opponent mix, the untrained policy is
    the pool's snapshot, as at the start of a run."""
    from experiments.train import make_vec_env, new_model
    from experiments.train_loop import Trainer

    class Clock(Trainer):
        def _on_training_start(self) -> None:
            self.t0 = time.perf_counter()
            self.done_steps, self.done_time = 0, 0.0
            self.warm: int | None = None
            self.bar = _bar(label, seconds)

        def _on_rollout_start(self) -> None:
            super()._on_rollout_start()
            if self.num_timesteps and self.warm is None:  # the first rollout warms up (loads, caches)
                self.t0, self.warm = time.perf_counter(), self.num_timesteps
            elapsed = time.perf_counter() - self.t0
            if self.warm is not None and self.num_timesteps > self.warm:  # a rollout and its update are done
                self.done_steps, self.done_time = self.num_timesteps - self.warm, elapsed
            self.stop = self.warm is not None and elapsed >= seconds

        def _on_step(self) -> bool:
            super()._on_step()
            if self.warm is not None:
                self.bar.update(min(round(seconds), int(time.perf_counter() - self.t0)) - self.bar.n)
            return not self.stop

    tr = cfg["training"]
    env = make_vec_env(cfg, tr["envs"], tr["seed"])
    try:
        model = new_model(cfg, env, None, policy=policy, sb3_buffer=policy is not None)  # the old default: SB3's buffer too
        clock = Clock(cfg, None)
        with tempfile.TemporaryDirectory() as tmp:
            if clock.selfplay_mix:
                model.save(Path(tmp) / "self.zip")
                env.env_method("set_frozen", [str(Path(tmp) / "self.zip")])
            model.learn(total_timesteps=10**12, callback=clock)
        clock.bar.close()
    finally:
        env.close()
    return {"steps": clock.done_steps, "seconds": clock.done_time, "rate": clock.done_steps / clock.done_time if clock.done_time else 0.0}


def env_rate(cfg: dict[str, Any], seconds: float, label: str) -> dict[str, Any]:
    """Steps/s of one env with the config's opponents and random legal learner moves; also the
    learner's decisions per episode against each opponent (what sizes a rollout)."""
    import numpy as np
    import torch

    from experiments.opponents import SELF, PoolEnv
    from experiments.train import new_model

    torch.set_num_threads(1)
    opp = cfg["opponents"]
    env = PoolEnv(
        bots=opp["bots"],
        bot_rate=opp["bot_rate"],
        mix=opp["mix"] or None,
        shaping=cfg["shaping"]["vp_margin"],
        potential=cfg["shaping"]["potential"],
        gamma=cfg["ppo"]["gamma"],
        seat="rotate",
        **cfg["env"],
    )
    with tempfile.TemporaryDirectory() as tmp:
        if SELF in (opp["mix"] or {}):
            from stable_baselines3.common.vec_env import DummyVecEnv

            model = new_model(cfg, DummyVecEnv([lambda: env]), None)
            model.save(Path(tmp) / "self.zip")
            env.set_frozen([str(Path(tmp) / "self.zip")])
        rng = np.random.default_rng(cfg["training"]["seed"])
        env.reset(seed=cfg["training"]["seed"])
        steps = 0
        per_opponent: dict[str, tuple[int, int]] = {}
        bar = _bar(label, seconds)
        t0 = time.perf_counter()
        while (elapsed := time.perf_counter() - t0) < seconds:
            _obs, _r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            steps += 1
            if term or trunc:
                n, total = per_opponent.get(info["opponent"], (0, 0))
                per_opponent[info["opponent"]] = (n + 1, total + info["decisions"])
                env.reset()
                bar.update(min(round(seconds), int(elapsed)) - bar.n)
        bar.close()
    env.close()
    return {"rate": steps / elapsed, "episode_decisions": {k: t / n for k, (n, t) in sorted(per_opponent.items())}}


def describe(cfg: dict[str, Any], policy: dict[str, Any] | None) -> str:
    opp = cfg["opponents"]
    who = (
        "mix " + ", ".join(f"{k} {v:g}" for k, v in opp["mix"].items()) + " of decisions"
        if opp["mix"]
        else "per episode " + "/".join(opp["bots"])
    )
    pc = cfg["policy"]
    trunk = f" trunk {pc['trunk']} then" if pc["trunk"] else ""
    pol = "MlpPolicy whole vector" if policy is not None else f"{pc['extractor']}{trunk} {pc['net_arch']}"
    ppo = cfg["ppo"]
    return f"{pol}; {who}; n_steps {ppo['n_steps']} x {cfg['training']['envs']} envs, batch {ppo['batch_size']}, {ppo['n_epochs']} epochs"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default=DEFAULT_CONFIG, help=f"the training config to measure (default {DEFAULT_CONFIG})")
    ap.add_argument("--seconds", type=float, default=60.0, help="per row (learner rows: whole rollouts done within it); default 60")
    ap.add_argument("--no-old", action="store_true", help="leave out the old default config")
    ap.add_argument("--n-steps", type=int, default=None, help="override ppo.n_steps of every row (a quick look; not the configs' figures)")
    ap.add_argument("--envs", type=int, default=None, help="override training.envs of every row")
    args = ap.parse_args(argv)
    from experiments.cli import UsageError
    from experiments.train import load_config

    if args.seconds <= 0:
        print(f"error: --seconds must be > 0, got {args.seconds:g}", file=sys.stderr)
        return 2
    for flag, value in (("--n-steps", args.n_steps), ("--envs", args.envs)):
        if value is not None and value < 1:
            print(f"error: {flag} must be a whole number >= 1, got {value}", file=sys.stderr)
            return 2
    try:
        cfg = load_config(args.config)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rows: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = []
    if not args.no_old:
        rows.append(("old", old_config(), OLD_POLICY))
    rows.append((Path(args.config).stem, cfg, None))
    for _, c, _p in rows:
        if args.n_steps is not None:
            c["ppo"]["n_steps"] = args.n_steps
            c["ppo"]["batch_size"] = min(c["ppo"]["batch_size"], args.n_steps * (args.envs or c["training"]["envs"]))
        if args.envs is not None:
            c["training"]["envs"] = args.envs
    random.seed(0)
    print(f"wayfarers training benchmark: {args.seconds:g} s a row, {os.cpu_count()} CPU cores, Python {platform.python_version()}")
    results = []
    for label, c, policy in rows:
        learn = learner_rate(c, args.seconds, policy, f"{label}: learner")
        env = env_rate(c, args.seconds, f"{label}: env only")
        results.append((label, c, policy, learn, env))
    ref = results[0][3]["rate"] or 1.0
    print(f"{'config':<22}{'learner steps/s':>17}{'x old':>8}{'env-only steps/s':>18}{'learner/env':>13}")
    for label, _c, _p, learn, env in results:
        print(f"{label:<22}{learn['rate']:>17.0f}{learn['rate'] / ref:>8.2f}{env['rate']:>18.0f}{learn['rate'] / env['rate']:>13.2f}")
    print()
    for label, c, policy, learn, env in results:
        print(f"{label}: {describe(c, policy)}")
        print(
            f"  {learn['steps']} learner steps in {learn['seconds']:.1f} s; learner decisions per episode (env only): "
            + ", ".join(f"{k} {v:.0f}" for k, v in env["episode_decisions"].items())
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
