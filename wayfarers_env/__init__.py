"""wayfarers: a rules-exact engine and RL environment for Wayfarers of the South Tigris."""

from wayfarers_env.rules.actions import NUM_ACTIONS, describe_action
from wayfarers_env.rules.engine import Game, IllegalActionError
from wayfarers_env.rules.state import ConfigError, GameConfig

__all__ = ["NUM_ACTIONS", "ConfigError", "Game", "GameConfig", "IllegalActionError", "describe_action", "env", "raw_env"]
__all__ += ["cyclic_env", "parallel_env"]  # the cyclic / parallel view (wayfarers_env.cyclic)
__version__ = "0.1.0"


def __getattr__(name: str):
    # env / raw_env load PettingZoo and Gymnasium on first use, so engine-only users (bots,
    # search workers) keep a light import
    if name in ("env", "raw_env"):
        from wayfarers_env.envs import aec

        return getattr(aec, name)
    if name in ("cyclic_env", "parallel_env"):
        from wayfarers_env.envs import cyclic

        return getattr(cyclic, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
