"""Time per *searched* decision of a search bot in a finished ``wayfarers simulate`` run.

``simulate`` reports each bot's thinking time per decision of its own, forced and rule-answered
ones included. The ``ismcts`` budget is stated per decision it actually searches, so this script
replays the run's records (no bot is asked again) and counts, for the seats the bot held, the
decisions with more than one legal action of a kind it searches (``agents.ismcts.BRANCHED``, or
the main action alone with ``kinds=turn``; with ``top`` a decision where the cartographer leaves one
candidate is counted though it runs no simulation, which makes the figure a little lower).
The thinking time comes from the run's ``summary.json``; dividing all of it by the searched
decisions gives an upper bound (the unsearched decisions cost about 0.01 ms each).

That is wall-clock time, so other work on the machine inflates it. ``--resample K`` also asks
the bot again at every K-th searched decision of the run (a fresh bot of the same name, the same
position, a fixed rng) and reports the mean wall-clock and CPU (process) seconds of those searches:
the CPU figure is what one idle core would take::

    wayfarers simulate --players ismcts,cartographer --games 200 --seed 0 --workers 1 --out runs/ismcts
    python -m benchmarks.ismcts_timing runs/ismcts            # the bot: the run's first player
    python -m benchmarks.ismcts_timing runs/ismcts --bot ismcts --resample 20
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


class UsageError(Exception):
    pass


def count(run: Path, bot: str | None, resample: int = 0) -> dict:
    """The bot's decisions, searched decisions and thinking time over the run's games; with
    ``resample`` K, the wall and CPU seconds of asking it again at every K-th searched one."""
    import random

    from agents.base import View
    from agents.ismcts import BRANCHED
    from agents.registry import make_bot
    from wayfarers_env import Game

    games_file, summary_file = run / "games.jsonl", run / "summary.json"
    for f in (games_file, summary_file):
        if not f.is_file():
            raise UsageError(f"{str(run)!r} is not a finished simulate run: no {f.name} in it")
    summary = json.loads(summary_file.read_text())
    entrants = summary["entrants"]
    name = bot if bot is not None else summary["players"][0]
    if name not in entrants:
        raise UsageError(f"--bot {name!r} did not play in {str(run)!r}; its players: {', '.join(entrants)}")
    decisions = searched = games = 0
    # the kinds it searches: all of BRANCHED, or the main action alone (kinds=turn); a bot of another kind: BRANCHED
    kinds = getattr(make_bot(name), "kinds", BRANCHED)
    again = make_bot(name) if resample else None
    wall = cpu = 0.0
    asked = 0
    with games_file.open() as lines:
        for line in lines:
            rec = json.loads(line)
            seats = {s for s, p in enumerate(rec["players"]) if p == name}
            if not seats:
                continue
            games += 1
            game = Game(rec["config"], rec["seed"])
            for a in rec["actions"]:
                if game.current_player in seats:
                    decisions += 1
                    if len(game.cached_legal()) > 1 and game.decision()[0] in kinds:
                        searched += 1
                        if again is not None and searched % resample == 0:
                            view, legal = View(game, game.current_player, random.Random(searched)), game.legal_actions()
                            w0, c0 = time.perf_counter(), time.process_time()
                            again.decide(view, legal, random.Random(searched))
                            wall += time.perf_counter() - w0
                            cpu += time.process_time() - c0
                            asked += 1
                game.apply(a)
    think = entrants[name]["think_s"]
    return {
        "bot": name,
        "games": games,
        "decisions": decisions,
        "searched": searched,
        "think_s": think,
        "ms_per_decision": 1000 * think / max(decisions, 1),
        "ms_per_searched": 1000 * think / max(searched, 1),
        "resampled": asked,
        "resampled_wall_ms": 1000 * wall / max(asked, 1),
        "resampled_cpu_ms": 1000 * cpu / max(asked, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ismcts_timing", description=__doc__.splitlines()[0])
    parser.add_argument("run", help="a folder written by wayfarers simulate --out")
    parser.add_argument("--bot", help="the bot's name as in --players (default: the run's first player)")
    parser.add_argument("--resample", type=int, default=0, metavar="K", help="also time the bot again at every K-th searched decision")
    args = parser.parse_args(argv)
    if args.resample < 0:
        print(f"error: --resample is a whole number >= 0 (0: off), got {args.resample}", file=sys.stderr)
        return 2
    try:
        c = count(Path(args.run), args.bot, args.resample)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    share = 100 * c["searched"] / max(c["decisions"], 1)
    print(f"{c['bot']}: {c['games']} games, {c['decisions']} decisions, {c['searched']} searched ({share:.0f}%)")
    print(f"thinking {c['think_s']:.1f} s: {c['ms_per_decision']:.1f} ms per decision, {c['ms_per_searched']:.1f} ms per searched decision")
    if c["resampled"]:
        each = f"{c['resampled_wall_ms']:.1f} ms wall, {c['resampled_cpu_ms']:.1f} ms CPU each"
        print(f"asked again at {c['resampled']} searched decisions: {each}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
