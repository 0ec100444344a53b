"""Baseline bots for wayfarers: random, heuristic strategies, search, trained policies."""

import wayfarers_env  # noqa: F401 - first: it installs the guard against stale compiled modules (wayfarers_env.compiled)

from .base import Bot, View, choose
from .registry import make_bot

__all__ = ["Bot", "View", "choose", "make_bot"]
