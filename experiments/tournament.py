"""``wayfarers simulate``: play bots against each other, save every game, print a results table.

Games come in blocks that share one seed: with rotation on, block k plays the same deal once per
seating (the lineup rotated by one seat each time), so a seat or a deal never favours one bot.
Each seat's bot draws from its own generator, seeded from the run seed, the game index and the
seat, so no two games share a stream: a bot that plays itself (``random,random``) plays
independent games, not the same game twice. The workers only compute records that the parent
writes in game order, so ``games.jsonl`` is byte-identical for any ``--workers``; timings (which
vary) go to ``summary.json`` only.

A run's size is not bounded by memory: the schedule is made one game at a time, at most
``IN_FLIGHT_PER_WORKER`` games per worker are queued, and the summary is folded from the records
as they come (``tally.Tally``) instead of being computed from a list of them. Ctrl-C stops the run
between writes (``experiments.ctrl_c.CtrlC``), prints the table of the finished games and leaves ``--out`` ready for
``--resume`` (``rundir``).

A solo run (``--solo-board``) plays one bot against the rulebook's solo AI, which sits in the
second seat and is no entrant: ``solo_schedule`` gives each game its AI board (each deal against
every board asked for), and ``solo_tally.SoloTally`` counts the results per board.
"""

from __future__ import annotations

import hashlib
import json
import random
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents.base import choose
from agents.registry import UnknownBotError, make_bot
from wayfarers_env import ConfigError, Game, GameConfig

from . import rundir
from .cli import game_options
from .ctrl_c import CtrlC
from .records import SCHEMA_VERSION
from .solo_tally import SoloTally
from .tally import Tally, entrant_labels, format_table

__all__ = ["SCHEMA_VERSION", "GameSpec", "derive_seed", "entrant_labels", "format_table", "play_game", "run", "schedule", "solo_schedule"]

MAX_DECISIONS = 100_000  # a guard against bots that never end a game; random games need ~4,000
IN_FLIGHT_PER_WORKER = 2  # queued games per worker: enough to keep it busy, few enough to hold
INTERRUPTED = 130  # the exit status of a run stopped by Ctrl-C, as shells report SIGINT


@dataclass(frozen=True)
class GameSpec:
    """One game to play: its place in the run, its seeds, and who sits where."""

    index: int
    seed: int  # the deal
    players: tuple[str, ...]  # bot names in seat order
    lineup: tuple[int, ...]  # per seat: position of that bot in the --players list
    config: dict[str, Any]
    bot_seeds: tuple[int, ...]  # per seat: the seed of that seat's generator in this game


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, identical in every process and Python run (unlike hash())."""
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def schedule(players: list[str], games: int, seed: int, config: GameConfig, rotate: bool = True, start: int = 0) -> Iterator[GameSpec]:
    """The games ``start``.. of a run, made as they are asked for (a run of 10**8 games costs no
    memory up front). Rotation: game i plays deal i // n with the lineup rotated by i % n."""
    n = len(players)
    cfg = config.to_dict()
    for i in range(start, games):
        if rotate:
            block, shift = divmod(i, n)
            lineup = tuple((j + shift) % n for j in range(n))
        else:
            block, lineup = i, tuple(range(n))
        yield GameSpec(
            index=i,
            seed=derive_seed("wayfarers-simulate", seed, block),
            players=tuple(players[j] for j in lineup),
            lineup=lineup,
            config=cfg,
            bot_seeds=tuple(derive_seed("wayfarers-bot", seed, i, s) for s in range(n)),
        )


