"""``wayfarers tournament``: a league of bots on shared deals, rated, with Parquet logs.

The games are ``league.schedule``'s; they are played, written and resumed by the same machinery
as ``wayfarers simulate`` (``tournament.keep_finished`` and ``tournament.play_run``: games.jsonl
byte-identical for any ``--workers``, Ctrl-C leaves the folder ready for ``--resume``, a record
cut off mid-write is played again), with ``league.LeagueTally`` for the standings and
``game_log.LogWriter`` adding the Parquet rows beside games.jsonl. Tournaments are multiplayer
only: one bot against the solo AI is ``wayfarers simulate --solo-board``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from agents.registry import UnknownBotError
from wayfarers_env import ConfigError, GameConfig

from . import game_log, rundir
from .cli import game_options
from .league import LeagueTally, schedule, seatings
from .records import SCHEMA_VERSION, parse_line, read_lines
from .tournament import MAX_DECISIONS, _bot, _fail, backend_problem, keep_finished, play_run


def _check(bots: list[str], sizes: tuple[int, ...]) -> str | None:
    """What is wrong with --bots for these table sizes (None: nothing)."""
    if len(bots) < 2:
        return (
            f"--bots needs at least 2 bot names, got {len(bots)} ({','.join(bots) or 'none'}); "
            "one bot against the solo AI is wayfarers simulate --solo-board"
        )
    twice = sorted({b for b in bots if bots.count(b) > 1})
    if twice:
        return f"--bots names {', '.join(twice)} more than once; each bot is one entrant of the league"
    if max(sizes) > len(bots):
        return f"--players-per-game {max(sizes)} needs at least {max(sizes)} bots in --bots, got {len(bots)} ({','.join(bots)})"
    return None


def _recorded_games(path: Path, first: int, last: int):
    """The records of games first..last of a games.jsonl already checked by ``keep_finished``."""
    for number, raw, _offset in read_lines(path):
        if number - 1 > last:
            return
        if number - 1 >= first:
            yield parse_line(raw, f"{path} line {number}")


def run(args) -> int:
    bots = [b.strip() for b in str(args.bots).split(",") if b.strip()]
    sizes: tuple[int, ...] = args.players_per_game
    problem = _check(bots, sizes)
    if problem:
        return _fail(problem)
    if args.resume and args.overwrite:
        return _fail("--resume and --overwrite exclude each other: keep the finished games, or start afresh")
    options = game_options(args)
    try:
        game_log.require_pyarrow()
        for name in bots:
            _bot(name)
        configs = {k: GameConfig(board_sides=args.board_sides, num_players=k, **options).to_dict() for k in sizes}
    except (UnknownBotError, ConfigError, FileNotFoundError, ImportError) as exc:
        return _fail(str(exc))
    per_deal = len(seatings(len(bots), sizes))
    total = args.games * per_deal
    run_config = {key: value for key, value in configs[sizes[0]].items() if key != "num_players"}
    wanted = {"kind": "tournament", "bots": bots, "players_per_game": list(sizes), "games_requested": args.games, "seed": args.seed}
    wanted["config"] = run_config
    out = Path(args.out)
    tally = LeagueTally(bots, sizes)
    try:
        if not args.overwrite:
            game_log.check_folder(out, (out / rundir.GAMES).exists() or (out / rundir.SUMMARY).exists())
        kept, keep_bytes = keep_finished(out, args, wanted, schedule(bots, sizes, args.games, args.seed, configs), total, tally)
    except (rundir.RunDirError, game_log.LogError) as exc:
        return _fail(str(exc))
    problem = backend_problem(args, min(args.workers, total - kept))
    if problem:
        return _fail(problem)
    # every check has passed: from here on the folder changes
    if args.overwrite:
        game_log.clear(out)
    covered = game_log.keep_parts(out, kept)
    log = game_log.LogWriter(out, per_deal)
    if covered < kept:
        n = game_log.rebuild(log, _recorded_games(out / rundir.GAMES, covered, kept - 1))
        if not args.quiet:
            print(
                f"note: the Parquet rows of {n} kept games were lost; rebuilt them from their records (think time unknown)", file=sys.stderr
            )
    if not args.quiet:
        print(
            f"{len(bots)} bots, tables of {'/'.join(map(str, sizes))}: {per_deal} games per deal, "
            f"{args.games} deals, {total} games" + (f" ({kept} kept)" if kept else ""),
            file=sys.stderr,
        )

    def summary(complete: bool) -> dict[str, Any]:
        s: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "kind": "tournament", **tally.summary()}
        s.update(seed=args.seed, workers=args.workers, config=run_config, deals=args.games, games_per_deal=per_deal)
        s.update(games_requested=total, complete=complete, max_decisions=MAX_DECISIONS, run=wanted)
        s["logs"] = {"folder": game_log.LOGS, "log_s": round(log.write_s, 3)}
        return s

    specs = schedule(bots, sizes, args.games, args.seed, configs, start=kept)
    status = play_run(specs, min(args.workers, total - kept), tally, out, keep_bytes, summary, args, total, game_log.play_logged, log)
    parts, rows = game_log.size(out / game_log.LOGS)
    if parts:
        print(f"wrote {rows} game-seat rows in {parts} Parquet files under {out / game_log.LOGS}")
    return status
