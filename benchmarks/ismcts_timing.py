"""Time per *searched* decision of a search bot in a finished ``wayfarers simulate`` run.

``simulate`` reports each bot's thinking time per decision of its own, forced and rule-answered
ones included. The ``ismcts`` budget is stated per decision it actually searches, so this script
replays the run's records (no bot is asked again) and counts, for the seats the bot held, the
decisions with more than one legal action of a kind it searches (``agents.ismcts.BRANCHED``).
The thinking time comes from the run's ``summary.json``; dividing all of it by the searched
decisions gives an upper bound (the unsearched decisions cost about 0.01 ms each)::

    wayfarers simulate --players ismcts,cartographer --games 200 --seed 0 --workers 1 --out runs/ismcts
    python -m benchmarks.ismcts_timing runs/ismcts            # the bot: the run's first player
    python -m benchmarks.ismcts_timing runs/ismcts --bot ismcts
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


class UsageError(Exception):
    pass


def count(run: Path, bot: str | None) -> dict:
    """The bot's decisions, searched decisions and thinking time over the run's games."""
    from agents.ismcts import BRANCHED
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
                    searched += len(game.cached_legal()) > 1 and game.decision()[0] in BRANCHED
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
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ismcts_timing", description=__doc__.splitlines()[0])
    parser.add_argument("run", help="a folder written by wayfarers simulate --out")
    parser.add_argument("--bot", help="the bot's name as in --players (default: the run's first player)")
    args = parser.parse_args(argv)
    try:
        c = count(Path(args.run), args.bot)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    share = 100 * c["searched"] / max(c["decisions"], 1)
    print(f"{c['bot']}: {c['games']} games, {c['decisions']} decisions, {c['searched']} searched ({share:.0f}%)")
    print(f"thinking {c['think_s']:.1f} s: {c['ms_per_decision']:.1f} ms per decision, {c['ms_per_searched']:.1f} ms per searched decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
