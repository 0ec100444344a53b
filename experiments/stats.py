"""Small statistics for tournament tables: win-rate intervals, means and spreads, ratings.

Kept apart from the tournament runner so that analysis scripts and tests can use them on a
games.jsonl without playing anything.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openskill.models import PlackettLuceRating


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a proportion. ``successes`` may be fractional (shared wins),
    and the interval stays inside [0, 1] even at 0 or n successes, unlike the normal one."""
    if n <= 0:
        return (0.0, 1.0)
    p = min(max(successes / n, 0.0), 1.0)
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def win_row(games: Sequence[tuple[Any, dict[Any, int], Sequence[Any]]]) -> dict[str, float]:
    """One player's row over ``games``, each (the player, every player's total, the winners) with
    players named by any key: its win rate (a shared win counts its share) with the 95% Wilson
    interval, and its mean margin over the best of the others. What ``wayfarers evaluate`` prints
    and training logs, for a MaskablePPO model and a bot alike."""
    wins = margins = 0.0
    for me, totals, winners in games:
        margins += totals[me] - max(t for who, t in totals.items() if who != me)
        if me in winners:
            wins += 1.0 / len(winners)
    n = max(1, len(games))
    lo, hi = wilson(wins, len(games))
    return {"games": len(games), "win_rate": wins / n, "win_low": lo, "win_high": hi, "mean_margin": margins / n}


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def stdev(xs: Sequence[float]) -> float:
    """Sample standard deviation (0 for fewer than two values)."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def ranks(totals: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Finishing places for a rating model: winners share place 1, the rest are ordered by VP
    (equal VP share a place)."""
    out = []
    for k, total in enumerate(totals):
        if k in winners:
            out.append(1)
        else:
            better = {t for j, t in enumerate(totals) if j not in winners and t > total}
            out.append(2 + len(better))
    return out


class Moments:
    """Count, sum, sum of squares, min and max of integers, so that a mean and a spread need no
    list of values (a tournament keeps these, not its games). The sums are exact integers, so the
    results equal those of ``mean`` and ``stdev`` on the full list up to float rounding."""

    __slots__ = ("n", "total", "squares", "low", "high")

    def __init__(self) -> None:
        self.n = self.total = self.squares = 0
        self.low: int | None = None
        self.high: int | None = None

    def add(self, x: int) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x
        self.low = x if self.low is None else min(self.low, x)
        self.high = x if self.high is None else max(self.high, x)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def sd(self) -> float:
        """Sample standard deviation (0 for fewer than two values), like ``stdev``."""
        if self.n < 2:
            return 0.0
        return math.sqrt(max(0, self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1)))


class SkillTable:
    """PlackettLuce ratings updated one game at a time, in game order: the state is one rating
    per entrant, so a long tournament rates its games as they finish instead of keeping them.
    ``result()`` is None when openskill is not installed (an optional extra)."""

    def __init__(self) -> None:
        try:
            from openskill.models import PlackettLuce
        except ImportError:
            self.model = None
        else:
            self.model = PlackettLuce()
        self.ratings: dict[str, PlackettLuceRating] = {}

    def rate(self, names: Sequence[str], places: Sequence[int]) -> None:
        if self.model is None:
            return
        for name in names:
            if name not in self.ratings:
                self.ratings[name] = self.model.rating(name=name)
        new = self.model.rate([[self.ratings[name]] for name in names], ranks=list(places))
        for name, team in zip(names, new):
            self.ratings[name] = team[0]

    def result(self) -> dict[str, dict[str, float]] | None:
        if self.model is None:
            return None
        return {
            name: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3)}
            for name, r in sorted(self.ratings.items())
        }