def solo_schedule(bot: str, boards: tuple[int, ...], games: int, seed: int, config: GameConfig, start: int = 0) -> Iterator[GameSpec]:
    """The games ``start``.. of a solo run: game i plays deal i // len(boards) against AI board
    boards[i % len(boards)], so with several boards each deal meets every board (the boards are
    compared on the same deals) and a run stopped early has played them all nearly equally."""
    base = config.to_dict()
    for i in range(start, games):
        block, k = divmod(i, len(boards))
        yield GameSpec(
            index=i,
            seed=derive_seed("wayfarers-simulate", seed, block),
            players=(bot,),
            lineup=(0,),
            config={**base, "solo_ai_board": boards[k]},
            bot_seeds=(derive_seed("wayfarers-bot", seed, i, 0),),
        )


_BOTS: dict[str, Any] = {}


def _bot(name: str):
    """One bot per name and process: bots keep no state between decisions, and a policy bot
    should load its model once, not once per game."""
    if name not in _BOTS:
        _BOTS[name] = make_bot(name)
    return _BOTS[name]


def play_game(spec: GameSpec, watch: Callable[[Game, int], None] | None = None) -> tuple[dict[str, Any], list[float]]:
    """Play one game. Returns its record (deterministic) and each seat's thinking time (not).
    ``watch(game, seat)`` sees the game after each action of ``seat``: what a log keeps of a game
    (``game_log``) is read as it happens, so the record stays the same whoever watches."""
    game = Game(spec.config, spec.seed)
    n = game.num_players
    bots = [_bot(name) for name in spec.players]
    rngs = [random.Random(s) for s in spec.bot_seeds]
    actions: list[int] = []
    decisions = [0] * n
    think = [0.0] * n
    while not game.is_over and len(actions) < MAX_DECISIONS:
        seat = game.current_player
        start = time.perf_counter()
        action = choose(bots[seat], game, rngs[seat])
        think[seat] += time.perf_counter() - start
        game.apply(action)
        actions.append(action)
        decisions[seat] += 1
        if watch is not None:
            watch(game, seat)
    record = {
        "schema_version": SCHEMA_VERSION,
        "game": spec.index,
        "config": spec.config,
        "seed": spec.seed,
        "players": list(spec.players),
        "lineup": list(spec.lineup),
        "finished": game.is_over,
        "turns": game.state.turn + 1,
        "decisions": len(actions),
        "seat_decisions": decisions,
        "scores": game.scores(),
        "winners": game.winners(),
        "actions": actions,
    }
    return record, think


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent, which stops them; otherwise each would print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_games(
    specs: Iterator[GameSpec], workers: int, play: Callable[[GameSpec], tuple] | None = None, backend: str = "process"
) -> Generator[tuple, None, None]:
    """``play(spec)`` per game (default ``play_game``: (record, think)), in game order; in parallel processes when workers > 1, with at
    most ``IN_FLIGHT_PER_WORKER`` games per worker submitted ahead of the one being waited for
    (``Pool.imap`` would read the whole schedule into its queue), or by Ray actors with ``backend``
    "ray" (``ray_backend``, once ``backend_problem`` has started Ray). Closing the generator stops
    the workers."""
    if play is None:
        play = play_game  # looked up now, so that a test can replace it
    if backend == "ray":
        from .ray_backend import results

        yield from results(specs, workers, play)
        return
    if workers <= 1:
        for spec in specs:
            yield play(spec)
        return
    import multiprocessing as mp

    pool = mp.get_context().Pool(workers, initializer=_ignore_sigint)
    try:
        pending: deque = deque()
        for spec in specs:
            pending.append(pool.apply_async(play, (spec,)))
            if len(pending) >= IN_FLIGHT_PER_WORKER * workers:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def backend_problem(args, workers: int) -> str | None:
    """What is wrong with --backend and --address (None: nothing); with --backend ray, Ray is
    joined or started now, before anything is written (``ray_backend.prepare``)."""
    if getattr(args, "backend", "process") == "process" and getattr(args, "address", None) is None:
        return None  # the process backend never loads the Ray module
    from .ray_backend import prepare

    return prepare(args, max(1, workers))


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def _check_players(players: list[str], boards: tuple[int, ...] | None, games: int) -> str | None:
    """What is wrong with --players for this kind of run (None: nothing)."""
    if boards is None:
        if len(players) == 1:
            return (
                f"--players names one bot ({players[0]}): a game needs 2 to 4 bots, or one bot and --solo-board 1-4|all to play the solo AI"
            )
        if not 2 <= len(players) <= 4:
            return f"--players needs 2 to 4 bot names (one per seat), got {len(players)}"
        return None
    if len(players) != 1:
        return (
            f"--solo-board plays one bot against the solo AI: give exactly one bot in --players, got {len(players)} ({','.join(players)})"
        )
    if len(boards) > 1 and games % len(boards):
        return f"--solo-board all splits --games evenly over the {len(boards)} AI boards: give a multiple of {len(boards)}, got {games}"
    return None


