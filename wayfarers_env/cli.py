"""The ``wayfarers`` command. Each subcommand lives in its own module; this file only parses."""

from __future__ import annotations

import argparse
import sys


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="wayfarers", description="Wayfarers of the South Tigris: engine, bots and RL tools")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("cards", help="print the game content as a table (or JSON)")
    p.add_argument("--kind", choices=["land", "water", "space", "townsfolk", "inspiration", "upgrades", "journal"])
    p.add_argument("--json", action="store_true", help="print a JSON list of objects instead of a table")
    p.add_argument("--tides-inspiration", action="store_true", help="include the two Tides of Trade inspiration cards")

    p = sub.add_parser("simulate", help="play bots against each other and print a results table")
    p.add_argument("--players", required=True, help="comma-separated bot names in seat order, e.g. greedy,random")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="fixes the deals and the bots' draws (default 0)")
    p.add_argument("--workers", type=int, default=1, help="parallel processes; games.jsonl is the same for any number")
    p.add_argument("--out", default=None, help="directory for games.jsonl and summary.json (refused if it holds a run)")
    p.add_argument("--resume", action="store_true", help="finish the run in --out: keep its games, play the rest (same arguments)")
    p.add_argument("--overwrite", action="store_true", help="replace the run in --out")
    p.add_argument("--board-sides", default="random", help="'random' or three letters a/b, e.g. aba (default random)")
    p.add_argument("--no-rotate", action="store_true", help="keep the seat order fixed instead of rotating seats")
    p.add_argument("--quiet", action="store_true", help="no progress bar or notes on stderr")

    p = sub.add_parser("replay", help="rebuild a recorded game, check its scores, render it")
    p.add_argument("path", help="a games.jsonl written by simulate")
    p.add_argument("--game", type=int, default=0, help="index of the game in the file (0-based)")
    p.add_argument("--step", action="store_true", help="wait for Enter after every turn")

    p = sub.add_parser("play", help="play in the terminal against bots")
    p.add_argument("--players", required=True, help="e.g. human,greedy")
    p.add_argument("--seed", type=int, default=0)

    p = sub.add_parser("bench", help="run the environment speed benchmark (same options as python -m benchmarks.bench_env)")
    from benchmarks.bench_env import add_arguments

    add_arguments(p)

    p = sub.add_parser("train", help="train MaskablePPO (needs the [train] extra)")
    p.add_argument("--config", required=True)
    p.add_argument("--timesteps", type=int, default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--out", default=None)
    p.add_argument("--envs", type=int, default=None)

    p = sub.add_parser("evaluate", help="evaluate a trained model against bots")
    p.add_argument("model")
    p.add_argument("--vs", default="random", help="comma-separated opponent bots")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "cards":
        from .cards_table import run
    elif args.command == "simulate":
        from experiments.tournament import run
    elif args.command == "replay":
        from experiments.replay import run
    elif args.command == "play":
        from experiments.play import run
    elif args.command == "bench":
        from benchmarks.bench_env import run
    elif args.command == "train":
        from experiments.train import run
    else:
        from experiments.evaluate import run
    return int(run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
