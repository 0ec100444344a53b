"""What a position is worth to one seat, in victory-point units: the yardstick every search bot uses.

The game only pays VP at the end, and most of a turn's work (silver, dice, journal steps, a
caravan asset) pays nothing *yet*. A bot that looked at ``scores()`` alone would rest forever, so
the value of a position is

    value(seat) = VP now (``scores()``)
                + horizon * squash(estimated worth of what the seat holds and can still turn into VP)
                + journal_open * (how close the seat is to crossing the next journal splotch)
                - the same for the strongest opponent

``horizon`` (1 early, near 0 once the end is triggered) shrinks the estimate as the game nears
its end, because a silver left over at the end is worth nothing. Subtracting the best opponent
makes guild and comet majorities, influence fees and the race to the final journal spaces count
both ways. A finished game adds ``win_bonus`` for a winner, so a bot prefers a narrow win to a
wide loss; any other position adds ``win_bonus`` times a logistic guess of the win from the lead
(``win_chance``), whose spread narrows as the game nears its end and is narrowest once the end is
triggered (each player has one turn left at most, so the VP lead decides). Ending the game thus
raises a leader's guess and lowers a trailing seat's: a bot triggers the end when that leaves it
ahead, not while behind. ``squash`` keeps a huge hoard from outweighing that. ``closing`` makes
each journal column worth more to a seat that leads (and less to one that trails), so a leader
races to the final spaces instead of farming an ever bigger margin; once the end is triggered the
race is run and the term stays at its last column's worth, so triggering changes it by one column
only (dropping it let a trailing seat shed its penalty by ending the game).

A game can stall: once the decks run dry, a seat whose next journal splotches ask for what it
can no longer get does not move, and a trailing seat that could still end the game will not
(ending loses; its guess of a comeback stays above zero). One mirror game of cartographer ran
to the 2,000-turn limit that way, its scores frozen for 1,700 turns. So past ``STALL_TURNS``
turns a player (about twice a long game) a game counts as stalled, and every journal column the
seat has reached is worth ``stall_push`` more: each bot then heads for the end, the trailing one
too. A finished game is still valued by its result alone.

The estimate is a sum of documented features, each with a weight in ``Estimate``; strategy bots
change the weights (and add tag desires), the greedy bot uses ``NEUTRAL``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from wayfarers_env import Game
from wayfarers_env.content.measures import PRIMARY_TAGS, TAGS, TERM_INDEX, Measure, compile_measure
from wayfarers_env.rules.queries import RESERVE, SUPPLY, price
from wayfarers_env.rules.state import GameState, PlayerState
from wayfarers_env.rules.tables import Tables

PRIMARY = tuple(TAGS.index(t) for t in PRIMARY_TAGS)
FINAL_COLUMN = 10
GUILD_CAP = 6  # influence in one guild counted at full weight: past it, a token still guards the majority and pays splotches
END_SPREAD = 4.0  # VP: how far one last turn each can move the lead (the logistic's scale)
SPREAD_PER_HORIZON = 60.0  # VP of spread added per unit of horizon: with a whole game left, a lead of 64 VP is a 73% guess
ASSET_SLOTS = (0, 1, 2, 3)  # camel, ship, pigeon, telescope in a caravan column vector
STALL_TURNS = 100  # turns a player after which a game counts as stalled (a 2-player game averages 47-65: docs/RESULTS.md)


@dataclass(frozen=True)
class Estimate:
    """Weights of the position estimate, in VP per unit while the game is young (horizon 1).

    The defaults (``NEUTRAL``) are the greedy bot's, set by hand from the rulebook's exchange
    rates (a Land or Water card costs 2 Provisions at the capital, a Space card 3-5 Silver, a
    basic tile 2 Silver and is worth 1 VP) and checked in tournaments (docs/RESULTS.md).
    """

    silver: float = 0.7  # per Silver, up to ``resource_cap``; buys Space cards, tiles, townsfolk
    provisions: float = 0.6  # per Provision, up to ``resource_cap``; pays for Land/Water cards
    resource_cap: int = 8
    beyond_cap: float = 0.15  # per Silver/Provision past the cap
    guild: float = 0.6  # per influence in a guild up to 6, a quarter of it past 6 (majority VP is already in scores())
    card_influence: float = 0.3  # per own influence on a face-up card (fees, blocking)
    ink: float = 0.4  # Tides of Trade: per card influence on the Ink Well, up to 6 (two of its abilities' prices)
    die: float = 2.5  # per die out of the reserve: one more action per rest cycle
    ready_die: float = 0.25  # per supply die that fits one of the seat's empty die spaces
    rest_ready: float = 2.5  # at most one die left in supply: the next rest fires the resting abilities (a journal step, a Silver)
    worker: float = 1.2  # per worker in the seat's supply
    journal: float = 1.5  # per journal column reached
    journal_open: float = 2.0  # the next journal splotch can be crossed (or is close to it); not horizon-scaled
    asset: float = 0.6  # per camel/ship/pigeon/telescope in the caravan
    asset_extra: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # strategy desire per camel/ship/pigeon/telescope
    arrow: float = 0.3  # per die-manipulation arrow in the caravan
    discount: float = 0.5  # per silver/provision discount icon in the caravan
    die_space: float = 0.8  # per acquired City/Harbour with a die space
    townsfolk: float = 0.8  # per tucked townsfolk
    space_host: float = 0.2  # per Land/Water card still without a Space card above it
    inspiration: float = 0.6  # times (space card VP) times (goal progress) for unmet goals
    tags: dict[str, float] = field(default_factory=dict)  # strategy desire per tag, on top of VP
    tag_cap: int = 7  # tag desire stops counting past this many of a tag
    space_card: float = 0.0  # strategy desire per Space card, on top of its VP
    land_card: float = 0.0
    water_card: float = 0.0
    unique_set: float = 0.0  # desire per complete set of the 4 primary tags, on top of VP
    potential_cap: float = 60.0  # the whole estimate is squashed below this (see ``squash``)
    closing: float = 10.0  # journal progress times tanh(lead / 10): race to the end when ahead
    win_bonus: float = 25.0  # for a winner once the game is over; times P(win) once the end is triggered
    rival: float = 1.0  # weight of the best opponent's value, subtracted
    end_spread: float = END_SPREAD  # VP: the win guess's logistic scale once the end is near
    spread_per_horizon: float = SPREAD_PER_HORIZON  # VP of spread added per unit of horizon
    symmetric: bool = False  # value opponents with these weights too (False: with ``NEUTRAL``'s)
    stall_push: float = 10.0  # per journal column reached once ``stalled``: more than ending costs any strategy's trailing seat

    def with_tags(self, **tags: float) -> Estimate:
        return replace(self, tags={**self.tags, **tags})


NEUTRAL = Estimate()


# ------------------------------------------------------------------------------ helpers


@lru_cache(maxsize=512)
def _threshold(measure: Measure) -> tuple[Measure, int] | None:
    """Split ``lhs >= N`` into (lhs, N) so that progress towards a goal can be measured."""
    m = re.fullmatch(r"\s*(.+?)\s*>=\s*(\d+)\s*", measure.text)
    if m is None:
        return None
    return compile_measure(m.group(1)), int(m.group(2))


def progress(measure: Measure, terms: list[int]) -> float:
    """How close a player's counts are to meeting a requirement, 0..1 (1 when met)."""
    if measure(terms):
        return 1.0
    split = _threshold(measure)
    if split is None:
        return 0.0
    lhs, need = split
    return max(0.0, min(0.99, lhs(terms) / need)) if need > 0 else 0.0