class Rating:
    """Whole-run ratings: one Bradley–Terry fit over every pair of seats at every table, folded
    in any order to the same numbers.

    Why not the online ``SkillTable``. openskill updates one game at a time and lets every rating
    drift (its ``tau``), as a human player's skill would; a bot's does not, yet the online mu ends
    where the last games leave it: one 200-game run ranked the cartographer above the bot that beat
    it 119 to 81 (docs/RESULTS.md). Here each game is broken into its pairs of seats (who finished
    ahead; a shared place is half each way), each weighted 1/(k-1) at a table of k so that a game
    carries one game's worth of evidence per seat. For two players that is exactly a Plackett–Luce
    likelihood; for more, full rank-breaking, which estimates Plackett–Luce strengths consistently
    (Azari Soufiani et al., 2013). The ratings are the posterior mode under openskill's prior
    (mu 25, sigma 25/3) with openskill's two-player scale (beta 25/6), so the numbers read like
    openskill's; sigma is the Laplace approximation (the inverse Hessian at the mode) of a rating
    measured against the field's mean.
    Folding keeps only pair counts, so a run of any length keeps a few numbers per pair."""

    MU = 25.0
    SIGMA = 25.0 / 3.0
    SCALE = 25.0 / 6.0 * math.sqrt(2.0)  # openskill's c for two players whose sigma has settled

    def __init__(self) -> None:
        self.names: dict[str, int] = {}
        self.pairs: dict[tuple[int, int], list[float]] = {}  # (i, j), i < j: [weighted games, weighted times i ahead]

    def rate(self, names: Sequence[str], places: Sequence[int]) -> None:
        """Fold in one game: the entrant in each seat and its place (1 best; equal places tie)."""
        ids = [self.names.setdefault(n, len(self.names)) for n in names]
        w = 1.0 / max(1, len(ids) - 1)
        for a in range(len(ids)):
            for b in range(a + 1, len(ids)):
                i, j, pi, pj = ids[a], ids[b], places[a], places[b]
                if i == j:
                    continue  # one entrant in two seats learns nothing about itself
                if i > j:
                    i, j, pi, pj = j, i, pj, pi
                cell = self.pairs.setdefault((i, j), [0.0, 0.0])
                cell[0] += w
                cell[1] += w * (1.0 if pi < pj else 0.5 if pi == pj else 0.0)

    def result(self) -> dict[str, dict[str, float]]:
        """``{name: {"mu", "sigma", "ordinal"}}`` (ordinal = mu - 3 sigma), by Newton's method on
        the log posterior, which is concave, so a few steps reach the mode from any start."""
        import numpy as np

        n = len(self.names)
        if n == 0:
            return {}
        mu = np.full(n, self.MU)
        prior = 1.0 / self.SIGMA**2
        for _ in range(100):
            grad = -(mu - self.MU) * prior
            hess = np.diag(np.full(n, -prior))
            for (i, j), (games, ahead) in self.pairs.items():
                p = 1.0 / (1.0 + math.exp(-(mu[i] - mu[j]) / self.SCALE))
                g = (ahead - games * p) / self.SCALE
                h = games * p * (1.0 - p) / self.SCALE**2
                grad[i] += g
                grad[j] -= g
                hess[i, i] -= h
                hess[j, j] -= h
                hess[i, j] += h
                hess[j, i] += h
            step = np.linalg.solve(hess, grad)
            mu -= step
            if float(np.max(np.abs(step))) < 1e-9:
                break
        # Only differences are measured: the prior alone pins the common level (the mean stays at
        # MU), so sigma is taken with that level fixed, i.e. on the ratings less their mean.
        centre = np.eye(n) - 1.0 / n
        sigma = np.sqrt(np.clip(np.diag(centre @ np.linalg.inv(-hess) @ centre), 0.0, None))
        return {
            name: {"mu": round(float(mu[k]), 3), "sigma": round(float(sigma[k]), 3), "ordinal": round(float(mu[k] - 3 * sigma[k]), 3)}
            for name, k in sorted(self.names.items())
        }


def fitted_ratings(games: Iterable[tuple[Sequence[str], Sequence[int]]]) -> dict[str, dict[str, float]]:
    """``Rating`` over (entrants in seat order, places) pairs; the order does not matter."""
    table = Rating()
    for names, places in games:
        table.rate(names, places)
    return table.result()


def openskill_ratings(games: Iterable[tuple[Sequence[str], Sequence[int]]]) -> dict[str, dict[str, float]] | None:
    """PlackettLuce ratings over (entrants in seat order, places) pairs, in the given order.

    Returns ``{name: {"mu", "sigma", "ordinal"}}``, or None when openskill is not installed (it is
    an optional extra; the rest of the summary does not need it)."""
    table = SkillTable()
    for names, places in games:
        table.rate(names, places)
    return table.result()


