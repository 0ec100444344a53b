"""Wayfarers for RLlib's new API stack: a turn-based ``MultiAgentEnv`` and a masking PPO module.

The env wraps the PettingZoo AEC env (``raw_env``) so RLlib sees the same game, seeds and rewards
as every other trainer here. It is turn-based the way RLlib expects: the observation dict holds
only the agent that decides now (a turn of several decisions is several steps of one agent), and
the step that ends the game gives every agent its final observation and reward, so each seat's
episode closes with the outcome. Every agent has the same spaces, so one policy can play any seat.

Each observation is ``{"observations": vector, "action_mask": 0/1 per action}``: the keys of
RLlib's ``ActionMaskingTorchRLModule`` example, so that module would also read it. Our own
``MaskedPPOTorchRLModule`` leaves the batch it is given unchanged (the example pops the mask
out of it in ``compute_values`` and relies on that mutation in training) and sets the logits of
illegal actions to the lowest float instead of adding ``log(mask)``.

Ray is imported by this module, ``rllib_train`` and ``ray_backend`` only, so the rest of the
project never needs the [ray] extra.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN

from wayfarers_env.envs.aec import raw_env
from wayfarers_env.envs.observation import OBS_SIZE, Encoder, observation_bounds
from wayfarers_env.rules.actions import NUM_ACTIONS

OBS_KEY = "observations"  # the keys RLlib's action-masking modules read
MASK_KEY = "action_mask"
ENV_KEYS = ("num_players", "reward", "board_sides", "max_cycles", "tides_of_trade", "card_influence", "extension_sides")


def observation_space() -> spaces.Dict:
    """The one observation space of every agent: the flat observation and the legal-action mask
    (float, as the module adds it to float logits)."""
    low, high = observation_bounds()
    return spaces.Dict(
        {
            OBS_KEY: spaces.Box(low, high, (OBS_SIZE,), np.float32),
            MASK_KEY: spaces.Box(0.0, 1.0, (NUM_ACTIONS,), np.float32),
        }
    )


class WayfarersMultiAgentEnv(MultiAgentEnv):
    """``WayfarersMultiAgentEnv(config)``: ``config`` holds the keyword arguments of ``raw_env``
    (the env section of a training config: ``ENV_KEYS``). Agents are ``player_0..``."""

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        self.aec = raw_env(**{k: v for k, v in dict(config or {}).items() if k in ENV_KEYS})
        self.possible_agents = list(self.aec.possible_agents)
        self.agents = list(self.possible_agents)
        space = observation_space()
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces: dict[Any, spaces.Space] = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}

    def _obs(self, agent: Any) -> dict[str, np.ndarray]:
        obs = self.aec.observe(agent)
        return {OBS_KEY: obs["observation"], MASK_KEY: obs["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.aec.reset(seed=seed)
        self.agents = list(self.possible_agents)
        first = self.aec.agent_selection
        return {first: self._obs(first)}, {}

    def step(self, action_dict: dict[Any, Any]):
        aec = self.aec
        agent = aec.agent_selection
        if agent not in action_dict:
            raise ValueError(f"it is {agent}'s decision; got actions for {sorted(action_dict)}")
        aec.step(int(action_dict[agent]))
        terminated, truncated = aec.terminations[agent], aec.truncations[agent]
        if not (terminated or truncated):
            nxt = aec.agent_selection
            return {nxt: self._obs(nxt)}, {agent: 0.0}, {"__all__": False}, {"__all__": False}, {}
        every = self.possible_agents
        obs = {a: self._obs(a) for a in every}  # the mask is all zeros: nobody decides any more
        rewards = {a: float(aec.rewards[a]) for a in every}
        infos = {a: dict(aec.infos[a]) for a in every}
        return obs, rewards, {"__all__": terminated}, {"__all__": truncated}, infos


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's default torch module over ``observations``, with illegal actions' logits at the
    lowest float so that they are never sampled and never chosen greedily."""

    def __init__(self, *, observation_space: spaces.Space | None = None, **kwargs: Any):
        if not isinstance(observation_space, spaces.Dict) or {OBS_KEY, MASK_KEY} - set(observation_space.spaces):
            raise ValueError(f"MaskedPPOTorchRLModule needs a Dict observation space with {OBS_KEY!r} and {MASK_KEY!r}")
        self._with_mask = observation_space
        super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self) -> None:
        super().setup()  # the networks are built for the observation vector alone
        self.observation_space = self._with_mask  # what the connectors and a checkpoint see

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        return obs[MASK_KEY], {**batch, Columns.OBS: obs[OBS_KEY]}

    @staticmethod
    def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        import torch

        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0.5, logits, torch.full_like(logits, FLOAT_MIN))
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, plain = self._split(batch)
        return self._masked(super()._forward(plain, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, plain = self._split(batch)
        return self._masked(super()._forward_train(plain, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if embeddings is None and isinstance(batch[Columns.OBS], dict):
            batch = self._split(batch)[1]
        return super().compute_values(batch, embeddings)


class RLlibBot:
    """A restored RLlib module playing as an ordinary bot (``agents.base.Bot``): it sees its
    seat's observation and the legal actions as the env showed them in training. ``module`` is
    one module for every seat, or a dict seat -> module (policies trained per seat). Greedy by
    default; ``greedy=False`` samples from the masked distribution with the bot's generator,
    so a seeded game still replays exactly."""

    def __init__(self, module: Any, greedy: bool = True, name: str = "rllib"):
        self.modules = module if isinstance(module, dict) else None
        self.module = module
        self.greedy = greedy
        self.name = name
        self._encoder = Encoder()

    def decide(self, view: Any, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        import torch

        mask = np.zeros(NUM_ACTIONS, np.float32)
        mask[legal_actions] = 1.0
        obs = self._encoder.encode(view.game, view.seat)
        batch = {Columns.OBS: {OBS_KEY: torch.from_numpy(obs[None]), MASK_KEY: torch.from_numpy(mask[None])}}
        with torch.no_grad():
            module = self.module if self.modules is None else self.modules[view.seat]
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
        if self.greedy:
            return max(legal_actions, key=lambda a: logits[a])
        weights = np.exp(logits[legal_actions] - logits[legal_actions].max())
        return rng.choices(legal_actions, weights=weights.tolist())[0]
