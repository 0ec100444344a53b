"""``import wayfarers_env.gym`` registers the Gymnasium ids ``wayfarers/Wayfarers-v4`` and
``wayfarers/WayfarersSolo-v4`` (see ``wayfarers_env.envs.registration``); a plain
``import wayfarers_env`` does not, so engine-only users never load Gymnasium."""

from wayfarers_env.envs.registration import IDS, register_envs

__all__ = ["IDS", "register_envs"]
