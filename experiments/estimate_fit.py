"""Fit the evaluation's weights to game outcomes, and say how well each bot's estimate predicts them.

Why. Every search bot scores positions with ``agents.evaluation.evaluate``, whose weights were
set by hand. Its win guess (``win_chance`` of the VP lead, the lead counting ``horizon`` times
the squashed ``potential`` and ``journal_open`` times the journal outlook) is a model of who
wins, so it can be held to the games: replay two-player records, take every turn's first
position before the end is triggered, and ask how well each ``Estimate`` predicts the winner
(log loss on held-out games, a fifth of them). Then fit the weights by gradient descent on that
loss, pulled towards the starting weights by a ridge term (positions of one game are alike, so
an unpulled fit learns the training games). The fitted weights are written as an estimate file
that any strategy and ``ismcts`` can play with (``cartographer:estimate=PATH``,
``ismcts:estimate=PATH``; ``agents.estimate_file``).

A better predictor is not a better player: docs/RESULTS.md ("Fitting the estimate to outcomes")
has the fit's held-out loss beside the match it then played.

    wayfarers simulate --players cartographer,cartographer --games 160 --seed 7000 --out runs/fit/cc
    python -m experiments.estimate_fit runs/fit/cc/games.jsonl --out runs/fit/fitted.json

Features are read off ``evaluation.potential`` itself, once per weight (a unit estimate), so the
fit and the bots' evaluation are one definition: ``potential`` is linear in every weight.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from experiments.cli import seed

FIXED = {"resource_cap", "tag_cap", "potential_cap", "closing", "win_bonus", "rival", "symmetric"}
OUTSIDE = {"journal_open", "end_spread", "spread_per_horizon"}  # fitted, but not weights of potential


def weight_names() -> list[str]:
    """The weights of ``potential``, each a feature: scalar fields, then asset_extra.*, then tags.*."""
    from agents.estimate_file import ASSETS, FIELDS
    from wayfarers_env.content.measures import TAGS

    scalars = [k for k in FIELDS if k not in FIXED | OUTSIDE | {"asset_extra", "tags"}]
    return [*scalars, *(f"asset_extra.{a}" for a in ASSETS), *(f"tags.{t}" for t in TAGS)]


def _set(values: dict, name: str, w: float) -> None:
    from agents.estimate_file import ASSETS

    if name.startswith("asset_extra."):
        values["asset_extra"][ASSETS.index(name.split(".", 1)[1])] = w
    elif name.startswith("tags."):
        values["tags"][name.split(".", 1)[1]] = w
    else:
        values[name] = w


def weights(est, names: list[str]) -> np.ndarray:
    from agents.estimate_file import ASSETS

    out = []
    for n in names:
        if n.startswith("asset_extra."):
            out.append(est.asset_extra[ASSETS.index(n.split(".", 1)[1])])
        elif n.startswith("tags."):
            out.append(est.tags.get(n.split(".", 1)[1], 0.0))
        else:
            out.append(getattr(est, n))
    return np.array(out, dtype=float)


def with_weights(est, names: list[str], w: np.ndarray, extra: dict[str, float]):
    """``est`` with the fitted weights and ``extra`` (journal_open, spreads), valuing opponents alike."""
    values = {"asset_extra": list(est.asset_extra), "tags": dict(est.tags)}
    for n, x in zip(names, w):
        _set(values, n, float(x))
    values["asset_extra"] = tuple(values["asset_extra"])
    return dataclasses.replace(est, **values, **extra, symmetric=True)


def units(names: list[str]) -> list:
    """One estimate per weight, that weight 1 and every other 0: ``potential`` under it is the feature."""
    from agents.evaluation import Estimate

    return [with_weights(Estimate(), names, row, {}) for row in np.eye(len(names))]


@dataclasses.dataclass
class Positions:
    """One row per (position, seat) of two-player games: what the win guess reads."""

    game: np.ndarray  # which game (rows of a game share it)
    horizon: np.ndarray
    lead: np.ndarray  # VP now, seat minus opponent
    outlook: np.ndarray  # journal outlook, seat minus opponent
    mine: np.ndarray  # features (rows x weights), the seat's
    theirs: np.ndarray  # the opponent's
    won: np.ndarray  # 1 won, 0.5 shared, 0 lost


def positions(paths: Iterable[str | Path], names: list[str]) -> Positions:
    """Every turn's first position before the end is triggered, for both seats."""
    from agents.evaluation import horizon, journal_outlook, potential
    from experiments.replay import iter_records
    from wayfarers_env import Game

    feats = units(names)
    cols: list[list] = [[] for _ in range(7)]
    gid = 0
    for path in paths:
        for _line, rec in iter_records(path):
            if len(rec["players"]) != 2:
                raise SystemExit(f"error: {path}: estimate_fit reads two-player games, this record has {len(rec['players'])} players")
            game = Game(rec["config"], rec["seed"])
            g = game.state
            last = -1
            for action in rec["actions"]:
                if g.turn != last and g.end_trigger < 0 and not g.over:
                    last = g.turn
                    total = [s["total"] for s in game.scores()]
                    h = horizon(g)
                    out = [journal_outlook(g, p) for p in g.players]
                    f = [[potential(g, s, u) for u in feats] for s in (0, 1)]
                    for s in (0, 1):
                        won = 1.0 if rec["winners"] == [s] else 0.5 if s in rec["winners"] else 0.0
                        for col, v in zip(cols, (gid, h, total[s] - total[1 - s], out[s] - out[1 - s], f[s], f[1 - s], won)):
                            col.append(v)
                game.apply(action)
            gid += 1
    if not cols[0]:
        raise SystemExit("error: the records hold no position before the end was triggered")
    return Positions(*(np.array(c, dtype=float) for c in cols))


