"""A league of bots: who plays whom (line-ups on shared deals) and the standings folded from the games.

Line-ups: for every table size k asked for, every set of k bots plays, in each of its k seatings
(the set rotated one seat at a time), so every bot meets every other in every seat. Every
line-up and seating plays the same deals: deal d has one seed for the whole run, so the luck of a
deal is shared by everyone (a table of 3 and a table of 4 still deal differently, being other
games). The schedule goes deal by deal, so a run stopped early has played each line-up nearly
equally.

The standings (``LeagueTally``) fold each finished record in game order, like ``tally.Tally``,
so a fresh run, a resumed one and a games.jsonl read back give the same summary: ratings
(one fit over every game of every table size), win shares with Wilson intervals per
table size, a pairwise matrix (how often a bot finishes ahead of another when both sit at the
table) and score margins (VP over the best opponent). The leaderboard ranks by the whole-run
ratings (``stats.Rating``); the online openskill ones stay in summary.json only.
"""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Iterator, Sequence
from typing import Any

from wayfarers_env.rules.scoring import BASE_SOURCES, SOURCES

from .stats import Moments, Rating, SkillTable, ranks, wilson
from .tally import TABLE_WIDTH, _grid
from .tournament import GameSpec, derive_seed


def seatings(bots: int, sizes: Sequence[int]) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """One deal's games: (table size, bot index per seat, position of that bot in its line-up per
    seat) for every line-up of every size, each in every rotation."""
    out = []
    for k in sizes:
        for lineup in itertools.combinations(range(bots), k):
            for shift in range(k):
                order = tuple((seat + shift) % k for seat in range(k))
                out.append((k, tuple(lineup[j] for j in order), order))
    return out


def schedule(
    bots: Sequence[str], sizes: Sequence[int], deals: int, seed: int, configs: dict[int, dict[str, Any]], start: int = 0
) -> Iterator[GameSpec]:
    """The games ``start``.. of a league, made as they are asked for: game i is game i % per_deal
    of deal i // per_deal. ``configs`` holds the game config of each table size."""
    per_deal = seatings(len(bots), sizes)
    for i in range(start, deals * len(per_deal)):
        deal, j = divmod(i, len(per_deal))
        k, seats, order = per_deal[j]
        yield GameSpec(
            index=i,
            seed=derive_seed("wayfarers-tournament", seed, deal),
            players=tuple(bots[b] for b in seats),
            lineup=order,
            config=configs[k],
            bot_seeds=tuple(derive_seed("wayfarers-bot", seed, i, s) for s in range(k)),
        )


def places(record: dict[str, Any]) -> list[int]:
    """Finishing place per seat (1 = won; winners share it, equal VP share a place)."""
    return ranks([s["total"] for s in record["scores"]], record["winners"])


def margins(totals: Sequence[int]) -> list[int]:
    """Each seat's VP minus the best of the other seats' (positive: it had the most)."""
    return [t - max(u for j, u in enumerate(totals) if j != k) for k, t in enumerate(totals)]


class _Bot:
    __slots__ = ("games", "wins", "by_size", "score", "margin", "sources", "decisions", "think_s", "timed_decisions")

    def __init__(self, sizes: Sequence[int]) -> None:
        self.games = 0
        self.wins = 0.0
        self.by_size: dict[int, list[Any]] = {k: [0, 0.0] for k in sizes}  # games, wins
        self.score = Moments()
        self.margin = Moments()
        self.sources = {s: 0 for s in BASE_SOURCES}
        self.decisions = 0
        self.think_s = 0.0
        self.timed_decisions = 0


