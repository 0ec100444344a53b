"""Tides of Trade's worker upgrade tiles (ToT "Acquiring Worker Upgrade Tiles"): the stacks on the
main-board extensions, the worker caravan on the player-board extension, and the tiles' effects
when a worker of their colour is placed.

Only the icon's grammar is declared so far: the data may name it; its rule comes with the
expansion's rules (issue 12).
"""

from __future__ import annotations

from wayfarers_env.rules.icons import icon

ICONS = (icon("worker_tile", expansion=True),)  # acquire a worker upgrade tile
FRAMES = ()