def predict(x: Positions, w: np.ndarray, jo: float, s0: float, sh: float, cap: float, w_rival: np.ndarray | None = None) -> np.ndarray:
    """The win guess of ``evaluate`` for each row (``w_rival``: the opponent's weights, default ``w``)."""
    mine = cap * np.tanh(x.mine @ w / cap)
    theirs = cap * np.tanh(x.theirs @ (w if w_rival is None else w_rival) / cap)
    lead = x.lead + x.horizon * (mine - theirs) + jo * x.outlook
    return 1.0 / (1.0 + np.exp(-np.clip(lead / (s0 + sh * x.horizon), -60, 60)))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def fit(
    x: Positions,
    w0: np.ndarray,
    jo0: float,
    s00: float,
    sh0: float,
    cap: float,
    ridge: float,
    steps: int = 2000,
    lr: float = 0.02,
    floor: float = -math.inf,
):
    """Adam on the log loss plus ``ridge`` times the squared distance of the weights from ``w0``;
    weights below ``floor`` are raised to it after every step (projected descent)."""
    params = [w0.copy(), np.array([jo0, math.log(s00), math.log(sh0)])]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    n = len(x.won)
    for t in range(1, steps + 1):
        w, (jo, ls0, lsh) = params[0], params[1]
        s0, sh = math.exp(ls0), math.exp(lsh)
        zm, zt = x.mine @ w / cap, x.theirs @ w / cap
        lead = x.lead + x.horizon * cap * (np.tanh(zm) - np.tanh(zt)) + jo * x.outlook
        spread = s0 + sh * x.horizon
        p = 1.0 / (1.0 + np.exp(-np.clip(lead / spread, -60, 60)))
        dz = (p - x.won) / n  # d loss / d (lead / spread)
        dlead = dz / spread
        gw = (x.horizon * (1 - np.tanh(zm) ** 2) * dlead) @ x.mine - (x.horizon * (1 - np.tanh(zt) ** 2) * dlead) @ x.theirs
        gw += 2 * ridge * (w - w0)
        dspread = -dz * lead / spread**2
        g2 = np.array([dlead @ x.outlook, dspread.sum() * s0, (dspread * x.horizon).sum() * sh])
        for i, g in enumerate((gw, g2)):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            params[i] = params[i] - lr * (m[i] / (1 - 0.9**t)) / (np.sqrt(v[i] / (1 - 0.999**t)) + 1e-8)
        params[0] = np.maximum(params[0], floor)
    w, (jo, ls0, lsh) = params
    return w, float(jo), math.exp(ls0), math.exp(lsh)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "games", nargs="+", help="games.jsonl files of two-player games (wayfarers simulate --out DIR writes DIR/games.jsonl)"
    )
    parser.add_argument(
        "--start",
        default="cartographer",
        choices=("neutral", "journal", "astronomer", "cartographer"),
        help="the estimate the fit starts from and is pulled towards",
    )
    parser.add_argument("--ridge", type=float, default=1e-3, help="pull towards the starting weights (default 0.001)")
    parser.add_argument("--steps", type=int, default=2000, help="gradient steps (default 2000)")
    parser.add_argument(
        "--nonnegative", action="store_true", help="keep every weight at 0 or above: what a seat holds is never worth less than nothing"
    )
    parser.add_argument("--seed", type=seed, default=0, help="which fifth of the games is held out (default 0)")
    parser.add_argument("--out", help="write the fitted estimate here (JSON of Estimate fields)")
    args = parser.parse_args(argv)
    if not (args.ridge >= 0 and math.isfinite(args.ridge)) or args.steps < 1:
        parser.error("--ridge must be a number of at least 0 and --steps at least 1")
    for path in args.games:
        if not Path(path).is_file():
            parser.error(f"{path}: no such file (give games.jsonl files)")
    from agents.estimate_file import save
    from agents.evaluation import NEUTRAL
    from agents.strategies import STRATEGIES

    estimates = {"neutral": NEUTRAL, **{k: bot.estimate for k, bot in STRATEGIES.items()}}
    names = weight_names()
    x = positions(args.games, names)
    games = np.unique(x.game)
    held = np.random.default_rng(args.seed).choice(games, max(1, len(games) // 5), replace=False)
    val = np.isin(x.game, held)
    split = [Positions(*(getattr(x, f.name)[mask] for f in dataclasses.fields(Positions))) for mask in (~val, val)]
    train, test = split
    if len(train.won) == 0:
        parser.error("give at least two games: a fifth of them is held out")
    print(f"{len(games)} games, {len(x.won)} positions x seats ({len(test.won)} held out: {len(held)} games)")
    print(f"{'estimate':<14} {'train loss':>10} {'held-out':>9}")
    w_neutral = weights(NEUTRAL, names)
    for label, est in estimates.items():
        w = weights(est, names)
        rival = None if est.symmetric else w_neutral
        row = [
            log_loss(predict(part, w, est.journal_open, est.end_spread, est.spread_per_horizon, est.potential_cap, rival), part.won)
            for part in split
        ]
        print(f"{label:<14} {row[0]:10.4f} {row[1]:9.4f}")
    start = estimates[args.start]
    w, jo, s0, sh = fit(
        train,
        weights(start, names),
        start.journal_open,
        start.end_spread,
        start.spread_per_horizon,
        start.potential_cap,
        args.ridge,
        args.steps,
        floor=0.0 if args.nonnegative else -math.inf,
    )
    row = [log_loss(predict(part, w, jo, s0, sh, start.potential_cap), part.won) for part in split]
    print(f"{'fitted':<14} {row[0]:10.4f} {row[1]:9.4f}")
    moves = zip(
        ("journal_open", "end_spread", "spread_per_horizon"), (start.journal_open, start.end_spread, start.spread_per_horizon), (jo, s0, sh)
    )
    print(", ".join(f"{name} {old:g} -> {new:.2f}" for name, old, new in moves))
    w0 = weights(start, names)
    moved = sorted(range(len(names)), key=lambda i: -abs(w[i] - w0[i]))[:10]
    print("largest changes: " + ", ".join(f"{names[i]} {w0[i]:.2f} -> {w[i]:.2f}" for i in moved))
    if args.out:
        save(with_weights(start, names, w, {"journal_open": jo, "end_spread": s0, "spread_per_horizon": sh}), args.out)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
