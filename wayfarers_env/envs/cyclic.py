"""A cyclic view of the game, as an AEC env (``cyclic_env``) and as a ``ParallelEnv`` (``parallel_env``).

The main env (``wayfarers_env.env``) hands ``agent_selection`` to whoever owns the engine's
decision, so one agent often acts many times in a row. Tools built for simultaneous or
round-robin games (PettingZoo's ``parallel_env`` API and ``max_cycles_test``, MARL libraries that
step every agent once per tick) need the opposite: every live agent acts exactly once per
cycle, in seat order. This view gives them that without changing the rules:

* Every cycle each live agent acts once, ``player_0, player_1, ...``. Only the agent that owns
  the engine's current decision moves the game; every other agent *passes*: its action mask
  enables only ``CATALOG.SKIP``, which in this view means "pass" (for the deciding agent SKIP
  keeps its engine meaning, "decline an optional choice", and is in its mask only when legal).
* AEC (``cyclic_env``): the owner's action is applied when its turn in the cycle comes, so if a
  decision hands the game to an agent later in the same cycle, that agent decides in this
  cycle too. A cycle always holds at least one decision.
* Parallel (``parallel_env``): one ``step(actions)`` is one cycle and applies exactly one
  engine decision, the owner's; everybody else's action must be a pass (an omitted action of a
  passing agent also passes). The other agents chose their actions before seeing the result,
  so a decision that hands the game to another agent is taken by it in the next cycle.
* ``max_cycles`` counts cycles (default ``aec.DEFAULT_MAX_CYCLES``, safe because each cycle
  holds at least one decision); after that many, every agent is truncated. Infos at the end
  carry the AEC env's score breakdown plus ``cycles``; ``truncated_at`` is in cycles here.
* Rewards are 0 until the game ends, then the final rewards of the chosen scheme ("win",
  "score", "rank"; see ``aec.rewards_from_keys``), exactly as in the main env.
* ``illegal_action="raise"`` (default): an illegal id raises ``IllegalActionError`` naming the id
  and the legal set, and nothing changes. ``"substitute"``: the id is replaced by a uniformly
  random legal action from the env's seeded generator (SKIP for a passing agent) and
  ``infos[agent]["substituted"] = {"requested": ..., "applied": ...}`` reports it. Substitution
  exists for tools that sample *unmasked* actions, such as PettingZoo's ``max_cycles_test``;
  a learner should use the mask and keep "raise", which turns a masking bug into an error.

Observation and action spaces, seeding (``reset(seed=s)`` plays ``Game(config, seed=s)``) and
rendering are those of the main env, which this view drives underneath.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv, ParallelEnv

from wayfarers_env.envs.aec import EnvStateError, _OrderEnforcing, raw_env, reset_bookkeeping, step_preamble
from wayfarers_env.rules.actions import CATALOG, NUM_ACTIONS, describe_action
from wayfarers_env.rules.engine import Game, IllegalActionError
from wayfarers_env.rules.state import ConfigError

ILLEGAL_ACTIONS = ("raise", "substitute")
_PASS_MASK = np.zeros(NUM_ACTIONS, np.int8)
_PASS_MASK[CATALOG.SKIP] = 1


def _as_id(action: Any) -> int | None:
    """The int id an action stands for (Python or NumPy integer, or a one-element integer array), else None."""
    if isinstance(action, np.ndarray) and action.size == 1 and np.issubdtype(action.dtype, np.integer):
        action = action.reshape(()).item()
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    return None


class _Cycle:
    """What both views share: the main env underneath, who decides, masks, legality, the end."""

    def __init__(self, illegal_action: str, config: dict[str, Any]):
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ConfigError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        # the main env validates the config (max_cycles included) and owns game, seeding and rewards;
        # it must never truncate on its own, because here max_cycles counts cycles, not decisions
        self.inner = raw_env(**config)
        self.max_cycles: int | None = self.inner.max_cycles
        self.inner.max_cycles = None
        self.cycles = 0
        self._rng = random.Random(0)

    @property
    def possible_agents(self) -> list[str]:
        return self.inner.possible_agents

    @property
    def game(self) -> Game | None:
        return self.inner.game

    def reset(self, seed: int | None) -> None:
        self.inner.reset(seed=seed)
        self.cycles = 0
        # reproducible per game: the same reset seed sequence gives the same substitutions
        self._rng = random.Random(f"substitute:{self.inner.game_seed}")

    def owner(self) -> str | None:
        """The agent that owns the engine's current decision (None once the game is over)."""
        game = self.inner.game
        return None if game is None or game.is_over else self.possible_agents[game.current_player]

    def mask(self, agent: str, done: bool) -> np.ndarray:
        if done or self.inner.game is None or self.inner.game.is_over:
            return np.zeros(NUM_ACTIONS, np.int8)
        if agent == self.owner():
            return self.inner.action_mask(agent)
        return _PASS_MASK.copy()

    def observe(self, agent: str, done: bool) -> dict[str, np.ndarray]:
        return {"observation": self.inner.observation_array(agent), "action_mask": self.mask(agent, done)}

    def resolve(self, agent: str, action: Any) -> tuple[int, dict[str, Any] | None]:
        """The legal id to apply for ``agent`` and the substitution report (None if none was needed).

        Raises before anything changes in "raise" mode; draws from the generator only when it
        substitutes a deciding agent's action."""
        game = self.inner.game
        assert game is not None  # both views' step refuse to run before reset()
        owner = self.owner()
        legal = game.legal_actions() if agent == owner else [CATALOG.SKIP]
        aid = _as_id(action)
        if aid is not None and aid in legal:
            return aid, None
        if self.illegal_action == "raise":
            if aid is None:
                what = f"{action!r} is not an action id (an int in 0..{NUM_ACTIONS - 1})"
            elif 0 <= aid < NUM_ACTIONS:
                what = f"action {aid} ({describe_action(aid)}) is not legal now"
            else:
                what = f"action {aid} is outside the catalog 0..{NUM_ACTIONS - 1}"
            if agent == owner:
                raise IllegalActionError(f"{agent}: {what}; it is deciding {game.decision()[0]!r}, legal ids: {legal}")
            raise IllegalActionError(f"{agent}: {what}; it passes this cycle ({owner} decides), its only legal id is SKIP = {CATALOG.SKIP}")
        applied = legal[0] if len(legal) == 1 else self._rng.choice(legal)
        return applied, {"requested": aid if aid is not None else action, "applied": applied}

    def apply(self, agent: str, action: int) -> None:
        """Apply a resolved action: the owner's moves the game, anyone else's is a pass."""
        if agent == self.owner():
            self.inner.step(action)

    def final_rewards(self) -> dict[str, float]:
        return {a: float(self.inner.rewards[a]) for a in self.possible_agents}

    def final_infos(self, truncated: bool) -> dict[str, dict[str, Any]]:
        """The main env's end-of-game infos (score breakdown, winners, rank), plus the cycle count."""
        infos = self.inner._final_infos(truncated=truncated) if truncated else copy.deepcopy(self.inner.infos)
        for info in infos.values():
            info["cycles"] = self.cycles
            if truncated:
                info["truncated_at"] = self.cycles
        return infos


