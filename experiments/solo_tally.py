"""The running results of a solo run (one bot against the rulebook's solo AI), and its table.

A solo game has one entrant, so a win rate against the other entrants, seat rotation and ratings
mean nothing there; what a reader wants is how often the bot beats the AI on each AI board, with
an interval, and by how much. ``SoloTally`` folds each record into the entrant's statistics as
``Tally`` does (so summary.json keeps its shape and ``--resume`` its timing) and, beside them, into
per-board counts: the bot's wins, its VP and the AI's VP.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from .cli import AI_BOARDS
from .stats import Moments, wilson
from .tally import TABLE_WIDTH, Tally, _grid

AI_SEAT = 1  # the solo AI sits after the bot


def board_label(board: int | str) -> str:
    """'3 Mayor': the AI board's number, which the command takes, and its printed name."""
    return f"{board} {AI_BOARDS[int(board) - 1]}"


class _Board:
    __slots__ = ("games", "wins", "score", "ai_score")

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0.0
        self.score = Moments()
        self.ai_score = Moments()


class SoloTally(Tally):
    """``Tally`` for games against the solo AI: the entrant is the bot in seat 0; the AI's wins
    count as the bot's losses (a shared win as half a win, as elsewhere)."""

    def __init__(self, bot: str, boards: Sequence[int]) -> None:
        super().__init__([bot])
        self.seat_wins = [0.0, 0.0]  # the bot's seat and the AI's
        self.boards = {b: _Board() for b in boards}
        self.ai_sources: dict[str, int] = {}
        self.ai_score = Moments()  # over all boards

    def add(self, record: dict[str, Any], think: Sequence[float] | None = None) -> None:
        winners = record["winners"]
        share = 1.0 / len(winners) if winners else 0.0
        won = share if 0 in winners else 0.0
        self._fold_seat(self.entrants[0], record, 0, won, think)
        for seat in winners:
            self.seat_wins[seat] += share
        self._fold_game(record, think)
        ai = record["scores"][AI_SEAT]
        for source, vp in ai.items():
            if source != "total":
                self.ai_sources[source] = self.ai_sources.get(source, 0) + vp
        board = self.boards[record["config"]["solo_ai_board"]]
        board.games += 1
        board.wins += won
        board.score.add(record["scores"][0]["total"])
        board.ai_score.add(ai["total"])
        self.ai_score.add(ai["total"])

    def summary(self) -> dict[str, Any]:
        s = super().summary()
        s["rating"] = s["openskill"] = None  # one entrant: nothing to rate against
        n = self.games
        s["ai_vp_by_source"] = {k: round(v / n, 2) if n else 0.0 for k, v in self.ai_sources.items()}
        s["by_ai_board"] = {str(b): _board_summary(x.games, x.wins, x.score, x.ai_score) for b, x in self.boards.items()}
        s["all_ai_boards"] = _board_summary(n, self.entrants[0].wins, self.entrants[0].score, self.ai_score)
        return s

    @property
    def title(self) -> str:
        return f"{self.players[0]} vs the solo AI"

    def table(self, summary: dict[str, Any]) -> str:
        return solo_table(summary)


def _board_summary(games: int, wins: float, score: Moments, ai_score: Moments) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "wins": round(wins, 3),
        "win_rate": round(wins / games, 4) if games else 0.0,
        "win_rate_95": [round(lo, 4), round(hi, 4)],
        "score_mean": round(score.mean, 2),
        "score_sd": round(score.sd, 2),
        "ai_score_mean": round(ai_score.mean, 2),
        "ai_score_sd": round(ai_score.sd, 2),
    }


def _row(label: str, b: dict[str, Any]) -> list[str]:
    lo, hi = b["win_rate_95"]
    wins = f"{b['wins']:g}"
    return [
        label,
        f"{wins}/{b['games']}",
        f"{100 * b['win_rate']:.1f}%",
        f"{100 * lo:.1f}-{100 * hi:.1f}%",
        f"{b['score_mean']:.1f} ({b['score_sd']:.1f})",
        f"{b['ai_score_mean']:.1f} ({b['ai_score_sd']:.1f})",
    ]