def run(args) -> int:
    players = [p.strip() for p in str(args.players).split(",") if p.strip()]
    boards = getattr(args, "solo_board", None)
    problem = _check_players(players, boards, args.games)
    if problem:
        return _fail(problem)
    if args.games < 1 or args.workers < 1:
        return _fail("--games and --workers must be at least 1")
    resume, overwrite = getattr(args, "resume", False), getattr(args, "overwrite", False)
    if resume and overwrite:
        return _fail("--resume and --overwrite exclude each other: keep the finished games, or start afresh")
    if (resume or overwrite) and not args.out:
        return _fail(f"--{'resume' if resume else 'overwrite'} applies to an --out directory; give --out DIR")
    options = game_options(args)  # before the bots load: a flag given without --tides-of-trade is refused at once
    seats = {"num_players": 1, "solo_ai_board": boards[0]} if boards else {"num_players": len(players)}
    try:
        for name in set(players):
            _bot(name)
        config = GameConfig(board_sides=args.board_sides, **seats, **options)
    except (UnknownBotError, ConfigError, FileNotFoundError, ImportError) as exc:
        return _fail(str(exc))
    rotate = not getattr(args, "no_rotate", False) and not boards  # one seat: nothing to rotate
    run_config = {k: v for k, v in config.to_dict().items() if k != "solo_ai_board"}  # a solo run's games set their board

    def games_from(start: int) -> Iterator[GameSpec]:
        if boards:
            return solo_schedule(players[0], boards, args.games, args.seed, config, start)
        return schedule(players, args.games, args.seed, config, rotate, start)

    wanted = rundir.arguments(players, args.games, args.seed, rotate, run_config, list(boards) if boards else None)
    out = Path(args.out) if args.out else None
    tally = SoloTally(players[0], boards) if boards else Tally(players)
    try:
        kept, keep_bytes = keep_finished(out, args, wanted, games_from(0), args.games, tally)
    except rundir.RunDirError as exc:
        return _fail(str(exc))
    problem = backend_problem(args, min(args.workers, args.games - kept))
    if problem:
        return _fail(problem)
    if rotate and args.games % len(players) and not args.quiet:
        print(f"note: {args.games} games is not a multiple of {len(players)} seats; seatings are not balanced", file=sys.stderr)

    def summary(complete: bool) -> dict[str, Any]:
        s = {"schema_version": SCHEMA_VERSION, **tally.summary()}
        s.update(seed=args.seed, rotate=rotate, workers=args.workers, config=run_config)
        s.update(games_requested=args.games, complete=complete, max_decisions=MAX_DECISIONS, run=wanted)
        return s

    specs = games_from(kept)
    return play_run(specs, min(args.workers, args.games - kept), tally, out, keep_bytes, summary, args, args.games)


