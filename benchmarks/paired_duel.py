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

Two variants of a bot are best compared on the same deals, deal by deal: two aggregate rates of
57% and 55% on 50 deals say nothing, but the deals where the variants' results differ do.
``--out FILE`` keeps one JSON line per game (deal, seat, bots, share of the win, VP);
``--against FILE`` reads such a file from an earlier run against the same second bot and prints,
over the deals both played, on how many this first bot did better, worse or the same, and the
difference of the win rates with a paired 95% interval.

    python -m benchmarks.paired_duel ismcts cartographer --deals 50 --seed 300 --workers 2 --out runs/duel/ismcts.jsonl
    python -m benchmarks.paired_duel ismcts:crn=1 cartographer --deals 50 --seed 300 --workers 2 --against runs/duel/ismcts.jsonl
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time

from experiments.cli import count, seed


def mean_interval(xs: list[float]) -> tuple[float, float]:
    """Mean of per-deal scores and the half-width of its normal 95% interval over the deals."""
    n = len(xs)
    mean = sum(xs) / n
    return mean, 1.96 * (sum((x - mean) ** 2 for x in xs) / max(1, n - 1) / n) ** 0.5


def per_deal(shares: list[float]) -> list[float]:
    """The first bot's score per deal from its shares in the games in order (deal k: games 2k, 2k+1)."""
    return [(shares[2 * k] + shares[2 * k + 1]) / 2 for k in range(len(shares) // 2)]


def play_deal(first, second, deal: int, seat: int) -> tuple[float, int, int]:
    """Deal ``deal`` with bot object ``first`` in seat ``seat`` and ``second`` in the other: (its
    share of the win, its VP, the other's VP). Each seat's generator depends on the deal and the
    seat only, the same in both seatings."""
    from wayfarers_env import Game, GameConfig
    from wayfarers_env.envs.players import choose

    bots = [first, second] if seat == 0 else [second, first]
    game = Game(GameConfig(num_players=2), seed=deal)
    rngs = [random.Random(deal * 2 + s) for s in (0, 1)]
    while not game.state.over:
        s = game.state.current
        game.apply(choose(bots[s], game, rngs[s]))
    winners = game.winners()
    total = [x["total"] for x in game.scores()]
    return (1.0 / len(winners) if seat in winners else 0.0), total[seat], total[1 - seat]


def play(job: tuple[str, str, int, int]) -> tuple[float, int, int]:
    """Deal ``deal`` with bot ``first`` in seat ``seat``: (its share of the win, its VP, the other's VP)."""
    from agents.registry import make_bot

    first, second, deal, seat = job
    return play_deal(make_bot(first), make_bot(second), deal, seat)


def summarize(results: list[tuple[float, ...]]) -> tuple[float, str, float, float]:
    """Of games in deal order (each a share of the win, then the two VP): the win rate, its 95%
    interval over the deals as text ("a-b%"), and the mean VP of each side."""
    rate, half = mean_interval(per_deal([r[0] for r in results]))
    mine, theirs = (sum(r[i] for r in results) / len(results) for i in (1, 2))
    return rate, f"{100 * max(0.0, rate - half):.1f}-{100 * min(1.0, rate + half):.1f}%", mine, theirs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("first", help="bot name (agents.registry), whose win rate is printed")
    parser.add_argument("second", help="its opponent")
    parser.add_argument("--deals", type=count, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=seed, default=0, help="deal k has seed SEED + k (default 0)")
    parser.add_argument("--workers", type=count, default=1, help="processes (default 1)")
    parser.add_argument("--out", metavar="FILE", help="write one JSON line per game (deal, seat, bots, share of the win, VP)")
    parser.add_argument("--against", metavar="FILE", help="an earlier run's --out file (same second bot): compare deal by deal")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    from agents.registry import UnknownBotError, make_bot

    for which in ("first", "second"):
        try:
            make_bot(getattr(args, which))
        except UnknownBotError as exc:
            parser.error(f"{which}: {exc}")
    if args.out and not os.path.isdir(os.path.dirname(args.out) or "."):
        parser.error(f"--out: no folder {os.path.dirname(args.out)!r} to write {args.out} in; create it first")
    earlier = None
    if args.against:
        try:
            earlier = read_earlier(args.against, args.second)
        except ValueError as exc:
            parser.error(f"--against: {exc}")
        if not any(args.seed + k in earlier[1] for k in range(args.deals)):
            parser.error(
                f"--against: {args.against} holds none of deals {args.seed}..{args.seed + args.deals - 1} "
                f"(it holds {min(earlier[1])}..{max(earlier[1])}); give the --seed and --deals of that run"
            )
    jobs = [(args.first, args.second, args.seed + k, seat) for k in range(args.deals) for seat in (0, 1)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = list(tqdm(pool.imap(play, jobs), total=len(jobs), desc=f"{args.first} vs {args.second}", unit="game"))
    scores = per_deal([r[0] for r in results])
    rate, interval, mine, theirs = summarize(results)
    seconds = time.perf_counter() - start
    print(f"{args.first} vs {args.second}: {len(results)} games on {args.deals} paired deals (seed {args.seed})")
    print(f"win rate {100 * rate:.1f}%  95% interval {interval}")
    print(f"VP {mine:.1f} vs {theirs:.1f}; {seconds / len(results):.2f} s a game with {args.workers} workers")
    if args.out:
        with open(args.out, "w") as f:
            for (_first, _second, deal, seat), (share, mine, theirs) in zip(jobs, results, strict=True):
                row = {"deal": deal, "seat": seat, "first": args.first, "second": args.second, "share": share, "vp": [mine, theirs]}
                f.write(json.dumps(row) + "\n")
    if earlier is not None:
        name, before = earlier
        print(compare({args.seed + k: scores[k] for k in range(args.deals)}, before, name))
    return 0


def read_earlier(path: str, second: str) -> tuple[str, dict[int, float]]:
    """An earlier run's ``--out`` file: (its first bot, its share of the win per complete deal).
    Raises ValueError naming what is wrong with the file."""
    try:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not a paired_duel --out file (line {exc.lineno} is not JSON)") from None
    keys = {"deal", "seat", "first", "second", "share"}
    if not rows or not all(
        isinstance(r, dict) and keys <= r.keys() and isinstance(r["deal"], int) and isinstance(r["share"], int | float) for r in rows
    ):
        needs = ", ".join(sorted(keys))
        raise ValueError(f"{path} is not a paired_duel --out file (each line needs {needs}; deal a whole number, share a number)")
    firsts, seconds = {r["first"] for r in rows}, {r["second"] for r in rows}
    if len(firsts) != 1 or seconds != {second}:
        raise ValueError(f"{path} was played by {sorted(firsts)} against {sorted(seconds)}; compare only runs against {second!r}")
    shares: dict[int, list[float]] = {}
    for r in rows:
        shares.setdefault(r["deal"], []).append(r["share"])
    complete = {d: sum(v) / 2 for d, v in shares.items() if len(v) == 2}
    if not complete:
        raise ValueError(f"{path} holds no deal played in both seatings")
    return firsts.pop(), complete


def compare(now: dict[int, float], before: dict[int, float], earlier: str) -> str:
    """Deal-by-deal comparison of two first bots over the deals both played."""
    deals = sorted(set(now) & set(before))
    diffs = [now[d] - before[d] for d in deals]
    n = len(diffs)
    mean, half = mean_interval(diffs)
    better, worse = sum(x > 0 for x in diffs), sum(x < 0 for x in diffs)
    return (
        f"against {earlier} on the same {n} deals: better on {better}, worse on {worse}, the same on {n - better - worse}; "
        f"win rate {100 * mean:+.1f} points (95% interval {100 * (mean - half):+.1f} to {100 * (mean + half):+.1f})"
    )


if __name__ == "__main__":
    sys.exit(main())
