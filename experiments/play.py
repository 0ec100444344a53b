"""``wayfarers play``: a person plays in the terminal against bots (or watches bots play).

A person who knows the game should never need the data files (issue 15). At the start of each of
their turns the screen shows what the other players did since their last turn (one line a turn,
``turnlog``), then the table in at most 50 lines of 100 columns (``table``). Each decision lists
its options in the game's words (``options``: the card with its price and text, the die space
with what the die would do there, the journal space with its reward and splotch), numbered
stably (abilities after the main options, 0 to decline or skip), and says why an option one might
look for is not offered (``reasons``). ``undo`` takes back the person's last decision: a copy of
the game (and of the bots' random generators, so they answer the same way again) is kept before
each of their decisions.

The automatic moves (on unless ``--no-auto``; ``a`` switches them) are for people only: a
decision with one option is taken, and a part of an effect that only gives silver or provisions
is taken at once (more silver or provisions never closes another option). Bots and the
environment still see every decision; a game played so is the same game, action for action.

Answers are numbers in ASCII digits or the letters the help lists. Anything else (an empty line,
'²', bytes that are not text) is asked again, and end of input or Ctrl-C ends the session
cleanly, so a typo never costs a game.

A solo game (``--solo-board``) seats one person or bot against the rulebook's AI: what the AI did
follows the turn that let it play (``solo_text.ai_line``), and the one decision it hands the
player (let it take a card you influenced, or deny it) is explained with the card it is about.
"""

from __future__ import annotations

import copy
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from agents.base import choose
from agents.registry import UnknownBotError, make_bot
from wayfarers_env import ConfigError, Game, GameConfig
from wayfarers_env.content.effects import Atom
from wayfarers_env.rules import bag, icons
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.state import RESERVE, SUPPLY
from wayfarers_env.vocabulary import GUILDS

from . import solo_text
from .cli import game_options
from .options import context, options, title
from .reasons import missing
from .replay import score_table
from .table import compact_table, journal_view, market_view, players_view
from .tournament import derive_seed
from .turnlog import Entry, TurnLog

HUMAN = "human"
QUIT = ("q", "quit", "exit")
CHOICE = re.compile("[0-9]{1,6}")  # ASCII digits only: str.isdigit() also accepts '²', which int() refuses
SHOWN_REASONS = 8  # reasons listed with the options; 'l' lists them all
HELP = "type the number of an option (0 declines or skips); u undoes your last decision; t shows the table; ? explains more; q quits"
MORE_HELP = """commands:
  1, 2, ...  the option of that number; 0 declines the rest of an effect or skips
  u, undo    take back your last decision (again and again, back to your first)
  t, s       the table again; f the full table (every card on a line of its own)
  m          the market's cards in full, with their worker spots
  j          the journal track: every space's reward and the splotches after it
  p          every panorama (cards above and under each other) and caravan grid
  l          the options again, with every reason an option is missing
  a          automatic moves on or off (forced decisions; silver and provisions taken at once)
  q          quit
the table:
  market: Ns a price in silver, +Y/+B/+G a yellow/blue/green worker on the card,
          @P player P's influence on it (pay P 1 silver or 1 provision to use it)
  journal grid: J journal tile, g green worker still there, I Inspiration card, d new die,
          S special tile, F final space (ends the game); digits: the players standing there
  players: > to play; caravan 1:... 6: what a die of each face brings (+1/-1 arrows, $off/p-off discounts)"""


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
        f"  dice (face, @space if placed): {' '.join(dice)}",
        f"  land: {', '.join(name(c) for c in p.land) or '-'}; water: {', '.join(name(c) for c in p.water) or '-'}",
        f"  space cards: {len(p.above)}, townsfolk: {len(p.tucked)}, tiles: {len(p.tiles)}, VP now: {game.scores()[seat]['total']}",
    ]
    for row, label in enumerate(("townsfolk", "land", "water", "space", "inspiration")):
        cards = [name(g.market[row * 4 + s]) for s in range(4)]
        lines.append(f"  market {label:<11}: " + " | ".join(cards))
    return "\n".join(lines)


