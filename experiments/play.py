"""``wayfarers play``: a person plays in the terminal against bots (or watches bots play).

Every decision of a human seat is shown as a numbered list of the legal actions in words
(``describe_action``); the person answers with a number in ASCII digits. Anything else (an empty
line, '²', bytes that are not text) is asked again, and end of input or Ctrl-C ends the session
cleanly, so a typo never costs a game.

A solo game (``--solo-board``) seats one person or bot against the rulebook's AI: after each of
the player's actions that let the AI play, one line says what it did (``solo.describe``), and the
one decision it hands the player (let it take a card you influenced, or deny it) is explained
with the card it is about before the choices are listed.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from typing import TextIO

from agents.base import choose
from agents.registry import UnknownBotError, make_bot
from wayfarers_env import ConfigError, Game, GameConfig, describe_action
from wayfarers_env.rules import solo
from wayfarers_env.rules.state import RESERVE, SUPPLY
from wayfarers_env.vocabulary import GUILDS

from . import solo_text
from .cli import game_options
from .replay import score_table
from .tournament import derive_seed

HUMAN = "human"
QUIT = ("q", "quit", "exit")
CHOICE = re.compile("[0-9]{1,6}")  # ASCII digits only: str.isdigit() also accepts '²', which int() refuses
HELP = "type the number of an action; 'l' lists them again, 's' shows the table, 'q' quits"


def _renderer() -> Callable[..., str] | None:
    try:
        from wayfarers_env.envs.render import render_text
    except ImportError:
        return None
    return render_text


def panorama(game: Game, seat: int) -> str:
    """What a seat can see of its own position and the market, for when no renderer exists."""
    g = game.state
    t = g.tables
    p = g.players[seat]
    name = lambda c: t.cards[c].name if c >= 0 else "-"  # noqa: E731
    dice = [f"{p.dice_face[d]}" if loc == SUPPLY else f"{p.dice_face[d]}@{loc}" for d, loc in enumerate(p.dice_loc) if loc != RESERVE]
    lines = [
        f"seat {seat}: {p.silver} silver, {p.provisions} provisions, influence {'/'.join(GUILDS)} {p.guild} "
        f"({p.supply} in supply), workers yellow/blue/green {p.workers}",
        f"  dice (face, @space if placed): {' '.join(dice)}; journal at {t.nodes[p.node].id}",
        f"  land: {', '.join(name(c) for c in p.land) or '-'}; water: {', '.join(name(c) for c in p.water) or '-'}",
        f"  space cards: {len(p.above)}, townsfolk: {len(p.tucked)}, tiles: {len(p.tiles)}, VP now: {game.scores()[seat]['total']}",
    ]
    for row, label in enumerate(("townsfolk", "land", "water", "space", "inspiration")):
        cards = [name(g.market[row * 4 + s]) for s in range(4)]
        lines.append(f"  market {label:<11}: " + " | ".join(cards))
    return "\n".join(lines)


def show_choices(game: Game, legal: list[int], out: TextIO) -> None:
    kind, _params = game.decision()
    print(f"decision: {kind.replace('_', ' ')}", file=out)
    for i, action in enumerate(legal, start=1):
        print(f"  {i:>3}. {describe_action(action)}", file=out)


def ask_human(game: Game, seat: int, ask: Callable[[str], str], out: TextIO) -> int | None:
    """The action a person picks, or None to quit. Re-asks until the answer is a listed number."""
    legal = game.legal_actions()
    show_choices(game, legal, out)
    while True:
        try:
            answer = ask(f"seat {seat}, choose 1-{len(legal)} (? for help): ").strip().lower()
        except UnicodeDecodeError:  # bytes that are not text in the terminal's encoding
            print(f"not a choice: the answer is not readable text; {HELP}", file=out)
            continue
        if answer in QUIT:
            return None
        if answer in ("?", "h", "help"):
            print(HELP, file=out)
            continue
        if answer in ("l", "list"):
            show_choices(game, legal, out)
            continue
        if answer in ("s", "show"):
            render = _renderer()
            print(render(game, seat) if render else panorama(game, seat), file=out)
            continue
        if CHOICE.fullmatch(answer) and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        print(f"not a choice: {answer[:40]!r}; {HELP}", file=out)


def play(
    names: list[str], seed: int, ask: Callable[[str], str] | None = None, out: TextIO | None = None, config: GameConfig | None = None
) -> Game | None:
    """Play one game (``config``: the base game for ``len(names)`` players unless given);
    returns it (over), or None if a person quit."""
    ask = ask or input
    out = out or sys.stdout
    game = Game(config or GameConfig(num_players=len(names)), seed)
    bots = [None if n == HUMAN else make_bot(n) for n in names]
    rngs = [random.Random(derive_seed("play", seed, seat)) for seat in range(len(names))]
    render = _renderer()
    turn = -1
    while not game.is_over:
        seat = game.current_player
        bot = bots[seat]
        asked = game.config.solo and game.decision()[0] == solo_text.WANTS
        if game.state.turn != turn:
            turn = game.state.turn
            whose = f"the AI's turn; it asks seat {seat} ({names[seat]})" if asked else f"seat {seat} ({names[seat]})"
            print(f"\n== turn {turn + 1}: {whose}", file=out)
            if bot is None and not asked:
                print(render(game, seat) if render else panorama(game, seat), file=out)
        if asked:
            print(f"   {solo_text.wants(game)}", file=out)
        before = solo.snapshot(game.state) if game.config.solo else None
        if bot is None:
            action = ask_human(game, seat, ask, out)
            if action is None:
                return None
        else:
            action = choose(bot, game, rngs[seat])
            print(f"   {names[seat]}: {describe_action(action)}", file=out)
        game.apply(action)
        if before is not None and solo_text.ai_moved(game, turn):
            print(f"   {solo.describe(game.state, before)}", file=out)
    print(file=out)
    if render is not None:
        print(render(game), file=out)
    print(score_table(game, names), file=out)
    return game


def run(args, ask: Callable[[str], str] | None = None, out: TextIO | None = None) -> int:
    ask = ask or input
    out = out or sys.stdout
    names = [n.strip().lower() for n in str(args.players).split(",") if n.strip()]
    board = getattr(args, "solo_board", None)
    if board is not None and len(names) != 1:
        return _fail(f"--solo-board is a game of one player against the solo AI: give one name in --players, got {len(names)}")
    if board is None and len(names) == 1:
        return _fail(f"--players names one player ({names[0]}): give 2 to 4 names, or one and --solo-board 1-4 to play the solo AI")
    if not 1 <= len(names) <= 4:
        return _fail(f"--players needs 2 to 4 names (human or a bot), got {len(names)}")
    options = game_options(args)
    seats = {"num_players": 1, "solo_ai_board": board} if board is not None else {"num_players": len(names)}
    try:
        for n in names:
            if n != HUMAN:
                make_bot(n)
        config = GameConfig(**seats, **options)
    except (UnknownBotError, ConfigError, FileNotFoundError, ImportError) as exc:
        return _fail(f"{exc} (or 'human' for a person)")
    try:
        game = play(names, args.seed, ask, out, config)
    except EOFError:
        print("\ngame abandoned (end of input)", file=out)
        return 0
    except KeyboardInterrupt:
        print("\ngame abandoned (Ctrl-C)", file=out)
        return 0
    if game is None:
        print("game abandoned", file=out)
    return 0


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2
