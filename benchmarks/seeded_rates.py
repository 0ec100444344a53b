"""Rates over a fixed set of seeded random games, for comparing two checkouts of the engine.

``bench_env`` measures rates against reference games within one run; comparing two versions of
the engine needs the *same* work in both, so this script plays the same seeded games (random legal
actions from a seeded generator) and prints the best of three timings. Run it in each checkout,
alternating, on one pinned core::

    taskset -c 1 .venv/bin/python -m benchmarks.seeded_rates            # engine and AEC loop
    taskset -c 1 .venv/bin/python -m benchmarks.seeded_rates --repeat 5

``--rev A B ...`` does the alternating itself: each commit is extracted from git into a
temporary folder and timed in its own process, the commits in turn for ``--rounds`` rounds, and
each commit's best rates are printed with the ratio to the first (the base-game loops run on any
commit since the AEC env landed)::

    taskset -c 1 .venv/bin/python -m benchmarks.seeded_rates --rev c296e50 HEAD --rounds 3
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time


def engine_rate(games: int) -> float:
    """Raw engine decisions/s over ``games`` seeded games of 2, 3 and 4 players."""
    from wayfarers_env import Game, GameConfig

    n = 0
    start = time.perf_counter()
    for seed in range(games):
        g = Game(GameConfig(num_players=2 + seed % 3), seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            n += 1
    return n / (time.perf_counter() - start)


def aec_rate(games: int) -> float:
    """AEC steps/s (observation and mask every step) over ``games`` seeded 2-player games."""
    import numpy as np

    import wayfarers_env

    env = wayfarers_env.env(num_players=2)
    n = 0
    start = time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
    return n / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="timings per loop; the best is printed")
    ap.add_argument("--rev", nargs="+", metavar="REV", help="git commits to time in turn (each extracted to a temporary folder)")
    ap.add_argument("--rounds", type=int, default=3, help="with --rev: rounds over the commits (default 3)")
    args = ap.parse_args(argv)
    if args.repeat < 1 or args.rounds < 1:
        ap.error(f"--repeat and --rounds must be at least 1, got {args.repeat} and {args.rounds}")
    if args.rev:
        return _compare(args.rev, args.rounds, args.repeat)
    engine = max(engine_rate(30) for _ in range(args.repeat))
    aec = max(aec_rate(12) for _ in range(args.repeat))
    print(f"engine {engine:,.0f} decisions/s, AEC {aec:,.0f} steps/s")
    return 0


def _compare(revs: list[str], rounds: int, repeat: int) -> int:
    """Time each commit's engine in its own process (this file, run by path), the commits in turn."""
    from benchmarks.revisions import engine_env, extract, refuse_unknown  # the children import only the engine

    if refuse_unknown(revs):
        return 2
    best: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as root:
        trees = {}
        for i, rev in enumerate(revs):
            trees[rev] = os.path.join(root, str(i))
            os.mkdir(trees[rev])
            extract(rev, trees[rev])
        for r in range(rounds):
            for rev in revs:
                cmd = [sys.executable, os.path.abspath(__file__), "--repeat", str(repeat)]
                proc = subprocess.run(cmd, capture_output=True, text=True, env=engine_env(trees[rev]), cwd=root)
                if proc.returncode != 0:
                    print(f"error: {rev} failed: {proc.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
                    return 1
                words = proc.stdout.replace(",", "").split()  # engine N decisions/s, AEC M steps/s
                engine, aec = float(words[1]), float(words[4])
                print(f"round {r + 1}: {rev:12s} engine {engine:9,.0f} decisions/s   AEC {aec:9,.0f} steps/s", flush=True)
                old = best.get(rev, (0.0, 0.0))
                best[rev] = (max(old[0], engine), max(old[1], aec))
    first = best[revs[0]]
    print(f"best of {rounds} rounds (ratio to {revs[0]}):")
    for rev in revs:
        engine, aec = best[rev]
        print(f"  {rev:12s} engine {engine:9,.0f} decisions/s ({engine / first[0]:.2f}x)   AEC {aec:9,.0f} steps/s ({aec / first[1]:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
