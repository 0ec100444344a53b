"""Games per second of ``simulate``'s two backends, with 1 and 2 workers: the table of docs/SCALING.md.

Each configuration plays the same schedule (``tournament.schedule``: the same deals, seats and
bot seeds) through the function ``wayfarers simulate`` uses: the process pool
(``tournament.play_games``) or Ray actors (``ray_backend.results``). The clock runs from the first
game handed out to the last record back, so it counts starting the workers (processes or
actors) but not starting Ray itself, which is timed apart: a command pays it once, before its
first game. The configurations run in interleaved rounds (process 1, ray 1, process 2, ray 2, then
again) so that a change in the machine's load falls on all of them; the table gives each one's
median. Every configuration's records are checked equal to the first one's. ::

    nice -n 10 .venv/bin/python -m benchmarks.bench_ray --games 24 --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from experiments.tournament import play_game, play_games, schedule
from wayfarers_env import GameConfig

CONFIGS = [("process", 1), ("ray", 1), ("process", 2), ("ray", 2)]


def play(backend: str, workers: int, players: list[str], games: int, seed: int) -> tuple[float, list[dict[str, Any]]]:
    """Seconds for the schedule's games through one backend, and the records in game order."""
    specs = schedule(players, games, seed, GameConfig(num_players=len(players)))
    started = time.perf_counter()
    records = [result[0] for result in play_games(specs, workers, play_game, backend)]
    return time.perf_counter() - started, records


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_ray", description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="random,random", help="bots in seat order (default random,random)")
    ap.add_argument("--games", type=int, default=24, help="games per configuration and round (default 24)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the table gives medians (default 3)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    players = [p.strip() for p in args.players.split(",")]

    import ray

    from experiments.ray_backend import start_ray

    started = time.perf_counter()
    start_ray(None, max(w for _, w in CONFIGS))
    ray_start = time.perf_counter() - started
    print(f"Ray start-up: {ray_start:.1f} s (local, {int(ray.cluster_resources()['CPU'])} CPUs)", file=sys.stderr)

    seconds: dict[tuple[str, int], list[float]] = {c: [] for c in CONFIGS}
    first: list[dict[str, Any]] | None = None
    for k in range(args.rounds):
        for backend, workers in CONFIGS:
            secs, records = play(backend, workers, players, args.games, args.seed)
            first = first if first is not None else records
            if records != first:
                raise SystemExit(f"error: {backend} with {workers} workers played other games than {CONFIGS[0]}")
            seconds[(backend, workers)].append(secs)
            print(f"round {k + 1}: {backend} x{workers}: {args.games / secs:.2f} games/s", file=sys.stderr)
    ray.shutdown()

    decisions = statistics.mean(r["decisions"] for r in first or [])
    print(f"{args.games} games of {','.join(players)} per run ({decisions:.0f} decisions a game), median of {args.rounds} rounds")
    print()
    print("| backend | workers | games/s | s per run |")
    print("|---|---|---|---|")
    for backend, workers in CONFIGS:
        s = statistics.median(seconds[(backend, workers)])
        print(f"| {backend} | {workers} | {args.games / s:.2f} | {s:.1f} |")
    print()
    print(f"Ray's own start-up (once per command, before the first game): {ray_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
