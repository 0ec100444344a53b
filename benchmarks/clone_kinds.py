"""Where a clone loses: the clone plays every decision but the kinds named, which its teacher answers.

Why. A behaviour clone of the cartographer agrees with it on about two decisions in three and
wins a few games in a hundred against it (docs/TRAINING.md). Agreement per decision kind does not
say which disagreements cost the games: a wrong main action may cost more than ten wrong bag
orders. So each row here hands some decision kinds back to the teacher (``cartographer``) and
plays that hybrid against the teacher on paired deals (each deal twice, seats swapped, as in
``paired_duel``): the kinds whose return lifts the win rate most are the ones a better policy
input has to serve first.

    python -m benchmarks.clone_kinds runs/kinds/bc.zip --deals 50 --seed 7000 --workers 2 \\
        --rows none turn acquire_card die_space all-turn all-acquire_card all-die_space

``all-turn`` hands every decision *but* the main action to the teacher: what the clone's main
actions alone cost. ``all`` hands it every decision: the hybrid is then the teacher move for
move, so that row wins exactly half of every deal (a check that the rows measure what they say).

Each row prints the hybrid's win rate over ``2 * deals`` games with a normal 95% interval over the
deals (``paired_duel``'s), its mean VP against the teacher's, and the share of the hybrid's own decisions (those with
a choice) that the teacher answered.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from dataclasses import dataclass

from benchmarks.paired_duel import play_deal, summarize
from experiments.cli import count, seed

TEACHER = "cartographer"


@dataclass(frozen=True)
class Row:
    """Which decisions the teacher answers: those of ``kinds``, or with ``others`` every other one."""

    label: str
    kinds: frozenset[str]
    others: bool = False

    def teaches(self, kind: str) -> bool:
        return (kind in self.kinds) != self.others


class Hybrid:
    """The clone for every decision the row leaves it, the teacher for the rest; counts both."""

    def __init__(self, model: str, row: Row):
        from agents.policy_bot import PolicyBot
        from agents.registry import make_bot

        self.clone = PolicyBot(model)
        self.teacher = make_bot(TEACHER)
        self.row = row
        self.name = f"clone+{row.label}"
        self.asked = [0, 0]  # decisions with a choice: the clone's, the teacher's

    def decide(self, view, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        by_teacher = self.row.teaches(view.game.decision()[0])
        self.asked[by_teacher] += 1
        return (self.teacher if by_teacher else self.clone).decide(view, legal_actions, rng)


def play(job: tuple[str, Row, int, int]) -> tuple[float, int, int, int, int]:
    """Deal ``deal`` with the hybrid in seat ``seat``: its share of the win, both VP, who answered how often."""
    import torch

    from agents.registry import make_bot

    torch.set_num_threads(1)
    model, row, deal, seat = job
    hybrid = Hybrid(model, row)
    share, mine, theirs = play_deal(hybrid, make_bot(TEACHER), deal, seat)
    return share, mine, theirs, hybrid.asked[0], hybrid.asked[1]


def parse_kinds(text: str) -> Row:
    """``none``, ``all``, comma-separated decision kinds (those the cartographer searches), or
    ``all-`` and kinds: the teacher answers every other decision."""
    from agents.strategies import STRATEGY_SEARCH

    if text in ("none", "all"):
        return Row(text, frozenset(), others=text == "all")
    others = text.startswith("all-")
    kinds = frozenset(k.strip() for k in text.removeprefix("all-").split(","))
    unknown = sorted(kinds - set(STRATEGY_SEARCH))
    if unknown:
        known = ", ".join(STRATEGY_SEARCH)
        wrong = ", ".join(unknown)
        raise argparse.ArgumentTypeError(f"unknown decision kind(s) {wrong}; kinds: none, all, {known} (all-KINDS: every other)")
    return Row(text, kinds, others)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", help="a MaskablePPO .zip (a clone made by wayfarers imitate)")
    parser.add_argument(
        "--rows", nargs="+", type=parse_kinds, default=[Row("none", frozenset())], help="kind sets the teacher answers, one row each"
    )
    parser.add_argument("--deals", type=count, default=50, help="deals per row, each played twice (default 50)")
    parser.add_argument("--seed", type=seed, default=0, help="deal k has seed SEED + k (default 0)")
    parser.add_argument("--workers", type=count, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    from agents.policy_bot import ModelFileError, load_model

    try:
        load_model(args.model)
    except ModelFileError as exc:
        parser.error(str(exc))
    print(f"the clone {args.model} against {TEACHER}, {2 * args.deals} games per row on paired deals (seed {args.seed})")
    print(f"{'teacher answers':<40} {'win rate':>8} {'95% interval':>13} {'VP':>13} {'by teacher':>10}")
    for row in args.rows:
        jobs = [(args.model, row, args.seed + k, seat) for k in range(args.deals) for seat in (0, 1)]
        start = time.perf_counter()
        with multiprocessing.Pool(args.workers) as pool:
            results = list(tqdm(pool.imap(play, jobs), total=len(jobs), desc=row.label, unit="game", leave=False))
        rate, interval, mine, theirs = summarize(results)
        asked = sum(r[3] for r in results) + sum(r[4] for r in results)
        taught = sum(r[4] for r in results) / max(1, asked)
        print(
            f"{row.label:<40} {100 * rate:>7.1f}% {interval:>13} {mine:>5.1f} / {theirs:<5.1f} {100 * taught:>9.1f}%"
            f"   ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
