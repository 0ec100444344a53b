"""The solo AI's icons (rulebook, "Solo Mode"; data in content/data/solo.toml).

The AI's scheme cards and boards are written with icons of their own (``ai_card(land)``,
``ai_worker(green, yellow)``...). Only the AI resolves them, by its priority rules, never a player
through the effect bag, so they carry grammar and no player rule here; the AI's turn resolution
belongs with the solo game (not built yet), and will own their rules in this module.
"""

from __future__ import annotations

from wayfarers_env.rules.icons import icon
from wayfarers_env.vocabulary import CARD_KINDS, TILE_KINDS, WORKER_COLOURS

ICONS = (
    icon("ai_focus", solo_only=True),
    icon("ai_worker", args=(WORKER_COLOURS, WORKER_COLOURS), solo_only=True),
    icon("ai_card", args=(CARD_KINDS,), arg_required=True, solo_only=True),
    icon("ai_tile", args=((*TILE_KINDS, "any", "worker"),), solo_only=True),  # "worker": a Tides of Trade worker upgrade tile
    icon("ai_card_influence", solo_only=True),
    icon("ai_comet", solo_only=True),
    icon("ai_retrieve_worker", solo_only=True),
)
FRAMES = ()
