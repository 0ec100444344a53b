"""Baseline bots for wayfarers: random, heuristic strategies, search, trained policies."""

from .base import Bot, View, choose

__all__ = ["Bot", "View", "choose"]
