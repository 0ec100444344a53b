"""Rates over a fixed set of seeded random games, for comparing two checkouts of the engine.

``bench_env`` measures rates against reference games within one run; comparing two versions of
the engine needs the *same* work in both, so this script plays the same seeded games (random legal
actions from a seeded generator) and prints the best of three timings. Run it in each checkout,
alternating, on one pinned core::

    taskset -c 1 .venv/bin/python -m benchmarks.seeded_rates            # engine and AEC loop
    taskset -c 1 .venv/bin/python -m benchmarks.seeded_rates --repeat 5
"""

from __future__ import annotations

import argparse
import random
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="timings per loop; the best is printed")
    args = ap.parse_args()
    engine = max(engine_rate(30) for _ in range(args.repeat))
    aec = max(aec_rate(12) for _ in range(args.repeat))
    print(f"engine {engine:,.0f} decisions/s, AEC {aec:,.0f} steps/s")


if __name__ == "__main__":
    main()
