"""``wayfarers replay``: rebuild a recorded game from its seed and actions, check it, show it.

A record is trusted only after the engine has reproduced it: the game is rebuilt as
``Game(config, seed)`` plus every recorded action, and the final scores and winners must equal
the recorded ones. A broken file (cut off mid-write, edited by hand, from another schema, a field
of the wrong type) stops with ``error:`` naming the line and the field (exit status 2), never a
traceback; the checks themselves live in ``records``, shared with ``simulate --resume``.

What a person reads: one line a turn by default (who did what, in the game's words, and their VP
after it; ``turnlog``), the table after each turn with ``--table``, and with ``--step`` the table
then the turn's line right above the prompt, so neither scrolls away. Turns are counted from 1
everywhere (the log, the table's header, the score table). A solo game's record holds only the
bot's actions: the AI's turns are replayed by the engine inside them, and shown as one line each.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from wayfarers_env import Game, IllegalActionError

from . import solo_text
from .records import RecordError, check_record, parse_line, read_lines
from .table import compact_table
from .turnlog import TurnLog

ReplayError = RecordError  # a games.jsonl that cannot be replayed; the message names the line and the problem


def iter_records(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, checked record) for each line of a games.jsonl, read one line at a time;
    blank lines are skipped."""
    p = Path(path)
    if not p.exists():
        raise ReplayError(f"{p}: no such file")
    try:
        for number, raw, _offset in read_lines(p):
            if not raw.strip():
                continue
            where = f"{p.name} line {number}"
            yield number, check_record(parse_line(raw, where), where)
    except OSError as exc:
        raise ReplayError(f"{p}: cannot be read ({exc.strerror or exc})") from None


def load_record(path: str | Path, index: int) -> tuple[int, dict[str, Any]]:
    """The index-th game (0-based) of a games.jsonl and its line number. The whole file is
    checked, so a damaged line is reported even when it is not the game asked for."""
    found = None
    count = 0
    for number, record in iter_records(path):
        if count == index:
            found = (number, record)
        count += 1
    if count == 0:
        raise ReplayError(f"{Path(path).name}: holds no games")
    if found is None or index < 0:
        raise ReplayError(f"--game {index} is out of range: {Path(path).name} holds {count} games (0..{count - 1})")
    return found


def rebuild(record: dict[str, Any], where: str = "record") -> Game:
    """Replay a record and check that it reproduces the recorded scores and winners."""
    try:
        game = Game(record["config"], record["seed"])
    except (ValueError, TypeError, KeyError) as exc:
        raise ReplayError(f"{where}: field 'config' does not set up a game: {exc}") from None
    if game.config.num_players != len(record["players"]):
        n = game.config.num_players
        raise ReplayError(f"{where}: field 'players' names {len(record['players'])} bots but the config is for {n} players")
    for step, action in enumerate(record["actions"]):
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise ReplayError(f"{where}: action #{step} ({action}) does not replay: {exc}") from None
    scores = game.scores()
    if scores != record["scores"]:
        diffs = []
        for seat, (got, want) in enumerate(zip(scores, record["scores"])):
            bad = [f"{k} {want.get(k)} recorded, {v} replayed" for k, v in got.items() if want.get(k) != v]
            if bad:
                diffs.append(f"seat {seat}: " + "; ".join(bad))
        raise ReplayError(f"{where}: the replay does not reproduce the recorded scores ({' | '.join(diffs) or 'seat count differs'})")
    if game.winners() != record["winners"]:
        raise ReplayError(f"{where}: winners {record['winners']} recorded, {game.winners()} replayed")
    return game


def show(record: dict[str, Any], out: TextIO, step: bool = False, ask: Callable[[str], str] | None = None, table: bool = False) -> None:
    """Print the game one line a turn (who did what, their VP after it; a solo game's AI on a line
    of its own). With ``table``, the table follows each turn; with ``step``, the table comes first
    and the turn's line right above the prompt, which waits for Enter."""
    ask = ask or input
    players = list(record["players"])
    game = Game(record["config"], record["seed"])
    names = players + ([solo_text.ai_label(game)] if game.config.solo else [])
    against = f"the {solo_text.ai_label(game)}" if game.config.solo else " vs ".join(players[1:])
    print(f"game {record.get('game', '?')}: seed {record['seed']}, {players[0]} vs {against}", file=out)
    log = TurnLog(names)
    shown = 0
    actions = record["actions"]
    for k, action in enumerate(actions):
        log.apply(game, action)
        closed = log.entries if k == len(actions) - 1 else [e for e in log.entries if e.vp is not None]
        for entry in closed[shown:]:
            if step or table:
                print(compact_table(game, None, names, after=entry.turn + 1), file=out)
            print(log.text(entry), file=out)
            if step and not _next(ask, out):
                return
        shown = max(shown, len(closed))
    print(score_table(game, players), file=out)


def _next(ask: Callable[[str], str], out: TextIO) -> bool:
    """Wait for Enter; False when the person asks to stop."""
    try:
        return ask("[Enter] next turn, q to quit: ").strip().lower() not in ("q", "quit")
    except (EOFError, KeyboardInterrupt):
        print(file=out)
        return False


def score_table(game: Game, players: list[str]) -> str:
    """VP by source per seat (a solo game's AI, the seat after the player's, has sources of its own)."""
    scores = game.scores()
    names = list(players) + ([solo_text.ai_label(game)] if game.config.solo else [])
    keys = [k for s in scores for k in s if k != "total"]
    keys = [*dict.fromkeys(keys), "total"]
    width = {k: max(7, len(k) + 2) for k in keys}  # as wide as its name: the base game's table fits 100 columns
    head = "seat  bot".ljust(24) + "".join(k.replace("_", " ").rjust(width[k]) for k in keys)
    lines = [head]
    for seat, s in enumerate(scores):
        mark = " *" if seat in game.winners() else ""
        lines.append(f"{seat:<4}  {names[seat] + mark:<18}" + "".join(str(s.get(k, "-")).rjust(width[k]) for k in keys))
    state = "over" if game.is_over else "not finished"
    lines.append(f"game {state} after {game.state.turn + 1} turns; * = winner")
    return "\n".join(lines)


def run(args) -> int:
    try:
        number, record = load_record(args.path, args.game)
        rebuild(record, f"{Path(args.path).name} line {number}")
    except ReplayError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        print(f"{Path(args.path).name} line {number}: replay reproduces the recorded scores")
        show(record, sys.stdout, step=getattr(args, "step", False), table=getattr(args, "table", False))
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
    return 0
