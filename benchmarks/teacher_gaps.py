"""Where a DAgger file's expert parts from the learner: ``python -m benchmarks.teacher_gaps FILE``.

Why. A DAgger file (``experiments.net_dagger``) holds, at each of the learner's decisions, the
expert's choice and, where it weighed candidates, its value of each. The gap between the
expert's best value and its value of the move the learner actually played is what the expert
would have gained there by its own measure. Its spread says whether the expert's advantage is
many small corrections or a few large ones, and which kinds of move it overrules (a worker
placed where it rests, a die where it first changes the dice with the Trade guild...): where
inputs or training should look first. The learner's move is read by replaying each game, since
a DAgger row holds the expert's label, not the move.

    python -m benchmarks.teacher_gaps runs/lead/dagger1.npz --large 6
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from wayfarers_env import describe_action


def move_class(action: int) -> str:
    """A main action in a few words: which of the turn's options it is."""
    text = describe_action(action)
    if "worker" in text:
        return "a worker"
    if text.startswith("place a die"):
        return "a die"
    if text.startswith("use the Trade guild"):
        return "the Trade guild"
    return text


def learner_moves(data) -> np.ndarray:
    """The move each row's seat played (the label is the expert's choice in a DAgger game)."""
    from wayfarers_env import Game, GameConfig

    cfg = data.meta["config"]
    moves = np.empty(len(data), np.int64)
    for g in range(len(data.games)):
        info = data.games[g]
        rows = iter(np.flatnonzero(data.game == g).tolist())
        recorded = set(info.get("recorded", range(cfg["num_players"])))
        game = Game(GameConfig.from_dict(cfg), seed=info["seed"])
        for action in data.actions_of(g):
            if game.state.current in recorded:
                moves[next(rows)] = action
            game.apply(action)
    return moves


def gaps(data, moves: np.ndarray) -> list[tuple[float, int, int]]:
    """(gap in VP, the learner's move, the expert's best) for every row where the expert valued
    the learner's move among two or more candidates."""
    out = []
    for r in range(len(data)):
        a, b = int(data.soft_ptr[r]), int(data.soft_ptr[r + 1])
        if b - a < 2:
            continue
        values = dict(zip(data.soft_action[a:b].tolist(), data.soft_value[a:b].tolist()))
        mine = values.get(int(moves[r]))
        if mine is None:
            continue
        best = max(values, key=lambda x: values[x])
        out.append((values[best] - mine, int(moves[r]), best))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="a DAgger file (python -m experiments.net_dagger) or any dataset file with values")
    parser.add_argument("--large", type=float, default=6.0, help="a gap above this many VP counts as large (default 6)")
    parser.add_argument("--rows", type=int, default=8, help="pairs of moves shown (default 8)")
    args = parser.parse_args(argv)
    from experiments.dataset import load_dataset

    data = load_dataset(args.data)
    found = gaps(data, learner_moves(data))
    if not found:
        print(f"{args.data}: no decision where the expert valued the move played")
        return 0
    g = np.array([x[0] for x in found])
    print(f"{args.data}: {len(found)} decisions where the expert valued the move played")
    print(f"overruled (gap > 0): {np.mean(g > 1e-9):.3f}; gap in VP: mean {g.mean():.2f}, median {np.median(g):.3f}")
    big = g > args.large
    share = g[big].sum() / g.sum() if g.sum() > 0 else 0.0
    print(f"large (gap > {args.large:g} VP): {int(big.sum())} decisions ({big.mean():.3f}), {share:.3f} of the whole gap")
    share_of: dict[tuple[str, str], float] = {}
    large: Counter[tuple[str, str]] = Counter()
    for gap, move, best in found:
        key = (move_class(move), move_class(best))
        share_of[key] = share_of.get(key, 0.0) + gap / max(g.sum(), 1e-12)
        large[key] += int(gap > args.large)
    print(f"\n{'the learner played':<20} {'the expert':<20} {'share of the gap':>16} {'large gaps':>10}")
    for (played, better), v in sorted(share_of.items(), key=lambda kv: -kv[1])[: args.rows]:
        print(f"{played:<20} {better:<20} {v:>16.3f} {large[(played, better)]:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
