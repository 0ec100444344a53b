"""Scale of the tournament logs: how long ``wayfarers analyze`` takes on a million game-seat rows,
and what writing the logs costs a tournament.

1. Analysis: ``--rows`` game-seat rows (default 1,000,000: 333,000 games at tables of 2, 3 and 4
   among six bots) are made up with numpy, with the columns, types and sizes of real rows (about
   13 cards, 9 tiles and 11 journal columns a row), written as Parquet parts of 50,000 rows as a
   tournament writes them, with the summary.json a tournament writes beside them. Then
   ``wayfarers analyze DIR --out REPORT`` runs as a user runs it, on that run alone (its ratings
   read from its summary) and with a second, small run (every game rated afresh in one league).
   The figures are its wall times; the phases are timed apart in this process.
2. Logging: the games of a small league (``--bots``, ``--players-per-game``, ``--deals``) are
   played once, one after another in this process, as ``simulate`` plays them; what the logs add
   is timed part by part (``bench_logging``) and given as a share of the games' time.

    python -m benchmarks.bench_analysis                      (both, about 3 minutes on 2 cores)
    python -m benchmarks.bench_analysis --rows 1000000 --deals 0    (analysis only)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def fake_rows(rows: int, folder: Path, seed: int = 0, part_rows: int = 50_000) -> tuple[int, int]:
    """Write about ``rows`` plausible game-seat rows (whole games) as Parquet parts; returns (rows, games)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    from experiments.game_log import VP_SOURCES, schema
    from wayfarers_env.content.loader import load_content

    rng = np.random.default_rng(seed)
    content = load_content()
    card_ids = pa.array([c.id for c in content.cards if c.kind in ("land", "water", "space", "townsfolk", "inspiration")])
    tile_ids = pa.array([d.id for d in content.designs])
    bots = ["random", "greedy", "journal", "astronomer", "cartographer", "policy:runs/ppo/final_model.zip"]
    sizes = rng.choice([2, 3, 4], size=rows // 2 + 1)  # more than enough games: whole ones are kept below
    games = int(np.searchsorted(np.cumsum(sizes), rows, side="right"))
    sizes = sizes[:games]
    rows = int(sizes.sum())  # at most 3 fewer than asked, every game whole
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    seats = np.repeat(sizes, sizes)
    game = np.repeat(np.arange(games), sizes)
    seat = np.arange(rows) - np.repeat(starts, sizes)
    skill = rng.normal(size=len(bots))
    bot = (rng.integers(len(bots), size=games)[game] + seat) % len(bots)  # distinct bots at a table
    vp = {s: np.maximum(0, rng.normal(8 + 3 * skill[bot], 6)).astype(np.int32) for s in VP_SOURCES[:6]}
    vp.update({s: np.zeros(rows, np.int32) for s in VP_SOURCES[6:]})
    score = sum(vp.values())
    best = np.zeros(games, np.int64)
    np.maximum.at(best, game, score)
    won = (score == best[game]).astype(np.float64)
    n_cards, n_tiles = rng.integers(6, 20, size=rows), rng.integers(4, 14, size=rows)
    journal_col = rng.integers(1, 11, size=rows)

    def lists(lengths, values, taken):
        offsets = pa.array(np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32))
        return pa.ListArray.from_arrays(offsets, values.take(pa.array(taken)))

    turns = (rng.integers(25, 60, size=games) * np.bincount(game, minlength=games))[game]
    steps = np.minimum(np.cumsum(rng.integers(1, 6, size=(rows, 11)), axis=1), 200).astype(np.int16)
    steps[:, 0] = 1
    reached = np.arange(11)[None, :] <= journal_col[:, None]
    journal = pa.ListArray.from_arrays(
        pa.array(np.arange(0, 11 * rows + 1, 11, dtype=np.int32)), pa.array(steps.ravel(), mask=~reached.ravel())
    )
    columns = {
        "game": game,
        "deal": game // 150,
        "seed": rng.integers(2**62, size=games)[game],
        "num_players": seats.astype(np.int8),
        "board_sides": pa.array(["random"] * rows),
        "sides": pa.array(["aba"] * rows),
        "tides_of_trade": np.zeros(rows, bool),
        "card_influence": pa.array(["both"] * rows),
        "extension_sides": pa.array(["random"] * rows),
        "lineup": pa.array([",".join(bots[:3])] * rows),
        "seat": seat.astype(np.int8),
        "bot": pa.array(bots).take(pa.array(bot)),
        "won": won,
        "place": np.where(won > 0, 1, 2).astype(np.int8),
        "score": score.astype(np.int32),
        "margin": (score - best[game]).astype(np.int32),
        **{f"vp_{s}": v for s, v in vp.items()},
        "journal_column": journal_col.astype(np.int8),
        "journal_turn": journal,
        "cards": lists(n_cards, card_ids, rng.integers(len(card_ids), size=int(n_cards.sum()))),
        "tiles": lists(n_tiles, tile_ids, rng.integers(len(tile_ids), size=int(n_tiles.sum()))),
        "n_cards": n_cards.astype(np.int16),
        "n_tiles": n_tiles.astype(np.int16),
        "turns": turns.astype(np.int32),
        "own_turns": (turns // seats).astype(np.int16),
        "decisions": rng.integers(100, 400, size=rows).astype(np.int32),
        "think_s": rng.random(rows),
        "ms_per_decision": rng.random(rows) * 5,
        "finished": np.ones(rows, bool),
    }
    table = pa.table({name: columns[name] for name in schema().names}).cast(schema())
    logs = folder / "logs"
    logs.mkdir(parents=True)
    for start in range(0, rows, part_rows):
        part = table.slice(start, part_rows)
        first, last = part["game"][0].as_py(), part["game"][-1].as_py()
        pq.write_table(part, logs / f"seats-{first:08d}-{last:08d}.parquet", compression="zstd")
    return rows, games


def _children_cpu() -> float:
    """CPU seconds of the finished child processes: the work itself, which a busy machine's
    other jobs do not stretch as they stretch the wall time."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_analysis(rows: int) -> dict[str, float]:
    """Wall time of ``wayfarers analyze`` on ``rows`` made-up rows, and its phases in this process."""
    import polars as pl

    from experiments import analysis_tables as q
    from experiments import analyze

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t0 = time.perf_counter()
        rows, games = fake_rows(rows, root / "league")
        made = time.perf_counter() - t0
        print(f"made {rows:,} rows of {games:,} games in {made:.1f} s", file=sys.stderr)
        league = root / "league"
        phases: dict[str, float] = {}
        t0 = time.perf_counter()
        data = analyze._load_rows([league])
        assert data is not None
        phases["read the Parquet parts"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        rating = q.ratings(data)
        phases["rating fit (several runs together)"] = time.perf_counter() - t0
        # what a tournament writes beside its logs: one run's ratings are read from it, not refitted
        (league / "summary.json").write_text(json.dumps({"kind": "tournament", "games": games, "rating": rating}))
        t0 = time.perf_counter()
        sources = q.sources_present(data)
        q.pairwise(data), q.vp_by_source(data, sources), q.score_distribution(data), q.game_length(data), q.seat_advantage(data)
        q.lift(data, "cards", 30), q.lift(data, "tiles", 30), q.journal_timing(data), q.clusters(data, 4, sources)
        phases["the other queries (polars)"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        analyze.tournament_sections(data.head(1000).with_columns(pl.lit("x").alias("run")), 4, 30)
        phases["plots and tables of 1,000 rows (fixed cost)"] = time.perf_counter() - t0
        for name, dirs in (("one run", [league]), ("it and a second run together", [league, root / "second"])):
            if len(dirs) == 2:
                fake_rows(300, root / "second", seed=1)
            t0, cpu0 = time.perf_counter(), _children_cpu()
            cmd = [sys.executable, "-m", "experiments.cli", "analyze", *map(str, dirs), "--out", str(root / f"report{len(dirs)}")]
            res = subprocess.run(cmd, capture_output=True, text=True)
            if res.returncode != 0:
                raise SystemExit(res.stderr)
            phases[f"wayfarers analyze, {name} (wall)"] = time.perf_counter() - t0
            phases[f"wayfarers analyze, {name} (CPU)"] = _children_cpu() - cpu0
        phases["games"], phases["rows"] = games, rows
        return phases


def bench_logging(bots: list[str], sizes: tuple[int, ...], deals: int, rounds: int) -> dict[str, float]:
    """What the logs add to a league's games, part by part: the games are played once as
    ``simulate`` plays them (their time is the base), then their recorded actions are applied
    again without and with the JournalWatch (the watch's cost is the difference, the median over
    interleaved rounds: engine-only replays are fast and steady where bot games are not), the
    watch's extract is timed, and the rows and Parquet parts are written by a LogWriter."""
    import pyarrow.parquet  # noqa: F401 - imported before the clock starts, as the tournament does (require_pyarrow)

    from experiments import game_log, tournament
    from experiments.league import schedule, seatings
    from wayfarers_env import Game, GameConfig

    configs = {k: GameConfig(num_players=k).to_dict() for k in sizes}
    specs = list(schedule(bots, sizes, deals, 1, configs))
    t0 = time.perf_counter()
    played = [tournament.play_game(spec) for spec in specs]
    plain = time.perf_counter() - t0
    bare, watched, extract = [], [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for record, _think in played:
            game = Game(record["config"], record["seed"])
            for action in record["actions"]:
                seat = game.current_player
                game.apply(action)
        bare.append(time.perf_counter() - t0)
        t0, spent = time.perf_counter(), 0.0
        for record, _think in played:
            game, watch = Game(record["config"], record["seed"]), game_log.JournalWatch()
            for action in record["actions"]:
                seat = game.current_player
                game.apply(action)
                watch(game, seat)
            t1 = time.perf_counter()
            watch.extract()
            spent += time.perf_counter() - t1
        watched.append(time.perf_counter() - t0 - spent)
        extract.append(spent)
    with tempfile.TemporaryDirectory() as tmp:  # a process's first Parquet write sets up pyarrow's writer: once per run
        warm = game_log.LogWriter(Path(tmp), 1)
        warm.add_game(*played[0], game_log.extract_from_record(played[0][0]))
        warm.close()
    with tempfile.TemporaryDirectory() as tmp:
        log = game_log.LogWriter(Path(tmp), len(seatings(len(bots), sizes)))
        for record, think in played:
            log.add_game(record, think, game_log.extract_from_record(record))
        log.close()
    watch_s = statistics.median(w - b for w, b in zip(watched, bare))  # may come out below 0: lost in the noise
    extract_s = statistics.median(extract)
    total = max(0.0, watch_s) + extract_s + log.write_s
    print(f"played {len(specs)} games in {plain:.1f} s", file=sys.stderr)
    return {
        "games": len(specs),
        "plain_s": plain,
        "watch_s": watch_s,
        "extract_s": extract_s,
        "write_s": log.write_s,
        "setup_s": warm.write_s,
        "overhead": total / plain,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_analysis", description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000, help="game-seat rows to analyse (0: skip; default 1,000,000)")
    ap.add_argument(
        "--bots", default="random,cartographer,journal", help="the league whose games are logged (default random,cartographer,journal)"
    )
    ap.add_argument("--players-per-game", default="2,3", help="its table sizes (default 2,3)")
    ap.add_argument("--deals", type=int, default=2, help="its deals (0: skip the logging benchmark; default 2)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of replays without and with the journal watch (default 5)")
    args = ap.parse_args(argv)
    if args.rows > 0:
        phases = bench_analysis(args.rows)
        games, rows = int(phases.pop("games")), int(phases.pop("rows"))
        print(f"analysis of {rows:,} game-seat rows ({games:,} games), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")
        for name, secs in phases.items():
            print(f"  {name:<56} {secs:7.2f} s")
    if args.deals > 0:
        bots = [b.strip() for b in args.bots.split(",")]
        sizes = tuple(int(k) for k in args.players_per_game.split(","))
        r = bench_logging(bots, sizes, args.deals, args.rounds)
        print(f"logging {int(r['games'])} games of {','.join(bots)} at tables of {args.players_per_game}:")
        print(f"  the games, played as simulate plays them       {r['plain_s']:9.3f} s")
        print(f"  the journal watch after every action           {r['watch_s']:9.3f} s  (median of {args.rounds} rounds)")
        print(f"  cards, tiles and journal read at the end       {r['extract_s']:9.3f} s")
        print(f"  rows and Parquet parts                         {r['write_s']:9.3f} s")
        print(f"  cost of the logs                               {100 * r['overhead']:9.2f} % of the games' time")
        print(f"  (once per run: pyarrow's first Parquet write   {r['setup_s']:9.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