def horizon(g: GameState) -> float:
    """Share of the game still to play, judged by the leader's journal column (the game ends
    when someone reaches column 10)."""
    if g.over:
        return 0.0
    if g.end_trigger >= 0:
        return 0.08
    lead = max(g.tables.nodes[p.node].column for p in g.players)
    return max(0.15, 1.0 - lead / (FINAL_COLUMN + 1))


def link_passable(g: GameState, p: PlayerState, src: int, dst: int) -> bool:
    """Can this player cross the splotch src -> dst (requirements met, influence to spend)?"""
    t = g.tables
    if t.nodes[dst].final and any(q.node == dst for q in g.players if q is not p):
        return False
    link = t.link[(src, dst)]
    side = g.sides[link.section - 1]
    req = link.requires[side]
    if req is not None and not req(p.terms()):
        return False
    cost = link.cost[side]
    if cost is not None:
        _s, _p, guilds = price(cost)
        return all(p.guild[k] >= guilds[k] for k in range(len(guilds)))
    return True


def link_progress(g: GameState, p: PlayerState, src: int, dst: int) -> float:
    """0..1: how close the player is to crossing src -> dst."""
    if link_passable(g, p, src, dst):
        return 1.0
    t = g.tables
    link = t.link[(src, dst)]
    side = g.sides[link.section - 1]
    req = link.requires[side]
    if req is not None:
        return progress(req, p.terms())
    return 0.5  # an influence cost the player cannot pay yet


