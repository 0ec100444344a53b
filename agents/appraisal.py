"""What effects, cards and tiles are worth to a strategy, judged from the rules' tables alone.

The rule policy (``defaults.DefaultPolicy``) has to rank die spaces, worker spots, bag parts,
cards and tile designs thousands of times a second without copying the game. These functions
give each a rough worth in VP-like units from the effect trees and tags of the content, steered
by a strategy's ``Tastes``: what it likes, which tags it collects, which caravan icons it wants,
and what the journal splotches ahead of it ask for.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, Repeat, Seq
from wayfarers_env.content.measures import PRIMARY_TAGS
from wayfarers_env.rules.queries import BagContext, can_pay, can_resolve, price
from wayfarers_env.rules.state import GameState, PlayerState
from wayfarers_env.vocabulary import GUILDS, LINK_ROWS

from .evaluation import link_progress

# value of one unit of each effect atom, before a strategy's multipliers
ATOM_VALUE = {
    "silver": 1.0,
    "provisions": 0.9,
    "guild": 1.0,
    "card_influence": 0.5,
    "move_influence": 0.0,
    "spend": 1.0,
    "journal": 2.5,
    "refresh_die": 1.2,
    "adjust_die": 0.3,
    "new_die": 2.5,
    "retrieve_worker": 1.0,
    "land_card": 3.0,
    "water_card": 3.0,
    "space_card": 3.0,
    "townsfolk": 2.0,
    "inspiration": 2.0,
    "draw_three": 3.0,
    "tile": 2.5,
    "journal_tile": 1.5,
    "green_worker": 1.2,
    # Tides of Trade
    "trader": 3.0,
    "worker_tile": 3.5,
    "capture_worker": 1.5,
    "spend_card_influence": 0.5,
}
# value of resolving each effect-bag part next (DONE is 0: stop when nothing left is worth it)
LEAF_VALUE = {
    "silver": 2.0,
    "provisions": 2.0,
    "guild_black": 1.5,
    "guild_yellow": 1.5,
    "guild_blue": 1.5,
    "guild_any": 1.5,
    "card_influence": 0.8,
    "move_influence": -1.0,
    "journal": 3.0,
    "refresh_die": 1.4,
    "adjust_die": 0.2,
    "retrieve_worker": 1.1,
    "land_card": 5.0,
    "water_card": 5.0,
    "space_card": 5.0,
    "townsfolk": 4.0,
    "inspiration": 4.0,
    "draw_land": 3.0,
    "draw_water": 3.0,
    "tile_land": 3.5,
    "tile_water": 3.5,
    "tile_space": 3.5,
    "tile_basic": 3.0,
    "tile_special": 6.0,
    "pay_silver": 1.0,
    "pay_provisions": 1.2,
    "pay_influence": 0.6,
    # Tides of Trade
    "guild_red": 1.8,  # the red majority is worth 5 VP, the others 3
    "trader": 3.5,
    "worker_tile": 4.0,
    "capture_worker": 1.5,
}
# the counts that resolving a bag part can raise (for journal_wants)
_SPACE_TAGS = frozenset({"stars", "planet", "sun", "moon", "comet", "space_cards"})
LEAF_FEEDS = {
    "land_card": frozenset({"city", "vista", "observatory", "library", "land_cards"}),
    "draw_land": frozenset({"city", "vista", "observatory", "library", "land_cards"}),
    "water_card": frozenset({"harbour", "open_water", "library", "water_cards"}),
    "draw_water": frozenset({"harbour", "open_water", "library", "water_cards"}),
    "space_card": _SPACE_TAGS,
    "townsfolk": frozenset({"townsfolk_cards"}),
    "tile_land": frozenset({"tiles", "land_tiles"}),
    "tile_water": frozenset({"tiles", "water_tiles"}),
    "tile_space": frozenset({"tiles", "space_tiles"}),
    "tile_basic": frozenset({"tiles", "basic_tiles"}),
    "tile_special": frozenset({"tiles", "city", "vista", "harbour", "open_water", "observatory", "library", "stars", "planet"}),
}
BASE_TAG_VALUE = {
    "city": 1.0,
    "vista": 1.0,
    "harbour": 1.0,
    "open_water": 1.0,
    "observatory": 0.4,
    "library": 0.4,
    "stars": 0.5,
    "planet": 0.8,
    "sun": 1.0,
    "moon": 1.0,
    "comet": 0.6,
    "trading_post": 0.5,  # Tides of Trade: a third of a 3-VP secondary set
}
ICON_VALUE = (1.0, 1.0, 1.0, 1.0, 0.4, 0.4, 0.6, 0.6)  # camel ship pigeon telescope up down silver- provision-discount


@dataclass(frozen=True)
class Tastes:
    """What a strategy likes, for the rules: multipliers on effect atoms and bag parts, tag values
    for judging cards, asset values for tiles, and the guild it prefers to hold."""

    atoms: dict[str, float] = field(default_factory=dict)  # multiplier per atom name (default 1)
    leaves: dict[str, float] = field(default_factory=dict)  # multiplier per bag part name (default 1)
    tags: dict[str, float] = field(default_factory=dict)  # value per tag (default BASE_TAG_VALUE)
    icons: tuple[float, ...] = ICON_VALUE
    guild_order: tuple[int, ...] = (0, 1, 2)  # black, yellow, blue: first is preferred
    use_science: bool = False  # spend black influence for an extra journal step whenever possible
    draw_below: float = 2.0  # draw 3 from the deck when no face-up card scores at least this
    balance_primary: float = 0.0  # extra value of a primary tag the player has fewest of (sets)
    journal_want: float = 1.0  # value per unit of a count that an uncrossable splotch ahead asks for

    def atom(self, name: str) -> float:
        return ATOM_VALUE.get(name, 0.0) * self.atoms.get(name, 1.0)

    def leaf(self, name: str) -> float:
        return LEAF_VALUE.get(name, 0.0) * self.leaves.get(name, 1.0)

    def tag(self, name: str) -> float:
        return self.tags.get(name, BASE_TAG_VALUE.get(name, 0.0))

    def but(self, **changes) -> Tastes:
        return replace(self, **changes)


PLAIN = Tastes()


def effect_value(node: Effect | None, tastes: Tastes) -> float:
    """Rough worth of an effect tree: sum of parts, best option of a choice, gain minus cost."""
    if node is None:
        return 0.0
    if isinstance(node, Atom):
        return tastes.atom(node.name) * node.amount
    if isinstance(node, Seq):
        return sum(effect_value(p, tastes) for p in node.parts)
    if isinstance(node, Choice):
        return max(effect_value(o, tastes) for o in node.options)
    if isinstance(node, Repeat):
        return node.count * effect_value(node.body, tastes)
    if isinstance(node, Cost):
        return effect_value(node.gain, tastes) - effect_value(node.cost, tastes)
    return 0.0


def journal_wants(g: GameState, p: PlayerState) -> frozenset[str]:
    """Counts (tags, card or tile kinds) named by the splotches ahead that the player cannot cross
    yet, when none ahead can be crossed: what to collect to keep the journal moving."""
    t = g.tables
    nxt = t.nodes[p.node].next
    if not nxt or any(link_progress(g, p, p.node, dst) >= 1.0 for dst in nxt):
        return frozenset()
    out: set[str] = set()
    for dst in nxt:
        link = t.link[(p.node, dst)]
        side = g.sides[link.section - 1]
        needs = link.requires[side]
        if needs is not None:
            out |= needs.terms
        cost = link.cost[side]
        if cost is not None:  # a splotch that costs influence: that guild's influence is wanted
            _s, _p, guilds = price(cost)
            out |= {GUILD_TERMS[k] for k in range(len(guilds)) if guilds[k] > p.guild[k]}
    return frozenset(out)


GUILD_TERMS = tuple(f"{guild}_influence" for guild in GUILDS)


KIND_TERM = {"land": "land_cards", "water": "water_cards", "space": "space_cards", "townsfolk": "townsfolk_cards"}


def feasible_value(g: GameState, node: Effect, ctx: BagContext, tastes: Tastes) -> float:
    """``effect_value`` of what the current player could resolve of ``node`` now."""
    if isinstance(node, Atom):
        if node.name in ("guild", "card_influence") and g.players[g.current].supply == 0:
            return 0.0  # only by moving a token already placed, which the rules decline
        return tastes.atom(node.name) * node.amount if node.mandatory or can_resolve(g, node, ctx) else 0.0
    if isinstance(node, Seq):
        return sum(feasible_value(g, part, ctx, tastes) for part in node.parts)
    if isinstance(node, Choice):
        return max((feasible_value(g, o, ctx, tastes) for o in node.options), default=0.0)
    if isinstance(node, Repeat):
        return node.count * feasible_value(g, node.body, ctx, tastes)
    if isinstance(node, Cost):
        options = node.cost.options if isinstance(node.cost, Choice) else (node.cost,)
        paid = [effect_value(o, tastes) for o in options if can_pay(g, o)]
        if not paid:
            return 0.0
        return max(0.0, feasible_value(g, node.gain, ctx, tastes) - min(paid))
    return 0.0


def card_value(g: GameState, p: PlayerState, card: int, tastes: Tastes) -> float:
    """Rough worth of a card to this player, before any price."""
    t = g.tables
    c = t.cards[card]
    v = sum(tastes.tag(tag) for tag in c.tags)
    wants = journal_wants(g, p)
    if wants:
        v += tastes.journal_want * (sum(1 for tag in c.tags if tag in wants) + (KIND_TERM.get(c.kind) in wants))
    if tastes.balance_primary and c.kind in ("land", "water"):
        primary = [p.counts[k] for k in range(len(PRIMARY_TAGS))]
        low = min(primary)
        v += tastes.balance_primary * sum(1 for k, tag in enumerate(PRIMARY_TAGS) if tag in c.tags and primary[k] == low)
    v += effect_value(c.immediate, tastes)
    if c.die_space is not None:
        v += 0.6 * effect_value(c.die_space.action, tastes)
    if c.trigger is not None:
        v += 0.4 * effect_value(c.trigger, tastes)
    if c.kind == "space" and c.vp is not None:
        v += c.vp(p.terms())
    if c.kind == "townsfolk":
        v += 1.0 + effect_value(c.ability, tastes) * 0.6 + effect_value(c.resting, tastes) * 0.5 + 0.8 * len(c.gives)
    if c.kind == "inspiration":
        v += 2.0
    if c.kind == "water":
        left = t.cards[p.water[-1] if p.water else t.capital_harbour]
        for r in range(len(LINK_ROWS)):
            if c.links_left[r] and left.links_right[r] is not None:
                v += effect_value(left.links_right[r], tastes)
    return v
