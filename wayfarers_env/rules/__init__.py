"""The rules engine: state, the decision stack, and one module per game concept.

Importing any module of this package builds the engine first (``rules/engine.py`` lists the rule
modules and collects their icons, frames and records, then lays out the action catalog), so a
module imported on its own sees the whole engine.
"""

from wayfarers_env.rules import engine  # noqa: F401  (builds the engine)
