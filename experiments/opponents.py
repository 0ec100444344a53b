"""Opponent pools for training: heuristic bots and frozen copies of the learner (self-play).

Two ways to draw opponents, set by ``opponents.mix`` in a training config:

* **By decisions** (``mix: {random: 0.3, self: 0.5, greedy: 0.1, journal: 0.1}``): each share is
  the part of the learner's *decisions* played against that opponent. Drawing per episode with
  equal odds let the long, fast games against ``random`` take almost all of the learning (the
  learner's decisions against random were ~90% of the old default's), so ``DecisionMix`` counts
  the learner's decisions per opponent and starts each episode against the opponent furthest
  below its share. ``self`` is a frozen snapshot of the learner, drawn from the pool. The shares
  may lean toward the opponents the learner loses to (``toward_losses``): the trainer pushes
  ``share x ((1 - win rate) + floor)``, normalised, through ``set_shares``.
* **By episodes** (no mix; the old way, kept for old configs): at each reset one of ``bots`` with
  equal odds, or a frozen policy with probability ``1 - bot_rate`` once the pool has one.

Bots are named as in ``agents.registry``; a frozen policy is a saved MaskablePPO ``.zip``, loaded
once per process and then used read-only, so subprocess workers share a pool by file paths only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import gymnasium
import numpy as np

from wayfarers_env.envs.players import choose
from wayfarers_env.envs.wrappers import SingleAgentEnv

SELF = "self"  # in a mix: a frozen snapshot of the learner from the self-play pool


@lru_cache(maxsize=16)
def _load(path: str):
    from agents.policy_bot import load_model

    return load_model(path)


class FrozenPolicy:
    """A saved policy playing one seat, sampling its moves with the bot's own generator.
    Models are loaded once per process, so a self-play pool costs one load per snapshot.

    As a bot (``decide``) it is ``agents.policy_bot.PolicyBot``. Inside ``PoolEnv`` the env asks
    ``act`` instead, with the seat's observation from the env's own encoder (kept up to date
    incrementally, where a bot's view is encoded afresh) and no determinized view (the
    observation is already what the seat may know): one process playing random learner moves
    against a snapshot went from 753 to 1,641 steps/s (the old 5.2M-parameter policy aside)."""

    def __init__(self, path: str, deterministic: bool = False):
        from agents.policy_bot import PolicyBot

        self.bot = PolicyBot(_load(path), deterministic=deterministic, name=f"policy:{path}")
        self.name = self.bot.name
        self.deterministic = deterministic
        self.policy = self.bot.model.policy

    def decide(self, view: Any, legal_actions: list[int], rng: Any) -> int:
        return self.bot.decide(view, legal_actions, rng)

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: Any) -> int:
        """The move for an observation and its legal mask; ``rng`` a ``random.Random``."""
        import torch

        policy = self.policy
        with torch.inference_mode():  # no autograd bookkeeping at all (no_grad still versions tensors)
            x = torch.as_tensor(obs, dtype=torch.float32).unsqueeze(0)
            latent = policy.mlp_extractor.forward_actor(policy.extract_features(x, policy.pi_features_extractor))
            logits = policy.action_net(latent)[0].numpy().astype(np.float64)
        legal = np.flatnonzero(mask)
        z = logits[legal]
        if self.deterministic:
            return int(legal[int(np.argmax(z))])
        p = np.exp(z - z.max())
        cum = np.cumsum(p)
        return int(legal[min(int(np.searchsorted(cum, rng.random() * cum[-1], side="right")), len(legal) - 1)])


def make_opponent(spec: str) -> Any:
    """``spec``: a bot name (``random``, ``journal``...) or ``frozen:PATH`` for a saved policy."""
    if spec.startswith("frozen:"):
        return FrozenPolicy(spec[len("frozen:") :])
    from agents.registry import make_bot

    return make_bot(spec)


class DecisionMix:
    """Which opponent the next episode is played against, so that the learner's decisions split
    as the shares say. The opponent furthest below its share (share x decisions so far - its
    decisions) is next; ties go to the generator. The error is at most about one episode's
    decisions, so it vanishes as a share of a run."""

    def __init__(self, shares: dict[str, float]):
        self.set_shares(shares)
        self.decisions = {name: 0.0 for name in self.shares}

    def set_shares(self, shares: dict[str, float]) -> None:
        total = float(sum(shares.values()))
        if not shares or total <= 0 or any(v < 0 for v in shares.values()):
            raise ValueError(f"opponent shares must be >= 0 with a positive sum, got {shares!r}")
        self.shares = {name: float(v) / total for name, v in shares.items()}
        for name in self.shares:
            getattr(self, "decisions", {}).setdefault(name, 0.0)

    def pick(self, rng: np.random.Generator, available: set[str] | None = None) -> str:
        """The next opponent; ``available`` leaves out those that cannot play yet (``self``
        before the first snapshot), their share going to the others."""
        names = [n for n in self.shares if self.shares[n] > 0 and (available is None or n in available)]
        if not names:
            raise ValueError(f"no opponent of {sorted(self.shares)} can play (available: {sorted(available or ())})")
        total = sum(self.decisions[n] for n in names)
        weight = sum(self.shares[n] for n in names)
        deficit = [self.shares[n] / weight * total - self.decisions[n] for n in names]
        best = max(deficit)
        tied = [n for n, d in zip(names, deficit) if d >= best - 1e-9]
        return tied[int(rng.integers(len(tied)))]

    def count(self, name: str, decisions: float) -> None:
        self.decisions[name] = self.decisions.get(name, 0.0) + decisions


class PoolEnv(SingleAgentEnv):
    """SingleAgentEnv whose opponents are drawn from a pool at every reset.

    ``mix``: shares of learner decisions per opponent (see the module docstring); without it,
    ``bots`` with equal odds per episode and frozen policies at ``1 - bot_rate``. ``frozen``: saved
    policies (updated during self-play through ``set_frozen``, which SB3 vector envs reach with
    ``env_method``).

    Shaping, for training only: ``shaping`` (the old ``vp_margin``) pays each learner step that
    times the change of (own VP - best opponent VP), ``shaping x final margin`` over a game.
    ``potential``: gamma-correct potential-based shaping over the bots' own position value
    (``agents.evaluation.evaluate``), ``potential x scale x (gamma x Phi(s') - Phi(s))``, with
    Phi of a finished game 0 (Ng et al. 1999; episodic tasks need the terminal potential fixed to
    keep the optimal policies). ``scale`` fades it; the trainer sets it through ``set_shaping_scale``.

    The final ``info`` of an episode says whom it was played against (``opponent``: the mix
    name, ``self`` for a snapshot), ``won`` (1, 1/k in a k-way tie, 0), ``margin`` (VP against
    the best opponent) and ``decisions`` (the learner's), for the per-opponent statistics.
    """

    def __init__(
        self,
        bots: list[str] | None = None,
        bot_rate: float = 1.0,
        frozen: list[str] | None = None,
        shaping: float = 0.0,
        mix: dict[str, float] | None = None,
        potential: float = 0.0,
        gamma: float = 1.0,
        **kwargs: Any,
    ):
        self.bot_names = list(bots or ["random"])
        self.bot_rate = float(bot_rate)
        self.frozen = list(frozen or [])
        self.shaping = float(shaping)
        self.mix = DecisionMix(mix) if mix else None
        self.potential = float(potential)
        self.gamma = float(gamma)
        self.shaping_scale = 1.0
        self._margin = 0.0
        self._phi = 0.0
        self._decisions = 0
        super().__init__(opponents="random", **kwargs)
        self._made: dict[str, Any] = {}
        self.last_opponents: list[str] = []
        self.last_labels: list[str] = []

    def set_frozen(self, paths: list[str]) -> None:
        self.frozen = list(paths)

    def set_shares(self, shares: dict[str, float]) -> None:
        if self.mix is not None:
            self.mix.set_shares(shares)

    def set_shaping_scale(self, scale: float) -> None:
        self.shaping_scale = float(scale)

    def _opponent(self, spec: str) -> Any:
        if spec not in self._made:
            self._made[spec] = make_opponent(spec)
        return self._made[spec]

    def _draw(self, rng: np.random.Generator) -> tuple[list[str], list[str]]:
        """(opponent specs, their labels for statistics), one per opponent seat."""
        chosen, labels = [], []
        for _ in range(self.num_players - 1):
            if self.mix is not None and not self.frozen and set(self.mix.shares) == {SELF}:
                spec = label = "random"  # only a reset before the trainer's first snapshot reaches here
            elif self.mix is not None:
                label = self.mix.pick(rng, None if self.frozen else set(self.mix.shares) - {SELF})
                spec = "frozen:" + self.frozen[int(rng.integers(len(self.frozen)))] if label == SELF else label
            elif self.frozen and rng.random() >= self.bot_rate:
                spec, label = "frozen:" + self.frozen[int(rng.integers(len(self.frozen)))], SELF
            else:
                spec = label = self.bot_names[int(rng.integers(len(self.bot_names)))]
            chosen.append(spec)
            labels.append(label)
        return chosen, labels

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is not None:
            self.np_random, _ = gymnasium.utils.seeding.np_random(seed)
        chosen, labels = self._draw(self.np_random)
        self.opponents = [self._opponent(s) for s in chosen]
        self.last_opponents, self.last_labels = chosen, labels
        obs, info = super().reset(seed=None, options=options)
        info["opponents"] = chosen
        self._margin = self._current_margin() if self.shaping else 0.0
        self._phi = self.position_value() if self.potential else 0.0
        self._decisions = 0
        info["action_mask"] = self.action_masks()  # read by train_loop.MasksInInfo
        return obs, info

    def _current_margin(self) -> float:
        totals = [s["total"] for s in self.game.scores()]
        mine = totals[self.seat]
        return float(mine - max(t for k, t in enumerate(totals) if k != self.seat))

    def position_value(self) -> float:
        """Phi: the learner's position as the bots value it (``agents.evaluation.evaluate``, the
        greedy bot's weights), 0 once the game is over."""
        from agents.evaluation import evaluate

        if self.game.is_over:
            return 0.0
        return float(evaluate(self.game, self.seat))

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = super().step(action)
        self._decisions += 1
        if "illegal_action" not in info:
            if self.shaping:
                margin = self._current_margin()
                reward += self.shaping * (margin - self._margin)
                self._margin = margin
            if self.potential:
                phi = 0.0 if (terminated or truncated) else self.position_value()
                reward += self.potential * self.shaping_scale * (self.gamma * phi - self._phi)
                self._phi = phi
        if terminated or truncated:
            self._finish(info)
        else:
            info["action_mask"] = self.action_masks()  # read by train_loop.MasksInInfo
        return obs, reward, terminated, truncated, info

    def _play_opponents(self) -> None:
        """SingleAgentEnv's loop, with frozen policies asked through ``FrozenPolicy.act``."""
        aec = self.aec
        me = self.agent
        game = aec.game
        assert game is not None
        while True:
            if aec.terminations[me] or aec.truncations[me]:
                self._over = True
                return
            cur = aec.agent_selection
            if cur == me:
                return
            bot = self._bots[game.current_player]
            if isinstance(bot, FrozenPolicy):
                action = bot.act(aec.observation_array(cur), aec.action_mask(cur), self._bot_rng)
            else:
                action = choose(bot, game, self._bot_rng)
            aec.step(action)

    def _finish(self, info: dict[str, Any]) -> None:
        info["agent"] = self.agent
        info["opponents"] = list(self.last_opponents)
        labels = self.last_labels
        info["opponent"] = labels[0] if len(set(labels)) == 1 else "+".join(sorted(labels))
        info["decisions"] = self._decisions
        if "scores" in info:
            me = self.agent
            totals = {name: sc["total"] for name, sc in info["scores"].items()}
            info["margin"] = float(totals[me] - max(t for name, t in totals.items() if name != me))
            winners = info.get("winners", [])
            info["won"] = 1.0 / len(winners) if me in winners else 0.0
        if self.mix is not None:
            for label in labels:  # the decisions split among the opponents of a 3-4 player game
                self.mix.count(label, self._decisions / len(labels))
