"""The one interface every bot implements (``Bot``: ``decide(view, legal_actions, rng)``), the
seat-limited ``View`` it decides from, and ``choose``, which asks a bot through such a view.

They are defined by the environment layer (``wayfarers_env.envs.players``), which plays bots as
opponents; this module is where bot authors find them.
"""

from __future__ import annotations

from wayfarers_env.envs.players import Bot, View, choose

__all__ = ["Bot", "View", "choose"]
