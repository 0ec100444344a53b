"""The tournament's Parquet log: one row per game and seat, for ``wayfarers analyze``.

games.jsonl keeps what replays a game; this log keeps what an analysis asks of it without
replaying: the config, who sat where, the final score by source, the margin and place, the turn
each journal column was reached, the cards and tiles taken, the game's length and the seat's
decisions and thinking time. Columns are in ``SCHEMA`` (docs/ANALYSIS.md describes them).

What needs the game itself (journal timing, the cards and tiles) is read in the worker that plays
it (``JournalWatch`` sees the game after each action, ``play_logged``); the parent turns that
and the record into rows (``rows``) and writes them in parts, ``logs/seats-FIRST-LAST.parquet``
(games FIRST..LAST), each written beside and renamed, so a part is whole or absent. A part is
written every ``FLUSH_ROWS`` rows or ``FLUSH_S`` seconds and when the run stops, Ctrl-C included.

On ``--resume`` the parts that cover the kept games from game 0 on are kept, any other is
removed, and the rows of kept games without a part (a hard crash lost them) are rebuilt from
their records: the recorded actions applied to the engine, no bot asked (``extract_from_record``),
so those rows equal the lost ones except for the thinking time, which is then null.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from wayfarers_env import Game
from wayfarers_env.rules.scoring import BASE_SOURCES, TIDES_SOURCES

from .league import margins, places
from .tournament import GameSpec, play_game

LOGS = "logs"
PART = re.compile(r"seats-(\d{8})-(\d{8})\.parquet")
FLUSH_ROWS = 50_000
FLUSH_S = 60.0
VP_SOURCES = BASE_SOURCES + TIDES_SOURCES  # a base game's rows hold 0 for the expansion's
ANALYSIS_EXTRA = 'pip install -e ".[analysis]"'


class LogError(Exception):
    """A logs folder that cannot be used as asked; the message is the one-line answer."""


def schema():
    """The Arrow schema of a part (pyarrow is imported only where logs are written or read)."""
    import pyarrow as pa

    fields = [
        ("game", pa.int64()),
        ("deal", pa.int64()),
        ("seed", pa.int64()),
        ("num_players", pa.int8()),
        ("board_sides", pa.string()),
        ("sides", pa.string()),
        ("tides_of_trade", pa.bool_()),
        ("card_influence", pa.string()),
        ("extension_sides", pa.string()),
        ("lineup", pa.string()),
        ("seat", pa.int8()),
        ("bot", pa.string()),
        ("won", pa.float64()),
        ("place", pa.int8()),
        ("score", pa.int32()),
        ("margin", pa.int32()),
        *((f"vp_{s}", pa.int32()) for s in VP_SOURCES),
        ("journal_column", pa.int8()),
        ("journal_turn", pa.list_(pa.int16())),
        ("cards", pa.list_(pa.string())),
        ("tiles", pa.list_(pa.string())),
        ("n_cards", pa.int16()),
        ("n_tiles", pa.int16()),
        ("turns", pa.int32()),
        ("own_turns", pa.int16()),
        ("decisions", pa.int32()),
        ("think_s", pa.float64()),
        ("ms_per_decision", pa.float64()),
        ("finished", pa.bool_()),
    ]
    return pa.schema(fields)


def require_pyarrow() -> None:
    """Raise ImportError naming the extra when the Parquet writer is missing."""
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise ImportError(f"the tournament's Parquet logs need pyarrow, from the [analysis] extra: {ANALYSIS_EXTRA}") from None


class JournalWatch:
    """Called after each action (``tournament.play_game``'s watch): notes the own turn (1 = each
    player's first) at which each seat's marker first reaches each journal column."""

    __slots__ = ("game", "column", "best", "reached", "turn")

    def __init__(self) -> None:
        self.turn = 0  # the game's turn before the action just applied (an action may end the turn)
        self.game: Game | None = None
        self.column: list[int] = []
        self.best: list[int] = []
        self.reached: list[list[int | None]] = []

    def __call__(self, game: Game, seat: int) -> None:
        if self.game is None:
            self.column = [node.column for node in game.state.tables.nodes]
            width = max(self.column) + 1
            self.best = [0] * game.num_players
            self.reached = [[1] + [None] * (width - 1) for _ in range(game.num_players)]  # column 0: the start
        self.game = game
        turn, self.turn = self.turn, game.state.turn
        col = self.column[game.state.players[seat].node]
        if col > self.best[seat]:
            self._reach(seat, col, turn // game.num_players + 1)

    def _reach(self, seat: int, col: int, turn: int) -> None:
        for c in range(self.best[seat] + 1, col + 1):
            self.reached[seat][c] = turn
        self.best[seat] = col

    def extract(self) -> dict[str, Any]:
        """Per seat, what the rows need from the finished game (a small picklable dict)."""
        game = self.game
        assert game is not None, "a game without actions"
        g = game.state
        t = g.tables
        last = g.turn // game.num_players + 1
        cards, tiles = [], []
        for seat, p in enumerate(g.players):
            col = self.column[p.node]
            if col > self.best[seat]:  # moved on another's turn: when is unknown, say the last turn
                self._reach(seat, col, last)
            taken = [*p.land, *p.water, *p.above.values(), *p.tucked.values(), *p.inspired.values()]
            if p.overseer >= 0:
                taken.append(p.overseer)
            cards.append([t.cards[c].id for c in taken])
            tiles.append([t.designs[tile[0]].id for tile in p.tiles])
        sides = "".join("ab"[s] for s in g.sides)
        return {"journal": self.reached, "cards": cards, "tiles": tiles, "sides": sides}


def play_logged(spec: GameSpec) -> tuple[dict[str, Any], list[float], dict[str, Any]]:
    """``tournament.play_game`` with a JournalWatch: (record, think, extract). Runs in a worker."""
    watch = JournalWatch()
    record, think = play_game(spec, watch)
    return record, think, watch.extract()


def extract_from_record(record: dict[str, Any]) -> dict[str, Any]:
    """The extract of a recorded game, by applying its recorded actions (no bot is asked)."""
    game = Game(record["config"], record["seed"])
    watch = JournalWatch()
    for action in record["actions"]:
        seat = game.current_player
        game.apply(action)
        watch(game, seat)
    return watch.extract()


def rows(record: dict[str, Any], think: list[float] | None, extract: dict[str, Any], per_deal: int) -> Iterator[dict[str, Any]]:
    """The rows of one game, one per seat, in the order of ``schema()``."""
    names, lineup = record["players"], record["lineup"]
    k = len(names)
    config = record["config"]
    totals = [s["total"] for s in record["scores"]]
    place, margin = places(record), margins(totals)
    share = 1.0 / len(record["winners"]) if record["winners"] else 0.0
    table = ",".join(names[lineup.index(pos)] for pos in range(k))
    turns = record["turns"]
    for seat, name in enumerate(names):
        score = record["scores"][seat]
        decisions = record["seat_decisions"][seat]
        secs = think[seat] if think is not None else None
        yield {
            "game": record["game"],
            "deal": record["game"] // per_deal,
            "seed": record["seed"],
            "num_players": k,
            "board_sides": config.get("board_sides", "random"),
            "sides": extract["sides"],
            "tides_of_trade": bool(config.get("tides_of_trade", False)),
            "card_influence": config.get("card_influence", "both"),
            "extension_sides": config.get("extension_sides", "random"),
            "lineup": table,
            "seat": seat,
            "bot": name,
            "won": share if seat in record["winners"] else 0.0,
            "place": place[seat],
            "score": totals[seat],
            "margin": margin[seat],
            **{f"vp_{s}": score.get(s, 0) for s in VP_SOURCES},
            "journal_column": max(c for c, turn in enumerate(extract["journal"][seat]) if turn is not None),
            "journal_turn": extract["journal"][seat],
            "cards": extract["cards"][seat],
            "tiles": extract["tiles"][seat],
            "n_cards": len(extract["cards"][seat]),
            "n_tiles": len(extract["tiles"][seat]),
            "turns": turns,
            "own_turns": (turns - seat + k - 1) // k,  # seat 0 plays turn 0, turns alternate
            "decisions": decisions,
            "think_s": secs,
            "ms_per_decision": 1000 * secs / decisions if secs is not None and decisions else None,
            "finished": record["finished"],
        }


def parts(folder: Path) -> list[tuple[int, int, Path]]:
    """The parts in ``folder``: (first game, last game, path), by first game."""
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        m = PART.fullmatch(path.name)
        if m:
            found.append((int(m.group(1)), int(m.group(2)), path))
    return sorted(found)


def _readable(path: Path, first: int, last: int) -> bool:
    """Whether a part is a whole Parquet file with one row per seat of its games' tables."""
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(path)
    except Exception:  # pyarrow raises several kinds for a damaged file
        return False
    return meta.num_rows >= last - first + 1


def check_folder(out: Path, holds_run: bool) -> None:
    """Refuse a logs folder that is not a folder, or parts without a run beside them (the run's
    games.jsonl and summary.json are gone, so they belong to nothing this command can continue)."""
    folder = out / LOGS
    if folder.exists() and not folder.is_dir():
        raise LogError(f"--out {out}: {folder} is a file; the Parquet logs go in a folder of that name")
    if not holds_run and parts(folder):
        raise LogError(f"--out {out} holds Parquet logs in {LOGS}/ but no games.jsonl; pass --overwrite to start afresh")


def size(folder: Path) -> tuple[int, int]:
    """(parts, rows) of a logs folder."""
    import pyarrow.parquet as pq

    found = parts(folder)
    return len(found), sum(pq.read_metadata(path).num_rows for _f, _l, path in found)


def keep_parts(out: Path, kept: int) -> int:
    """Keep the parts that cover games 0.. of the ``kept`` games without a gap, remove the rest
    (and any half-written file); the number of games they cover."""
    folder = out / LOGS
    covered = 0
    for first, last, path in parts(folder):
        if first == covered and last < kept and _readable(path, first, last):
            covered = last + 1
        else:
            path.unlink()
    if folder.is_dir():
        for path in folder.glob(".*.tmp"):
            path.unlink()
    return covered


def clear(out: Path) -> None:
    """Remove every part (``--overwrite``)."""
    for _first, _last, path in parts(out / LOGS):
        path.unlink()


class LogWriter:
    """Rows folded in game order and written in parts (see the module docstring)."""

    def __init__(self, out: Path, per_deal: int, flush_rows: int = FLUSH_ROWS, flush_s: float = FLUSH_S) -> None:
        self.folder = out / LOGS
        self.per_deal = per_deal
        self.flush_rows, self.flush_s = flush_rows, flush_s
        self.columns: dict[str, list[Any]] = {name: [] for name in schema().names}
        self.first: int | None = None
        self.last = -1
        self.since = time.monotonic()
        self.rows_written = 0
        self.parts_written = 0
        self.write_s = 0.0  # time spent making rows and writing them, for the benchmark

    def add(self, result: tuple) -> None:
        """One game: the (record, think, extract) that ``play_logged`` returned."""
        record, think, extract = result
        self.add_game(record, think, extract)

    def add_game(self, record: dict[str, Any], think: list[float] | None, extract: dict[str, Any]) -> None:
        start = time.perf_counter()
        for row in rows(record, think, extract, self.per_deal):
            for name, value in row.items():
                self.columns[name].append(value)
        if self.first is None:
            self.first = record["game"]
        self.last = record["game"]
        self.write_s += time.perf_counter() - start
        if len(self.columns["game"]) >= self.flush_rows or time.monotonic() - self.since >= self.flush_s:
            self.flush()

    def flush(self) -> None:
        """Write the buffered games as one part, beside and renamed."""
        if self.first is None:
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        start = time.perf_counter()
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"seats-{self.first:08d}-{self.last:08d}.parquet"
        tmp = self.folder / f".{name}.tmp"
        table = pa.Table.from_pydict(self.columns, schema=schema())
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, self.folder / name)
        self.rows_written += table.num_rows
        self.parts_written += 1
        self.columns = {name: [] for name in self.columns}
        self.first, self.since = None, time.monotonic()
        self.write_s += time.perf_counter() - start

    def close(self) -> None:
        self.flush()


def rebuild(writer: LogWriter, records: Iterable[dict[str, Any]]) -> int:
    """Rows of games whose part was lost, from their records (see the module docstring)."""
    count = 0
    for record in records:
        writer.add_game(record, None, extract_from_record(record))
        count += 1
    writer.flush()
    return count


def read(folder: Path):
    """All parts of a logs folder as one Arrow table (tests and small tools; analyze uses polars)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = [pq.read_table(path, schema=schema()) for _f, _l, path in parts(folder)]
    return pa.concat_tables(tables) if tables else schema().empty_table()