def results_markdown(root: str) -> str:
    """Markdown tables for docs/RESULTS.md from the ``simulate --out`` folders under ``root``
    (one per matchup): per matchup the first bot's results, a win-rate matrix, VP by source per
    bot (summed over its matchups) and ratings (``Rating``) fitted to all games together."""
    import json
    from pathlib import Path

    runs = sorted(p for p in Path(root).iterdir() if (p / "summary.json").exists())
    summaries = [json.loads((p / "summary.json").read_text()) for p in runs]
    head = "| matchup | games | first bot wins | 95% CI | its VP (mean ± sd) | opponent VP | turns | decisions | games/s | ms/decision |"
    lines = [head, "|---" * 10 + "|"]
    wins: dict[tuple[str, str], float] = {}
    sources: dict[str, list[dict[str, float]]] = {}
    for s in summaries:
        a, b = s["players"]
        ea, eb = s["entrants"][a], s["entrants"][b]
        wins[(a, b)], wins[(b, a)] = ea["win_rate"], eb["win_rate"]
        lo, hi = ea["win_rate_95"]
        lines.append(
            f"| {a} vs {b} | {s['games']} | {100 * ea['win_rate']:.1f}% | {100 * lo:.1f}–{100 * hi:.1f}% "
            f"| {ea['score_mean']:.1f} ± {ea['score_sd']:.1f} | {eb['score_mean']:.1f} ± {eb['score_sd']:.1f} "
            f"| {s['turns_mean']:.0f} ± {s['turns_sd']:.0f} | {s['decisions_mean']:.0f} | {s['games_per_s']:.2f} "
            f"| {ea['ms_per_decision']:.2f} / {eb['ms_per_decision']:.2f} |"
        )
        for name, e in ((a, ea), (b, eb)):
            sources.setdefault(name, []).append({**e["vp_by_source"], "total": e["score_mean"]})
    names = sorted(sources, key=lambda n: (n == "random", n))
    lines += ["", "| row wins against column | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for a in names:
        cells = ["—" if a == b else (f"{100 * wins[(a, b)]:.1f}%" if (a, b) in wins else "") for b in names]
        lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
    keys = list(next(iter(sources.values()))[0])
    lines += ["", "| bot (mean over its matchups) | " + " | ".join(k.replace("_", " ") for k in keys) + " |"]
    lines.append("|---" * (len(keys) + 1) + "|")
    for name in names:
        rows = sources[name]
        lines.append(f"| {name} | " + " | ".join(f"{mean([r.get(k, 0) for r in rows]):.1f}" for k in keys) + " |")
    table = Rating()
    for p in runs:
        with open(p / "games.jsonl", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                table.rate(rec["players"], ranks([x["total"] for x in rec["scores"]], rec["winners"]))
    rating = table.result()
    if rating:
        lines += ["", "| bot | rating μ | σ | ordinal (μ − 3σ) |", "|---|---|---|---|"]
        for name, r in sorted(rating.items(), key=lambda kv: -kv[1]["ordinal"]):
            lines.append(f"| {name} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} |")
    return "\n".join(lines) + "\n"


STYLE = (
    ("ended", "triggers the end"),
    ("journal", "journal column"),
    ("land_water", "Land+Water cards"),
    ("space", "Space cards"),
    ("comet", "comet tags"),
    ("telescope", "telescope columns"),
    ("tiles", "tiles"),
    ("townsfolk", "townsfolk"),
    ("inspiration", "inspiration tucked"),
)


def style_markdown(root: str) -> str:
    """How each bot plays, from the final positions of every game under ``root`` (rebuilt from
    the records): who triggers the end, how far it journals, what it collects. Means per game."""
    import json
    from pathlib import Path

    from wayfarers_env import Game

    per: dict[str, list[dict[str, float]]] = {}
    for run in sorted(Path(root).iterdir()):
        path = run / "games.jsonl"
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            game = Game(rec["config"], rec["seed"])
            for a in rec["actions"]:
                game.apply(a)
            g = game.state
            for seat, name in enumerate(rec["players"]):
                p = g.players[seat]
                per.setdefault(name, []).append(
                    {
                        "ended": float(g.end_trigger == seat),
                        "journal": g.tables.nodes[p.node].column,
                        "land_water": len(p.land) + len(p.water),
                        "space": len(p.above),
                        "comet": p.counts[10],
                        "telescope": sum(1 for col in p.col if col[3]),
                        "tiles": len(p.tiles),
                        "townsfolk": len(p.tucked),
                        "inspiration": len(p.inspired),
                    }
                )
    lines = ["| bot (all its games) | games | " + " | ".join(label for _k, label in STYLE) + " |", "|---" * (len(STYLE) + 2) + "|"]
    for name in sorted(per, key=lambda n: (n == "random", n)):
        rows = per[name]
        cells = [f"{100 * mean([r['ended'] for r in rows]):.0f}%"] + [f"{mean([r[k] for r in rows]):.1f}" for k, _l in STYLE[1:]]
        lines.append(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