def keep_finished(
    out: Path | None, args, wanted: dict[str, Any], expected: Iterator[GameSpec], total: int, tally: Any, fold: Callable | None = None
) -> tuple[int, int]:
    """The finished games of the run in ``out`` that ``--resume`` keeps: (how many, the bytes of
    games.jsonl they fill), folded into ``tally`` (and ``fold``) after checking them against the
    ``expected`` schedule; (0, 0) for a new run. Raises rundir.RunDirError, having written nothing,
    when ``out`` cannot be used as asked. Shared by ``simulate`` and ``tournament``."""
    resume, overwrite = getattr(args, "resume", False), getattr(args, "overwrite", False)
    if out is None or not rundir.check_target(out, resume, overwrite) or not resume:
        if resume and not args.quiet:
            print(f"note: {out} holds no run to resume; starting it", file=sys.stderr)
        return 0, 0
    previous = rundir.recorded_arguments(out, wanted)

    def both(record: dict[str, Any]) -> None:
        tally.add(record)
        if fold is not None:
            fold(record)

    kept, keep_bytes, cut = rundir.scan_games(out / rundir.GAMES, expected, total, both)
    tally.carry_timing(previous)
    if cut and not args.quiet:
        print(f"note: the last line of {out / rundir.GAMES} was cut off mid-write; game {kept} is played again", file=sys.stderr)
    return kept, keep_bytes


def play_run(
    specs: Iterator[GameSpec],
    workers: int,
    tally: Any,
    out: Path | None,
    keep_bytes: int,
    summary,
    args,
    total: int,
    play: Callable[[GameSpec], tuple] | None = None,
    log: Any = None,
) -> int:
    """Play the scheduled games into ``tally`` and ``out``; whatever stops the run (the end,
    Ctrl-C, a failing bot), summary.json ends up describing exactly the games in games.jsonl.
    ``total`` is the run's size; ``play`` may return more than (record, think): the whole result
    goes to ``log.add`` once the record is written, and ``log.close()`` runs before the summary
    (``tournament``'s Parquet logs)."""
    failure: Exception | None
    interrupted, failure, handle, results, bar = False, None, None, None, None
    start = time.perf_counter()
    with CtrlC() as ctrl_c:
        try:
            with ctrl_c.writing():
                if out is not None:
                    handle = rundir.start(out, keep_bytes, summary(complete=tally.games == total))
            desc = tally.title
            bar = tqdm(total=total, initial=tally.games, desc=desc, unit="game", disable=args.quiet, file=sys.stderr)
            results = play_games(specs, workers, play, getattr(args, "backend", "process"))
            for result in results:
                record, secs = result[0], result[1]
                with ctrl_c.writing():
                    if handle is not None:
                        handle.write(json.dumps(record, separators=(",", ":")) + "\n")
                        handle.flush()
                    tally.add(record, secs)
                    if log is not None:
                        log.add(result)
                bar.update(1)
        except KeyboardInterrupt:
            interrupted = True
        except OSError as exc:
            if bar is None:  # raised by rundir.start: the folder itself is the problem
                return _fail(f"--out {out}: cannot write there ({exc.strerror or exc})")
            failure = exc
        except Exception as exc:  # a bot that fails: keep what was played, then report it as before
            failure = exc
        finally:
            ctrl_c.hold()
            if results is not None:
                results.close()
            if bar is not None:
                bar.close()
        tally.elapsed_s += time.perf_counter() - start
        if log is not None and failure is None:
            try:
                log.close()
            except OSError as exc:
                failure = exc
        result = summary(complete=tally.games == total)
        if handle is not None:
            assert out is not None  # games.jsonl is only open for --out
            handle.close()
            rundir.write_summary(out, result)
        if failure is not None:
            raise failure
        print(tally.table(result) if tally.games else "no game finished")
        if out is not None:
            print(f"wrote {out / rundir.GAMES} and {out / rundir.SUMMARY}")
    if interrupted:
        rest = f"; run the same command with --resume to play the other {total - tally.games}" if out is not None else ""
        print(f"interrupted: {tally.games} of {total} games finished{rest}", file=sys.stderr)
        return INTERRUPTED
    return 0
