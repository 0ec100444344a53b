"""The greedy bot: the best-looking choice at every decision, one turn deep, no strategy.

Every decision with more than one legal action is searched: each action is applied to a clone of
the bot's determinized view, the rest of the turn is played by the neutral rule policy
(``defaults.PLAIN``), and the end-of-turn position is valued by ``evaluation.evaluate`` with the
``NEUTRAL`` estimate: current VP from ``scores()`` plus resources, dice, workers, journal
progress, caravan icons, die spaces, townsfolk and inspiration progress, scaled down as the end
nears, minus the same for the best opponent. The main action ("turn") is searched two decisions
deep (a worker is judged by its best spot, a die by its best space), every later decision one
deep. It never looks past its own turn, so it neither plans a card for next turn nor guards
against the opponent's reply; that is what "greedy" means. Cost: about a millisecond per
decision on one core (docs/RESULTS.md has the measured games per second).
"""

from __future__ import annotations

from .defaults import PLAIN
from .evaluation import NEUTRAL
from .lookahead import LookaheadBot


class GreedyBot(LookaheadBot):
    name = "greedy"

    def __init__(self) -> None:
        super().__init__(estimate=NEUTRAL, tastes=PLAIN, search=None)
