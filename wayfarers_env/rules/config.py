"""How a game is set up: ``GameConfig`` and the error a bad one raises."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Literal

from wayfarers_env.vocabulary import (
    BOARD_SECTIONS,
    BOARD_SIDES,
    CARD_INFLUENCE,
    CONTENT_OPTIONS,
    EXTENSIONS,
    MAX_PLAYERS,
    TIDES_OF_TRADE,
)

AI_BOARDS = ("Stargazer", "Inventor", "Mayor", "Wayfarer")  # the solo AI boards 1-4 (solo.toml's names)


class ConfigError(ValueError):
    """A bad GameConfig; the message names the field and what is allowed."""


@dataclass(frozen=True)
class GameConfig:
    """How a game is set up.

    ``board_sides``: "random" (each main-board section independently, as the rulebook allows)
    or three letters "a"/"b" for sections 1-3, e.g. "aba". ``player_boards``: "random" or a
    list of board numbers 1-4, one per seat. ``auto_forced``: apply a decision automatically
    when it has exactly one legal option (off by default, so every rules choice is visible).
    ``max_turns``: a safety net the rulebook does not have. If nobody has reached a final
    journal space after this many player turns (it can happen when every deck runs dry and no
    route is open), the game ends and is scored as it stands (``Game.ended_by_turn_limit``).
    ``tides_of_trade``: play with the Tides of Trade expansion (off by default: the base game).
    ``card_influence``: with the expansion, where card influence may go (its rulebook's
    "Alternative Rules"): "both" (the default: cards or the Ink Well), "ink_well" (only the Ink
    Well) or "cards" (only cards, as in the base game). ``extension_sides``: "random" or two
    letters a/b for the expansion's two main-board extensions. ``solo_ai_board``: with
    ``num_players=1``, the AI board 1-4 the solo AI plays (1 Stargazer, 2 Inventor, 3 Mayor, 4
    Wayfarer); the AI takes the second seat, so a solo game has two seats (``seats``).
    """

    num_players: int = 2
    board_sides: str = "random"
    player_boards: Literal["random"] | tuple[int, ...] = "random"
    content_options: frozenset[str] = field(default_factory=frozenset)
    auto_forced: bool = False
    max_turns: int = 2000
    tides_of_trade: bool = False
    card_influence: str = "both"
    extension_sides: str = "random"
    solo_ai_board: int | None = None

    def __post_init__(self) -> None:
        n = self.num_players
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_PLAYERS:
            allowed = ", ".join(map(str, range(1, MAX_PLAYERS))) + f" or {MAX_PLAYERS}"
            raise ConfigError(f"num_players must be {allowed} (1: a solo game against the AI, with solo_ai_board), got {n!r}")
        ai = self.solo_ai_board
        if n == 1 and (not isinstance(ai, int) or isinstance(ai, bool) or not 1 <= ai <= len(AI_BOARDS)):
            raise ConfigError(f"a solo game (num_players=1) needs solo_ai_board 1-{len(AI_BOARDS)} ({', '.join(AI_BOARDS)}), got {ai!r}")
        if n != 1 and ai is not None:
            raise ConfigError(f"solo_ai_board is for solo games only: set num_players=1 (got num_players={n!r})")
        sides = self.board_sides
        if not isinstance(sides, str) or not (sides == "random" or (len(sides) == BOARD_SECTIONS and set(sides) <= set(BOARD_SIDES))):
            raise ConfigError(
                f"board_sides must be 'random' or {BOARD_SECTIONS} letters {'/'.join(BOARD_SIDES)} for sections 1-{BOARD_SECTIONS} "
                f"(e.g. 'aba'), got {sides!r}"
            )
        pb = self.player_boards
        if isinstance(pb, list):
            object.__setattr__(self, "player_boards", tuple(pb))
            pb = self.player_boards
        if pb != "random":
            if (
                not isinstance(pb, tuple)
                or len(pb) != self.num_players
                or any(not isinstance(b, int) or not 1 <= b <= MAX_PLAYERS for b in pb)  # one player board per seat in the box
                or len(set(pb)) != len(pb)
            ):
                raise ConfigError(f"player_boards must be 'random' or {self.num_players} different board numbers 1-4, got {pb!r}")
            if n == 1 and pb[0] == ai:
                raise ConfigError(f"player_boards: board {ai} is turned over as the AI's board (solo_ai_board); choose another")
        opts = frozenset(self.content_options)
        object.__setattr__(self, "content_options", opts)
        if opts - set(CONTENT_OPTIONS):
            raise ConfigError(f"unknown content_options {sorted(opts)}; allowed: {', '.join(CONTENT_OPTIONS)}")
        if not isinstance(self.auto_forced, bool):
            raise ConfigError(f"auto_forced must be True or False, got {self.auto_forced!r}")
        if not isinstance(self.max_turns, int) or isinstance(self.max_turns, bool) or self.max_turns < 1:
            raise ConfigError(f"max_turns must be a positive int, got {self.max_turns!r}")
        if not isinstance(self.tides_of_trade, bool):
            raise ConfigError(f"tides_of_trade must be True or False, got {self.tides_of_trade!r}")
        if self.card_influence not in CARD_INFLUENCE:
            raise ConfigError(f"card_influence must be one of {', '.join(CARD_INFLUENCE)}, got {self.card_influence!r}")
        ext = self.extension_sides
        if not isinstance(ext, str) or not (ext == "random" or (len(ext) == EXTENSIONS and set(ext) <= set(BOARD_SIDES))):
            raise ConfigError(f"extension_sides must be 'random' or {EXTENSIONS} letters {'/'.join(BOARD_SIDES)} (e.g. 'ab'), got {ext!r}")
        if not self.tides_of_trade and (self.card_influence != "both" or ext != "random"):
            raise ConfigError("card_influence and extension_sides belong to the Tides of Trade expansion: set tides_of_trade=True")

    @property
    def seats(self) -> int:
        """Seats at the table: the players, and the solo AI's seat in a solo game."""
        return 2 if self.num_players == 1 else self.num_players

    @property
    def solo(self) -> bool:
        return self.num_players == 1

    def content(self) -> frozenset[str]:
        """The content this game loads: its content options, and the whole expansion when on."""
        return self.content_options | ({TIDES_OF_TRADE} if self.tides_of_trade else set())

    def to_dict(self) -> dict[str, Any]:
        d = {
            "num_players": self.num_players,
            "board_sides": self.board_sides,
            "player_boards": self.player_boards if self.player_boards == "random" else list(self.player_boards),
            "content_options": sorted(self.content_options),
            "auto_forced": self.auto_forced,
            "max_turns": self.max_turns,
            "tides_of_trade": self.tides_of_trade,
            "card_influence": self.card_influence,
            "extension_sides": self.extension_sides,
        }
        if self.solo_ai_board is not None:  # only solo games carry it: other records stay as they were
            d["solo_ai_board"] = self.solo_ai_board
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameConfig:
        if not isinstance(d, dict):
            raise ConfigError(f"a config must be a dict, got {type(d).__name__}")
        allowed = {f.name for f in fields(cls)}
        unknown = set(d) - allowed
        if unknown:
            raise ConfigError(f"unknown config field(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
        d = dict(d)
        if "content_options" in d:
            d["content_options"] = frozenset(d["content_options"])
        if isinstance(d.get("player_boards"), list):
            d["player_boards"] = tuple(d["player_boards"])
        return cls(**d)
