"""The running results of a tournament, and the table printed from them.

A run may hold any number of games, so nothing here keeps a game: each finished record is
folded into per-entrant counts and exact integer sums (``Moments``), into pair counts for the
whole-run ratings (``Rating``) and into online openskill ratings (``SkillTable``, kept in
summary.json for scripts that read them, updated in game order). Folding the same records
in the same order gives the same summary whether they come from a fresh run, a resumed one, or
a games.jsonl read back.

Thinking time is not in the records (it varies between runs), so it is counted apart: ``timed``
games are the ones whose timing is known. A resumed run carries the earlier sessions' timing
over from their summary.json; games whose timing was lost (a hard crash) just do not count
towards ``ms_per_decision`` and ``games_per_s``.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from wayfarers_env.rules.scoring import BASE_SOURCES, SOURCES

from .stats import Moments, Rating, SkillTable, ranks, wilson

# The widest a printed line gets, whatever the bot names. Fixed rather than the terminal's width,
# so that the same run prints the same table everywhere (logs, pipes, narrow terminals alike).
TABLE_WIDTH = 100


def entrant_labels(players: Sequence[str]) -> list[str]:
    """Names for the table: a bot listed twice becomes name and name#2."""
    out = []
    for j, name in enumerate(players):
        same = list(players[:j]).count(name)
        out.append(name if same == 0 else f"{name}#{same + 1}")
    return out


class _Entrant:
    __slots__ = ("wins", "score", "sources", "decisions", "think_s", "timed_decisions")

    def __init__(self) -> None:
        self.wins = 0.0
        self.score = Moments()
        self.sources = {s: 0 for s in BASE_SOURCES}  # Tides of Trade's sources join when a game reports them
        self.decisions = 0
        self.think_s = 0.0
        self.timed_decisions = 0


class Tally:
    """Everything ``summary.json`` and the table need, folded in one game at a time."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)
        self.labels = entrant_labels(players)
        self.entrants = [_Entrant() for _ in players]
        self.games = 0
        self.unfinished = 0
        self.turns = Moments()
        self.decisions = Moments()
        self.seat_wins = [0.0] * len(players)
        self.skill = SkillTable()
        self.rating = Rating()
        self.timed_games = 0
        self.elapsed_s = 0.0

    def add(self, record: dict[str, Any], think: Sequence[float] | None = None) -> None:
        """Fold in one game; ``think`` is each seat's thinking time when it was measured."""
        winners = record["winners"]
        share = 1.0 / len(winners) if winners else 0.0
        for j, e in enumerate(self.entrants):
            seat = record["lineup"].index(j)
            self._fold_seat(e, record, seat, share if seat in winners else 0.0, think)
        for seat in winners:
            self.seat_wins[seat] += share
        self._fold_game(record, think)
        seats = [self.labels[j] for j in record["lineup"]]
        place = ranks([s["total"] for s in record["scores"]], winners)
        self.skill.rate(seats, place)
        self.rating.rate(seats, place)

    @staticmethod
    def _fold_seat(e: _Entrant, record: dict[str, Any], seat: int, won: float, think: Sequence[float] | None) -> None:
        """One entrant's part of a game: its share of the win, its VP, its decisions and time."""
        e.wins += won
        score = record["scores"][seat]
        e.score.add(score["total"])
        for s in SOURCES:
            if s in score:
                e.sources[s] = e.sources.get(s, 0) + score[s]
        e.decisions += record["seat_decisions"][seat]
        if think is not None:
            e.think_s += think[seat]
            e.timed_decisions += record["seat_decisions"][seat]

    def _fold_game(self, record: dict[str, Any], think: Sequence[float] | None) -> None:
        """What every game adds whoever played it: its count, length and timing."""
        self.games += 1
        self.unfinished += not record["finished"]
        self.turns.add(record["turns"])
        self.decisions.add(record["decisions"])
        if think is not None:
            self.timed_games += 1

    @property
    def title(self) -> str:
        """What the progress bar calls the run."""
        return " vs ".join(self.players)

    def table(self, summary: dict[str, Any]) -> str:
        """The results printed after a run (a solo run prints its own, ``solo_tally``)."""
        return format_table(summary)

    def carry_timing(self, summary: dict[str, Any]) -> None:
        """Take over the timing of earlier sessions from their summary.json (see the module)."""
        timed = summary.get("timed_games")
        if not isinstance(timed, int) or timed > self.games:
            return
        try:
            think = [float(summary["entrants"][label]["think_s"]) for label in self.labels]
            counted = [int(summary["entrants"][label]["timed_decisions"]) for label in self.labels]
            elapsed = float(summary["elapsed_s"])
        except (KeyError, TypeError, ValueError):
            return
        for e, secs, n in zip(self.entrants, think, counted):
            e.think_s, e.timed_decisions = secs, n
        self.timed_games, self.elapsed_s = timed, elapsed

    def summary(self) -> dict[str, Any]:
        """The summary.json fields that describe the games (the caller adds the run's arguments)."""
        n = self.games
        per: dict[str, dict[str, Any]] = {}
        for j, (label, e) in enumerate(zip(self.labels, self.entrants)):
            lo, hi = wilson(e.wins, n)
            per[label] = {
                "bot": self.players[j],
                "games": n,
                "wins": round(e.wins, 3),
                "win_rate": round(e.wins / n, 4) if n else 0.0,
                "win_rate_95": [round(lo, 4), round(hi, 4)],
                "score_mean": round(e.score.mean, 2),
                "score_sd": round(e.score.sd, 2),
                "score_min": e.score.low if e.score.low is not None else 0,
                "score_max": e.score.high if e.score.high is not None else 0,
                "vp_by_source": {s: round(v / n, 2) if n else 0.0 for s, v in e.sources.items()},
                "own_decisions_mean": round(e.decisions / n, 1) if n else 0.0,
                "ms_per_decision": round(1000 * e.think_s / max(1, e.timed_decisions), 3),
                "think_s": round(e.think_s, 6),
                "timed_decisions": e.timed_decisions,
            }
        return {
            "players": self.players,
            "games": n,
            "unfinished_games": self.unfinished,
            "turns_mean": round(self.turns.mean, 1),
            "turns_sd": round(self.turns.sd, 1),
            "decisions_mean": round(self.decisions.mean, 1),
            "seat_win_rate": [round(w / n, 4) if n else 0.0 for w in self.seat_wins],
            "entrants": per,
            "rating": self.rating.result() if n else None,
            "openskill": self.skill.result() if n else None,
            "timed_games": self.timed_games,
            "elapsed_s": round(self.elapsed_s, 2),
            "games_per_s": round(self.timed_games / self.elapsed_s, 3) if self.elapsed_s > 0 and self.timed_games else None,
        }


