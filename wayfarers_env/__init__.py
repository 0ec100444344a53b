"""wayfarers: a rules-exact engine and RL environment for Wayfarers of the South Tigris."""

from .actions import NUM_ACTIONS, describe_action
from .engine import Game, IllegalActionError
from .state import ConfigError, GameConfig

__all__ = ["NUM_ACTIONS", "ConfigError", "Game", "GameConfig", "IllegalActionError", "describe_action"]
__version__ = "0.1.0"