def _renderer() -> Callable[..., str] | None:
    """The full table (one card a line), when wayfarers_env.envs.render exists."""
    try:
        from wayfarers_env.envs.render import render_text
    except ImportError:
        return None
    return render_text


def auto_action(game: Game) -> int | None:
    """The action the automatic moves take for a person, or None to ask them: the only option of
    a decision, or a part of an effect that only gives silver or provisions (taken before the rest:
    more of them never closes an option)."""
    legal = game.legal_actions()
    if len(legal) == 1:
        return legal[0]
    kind, frame = game.decision()
    if kind == "effect":
        for item in frame.items:  # type: ignore[attr-defined]  # an effect decision's frame is an EffectBag
            if isinstance(item, Atom) and icons.always_atom(item):
                leaf = CATALOG.LEAF[bag.atom_leaf(item)]
                if leaf in legal:
                    return leaf
    return None


@dataclass
class Snapshot:
    """Everything an undo puts back: the game, the bots' generators, the log, what was shown."""

    game: Game
    rngs: list[object]
    entries: list[Entry]
    seen: dict[int, int]
    shown: dict[int, int]


@dataclass
class Session:
    names: list[str]
    game: Game
    ask: Callable[[str], str]
    out: TextIO
    auto: bool = True
    bots: list = field(default_factory=list)
    rngs: list[random.Random] = field(default_factory=list)
    log: TurnLog = field(init=False)
    seen: dict[int, int] = field(default_factory=dict)  # per person: log entries already summarised to them
    shown: dict[int, int] = field(default_factory=dict)  # per person: the turn whose table they were shown
    undo: list[Snapshot] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.log = TurnLog(self.names)

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    # -- the game loop
    def run(self) -> Game | None:
        people = HUMAN in self.names
        while not self.game.is_over:
            seat = self.game.current_player
            bot = self.bots[seat]
            if bot is not None:
                done = len([e for e in self.log.entries if e.vp is not None])
                self.log.apply(self.game, choose(bot, self.game, self.rngs[seat]))
                if not people:
                    for entry in [e for e in self.log.entries if e.vp is not None][done:]:
                        self.say(self.log.text(entry))
                continue
            self.turn_start(seat)
            if self.auto:
                action = auto_action(self.game)
                if action is not None:
                    opts = {o.action: o for o in options(self.game)}
                    short = self.log.apply(self.game, action)
                    self.say(f"   auto: {short or opts[action].text}")
                    continue
            answer = self.decide(seat)
            if answer is None:
                return None
            if answer >= 0:
                self.log.apply(self.game, answer)
        for seat, name in enumerate(self.names):
            if name == HUMAN:
                self.summary(seat)
        self.say()
        self.say(compact_table(self.game, None, self.names))
        self.say(score_table(self.game, self.names))
        return self.game

    def summary(self, seat: int) -> None:
        """The turns of the others since this person last saw the log."""
        start = self.seen.get(seat, 0)
        for line in self.log.since(start, skip_seat=seat):
            self.say(line)
        self.seen[seat] = len([e for e in self.log.entries if e.vp is not None])

    def turn_start(self, seat: int) -> None:
        g = self.game.state
        if self.shown.get(seat) == g.turn:
            return
        self.shown[seat] = g.turn
        self.say()
        self.summary(seat)
        asked = self.game.config.solo and self.game.decision()[0] == solo_text.WANTS
        whose = f"the AI's turn; it asks seat {seat} ({self.names[seat]})" if asked else f"seat {seat} ({self.names[seat]})"
        self.say(f"== turn {g.turn + 1}: {whose}")
        if asked:
            self.say(f"   {solo_text.wants(self.game)}")
        else:
            self.say(compact_table(self.game, seat, self.names))

    # -- one decision of a person
    def show(self, seat: int, every_reason: bool = False) -> list:
        opts = options(self.game)
        self.say(f"decision: {title(self.game)}")
        for line in context(self.game):
            self.say(f"   {line}")
        for o in opts:
            self.say(f"  {o.key:>3}. {o.text}")
        why = missing(self.game)
        if why:
            self.say("   not offered:")
            shown = why if every_reason else why[:SHOWN_REASONS]
            for line in shown:
                self.say(f"     - {line}")
            if len(why) > len(shown):
                self.say(f"     ... and {len(why) - len(shown)} more (l lists them all)")
        return opts

    def decide(self, seat: int) -> int | None:
        """The action the person picks (-1 after an undo), or None to quit."""
        self.undo.append(
            Snapshot(
                self.game.clone(), [r.getstate() for r in self.rngs], copy.deepcopy(self.log.entries), dict(self.seen), dict(self.shown)
            )
        )
        opts = self.show(seat)
        keys = {o.key: o.action for o in opts}
        main = max((o.key for o in opts), default=0)
        span = f"1-{main}" if main else "0"
        prompt = f"seat {seat}, choose {span}{' or 0' if main and 0 in keys else ''} (? for help): "
        while True:
            try:
                answer = self.ask(prompt).strip().lower()
            except UnicodeDecodeError:  # bytes that are not text in the terminal's encoding
                self.say(f"not a choice: the answer is not readable text; {HELP}")
                continue
            if answer in QUIT:
                return None
            if answer in ("?", "h", "help"):
                self.say(MORE_HELP)
            elif answer in ("l", "list"):
                self.show(seat, every_reason=True)
            elif answer in ("t", "s", "table", "show"):
                self.say(compact_table(self.game, seat, self.names))
            elif answer in ("f", "full"):
                render = _renderer()
                self.say(render(self.game, seat) if render else panorama(self.game, seat))
            elif answer in ("m", "market"):
                self.say(market_view(self.game))
            elif answer in ("j", "journal"):
                self.say(journal_view(self.game))
            elif answer in ("p", "players"):
                self.say(players_view(self.game, self.names))
            elif answer in ("a", "auto"):
                self.auto = not self.auto
                self.say(f"automatic moves {'on' if self.auto else 'off'}")
            elif answer in ("u", "undo"):
                if self.take_back():
                    return -1
                self.say("nothing to undo: this is your first decision")
            elif CHOICE.fullmatch(answer) and int(answer) in keys:
                return keys[int(answer)]
            else:
                self.say(f"not a choice: {answer[:40]!r}; {HELP}")

    def take_back(self) -> bool:
        """Back to the person's decision before this one (False when there is none)."""
        if len(self.undo) < 2:
            return False
        self.undo.pop()  # this decision's copy
        snap = self.undo.pop()  # the one before: asked again, and copied again then
        self.game = snap.game
        for r, state in zip(self.rngs, snap.rngs):
            r.setstate(state)  # type: ignore[arg-type]  # a Random's own getstate()
        self.log.entries = snap.entries
        self.seen, self.shown = snap.seen, snap.shown
        g = self.game.state
        self.say(f"undone: back to turn {g.turn + 1}, {title(self.game)}")
        return True


def play(
    names: list[str],
    seed: int,
    ask: Callable[[str], str] | None = None,
    out: TextIO | None = None,
    config: GameConfig | None = None,
    auto: bool = True,
) -> Game | None:
    """Play one game (``config``: the base game for ``len(names)`` players unless given);
    returns it (over), or None if a person quit."""
    game = Game(config or GameConfig(num_players=len(names)), seed)
    bots = [None if n == HUMAN else make_bot(n) for n in names]
    rngs = [random.Random(derive_seed("play", seed, seat)) for seat in range(len(names))]
    return Session(names, game, ask or input, out or sys.stdout, auto, bots, rngs).run()


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
    options_ = game_options(args)
    seats = {"num_players": 1, "solo_ai_board": board} if board is not None else {"num_players": len(names)}
    try:
        for n in names:
            if n != HUMAN:
                make_bot(n)
        config = GameConfig(**seats, **options_)
    except (UnknownBotError, ConfigError, FileNotFoundError, ImportError) as exc:
        return _fail(f"{exc} (or 'human' for a person)")
    try:
        game = play(names, args.seed, ask, out, config, auto=not getattr(args, "no_auto", False))
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
