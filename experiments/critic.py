"""A value net for ``experiments.net_reinforce --critic``: how good a position of the net's own
game is, from the net's seat, and the per-decision advantages that follow from it.

Why. Without a critic every decision of a game gets the game's advantage (its reward less its
twin's), so a good choice in a lost game is pushed down with the bad ones, and the ~120 decisions
of a game share one number. Stop 42's run flattened at about half the games against the
cartographer with that credit (docs/TRAINING.md). A value of each decision's position lets each
choice be judged by what followed it: the generalised advantage estimate (GAE, Schulman et al.
2016) over the net's own decisions, with the opponent's turns part of what follows.

The value net reads a few numbers of the position (``position_features``: the cartographer's
value of it and the game's progress), not the observation, and shares no weights with the
policy, so fitting values never moves the choices. It is fitted after each iteration's policy
update to the game rewards of the last few iterations' decisions (``--value-window``), and the
advantages of an iteration come from the values before that fit: each game is judged by a critic
that has not seen it.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

FEATURES = 6  # the length of ``position_features``


class Critic(nn.Module):
    """The value of a position (its ``position_features``), in the reward's units."""

    def __init__(self, seed: int, hidden: int = 64):
        super().__init__()
        with torch.random.fork_rng():  # the first weights from the run's seed, the global generator untouched
            torch.manual_seed(seed)
            self.net = nn.Sequential(nn.Linear(FEATURES, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, feat: torch.Tensor) -> torch.Tensor:
        return self.net(feat).squeeze(1)


Rows = np.ndarray | torch.Tensor


def fit(critic: nn.Module, opt, feat: Rows, target: Rows, epochs: int, rng: np.random.Generator, batch: int = 512) -> float:
    """``epochs`` passes of squared error towards ``target``; the mean loss of the last pass.
    Any value net of rows will do (the probe fits an observation critic with it too)."""
    x, y = torch.as_tensor(feat), torch.as_tensor(target)
    total, steps = 0.0, 0
    for _ in range(epochs):
        order = rng.permutation(len(x))
        total, steps = 0.0, 0
        for s in range(0, len(order), batch):
            sel = order[s : s + batch]
            loss = nn.functional.mse_loss(critic(x[sel]), y[sel])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            steps += 1
    return total / max(1, steps)


def position_features(game, seat: int) -> np.ndarray:
    """What the critic reads of a position, from ``seat``: the cartographer's value of it (its
    estimate less the best rival's, with its guess of the win; ``agents.evaluation.evaluate``)
    and the neutral one, both over 20 VP; the VP lead now over 20; the share of the game left
    (``horizon``); whether the end is triggered; the turn over 100.

    Why not the observation: fitted on it, a value net memorises the games it saw (the deal's
    cards name a game) and predicts held-out ones no better than their mean (explained variance
    near 0 after 256 games; docs/TRAINING.md "A critic"). These few numbers are what the bots'
    search already trusts, and cannot name a game."""
    from agents.evaluation import NEUTRAL, evaluate, horizon
    from agents.strategies import Cartographer

    g = game.state
    totals = [s["total"] for s in game.scores()]
    lead = totals[seat] - max(totals[k] for k in range(g.n) if k != seat)
    return np.array(
        [
            evaluate(game, seat, Cartographer.estimate) / 20.0,
            evaluate(game, seat, NEUTRAL) / 20.0,
            lead / 20.0,
            horizon(g),
            float(g.end_trigger >= 0),
            g.turn / 100.0,
        ],
        np.float32,
    )


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
    worth more than the twin's. Not stable-baselines3's: that one is NaN for a constant target
    (an iteration whose games all end alike), which a JSON history line cannot hold; this is 0."""
    var = float(np.var(target))
    return 1.0 - float(np.var(target - pred)) / var if var > 0 else 0.0
