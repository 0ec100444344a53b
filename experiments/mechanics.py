"""How often each bot uses Tides of Trade's mechanics, read back from a simulate run's games.jsonl.

A bot that wins expansion games could still ignore the expansion; this replays every recorded
game and counts, per bot and game, the decisions that use each new mechanic and the VP the new
scoring gave, so docs/RESULTS.md can show that the mechanics are used, not just legal.

    python -m experiments.mechanics DIR/games.jsonl
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from experiments.replay import ReplayError, iter_records
from wayfarers_env import Game
from wayfarers_env.rules.actions import CATALOG, WAYS
from wayfarers_env.rules.scoring import TIDES_SOURCES

# (column, what it counts)
COLUMNS = (
    ("traders", "traders employed"),
    ("worker tiles", "worker upgrade tiles acquired"),
    ("ink placed", "card influence put on the Ink Well"),
    ("ink used", "Ink Well abilities used (swaps, assets, capture, red)"),
    ("red stand-in", "Red guild abilities used in place of another colour"),
    ("hourglass", "hourglass filled or turned back"),
    ("overseers", "Overseers tucked under the Market or dismissed"),
    ("new VP", "VP from the expansion's scoring (sets, squares, hourglass, red majority)"),
)


def _kind(action: int) -> str | None:
    """The mechanic an action uses, if any."""
    c = CATALOG
    if action in c.EMPLOY:
        return "traders"
    if action in c.WORKER_PAIR:
        return "worker tiles"
    if action == c.INK_WELL:
        return "ink placed"
    if action in (c.INK_ASSETS, c.INK_CAPTURE, c.INK_RED):
        return "ink used"
    if action in c.PAYMENT:
        red_for, swap = WAYS[c.at[action]]
        return "ink used" if swap else ("red stand-in" if red_for >= 0 else None)
    if action == c.HOURGLASS_FILL or action in c.JOURNAL_HOURGLASS or action in c.HOURGLASS_SAVES:
        return "hourglass"
    if action in (c.MARKET, c.DISMISS):
        return "overseers"
    return None


def tally(path: str | Path) -> dict[str, dict[str, float]]:
    """Per bot: games played and the mean per game of each column."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for number, record in iter_records(path):
        game = Game(record["config"], record["seed"])
        if not game.state.config.tides_of_trade:
            raise ReplayError(f"{Path(path).name} line {number}: a base-game record; the mechanics are Tides of Trade's")
        counts: list[dict[str, int]] = [defaultdict(int) for _ in record["players"]]
        for action in record["actions"]:
            kind = _kind(action)
            if kind is not None:
                counts[game.current_player][kind] += 1
            game.apply(action)
        scores = game.scores()
        for seat, bot in enumerate(record["players"]):
            row = sums[bot]
            row["games"] += 1
            row["wins"] += (seat in record["winners"]) / len(record["winners"])
            for key, _ in COLUMNS[:-1]:
                row[key] += counts[seat][key]
            row["new VP"] += sum(scores[seat].get(k, 0) for k in TIDES_SOURCES)
    return {bot: {k: (v if k == "games" else v / row["games"]) for k, v in row.items()} for bot, row in sums.items()}


def markdown(table: dict[str, dict[str, float]]) -> str:
    head = "| bot | games | win share | " + " | ".join(k for k, _ in COLUMNS) + " |"
    lines = [head, "|" + "---|" * (3 + len(COLUMNS))]
    for bot in sorted(table):
        row = table[bot]
        cells = " | ".join(f"{row.get(k, 0.0):.2f}" for k, _ in COLUMNS)
        lines.append(f"| {bot} | {int(row['games'])} | {row['wins']:.2f} | {cells} |")
    lines.append("")
    lines.append("Per game and seat: " + "; ".join(f"*{k}*: {what}" for k, what in COLUMNS) + ".")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m experiments.mechanics", description=__doc__.split("\n\n")[0])
    parser.add_argument("games", help="a games.jsonl written by `wayfarers simulate --tides-of-trade`")
    args = parser.parse_args(argv)
    try:
        print(markdown(tally(args.games)))
    except ReplayError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
