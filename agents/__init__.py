"""Baseline bots for wayfarers: random, heuristic strategies, search, trained policies."""

from .base import Bot, View, choose
from .registry import make_bot

__all__ = ["Bot", "View", "choose", "make_bot"]
