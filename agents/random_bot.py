"""Uniform random play over the legal actions: the floor every other bot must beat (defined with
the environments, which use it as their built-in opponent)."""

from __future__ import annotations

from wayfarers_env.envs.players import RandomBot

__all__ = ["RandomBot"]
