"""The heuristic bots before and after a change, in one run: the table of docs/RESULTS.md.

Two tables compared across two runs would differ by the engine, the machine's load and the deals
as much as by the bots. Here the bots of an earlier commit (a checkout of it, e.g. ``git worktree
add /tmp/before COMMIT``) are imported as the package ``agents_before`` beside today's ``agents``,
and one process pool plays, on today's engine and the same deals:

* ``before``: every pair of the old heuristics;
* ``after``: every pair of today's heuristics;
* ``new vs old``: each of today's heuristics against its old self.

Each matchup is two-player, ``--games`` games on the same deals (deal i // 2, the two seatings in
turn: seats rotated), board sides at random. Win rates count a shared win as half; intervals are
Wilson 95%. Each game also counts the wastes of ``bot_wastes``, and each bot's thinking time per
decision. ::

    git worktree add --detach /tmp/before 721b9d2
    nice -n 10 .venv/bin/python -m benchmarks.bot_duel --before /tmp/before/agents --games 200 --seed 2024 \\
        --workers 2 --out runs/bots_before_after
    .venv/bin/python -m benchmarks.bot_duel --table runs/bots_before_after    # the tables again, from the records
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import itertools
import json
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from benchmarks.bot_wastes import Wastes, WasteWatch
from experiments.stats import mean, wilson
from experiments.tournament import derive_seed
from wayfarers_env import Game, GameConfig

HEURISTICS = ("greedy", "journal", "astronomer", "cartographer")
OLD = "@before"
MAX_DECISIONS = 100_000  # as in simulate: a guard against a game no bot ends
RECORDS = "games.jsonl"


class UsageError(Exception):
    """Bad arguments: reported as one line on stderr with exit status 2, nothing written."""


def matchups(bots: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(section, first bot, second bot) for every matchup of the run, in order."""
    out = [("before", a + OLD, b + OLD) for a, b in itertools.combinations(bots, 2)]
    out += [("after", a, b) for a, b in itertools.combinations(bots, 2)]
    out += [("new vs old", a, a + OLD) for a in bots]
    return out


_BEFORE: list[str] = []  # the old agents folder, set in each worker
_BOTS: dict[str, Any] = {}


