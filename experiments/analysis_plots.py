"""The figures of ``wayfarers analyze``, drawn with matplotlib (Agg: no display) from the small
tables of ``analysis_tables``: never from the game-seat rows themselves, so a million rows cost
no more to draw than a hundred. Each function returns a Figure; ``analyze`` saves it as a PNG and
embeds the same bytes in the report. A bot keeps its colour in every figure (``Palette``).
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

WIDE = (8.0, 4.2)


class Palette:
    """One colour per bot, in leaderboard order."""

    def __init__(self, bots: Sequence[str]) -> None:
        cmap = plt.get_cmap("tab10" if len(bots) <= 10 else "tab20")
        self.colours = {b: cmap(i % cmap.N) for i, b in enumerate(bots)}

    def __getitem__(self, bot: str):
        return self.colours.get(bot, "grey")


def _label(text: str, width: int = 22) -> str:
    """A bot name short enough for an axis (a policy:PATH keeps its file name)."""
    return text if len(text) <= width else "…" + text[-(width - 1) :]


def ratings(board: pl.DataFrame, colours: Palette) -> Figure:
    """mu with its 3-sigma bar per bot; the dot is the ordinal (mu - 3 sigma) the ranking uses."""
    rated = board.filter(pl.col("mu").is_not_null()).reverse()
    fig, ax = plt.subplots(figsize=(WIDE[0], 0.45 * rated.height + 1.4))
    y = np.arange(rated.height)
    for i, row in enumerate(rated.iter_rows(named=True)):
        ax.errorbar(row["mu"], i, xerr=3 * row["sigma"], fmt="o", color=colours[row["bot"]], capsize=3)
        ax.plot(row["ordinal"], i, marker="|", markersize=14, color="black")
    ax.set_yticks(y, [_label(b) for b in rated["bot"]])
    ax.set_xlabel("rating mu (bar: ±3 sigma; tick: ordinal = mu - 3 sigma)")
    ax.set_title("Ratings (one Bradley-Terry fit over every game, all table sizes)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def pairwise(pairs: pl.DataFrame, order: Sequence[str]) -> Figure:
    """How often the row bot finished ahead of the column bot at the same table."""
    n = len(order)
    grid = np.full((n, n), np.nan)
    index = {b: i for i, b in enumerate(order)}
    for row in pairs.iter_rows(named=True):
        grid[index[row["bot"]], index[row["opponent"]]] = row["ahead_rate"]
    fig, ax = plt.subplots(figsize=(1.0 * n + 3, 0.8 * n + 1.6))
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{100 * grid[i, j]:.0f}%", ha="center", va="center", fontsize=9)
    labels = [_label(b, 14) for b in order]
    ax.set_xticks(range(n), labels, rotation=30, ha="right")
    ax.set_yticks(range(n), labels)
    ax.set_title("Row finishes ahead of column (same table)")
    fig.colorbar(im, ax=ax, fraction=0.04)
    fig.tight_layout()
    return fig


def vp_by_source(table: pl.DataFrame, sources: Sequence[str]) -> Figure:
    """Mean VP per game by source, stacked, one bar per bot."""
    fig, ax = plt.subplots(figsize=WIDE)
    bots = table["bot"].to_list()
    bottom = np.zeros(len(bots))
    cmap = plt.get_cmap("tab20")
    for i, s in enumerate(sources):
        values = table[s].to_numpy()
        ax.bar(range(len(bots)), values, bottom=bottom, label=s.replace("_", " "), color=cmap(i))
        bottom += values
    ax.set_xticks(range(len(bots)), [_label(b, 16) for b in bots], rotation=20, ha="right")
    ax.set_ylabel("mean VP per game")
    ax.set_title("VP by source")
    ax.legend(fontsize=8, ncol=2, loc="upper right")
    fig.tight_layout()
    return fig


def score_distribution(table: pl.DataFrame, order: Sequence[str], colours: Palette) -> Figure:
    """Box per bot and table size: box p25-p75, line the median, whiskers p10-p90, range dots."""
    sizes = sorted(set(table["num_players"].to_list()))
    fig, axes = plt.subplots(1, len(sizes), figsize=(WIDE[0], WIDE[1]), squeeze=False, sharey=True)
    for ax, k in zip(axes[0], sizes):
        part = {r["bot"]: r for r in table.filter(pl.col("num_players") == k).iter_rows(named=True)}
        bots = [b for b in order if b in part]
        stats = [
            {
                "label": _label(b, 12),
                "whislo": part[b]["p10"],
                "q1": part[b]["p25"],
                "med": part[b]["median"],
                "q3": part[b]["p75"],
                "whishi": part[b]["p90"],
                "fliers": [part[b]["min"], part[b]["max"]],
            }
            for b in bots
        ]
        boxes = ax.bxp(stats, patch_artist=True, showfliers=True)
        for patch, b in zip(boxes["boxes"], bots):
            patch.set_facecolor(colours[b])
            patch.set_alpha(0.6)
        ax.set_title(f"{k} players")
        ax.tick_params(axis="x", rotation=30)
    axes[0][0].set_ylabel("final VP")
    fig.suptitle("Score distributions (box p25-p75, whiskers p10-p90, dots min and max)")
    fig.tight_layout()
    return fig


def game_length(hist: pl.DataFrame) -> Figure:
    """Share of games by length in rounds, one line per table size."""
    fig, ax = plt.subplots(figsize=WIDE)
    for k in sorted(set(hist["num_players"].to_list())):
        part = hist.filter(pl.col("num_players") == k).sort("round")
        share = part["games"].to_numpy() / part["games"].sum()
        ax.plot(part["round"].to_numpy(), share, marker="o", markersize=3, drawstyle="steps-mid", label=f"{k} players")
    ax.set_xlabel("rounds (player turns / players)")
    ax.set_ylabel("share of games")
    ax.set_title("Game length")
    ax.legend()
    fig.tight_layout()
    return fig


def seat_advantage(table: pl.DataFrame) -> Figure:
    """Win share per seat with its 95% interval, a group per table size; dashes: chance (1/k)."""
    fig, ax = plt.subplots(figsize=WIDE)
    x, ticks, labels = 0.0, [], []
    for k in sorted(set(table["num_players"].to_list())):
        part = table.filter(pl.col("num_players") == k).sort("seat")
        xs = x + np.arange(part.height)
        rate = part["win_rate"].to_numpy()
        err = np.clip(
            np.vstack([rate - part["win_rate_lo"].to_numpy(), part["win_rate_hi"].to_numpy() - rate]), 0, None
        )  # rounding may put a bound a hair past the value
        ax.bar(xs, rate, yerr=err, capsize=3, color=plt.get_cmap("tab10")(k - 2), alpha=0.8)
        ax.hlines(1 / k, xs[0] - 0.4, xs[-1] + 0.4, colors="black", linestyles="dashed")
        ticks += list(xs)
        labels += [f"{k}p seat {s + 1}" for s in part["seat"].to_list()]
        x = xs[-1] + 1.8
    ax.set_xticks(ticks, labels, rotation=30, ha="right")
    ax.set_ylabel("win share (95% Wilson interval)")
    ax.set_title("Seat advantage by table size (dashes: 1/players)")
    fig.tight_layout()
    return fig


def lift(table: pl.DataFrame, what: str, show: int = 12) -> Figure:
    """The ``show`` items with the highest and the lowest lift, with their 95% intervals."""
    ranked = table  # already by lift, ties by name
    picked = ranked if ranked.height <= 2 * show else pl.concat([ranked.head(show), ranked.tail(show)])
    picked = picked.reverse()
    fig, ax = plt.subplots(figsize=(WIDE[0], 0.28 * picked.height + 1.4))
    y = np.arange(picked.height)
    rate = picked["lift"].to_numpy()
    err = np.clip(
        np.vstack([rate - picked["lift_lo"].to_numpy(), picked["lift_hi"].to_numpy() - rate]), 0, None
    )  # rounding may put a bound a hair past the value
    colours = ["tab:green" if v >= 1 else "tab:red" for v in rate]
    ax.barh(y, rate, xerr=err, color=colours, alpha=0.7, capsize=2)
    ax.axvline(1.0, color="black", linewidth=0.8)
    names = [f"{i} {n}".strip() if n else i for i, n in zip(picked["item"].to_list(), picked["name"].to_list())]
    ax.set_yticks(y, [_label(n, 30) for n in names], fontsize=8)
    ax.set_xlabel("lift: win share of the seats that took it / expected at their table sizes (95% interval)")
    ax.set_title(f"{what} that go with winning (top and bottom)")
    fig.tight_layout()
    return fig


def journal_timing(table: pl.DataFrame, order: Sequence[str], colours: Palette) -> Figure:
    """Per bot: the mean own turn each journal column is reached on, and the share that reach it."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(WIDE[0] + 2, WIDE[1]))
    for bot in order:
        part = table.filter(pl.col("bot") == bot).sort("column")
        if part.is_empty():
            continue
        cols = part["column"].to_numpy()
        left.plot(cols, part["turn_mean"].to_numpy(), marker="o", markersize=3, color=colours[bot], label=_label(bot, 16))
        right.plot(cols, part["share_reached"].to_numpy(), marker="o", markersize=3, color=colours[bot])
    left.set_xlabel("journal column")
    left.set_ylabel("mean own turn reached (of those that did)")
    right.set_xlabel("journal column")
    right.set_ylabel("share of game-seats that reached it")
    right.set_ylim(0, 1.05)
    left.legend(fontsize=8)
    fig.suptitle("Journal timing")
    fig.tight_layout()
    return fig