class LeagueTally:
    """Everything a tournament's summary.json and leaderboard need, folded in one game at a time
    (the interface of ``tally.Tally``, which ``tournament.play_run`` drives)."""

    def __init__(self, bots: Sequence[str], sizes: Sequence[int]) -> None:
        self.bots = list(bots)
        self.sizes = list(sizes)
        self.stats = {b: _Bot(sizes) for b in bots}
        self.pairs: dict[tuple[str, str], list[Any]] = {(a, b): [0, 0.0, 0] for a in bots for b in bots if a != b}  # games, ahead, VP lead
        self.seat_wins = {k: [0.0] * k for k in sizes}
        self.size_games = {k: 0 for k in sizes}
        self.turns = {k: Moments() for k in sizes}
        self.skill = SkillTable()
        self.rating = Rating()
        self.games = 0
        self.unfinished = 0
        self.timed_games = 0
        self.elapsed_s = 0.0

    @property
    def title(self) -> str:
        return f"league of {len(self.bots)}"

    def add(self, record: dict[str, Any], think: Sequence[float] | None = None) -> None:
        names, winners = record["players"], record["winners"]
        totals = [s["total"] for s in record["scores"]]
        place, margin = places(record), margins(totals)
        k = len(names)
        share = 1.0 / len(winners) if winners else 0.0
        for seat, name in enumerate(names):
            b = self.stats[name]
            won = share if seat in winners else 0.0
            b.games += 1
            b.wins += won
            b.by_size[k][0] += 1
            b.by_size[k][1] += won
            b.score.add(totals[seat])
            b.margin.add(margin[seat])
            for s in SOURCES:
                if s in record["scores"][seat]:
                    b.sources[s] = b.sources.get(s, 0) + record["scores"][seat][s]
            b.decisions += record["seat_decisions"][seat]
            if think is not None:
                b.think_s += think[seat]
                b.timed_decisions += record["seat_decisions"][seat]
            for other in range(k):
                if other != seat:
                    pair = self.pairs[(name, names[other])]
                    pair[0] += 1
                    pair[1] += 1.0 if place[seat] < place[other] else 0.5 if place[seat] == place[other] else 0.0
                    pair[2] += totals[seat] - totals[other]
        for seat in winners:
            self.seat_wins[k][seat] += share
        self.size_games[k] += 1
        self.turns[k].add(record["turns"])
        self.games += 1
        self.unfinished += not record["finished"]
        self.timed_games += think is not None
        self.skill.rate(names, place)
        self.rating.rate(names, place)

    def carry_timing(self, summary: dict[str, Any]) -> None:
        """Take over the timing of earlier sessions from their summary.json (as ``Tally`` does)."""
        timed = summary.get("timed_games")
        if not isinstance(timed, int) or timed > self.games:
            return
        try:
            rows = {row["bot"]: row for row in summary["leaderboard"]}
            timing = [(float(rows[b]["think_s"]), int(rows[b]["timed_decisions"])) for b in self.bots]
            elapsed = float(summary["elapsed_s"])
        except (KeyError, TypeError, ValueError):
            return
        for b, (secs, n) in zip(self.bots, timing):
            self.stats[b].think_s, self.stats[b].timed_decisions = secs, n
        self.timed_games, self.elapsed_s = timed, elapsed

    def summary(self) -> dict[str, Any]:
        """The summary.json fields that describe the games; the leaderboard best first."""
        rating = self.rating.result()
        rows: list[dict[str, Any]] = []
        for name in self.bots:
            b = self.stats[name]
            lo, hi = wilson(b.wins, b.games)
            by_size = {}
            for k, (n, w) in b.by_size.items():
                klo, khi = wilson(w, n)
                by_size[str(k)] = {
                    "games": n,
                    "wins": round(w, 3),
                    "win_rate": round(w / n, 4) if n else 0.0,
                    "win_rate_95": [round(klo, 4), round(khi, 4)],
                }
            r = rating.get(name, {})
            rows.append(
                {
                    "bot": name,
                    "mu": r.get("mu"),
                    "sigma": r.get("sigma"),
                    "ordinal": r.get("ordinal"),
                    "games": b.games,
                    "wins": round(b.wins, 3),
                    "win_rate": round(b.wins / b.games, 4) if b.games else 0.0,
                    "win_rate_95": [round(lo, 4), round(hi, 4)],
                    "by_players": by_size,
                    "score_mean": round(b.score.mean, 2),
                    "score_sd": round(b.score.sd, 2),
                    "margin_mean": round(b.margin.mean, 2),
                    "margin_sd": round(b.margin.sd, 2),
                    "vp_by_source": {s: round(v / b.games, 2) if b.games else 0.0 for s, v in b.sources.items()},
                    "own_decisions_mean": round(b.decisions / b.games, 1) if b.games else 0.0,
                    "ms_per_decision": round(1000 * b.think_s / max(1, b.timed_decisions), 3),
                    "think_s": round(b.think_s, 6),
                    "timed_decisions": b.timed_decisions,
                }
            )
        rows.sort(key=lambda r: (-(r["ordinal"] if r["ordinal"] is not None else r["win_rate"]), self.bots.index(r["bot"])))
        for place, row in enumerate(rows, start=1):
            row["rank"] = place
        pairwise: dict[str, dict[str, Any]] = {}
        for (a, other), (n, ahead, diff) in self.pairs.items():
            lo, hi = wilson(ahead, n)
            pairwise.setdefault(a, {})[other] = {
                "games": n,
                "ahead_rate": round(ahead / n, 4) if n else None,
                "ahead_rate_95": [round(lo, 4), round(hi, 4)],
                "margin_mean": round(diff / n, 2) if n else None,
            }
        seats = {}
        for k in self.sizes:
            n = self.size_games[k]
            seats[str(k)] = {
                "games": n,
                "win_rate": [round(w / n, 4) if n else 0.0 for w in self.seat_wins[k]],
                "win_rate_95": [[round(x, 4) for x in wilson(w, n)] for w in self.seat_wins[k]],
                "turns_mean": round(self.turns[k].mean, 1),
                "turns_sd": round(self.turns[k].sd, 1),
            }
        return {
            "bots": self.bots,
            "players_per_game": self.sizes,
            "games": self.games,
            "unfinished_games": self.unfinished,
            "leaderboard": rows,
            "pairwise": pairwise,
            "seats": seats,
            "rating": rating or None,
            "openskill": self.skill.result(),
            "timed_games": self.timed_games,
            "elapsed_s": round(self.elapsed_s, 2),
            "games_per_s": round(self.timed_games / self.elapsed_s, 3) if self.elapsed_s > 0 and self.timed_games else None,
        }

    def table(self, summary: dict[str, Any]) -> str:
        return format_leaderboard(summary)


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def format_leaderboard(summary: dict[str, Any], width: int = TABLE_WIDTH) -> str:
    """The leaderboard printed after a tournament (no line wider than ``width``): ratings, win
    shares overall and per table size with the 95% interval, VP and margin; then the pairwise
    matrix, and one line on seats and game length per table size."""
    sizes = [str(k) for k in summary["players_per_game"]]
    rows = []
    for r in summary["leaderboard"]:
        lo, hi = r["win_rate_95"]
        rating = "—" if r["ordinal"] is None else f"{r['ordinal']:.1f}"
        mu = "—" if r["mu"] is None else f"{r['mu']:.1f}±{r['sigma']:.1f}"
        per_size = [_pct(r["by_players"][k]["win_rate"]) if r["by_players"][k]["games"] else "—" for k in sizes]
        rows.append(
            [
                f"{r['rank']}. {r['bot']}",
                rating,
                mu,
                str(r["games"]),
                f"{100 * r['win_rate']:.1f}%",
                f"{100 * lo:.0f}-{100 * hi:.0f}%",
                *per_size,
                f"{r['score_mean']:.1f}",
                f"{r['margin_mean']:+.1f}",
                f"{r['ms_per_decision']:.2f}",
            ]
        )
    head = ["bot", "ordinal", "mu±sigma", "games", "wins", "95% CI", *(f"{k}p" for k in sizes), "VP", "margin", "ms/dec"]
    lines = _grid(head, rows, width)
    order = [r["bot"] for r in summary["leaderboard"]]
    short = [f"#{j + 1}" for j in range(len(order))]
    matrix = []
    for j, a in enumerate(order):
        cells = ["—" if a == b else _pct(summary["pairwise"][a][b]["ahead_rate"]) for b in order]
        matrix.append([f"#{j + 1} {a}", *cells])
    lines += ["", *_grid(["row finishes ahead of column", *short], matrix, width)]
    foot = []
    for k in sizes:
        s = summary["seats"][k]
        if s["games"]:
            seats = "/".join(_pct(w) for w in s["win_rate"])
            foot.append(f"{k}p: {s['games']} games, {s['turns_mean']:.0f} turns, wins by seat {seats}")
    text = "; ".join(foot)
    if summary["unfinished_games"]:
        text += f"; {summary['unfinished_games']} games stopped unfinished"
    if summary.get("games_per_s"):
        text += f"; {summary['games_per_s']:.2f} games/s"
    lines += ["", *textwrap.wrap(text, width)]
    lines += textwrap.wrap(
        "ordinal = mu - 3 sigma of one Bradley-Terry fit over every pair of seats in every game (openskill's scale); "
        "margin = VP over the best opponent",
        width,
    )
    return "\n".join(lines)
