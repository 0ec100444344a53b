"""A single-agent Gymnasium view of the game: one learner against bots.

``SingleAgentEnv(opponents=..., seat=..., **env_config)`` plays the learner's decisions through
``step()``; the opponents' decisions are made inside ``step()`` (and ``reset()``, when they move
first) until the learner decides again or the game ends, so a game that ends on an opponent's
move still returns the learner's final reward. The observation is the flat observation vector
(a ``Box``) and ``action_masks()`` gives the legal actions, which is what sb3-contrib's
``MaskablePPO`` expects (also under ``SubprocVecEnv``).

Opponents are bots (objects with ``decide(view, legal_actions, rng)``, the interface of
``wayfarers_env.envs.players``; the ``agents`` package has the heuristic and search bots, e.g.
``agents.make_bot("greedy")``), plain callables with the same signature as ``decide``, or the
name "random" (the built-in uniform random opponent). One spec serves every opponent; a list
gives one per opponent, in turn order after the learner. A bot only ever sees a determinized
``View`` (``players.choose``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from wayfarers_env.envs.aec import EnvStateError, raw_env
from wayfarers_env.envs.observation import OBS_SIZE, observation_bounds
from wayfarers_env.envs.players import RandomBot, choose
from wayfarers_env.envs.render import render_text
from wayfarers_env.rules.actions import NUM_ACTIONS
from wayfarers_env.rules.engine import IllegalActionError
from wayfarers_env.rules.state import ConfigError

ILLEGAL_REWARD = -1.0
SEATS = ("random", "rotate")


class _CallableBot:
    """A plain function used as a bot."""

    def __init__(self, fn: Callable, label: str):
        self._fn = fn
        self.name = label

    def decide(self, view, legal_actions: list[int], rng: random.Random) -> int:
        return self._fn(view, legal_actions, rng)


def make_bot(spec: Any) -> Any:
    """An opponent from a bot object (has ``decide``), a callable ``(view, legal_actions, rng) ->
    action``, or "random". Other bot names belong to the ``agents`` registry, which this layer
    does not import: pass ``agents.make_bot(name)``."""
    if isinstance(spec, str):
        if spec == "random":
            return RandomBot()
        raise ConfigError(
            f"unknown opponent name {spec!r}: the environment knows only 'random'; "
            f"pass a bot object instead, e.g. opponents=agents.make_bot({spec!r})"
        )
    if hasattr(spec, "decide"):
        return spec
    if callable(spec):
        return _CallableBot(spec, getattr(spec, "__name__", "callable"))
    raise ConfigError(f"an opponent is a bot (with decide()), a callable or 'random', got {spec!r}")


class SingleAgentEnv(gymnasium.Env):
    """One learner seat against bots, as a Gymnasium environment.

    ``seat``: an int, "random" (drawn each episode from the env's seeded generator) or "rotate"
    (0, 1, ... n-1, 0, ...; restarts at 0 after a seeded reset). ``illegal_action``:
    "terminate" (default: the episode ends with reward ILLEGAL_REWARD and ``info["illegal_action"]``
    says what was wrong; Gymnasium tools such as ``check_env`` step unmasked random actions) or
    "raise" (``IllegalActionError``, nothing changes). Other keyword arguments configure the game
    and reward exactly as for ``wayfarers_env.env`` (they go to its ``raw_env`` unchanged, so the
    two never disagree on a game option), e.g. ``tides_of_trade=True, card_influence="ink_well"``
    for the Tides of Trade expansion.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        opponents: Any = "random",
        seat: int | str = 0,
        illegal_action: str = "terminate",
        **env_config: Any,
    ):
        super().__init__()
        self.aec = raw_env(**env_config)
        n = self.aec.config.num_players
        self.num_players = n
        if isinstance(seat, str):
            if seat not in SEATS:
                raise ConfigError(f"seat must be an int 0..{n - 1}, 'random' or 'rotate', got {seat!r}")
        elif not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise ConfigError(f"seat must be an int 0..{n - 1}, 'random' or 'rotate', got {seat!r}")
        if illegal_action not in ("terminate", "raise"):
            raise ConfigError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        specs = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (n - 1)
        if len(specs) != n - 1:
            raise ConfigError(f"{n} players need {n - 1} opponent(s), got {len(specs)}")
        self.opponents = [make_bot(s) for s in specs]
        self.seat_mode = seat
        self.illegal_action = illegal_action
        self.render_mode = self.aec.render_mode
        low, high = observation_bounds()
        self.observation_space = spaces.Box(low, high, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.seat = seat if isinstance(seat, int) else 0
        self._rotation = 0
        self._over = True
        self._bot_rng = random.Random(0)
        self._bots: dict[int, Any] = {}

    @property
    def agent(self) -> str:
        return self.aec.possible_agents[self.seat]

    @property
    def game(self):
        return self.aec.game

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(0, 2**62))
        bot_seed = int(rng.integers(0, 2**62))
        if seed is not None:
            self._rotation = 0
        if self.seat_mode == "random":
            self.seat = int(rng.integers(0, self.num_players))
        elif self.seat_mode == "rotate":
            self.seat = self._rotation % self.num_players
            self._rotation += 1
        n = self.num_players
        self._bots = {(self.seat + 1 + j) % n: bot for j, bot in enumerate(self.opponents)}
        self._bot_rng = random.Random(bot_seed)
        self.aec.reset(seed=game_seed)
        self._over = False
        self._play_opponents()
        if self._over:
            raise EnvStateError("the game ended before the learner's first decision (max_cycles is too small)")
        return self._obs(), {"seat": self.seat}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._over:
            raise EnvStateError("the episode is over (terminated or truncated); call reset() to start a new one")
        if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
            action = action.reshape(()).item()
        try:
            self.aec.step(action)
        except IllegalActionError as exc:
            if self.illegal_action == "raise":
                raise
            self._over = True
            return self._obs(), ILLEGAL_REWARD, True, False, {"illegal_action": str(exc)}
        self._play_opponents()
        aec, agent = self.aec, self.agent
        terminated = aec.terminations[agent]
        truncated = aec.truncations[agent]
        reward = float(aec._cumulative_rewards[agent]) if terminated else 0.0
        info = copy.deepcopy(aec.infos[agent]) if (terminated or truncated) else {}
        return self._obs(), reward, terminated, truncated, info

    def _play_opponents(self) -> None:
        aec = self.aec
        me = self.agent
        game = aec.game
        assert game is not None  # reset() made it; stepping never replaces it
        while True:
            if aec.terminations[me] or aec.truncations[me]:
                self._over = True
                return
            cur = aec.agent_selection
            if cur == me:
                return
            seat = game.current_player
            aec.step(choose(self._bots[seat], game, self._bot_rng))

    def _obs(self) -> np.ndarray:
        return self.aec.observation_array(self.agent)

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (all False once the episode is over)."""
        if self._over:
            return np.zeros(NUM_ACTIONS, bool)
        return self.aec.action_mask(self.agent).astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called with render_mode=None; create the env with render_mode='ansi'")
            return None
        if self.aec.game is None:
            raise EnvStateError("call reset() before render()")
        return render_text(self.aec.game, self.seat)


def make_env(opponents: Any = "random", seat: int | str = 0, **env_config: Any) -> Callable[[], SingleAgentEnv]:
    """A picklable factory for vectorised environments (e.g. ``SubprocVecEnv([make_env(...)] * 4)``)."""

    def _make() -> SingleAgentEnv:
        return SingleAgentEnv(opponents=opponents, seat=seat, **env_config)

    return _make


__all__: Sequence[str] = ("ILLEGAL_REWARD", "SingleAgentEnv", "make_bot", "make_env")
