"""wayfarers: a rules-exact engine and RL environment for Wayfarers of the South Tigris.

Layers, each importing only those before it: ``vocabulary`` and ``content`` (the game's words and
data), ``rules`` (the engine: ``Game``), ``envs`` (PettingZoo / Gymnasium views). Bots live in the
``agents`` package and tools in ``experiments``; neither is imported from here.
"""

from wayfarers_env import compiled  # noqa: F401 - first: its import installs the guard against stale compiled modules
from wayfarers_env.rules.actions import NUM_ACTIONS, action_id, describe_action
from wayfarers_env.rules.config import ConfigError, GameConfig
from wayfarers_env.rules.engine import Game, IllegalActionError
from wayfarers_env.rules.scenario import ScenarioError, build_scenario

__all__ = [
    "NUM_ACTIONS",
    "ConfigError",
    "Game",
    "GameConfig",
    "IllegalActionError",
    "ScenarioError",
    "SingleAgentEnv",
    "action_id",
    "build_scenario",
    "cyclic_env",
    "describe_action",
    "env",
    "parallel_env",
    "raw_env",
]
__version__ = "0.1.0"


def __getattr__(name: str):
    # the environments load PettingZoo and Gymnasium on first use, so engine-only users (bots,
    # search workers) keep a light import
    if name in ("env", "raw_env"):
        from wayfarers_env.envs import aec

        return getattr(aec, name)
    if name in ("cyclic_env", "parallel_env"):
        from wayfarers_env.envs import cyclic

        return getattr(cyclic, name)
    if name == "SingleAgentEnv":
        from wayfarers_env.envs.wrappers import SingleAgentEnv

        return SingleAgentEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
