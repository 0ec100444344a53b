"""``python -m experiments.reinforce_curve DIR --vs cartographer,greedy``: the learning curve of an
``experiments.net_reinforce`` run, each kept net played greedily (its best candidate, no sampling)
against each bot.

Why apart from the run. The run's own figure (``history.jsonl``'s win rate) is of the *sampled*
net, 64 games an iteration, and the net anyone seats plays its best candidate; and evaluating
while training would take the training's cores. This plays the start net and every ``net-N.pt``
of the folder on ``wayfarers evaluate``'s deals (the same ``--seed``, so each point meets the
same deals), appends each (net, opponent) to ``DIR/evaluations.csv`` in the columns
``wayfarers train`` writes (``timesteps``: the net's decisions trained on so far), skips the
rows already there, and draws the PNG with ``experiments.plot``.

    python -m experiments.reinforce_curve runs/pg/t05 --vs cartographer,greedy,journal,astronomer --games 100 --workers 2
"""

from __future__ import annotations

import csv
import json
import re
import sys
import time
from pathlib import Path

KEPT = re.compile(r"net-(\d+)\.pt")


def points(folder: Path) -> list[tuple[int, int, float, str]]:
    """(iteration, decisions trained on, seconds, net file) of the start net and each kept net."""
    import torch

    from .net_reinforce import HISTORY, STATE

    start = torch.load(folder / STATE, map_location="cpu", weights_only=False)["args"]["net"]
    steps, seconds = {0: 0}, {0: 0.0}
    for line in (folder / HISTORY).read_text().splitlines():
        h = json.loads(line)
        steps[h["iteration"]] = steps[h["iteration"] - 1] + h["decisions"]
        seconds[h["iteration"]] = seconds[h["iteration"] - 1] + h["play_s"] + h["update_s"]
    kept = sorted((int(m.group(1)), p) for p in folder.iterdir() if (m := KEPT.fullmatch(p.name)))
    return [(0, 0, 0.0, start)] + [(i, steps[i], seconds[i], str(p)) for i, p in kept if i in steps]


def main(argv: list[str] | None = None) -> int:
    from experiments.cli import Parser, count, seed
    from experiments.train import EVAL_FIELDS

    ap = Parser(prog="python -m experiments.reinforce_curve", description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", help="a run folder of python -m experiments.net_reinforce")
    ap.add_argument("--vs", default="cartographer", help="comma-separated opponent bots (default cartographer)")
    ap.add_argument("--games", type=count, default=100, help="games per net and opponent (default 100)")
    ap.add_argument("--seed", type=seed, default=0, help="the deals, as wayfarers evaluate's --seed (default 0)")
    ap.add_argument("--workers", type=count, default=1, help="parallel processes (the figures are the same)")
    ap.add_argument("--every", type=count, default=1, help="only the kept nets whose iteration is a multiple of this (default 1: all)")
    ap.add_argument("--out", default=None, help="the PNG (default FOLDER/learning_curve.png)")
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    if not (folder / "state.pt").is_file() or not (folder / "history.jsonl").is_file():
        ap.error(f"{args.folder!r}: no state.pt and history.jsonl there (give a folder of python -m experiments.net_reinforce)")
    from tqdm import tqdm

    from agents.registry import NET_PREFIX
    from experiments.evaluate import _opponents, evaluate_bot
    from experiments.plot import plot
    from wayfarers_env import GameConfig

    from .cli import UsageError

    try:
        opponents = _opponents(args.vs)
    except UsageError as exc:
        ap.error(str(exc))
    path = folder / "evaluations.csv"
    done: set[tuple[int, str]] = set()
    if path.is_file():
        done = {(int(r["timesteps"]), r["opponent"]) for r in csv.DictReader(path.open())}
    else:
        with path.open("w", newline="") as fh:
            csv.DictWriter(fh, EVAL_FIELDS).writeheader()
    chosen = [p for p in points(folder) if p[0] % args.every == 0]
    todo = [(p, o) for p in chosen for o in opponents if (p[1], o) not in done]
    start = time.perf_counter()
    with tqdm(total=len(todo) * args.games, desc="curve", unit="game", file=sys.stderr) as bar:
        for (iteration, steps, seconds, net), opponent in todo:
            row = evaluate_bot(NET_PREFIX + net, [opponent], args.games, args.seed, GameConfig(num_players=2), args.workers, bar.update)[0]
            row.update(timesteps=steps, wall_seconds=round(seconds, 1))
            with path.open("a", newline="") as fh:
                csv.DictWriter(fh, EVAL_FIELDS).writerow({k: row[k] for k in EVAL_FIELDS})
            print(
                f"iteration {iteration:>4} ({steps:,} decisions) vs {opponent}: {row['win_rate']:.3f} "
                f"[{row['win_low']:.3f}, {row['win_high']:.3f}], margin {row['mean_margin']:+.1f}"
            )
    out = plot(folder, args.out or folder / "learning_curve.png")
    print(f"{out} ({len(todo)} evaluations, {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
