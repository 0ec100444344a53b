"""Tides of Trade's traders (ToT "Employing a Trader"): employing one, the Market on the player-board
extension that holds it, and its return after resting.

Only the icon's grammar is declared so far: the data may name it; its rule comes with the
expansion's rules (issue 12).
"""

from __future__ import annotations

from wayfarers_env.rules.icons import icon

ICONS = (icon("trader", expansion=True),)  # employ a trader
FRAMES = ()
