"""``wayfarers evaluate MODEL --vs greedy,random --games N``: a trained model against bots.

Games use fixed seeds (``--seed`` onwards) and alternate the learner's seat, so two models
evaluated with the same arguments meet exactly the same deals.
"""

from __future__ import annotations

from experiments.stats import wilson


def evaluate_model(model_path: str, opponents: list[str], games: int, seed: int, num_players: int = 2) -> list[dict]:
    import torch
    from sb3_contrib import MaskablePPO

    from experiments.train import evaluate

    torch.set_num_threads(1)
    model = MaskablePPO.load(model_path, device="cpu")
    cfg = {"env": {"num_players": num_players, "reward": "win", "board_sides": "random", "max_cycles": 20000}}
    rows = []
    for opponent in opponents:
        row = evaluate(model, cfg, opponent, games, seed)
        row["opponent"] = opponent
        rows.append(row)
    return rows


def run(args) -> int:
    opponents = [o.strip() for o in args.vs.split(",") if o.strip()]
    rows = evaluate_model(args.model, opponents, args.games, args.seed)
    print(f"{'opponent':<14}{'games':>6}{'win rate':>10}{'95% interval':>18}{'margin':>9}")
    for r in rows:
        lo, hi = wilson(r["win_rate"] * r["games"], r["games"])
        print(f"{r['opponent']:<14}{r['games']:>6}{r['win_rate']:>10.2f}    [{lo:.2f}, {hi:.2f}]{r['mean_margin']:>+9.1f}")
    return 0
