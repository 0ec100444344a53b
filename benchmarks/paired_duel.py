"""Two bots on paired deals: each deal played twice, the seats swapped, so that luck of the deal cancels.

Why. A 200-game ``wayfarers simulate`` between two bots that play alike says 50% +- 7 points:
deals differ more than such bots do. Here deal ``k`` (two-player, board sides at random) is
played once with each seating, with the same generator for each seat's bot both times, so two
identical bots win exactly half, and a difference in the win rate comes from the games where
the bots chose differently. The interval is a normal one over the deals (each deal scores 0,
0.5 or 1 for the first bot), narrower than the Wilson interval of independent games whenever
the two games of a deal go the same way for the same seat.

    python -m benchmarks.paired_duel cartographer:worlds=4 cartographer --deals 200 --seed 900 --workers 2

Prints the first bot's win rate over the ``2 * deals`` games, its 95% interval, the mean VP of
each and the time per game.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time

from experiments.cli import count, seed


def play(job: tuple[str, str, int, int]) -> tuple[float, int, int]:
    """Deal ``deal`` with bot ``first`` in seat ``seat``: (its share of the win, its VP, the other's VP)."""
    from agents.registry import make_bot
    from wayfarers_env import Game, GameConfig
    from wayfarers_env.envs.players import choose

    first, second, deal, seat = job
    names = [first, second] if seat == 0 else [second, first]
    bots = [make_bot(n) for n in names]
    game = Game(GameConfig(num_players=2), seed=deal)
    rngs = [random.Random(deal * 2 + s) for s in (0, 1)]  # a seat's generator, the same in both seatings
    while not game.state.over:
        s = game.state.current
        game.apply(choose(bots[s], game, rngs[s]))
    winners = game.winners()
    total = [x["total"] for x in game.scores()]
    return (1.0 / len(winners) if seat in winners else 0.0), total[seat], total[1 - seat]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", help="bot name (agents.registry), whose win rate is printed")
    parser.add_argument("second", help="its opponent")
    parser.add_argument("--deals", type=count, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=seed, default=0, help="deal k has seed SEED + k (default 0)")
    parser.add_argument("--workers", type=count, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    from agents.registry import UnknownBotError, make_bot

    for which in ("first", "second"):
        try:
            make_bot(getattr(args, which))
        except UnknownBotError as exc:
            parser.error(f"{which}: {exc}")
    jobs = [(args.first, args.second, args.seed + k, seat) for k in range(args.deals) for seat in (0, 1)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = list(tqdm(pool.imap(play, jobs), total=len(jobs), desc=f"{args.first} vs {args.second}", unit="game"))
    per_deal = [(results[2 * k][0] + results[2 * k + 1][0]) / 2 for k in range(args.deals)]
    rate = sum(per_deal) / args.deals
    var = sum((x - rate) ** 2 for x in per_deal) / max(1, args.deals - 1)
    half = 1.96 * (var / args.deals) ** 0.5
    vp = [sum(r[i] for r in results) / len(results) for i in (1, 2)]
    seconds = time.perf_counter() - start
    print(f"{args.first} vs {args.second}: {len(results)} games on {args.deals} paired deals (seed {args.seed})")
    print(f"win rate {100 * rate:.1f}%  95% interval {100 * max(0.0, rate - half):.1f}-{100 * min(1.0, rate + half):.1f}%")
    print(f"VP {vp[0]:.1f} vs {vp[1]:.1f}; {seconds / len(results):.2f} s a game with {args.workers} workers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
