"""The PettingZoo AEC environment users import: ``wayfarers_env.env(**config)``.

Agents are ``player_0..player_{n-1}``; ``agent_selection`` is the seat that owns the engine's
current decision, so a turn of several decisions is several consecutive steps of one agent.
Rewards are 0 until the game ends; then every agent gets its final reward at once (PettingZoo
``_cumulative_rewards`` semantics: an agent that did not make the last move reads it from
``last()`` on its next, dead, step).

Illegal actions raise ``IllegalActionError`` (nothing changes) instead of ending the game as
PettingZoo's ``TerminateIllegalWrapper`` would: the action mask is exactly the legal set, so an
illegal action is a bug in the caller, and silently scoring it as a loss would hide the bug.
Wrap ``raw_env`` in ``TerminateIllegalWrapper`` yourself if you want that behaviour (tested).
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Literal

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterator

from wayfarers_env.envs.observation import OBS_SIZE, Encoder, observation_bounds
from wayfarers_env.envs.render import render_text
from wayfarers_env.rules.actions import NUM_ACTIONS
from wayfarers_env.rules.engine import Game, IllegalActionError
from wayfarers_env.rules.scoring import scores as _scores
from wayfarers_env.rules.state import ConfigError, GameConfig

REWARDS = ("win", "score", "rank")
SCORE_SCALE = 10.0  # "score" reward: VP difference to the best opponent / SCORE_SCALE
DEFAULT_MAX_CYCLES = 20_000  # decisions; random play ends a 4-player game in ~5,000 (longest seen ~8,200)


class EnvStateError(RuntimeError):
    """A call the environment cannot honour in its current state (e.g. step after the end)."""


def rewards_from_keys(keys: list[tuple[int, ...]], scheme: str) -> list[float]:
    """Per seat reward from final ``keys`` = (VP total, black, yellow, blue influence) per seat.

    win:   sole winner +1, everyone else -1. k < n players sharing the win (equal VP and equal
           black, yellow, blue influence: the rulebook's tie-break) get +1/k each, the others -1;
           if all n players share it, everyone gets 0.
    score: (own VP - best opponent's VP) / SCORE_SCALE (VP only, no tie-break).
    rank:  1 - 2 * position / (n - 1), position 0 = first ... n-1 = last by the same order as
           "win"; tied players share the mean of their positions.
    """
    n = len(keys)
    if scheme == "score":
        totals = [k[0] for k in keys]
        return [(totals[i] - max(totals[j] for j in range(n) if j != i)) / SCORE_SCALE for i in range(n)]
    if scheme == "win":
        best = max(keys)
        winners = [i for i in range(n) if keys[i] == best]
        if len(winners) == n:
            return [0.0] * n
        return [1.0 / len(winners) if i in winners else -1.0 for i in range(n)]
    if scheme == "rank":
        out = []
        for i in range(n):
            better = sum(1 for j in range(n) if keys[j] > keys[i])
            ties = sum(1 for j in range(n) if keys[j] == keys[i])
            out.append(1.0 - 2.0 * (better + (ties - 1) / 2) / (n - 1))
        return out
    raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, got {scheme!r}")


def final_keys(game: Game) -> list[tuple[int, ...]]:
    """(VP total, black, yellow, blue influence) per seat: the order that decides the winner."""
    g = game.state
    return [(s["total"], *p.guild) for s, p in zip(_scores(g), g.players)]


def final_rewards(game: Game, scheme: str) -> list[float]:
    """Per seat reward of a finished game under ``scheme`` (see ``rewards_from_keys``)."""
    return rewards_from_keys(final_keys(game), scheme)


def _ranks(game: Game) -> list[int]:
    keys = final_keys(game)
    return [1 + sum(1 for k in keys if k > key) for key in keys]


_MASKS: dict[tuple[int, ...], np.ndarray] = {}
SOLO_AI = "solo_ai"  # the solo AI's seat in infos (scores, winners)


def _legal_mask(legal: list[int]) -> np.ndarray:
    """A new int8 mask with 1 at ``legal``. Random play meets the same few thousand legal sets
    over and over (over 90% of decisions repeat one), and copying a kept mask is about half
    the cost of filling a fresh one."""
    key = tuple(legal)
    mask = _MASKS.get(key)
    if mask is None:
        if len(_MASKS) >= 4096:  # ~2.5 MB at most
            _MASKS.clear()
        fill = bytearray(NUM_ACTIONS)
        for a in legal:
            fill[a] = 1
        mask = _MASKS[key] = np.frombuffer(fill, np.int8)
    return mask.copy()


def reset_bookkeeping(env: AECEnv, first: str) -> None:
    """PettingZoo's per-episode fields, shared by every AEC view's ``reset``: all agents live, no
    rewards yet, ``first`` to act."""
    env.agents = env.possible_agents[:]
    env.rewards = dict.fromkeys(env.agents, 0.0)
    env._cumulative_rewards = dict.fromkeys(env.agents, 0.0)
    env.terminations = dict.fromkeys(env.agents, False)
    env.truncations = dict.fromkeys(env.agents, False)
    env.infos = {a: {} for a in env.agents}
    env.agent_selection = first


def step_preamble(env: AECEnv, action: Any, agent: str | None) -> str | None:
    """Checks shared by every AEC view's ``step``: the agent acting now, or None once a done
    agent's removal step has been taken. Raises (changing nothing) on a call out of turn."""
    if env.game is None:
        raise EnvStateError("call reset() before step()")
    if not env.agents:
        raise EnvStateError("the episode is over: every agent is done and removed; call reset() to start a new game")
    cur = env.agent_selection
    if agent is not None and agent != cur:
        raise IllegalActionError(f"{agent!r} cannot act now: it is {cur!r}'s step (agent_selection)")
    if env.terminations[cur] or env.truncations[cur]:
        if action is not None:
            raise IllegalActionError(f"{cur} is done (game over or truncated); its only valid action is None")
        env._was_dead_step(action)
        return None
    return cur


class raw_env(AECEnv, EzPickle):  # noqa: N801  (PettingZoo's naming convention)
    """Wayfarers of the South Tigris as a PettingZoo AEC environment (unwrapped).

    Config: ``num_players`` 2-4, ``board_sides`` ("random" or e.g. "aba"), ``reward`` ("win",
    "score", "rank"; see ``final_rewards``), ``render_mode`` ("ansi" or None), ``max_cycles``
    (decisions before every agent is truncated; None = never), and the remaining GameConfig
    fields ``player_boards``, ``content_options``, ``auto_forced``, and the Tides of Trade
    expansion's ``tides_of_trade`` (off: the base game), ``card_influence`` ("both", "ink_well" or
    "cards") and ``extension_sides`` ("random" or e.g. "ab"); the last two need the expansion on.
    ``num_players=1`` with ``solo_ai_board`` 1-4 is a solo game against the rulebook's AI: one
    agent, "player_0"; the AI's turns run inside ``step`` and its public pieces fill the opponent
    slots of the observation (infos name its seat "solo_ai").
    The spaces are the same for every config (one fixed catalog and observation), so one policy
    can play base and expansion games. Seed through ``reset(seed=)``: ``reset(seed=s)`` plays
    exactly ``Game(config, seed=s)``; later ``reset()`` calls draw their game seeds from a
    generator seeded by ``s``.
    """

    metadata = {"render_modes": ["ansi"], "name": "wayfarers_v4", "is_parallelizable": False, "render_fps": 1}
    agent_selection: str  # set by reset_bookkeeping and step; declared here because AECEnv is untyped

    def __init__(
        self,
        num_players: int = 2,
        board_sides: str = "random",
        reward: str = "win",
        render_mode: str | None = None,
        max_cycles: int | None = DEFAULT_MAX_CYCLES,
        player_boards: Literal["random"] | tuple[int, ...] = "random",
        content_options: frozenset[str] | tuple[str, ...] = frozenset(),
        auto_forced: bool = False,
        tides_of_trade: bool = False,
        card_influence: str = "both",
        extension_sides: str = "random",
        solo_ai_board: int | None = None,
    ):
        EzPickle.__init__(
            self,
            num_players,
            board_sides,
            reward,
            render_mode,
            max_cycles,
            player_boards,
            content_options,
            auto_forced,
            tides_of_trade,
            card_influence,
            extension_sides,
            solo_ai_board,
        )
        super().__init__()
        self.config = GameConfig(
            num_players=num_players,
            board_sides=board_sides,
            player_boards=player_boards,
            content_options=frozenset(content_options),
            auto_forced=auto_forced,
            tides_of_trade=tides_of_trade,
            card_influence=card_influence,
            extension_sides=extension_sides,
            solo_ai_board=solo_ai_board,
        )
        if reward not in REWARDS:
            raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        if max_cycles is not None and (not isinstance(max_cycles, int) or isinstance(max_cycles, bool) or max_cycles < 1):
            raise ConfigError(f"max_cycles must be a positive int or None, got {max_cycles!r}")
        self.reward_scheme = reward
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        # every seat's name in infos: the agents, and the solo AI's seat (never an agent)
        self.seat_names = self.possible_agents + ([SOLO_AI] if self.config.solo else [])
        low, high = observation_bounds()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, (OBS_SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.game: Game | None = None
        self._seed_rng: random.Random | None = None
        self._encoder = Encoder()
        self.decisions = 0

    # -- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
                raise TypeError(f"seed must be an int or None, got {seed!r}")
            game_seed = int(seed)
            self._seed_rng = random.Random(game_seed)
        else:
            if self._seed_rng is None:  # never seeded: fresh entropy, not the global random state
                self._seed_rng = random.Random(secrets.randbits(64))
            game_seed = self._seed_rng.getrandbits(63)
        self.game = Game(self.config, seed=game_seed)
        self.game_seed = game_seed
        self.decisions = 0
        reset_bookkeeping(self, self.possible_agents[self.game.current_player])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.game is None:
            raise EnvStateError("call reset() before observe()")
        seat = self._index.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        game = self.game
        return {"observation": self._encoder.encode(game, seat), "action_mask": self._mask(game, seat, agent)}

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observation_array(self, agent: str) -> np.ndarray:
        """Just the observation vector of ``agent`` (what ``observe`` returns under "observation")."""
        if self.game is None:
            raise EnvStateError("call reset() before observing")
        return self._encoder.encode(self.game, self._index[agent])

    def action_mask(self, agent: str) -> np.ndarray:
        """int8 mask over the catalog: exactly the legal actions if ``agent`` decides now, else all 0."""
        game = self.game
        if game is None:
            return np.zeros(NUM_ACTIONS, np.int8)
        return self._mask(game, self._index[agent], agent)

    def _mask(self, game: Game, seat: int, agent: str) -> np.ndarray:
        g = game.state
        if not g.over and seat == g.current and not self.truncations[agent] and agent in self.agents:
            return _legal_mask(game.cached_legal())  # the engine's list, computed once per decision
        return np.zeros(NUM_ACTIONS, np.int8)

    def step(self, action: int | None, agent: str | None = None) -> None:
        """Apply ``action`` for ``agent_selection`` (``None`` for a done agent's removal step).

        ``agent`` (optional) names who the caller thinks is acting; a mismatch raises before
        anything changes. Every error leaves the environment exactly as it was."""
        if self.game is None or agent is not None or action is None or not self.agents:
            cur = step_preamble(self, action, agent)  # the checks and the rare cases
        else:
            cur = self.agent_selection
            if self.terminations[cur] or self.truncations[cur]:
                cur = step_preamble(self, action, agent)
        if cur is None:
            return
        game = self.game
        assert game is not None  # step_preamble raises before reset() has made one
        if action is None:
            raise IllegalActionError(
                f"{cur} is deciding {game.decision()[0]!r}: None is only for done agents; legal ids: {game.legal_actions()}"
            )
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{cur}: {exc}") from None
        self.decisions += 1
        self._cumulative_rewards[cur] = 0.0
        g = game.state
        if g.over:
            self._finish()
        elif self.max_cycles is not None and self.decisions >= self.max_cycles:
            self._truncate()
        else:
            self.agent_selection = self.possible_agents[g.current]

    def _finish(self) -> None:
        assert self.game is not None  # only a step that ended the game calls this
        values = final_rewards(self.game, self.reward_scheme)
        infos = self._final_infos(truncated=False)
        for a in self.agents:
            self.rewards[a] = values[self._index[a]]
            self.terminations[a] = True
            self.infos[a] = infos[a]
        self._accumulate_rewards()

    def _truncate(self) -> None:
        infos = self._final_infos(truncated=True)
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = infos[a]

    def _final_infos(self, truncated: bool) -> dict[str, dict[str, Any]]:
        """Per agent: every seat's VP breakdown, its own, and (at the end) winners and rank."""
        game = self.game
        assert game is not None  # called once a game has ended or been truncated
        sc = game.scores()
        names = self.seat_names
        ranks = [] if truncated else _ranks(game)
        winners = [] if truncated else [names[i] for i in game.winners()]
        out = {}
        for i, a in enumerate(self.possible_agents):
            info: dict[str, Any] = {
                "score": dict(sc[i]),
                "scores": {names[j]: dict(s) for j, s in enumerate(sc)},
                "decisions": self.decisions,
                "game_seed": self.game_seed,
            }
            if truncated:
                info["truncated_at"] = self.decisions
            else:
                info["winners"] = list(winners)
                info["rank"] = ranks[i]
            out[a] = info
        return out

    # -- rendering
    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() called with render_mode=None; create the env with render_mode='ansi'")
            return None
        if self.game is None:
            raise EnvStateError("call reset() before render()")
        return render_text(self.game)

    def close(self) -> None:
        pass


class _Iterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the raw env directly (it runs every step)."""

    def __init__(self, env: _OrderEnforcing, max_iter: int):
        super().__init__(env, max_iter)
        self._raw = env.unwrapped

    def __next__(self) -> str:
        raw = self._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        if not self.env._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        self.env._has_updated = False
        return raw.agent_selection


class _Iterable(AECIterable):
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper that also forwards ``step(action, agent=)`` and raises
    (instead of only warning) when stepping after every agent is done."""

    def step(self, action: int | None, agent: str | None = None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self.env.step(action, agent)
        self._has_updated = True

    def last(self, observe: bool = True):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)

    def action_mask(self, agent: str) -> np.ndarray:
        return self.env.action_mask(agent)

    def __str__(self) -> str:
        return str(self.env)


def env(**config: Any) -> AECEnv:
    """The environment to use: ``raw_env(**config)`` wrapped in an order-enforcing wrapper."""
    return _OrderEnforcing(raw_env(**config))