def solo_table(summary: dict[str, Any], width: int = TABLE_WIDTH) -> str:
    """Per AI board: the bot's wins of its games with the Wilson 95% interval, its VP and the AI's
    (mean, sd); an 'all boards' row when there are several; then VP by source and one line of
    what the games share (turns, decisions, speed). Boards without a game yet are left out."""
    bot = summary["players"][0]
    boards = {b: s for b, s in summary["by_ai_board"].items() if s["games"]}
    rows = [_row(board_label(b), s) for b, s in boards.items()]
    if len(summary["by_ai_board"]) > 1:
        rows.append(_row("all boards", summary["all_ai_boards"]))
    game = "Tides of Trade" if summary.get("config", {}).get("tides_of_trade") else "the base game"
    lines = [f"{bot} against the solo AI ({game})"]
    lines += _grid(["AI board", "bot wins", "win rate", "95% CI", "bot VP (sd)", "AI VP (sd)"], rows, width)
    lines.append("")
    mine = summary["entrants"][bot]["vp_by_source"]
    theirs = summary["ai_vp_by_source"]
    shown = [*mine, *(s for s in theirs if s not in mine)]
    by_source = [[name, *(f"{vp[s]:.1f}" if s in vp else "-" for s in shown)] for name, vp in ((bot, mine), ("AI", theirs))]
    lines += _grid(["VP by source", *(s.replace("_", " ") for s in shown)], by_source, width)
    lines.append("")
    e = summary["entrants"][bot]
    foot = (
        f"{summary['games']} games, {summary['turns_mean']:.0f} turns (sd {summary['turns_sd']:.0f}, the AI's included) and "
        f"{e['own_decisions_mean']:.0f} decisions of {bot} per game; {e['ms_per_decision']:.2f} ms per decision"
    )
    if summary["unfinished_games"]:
        foot += f"; {summary['unfinished_games']} games stopped after {summary.get('max_decisions', 'too many')} decisions"
    if summary.get("games_per_s"):
        foot += f"; {summary['games_per_s']:.2f} games/s"
    lines += textwrap.wrap(foot, width)
    return "\n".join(lines)


def solo_markdown(root: str) -> str:
    """The docs/RESULTS.md tables from the solo ``simulate --out`` folders under ``root`` (one per
    bot): a row per bot and AI board (then the bot over all its boards), and the win rates again
    as a bot-by-board grid. A run not yet complete is marked so; boards without games are left out."""
    import json
    from pathlib import Path

    runs = sorted(p for p in Path(root).iterdir() if (p / "summary.json").exists())
    summaries = [json.loads((p / "summary.json").read_text(encoding="utf-8")) for p in runs]
    summaries = sorted((s for s in summaries if "by_ai_board" in s), key=lambda s: (s["players"][0] != "random", s["players"][0]))
    lines = ["| bot | AI board | games | bot wins | win rate | 95% CI | bot VP (mean ± sd) | AI VP (mean ± sd) |", "|---" * 8 + "|"]
    grid: dict[str, dict[str, str]] = {}
    for s in summaries:
        bot = s["players"][0] + ("" if s.get("complete") else f" (incomplete: {s['games']} of {s['games_requested']} games)")
        boards = [(board_label(b), x) for b, x in s["by_ai_board"].items() if x["games"]]
        if len(s["by_ai_board"]) > 1 and boards:
            boards.append(("all boards", s["all_ai_boards"]))
        for label, x in boards:
            lo, hi = x["win_rate_95"]
            rate = f"{100 * x['win_rate']:.1f}%"
            grid.setdefault(bot, {})[label] = rate
            lines.append(
                f"| {bot} | {label} | {x['games']} | {x['wins']:g} | {rate} | {100 * lo:.1f}–{100 * hi:.1f}% "
                f"| {x['score_mean']:.1f} ± {x['score_sd']:.1f} | {x['ai_score_mean']:.1f} ± {x['ai_score_sd']:.1f} |"
            )
    columns = [*(board_label(b) for b in range(1, len(AI_BOARDS) + 1)), "all boards"]
    lines += ["", "| bot wins against AI board | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for bot, rates in grid.items():
        lines.append(f"| **{bot}** | " + " | ".join(rates.get(c, "") for c in columns) + " |")
    return "\n".join(lines) + "\n"
