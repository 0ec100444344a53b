"""``wayfarers evaluate MODEL --vs greedy,random --games N``: a trained model against bots.

Games use fixed seeds (``--seed`` onwards) and alternate the learner's seat, so two models
evaluated with the same arguments meet exactly the same deals. Everything the user named (bots,
model file, the [train] extra) is checked before the first game, so a mistake costs no waiting.

A model is evaluated on the game it was trained on (player count, board sides, Tides of Trade
and its options: the ``env`` section of its run's config.yaml), because that is what a win rate
printed next to a run is expected to mean; the expansion options on the command line ask for
another setting of the expansion on purpose, and the note on stderr always says which game ran.

A candidate net file (``.pt``, ``agents.net_bot``) is played as the bot ``net:FILE`` on the
tournament's schedule (``experiments.tournament.schedule``: deal k twice, seats swapped), in
``--workers`` processes; the figures are the same for any number of workers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from experiments.cli import UsageError, game_options
from experiments.stats import wilson

NAME = 40  # longest opponent name shown in full (a longer policy:PATH keeps its end): rows stay under 100 columns
RUN_CONFIG = "config.yaml"  # written by wayfarers train beside final_model.zip; checkpoints are one folder down


def evaluate_model(
    model: Any,
    opponents: list[str],
    games: int,
    seed: int,
    num_players: int = 2,
    on_game: Callable[[], None] | None = None,
    env: dict[str, Any] | None = None,
) -> list[dict]:
    """``model``: a loaded MaskablePPO model or the path of one. ``env``: the env section of a
    training config (``run_env``); without it, the base game for ``num_players``."""
    from agents.policy_bot import load_model
    from experiments.train import DEFAULTS, evaluate

    if isinstance(model, (str, Path)):
        model = load_model(model)
    cfg = {"env": dict(env) if env is not None else {**DEFAULTS["env"], "num_players": num_players}}
    rows = []
    for opponent in opponents:
        row: dict[str, Any] = evaluate(model, cfg, opponent, games, seed, on_game=on_game)  # numbers, then the opponent's name
        row["opponent"] = opponent
        rows.append(row)
    return rows


NET_SUFFIX = ".pt"  # a candidate net file (agents.net_bot); anything else is a MaskablePPO model


def evaluate_bot(
    bot: str, opponents: list[str], games: int, seed: int, config: Any, workers: int = 1, on_game: Callable[[], None] | None = None
) -> list[dict]:
    """The rows of ``format_table`` for bot ``bot`` against each opponent: ``games`` games on the
    tournament's schedule with seed ``seed`` (seats rotate, each deal played from both seats)."""
    from experiments.stats import win_row
    from experiments.tournament import play_games, schedule

    rows = []
    for opponent in opponents:
        games_played = []
        for record, _think in play_games(schedule([bot, opponent], games, seed, config), workers, None, "process"):
            games_played.append((record["lineup"].index(0), dict(enumerate(sc["total"] for sc in record["scores"])), record["winners"]))
            if on_game is not None:
                on_game()
        rows.append({**win_row(games_played), "opponent": opponent})
    return rows


def run_env(model: str | Path) -> tuple[dict[str, Any], Path | None]:
    """The env section the model was trained with, and the config.yaml it comes from (None: no
    run folder around the model, so the defaults: the base game for 2 players). Fields an older
    run did not record (the expansion's) take their defaults, which is what that run played."""
    from experiments.train import DEFAULTS, TrainConfigError, _merge, _read_yaml

    folder = Path(model).parent
    candidates = [folder / RUN_CONFIG]
    if folder.name == "checkpoints":
        candidates.append(folder.parent / RUN_CONFIG)
    for path in candidates:
        if path.is_file():
            data = _read_yaml(path)
            try:
                return _merge({"env": DEFAULTS["env"]}, {"env": data.get("env", {})})["env"], path
            except TrainConfigError as exc:
                raise UsageError(f"{path}: {exc}") from None
    return dict(DEFAULTS["env"]), None


def game_env(args: Any) -> tuple[dict[str, Any], str]:
    """The env the games are played in (``run_env``, then the expansion options given) and a
    note naming it, checked now so that a bad one is one line before any game."""
    from wayfarers_env import ConfigError, GameConfig

    env, path = run_env(args.model)
    source = f"the env of {path}" if path is not None else f"no {RUN_CONFIG} beside the model, so the defaults"
    options = game_options(args)
    if options:
        env.update({"card_influence": "both", "extension_sides": "random", **options})
        source += ", with the expansion options given"
    keys = ("num_players", "board_sides", "tides_of_trade", "card_influence", "extension_sides")
    try:
        GameConfig(**{k: env[k] for k in keys})
    except ConfigError as exc:
        raise UsageError(f"{path or 'the defaults'}: env: {exc}") from None
    game = "Tides of Trade" if env["tides_of_trade"] else "the base game"
    if env["tides_of_trade"]:
        game += f" (card influence {env['card_influence']}, extension sides {env['extension_sides']})"
    return env, f"evaluating on {game}, {env['num_players']} players, board sides {env['board_sides']}: {source}"


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
    if str(args.model).endswith(NET_SUFFIX):
        return _run_net(args, opponents)
    if args.workers > 1:
        raise UsageError("--workers: a MaskablePPO model is evaluated in one process; --workers is for a net file (.pt)")
    try:
        model_file(args.model)
        env, note = game_env(args)
        require_train_extra("wayfarers evaluate", ("torch", "stable_baselines3", "sb3_contrib"))
        model = load_model(args.model)
    except ModelFileError as exc:
        raise UsageError(str(exc)) from None
    from tqdm import tqdm

    print(f"note: {note}", file=sys.stderr)
    with tqdm(total=len(opponents) * args.games, desc="evaluate", unit="game", file=sys.stderr) as bar:
        rows = evaluate_model(model, opponents, args.games, args.seed, on_game=lambda: bar.update(1), env=env)
    print(format_table(rows))
    return 0


def _run_net(args, opponents: list[str]) -> int:
    """``run`` for a candidate net file: the bot ``net:FILE`` on the tournament's schedule."""
    from agents.registry import NET_PREFIX, UnknownBotError, make_bot
    from experiments.train import require_train_extra
    from wayfarers_env import GameConfig

    require_train_extra("wayfarers evaluate", ("torch",))
    bot = NET_PREFIX + str(args.model)
    try:
        make_bot(bot)
    except UnknownBotError as exc:
        raise UsageError(str(exc)) from None
    env, note = game_env(args)
    keys = ("num_players", "board_sides", "tides_of_trade", "card_influence", "extension_sides")
    config = GameConfig(**{k: env[k] for k in keys})
    if config.num_players != 2:
        raise UsageError(f"a net file is evaluated in 2-player games; the env asks for {config.num_players}")
    from tqdm import tqdm

    print(f"note: {note}; {bot} on the tournament schedule (each deal from both seats)", file=sys.stderr)
    with tqdm(total=len(opponents) * args.games, desc="evaluate", unit="game", file=sys.stderr) as bar:
        rows = evaluate_bot(bot, opponents, args.games, args.seed, config, args.workers, on_game=lambda: bar.update(1))
    print(format_table(rows))
    return 0