def journal_outlook(g: GameState, p: PlayerState) -> float:
    """0..1: best progress towards crossing one of the splotches ahead of the marker."""
    nxt = g.tables.nodes[p.node].next
    if not nxt:
        return 1.0
    return max(link_progress(g, p, p.node, dst) for dst in nxt)


def caravan_icons(p: PlayerState) -> tuple[int, int, int]:
    """(assets, arrows, discounts) summed over the six caravan columns."""
    assets = arrows = discounts = 0
    for col in p.col:
        assets += col[0] + col[1] + col[2] + col[3]
        arrows += col[4] + col[5]
        discounts += col[6] + col[7]
    return assets, arrows, discounts


def ready_dice(t: Tables, p: PlayerState) -> int:
    """Supply dice whose face meets the assets of at least one empty die space the seat owns."""
    spaces = [0, 1, *t.centre_spaces]
    for c in p.land + p.water:
        s = t.space_of_card.get(c)
        if s is not None:
            spaces.append(s)
    free = [s for s in spaces if s not in p.dice_loc]
    n = 0
    for d in range(len(p.dice_loc)):
        if p.dice_loc[d] != SUPPLY:
            continue
        col = p.col[p.dice_face[d] - 1]
        for s in free:
            need = t.space_need[s]
            card = t.space_card[s]
            gives = t.gives[p.tucked[card]] if card >= 0 and card in p.tucked else (0, 0, 0, 0)
            if all(need[k] <= col[k] + gives[k] for k in ASSET_SLOTS) or (need[1] == 1 + col[1] + gives[1] and p.guild[2] > 0):
                n += 1
                break
    return n


def _capped(n: int, w: float, cap: int, beyond: float) -> float:
    return w * min(n, cap) + beyond * max(0, n - cap)


def potential(g: GameState, seat: int, est: Estimate) -> float:
    """The estimate part of a seat's value (before the horizon factor)."""
    t = g.tables
    p = g.players[seat]
    v = _capped(p.silver, est.silver, est.resource_cap, est.beyond_cap)
    v += _capped(p.provisions, est.provisions, est.resource_cap, est.beyond_cap)
    v += est.guild * sum(k if k <= GUILD_CAP else GUILD_CAP + (k - GUILD_CAP) / 4 for k in p.guild)
    v += est.card_influence * sum(1 for owner in g.market_inf if owner == seat)
    v += est.ink * min(p.ink, 6)
    v += est.die * sum(1 for loc in p.dice_loc if loc != RESERVE)
    v += est.ready_die * ready_dice(t, p)
    if sum(1 for loc in p.dice_loc if loc == SUPPLY) <= 1:
        v += est.rest_ready
    v += est.worker * sum(p.workers)
    v += est.journal * t.nodes[p.node].column
    assets, arrows, discounts = caravan_icons(p)
    v += est.asset * assets + est.arrow * arrows + est.discount * discounts
    if any(est.asset_extra):
        for col in p.col:
            v += sum(est.asset_extra[i] * min(col[i], 1) for i in ASSET_SLOTS)
    cards = p.land + p.water
    v += est.die_space * sum(1 for c in cards if c in t.space_of_card)
    v += est.townsfolk * len(p.tucked)
    v += est.space_host * sum(1 for c in cards if c not in p.above)
    if p.inspired:
        terms = p.terms()
        for space, insp in p.inspired.items():
            goal, vp = t.cards[insp].goal, t.cards[space].vp
            if goal is not None and vp is not None and not goal(terms):
                v += est.inspiration * vp(terms) * progress(goal, terms)
    if est.tags:
        counts = p.counts
        for tag, w in est.tags.items():
            v += w * min(counts[TERM_INDEX[tag]], est.tag_cap)
    if est.space_card:
        v += est.space_card * len(p.above)
    if est.land_card:
        v += est.land_card * len(p.land)
    if est.water_card:
        v += est.water_card * len(p.water)
    if est.unique_set:
        v += est.unique_set * min(p.counts[k] for k in PRIMARY)
    return v


