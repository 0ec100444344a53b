"""Words for a person watching a solo game (``play``, ``replay``): what the AI did, what it wants.

The AI's turns run inside ``Game.apply``, between two of the player's decisions, so nothing in the
action list shows them; ``solo.snapshot``/``solo.describe`` summarise them in one line. The one
decision the AI hands the player, "ai_wants", only makes sense with the card it is about, which
its action names ("let the AI go ahead...") do not say: ``wants`` says it.
"""

from __future__ import annotations

from wayfarers_env import Game
from wayfarers_env.rules import solo
from wayfarers_env.vocabulary import ROWS, WORKER_COLOURS

from .cli import AI_BOARDS
from .describe import plain_ids

WANTS = "ai_wants"


def ai_label(game: Game) -> str:
    board = game.config.solo_ai_board
    assert board is not None, "a solo game has an AI board"
    return f"AI ({board} {AI_BOARDS[board - 1]})"


def ai_moved(game: Game, turn_before: int) -> bool:
    """Whether the AI may have played since the player's last action (same test as the golden
    solo playthroughs): a new turn began, the AI stopped to ask, or the game ended."""
    return game.state.turn != turn_before or game.decision()[0] == WANTS or game.is_over


def ai_line(game: Game, before: tuple) -> str:
    """What the AI did since ``before`` (a ``solo.snapshot``), its cards, tiles and journal space by name."""
    return plain_ids(solo.describe(game.state, before))


def wants(game: Game) -> str:
    """The ai_wants decision in words: the card the AI is after, what it means to do with it, and
    the price of each answer."""
    _kind, frame = game.decision()
    assert isinstance(frame, solo.AiWants), "asked outside the ai_wants decision"
    g = game.state
    # the card it goes for: its first choice not yet denied (solo.candidates orders them)
    i, colour = next(c for c in solo.candidates(g, frame.step) if c[0] not in frame.denied)
    slots = g.tables.slots
    card = g.tables.cards[g.market[i]]
    where = f"'{card.name}' ({ROWS[i // slots]} row, slot {i % slots + 1})"
    what = frame.step[0]
    if what == "card":
        deed = f"acquire {where}"
    elif what == "worker":
        deed = f"place its {WORKER_COLOURS[colour]} worker on {where}"
    else:
        deed = f"take its {WORKER_COLOURS[colour]} worker back from {where}"
    return (
        f"the AI wants to {deed}, which you influenced: let it and take 1 silver or 1 provision, "
        "or deny it by paying 1 silver or 1 provision (it then goes for its next choice)"
    )
