"""Gymnasium ids for the single-agent view, under the ``wayfarers/`` namespace.

``import wayfarers_env.gym`` (or importing any environment) registers them; ``gymnasium.make``
also accepts ``"wayfarers_env.gym:wayfarers/Wayfarers-v4"``, which imports it for you. The
version follows the environment's (``wayfarers_v4``: its spaces); keyword arguments of
``gymnasium.make`` go to ``SingleAgentEnv`` unchanged, so every game option works.
"""

from __future__ import annotations

import gymnasium

ENTRY = "wayfarers_env.envs.wrappers:SingleAgentEnv"
IDS = {
    "wayfarers/Wayfarers-v4": {},  # one learner against bots (default: 1 random opponent)
    "wayfarers/WayfarersSolo-v4": {"num_players": 1, "solo_ai_board": 1},  # against the rulebook's solo AI
}


def register_envs() -> None:
    """Register the ids once (a second call, e.g. after a reload, changes nothing)."""
    for env_id, kwargs in IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY, kwargs=kwargs, disable_env_checker=True)


register_envs()
