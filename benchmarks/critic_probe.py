"""What a critic for ``experiments.net_reinforce --critic`` can learn, measured before a run:
``python -m benchmarks.critic_probe --games 160 --workers 2``.

Why. A critic whose values do not predict held-out games gives advantages that are noise, and a
policy-gradient run spends its budget on them (the first ``--critic`` try fitted the
observation and was stopped after 14 iterations with its explained variance near 0). This plays
the net's sampled games against the cartographer as an iteration does (each deal twice), keeps
the last fifth of the deals out, fits two critics on the rest and prints the explained variance
of the held-out rewards, over all decisions and by quarter of each game:

- ``observation``: a copy of the policy's trunk on the observation, with a head of its own;
- ``features``: ``experiments.critic.Critic`` on ``position_features`` (the kind the runs use).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

import numpy as np


def observation_critic(net, seed: int):
    """The first try's critic: the policy's trunk copied, a head of its own (``experiments.critic``
    now reads ``position_features`` instead; this is kept only to measure why)."""
    import copy

    import torch
    from torch import nn

    class Observed(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("cols", net.cols.clone(), persistent=False)
            self.trunk = copy.deepcopy(net.trunk)
            with torch.random.fork_rng():
                torch.manual_seed(seed)
                self.head = nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 1))

        def forward(self, obs):
            return self.head(self.trunk(obs.index_select(1, self.cols))).squeeze(1)

    return Observed()


def by_quarter(pred: np.ndarray, target: np.ndarray, phase: np.ndarray) -> list[float]:
    from experiments.critic import explained_variance

    quarters = [(phase >= a) & (phase < a + 0.25) for a in (0, 0.25, 0.5, 0.75)]
    return [explained_variance(pred[q], target[q]) for q in quarters]


def main(argv: list[str] | None = None) -> int:
    from experiments.cli import count, seed

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--net", default="models/cartographer-worth.pt", help="the net file whose games are judged")
    ap.add_argument("--games", type=count, default=160, help="deals, each played twice (default 160: 320 games)")
    ap.add_argument("--temperature", type=float, default=0.5, help="the net's sampling temperature (default 0.5)")
    ap.add_argument("--margin-weight", type=float, default=0.25, help="the reward's margin weight (default 0.25)")
    ap.add_argument("--epochs", type=count, default=8, help="passes of each fit (default 8)")
    ap.add_argument("--seed", type=seed, default=77, help="the deals (default 77)")
    ap.add_argument("--workers", type=count, default=1, help="parallel processes for the games")
    args = ap.parse_args(argv)
    import torch

    from agents.net_bot import NetBot
    from experiments import net_reinforce as nr
    from experiments.critic import Critic, explained_variance, fit

    start = time.perf_counter()
    tasks = [(args.net, args.seed, d, k, args.temperature, "cartographer") for d in range(args.games) for k in (0, 1)]
    if args.workers > 1:
        with mp.get_context("spawn").Pool(args.workers) as pool:
            parts = pool.map(nr.sample_game, tasks, chunksize=1)
    else:
        parts = [nr.sample_game(t) for t in tasks]
    print(f"{len(parts)} games in {time.perf_counter() - start:.0f} s")
    cut = 2 * (args.games - args.games // 5)
    size = nr.obs_size()
    sets = []
    for chunk in (parts[:cut], parts[cut:]):
        dec = nr.Decisions(chunk, [0.0] * len(chunk), size, [nr.reward(p, args.margin_weight) for p in chunk])
        phase = np.concatenate([np.arange(len(p["choice"])) / max(1, len(p["choice"])) for p in chunk])
        sets.append((dec, dec.tensors(np.arange(len(dec)))[0], torch.as_tensor(dec.feat), torch.as_tensor(dec.reward), phase))
    (train, obs_tr, feat_tr, y_tr, _), (test, obs_te, feat_te, _, phase) = sets
    print(f"{len(train):,} decisions to fit, {len(test):,} held out ({len(parts) - cut} games)")
    torch.set_num_threads(2)
    net = NetBot(args.net).net
    for name, critic, x_tr, x_te in (
        ("observation", observation_critic(net, 0), obs_tr, obs_te),
        ("features", Critic(0), feat_tr, feat_te),
    ):
        fit(critic, torch.optim.Adam(critic.parameters(), lr=1e-3), x_tr, y_tr, args.epochs, np.random.default_rng(0))
        with torch.no_grad():
            fitted, held = critic(x_tr).numpy(), critic(x_te).numpy()
        quarters = ", ".join(f"{q:+.2f}" for q in by_quarter(held, test.reward, phase))
        print(
            f"{name:<12} explained variance: fitted games {explained_variance(fitted, train.reward):+.3f}, "
            f"held out {explained_variance(held, test.reward):+.3f} (by quarter of the game: {quarters})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
