"""The game record of ``games.jsonl``: its version, the type of every field, and reading the file.

A solo game's record (its config has ``num_players`` 1) names one bot in ``players`` but has two
seats in ``scores``, ``winners`` and ``seat_decisions``: the bot's and the solo AI's (seat 1),
whose score has its own sources (``ai_cards``...) and a ``total``.

One place decides what a well-formed record is, so that ``replay`` (showing a game) and
``simulate --resume`` (continuing a run) refuse the same broken lines with the same words: the
message names the line, the field and what the field must hold. A file is read one line at a
time, so its size does not matter, and a last line without its newline is reported as cut off
(what a crash in the middle of a write leaves) rather than as corrupt.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from wayfarers_env.rules.scoring import BASE_SOURCES

SCHEMA_VERSION = 1
SCORE_KEYS = (*BASE_SOURCES, "total")  # every game reports these; Tides of Trade games add scoring.TIDES_SOURCES


class RecordError(ValueError):
    """A line of games.jsonl that is not a usable game record; the message says where and why."""


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _ints(x: Any) -> bool:
    return isinstance(x, list) and all(_is_int(v) for v in x)


def _count(x: Any) -> bool:
    return _is_int(x) and x >= 0


def _names(x: Any) -> bool:
    return isinstance(x, list) and 2 <= len(x) <= 4 and all(isinstance(v, str) for v in x)


def _scores(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(s, dict) and all(_is_int(s.get(k)) for k in SCORE_KEYS) for s in x)


def _solo_scores(x: Any) -> bool:
    """The bot's score as in any game, then the AI's: integers with a total."""
    return (
        isinstance(x, list)
        and len(x) == 2
        and _scores(x[:1])
        and isinstance(x[1], dict)
        and _is_int(x[1].get("total"))
        and all(_is_int(v) for v in x[1].values())
    )


def is_solo(record: dict[str, Any]) -> bool:
    """Whether a record is a game against the solo AI (judged from its config alone)."""
    config = record.get("config")
    return isinstance(config, dict) and config.get("num_players") == 1


# field: (test, what it must be). The first block is what a replay needs; the second is what a
# simulate run writes besides (checked whenever present, required to resume a run).
NEEDED: dict[str, tuple[Callable[[Any], bool], str]] = {
    "schema_version": (_is_int, "an integer"),
    "config": (lambda x: isinstance(x, dict), "an object (the game config)"),
    "seed": (_is_int, "an integer"),
    "players": (_names, "a list of 2 to 4 bot names (strings)"),
    "scores": (_scores, f"a list of per-seat objects with integer {', '.join(SCORE_KEYS)}"),
    "winners": (_ints, "a list of seat numbers"),
    "actions": (_ints, "a list of integer action ids"),
}
SOLO_NEEDED = {
    **NEEDED,
    "players": (lambda x: isinstance(x, list) and len(x) == 1 and isinstance(x[0], str), "a list of one bot name (a solo game)"),
    "scores": (_solo_scores, f"two objects: the bot's with integer {', '.join(SCORE_KEYS)}, then the AI's with an integer total"),
}
EXTRA: dict[str, tuple[Callable[[Any], bool], str]] = {
    "game": (_count, "a game index (integer, 0 or more)"),
    "lineup": (_ints, "a list of integers (the entrant in each seat)"),
    "finished": (lambda x: isinstance(x, bool), "true or false"),
    "turns": (_count, "an integer, 0 or more"),
    "decisions": (_count, "an integer, 0 or more"),
    "seat_decisions": (lambda x: _ints(x) and all(v >= 0 for v in x), "a list of per-seat decision counts"),
}


def check_record(record: Any, where: str, complete: bool = False) -> dict[str, Any]:
    """``record`` if every field it has is of the right type and the seats agree; ``complete``
    also requires the fields a simulate run writes besides the ones a replay needs."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a game record is a JSON object, found {type(record).__name__}")
    solo = is_solo(record)
    for fields, required in ((SOLO_NEEDED if solo else NEEDED, True), (EXTRA, complete)):
        for key, (test, what) in fields.items():
            if key not in record:
                if required:
                    raise RecordError(f"{where}: the record has no {key!r} field (needs {', '.join(fields)})")
                continue
            if not test(record[key]):
                raise RecordError(f"{where}: field {key!r} should be {what}, found {json.dumps(record[key])[:60]}")
    if record["schema_version"] != SCHEMA_VERSION:
        raise RecordError(f"{where}: schema_version {record['schema_version']} is not the one this version reads ({SCHEMA_VERSION})")
    n = len(record["players"])
    seats = n + solo  # the solo AI's seat follows the bot's
    if len(record["scores"]) != seats:
        raise RecordError(f"{where}: {n} players but {len(record['scores'])} scores")
    if not all(0 <= w < seats for w in record["winners"]):
        raise RecordError(f"{where}: field 'winners' holds a seat outside 0..{seats - 1}: {record['winners']}")
    if "lineup" in record and sorted(record["lineup"]) != list(range(n)):
        raise RecordError(f"{where}: field 'lineup' should order the entrants 0..{n - 1}, found {record['lineup']}")
    if "seat_decisions" in record and len(record["seat_decisions"]) != seats:
        raise RecordError(f"{where}: field 'seat_decisions' should have {seats} entries, found {len(record['seat_decisions'])}")
    return record


def read_lines(path: str | Path) -> Iterator[tuple[int, bytes, int]]:
    """(line number, the line's bytes, file offset after it) for each line, one at a time."""
    offset = 0
    with open(path, "rb") as f:
        for number, raw in enumerate(f, start=1):
            offset += len(raw)
            yield number, raw, offset


def parse_line(raw: bytes, where: str) -> Any:
    """The JSON value of a line; a line without its newline can only be the last one, cut off."""
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordError(f"{where}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        hint = "corrupt JSON" if raw.endswith(b"\n") else "the file ends in the middle of this record (truncated)"
        raise RecordError(f"{where}: {hint}: {exc.msg.removesuffix(' at')} at column {exc.colno}") from None
