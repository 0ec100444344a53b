"""Information-set MCTS (``ismcts``): the cartographer's judgement, searched instead of read off.

Why this shape. The heuristic bots value each choice by one rule-played rollout to the end of
their own turn, in the one world their view happens to be, and never look at the reply. This bot
spends a fixed number of simulations per decision on a single-observer ISMCTS (Cowling, Powley &
Whitehouse 2012) whose rollouts are cut short and scored by the cartographer's evaluation:

* **Worlds.** Each iteration plays in one determinization of the bot's view (``view.sample``):
  deck orders and the game's dice are unknown to the seat, so a choice is judged over several
  possible futures, never the true one (the bot only ever touches its ``View``). A fresh
  determinization costs about three clones, so ``worlds`` of them are drawn per decision and
  iteration i plays in a clone of world i mod ``worlds``.
* **Tree.** One node per sequence of the seat's own choices from the decision asked, down to the
  end of its turn (a turn is a chain of small decisions: main action, die face, space, the order
  of a bag's parts, a card...). Only the kinds the strategies search (``strategies.SEARCHED``)
  branch; the other kinds, forced decisions and other seats' decisions are answered by the rule
  policy, which is cheap and what the rollouts assume anyway. A chance event (a card drawn) can
  change which actions exist, so selection is UCB1 over the children legal in this iteration's
  world, with *availability* counts in place of the parent's visits, as in ISMCTS.
* **Expansion.** A node's first new child is the one its rule would pick, so the first visit of a
  choice is valued exactly as the lookahead bots value it (the rule plays on); the other children
  follow in the rng's order.
* **Truncated rollouts.** After the expansion the rest of the seat's turn and ``reply`` more turns
  (default 1: the next player's reply) are played by the rule policies (``DefaultPolicy``: the
  cartographer's tastes for the seat, the neutral ones for the others), and the position is
  scored by ``evaluation.evaluate`` with the cartographer's ``Estimate`` for the searching seat,
  in VP units with the horizon of the root (as the lookahead bots do). A full playout would cost
  about a hundred times more; scoring after the reply lets the search see the card or space the
  opponent takes next and the opponent's last turn once the end is triggered.
* **Backup.** A node is worth its best child (its mean rollout value until it has children).
  Plain UCT averages every continuation tried, so a main action with many follow-ups looked worse
  than one with few; the turn is the seat's own to play, so the best line is its value. The max
  of a few noisy means runs high, the more so the more children share the visits, so
  ``backup=1`` takes the most visited child's value instead and ``backup=2`` the plain mean.
* **Scale.** Values are VP, not wins, so UCB normalises each value by the lowest and highest
  rollout value of this search before adding ``c`` times the exploration term.
* **Final choice.** The root child of highest value; ties go to more visits, then the lower id.

Cost and budget. One iteration costs about 0.3-0.6 ms of one core (a clone, a few dozen engine
steps and rule answers, one evaluation), so the default ``DEFAULT_SIMS`` keeps a searched
decision well under 0.1 s; forced decisions (one legal action) and the kinds the strategies leave
to rules cost no search. ``docs/RESULTS.md`` ("Search: ismcts") has the measured time per searched
decision and the results against ``cartographer``, with the commands.

Determinism. With ``sims`` alone the bot is a function of its view and the rng passed to
``decide``: the worlds and the order new children are tried in come from that rng, and the rule
policies consume none. ``time=SECONDS`` caps each search by the clock as well, which makes the
number of simulations, and so the choices, depend on the machine's speed: use it for play, not
for reproducible runs.

Guidance by a trained policy (``policy=PATH``, a MaskablePPO ``.zip`` such as ``wayfarers train``
or ``wayfarers imitate`` writes; needs the ``[train]`` extra). Two uses, each with its weight:

* **Prior** (``prior``, default 1): one forward pass per searched decision gives the policy's
  masked probabilities over the root's actions. The root's untried children are tried in the
  rule's, then the prior's order, and its selection adds the PUCT term (AlphaZero's)
  ``prior * P(a) * sqrt(N) / (1 + n(a))`` to the UCB score. Only the root: a pass per tree node
  would cost about as much as the simulations it steers.
* **Value** (``value``, default 0: off): each rollout's score gains ``value * win_bonus / 2 * v``
  VP, ``v`` the value head's estimate (-1 a sure loss .. +1 a sure win) for the searching seat at
  the rollout's end: +-1 spans one win bonus, as the evaluation's own win chance does. A forward
  pass per simulation (about 0.3 ms with the observation) roughly doubles a search's time.

The cartographer's search (``playout=cartographer``, ``top``, ``depth``, ``kinds``). The rule
policies that play the defaults above are cheap, but they are not the opponent the issue names,
and a search over every main action with few noisy rollouts keeps finding a poor action that got
lucky. These options turn the search into the one that measured strongest here (the ``rollout``
bot's recipe, docs/RESULTS.md "Rollout improvement"), with the tree's bandit in place of its
fixed, equal split of the budget:

* ``playout=cartographer``: the cartographer bot plays every seat in the tree's defaults and
  the rollouts (the seat's own decisions included), and answers the decisions the bot does not
  search. Its tie-breaking rng is reseeded from the world a simulation plays in, so with ``crn=1``
  every root child is played on in the same worlds by the same players.
* ``top=K``: the root offers only the cartographer's ``K`` best actions by its own values of
  that decision, those within ``margin`` VP (default 3) of its best, its own pick always among
  them (progressive widening by a heuristic, fixed at ``K``). One candidate: no search.
* ``depth=D``: a simulation branches in at most ``D`` tree levels and plays the rest out
  (``depth=1``: only the root branches; each root child is then valued by its rollouts' mean).
* ``kinds=turn``: only the main action is searched; the other decisions are answered by the
  cartographer (``playout=cartographer``) or the rule policy.

The configuration measured in docs/RESULTS.md ("Search: ismcts led by the cartographer") is
``ismcts:playout=cartographer:top=3:depth=1:crn=1:reply=2:kinds=turn:worlds=8:sims=24``.

Options, as a bot name: ``ismcts:sims=200``, ``ismcts:time=0.05``, ``ismcts:sims=300:c=1.0:reply=0``,
``ismcts:policy=models/x.zip:value=0.5``, ``ismcts:estimate=weights.json``, ``ismcts:crn=1``, ``ismcts:final=1``, ``ismcts:backup=1``
(``OPTIONS``; a path cannot hold ``:`` or ``,``); a bad key or value, ``prior``/``value`` without
a policy, or a missing or foreign model or estimate file is an ``UnknownBotError`` naming what is
allowed.

Tried and left out (40-game matches against ``cartographer``, within noise of the defaults or
worse): more simulations (180, 200), ``reply`` 0 or 2, branching on every decision kind, the
others played with the bot's own tastes, and the next player's main action branching as a
minimising node. Common worlds (``crn=1``: a root child's k-th visit plays in world k, so the
root's children are compared over the same deck orders and dice, as paired experiments compare
treatments; simulation i otherwise plays world i, so each child starts in another world) with the
default budget, and with 240 simulations over 16 worlds: level with the default on the same 50
paired deals, kept as an option. Playing the most visited root child instead of the highest
valued (``final=1``, the "robust child"): the two agree on almost every decision (UCB with the
default ``c`` spends most visits on the best-valued child), the same game on 29 of the 50 deals,
level. A node valued by its most visited child (``backup=1``) with ``c=1.0``: 58.0% of the 200
games it was picked on, 51.5% of 200 fresh ones, level; ``backup=2`` (the plain mean) 23.5% of
those fresh ones: the mean mixes in exploratory replies. docs/RESULTS.md ("Search: ismcts") has these and the guided search's results.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, fields, replace

from wayfarers_env import Game

from .base import InnerView, View
from .defaults import PLAIN, DefaultPolicy
from .evaluation import evaluate, horizon
from .lookahead import best_candidates
from .registry import UnknownBotError
from .strategies import SEARCHED, Cartographer

DEFAULT_SIMS = 120
MAX_ROLLOUT = 80  # decisions per turn played out; a turn never needs this many, it guards against a rule loop
BRANCHED = frozenset(SEARCHED)


@dataclass(frozen=True)
class Options:
    """The bot's knobs; each can be set from the bot's name (``ismcts:KEY=VALUE:...``)."""

    sims: int = DEFAULT_SIMS  # simulations per searched decision
    time: float = 0.0  # seconds per searched decision, 0: no clock (only then is play reproducible)
    c: float = 0.3  # UCB exploration, on values normalised to 0..1 within one search
    reply: int = 1  # turns after the seat's own played by rule before a rollout is scored
    worlds: int = 8  # determinizations drawn per decision
    policy: str = ""  # a MaskablePPO .zip whose policy and value guide the search ("": none)
    prior: float = 1.0  # with policy: weight of the policy's prior on the root's children (PUCT)
    value: float = 0.0  # with policy: weight of the policy's value at each rollout's end
    estimate: str = ""  # a JSON file of Estimate fields over the cartographer's (agents.estimate_file; "": its own)
    crn: int = 0  # 1: a root child's k-th visit plays in world k (the root's children valued over common worlds)
    final: int = 0  # the root child played: 0 the highest value, 1 the most visited (ties: value, then lower id)
    backup: int = 0  # a node's value once it has children: 0 its best child's, 1 its most visited child's, 2 its mean
    playout: str = "rule"  # who plays the tree's defaults and the rollouts: "rule" policies or "cartographer" bots
    top: int = 0  # the root offers only the cartographer's best ``top`` actions (0: every legal one)
    margin: float = 3.0  # with top: VP below the cartographer's best value that a root action may be
    depth: int = 0  # tree levels a simulation may branch in (0: no limit; 1: only the root)
    kinds: str = "all"  # decisions searched: "all" the kinds in SEARCHED, "turn" only the main action


# key: (type, lowest, highest, what the user is told)
OPTIONS: dict[str, tuple[type, float, float, str]] = {
    "sims": (int, 1, 1_000_000, "simulations per decision, a whole number 1..1000000"),
    "time": (float, 0.0, 3600.0, "seconds per decision, 0..3600 (0: no clock)"),
    "c": (float, 0.0, 100.0, "exploration constant, 0..100"),
    "reply": (int, 0, 8, "turns of the next players played out before scoring, 0..8"),
    "worlds": (int, 1, 1024, "determinizations per decision, 1..1024"),
    "policy": (str, 0, 0, "path of a MaskablePPO .zip (no ':' or ',' in it) whose policy and value guide the search"),
    "prior": (float, 0.0, 100.0, "weight of the policy's prior at the root, 0..100 (needs policy=)"),
    "value": (float, 0.0, 100.0, "weight of the policy's value at a rollout's end, 0..100 (needs policy=)"),
    "estimate": (str, 0, 0, "path of a JSON file of Estimate fields that score the rollouts (over the cartographer's)"),
    "crn": (int, 0, 1, "1: every root child is valued in the same worlds in the same order, 0: simulation i in world i"),
    "final": (int, 0, 1, "the root child played: 0 the highest value, 1 the most visited"),
    "backup": (int, 0, 2, "a node's value: 0 its best child's, 1 its most visited child's, 2 the mean of its rollouts"),
    "playout": (str, 0, 0, "who plays the rollouts: rule (the rule policies) or cartographer (the cartographer bot, every seat)"),
    "top": (int, 0, 64, "root actions searched, the cartographer's best first, 0..64 (0: all)"),
    "margin": (float, 0.0, 1000.0, "VP below the cartographer's best that a root action may be with top, 0..1000"),
    "depth": (int, 0, 64, "tree levels a simulation branches in, 0..64 (0: no limit, 1: the root only)"),
    "kinds": (str, 0, 0, "decisions searched: all (every kind in SEARCHED) or turn (the main action only)"),
}
CHOICES: dict[str, tuple[str, ...]] = {"playout": ("rule", "cartographer"), "kinds": ("all", "turn")}
PATHS = ("policy", "estimate")  # str options holding a file path, checked when the bot is built
GUIDED = ("prior", "value")  # options that only mean something with a policy


def allowed() -> str:
    return "; ".join(f"{k}={what}" for k, (_t, _lo, _hi, what) in OPTIONS.items())


def parse_options(text: str) -> Options:
    """``"sims=200:time=0.05"`` -> Options; an unknown key or a bad value raises UnknownBotError
    naming it and what is allowed, so a typo never silently plays the defaults."""
    opts = Options()
    seen: set[str] = set()
    for part in text.split(":"):
        part = part.strip()
        if not part:
            raise UnknownBotError(f"ismcts: empty option in {text!r}; write ismcts:KEY=VALUE[:KEY=VALUE...] with {allowed()}")
        key, eq, raw = part.partition("=")
        key, raw = key.strip().lower(), raw.strip()
        if key not in OPTIONS:
            raise UnknownBotError(f"ismcts: unknown option {key!r}; allowed options: {allowed()}")
        if not eq or not raw:
            raise UnknownBotError(f"ismcts: option {key!r} needs a value, e.g. {key}={getattr(Options(), key)}")
        if key in seen:
            raise UnknownBotError(f"ismcts: option {key!r} is given twice")
        seen.add(key)
        kind, lo, hi, what = OPTIONS[key]
        if key in CHOICES:
            if raw.lower() not in CHOICES[key]:
                raise UnknownBotError(f"ismcts: bad value {key}={raw!r}; {key} is one of {', '.join(CHOICES[key])}")
            opts = replace(opts, playout=raw.lower()) if key == "playout" else replace(opts, kinds=raw.lower())
            continue
        if key in PATHS:
            opts = replace(opts, policy=raw) if key == "policy" else replace(opts, estimate=raw)  # a path, checked when the bot is built
            continue
        try:
            value = kind(raw)
        except ValueError:
            value = None
        if value is None or isinstance(value, float) and not math.isfinite(value) or not lo <= value <= hi:
            raise UnknownBotError(f"ismcts: bad value {key}={raw!r}; {key} is the {what}")
        opts = replace(opts, **{key: value})
    if not opts.policy and seen & set(GUIDED):
        raise UnknownBotError(f"ismcts: {' and '.join(k for k in GUIDED if k in seen)} weigh a trained policy: give it with policy=PATH")
    return opts


def spec(opts: Options) -> str:
    """The bot name that builds ``opts`` (options at their default left out)."""
    default = Options()
    parts = [f"{f.name}={getattr(opts, f.name)}" for f in fields(Options) if getattr(opts, f.name) != getattr(default, f.name)]
    return ":".join(["ismcts", *parts])


class _Node:
    __slots__ = ("children", "visits", "total", "avail", "value")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.value = 0.0  # the mean of its rollouts; once it has children, its best child's value


class _BotPlay:
    """A bot played as a rule policy, ``(game, legal) -> action`` for whoever is to move: how
    ``playout=cartographer`` puts the cartographer in every seat of the tree and the rollouts. Its
    rng is reseeded from the world each simulation plays in, so a world is played on alike after
    every root action (the bot breaks ties with it)."""

    __slots__ = ("bot", "rng")

    def __init__(self, bot: Cartographer):
        self.bot = bot
        self.rng = random.Random(0)

    def __call__(self, game: Game, legal: list[int]) -> int:
        return self.bot.decide(InnerView(game, game.state.current), legal, self.rng)  # type: ignore[arg-type]


class IsmctsBot:
    """See the module docstring. ``searches``/``simulations``/``search_seconds`` count what the
    bot has done (for timing reports); they never influence a choice."""

    name = "ismcts"

    def __init__(self, options: Options | None = None):
        self.options = options or Options()
        self.name = spec(self.options)
        self.estimate = Cartographer.estimate
        if self.options.estimate:
            from .estimate_file import load

            self.estimate = load(self.options.estimate, Cartographer.estimate)
        self.base = Cartographer()  # the root's candidates (top) and, with playout=cartographer, the unsearched decisions
        self.policy: DefaultPolicy | _BotPlay = DefaultPolicy(Cartographer.tastes)
        self.others: DefaultPolicy | _BotPlay = DefaultPolicy(PLAIN)
        self.played: tuple[_BotPlay, ...] = ()  # the playout bots, reseeded per simulation
        if self.options.playout == "cartographer":
            self.policy = _BotPlay(Cartographer())
            self.others = _BotPlay(Cartographer())
            self.played = (self.policy, self.others)
        self.kinds = BRANCHED if self.options.kinds == "all" else frozenset({"turn"})
        self.searches = 0
        self.simulations = 0
        self.search_seconds = 0.0
        self.guide = None
        if self.options.policy:
            from .guide import Guide  # torch, only for a guided search

            self.guide = Guide(self.options.policy)
        self.value_vp = self.estimate.win_bonus / 2  # VP per unit of the net's value: +-1 spans one win bonus

    def decide(self, view: View, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        game = view.game
        opts = self.options
        cartographer = opts.playout == "cartographer"
        if game.decision()[0] not in self.kinds:
            return self.base.decide(view, legal_actions, rng) if cartographer else self.policy(game, legal_actions)
        rule = None  # the root's first child, where the cartographer picks it
        if cartographer or opts.top:
            pick = self.base.decide(view, legal_actions, rng)
            if self.base.last_values is None:  # it had one choice left (no resting after paying the Trade guild)
                return pick
            if opts.top:
                legal_actions = self.candidates(pick)
                if len(legal_actions) == 1:
                    return pick
            rule = pick if cartographer else None
        start = time.perf_counter()
        action, sims = self.search(view, legal_actions, rng, start, rule)
        self.searches += 1
        self.simulations += sims
        self.search_seconds += time.perf_counter() - start
        return action

    def candidates(self, rule: int) -> list[int]:
        """The root's actions with ``top``: the cartographer's ``top`` best by the values of its
        last decision, those within ``margin`` VP of its best (its own pick always kept)."""
        assert self.base.last_values is not None
        return best_candidates(self.base.last_values, rule, self.options.top, self.options.margin)

    # -- the search
    def search(self, view: View, legal: list[int], rng: random.Random, start: float, rule: int | None = None) -> tuple[int, int]:
        """The chosen action and the number of simulations run; ``rule``, where given, is the
        root's rule pick (tried first), else the playout policy is asked in each world."""
        root = self.tree(view, rng, start, legal, rule)
        tried = [(a, root.children[a]) for a in legal if a in root.children]
        if self.options.final:  # the robust child: most visits, not the max over a few noisy rollouts
            best = max(tried, key=lambda ac: (ac[1].visits, ac[1].value, -ac[0]))
        else:
            best = max(tried, key=lambda ac: (ac[1].value, ac[1].visits, -ac[0]))
        return best[0], root.visits

    def tree(self, view: View, rng: random.Random, start: float, legal: list[int], rule: int | None = None) -> _Node:
        """The search tree grown from the view's decision, whose legal ids are ``legal`` (its root's
        visits: the simulations)."""
        opts = self.options
        guide = self.guide
        priors = guide.prior(view.game, view.seat, legal) if guide is not None and opts.prior > 0 else None
        value_w = opts.value * self.value_vp if guide is not None else 0.0
        seat = view.seat
        root_game = view.game
        worlds = [root_game, *(view.sample(rng) for _ in range(opts.worlds - 1))]
        seeds = [rng.getrandbits(32) for _ in worlds] if self.played else []  # the playout bots' rng, per world
        h = horizon(root_game.state)
        turn = root_game.state.turn
        last_turn = turn + opts.reply
        root = _Node()
        bounds = [math.inf, -math.inf]
        deadline = start + opts.time if opts.time > 0 else math.inf
        while root.visits < opts.sims and (root.visits == 0 or time.perf_counter() < deadline):
            if opts.crn:
                path, game, w = self._common_world_step(worlds, root, legal, seat, turn, rng, bounds, priors, rule, seeds)
            else:
                w = root.visits % len(worlds)
                game = worlds[w].clone()
                self._reseed(seeds, w)
                path = self._descend(game, root, seat, turn, rng, bounds, priors, rule=rule, root_legal=legal)
            value = self._rollout(game, seat, last_turn, h)
            if value_w:
                assert guide is not None
                value += value_w * guide.value(game, seat)
            root.visits += 1
            for node in path:
                node.visits += 1
                node.total += value
            for node in reversed(path):
                node.value = self.backed_up(node)
            bounds[0] = min(bounds[0], value)
            bounds[1] = max(bounds[1], value)
        return root

    def _reseed(self, seeds: list[int], w: int) -> None:
        """Seed the playout bots for a simulation in world ``w`` (nothing to do for rule policies)."""
        for bot in self.played:
            bot.rng.seed(seeds[w])

    def backed_up(self, node: _Node) -> float:
        """A node's value after a simulation through it: its mean rollout value until it has
        children, then (``backup``) its best child's value, its most visited child's (ties: the
        higher value), or still the mean of every rollout through it (plain UCT)."""
        children = node.children
        backup = self.options.backup
        if not children or backup == 2:
            return node.total / node.visits
        if backup == 1:
            return max(children.values(), key=lambda ch: (ch.visits, ch.value)).value
        return max(ch.value for ch in children.values())

    def _common_world_step(
        self,
        worlds: list[Game],
        root: _Node,
        legal: list[int],
        seat: int,
        turn: int,
        rng: random.Random,
        bounds: list[float],
        priors: dict[int, float] | None,
        rule: int | None,
        seeds: list[int],
    ) -> tuple[list[_Node], Game, int]:
        """One simulation's way down with ``crn``: the root's child is picked first (every root
        action is legal in every world) and played in the world of its own visit count, so that
        the root's children are compared over the same deck orders and dice, not each over others.
        Returns the path below the root, the game where the rollout starts and its world's index."""
        children = root.children
        untried = [a for a in legal if a not in children]
        if untried:
            self._reseed(seeds, 0)
            a = self._expand(root, legal, untried, self.policy(worlds[0], legal) if rule is None else rule, rng, priors)
            game = worlds[0].clone()
            game.apply(a)
            return [children[a]], game, 0
        a = self._select(root, legal, bounds, priors)
        node = children[a]
        w = node.visits % len(worlds)
        game = worlds[w].clone()
        self._reseed(seeds, w)
        game.apply(a)
        return [node, *self._descend(game, node, seat, turn, rng, bounds, level=1)], game, w

    def _expand(
        self, node: _Node, legal: list[int], untried: list[int], rule: int, rng: random.Random, priors: dict[int, float] | None
    ) -> int:
        """Add one of the node's ``untried`` children: the rule's pick if untried, else by the prior,
        else at random."""
        children = node.children
        for a in legal:
            if a in children:
                children[a].avail += 1
        if rule in untried:
            a = rule
        elif priors:
            a = max(untried, key=lambda x: (priors.get(x, 0.0), -x))
        else:
            a = untried[rng.randrange(len(untried))]
        child = children[a] = _Node()
        child.avail = 1
        return a

    def _select(self, node: _Node, legal: list[int], bounds: list[float], priors: dict[int, float] | None) -> int:
        """UCB1 over the node's children legal here (values normalised by the search's bounds),
        plus the PUCT term where ``priors`` are given (the root of a guided search)."""
        children = node.children
        lo, hi = bounds
        span = hi - lo if hi > lo else 1.0
        c = self.options.c
        best_a, best_score = legal[0], -math.inf
        puct = self.options.prior * math.sqrt(node.visits) if priors else 0.0
        for a in legal:
            child = children[a]
            child.avail += 1
            score = (child.value - lo) / span + c * math.sqrt(math.log(child.avail) / child.visits)
            if puct:
                assert priors is not None
                score += puct * priors.get(a, 0.0) / (1 + child.visits)
            if score > best_score:
                best_a, best_score = a, score
        return best_a

    def _descend(
        self,
        game: Game,
        root: _Node,
        seat: int,
        turn: int,
        rng: random.Random,
        bounds: list[float],
        priors: dict[int, float] | None = None,
        level: int = 0,
        rule: int | None = None,
        root_legal: list[int] | None = None,
    ) -> list[_Node]:
        """Walk the tree in this world (UCB over the children legal here), add one child, and
        return the nodes visited below the root; the game is left where the rollout starts. With
        ``priors`` (a policy's, over the root's actions) the root's untried children are tried in
        the rule's then the prior's order, and its selection adds the PUCT term. ``level`` is the
        depth of ``root`` in the tree (the walk stops branching at ``depth``). Where given,
        ``root_legal`` are the actions searched at ``root`` (the ``top`` candidates: ``root`` is the
        decision the game is at) and ``rule`` is its rule pick."""
        g = game.state
        node = root
        path: list[_Node] = []
        depth = self.options.depth
        while not g.over and g.turn == turn:
            legal = game.legal_actions() if root_legal is None or path else root_legal
            if len(legal) == 1:
                game.apply(legal[0])
                continue
            if g.current != seat:
                game.apply(self.others(game, legal))
                continue
            if game.decision()[0] not in BRANCHED or depth and level + len(path) >= depth:
                game.apply(self.policy(game, legal))
                continue
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                pick = rule if rule is not None and node is root else self.policy(game, legal)
                a = self._expand(node, legal, untried, pick, rng, priors if node is root else None)
                game.apply(a)
                path.append(children[a])
                return path
            best_a = self._select(node, legal, bounds, priors if node is root else None)
            node = children[best_a]
            game.apply(best_a)
            path.append(node)
        return path

    def _rollout(self, game: Game, seat: int, last_turn: int, h: float) -> float:
        """Play on by rule until turn ``last_turn`` is over, then score it for ``seat``."""
        g = game.state
        for _ in range(MAX_ROLLOUT * (last_turn - g.turn + 1)):
            if g.over or g.turn > last_turn:
                break
            policy = self.policy if g.current == seat else self.others
            game.apply(policy(game, game.legal_actions()))
        return evaluate(game, seat, self.estimate, h)
