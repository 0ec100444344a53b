"""The numbers of ``wayfarers analyze``: polars queries over the tournament logs' game-seat rows,
and the learning curves and checkpoint league of training runs.

Each function takes the rows (a polars DataFrame with ``game_log.schema()``'s columns and ``run``,
the folder each row came from) and returns a small DataFrame: one table of the report, the input
of one plot. Win shares are compared with what chance gives at that table size (a bot that wins
a third of 3-player games is as good as chance, not worse than one that wins half its 2-player
games), so every rate here is read against the base rate of its table size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from .game_log import VP_SOURCES
from .stats import Rating

Z = 1.96  # the 95% intervals


def _wilson_cols(df: pl.DataFrame, wins: str, n: str, prefix: str = "win_rate") -> pl.DataFrame:
    """Add ``prefix``, ``prefix_lo`` and ``prefix_hi`` from count columns: ``stats.wilson`` over
    whole columns at once (a million rows would take seconds one by one)."""
    p = pl.col(wins) / pl.col(n)
    z2n = Z * Z / pl.col(n)
    centre = (p + z2n / 2) / (1 + z2n)
    half = Z * ((p * (1 - p) / pl.col(n) + z2n / (4 * pl.col(n))).sqrt()) / (1 + z2n)
    return df.with_columns(  # the bounds hold the rate itself, which rounding at 0 or 1 could lose
        p.alias(prefix),
        pl.min_horizontal((centre - half).clip(0.0, 1.0), p).alias(f"{prefix}_lo"),
        pl.max_horizontal((centre + half).clip(0.0, 1.0), p).alias(f"{prefix}_hi"),
    )


def sources_present(rows: pl.DataFrame) -> list[str]:
    """The VP sources some seat scored in (a base-game run has no expansion sources to show)."""
    sums = rows.select(pl.col(f"vp_{s}").abs().sum() for s in VP_SOURCES).row(0)
    return [s for s, total in zip(VP_SOURCES, sums) if total]


def ratings(rows: pl.DataFrame) -> dict[str, dict[str, float]]:
    """One ``stats.Rating`` fit over every game of every run (one run: the same numbers as its
    summary.json's ``rating``; the order of the games does not matter)."""
    ordered = rows.select("run", "game", "seat", "bot", "place").sort("run", "game", "seat", maintain_order=True)
    runs, games, bots, places = (ordered[c].to_list() for c in ("run", "game", "bot", "place"))
    table = Rating()
    start = 0
    for i in range(1, len(games) + 1):
        if i == len(games) or games[i] != games[start] or runs[i] != runs[start]:
            table.rate(bots[start:i], places[start:i])
            start = i
    return table.result()


def leaderboard(rows: pl.DataFrame, rating: dict[str, dict[str, float]] | None = None) -> pl.DataFrame:
    """Per bot: rating, games, win share (95% interval), win share over chance, VP, margin, speed.
    ``rating`` is the ``ratings`` of these rows when already known (a tournament's summary.json)."""
    df = rows.group_by("bot").agg(
        pl.len().alias("games"),
        pl.col("won").sum().alias("wins"),
        (1.0 / pl.col("num_players")).sum().alias("chance_wins"),
        pl.col("score").mean().alias("vp_mean"),
        pl.col("score").std().alias("vp_sd"),
        pl.col("margin").mean().alias("margin_mean"),
        pl.col("place").mean().alias("place_mean"),
        (pl.col("think_s").sum() * 1000 / pl.col("decisions").filter(pl.col("think_s").is_not_null()).sum()).alias("ms_per_decision"),
    )
    df = _wilson_cols(df, "wins", "games").with_columns((pl.col("wins") / pl.col("chance_wins")).alias("wins_over_chance"))
    if rating is None:
        rating = ratings(rows)
    df = df.with_columns(
        pl.col("bot").replace_strict({b: r["mu"] for b, r in rating.items()}, default=None, return_dtype=pl.Float64).alias("mu"),
        pl.col("bot").replace_strict({b: r["sigma"] for b, r in rating.items()}, default=None, return_dtype=pl.Float64).alias("sigma"),
        pl.col("bot").replace_strict({b: r["ordinal"] for b, r in rating.items()}, default=None, return_dtype=pl.Float64).alias("ordinal"),
    )
    by_size = (
        rows.group_by("bot", "num_players")
        .agg(pl.col("won").mean().alias("rate"))
        .with_columns(pl.format("win_rate_{}p", pl.col("num_players")).alias("size"))
        .pivot(on="size", index="bot", values="rate")
    )
    sizes = sorted(c for c in by_size.columns if c != "bot")
    df = df.join(by_size.select("bot", *sizes), on="bot", how="left").sort(
        ["ordinal", "win_rate", "bot"], descending=[True, True, False], nulls_last=True
    )
    df = df.with_row_index("rank", offset=1)
    cols = ["rank", "bot", "ordinal", "mu", "sigma", "games", "win_rate", "win_rate_lo", "win_rate_hi", *sizes]
    return df.select(*cols, "wins_over_chance", "vp_mean", "vp_sd", "margin_mean", "place_mean", "ms_per_decision")


def pairwise(rows: pl.DataFrame) -> pl.DataFrame:
    """Per ordered pair of bots at one table: games together, how often the first finished ahead
    (a shared place counts a half, 95% interval) and its mean VP lead."""
    seat = rows.select("run", "game", "bot", "place", "score")
    pairs = seat.join(seat, on=["run", "game"], suffix="_other").filter(pl.col("bot") != pl.col("bot_other"))
    ahead = (
        pl.when(pl.col("place") < pl.col("place_other")).then(1.0).when(pl.col("place") == pl.col("place_other")).then(0.5).otherwise(0.0)
    )
    df = pairs.group_by("bot", "bot_other").agg(
        pl.len().alias("games"), ahead.sum().alias("ahead"), (pl.col("score") - pl.col("score_other")).mean().alias("vp_lead")
    )
    df = _wilson_cols(df, "ahead", "games", "ahead_rate").rename({"bot_other": "opponent"})
    return df.select("bot", "opponent", "games", "ahead_rate", "ahead_rate_lo", "ahead_rate_hi", "vp_lead").sort("bot", "opponent")


def vp_by_source(rows: pl.DataFrame, sources: list[str]) -> pl.DataFrame:
    """Mean VP per game from each source, per bot (the stacked bars)."""
    return (
        rows.group_by("bot")
        .agg(pl.len().alias("games"), *(pl.col(f"vp_{s}").mean().alias(s) for s in sources), pl.col("score").mean().alias("total"))
        .sort(["total", "bot"], descending=[True, False])
    )


def score_distribution(rows: pl.DataFrame) -> pl.DataFrame:
    """Per bot and table size: the quantiles a box plot draws, and the mean and spread."""
    q = [("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9)]
    return (
        rows.group_by("bot", "num_players")
        .agg(
            pl.len().alias("games"),
            pl.col("score").mean().alias("mean"),
            pl.col("score").std().alias("sd"),
            pl.col("score").min().alias("min"),
            *(pl.col("score").quantile(x, "linear").alias(name) for name, x in q),
            pl.col("score").max().alias("max"),
        )
        .sort(["num_players", "median", "bot"], descending=[False, True, False])
    )


def game_length(rows: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Per table size: games, turns and rounds (mean, spread, range) and decisions per game; and
    the histogram of rounds (player turns / players) per table size."""
    games = rows.group_by("run", "game").agg(
        pl.col("num_players").first(), pl.col("turns").first(), pl.col("decisions").sum(), pl.col("finished").first()
    )
    games = games.with_columns((pl.col("turns") / pl.col("num_players")).alias("rounds"))
    table = (
        games.group_by("num_players")
        .agg(
            pl.len().alias("games"),
            pl.col("turns").mean().alias("turns_mean"),
            pl.col("turns").std().alias("turns_sd"),
            pl.col("rounds").mean().alias("rounds_mean"),
            pl.col("rounds").min().alias("rounds_min"),
            pl.col("rounds").max().alias("rounds_max"),
            pl.col("decisions").mean().alias("decisions_mean"),
            (~pl.col("finished")).sum().alias("unfinished"),
        )
        .sort("num_players")
    )
    hist = (
        games.with_columns(pl.col("rounds").floor().cast(pl.Int32).alias("round"))
        .group_by("num_players", "round")
        .agg(pl.len().alias("games"))
    )
    return table, hist.sort("num_players", "round")


def seat_advantage(rows: pl.DataFrame) -> pl.DataFrame:
    """Win share by seat for each table size, with its 95% interval and what chance gives (1/k)."""
    df = rows.group_by("num_players", "seat").agg(pl.len().alias("games"), pl.col("won").sum().alias("wins"))
    df = _wilson_cols(df, "wins", "games").with_columns((1.0 / pl.col("num_players")).alias("chance"))
    return df.select("num_players", "seat", "games", "win_rate", "win_rate_lo", "win_rate_hi", "chance").sort("num_players", "seat")


def lift(rows: pl.DataFrame, column: str, min_seats: int, names: dict[str, str] | None = None) -> pl.DataFrame:
    """Which cards (or tiles) go with winning: for each item taken in at least ``min_seats``
    game-seats, the win share of the seats that took it over the win share expected of those
    seats at their table sizes (1 = no better than any seat), with the Wilson 95% interval of
    the win share scaled the same way. A seat that took two copies counts once."""
    base = rows.group_by("num_players").agg(pl.col("won").mean().alias("base"))
    took = rows.select("num_players", "won", pl.col(column).list.unique().alias("item")).explode("item").drop_nulls("item")
    df = (
        took.join(base, on="num_players")
        .group_by("item")
        .agg(pl.len().alias("seats"), pl.col("won").sum().alias("wins"), pl.col("base").sum().alias("expected"))
    )
    df = df.filter(pl.col("seats") >= min_seats)
    df = _wilson_cols(df, "wins", "seats")
    scale = pl.col("seats") / pl.col("expected")
    df = df.with_columns(
        (pl.col("win_rate") * scale).alias("lift"),
        (pl.col("win_rate_lo") * scale).alias("lift_lo"),
        (pl.col("win_rate_hi") * scale).alias("lift_hi"),
    )
    total = rows.height
    df = df.with_columns((pl.col("seats") / total).alias("taken_by"))
    if names is not None:
        df = df.with_columns(pl.col("item").replace_strict(names, default="", return_dtype=pl.String).alias("name"))
    else:
        df = df.with_columns(pl.lit("").alias("name"))
    return df.select("item", "name", "seats", "taken_by", "win_rate", "lift", "lift_lo", "lift_hi").sort(
        ["lift", "item"], descending=[True, False]
    )


def journal_timing(rows: pl.DataFrame) -> pl.DataFrame:
    """Per bot and journal column: the share of game-seats that reached it and, of those, the
    mean own turn it was reached on (column 0 is the start)."""
    width = int(rows["journal_turn"].list.len().max() or 0)  # type: ignore[arg-type]  # a list length: an int or None
    picked = rows.select("bot", *(pl.col("journal_turn").list.get(c, null_on_oob=True).alias(f"c{c}") for c in range(1, width)))
    per_bot = picked.group_by("bot").agg(
        pl.len().alias("seats"),
        *(pl.col(f"c{c}").count().alias(f"n{c}") for c in range(1, width)),
        *(pl.col(f"c{c}").mean().alias(f"m{c}") for c in range(1, width)),
    )
    data: dict[str, list[Any]] = {"bot": [], "column": [], "share_reached": [], "turn_mean": []}
    for row in per_bot.iter_rows(named=True):
        for c in range(1, width):
            data["bot"].append(row["bot"])
            data["column"].append(c)
            data["share_reached"].append(row[f"n{c}"] / row["seats"])
            data["turn_mean"].append(row[f"m{c}"])
    schema = {"bot": pl.String, "column": pl.Int64, "share_reached": pl.Float64, "turn_mean": pl.Float64}
    return pl.DataFrame(data, schema=schema).sort("bot", "column")


def _assign(x: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The nearest centre of each row, a feature at a time (no BLAS threads: steady on a busy machine)."""
    d = np.zeros((len(x), len(c)))
    for f in range(x.shape[1]):
        d += (x[:, f, None] - c[None, :, f]) ** 2
    return d.argmin(1)


def _kmeans(x: np.ndarray, k: int, seed: int = 0, iterations: int = 50, fit_rows: int = 50_000) -> tuple[np.ndarray, np.ndarray]:
    """Lloyd's k-means with k-means++ seeding from a fixed seed (the same rows give the same
    clusters), fitted on at most ``fit_rows`` rows drawn once, then every row given its nearest
    centre: a million rows cost what 50,000 do, and 50,000 place a few centres well."""
    rng = np.random.default_rng(seed)
    fit = x[np.sort(rng.choice(len(x), size=min(len(x), fit_rows), replace=False))]
    centres = [fit[rng.integers(len(fit))]]
    for _ in range(1, k):
        d = np.min([((fit - c) ** 2).sum(1) for c in centres], axis=0)
        if d.sum() == 0:
            break
        centres.append(fit[rng.choice(len(fit), p=d / d.sum())])
    c = np.array(centres)
    labels = _assign(fit, c)
    for _ in range(iterations):
        counts = np.bincount(labels, minlength=len(c))
        sums = np.stack([np.bincount(labels, weights=fit[:, f], minlength=len(c)) for f in range(fit.shape[1])], axis=1)
        c = np.where(counts[:, None] > 0, sums / np.maximum(counts, 1)[:, None], c)
        new = _assign(fit, c)
        if (new == labels).all():
            break
        labels = new
    return _assign(x, c), c


def clusters(rows: pl.DataFrame, k: int, sources: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Strategies across game-seats: k-means on where a seat's VP came from (each source's share
    of its score) and how far its journal went. Returns one row per cluster (size, win share,
    score, its profile, a name from its two largest shares) and the share of each bot's seats
    in each cluster. Clusters are numbered by size, largest first; a name gives the two largest
    shares and the mean journal column reached."""
    feats = [f"share_{s}" for s in sources] + ["journal"]
    score = pl.max_horizontal(pl.col("score"), pl.lit(1))
    x_df = rows.select(
        *((pl.col(f"vp_{s}").clip(0) / score).alias(f"share_{s}") for s in sources), (pl.col("journal_column") / 10).alias("journal")
    )
    x = x_df.to_numpy().astype(np.float64)
    k = max(1, min(k, len(x)))
    labels, _centres = _kmeans(x, k)
    order = np.argsort(-np.bincount(labels, minlength=k), kind="stable")
    renumber = np.empty_like(order)
    renumber[order] = np.arange(len(order))
    tagged = rows.select("bot", "won", "score", "num_players").with_columns(pl.Series("cluster", renumber[labels] + 1), *x_df.get_columns())
    table = tagged.group_by("cluster").agg(
        pl.len().alias("seats"),
        pl.col("won").sum().alias("wins"),
        (1.0 / pl.col("num_players")).sum().alias("chance"),
        pl.col("score").mean().alias("vp_mean"),
        *(pl.col(f).mean() for f in feats),
    )
    table = table.with_columns(
        (pl.col("seats") / len(x)).alias("share_of_seats"), (pl.col("wins") / pl.col("chance")).alias("wins_over_chance")
    )
    names = []
    for row in table.iter_rows(named=True):
        top = sorted(((row[f"share_{s}"], s) for s in sources), reverse=True)[:2]
        names.append(" + ".join(s.replace("_", " ") for _v, s in top) + f", journal to column {10 * row['journal']:.1f}")
    table = table.with_columns(pl.Series("profile", names)).sort("cluster")
    table = table.select("cluster", "profile", "seats", "share_of_seats", "vp_mean", "wins_over_chance", *feats)
    mix = tagged.group_by("bot", "cluster").agg(pl.len().alias("seats"))
    mix = mix.with_columns((pl.col("seats") / pl.col("seats").sum().over("bot")).alias("share")).sort("bot", "cluster")
    return table, mix


# ----------------------------------------------------------------------------- training runs

EVAL_COLUMNS = ("timesteps", "opponent", "games", "win_rate", "win_low", "win_high", "mean_margin")


def learning_curves(evals: pl.DataFrame) -> pl.DataFrame:
    """Every evaluation of every run: steps, opponent, games, win rate and its band, margin."""
    return evals.select("run", *EVAL_COLUMNS).sort("run", "opponent", "timesteps")


def checkpoint_league(evals: pl.DataFrame) -> pl.DataFrame:
    """The checkpoints of every training run given (``RUN@STEPS``: the policy at an evaluation)
    and the reference bots they were evaluated against, rated in one ``stats.Rating`` fit from the
    evaluation games (the wins a row's win rate implies; their order does not matter)."""
    table = Rating()
    kinds: dict[str, tuple[str, str, int | None]] = {}
    for row in evals.sort("timesteps", "run", "opponent").iter_rows(named=True):
        me = f"{row['run']}@{row['timesteps']}"
        kinds[me] = ("checkpoint", row["run"], row["timesteps"])
        kinds.setdefault(row["opponent"], ("reference bot", "", None))
        games = int(row["games"])
        wins = min(games, max(0, round(float(row["win_rate"]) * games)))
        for g in range(games):
            table.rate([me, row["opponent"]], [1, 2] if g < wins else [2, 1])
    rating = table.result()
    data: dict[str, list[Any]] = {"entrant": [], "kind": [], "run": [], "timesteps": [], "mu": [], "sigma": [], "ordinal": []}
    for name, r in rating.items():
        kind, run, steps = kinds[name]
        for key, value in (("entrant", name), ("kind", kind), ("run", run), ("timesteps", steps), ("mu", r["mu"]), ("sigma", r["sigma"])):
            data[key].append(value)
        data["ordinal"].append(r["ordinal"])
    schema = {
        "entrant": pl.String,
        "kind": pl.String,
        "run": pl.String,
        "timesteps": pl.Int64,
        "mu": pl.Float64,
        "sigma": pl.Float64,
        "ordinal": pl.Float64,
    }
    return pl.DataFrame(data, schema=schema).sort(["ordinal", "entrant"], descending=[True, False]).with_row_index("rank", offset=1)