def evaluate(game: Game, seat: int, est: Estimate = NEUTRAL, h: float | None = None) -> float:
    """The seat's value minus the best opponent's (see the module docstring).

    ``h``: the horizon to use while the end is not triggered. A search passes the horizon of the
    position it decides from, so that all its alternatives are weighed alike: otherwise a journal
    step would lower the horizon and look like a loss to a player with many resources."""
    g = game.state
    totals = [s["total"] for s in game.scores()]
    ended = g.over or g.end_trigger >= 0
    h = horizon(g) if h is None or ended else h

    def worth(k: int, e: Estimate) -> float:
        v = totals[k] + h * squash(potential(g, k, e), e.potential_cap)
        if not ended:
            v += e.journal_open * journal_outlook(g, g.players[k])
        return v

    mine = worth(seat, est)
    other = est if est.symmetric else NEUTRAL
    rival = max((worth(k, other) for k in range(g.n) if k != seat), default=0.0)
    value = mine - est.rival * rival
    if stalled(g) and not g.over:  # nothing left to wait for: every column, the last one included, is worth more
        value += est.stall_push * g.tables.nodes[g.players[seat].node].column
    if g.over:
        win = game.winners()
        if seat in win:
            value += est.win_bonus / len(win)
    elif g.end_trigger >= 0:
        # the end is coming: every player has at most one more turn, so the VP lead decides
        lead = totals[seat] - max(totals[k] for k in range(g.n) if k != seat)
        value += est.win_bonus * win_chance(lead, est.end_spread)
        value += est.closing * math.tanh((mine - rival) / 10.0)  # the race is run: the last column's worth
    else:
        value += est.win_bonus * win_chance(mine - rival, est.end_spread + est.spread_per_horizon * h)
        if est.closing:
            value += est.closing * math.tanh((mine - rival) / 10.0) * g.tables.nodes[g.players[seat].node].column / FINAL_COLUMN
    return value


def stalled(g: GameState) -> bool:
    """The game has run past ``STALL_TURNS`` turns a player: treat it as stuck (module docstring)."""
    return g.turn >= STALL_TURNS * g.n


def win_chance(lead: float, spread: float) -> float:
    """A logistic guess of the win from a lead in VP: the more game is left (the wider
    ``spread``), the less a lead decides. Valued in every position, not only once the end is
    triggered, so that ending the game changes the guess only by what it settles: a leader's
    chance rises (less time to be caught), a trailing seat's falls. Valued only once the end
    was triggered, ending while behind looked like a gain (issue 14: greedy ended a game at 91-102)."""
    return 1.0 / (1.0 + math.exp(max(-60.0, min(60.0, -lead / spread))))


def squash(x: float, cap: float) -> float:
    """``cap * tanh(x / cap)``: about x while small, never above cap. A long game piles up far
    more than the remaining turns can turn into VP, and an unbounded estimate would then make
    ending the game (which zeroes it) look like a loss however far ahead the seat is."""
    return cap * math.tanh(x / cap) if cap > 0 else x
