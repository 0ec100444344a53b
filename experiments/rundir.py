"""The ``simulate --out`` directory: refused, started afresh, or resumed, and never left stale.

A run directory holds ``games.jsonl`` (one record per finished game, in game order, appended and
flushed as each game ends) and ``summary.json`` (the run's arguments and the statistics of the
games in games.jsonl, with ``"complete"`` saying whether all asked games are there).

* An existing run is never replaced silently: ``--overwrite`` starts afresh, ``--resume`` keeps
  the finished games and plays the rest, after checking that the arguments are the recorded ones
  and that every kept record is the game the schedule says (a different seed or line-up would
  mix two runs in one file).
* summary.json is replaced atomically (written beside, then renamed), and is rewritten before
  the first game is played, so a crash never leaves an older summary beside newer games: at
  worst it says "incomplete" and counts fewer games than games.jsonl holds, and ``--resume``
  rebuilds the statistics from the records. A last line cut off mid-write is dropped and its
  game played again.
* Every check runs before anything is written: a refused command changes nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .records import RecordError, check_record, parse_line, read_lines

GAMES = "games.jsonl"
SUMMARY = "summary.json"
# the config fields a run recorded before Tides of Trade existed lacks; that run played them at these values
EXPANSION_DEFAULTS = {"tides_of_trade": False, "card_influence": "both", "extension_sides": "random"}
FLAG_FIELDS = {"board_sides", *EXPANSION_DEFAULTS}  # config fields the simulate command sets by a flag


class RunDirError(Exception):
    """A --out directory that cannot be used as asked; the message is the one-line answer."""


def arguments(
    players: list[str], games: int, seed: int, rotate: bool, config: dict[str, Any], solo_boards: list[int] | None = None
) -> dict[str, Any]:
    """What fixes a run's games (not --workers, which changes nothing in games.jsonl). A solo run
    adds its AI boards (``config`` is then without ``solo_ai_board``, which each game sets)."""
    wanted = {"players": list(players), "games_requested": games, "seed": seed, "rotate": rotate, "config": config}
    if solo_boards is not None:  # only solo runs carry it, so other runs resume as before
        wanted["solo_boards"] = list(solo_boards)
    return wanted


def same_config(recorded: Any, wanted: Any) -> bool:
    """Whether a recorded game config is ``wanted``, reading absent expansion fields as off."""
    if not isinstance(recorded, dict) or not isinstance(wanted, dict):
        return recorded == wanted
    return {**EXPANSION_DEFAULTS, **recorded} == {**EXPANSION_DEFAULTS, **wanted}


def _flags(config: dict[str, Any], fields: list[str]) -> str:
    """The simulate flags that set ``fields`` of ``config`` (an expansion-only option is named
    only where the expansion is on)."""
    words = [f"--board-sides {config.get('board_sides')}"] if "board_sides" in fields else []
    tides = bool(config.get("tides_of_trade"))
    if "tides_of_trade" in fields:
        words.append("--tides-of-trade" if tides else "the base game (no --tides-of-trade)")
    words += [f"--{k.replace('_', '-')} {config.get(k)}" for k in ("card_influence", "extension_sides") if k in fields and tides]
    return " ".join(words)


def _boards(boards: Any) -> str:
    """A run's --solo-board in command-line words."""
    if not boards:
        return "no --solo-board"
    return (
        "--solo-board all"
        if isinstance(boards, list) and len(boards) > 1
        else f"--solo-board {boards[0] if isinstance(boards, list) else boards}"
    )


def _difference(key: str, recorded: Any, wanted: Any) -> str:
    """How a recorded argument and the one given differ, in command-line words."""
    if key in ("players", "bots"):
        flag = "--" + key
        return f"{flag} {','.join(map(str, recorded or []))}, not {flag} {','.join(wanted)}"
    if key == "players_per_game":
        return f"--players-per-game {','.join(map(str, recorded or []))}, not --players-per-game {','.join(map(str, wanted))}"
    if key == "games_requested":
        return f"--games {recorded}, not --games {wanted}"
    if key == "seed":
        return f"--seed {recorded}, not --seed {wanted}"
    if key == "solo_boards":
        return f"{_boards(recorded)}, not {_boards(wanted)}"
    if key == "rotate":
        return "seats rotated, not --no-rotate" if recorded else "--no-rotate, not seats rotated"
    old = {**EXPANSION_DEFAULTS, **recorded} if isinstance(recorded, dict) else {}
    wanted = {**EXPANSION_DEFAULTS, **wanted}
    fields = sorted(k for k in set(old) | set(wanted) if old.get(k) != wanted.get(k))
    if old and set(fields) <= FLAG_FIELDS and _flags(old, fields) and _flags(wanted, fields):
        return f"{_flags(old, fields)}, not {_flags(wanted, fields)}"
    return (
        "game config "
        + ", ".join(f"{k} {json.dumps(old.get(k))}" for k in fields)
        + ", not "
        + ", ".join(f"{k} {json.dumps(wanted.get(k))}" for k in fields)
    )


