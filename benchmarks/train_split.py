"""Where the learner's time goes in ``wayfarers train``: the wall time of a few rollouts and their
updates, split into the PPO update (the env processes idle) and the rollout, with the CPU time of
the learner process and of its env processes over the same stretch.

It says which side to make cheaper: in a rollout the learner and the envs take turns (the envs wait
for the learner's actions, the learner for their observations), so the rollout's wall time is
about the learner's own CPU time plus the envs' CPU time spread over the cores; the update runs on
one core while the envs wait.

    python -m benchmarks.train_split                  (the default config, 3 rollouts after 1 of warm-up)
    python -m benchmarks.train_split --envs 16 --n-steps 256   (the same rollout size in 16 env processes)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_CONFIG = "experiments/configs/ppo_2p_vs_bots.yaml"


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of the processes (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime (fields 14 and 15 of stat)
    return total


def split(cfg: dict[str, Any], rollouts: int) -> dict[str, float]:
    from experiments.train import make_vec_env, new_model
    from experiments.train_loop import Trainer

    tr = cfg["training"]
    env = make_vec_env(cfg, tr["envs"], tr["seed"])
    try:
        model = new_model(cfg, env, None)
        per_rollout = tr["envs"] * cfg["ppo"]["n_steps"]
        with tempfile.TemporaryDirectory() as tmp:
            if Trainer(cfg, None).selfplay_mix:
                model.save(Path(tmp) / "self.zip")
                env.env_method("set_frozen", [str(Path(tmp) / "self.zip")])
            model.learn(per_rollout)  # warm-up: process start, the first model loads
            update = [0.0]
            train = model.train

            def timed_train() -> None:
                t = time.perf_counter()
                train()
                update[0] += time.perf_counter() - t

            model.train = timed_train
            pids = [p.pid for p in getattr(env.unwrapped, "processes", [])]
            workers0, learner0, t0 = _cpu_seconds(pids), time.process_time(), time.perf_counter()
            model.learn(rollouts * per_rollout, reset_num_timesteps=False)
            wall = time.perf_counter() - t0
            learner, workers = time.process_time() - learner0, _cpu_seconds(pids) - workers0
    finally:
        env.close()
    return {"steps": rollouts * per_rollout, "wall": wall, "update": update[0], "learner_cpu": learner, "workers_cpu": workers}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.train_split", description=__doc__.split("\n\n")[0])
    ap.add_argument("--config", default=DEFAULT_CONFIG, help=f"the training config (default {DEFAULT_CONFIG})")
    ap.add_argument("--rollouts", type=int, default=3, help="rollouts measured, after one of warm-up (default 3)")
    ap.add_argument("--envs", type=int, default=None, help="override training.envs (env processes)")
    ap.add_argument("--n-steps", type=int, default=None, help="override ppo.n_steps (steps per env a rollout)")
    args = ap.parse_args(argv)
    from experiments.cli import UsageError
    from experiments.train import load_config

    for flag, value in (("--rollouts", args.rollouts), ("--envs", args.envs), ("--n-steps", args.n_steps)):
        if value is not None and value < 1:
            print(f"error: {flag} must be a whole number >= 1, got {value}", file=sys.stderr)
            return 2
    try:
        cfg = load_config(args.config)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.envs is not None:
        cfg["training"]["envs"] = args.envs
    if args.n_steps is not None:
        cfg["ppo"]["n_steps"] = args.n_steps
        cfg["ppo"]["batch_size"] = min(cfg["ppo"]["batch_size"], args.n_steps * cfg["training"]["envs"])
    r = split(cfg, args.rollouts)
    cores = os.cpu_count() or 1
    rate = r["steps"] / r["wall"]
    print(f"{Path(args.config).stem}: {r['steps']} learner steps in {r['wall']:.2f} s ({rate:.0f} steps/s), {cores} CPU cores")
    print(f"  update (env processes idle)   {r['update']:6.2f} s wall")
    print(f"  rollouts                      {r['wall'] - r['update']:6.2f} s wall")
    print(f"  learner process CPU           {r['learner_cpu']:6.2f} s (the update's included)")
    print(f"  env processes CPU             {r['workers_cpu']:6.2f} s ({1000 * r['workers_cpu'] / r['steps']:.2f} ms a learner step)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