class _CycleView:
    """What both cyclic views share: the core, its config echo, spaces and accessors."""

    _core: _Cycle

    def _init_view(self, illegal_action: str, config: dict[str, Any]) -> None:
        self._core = _Cycle(illegal_action, config)
        self.illegal_action = illegal_action
        self.max_cycles = self._core.max_cycles
        self.render_mode = self._core.inner.render_mode
        self.reward_scheme = self._core.inner.reward_scheme
        self.possible_agents = self._core.possible_agents[:]
        self.observation_spaces = self._core.inner.observation_spaces
        self.action_spaces = self._core.inner.action_spaces

    @property
    def game(self) -> Game | None:
        return self._core.game

    @property
    def cycles(self) -> int:
        """Completed cycles in this episode."""
        return self._core.cycles

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]


class CyclicEnv(_CycleView, AECEnv, EzPickle):
    """The cyclic view as an AEC env (unwrapped; ``cyclic_env`` adds order enforcement).

    Config: ``illegal_action`` ("raise" or "substitute") and everything ``wayfarers_env.env``
    takes, with ``max_cycles`` counting cycles of every live agent instead of decisions.
    """

    metadata = {"render_modes": ["ansi"], "name": "wayfarers_cyclic_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, illegal_action: str = "raise", **config: Any):
        EzPickle.__init__(self, illegal_action=illegal_action, **config)
        AECEnv.__init__(self)
        self._init_view(illegal_action, config)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._core.reset(seed)
        reset_bookkeeping(self, self.possible_agents[0])

    def _done(self, agent: str) -> bool:
        terminations = getattr(self, "terminations", None)
        if terminations is None:  # before the first reset
            return True
        return agent not in terminations or terminations[agent] or self.truncations[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.game is None:
            raise EnvStateError("call reset() before observe()")
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}")
        return self._core.observe(agent, self._done(agent))

    def action_mask(self, agent: str) -> np.ndarray:
        """The legal actions if ``agent`` owns the decision, only SKIP (pass) otherwise, all 0 once done."""
        return self._core.mask(agent, self._done(agent))

    def step(self, action: Any, agent: str | None = None) -> None:
        """Act for ``agent_selection``: decide if it owns the decision, else pass (SKIP); None once done."""
        cur = step_preamble(self, action, agent)
        if cur is None:
            return
        core = self._core
        game = core.game
        assert game is not None  # step_preamble raises before reset()
        applied, substituted = core.resolve(cur, action)
        core.apply(cur, applied)
        self._cumulative_rewards[cur] = 0.0
        self.infos[cur] = {"substituted": substituted} if substituted else {}
        seat = self.possible_agents.index(cur)
        if seat == len(self.possible_agents) - 1:
            core.cycles += 1
        if game.is_over:
            self._end(core.final_infos(truncated=False), substituted, cur, rewards=core.final_rewards())
        elif self.max_cycles is not None and core.cycles >= self.max_cycles:
            self._end(core.final_infos(truncated=True), substituted, cur, rewards=None)
        self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]

    def _end(self, infos: dict[str, dict], substituted: dict | None, cur: str, rewards: dict[str, float] | None) -> None:
        for a in self.agents:
            if rewards is None:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
                self.rewards[a] = rewards[a]
            self.infos[a] = infos[a]
        if substituted:
            self.infos[cur]["substituted"] = substituted
        if rewards is not None:
            self._accumulate_rewards()

    def render(self) -> str | None:
        return self._core.inner.render()

    def close(self) -> None:
        pass