def check_target(out: Path, resume: bool, overwrite: bool) -> bool:
    """Whether ``out`` already holds a run; raises when it cannot be used as asked."""
    if out.exists() and not out.is_dir():
        raise RunDirError(f"--out {out} is a file; give a directory (it is created if missing)")
    ancestor = out
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise RunDirError(f"--out {out}: {ancestor} is a file, so no directory can be made under it")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise RunDirError(f"--out {out}: {ancestor} is not writable")
    held = [name for name in (GAMES, SUMMARY) if (out / name).exists()]
    if held and not (resume or overwrite):
        raise RunDirError(f"--out {out} already holds {' and '.join(held)}; pass --resume to finish that run or --overwrite to replace it")
    for name in held:
        if not (out / name).is_file() or not os.access(out / name, os.R_OK | os.W_OK):
            raise RunDirError(f"--out {out}: {name} is not a file this user can read and write")
    return bool(held)


def recorded_arguments(out: Path, wanted: dict[str, Any]) -> dict[str, Any]:
    """The previous summary.json, once its recorded arguments are the ``wanted`` ones."""
    path = out / SUMMARY
    if not path.exists():
        raise RunDirError(f"--resume: {out} has {GAMES} but no {SUMMARY} with the run's arguments; pass --overwrite to start afresh")
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunDirError(f"--resume: {path} cannot be read ({exc}); pass --overwrite to start afresh") from None
    if not isinstance(summary, dict) or not isinstance(summary.get("run"), dict):
        raise RunDirError(f"--resume: {path} records no run arguments (an older version wrote it); pass --overwrite to start afresh")
    recorded = summary["run"]
    made, kind = recorded.get("kind", "simulate"), wanted.get("kind", "simulate")  # only a tournament records its kind
    if made != kind:
        raise RunDirError(
            f"--resume: {out} holds a run of wayfarers {made}, not {kind}; give another --out, or pass --overwrite to start afresh"
        )
    for key, value in wanted.items():
        if not (same_config(recorded.get(key), value) if key == "config" else recorded.get(key) == value):
            raise RunDirError(
                f"--resume: {out} was run with {_difference(key, recorded.get(key), value)}; "
                "repeat the recorded arguments, or pass --overwrite to start afresh"
            )
    return summary


def scan_games(path: Path, expected: Iterator[Any], limit: int, fold: Callable[[dict[str, Any]], None]) -> tuple[int, int, bool]:
    """Check the kept records of a run against the games the schedule ``expected`` (GameSpecs in
    order) and ``fold`` each one into the statistics. Returns (games kept, bytes they take, whether
    a cut-off last line follows them)."""
    kept = size = 0
    if not path.exists():
        return 0, 0, False
    try:
        for number, raw, offset in read_lines(path):
            where = f"{path} line {number}"
            if not raw.endswith(b"\n"):
                return kept, size, True  # the last line, cut off mid-write: that game is played again
            record = check_record(parse_line(raw, where), where, complete=True)
            if kept >= limit:
                raise RunDirError(f"--resume: {where} is game {kept}, but the run has only {limit} games")
            spec = next(expected)
            for key, value in (("game", spec.index), ("seed", spec.seed), ("players", list(spec.players)), ("config", spec.config)):
                if not (same_config(record.get(key), value) if key == "config" else record.get(key) == value):
                    raise RunDirError(f"--resume: {where} is not game {spec.index} of this run (its {key!r} differs); pass --overwrite")
            if record["lineup"] != list(spec.lineup):
                raise RunDirError(f"--resume: {where} is not game {spec.index} of this run (its 'lineup' differs); pass --overwrite")
            fold(record)
            kept, size = kept + 1, offset
    except RecordError as exc:
        raise RunDirError(f"--resume: {exc}; the file is damaged before its end, pass --overwrite to start afresh") from None
    except OSError as exc:
        raise RunDirError(f"--resume: {path} cannot be read ({exc.strerror or exc})") from None
    return kept, size, False


def start(out: Path, keep_bytes: int, summary: dict[str, Any]):
    """Make ``out`` describe the games about to be kept, then return games.jsonl open for
    appending and holding exactly its first ``keep_bytes`` bytes (0: none). The summary goes
    first: a crash in between leaves an incomplete summary beside older lines, which --resume
    refuses as another run's, never a complete one beside fewer games."""
    out.mkdir(parents=True, exist_ok=True)
    write_summary(out, summary)
    path = out / GAMES
    with open(path, "ab") as f:
        f.truncate(keep_bytes)
    return open(path, "a", encoding="utf-8")


def write_summary(out: Path, summary: dict[str, Any]) -> None:
    """Replace summary.json in one step: readers see the old file or the new one, never half."""
    tmp = out / f".{SUMMARY}.tmp"
    tmp.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, out / SUMMARY)
