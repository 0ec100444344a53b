"""``wayfarers evaluate MODEL --vs greedy,random --games N``: a trained model against bots.

Games use fixed seeds (``--seed`` onwards) and alternate the learner's seat, so two models
evaluated with the same arguments meet exactly the same deals. Everything the user named (bots,
model file, the [train] extra) is checked before the first game, so a mistake costs no waiting.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from experiments.cli import UsageError
from experiments.stats import wilson

NAME = 40  # longest opponent name shown in full (a longer policy:PATH keeps its end): rows stay under 100 columns


def evaluate_model(
    model: Any, opponents: list[str], games: int, seed: int, num_players: int = 2, on_game: Callable[[], None] | None = None
) -> list[dict]:
    """``model``: a loaded MaskablePPO model or the path of one."""
    from agents.policy_bot import load_model
    from experiments.train import evaluate

    if isinstance(model, (str, Path)):
        model = load_model(model)
    cfg = {"env": {"num_players": num_players, "reward": "win", "board_sides": "random", "max_cycles": 20000}}
    rows = []
    for opponent in opponents:
        row: dict[str, Any] = evaluate(model, cfg, opponent, games, seed, on_game=on_game)  # numbers, then the opponent's name
        row["opponent"] = opponent
        rows.append(row)
    return rows


def _opponents(vs: str) -> list[str]:
    from agents.registry import UnknownBotError, known_bots, make_bot

    names = [o.strip() for o in vs.split(",") if o.strip()]
    if not names:
        raise UsageError(f"--vs needs at least one bot name, e.g. --vs greedy,random; known bots: {', '.join(known_bots())}")
    for name in names:
        try:
            make_bot(name)
        except (UnknownBotError, ImportError) as exc:
            raise UsageError(f"--vs: {exc}") from None
    return names


def _short(name: str) -> str:
    return name if len(name) <= NAME else "..." + name[-(NAME - 3) :]


def format_table(rows: list[dict]) -> str:
    w = max(len("opponent"), *(len(_short(r["opponent"])) for r in rows)) + 2
    lines = [f"{'opponent':<{w}}{'games':>6}{'win rate':>10}{'95% interval':>18}{'margin':>9}"]
    for r in rows:
        lo, hi = wilson(r["win_rate"] * r["games"], r["games"])
        interval = f"[{lo:.2f}, {hi:.2f}]"
        lines.append(f"{_short(r['opponent']):<{w}}{r['games']:>6}{r['win_rate']:>10.2f}{interval:>18}{r['mean_margin']:>+9.1f}")
    return "\n".join(lines)


def run(args) -> int:
    from agents.policy_bot import ModelFileError, load_model, model_file
    from experiments.train import require_train_extra

    opponents = _opponents(args.vs)
    try:
        model_file(args.model)
        require_train_extra("wayfarers evaluate", ("torch", "stable_baselines3", "sb3_contrib"))
        model = load_model(args.model)
    except ModelFileError as exc:
        raise UsageError(str(exc)) from None
    from tqdm import tqdm

    with tqdm(total=len(opponents) * args.games, desc="evaluate", unit="game", file=sys.stderr) as bar:
        rows = evaluate_model(model, opponents, args.games, args.seed, on_game=lambda: bar.update(1))
    print(format_table(rows))
    return 0
