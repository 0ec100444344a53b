"""``wayfarers analyze DIR [DIR ...] --out REPORT_DIR``: why strategies win, from experiment logs.

Each DIR is a ``wayfarers tournament`` folder (its Parquet logs: one row per game and seat) or a
``wayfarers train`` run folder (its evaluations.csv); several are analysed together (a bot is
the same entrant in every tournament). The numbers come from ``analysis_tables`` (polars), the
figures from ``analysis_plots`` (matplotlib) and the page from ``report``; docs/ANALYSIS.md says
how to read each part.

Everything given is checked before anything is written, and the report is built in a folder
beside REPORT_DIR and moved in at the end, so a refused or failed command leaves REPORT_DIR as it
was: REPORT_DIR/report.html, plots/*.png and tables/*.csv appear together or not at all.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shlex
import shutil
import tempfile
from pathlib import Path
from typing import Any

from .cli import UsageError
from .game_log import ANALYSIS_EXTRA, LOGS, parts
from .rundir import GAMES, SUMMARY

REPORT = "report.html"
OUTPUTS = (REPORT, "plots", "tables")  # what a report consists of, and what --overwrite replaces
EVALUATIONS = "evaluations.csv"


def _inputs(dirs: list[str]) -> tuple[list[Path], list[Path]]:
    """(tournament folders, training run folders), or UsageError naming the folder that is neither."""
    tournaments, training, seen = [], [], set()
    for text in dirs:
        d = Path(text)
        if d.resolve() in seen:
            raise UsageError(f"{d} is given twice; give each folder once")
        seen.add(d.resolve())
        if not d.is_dir():
            raise UsageError(f"{d} is not a folder; give a wayfarers tournament --out folder or a wayfarers train run folder")
        found = False
        if parts(d / LOGS):
            tournaments.append(d)
            found = True
        if (d / EVALUATIONS).is_file():
            training.append(d)
            found = True
        if found:
            continue
        if (d / GAMES).is_file():
            raise UsageError(
                f"{d} holds games.jsonl but no Parquet logs ({LOGS}/seats-*.parquet): wayfarers simulate keeps none; "
                "play the bots with wayfarers tournament --out DIR, then analyse DIR"
            )
        raise UsageError(
            f"{d} holds neither a tournament's Parquet logs ({LOGS}/seats-*.parquet, from wayfarers tournament --out) "
            f"nor a training run's {EVALUATIONS} (from wayfarers train)"
        )
    return tournaments, training


def _check_out(out: Path, overwrite: bool) -> None:
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file; give a folder for the report (it is created if missing)")
    held = [name for name in OUTPUTS if (out / name).exists()]
    if held and not overwrite:
        raise UsageError(f"--out {out} already holds a report ({', '.join(held)}); pass --overwrite to replace it")
    ancestor = out
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir() or not os.access(ancestor, os.W_OK | os.X_OK):
        raise UsageError(f"--out {out}: {ancestor} is not a folder this user can write in")


def _load_rows(folders: list[Path]):
    """The game-seat rows of every tournament, with ``run`` (the folder as given)."""
    import polars as pl

    from .game_log import schema

    wanted = schema().names
    frames = []
    for d in folders:
        paths = [str(p) for _f, _l, p in parts(d / LOGS)]
        for path in paths:
            try:
                names = set(pl.read_parquet_schema(path))
            except Exception as exc:  # polars raises several kinds for a damaged file
                raise UsageError(
                    f"{path} cannot be read as Parquet ({str(exc).splitlines()[0]}); rerun its tournament with --resume"
                ) from None
            missing = [c for c in wanted if c not in names]
            if missing:
                raise UsageError(f"{path} lacks the columns {', '.join(missing)} (written by another version of wayfarers tournament)")
        try:
            frame = pl.read_parquet(paths, columns=wanted)
        except Exception as exc:
            raise UsageError(f"{d / LOGS} cannot be read ({str(exc).splitlines()[0]})") from None
        frames.append(frame.with_columns(pl.lit(str(d)).alias("run")))
    return pl.concat(frames, how="vertical") if frames else None


def _load_evaluations(folders: list[Path]):
    import polars as pl

    from .analysis_tables import EVAL_COLUMNS

    frames = []
    for d in folders:
        path = d / EVALUATIONS
        with path.open(newline="") as fh:
            header = next(csv.reader(fh), [])
        missing = [c for c in EVAL_COLUMNS if c not in header]
        if missing:
            raise UsageError(f"{path} lacks the columns {', '.join(missing)} (a wayfarers train run writes {', '.join(EVAL_COLUMNS)})")
        types = {"timesteps": pl.Int64, "opponent": pl.String, "games": pl.Int64}
        types.update({c: pl.Float64 for c in ("win_rate", "win_low", "win_high", "mean_margin")})
        try:
            frame = pl.read_csv(path, columns=list(EVAL_COLUMNS), schema_overrides=types)
        except Exception as exc:
            raise UsageError(f"{path} has a value that is not a number where one belongs ({str(exc).splitlines()[0]})") from None
        if frame.is_empty():
            raise UsageError(f"{path} holds no evaluation yet; analyse the run once wayfarers train has evaluated it")
        frames.append(frame.with_columns(pl.lit(run_labels(folders)[d]).alias("run")))
    return pl.concat(frames, how="vertical") if frames else None


def _png(fig) -> bytes:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def _names() -> dict[str, str]:
    """Card and tile ids -> names, for the lift tables (the expansion's included)."""
    from wayfarers_env.content.loader import load_content

    content = load_content(options={"tides_of_trade"})
    return {**{c.id: c.name for c in content.cards}, **{d.id: d.kind for d in content.designs}}


def known_ratings(folders: list[Path], rows) -> dict[str, dict[str, float]] | None:
    """The ratings of one tournament's summary.json when it describes exactly the logged games:
    those are what ``analysis_tables.ratings`` would compute from the same games. Several
    tournaments are rated together afresh."""
    if len(folders) != 1:
        return None
    summary = _summary(folders[0])
    rating = summary.get("rating")
    if summary.get("kind") != "tournament" or not isinstance(rating, dict) or summary.get("games") != rows["game"].n_unique():
        return None
    return rating if set(rating) == set(rows["bot"].unique().to_list()) else None


def tournament_sections(rows, clusters: int, min_seats: int, rating: dict[str, dict[str, float]] | None = None) -> list:
    """The report's sections about the games: standings, scores, timing, cards, strategies."""
    import polars as pl

    from . import analysis_plots as plots
    from . import analysis_tables as q
    from .report import Plot, Section, Table

    sources = q.sources_present(rows)
    board = q.leaderboard(rows, rating)
    order = board["bot"].to_list()
    colours = plots.Palette(order)
    pairs = q.pairwise(rows)
    by_source = q.vp_by_source(rows, sources)
    dist = q.score_distribution(rows)
    length, hist = q.game_length(rows)
    seats = q.seat_advantage(rows)
    names = _names()
    cards, tiles = q.lift(rows, "cards", min_seats, names), q.lift(rows, "tiles", min_seats, names)
    journal = q.journal_timing(rows)
    groups, mix = q.clusters(rows, clusters, sources)
    matrix = pairs.pivot(on="opponent", index="bot", values="ahead_rate")
    matrix = matrix.select("bot", *[b for b in order if b in matrix.columns]).sort(
        pl.col("bot").replace_strict({b: i for i, b in enumerate(order)})
    )
    sections = [
        Section(
            "leaderboard",
            "Leaderboard",
            "Ranked by ordinal (μ − 3σ: a bot with few games ranks low until its σ shrinks) of one Bradley–Terry fit over "
            "every pair of seats in every game of every tournament (openskill's scale; the order of the games does not matter). "
            "<i>wins over chance</i> divides a bot's wins by what chance gives at "
            "its table sizes (1/players per game): above 1 it wins more than a random seat would. Margin: VP over the best opponent.",
            [Plot("ratings", "Ratings: μ ± 3σ per bot, tick at the ordinal", _png(plots.ratings(board, colours)))],
            [Table("leaderboard", "Leaderboard (win rate with its 95% Wilson interval; win rate per table size)", board)],
        ),
        Section(
            "pairwise",
            "Pairwise",
            "How often the row bot finished ahead of the column bot when both sat at the same table (a shared place counts a half), "
            "with the mean VP lead. Every pair met in every seat on the same deals.",
            [Plot("pairwise", "Row finishes ahead of column", _png(plots.pairwise(pairs, order)))],
            [
                Table("pairwise_matrix", "Row finishes ahead of column", matrix),
                Table("pairwise", "Every ordered pair: games, ahead rate with its 95% interval, VP lead", pairs),
            ],
        ),
        Section(
            "vp-sources",
            "VP by source",
            "Where each bot's points come from: the mean VP per game from each scoring source.",
            [Plot("vp_by_source", "Mean VP per game by source (stacked)", _png(plots.vp_by_source(by_source, sources)))],
            [Table("vp_by_source", "Mean VP per game by source", by_source)],
        ),
        Section(
            "scores",
            "Score distributions",
            "Final VP per bot and table size: quartiles in the box, p10–p90 whiskers, the extremes as dots.",
            [Plot("score_distribution", "Final VP per bot and table size", _png(plots.score_distribution(dist, order, colours)))],
            [Table("score_distribution", "Final VP quantiles per bot and table size", dist)],
        ),
        Section(
            "length",
            "Game length",
            "Turns are player turns; rounds are turns divided by the players, comparable across table sizes.",
            [Plot("game_length", "Share of games by length in rounds", _png(plots.game_length(hist)))],
            [Table("game_length", "Game length per table size", length)],
        ),
        Section(
            "seats",
            "Seat advantage",
            "Win share of each seat (seat 1 plays first), with its 95% Wilson interval; chance is 1/players. Every bot sits in "
            "every seat equally often, so a seat's edge is the seat's, not its bots'.",
            [Plot("seat_advantage", "Win share by seat and table size", _png(plots.seat_advantage(seats)))],
            [Table("seat_advantage", "Win share by seat", seats)],
        ),
    ]
    lift_text = (
        f"For each item taken in at least {min_seats} game-seats (<code>--min-seats</code>): the win share of the seats that took "
        "it over the win share expected of those seats at their table sizes. Lift 1 means taking it goes with winning no more "
        "than with any seat; the interval is the 95% Wilson interval of the win share, scaled the same way. A lift is an "
        "association, not a cause: strong bots take the cards they like."
    )
    none = f" (none taken in at least {min_seats} game-seats: lower --min-seats)"
    lift_plots = [
        Plot(f"{w}_lift", f"{w.capitalize()} that go with winning", _png(plots.lift(t, w.capitalize())))
        for w, t in (("cards", cards), ("tiles", tiles))
        if t.height
    ]
    sections.append(
        Section(
            "lift",
            "Cards and tiles that go with winning",
            lift_text,
            lift_plots,
            [
                Table("cards_lift", "Cards: lift with its 95% interval" + (none if cards.is_empty() else ""), cards),
                Table("tiles_lift", "Upgrade tiles: lift with its 95% interval" + (none if tiles.is_empty() else ""), tiles),
            ],
        )
    )
    sections.append(
        Section(
            "journal",
            "Journal timing",
            "The own turn on which each journal column is first reached (1 = each player's first turn), averaged over the "
            "game-seats that reached it, and the share that reached it at all.",
            [Plot("journal_timing", "Journal column reached, by own turn", _png(plots.journal_timing(journal, order, colours)))],
            [Table("journal_timing", "Journal timing per bot and column", journal)],
        )
    )
    sections.append(
        Section(
            "clusters",
            "Strategies",
            f"Game-seats grouped into {groups.height} clusters (k-means, <code>--clusters</code>) by where their VP came from "
            "(each source's share of the score) and how far their journal went; named after the two largest shares and the mean "
            "journal column reached. "
            "<i>wins over chance</i> as in the leaderboard.",
            [Plot("clusters", "Cluster profiles and which bots play them", _png(plots.clusters(groups, mix, order)))],
            [Table("clusters", "Strategy clusters", groups), Table("cluster_mix", "Share of each bot's game-seats per cluster", mix)],
        ),
    )
    return sections


def run_labels(folders: list[Path]) -> dict[Path, str]:
    """A training run's name in the report: its folder's name, or the path where two share a name."""
    names = [d.resolve().name for d in folders]
    return {d: (name if names.count(name) == 1 else str(d)) for d, name in zip(folders, names)}


def _stem(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", label).strip("_") or "run"


def training_sections(evals, folders: list[Path], workdir: Path) -> list:
    """The report's sections about training runs: curves per run, and the checkpoint league."""
    from . import analysis_plots as plots
    from . import analysis_tables as q
    from .plot import plot as learning_curve
    from .report import Plot, Section, Table

    curves = q.learning_curves(evals)
    league = q.checkpoint_league(evals)
    figures = []
    for d, label in run_labels(folders).items():
        png = learning_curve(d, workdir / f"{_stem(label)}.png").read_bytes()  # experiments.plot, as `python -m experiments.plot` draws it
        figures.append(
            Plot(f"learning_curve_{_stem(label)}", f"{label}: win rate against each reference bot over training (95% band)", png)
        )
    figures.append(Plot("margin_curves", "Mean VP margin against each reference bot over training", _png(plots.margin_curves(curves))))
    return [
        Section(
            "training",
            "Training runs",
            "From each run's evaluations.csv: the win rate against every reference bot at each evaluation, with its 95% Wilson "
            "band, and the mean VP margin.",
            figures,
            [Table("learning_curves", "Every evaluation of every run", curves)],
        ),
        Section(
            "checkpoints",
            "Checkpoint league",
            "Each evaluation's policy (RUN@STEPS) and the reference bots rated in one fit from the evaluation games "
            "(a row's wins are its win rate × games; the fit does not depend on their order).",
            [Plot("checkpoint_league", "Checkpoint ordinals over training; dashes: reference bots", _png(plots.checkpoint_league(league)))],
            [Table("checkpoint_league", "Checkpoints and reference bots in one league", league)],
        ),
    ]


def _intro(args, tournaments: list[Path], training: list[Path], rows) -> str:
    import html

    command = "wayfarers analyze " + " ".join(shlex.quote(d) for d in args.dirs) + f" --out {shlex.quote(args.out)}"
    if args.clusters != 4:
        command += f" --clusters {args.clusters}"
    if args.min_seats != 30:
        command += f" --min-seats {args.min_seats}"
    lines = [f"<p>Made by <code>{html.escape(command)}</code>.</p><ul>"]
    for d in tournaments:
        summary = _summary(d)
        part = rows.filter(rows["run"] == str(d))
        what = f"{part['game'].n_unique():,} games, {part.height:,} game-seat rows"
        if summary:
            what += f"; bots {', '.join(summary.get('bots', []))}, tables of {'/'.join(map(str, summary.get('players_per_game', [])))}"
            what += f", seed {summary.get('seed')}" + ("" if summary.get("complete") else " (incomplete run)")
            if summary.get("config", {}).get("tides_of_trade"):
                what += ", Tides of Trade"
        lines.append(f"<li>tournament <code>{html.escape(str(d))}</code>: {html.escape(what)}</li>")
    for d in training:
        lines.append(f"<li>training run <code>{html.escape(str(d))}</code></li>")
    return "".join(lines) + "</ul>"


def _summary(d: Path) -> dict[str, Any]:
    try:
        data = json.loads((d / SUMMARY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _publish(built: Path, out: Path, overwrite: bool) -> None:
    """Move the finished report into ``out`` (replacing the old one with --overwrite)."""
    out.mkdir(parents=True, exist_ok=True)
    if overwrite:
        for name in OUTPUTS:
            target = out / name
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            elif target.exists() or target.is_symlink():
                target.unlink()
    for name in OUTPUTS:
        os.replace(built / name, out / name)


def run(args) -> int:
    try:
        import matplotlib  # noqa: F401
        import polars  # noqa: F401
    except ImportError:
        raise UsageError(f"wayfarers analyze needs polars and matplotlib, from the [analysis] extra: {ANALYSIS_EXTRA}") from None
    tournaments, training = _inputs(args.dirs)
    out = Path(args.out)
    _check_out(out, args.overwrite)
    rows = _load_rows(tournaments)
    if rows is not None and rows.is_empty():
        raise UsageError(f"the Parquet logs of {', '.join(map(str, tournaments))} hold no games yet")
    evals = _load_evaluations(training)
    import polars

    from .report import Plot, Table, page

    ancestor = out.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    with tempfile.TemporaryDirectory(prefix=f".{out.name}.", dir=ancestor) as tmp:
        work = Path(tmp)
        sections = []
        if rows is not None:
            sections += tournament_sections(rows, args.clusters, args.min_seats, known_ratings(tournaments, rows))
        if evals is not None:
            sections += training_sections(evals, training, work / "scratch")
        built = work / "report"
        (built / "plots").mkdir(parents=True)
        (built / "tables").mkdir()
        plots: list[Plot] = [p for s in sections for p in s.plots]
        tables: list[Table] = [t for s in sections for t in s.tables]
        for p in plots:
            (built / "plots" / f"{p.name}.png").write_bytes(p.png)
        for t in tables:
            # polars sums in parallel, in no fixed order: the last bits of a mean vary between runs
            t.df = t.df.with_columns(polars.col(polars.Float64).round(9))
            t.df.write_csv(built / "tables" / f"{t.name}.csv")
        intro = _intro(args, tournaments, training, rows)
        (built / REPORT).write_text(page("Wayfarers: strategy analysis", intro, sections), encoding="utf-8")
        _publish(built, out, args.overwrite)
    games = f"{rows['run'].n_unique()} tournament runs ({rows.height:,} game-seat rows)" if rows is not None else "no tournament"
    runs = f"{evals['run'].n_unique()} training runs" if evals is not None else "no training run"
    print(f"read {games} and {runs}")
    if rows is not None:
        board = sections[0].tables[0].df
        top = ", ".join(f"{r['rank']}. {r['bot']} ({100 * r['win_rate']:.1f}% wins)" for r in board.head(5).iter_rows(named=True))
        print(f"leaderboard: {top}")
    print(f"wrote {out / REPORT}, {len(plots)} plots in {out / 'plots'} and {len(tables)} tables in {out / 'tables'}")
    return 0