def load_before(folder: str) -> None:
    """Import the old ``agents`` package (its __init__ and registry) as ``agents_before``."""
    if "agents_before" in sys.modules:
        return
    path = Path(folder)
    spec = importlib.util.spec_from_file_location("agents_before", path / "__init__.py", submodule_search_locations=[str(path)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["agents_before"] = module
    spec.loader.exec_module(module)


def bot(label: str) -> Any:
    """One bot per label and process (bots keep no state between decisions)."""
    if label not in _BOTS:
        if label.endswith(OLD):
            load_before(_BEFORE[0])
            registry = importlib.import_module("agents_before.registry")
            _BOTS[label] = registry.make_bot(label[: -len(OLD)])
        else:
            from agents.registry import make_bot

            _BOTS[label] = make_bot(label)
    return _BOTS[label]


def _init(before: str) -> None:
    _BEFORE[:] = [before]


def play(job: tuple[str, str, str, int, int]) -> dict[str, Any]:
    """Play game ``i`` of a matchup: the deal and the bots' generators depend on the seed and i only."""
    from agents.base import choose

    section, first, second, seed, i = job
    players = (first, second) if i % 2 == 0 else (second, first)
    game = Game(GameConfig(num_players=2, board_sides="random"), derive_seed("wayfarers-simulate", seed, i // 2))
    bots = [bot(p) for p in players]
    rngs = [random.Random(derive_seed("wayfarers-bot", seed, i, s)) for s in range(2)]
    watch = WasteWatch(game)
    think, decisions, steps = [0.0, 0.0], [0, 0], 0
    while not game.is_over and steps < MAX_DECISIONS:
        seat = game.current_player
        start = time.perf_counter()
        action = choose(bots[seat], game, rngs[seat])
        think[seat] += time.perf_counter() - start
        decisions[seat] += 1
        watch.before(action)
        game.apply(action)
        watch.after()
        steps += 1
    return {
        "section": section,
        "matchup": [first, second],
        "game": i,
        "players": list(players),
        "finished": game.is_over,
        "turns": game.state.turn + 1,
        "totals": [s["total"] for s in game.scores()],
        "winners": game.winners(),
        "think": think,
        "decisions": decisions,
        "wastes": [w.as_dict() for w in watch.seats],
    }


# ------------------------------------------------------------------------------ tables


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def matchup_table(records: list[dict[str, Any]]) -> str:
    """One row per matchup: the first bot's wins, its interval, both bots' VP, turns, ms/decision."""
    order = {m: k for k, m in enumerate(dict.fromkeys((r["section"], *r["matchup"]) for r in records))}
    records = sorted(records, key=lambda r: order[(r["section"], *r["matchup"])])
    rows = [
        "| section | matchup | games | first bot wins | 95% CI | its VP | opponent VP | turns | ms/decision |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups[(r["section"], *r["matchup"])].append(r)
    for (section, first, second), games in groups.items():
        wins, vp, opp, think = 0.0, [], [], {first: [0.0, 0], second: [0.0, 0]}
        for r in games:
            me = r["players"].index(first)
            if me in r["winners"]:
                wins += 1 / len(r["winners"])
            vp.append(r["totals"][me])
            opp.append(r["totals"][1 - me])
            for seat, name in enumerate(r["players"]):
                think[name][0] += r["think"][seat]
                think[name][1] += r["decisions"][seat]
        lo, hi = wilson(wins, len(games))
        ms = " / ".join(f"{1000 * t / max(n, 1):.2f}" for t, n in (think[first], think[second]))
        turns = mean([r["turns"] for r in games])
        rows.append(
            f"| {section} | {first} vs {second} | {len(games)} | {_pct(wins / len(games))} | {_pct(lo)}–{_pct(hi)} "
            f"| {mean(vp):.1f} | {mean(opp):.1f} | {turns:.0f} | {ms} |"
        )
    return "\n".join(rows)


def waste_table(records: list[dict[str, Any]]) -> str:
    """Per bot (old and new), summed over all its games: the wastes per 100 of its turns or per game."""
    per: dict[str, Wastes] = defaultdict(Wastes)
    games: dict[str, int] = defaultdict(int)
    think: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for r in records:
        for seat, name in enumerate(r["players"]):
            per[name].add(Wastes(**r["wastes"][seat]))
            games[name] += 1
            think[name][0] += r["think"][seat]
            think[name][1] += r["decisions"][seat]
    rows = [
        "| bot | games | turns | rests | rests with a placeable die | ... with 2+ | Trade guild uses | ... changing nothing "
        "| ... then resting | triggers the end | ... while behind | ... and lost | ms/decision |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name in sorted(per, key=lambda n: (n.replace(OLD, ""), not n.endswith(OLD))):
        w = per[name]
        rows.append(
            f"| {name} | {games[name]} | {w.turns} | {w.rests} | {w.rest_with_die} | {w.rest_with_dice} | {w.yellow} | {w.yellow_idle} "
            f"| {w.yellow_then_rest} | {w.triggers} | {w.trigger_behind} | {w.trigger_behind_lost} "
            f"| {1000 * think[name][0] / max(think[name][1], 1):.2f} |"
        )
    return "\n".join(rows)


def tables(folder: Path) -> str:
    records = [json.loads(line) for line in (folder / RECORDS).read_text().splitlines() if line.strip()]
    return matchup_table(records) + "\n\n" + waste_table(records)


# ------------------------------------------------------------------------------ command line


def _games(text: str) -> int:
    if not text.isdigit() or int(text) < 2 or int(text) % 2:
        raise argparse.ArgumentTypeError(f"must be an even number of games, at least 2 (each deal in both seatings), got {text!r}")
    return int(text)


def _workers(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of processes, at least 1, got {text!r}")
    return int(text)


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="python -m benchmarks.bot_duel", description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="the old agents/ folder (a checkout of the earlier commit)")
    ap.add_argument("--games", type=_games, default=200, help="games per matchup, even (default 200)")
    ap.add_argument("--seed", type=_seed, default=2024, help="fixes the deals and the bots' draws (default 2024)")
    ap.add_argument("--workers", type=_workers, default=1, help="parallel processes (default 1); the records do not depend on it")
    ap.add_argument("--bots", default=",".join(HEURISTICS), help=f"comma-separated heuristics (default {','.join(HEURISTICS)})")
    ap.add_argument("--out", help="a new folder for games.jsonl (refused if it exists)")
    ap.add_argument("--table", metavar="FOLDER", help="print the tables of a finished run's folder and play nothing")
    return ap


def _check(args: argparse.Namespace) -> tuple[str, ...]:
    if args.table is not None:
        if not (Path(args.table) / RECORDS).is_file():
            raise UsageError(f"--table {args.table}: no {RECORDS} there; give the --out folder of a finished run")
        return ()
    if args.before is None or args.out is None:
        raise UsageError("give --before (the old agents/ folder) and --out (a new folder), or --table FOLDER")
    if not (Path(args.before) / "registry.py").is_file():
        raise UsageError(f"--before {args.before}: not an agents/ folder (no registry.py); e.g. /tmp/before/agents of a git worktree")
    if Path(args.out).exists():
        raise UsageError(f"--out {args.out} exists; give a new folder (a finished run is kept, never overwritten)")
    bots = tuple(b.strip() for b in args.bots.split(","))
    unknown = [b for b in bots if b not in HEURISTICS]
    if unknown or len(bots) < 2 or len(set(bots)) != len(bots):
        raise UsageError(f"--bots {args.bots!r}: two or more different names of {', '.join(HEURISTICS)}")
    return bots


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
        bots = _check(args)
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.table is not None:
        print(tables(Path(args.table)))
        return 0
    # game by game across the matchups, so that a run stopped early, or a machine's load changing
    # midway, touches every matchup alike
    jobs = [(s, a, b, args.seed, i) for i in range(args.games) for s, a, b in matchups(bots)]
    out = Path(args.out)
    out.mkdir(parents=True)
    done = 0
    with open(out / RECORDS, "w") as f, multiprocessing.get_context("fork").Pool(args.workers, _init, (args.before,)) as pool:
        for record in pool.imap(play, jobs, chunksize=1):
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
            f.flush()
            done += 1
            if done % 50 == 0:
                print(f"{done}/{len(jobs)} games", file=sys.stderr, flush=True)
    print(tables(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