def clusters(table: pl.DataFrame, mix: pl.DataFrame, order: Sequence[str]) -> Figure:
    """Left: each cluster's profile (mean share of VP by source, journal reach); right: how each
    bot's game-seats fall into the clusters."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(WIDE[0] + 3, WIDE[1] + 0.4))
    feats = [c for c in table.columns if c.startswith("share_") and c != "share_of_seats"] + ["journal"]
    cmap = plt.get_cmap("tab20")
    width = 0.8 / len(feats)
    xs = np.arange(table.height)
    for i, f in enumerate(feats):
        left.bar(
            xs + i * width - 0.4 + width / 2, table[f].to_numpy(), width, label=f.removeprefix("share_").replace("_", " "), color=cmap(i)
        )
    left.set_xticks(xs, [f"C{c}" for c in table["cluster"].to_list()])
    left.set_ylabel("mean share of score (journal: column / 10)")
    left.set_title("Cluster profiles")
    left.legend(fontsize=7, ncol=2)
    bots = [b for b in order if b in set(mix["bot"].to_list())]
    left_edge = np.zeros(len(bots))
    ccmap = plt.get_cmap("Set2")
    for c in table["cluster"].to_list():
        shares = np.array([(mix.filter((pl.col("bot") == b) & (pl.col("cluster") == c))["share"].sum()) for b in bots])
        right.barh(range(len(bots)), shares, left=left_edge, color=ccmap((c - 1) % 8), label=f"C{c}")
        left_edge += shares
    right.set_yticks(range(len(bots)), [_label(b, 16) for b in bots])
    right.invert_yaxis()
    right.set_xlabel("share of the bot's game-seats")
    right.set_title("Which bots play which strategy")
    right.legend(fontsize=8)
    fig.tight_layout()
    return fig


def margin_curves(curves: pl.DataFrame) -> Figure:
    """Mean VP margin against each reference bot over training, one panel per run."""
    runs = sorted(set(curves["run"].to_list()))
    fig, axes = plt.subplots(1, len(runs), figsize=(WIDE[0], WIDE[1]), squeeze=False, sharey=True)
    for ax, run in zip(axes[0], runs):
        part = curves.filter(pl.col("run") == run)
        for opp in sorted(set(part["opponent"].to_list())):
            p = part.filter(pl.col("opponent") == opp).sort("timesteps")
            ax.plot(p["timesteps"].to_numpy(), p["mean_margin"].to_numpy(), marker="o", markersize=3, label=f"vs {opp}")
        ax.axhline(0, color="grey", linewidth=0.8, linestyle=":")
        ax.set_title(_label(run, 30), fontsize=9)
        ax.set_xlabel("training steps")
    axes[0][0].set_ylabel("mean VP margin")
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Margin against each reference bot over training")
    fig.tight_layout()
    return fig


def checkpoint_league(table: pl.DataFrame) -> Figure:
    """Ordinal of each run's checkpoints over training; dashes: the reference bots' ordinals."""
    fig, ax = plt.subplots(figsize=WIDE)
    points = table.filter(pl.col("kind") == "checkpoint")
    for run in sorted(set(points["run"].to_list())):
        p = points.filter(pl.col("run") == run).sort("timesteps")
        ax.plot(p["timesteps"].to_numpy(), p["ordinal"].to_numpy(), marker="o", markersize=3, label=_label(run, 30))
    refs = table.filter(pl.col("kind") == "reference bot")
    for i, row in enumerate(refs.iter_rows(named=True)):
        ax.axhline(row["ordinal"], color=plt.get_cmap("tab10")(i + 3), linestyle="--", linewidth=1)
        ax.annotate(row["entrant"], (1.0, row["ordinal"]), xycoords=("axes fraction", "data"), fontsize=8, ha="right", va="bottom")
    ax.set_xlabel("training steps")
    ax.set_ylabel("rating ordinal (mu - 3 sigma)")
    ax.set_title("Checkpoints rated in one league with the reference bots")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
