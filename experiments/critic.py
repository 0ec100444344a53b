"""A value net for ``experiments.net_reinforce --critic``: how good a position of the net's own
game is, from the net's seat, and the per-decision advantages that follow from it.

Why. Without a critic every decision of a game gets the game's advantage (its reward less its
twin's), so a good choice in a lost game is pushed down with the bad ones, and the ~120 decisions
of a game share one number. Stop 42's run flattened at about half the games against the
cartographer with that credit (docs/TRAINING.md). A value of each decision's position lets each
choice be judged by what followed it: the generalised advantage estimate (GAE, Schulman et al.
2016) over the net's own decisions, with the opponent's turns part of what follows.

The value net starts from a copy of the policy's trunk (its features already describe a position
well enough to choose in it), with its own head and optimiser; it shares no weights with the
policy, so fitting values never moves the choices.
"""

from __future__ import annotations

import copy

import numpy as np
import torch
from torch import nn

from experiments.candidate_net import CandidateNet


class Critic(nn.Module):
    """The value of a position (the observation from the net's seat), in the reward's units."""

    cols: torch.Tensor

    def __init__(self, trunk: nn.Module, cols: torch.Tensor, seed: int, hidden: int = 128):
        super().__init__()
        self.register_buffer("cols", cols.clone(), persistent=False)
        self.trunk = copy.deepcopy(trunk)
        width = [m for m in self.trunk.modules() if isinstance(m, nn.Linear)][-1].out_features
        with torch.random.fork_rng():  # the head's first weights from the run's seed, the global generator untouched
            torch.manual_seed(seed)
            self.head = nn.Sequential(nn.Linear(width, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    @classmethod
    def of(cls, net: CandidateNet, seed: int) -> Critic:
        """A critic whose trunk starts as ``net``'s, its head drawn from ``seed``."""
        return cls(net.trunk, net.cols, seed)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.head(self.trunk(obs.index_select(1, self.cols))).squeeze(1)


def gae(values: np.ndarray, reward: float, lam: float) -> np.ndarray:
    """Advantages of one game's decisions with ``values`` (one per decision, in order) and the
    game's ``reward`` at its end, undiscounted: ``delta_t = v[t+1] - v[t]`` (``reward`` after
    the last), ``A_t = sum_k lam^k delta_{t+k}``. ``lam`` 1 gives ``reward - v[t]``; ``lam`` 0
    gives one step of temporal difference."""
    nxt = np.append(values[1:], reward).astype(np.float64)
    delta = nxt - values
    out = np.zeros(len(values), np.float64)
    run = 0.0
    for t in range(len(values) - 1, -1, -1):
        run = delta[t] + lam * run
        out[t] = run
    return out


def explained_variance(pred: np.ndarray, target: np.ndarray) -> float:
    """1 - Var(target - pred) / Var(target): 1 for a perfect value, 0 for one no better than
    the mean, negative for worse. Why in the history: it says when the critic's advantages are
    worth more than the twin's."""
    var = float(np.var(target))
    return 1.0 - float(np.var(target - pred)) / var if var > 0 else 0.0
