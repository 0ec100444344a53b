"""``wayfarers replay``: rebuild a recorded game from its seed and actions, check it, show it.

A record is trusted only after the engine has reproduced it: the game is rebuilt as
``Game(config, seed)`` plus every recorded action, and the final scores and winners must equal
the recorded ones. A broken file (cut off mid-write, edited by hand, from another schema, a field
of the wrong type) stops with ``error:`` naming the line and the field (exit status 2), never a
traceback; the checks themselves live in ``records``, shared with ``simulate --resume``.

A solo game's record holds only the bot's actions: the AI's turns are replayed by the engine
inside them, and shown as one line each (``solo_text``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from wayfarers_env import Game, IllegalActionError, describe_action
from wayfarers_env.rules import solo

from . import solo_text
from .records import RecordError, check_record, is_solo, parse_line, read_lines

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


def _renderer() -> Callable[..., str] | None:
    """The table renderer when wayfarers_env.envs.render exists (it is optional here)."""
    try:
        from wayfarers_env.envs.render import render_text
    except ImportError:
        return None
    return render_text


def turns(record: dict[str, Any]) -> Iterator[tuple[Game, int, int, list[int]]]:
    """(game after the turn, turn number, seat, the turn's actions) for each turn of a record."""
    game = Game(record["config"], record["seed"])
    actions = record["actions"]
    i = 0
    while i < len(actions):
        turn, seat = game.state.turn, game.current_player
        done = []
        while i < len(actions) and game.state.turn == turn and not game.is_over:
            game.apply(actions[i])
            done.append(actions[i])
            i += 1
        yield game, turn, seat, done


def show(record: dict[str, Any], out: TextIO, step: bool = False, ask: Callable[[str], str] | None = None) -> None:
    """Print the game turn by turn: the turn's actions in words, then the table after it (when
    ``wayfarers_env.envs.render`` is available); with ``step``, wait for Enter after each turn."""
    ask = ask or input
    if is_solo(record):
        return show_solo(record, out, step, ask)
    render = _renderer()
    players = record["players"]
    print(f"game {record.get('game', '?')}: seed {record['seed']}, {' vs '.join(players)}", file=out)
    game = None
    for game, turn, seat, done in turns(record):
        print(f"-- turn {turn + 1}: seat {seat} ({players[seat]})", file=out)
        for action in done:
            print(f"   {describe_action(action)}", file=out)
        if render is not None:
            print(render(game), file=out)
        if step and not _next(ask, out):
            return
    if game is not None:
        print(score_table(game, players), file=out)


def _next(ask: Callable[[str], str], out: TextIO) -> bool:
    """Wait for Enter; False when the person asks to stop."""
    try:
        return ask("[Enter] next turn, q to quit: ").strip().lower() not in ("q", "quit")
    except (EOFError, KeyboardInterrupt):
        print(file=out)
        return False


def show_solo(record: dict[str, Any], out: TextIO, step: bool, ask: Callable[[str], str]) -> None:
    """A solo game: the bot's actions in words, each ai_wants decision with the card it is about,
    and after each of the AI's turns (or the part of it before it asks) one line of what it did,
    then the table."""
    render = _renderer()
    bot = record["players"][0]
    game = Game(record["config"], record["seed"])
    print(f"game {record.get('game', '?')}: seed {record['seed']}, {bot} vs the {solo_text.ai_label(game)}", file=out)
    shown = None
    for action in record["actions"]:
        turn, asked = game.state.turn, game.decision()[0] == solo_text.WANTS
        if turn != shown:
            whose = f"the AI's turn, {bot} answers it" if asked else bot
            print(f"-- turn {turn + 1}: {whose}", file=out)
            shown = turn
        if asked:
            print(f"   {solo_text.wants(game)}", file=out)
        before = solo.snapshot(game.state)
        game.apply(action)
        print(f"   {describe_action(action)}", file=out)
        if solo_text.ai_moved(game, turn):
            print(f"   {solo.describe(game.state, before)}", file=out)
            if render is not None:
                print(render(game), file=out)
            if step and not _next(ask, out):
                return
    print(score_table(game, [bot]), file=out)


def score_table(game: Game, players: list[str]) -> str:
    """VP by source per seat (a solo game's AI, the seat after the player's, has sources of its own)."""
    scores = game.scores()
    names = list(players) + ([solo_text.ai_label(game)] if game.config.solo else [])
    keys = [k for s in scores for k in s if k != "total"]
    keys = [*dict.fromkeys(keys), "total"]
    width = {k: max(14, len(k) + 2) for k in keys}  # Tides of Trade's "caravan squares" is longer than the base game's names
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
        show(record, sys.stdout, step=getattr(args, "step", False))
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
    return 0
