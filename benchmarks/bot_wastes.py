"""Moves a player sees at once are wasted, counted while a game is played.

Issue 14 named three: paying for the Trade guild and then changing nothing, triggering the game's
end while behind, and resting while a die could still be placed. A win rate hides them (a bot can
win while wasting); these counts show them, per seat, for the before/after comparison in
docs/RESULTS.md (``benchmarks.bot_duel``) and for the bots' tests.

``WasteWatch`` sits beside a game: call ``before(action)`` just before ``game.apply(action)`` and
``after()`` just after. It reads the engine's state (the Trade guild's frame), which bots may not.
Run as a script on a ``simulate`` games.jsonl, it replays the games and prints each bot's counts;
from a checkout of an older commit (its folder first on PYTHONPATH) it counts that commit's games
with that commit's rules::

    python benchmarks/bot_wastes.py runs/x/games.jsonl
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from wayfarers_env import Game
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.dice import TradeGuild
from wayfarers_env.rules.state import SUPPLY


@dataclass
class Wastes:
    """One seat's counts over one game (or summed over many)."""

    turns: int = 0  # its turns
    rests: int = 0  # rests chosen
    rest_with_die: int = 0  # rests chosen while placing a die was legal
    rest_with_dice: int = 0  # ... while 2+ supply dice could be placed (no resting abilities either)
    yellow: int = 0  # Trade guild uses
    yellow_idle: int = 0  # ... after which every die shows what it showed before paying
    yellow_then_rest: int = 0  # ... at the start of a turn that then rested (the rest rerolls the changed dice)
    triggers: int = 0  # games in which it triggered the end
    trigger_behind: int = 0  # ... while behind on VP at the end of the triggering turn
    trigger_behind_lost: int = 0  # ... and then lost

    def add(self, other: Wastes) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class WasteWatch:
    """Counts each seat's wastes in one game (see the module docstring for how to call it)."""

    def __init__(self, game: Game):
        self.game = game
        self.seats = [Wastes() for _ in range(game.num_players)]
        self._yellow: tuple[int, list[int], bool] | None = None  # (seat, dice faces when paid, at turn start), this turn
        self._judged = False  # the Trade guild's changes of this turn are over and counted
        self._trigger: tuple[int, int] | None = None  # (seat, turn) of the triggering turn, until it ends
        self._behind = -1  # the seat that triggered the end while behind
        self._end_before = -1
        self._turn = -1

    def before(self, action: int) -> None:
        g = self.game.state
        seat = g.current
        w = self.seats[seat]
        kind = self.game.decision()[0]
        if g.turn != self._turn:
            self._turn = g.turn
            w.turns += 1
        if kind == "turn" and action == CATALOG.REST:
            w.rests += 1
            legal = self.game.cached_legal()
            if any(a in CATALOG.DIE for a in legal):
                w.rest_with_die += 1
                p = g.players[seat]
                placeable = sum(1 for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY and CATALOG.DIE[p.dice_face[d] - 1] in legal)
                if placeable >= 2:
                    w.rest_with_dice += 1
            if self._yellow is not None and self._yellow[0] == seat and self._yellow[2]:
                w.yellow_then_rest += 1
        if action == CATALOG.YELLOW and kind in ("turn", "die_space"):
            w.yellow += 1
            self._yellow = (seat, list(g.players[seat].dice_face), kind == "turn")
            self._judged = False
        self._end_before = g.end_trigger

    def after(self) -> None:
        g = self.game.state
        if self._yellow is not None:
            seat, faces, _start = self._yellow
            if not self._judged and not any(type(f) is TradeGuild for f in g.stack):
                self._judged = True
                if g.players[seat].dice_face == faces:
                    self.seats[seat].yellow_idle += 1
            if g.over or g.turn != self._turn:
                self._yellow = None
        if self._end_before < 0 <= g.end_trigger:
            self._trigger = (g.end_trigger, g.turn)
            self.seats[g.end_trigger].triggers += 1
        if self._trigger is not None and (g.over or g.turn != self._trigger[1]):
            seat = self._trigger[0]
            totals = [s["total"] for s in self.game.scores()]
            if totals[seat] < max(t for k, t in enumerate(totals) if k != seat):
                self.seats[seat].trigger_behind += 1
                self._behind = seat
            self._trigger = None
        if g.over and self._behind >= 0:
            if self._behind not in self.game.winners():
                self.seats[self._behind].trigger_behind_lost += 1
            self._behind = -1


COLUMNS = (
    ("rests", "rests"),
    ("rest_with_die", "rests with a placeable die"),
    ("rest_with_dice", "... with 2+"),
    ("yellow", "Trade guild uses"),
    ("yellow_idle", "... changing nothing"),
    ("yellow_then_rest", "... then resting"),
    ("triggers", "triggers the end"),
    ("trigger_behind", "... while behind"),
    ("trigger_behind_lost", "... and lost"),
)


def replay_counts(path: str) -> tuple[dict[str, Wastes], dict[str, int]]:
    """Each bot's wastes over the games of a ``simulate`` games.jsonl, replayed on the engine that
    is imported (so a checkout of an older commit counts its own games with its own rules)."""
    import json

    per: dict[str, Wastes] = {}
    games: dict[str, int] = {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            record = json.loads(line)
            game = Game(record["config"], record["seed"])
            watch = WasteWatch(game)
            for action in record["actions"]:
                watch.before(action)
                game.apply(action)
                watch.after()
            for seat, name in enumerate(record["players"]):
                per.setdefault(name, Wastes()).add(watch.seats[seat])
                games[name] = games.get(name, 0) + 1
    return per, games


def table(per: dict[str, Wastes], games: dict[str, int]) -> str:
    rows = ["| bot | games | turns | " + " | ".join(title for _, title in COLUMNS) + " |", "|---" * (len(COLUMNS) + 3) + "|"]
    for name in sorted(per):
        w = per[name].as_dict()
        rows.append(f"| {name} | {games[name]} | {w['turns']} | " + " | ".join(str(w[key]) for key, _ in COLUMNS) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """``python benchmarks/bot_wastes.py GAMES.jsonl``: the wastes table of a simulate run."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("error: give one games.jsonl written by wayfarers simulate", file=sys.stderr)
        return 2
    try:
        per, games = replay_counts(args[0])
    except (OSError, ValueError, KeyError, TypeError) as e:  # the engine's IllegalActionError is a ValueError
        print(f"error: {args[0]}: cannot replay it as a games.jsonl of wayfarers simulate on this engine ({e})", file=sys.stderr)
        return 2
    print(table(per, games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