def _fit(label: str, width: int) -> str:
    """A label cut to ``width`` from the left: the end (``#2``, a model's file name) tells bots apart."""
    return label if len(label) <= width else "…" + label[-(width - 1) :]


def _grid(head: list[str], rows: list[list[str]], width: int) -> list[str]:
    """Columns two spaces apart, the first left-aligned and cut so that a line fits ``width``."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    widths[0] = max(8, min(widths[0], width - sum(widths[1:]) - 2 * (len(head) - 1)))
    out = []
    for cells in [head, ["-" * w for w in widths], *rows]:
        line = [_fit(cells[0], widths[0]).ljust(widths[0])] + [c.rjust(w) for c, w in zip(cells[1:], widths[1:])]
        out.append("  ".join(line).rstrip())
    return out


def format_table(summary: dict[str, Any], width: int = TABLE_WIDTH) -> str:
    """The results printed after a run: win rates and VP, then VP by source, then one line of what
    every entrant shares (games, turns, seats, speed) and the ratings; no line is wider than
    ``width``. Turns are the same for every entrant, so they are in that line, not in a column."""
    entrants = summary["entrants"]
    rows = []
    for label, e in entrants.items():
        lo, hi = e["win_rate_95"]
        rows.append(
            [
                label,
                f"{100 * e['win_rate']:.1f}%",
                f"{100 * lo:.1f}-{100 * hi:.1f}%",
                f"{e['score_mean']:.1f}",
                f"{e['score_sd']:.1f}",
                f"{e['own_decisions_mean']:.0f}",
                f"{e['ms_per_decision']:.2f}",
            ]
        )
    lines = _grid(["bot", "win rate", "95% CI", "VP mean", "VP sd", "decisions", "ms/dec"], rows, width)
    lines.append("")
    shown = [s for s in SOURCES if any(s in e["vp_by_source"] for e in entrants.values())]
    by_source = [[label, *(f"{e['vp_by_source'].get(s, 0):.1f}" for s in shown)] for label, e in entrants.items()]
    lines += _grid(["VP by source", *(s.replace("_", " ") for s in shown)], by_source, width)
    lines.append("")
    foot = (
        f"{summary['games']} games, {summary['turns_mean']:.0f} turns (sd {summary['turns_sd']:.0f}) and "
        f"{summary['decisions_mean']:.0f} decisions per game; "
        f"win rate by seat: {', '.join(f'{100 * w:.0f}%' for w in summary['seat_win_rate'])}"
    )
    if summary["unfinished_games"]:
        foot += f"; {summary['unfinished_games']} games stopped after {summary.get('max_decisions', 'too many')} decisions"
    if summary.get("games_per_s"):
        foot += f"; {summary['games_per_s']:.2f} games/s"
    lines += textwrap.wrap(foot, width)
    if summary.get("rating"):
        fit = sorted(summary["rating"].items(), key=lambda kv: -kv[1]["ordinal"])
        text = "rating (whole-run fit, mu - 3 sigma): " + ", ".join(f"{k} {v['ordinal']:.1f}" for k, v in fit)
        lines += textwrap.wrap(text, width)
    return "\n".join(lines)
