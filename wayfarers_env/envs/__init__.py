"""Environments over the engine: PettingZoo AEC, cyclic/parallel views, single-agent Gymnasium view."""
