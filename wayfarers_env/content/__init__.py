"""The game's content: data files, the effect grammar, counting expressions, the loader."""

from wayfarers_env.content.loader import *  # noqa: F401,F403
