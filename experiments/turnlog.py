"""One line per turn, in words: who did what, and their VP after it (play's summary of the other
players' moves, replay's default output).

A turn is a run of decisions (a die, where it goes, each part of its action, a fee, a tile's
place...). ``TurnLog.apply`` describes each action in the situation it was taken (``options``)
before applying it, keeps the short forms worth reading, and closes the turn's line when the
next turn begins. A solo game's AI plays inside the player's last action: its line comes from
``solo.describe`` (``solo_text.ai_line``).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from wayfarers_env import Game
from wayfarers_env.rules import solo
from wayfarers_env.rules.actions import CATALOG

from . import solo_text
from .options import describe

WIDTH = 100  # a line of the log fits a 100-column terminal
MAX_LINES = 3  # a turn never takes more (issue 15: replay output bounded per turn)


@dataclass
class Entry:
    turn: int  # 0-based, as the engine counts; shown 1-based
    seat: int
    parts: list[str] = field(default_factory=list)
    vp: int | None = None  # the seat's VP once the turn is over
    ai: str = ""  # a solo game: what the AI did after this turn
    asked: bool = False  # a solo game: the AI's turn, in which it asked the player (ai_wants)
    pending: bool = False  # the last part named an icon whose own decision followed: its words replace it


@dataclass
class TurnLog:
    names: list[str]
    entries: list[Entry] = field(default_factory=list)

    def apply(self, game: Game, action: int, note: str | None = None) -> str:
        """Describe ``action``, apply it, and return its short form ('' when not worth a mention)."""
        g = game.state
        turn = g.turn
        if not self.entries or self.entries[-1].turn != turn or self.entries[-1].vp is not None:
            asked = game.config.solo and game.decision()[0] == solo_text.WANTS
            self.entries.append(Entry(turn, game.current_player, asked=asked))
        entry = self.entries[-1]
        short = note if note is not None else describe(game, action)[1]
        if short and entry.pending:
            entry.parts[-1] = short  # 'a Townsfolk' then 'took Scholar for 1 silver': the second says it
        elif short:
            entry.parts.append(short)
        entry.pending = False
        leaf = action in CATALOG.LEAF
        before = solo.snapshot(g) if game.config.solo else None
        game.apply(action)
        entry.pending = bool(short) and leaf and not game.is_over and g.turn == turn and game.decision()[0] != "effect"
        if g.turn != turn or game.is_over:
            entry.vp = game.scores()[entry.seat]["total"]
        if before is not None and solo_text.ai_moved(game, turn):
            entry.ai = solo_text.ai_line(game, before)
        return short

    def line(self, entry: Entry) -> str:
        """'-- turn 3: seat 1 (greedy), 7 VP after: die 4; on Harbour 8; ...', wrapped to at most MAX_LINES."""
        who = f"the AI's turn, {self.names[entry.seat]} answers it" if entry.asked else f"seat {entry.seat} ({self.names[entry.seat]})"
        vp = f"{entry.vp} VP after" if entry.vp is not None else "turn in progress"
        body = "; ".join(entry.parts) or "nothing"
        lines = textwrap.wrap(f"-- turn {entry.turn + 1}: {who}, {vp}: {body}", WIDTH, subsequent_indent="     ")
        if len(lines) > MAX_LINES:
            lines = lines[:MAX_LINES]
            lines[-1] = lines[-1][: WIDTH - 2] + " …"
        return "\n".join(lines)

    def text(self, entry: Entry) -> str:
        """The turn's line, and the AI's line after it in a solo game."""
        return self.line(entry) + (f"\n   {entry.ai}" if entry.ai else "")

    def since(self, start: int, skip_seat: int | None = None) -> list[str]:
        """The finished turns from entry ``start`` on (not those of ``skip_seat``, whose AI lines still show)."""
        out = []
        for entry in self.entries[start:]:
            if entry.vp is None and not entry.ai:
                continue
            if entry.seat == skip_seat:
                if entry.ai:
                    out.append(f"   {entry.ai}")
                continue
            out.append(self.text(entry))
        return out