class CyclicParallelEnv(_CycleView, ParallelEnv, EzPickle):
    """The cyclic view as a PettingZoo ``ParallelEnv``: one ``step(actions)`` is one cycle.

    Same config as ``CyclicEnv``. ``actions`` maps live agents to ids: the owner of the decision
    gives a legal id, every other agent SKIP (or nothing). Exactly one engine decision per step,
    so here cycles and decisions coincide.
    """

    metadata = {"render_modes": ["ansi"], "name": "wayfarers_cyclic_parallel_v0", "render_fps": 1}

    def __init__(self, illegal_action: str = "raise", **config: Any):
        EzPickle.__init__(self, illegal_action=illegal_action, **config)
        self._init_view(illegal_action, config)
        self.agents: list[str] = []

    def owner(self) -> str | None:
        """The agent whose action this cycle moves the game (None once the game is over)."""
        return self._core.owner()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        self._core.reset(seed)
        self.agents = self.possible_agents[:]
        return {a: self._core.observe(a, False) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        core = self._core
        if core.game is None:
            raise EnvStateError("call reset() before step()")
        if not self.agents:
            raise EnvStateError("the episode is over: every agent is done; call reset() to start a new game")
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise IllegalActionError(f"actions for agents that are not live: {sorted(unknown)}; live agents: {self.agents}")
        owner = core.owner()
        assert owner is not None  # live agents: the game is not over, so someone decides
        resolved: dict[str, tuple[int, dict[str, Any] | None]] = {}
        for a in self.agents:  # every check before any change
            if a not in actions and a != owner:
                resolved[a] = (CATALOG.SKIP, None)  # an omitted pass
            else:
                resolved[a] = core.resolve(a, actions.get(a))
        core.apply(owner, resolved[owner][0])
        core.cycles += 1
        live = self.agents
        infos: dict[str, dict[str, Any]] = {a: {} for a in live}
        rewards = dict.fromkeys(live, 0.0)
        over = core.game.is_over
        truncated = not over and self.max_cycles is not None and core.cycles >= self.max_cycles
        if over:
            rewards = core.final_rewards()
            infos = core.final_infos(truncated=False)
        elif truncated:
            infos = core.final_infos(truncated=True)
        for a, (_, substituted) in resolved.items():
            if substituted:
                infos[a]["substituted"] = substituted
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, truncated)
        observations = {a: core.observe(a, over or truncated) for a in live}
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self._core.inner.render()

    def close(self) -> None:
        pass


def cyclic_env(**config: Any) -> AECEnv:
    """The cyclic AEC view: ``CyclicEnv(**config)`` in the main env's order-enforcing wrapper."""
    return _OrderEnforcing(CyclicEnv(**config))


def parallel_env(**config: Any) -> CyclicParallelEnv:
    """The cyclic view as a ``ParallelEnv`` (one ``step`` = one cycle = one engine decision)."""
    return CyclicParallelEnv(**config)
