"""Environments over the engine: PettingZoo AEC, cyclic/parallel views, single-agent Gymnasium view."""

from wayfarers_env.envs import registration as _registration  # noqa: F401, E402  (the wayfarers/ Gymnasium ids)
