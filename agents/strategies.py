"""Three heuristic strategies, each a plan a person could follow at the table.

They share the one-turn lookahead of ``lookahead.LookaheadBot`` but search only the decisions
that shape a turn (the main action, the die space and its chain, the Trade guild's changes, the
order of an effect's parts, which card, which journal step, which tile design, which worker spot,
where an inspiration card goes); everything else is answered by their rules. What makes them play differently is *what
they value*: each sets its own ``Estimate`` (how a position is scored) and ``Tastes`` (how its
rules and rollouts judge effects, cards, tags and caravan icons).
"""

from __future__ import annotations

from .defaults import Tastes
from .evaluation import Estimate
from .lookahead import LookaheadBot

SEARCHED = (
    "turn",
    "caravan_chain",
    "die_space",
    "effect",
    "acquire_card",
    "worker_target",
    "journal",
    "draw_keep",
    "tile_design",
    "place_inspiration",
    "choose_guild",
)
# the strategies also search the Trade guild's changes: left to a rule, a bot paid the influence for
# the change its search had valued and then made another (issue 14: it skipped both, every time)
STRATEGY_SEARCH = (*SEARCHED, "trade_guild")


class JournalRunner(LookaheadBot):
    """Race the journal track and end the game on its own terms.

    Plan: every journal step is worth more than to anyone else (``journal`` 2.5 VP a column early
    on, ``journal_open`` 4 for standing before a splotch it can cross), and when the way ahead is
    blocked its rules value exactly the tags, cards and tiles the next splotches ask for
    (``journal_want`` 3); it spends black influence (Science guild) for the extra step whenever it
    can and keeps black influence for the splotches that cost it. Primary tags interest it a
    little (0.4 each), because a race won with no VP is still lost. On the way it collects what the track hands
    out: inspiration cards (columns 2 and 6), pink special tiles with their tags and VP (columns 4
    and 8), green workers and new dice. Library spaces and the townsfolk row's journal spot are
    its favourite actions. ``closing`` is doubled, so once ahead it heads for the final spaces,
    leaving opponents little time to convert their engines.
    """

    name = "journal"
    estimate = Estimate(
        journal=2.5,
        journal_open=4.0,
        closing=20.0,
        guild=0.5,
        inspiration=0.9,
        tags={"library": 0.4, "city": 0.4, "vista": 0.4, "harbour": 0.4, "open_water": 0.4},
    )
    tastes = Tastes(
        atoms={"journal": 2.5, "inspiration": 1.5, "tile": 1.2, "guild": 1.2},
        leaves={"journal": 2.0, "tile_special": 1.5, "guild_black": 1.5, "inspiration": 1.3},
        tags={"library": 1.2, "observatory": 0.6},
        guild_order=(0, 2, 1),
        use_science=True,
        journal_want=3.0,
    )

    def __init__(self) -> None:
        super().__init__(self.estimate, self.tastes, search=STRATEGY_SEARCH)


class Astronomer(LookaheadBot):
    """Fill the sky: Space cards, observatories, the comet majority and inspiration goals.

    Plan: telescopes in the caravan (Space tiles, the telescope basic tile, Astronomer townsfolk)
    open the capital Observatory and observatory Cities, whose actions buy Space cards and Space
    tiles; Silver is worth more to it (Space cards cost 3-5). It values every Space card on top of
    its VP, and comets, planets, the Sun and the Moon most, because the comet majority (4 VP per
    comet card), planet sets and the Sun/Moon pair multiply. Land and Water cards interest it
    mainly as places to hang Space cards. Inspiration cards go above its best Space card when
    the goal is within reach, doubling that card.
    """

    name = "astronomer"
    estimate = Estimate(
        silver=0.9,
        space_card=3.0,
        space_host=0.6,
        inspiration=1.5,
        asset_extra=(0.0, 0.0, 0.0, 1.5),
        tags={"stars": 0.6, "planet": 1.5, "comet": 1.5, "sun": 3.0, "moon": 3.0, "observatory": 1.5},
    )
    tastes = Tastes(
        atoms={"space_card": 1.8, "inspiration": 1.5, "silver": 1.2},
        leaves={"space_card": 1.6, "tile_space": 1.5, "inspiration": 1.4, "silver": 1.2},
        tags={"stars": 1.5, "planet": 2.0, "comet": 2.0, "sun": 3.0, "moon": 3.0, "observatory": 1.2},
        icons=(0.8, 0.8, 0.8, 2.0, 0.4, 0.4, 1.0, 0.4),
        guild_order=(0, 1, 2),
    )

    def __init__(self) -> None:
        super().__init__(self.estimate, self.tastes, search=STRATEGY_SEARCH)


class Cartographer(LookaheadBot):
    """Map the land and the sea: primary tags, common and unique sets, vistas, connection links.

    Plan: Land and Water cards are its currency. Camels and ships in the caravan open the capital
    City and Harbour (2 Provisions for a card), so Provisions are worth more to it; the draw-3
    options let it dig for the card it needs. Every primary tag (city, vista, harbour, open water)
    is valued on top of its VP up to 7 of a kind, a complete set of the four is worth extra, and
    when judging a card it prefers the tag it has fewest of, so the unique sets keep growing.
    Vistas pay it each time a later card sets them off, and Water cards are judged with the
    connection links they would complete.
    """

    name = "cartographer"
    estimate = Estimate(
        provisions=0.8,
        land_card=0.8,
        water_card=0.8,
        unique_set=2.0,
        asset_extra=(0.5, 0.5, 0.0, 0.0),
        tags={"city": 0.7, "vista": 0.7, "harbour": 0.7, "open_water": 0.7},
    )
    tastes = Tastes(
        atoms={"land_card": 1.6, "water_card": 1.6, "draw_three": 1.5, "provisions": 1.2},
        leaves={"land_card": 1.5, "water_card": 1.5, "draw_land": 1.5, "draw_water": 1.5, "pay_provisions": 1.3},
        tags={"city": 2.0, "vista": 2.0, "harbour": 2.0, "open_water": 2.0},
        icons=(1.5, 1.5, 1.0, 0.6, 0.4, 0.4, 0.6, 1.0),
        guild_order=(2, 1, 0),
        balance_primary=1.5,
    )

    def __init__(self) -> None:
        super().__init__(self.estimate, self.tastes, search=STRATEGY_SEARCH)


STRATEGIES = {bot.name: bot for bot in (JournalRunner, Astronomer, Cartographer)}
