"""Cheap rules for every kind of decision, with no copying of the game.

Search bots need a policy that plays the *rest of a turn* thousands of times a second (to value
a choice by where the turn ends up), and every bot needs sensible answers to the small questions
that search cannot tell apart (which order to return drawn cards in, which resource pays a fee).
``DefaultPolicy`` answers each decision kind from the state alone, steered by ``Tastes``: how much
the strategy likes each kind of effect and each tag. Ties go to the lowest action id, so a rule
never consumes randomness and a rollout's course depends only on the game it plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from wayfarers_env import Game
from wayfarers_env.rules.queries import (
    CATALOG,
    LEAVES,
    MOVES,
    SUPPLY,
    card_price,
    die_space_action,
    fee_owner,
    tile_footprint,
    trader_effect,
    worker_columns,
    worker_halves,
)
from wayfarers_env.rules.state import GameState, extra_on
from wayfarers_env.vocabulary import ASSETS

from .appraisal import (
    GUILD_TERMS,
    LEAF_FEEDS,
    PLAIN,
    Tastes,
    card_value,
    effect_value,
    feasible_value,
    journal_wants,
)
from .evaluation import link_progress, progress, ready_dice

__all__ = ["PLAIN", "DefaultPolicy", "Tastes", "card_value", "effect_value"]

Rule = Callable[[Game, list[int], tuple], int]


class DefaultPolicy:
    """One rule per decision kind (frames.FRAME_NAMES); see the module docstring."""

    def __init__(self, tastes: Tastes = PLAIN):
        self.tastes = tastes
        self._space_value: dict[tuple[int, int, int], float] = {}
        self._rules: dict[str, Rule] = {
            "turn": self.turn,
            "caravan_chain": self.chain,
            "die_space": self.die_space,
            "trade_guild": self.skip_first,
            "effect": self.effect,
            "choose_guild": self.choose_guild,
            "influence_source": self.influence_source,
            "card_influence": self.card_influence,
            "move_influence": self.move_influence,
            "journal": self.journal,
            "science_guild": self.science,
            "refresh_die": self.refresh,
            "adjust_die": self.adjust,
            "retrieve_worker": self.retrieve,
            "acquire_card": self.acquire,
            "influence_fee": self.fee,
            "draw_keep": self.keep,
            "draw_order": self.first,
            "tuck_townsfolk": self.tuck,
            "place_space_card": self.first,
            "place_inspiration": self.inspire,
            "tile_design": self.tile_design,
            "tile_price": self.tile_price,
            "tile_position": self.tile_position,
            "rest_reroll": self.reroll,
            "worker_target": self.worker_target,
            "hourglass_saving": self.hourglass_saving,
            "employ_trader": self.employ_trader,
            "worker_tile_price": self.first,  # silver first: red counts for a majority
            "worker_pair": self.worker_pair,
            "worker_column": self.worker_column,
            "card_influence_paid": self.last,  # the Ink Well's token (listed last) before a card's
            "trader_arrives": self.first,  # never asked: it settles
            "payment": self.first,  # as printed when it can be: the substitutes stay for later in the turn
            "capture_worker": self.capture,
            "place_captured": self.first,  # black, yellow, blue: the colours whose spots the bot values alike
            "ai_turn": self.first,  # never asked: the engine settles the solo AI's turn
            "ai_wants": self.let_ai,
        }

    def __call__(self, game: Game, legal: list[int], rng: random.Random | None = None) -> int:
        if len(legal) == 1:
            return legal[0]
        kind, params = game.decision()
        return self._rules.get(kind, self.first)(game, legal, params)

    # -- generic
    @staticmethod
    def first(game: Game, legal: list[int], params: tuple) -> int:
        return legal[0]

    @staticmethod
    def let_ai(game: Game, legal: list[int], params: tuple) -> int:
        """The solo AI wants a card this seat influenced: let it and take the resource the seat has
        less of. Denying costs 1 and only sends the AI to another card of the same row."""
        me = game.state.players[game.current_player]
        return CATALOG.SOLO[0] if me.silver <= me.provisions else CATALOG.SOLO[1]

    @staticmethod
    def skip_first(game: Game, legal: list[int], params: tuple) -> int:
        return CATALOG.SKIP if CATALOG.SKIP in legal else legal[0]

    @staticmethod
    def best(legal: list[int], score: Callable[[int], float]) -> int:
        return max(legal, key=lambda a: (score(a), -a))

    # -- main action and dice
    def space_value(self, g: GameState, s: int, face: int) -> float:
        """Printed worth of a die space's action (for refreshing: what the space offers again)."""
        p = g.players[g.current]
        col = p.col[face - 1]
        key = (s, col[6], col[7])
        v = self._space_value.get(key)
        if v is None:
            v = effect_value(g.tables.space_action[s], self.tastes) + 0.8 * col[6] + 0.8 * col[7]
            self._space_value[key] = v
        return v

    def placement_value(self, g: GameState, s: int, face: int) -> float:
        """Worth of putting a die of this face on space s now: only the parts that can resolve
        (a tile with none left to buy, a card nobody can pay for, count for nothing)."""
        p = g.players[g.current]
        items, ctx = die_space_action(g, p, s, face)
        return sum(feasible_value(g, item, ctx, self.tastes) for item in items) + 0.8 * (ctx[1] + ctx[2])

    def turn(self, game: Game, legal: list[int], params: tuple) -> int:
        dice = [a for a in legal if a in CATALOG.DIE]
        if dice:
            return dice[-1]
        workers = [a for a in legal if a in CATALOG.WORKER]
        return workers[0] if workers else CATALOG.REST

    def chain(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        p = g.players[g.current]
        current = CATALOG.FACE[p.dice_face[params[0]] - 1]
        return current if current in legal else legal[0]

    def die_space(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        face = g.players[g.current].dice_face[params[0]]
        spaces = [a for a in legal if a in CATALOG.SPACE]
        if not spaces:
            return CATALOG.SHIP if CATALOG.SHIP in legal else legal[0]
        return self.best(spaces, lambda a: self.placement_value(g, CATALOG.at[a], face))

    def reroll(self, game: Game, legal: list[int], params: tuple) -> int:
        """After a rest, reroll supply dice that repeat another die's face: varied faces fit more
        spaces (a hand of five 1s can sit in a rest loop for ever)."""
        p = game.state.players[game.current_player]
        faces = [p.dice_face[d] for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY]
        for a in legal:
            if a in CATALOG.REROLL and faces.count(CATALOG.at[a] + 1) >= 2:
                return a
        return CATALOG.SKIP

    # -- effect bags and influence
    def effect(self, game: Game, legal: list[int], params: tuple) -> int:
        leaves = [a for a in legal if a in CATALOG.LEAF]
        if not leaves:
            return CATALOG.DONE
        g = game.state
        wants = journal_wants(g, g.players[g.current])

        def score(a: int) -> float:
            leaf = LEAVES[CATALOG.at[a]]
            v = self.tastes.leaf(leaf)
            if wants and wants & LEAF_FEEDS.get(leaf, frozenset()):
                v += self.tastes.journal_want
            return v

        a = self.best(leaves, score)
        return a if score(a) > 0 else CATALOG.DONE

    def _guild_gain(self, g: GameState, k: int, delta: int) -> int:
        """Change in the number of guilds this player leads outright after delta influence in k."""
        me = g.players[g.current]
        others = max((q.guild[k] for q in g.players if q is not me), default=0)
        before = int(me.guild[k] > others and me.guild[k] > 0)
        after = int(me.guild[k] + delta > others and me.guild[k] + delta > 0)
        return after - before

    def choose_guild(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        order = self.tastes.guild_order
        wants = journal_wants(g, g.players[g.current])

        def score(a: int) -> float:
            k = CATALOG.at[a]
            return 3 * self._guild_gain(g, k, 1) + 4 * (GUILD_TERMS[k] in wants) - 0.1 * order.index(k)

        return self.best(legal, score)

    def influence_source(self, game: Game, legal: list[int], params: tuple) -> int:
        """Supply empty: move a token from a card, or from a guild that stays led without it
        (or is not led anyway), into a target worth it; otherwise decline."""
        g = game.state
        p = g.players[g.current]
        kind, target = params
        if kind == 1 or (self._guild_gain(g, target, 1) <= 0 and GUILD_TERMS[target] not in journal_wants(g, p)):
            return CATALOG.SKIP
        cards = [a for a in legal if a in CATALOG.CARD]
        if cards:
            return cards[0]
        guilds = [a for a in legal if a in CATALOG.FROM_GUILD and self._guild_gain(g, CATALOG.at[a], -1) == 0]
        if guilds:
            return self.best(guilds, lambda a: p.guild[CATALOG.at[a]])
        return CATALOG.SKIP

    def card_influence(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        p = g.players[g.current]

        def score(a: int) -> float:
            if a == CATALOG.INK_WELL:  # Tides of Trade: up to 3 tokens there pay for any Ink Well ability
                return 100.0 if p.ink < 3 else 0.5
            return card_value(g, p, g.market[CATALOG.at[a]], self.tastes)

        return self.best(legal, score)

    def move_influence(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state

        def score(a: int) -> float:
            src, dst = MOVES[CATALOG.at[a]]
            order = self.tastes.guild_order  # red (Tides of Trade) after the three base guilds
            rank = order.index(dst) if dst in order else len(order)
            return self._guild_gain(g, src, -1) + self._guild_gain(g, dst, 1) - 0.1 * rank

        return self.best(legal, score)

    # -- journal
    def journal(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        p = g.players[g.current]
        t = g.tables

        def score(a: int) -> float:
            if a == CATALOG.HOURGLASS_FILL:  # worth 2 VP at the end, and an easier splotch later
                return 2.5
            dst = CATALOG.at[a]
            node = t.nodes[dst]
            v = effect_value(node.effect, self.tastes)
            if node.takes_tile and g.node_tile[dst] >= 0:
                v += effect_value(t.content.journal_tiles[g.node_tile[dst]][1], self.tastes)
            if node.next:
                v += 3.0 * max(link_progress(g, p, dst, n) for n in node.next)
            return v

        return self.best(legal, score)

    # -- Tides of Trade
    def employ_trader(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        return self.best(legal, lambda a: effect_value(trader_effect(g, CATALOG.at[a]), self.tastes))

    def worker_pair(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        tides = g.tables.content.tides
        assert tides is not None

        def score(a: int) -> float:
            v = 0.0
            for half in worker_halves(g, CATALOG.at[a]):
                h = tides.halves[half]
                v += h.vp + (effect_value(h.effect, self.tastes) if h.effect is not None else 0.0) + 0.5 * len(h.tags)
            return v

        return self.best(legal, score)

    def worker_column(self, game: Game, legal: list[int], params: tuple) -> int:
        """Under the colour the player has most workers of: its effects come back most often."""
        g = game.state
        p = g.players[g.current]
        cols = worker_columns(g.tables)
        return self.best(legal, lambda a: p.workers[cols[CATALOG.at[a]]])

    @staticmethod
    def last(game: Game, legal: list[int], params: tuple) -> int:
        return legal[-1]

    def hourglass_saving(self, game: Game, legal: list[int], params: tuple) -> int:
        """Keep the influence worth more where it stands (guild majorities)."""
        g = game.state
        return self.best(legal, lambda a: -self._guild_gain(g, CATALOG.at[a], -1))  # the lead a spend would cost

    def science(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        p = g.players[g.current]
        others = max(q.guild[0] for q in g.players if q is not p)
        if self.tastes.use_science or p.guild[0] > others + 1:
            return CATALOG.BLACK
        return CATALOG.SKIP

    # -- dice effects
    def refresh(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        p = g.players[g.current]
        placed = [a for a in legal if a in CATALOG.REFRESH_PLACED]
        if placed:
            return self.best(placed, lambda a: self.space_value(g, CATALOG.at[a], 1))
        t = g.tables
        before = ready_dice(t, p)

        def score(a: int) -> float:  # reroll a die that fits nowhere
            f = CATALOG.at[a] + 1
            d = next(d for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY and p.dice_face[d] == f)
            p.dice_loc[d] = -2
            left = ready_dice(t, p)
            p.dice_loc[d] = SUPPLY
            return left - before

        return self.best(legal, score)

    def adjust(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        p = g.players[g.current]
        t = g.tables

        def score(a: int) -> float:
            k = CATALOG.at[a]
            f, up = k // 2 + 1, k % 2 == 0
            d = next(d for d in range(len(p.dice_loc)) if p.dice_loc[d] == SUPPLY and p.dice_face[d] == f)
            p.dice_face[d] = f + (1 if up else -1)
            n = ready_dice(t, p)
            p.dice_face[d] = f
            return n

        return self.best(legal, score)

    def retrieve(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state

        def score(a: int) -> float:
            i, colour = g.tables.retrieve_of_action[CATALOG.at[a]]
            return (1.0 if colour == 2 else 0.5) - (0.8 if fee_owner(g, i) >= 0 else 0.0)

        return self.best(legal, score)

    def capture(self, game: Game, legal: list[int], params: tuple) -> int:
        """A worker on a card comes free; from an opponent's supply it costs a silver or provision
        paid to them, so it is taken only when no card holds one."""
        free = [a for a in legal if a in CATALOG.RETRIEVE]
        return self.retrieve(game, free, params) if free else legal[0]

    # -- cards
    def slot_score(self, g: GameState, row: int, slot: int, free: bool, discount: int) -> float:
        p = g.players[g.current]
        i = row * 4 + slot
        card = g.market[i]
        v = card_value(g, p, card, self.tastes)
        v -= 0.7 * card_price(g, row, card, slot, free, discount)
        v += 1.0 * bin(g.market_workers[i]).count("1")
        if g.market_extra[i]:  # Tides of Trade: a second worker of a colour (never-blocked tiles)
            v += 1.0 * sum(extra_on(g.market_extra[i], c) for c in range(3))
        if fee_owner(g, i) >= 0:
            v -= 0.7
        return v

    def acquire(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        row, free, discount = params[0], params[1], params[2]
        slots = [a for a in legal if a in CATALOG.SLOT]
        if not slots:
            return CATALOG.DRAW
        a = self.best(slots, lambda a: self.slot_score(g, row, CATALOG.at[a], free, discount))
        if CATALOG.DRAW in legal and self.slot_score(g, row, CATALOG.at[a], free, discount) < self.tastes.draw_below:
            return CATALOG.DRAW
        return a

    def fee(self, game: Game, legal: list[int], params: tuple) -> int:
        p = game.state.players[game.current_player]
        silver_worth = self.tastes.atom("silver") * (1.5 if p.silver <= 3 else 1.0)
        prov_worth = self.tastes.atom("provisions") * (1.5 if p.provisions <= 2 else 1.0)
        return CATALOG.FEE[0] if CATALOG.FEE[0] in legal and silver_worth <= prov_worth else legal[-1]

    def keep(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        p = g.players[g.current]
        drawn = params[1]
        return self.best(legal, lambda a: card_value(g, p, drawn[CATALOG.at[a]], self.tastes))

    def tuck(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        t = g.tables
        folk = t.cards[params[0]]

        def score(a: int) -> float:
            if a == CATALOG.MARKET:  # an Overseer: rests while a trader is on the Market
                return 1.5
            if a == CATALOG.DISMISS:
                return effect_value(folk.dismiss, self.tastes) if folk.dismiss is not None else 0.0
            host = t.cards_by_host[CATALOG.at[a]]
            has_space = host in t.space_of_card
            if folk.resting is not None:
                return 0.0
            return (2.0 if has_space else 0.0) + (1.0 if folk.ability is not None and t.cards[host].is_vista else 0.0)

        return self.best(legal, score)

    def inspire(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        t = g.tables
        p = g.players[g.current]
        goal = t.cards[params[0]].goal
        terms = p.terms()
        reach = progress(goal, terms) if goal is not None else 0.0
        targets = [a for a in legal if a in CATALOG.INSPIRE]
        if not targets or reach < 0.5:
            return CATALOG.DISCARD

        def space_vp(a: int) -> float:
            vp = t.cards[t.cards_by_space_pos[CATALOG.at[a]]].vp
            assert vp is not None  # every space card prints its VP (checked at load)
            return vp(terms)

        return self.best(targets, space_vp)

    # -- tiles
    def design_value(self, g: GameState, d: int) -> float:
        design = g.tables.designs[d]
        v = design.vp + sum(self.tastes.tag(tag) for tag in design.tags)
        wants = journal_wants(g, g.players[g.current])
        if wants:
            hits = ("tiles" in wants) + (design.kind + "_tiles" in wants) + sum(1 for tag in design.tags if tag in wants)
            v += self.tastes.journal_want * hits
        for face in design.faces[:1]:
            for col in face:
                for icon in col:
                    if icon == "up_down":
                        v += self.tastes.icons[4] + self.tastes.icons[5]
                    else:
                        v += self.tastes.icons[
                            ("camel", "ship", "pigeon", "telescope", "up", "down", "silver_discount", "provision_discount").index(icon)
                        ]
        return v

    def tile_design(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        return self.best(legal, lambda a: self.design_value(g, CATALOG.at[a]))

    def tile_price(self, game: Game, legal: list[int], params: tuple) -> int:
        p = game.state.players[game.current_player]
        if CATALOG.TILE_PAY[0] in legal and (p.silver >= 5 or CATALOG.TILE_PAY[1] not in legal):
            return CATALOG.TILE_PAY[0]
        return CATALOG.TILE_PAY[1] if CATALOG.TILE_PAY[1] in legal else legal[0]

    def tile_position(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        t = g.tables
        p = g.players[g.current]
        bonus = t.board_bonus[p.board]
        design = params[0]

        def score(a: int) -> float:
            k = CATALOG.at[a]
            cell, flipped = divmod(k, 2)
            y, x = divmod(cell, t.cols)
            mask = tile_footprint(t, design, x, y)
            v = sum(effect_value(bonus[c], self.tastes) for c in bonus if mask >> c & 1)
            for dx, vec in enumerate(t.design_faces[design][flipped]):
                col = p.col[x + dx]
                # an asset is worth more in a column that lacks it
                v += sum(0.3 for i in range(len(ASSETS)) if vec[i] and not col[i])
            return v

        return self.best(legal, score)

    # -- workers
    def worker_spot_value(self, g: GameState, a: int) -> float:
        """Worth of sending the worker to target ``a``: the spot's effects, less a fee to pay."""
        t = g.tables
        i = CATALOG.at[a]
        return effect_value(t.spots[i // t.slots][i % t.slots], self.tastes) - (0.8 if fee_owner(g, i) >= 0 else 0.0)

    def worker_target(self, game: Game, legal: list[int], params: tuple) -> int:
        g = game.state
        return self.best(legal, lambda a: self.worker_spot_value(g, a))
