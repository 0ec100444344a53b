"""``wayfarers train``: MaskablePPO on the single-agent view, against bots or in self-play.

The policy is sb3-contrib's MaskablePPO: a feature extractor (``policy.extractor``,
experiments/extractor.py), then MLP heads (``policy.net_arch``). ``mlp``, the baseline, passes
the flat observation vector (docs/OBSERVATION.md) without its card indices, so an MLP must learn
the same card features once per slot; ``cards`` shares one card embedding and one card encoder
over every card slot and one seat encoder over the seats, with a quarter of the parameters.

A run directory holds the resolved config (config.yaml), checkpoints/, final_model.zip,
TensorBoard logs (tb/) and evaluations.csv (every ``eval_every`` steps: win rate with a 95%
Wilson interval and mean score margin against each evaluation bot over a fixed set of seeds).
Self-play keeps a pool of frozen past checkpoints as opponents, mixed with bots at ``bot_rate``.
"""

from __future__ import annotations

import copy
import csv
import importlib
import math
import re
import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from experiments.cli import CARD_INFLUENCE, UsageError

DEFAULTS: dict[str, Any] = {
    "name": "ppo",
    "env": {
        "num_players": 2,
        "reward": "win",
        "board_sides": "random",
        "max_cycles": 20000,
        "tides_of_trade": False,  # the Tides of Trade expansion; card_influence and extension_sides need it
        "card_influence": "both",
        "extension_sides": "random",
    },
    "opponents": {"bots": ["random"], "bot_rate": 1.0},
    "shaping": {"vp_margin": 0.0},
    "selfplay": {"enabled": False, "snapshot_every": 50000, "pool_size": 5},
    "ppo": {
        "learning_rate": 3.0e-4,
        "n_steps": 1024,
        "batch_size": 256,
        "n_epochs": 4,
        "gamma": 0.997,
        "gae_lambda": 0.95,
        "clip_range": 0.2,
        "ent_coef": 0.01,
        "vf_coef": 0.5,
    },
    "policy": {"extractor": "mlp", "net_arch": [256, 256], "activation": "relu"},
    "training": {"timesteps": 200000, "envs": 2, "seed": 0, "checkpoint_every": 50000},
    "evaluation": {"every": 25000, "games": 40, "opponents": ["random"], "seed": 10000},
}


TRAIN_EXTRA = 'pip install -e ".[train]"'
TRAIN_MODULES = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "rich", "tqdm")  # rich, tqdm: the progress bar
RUN_FILES = ("config.yaml", "evaluations.csv", "final_model.zip", "checkpoints", "tb")  # what --overwrite replaces
MAX_SEED = 2**32 - 1  # numpy's seeding range, which SB3 uses
EXTRACTORS = ("mlp", "cards")  # policy.extractor: the feature extractors of experiments/extractor.py (which needs torch)


class TrainConfigError(UsageError):
    """A training config naming an unknown section or field, or a bad value, or a run folder
    that is not free; the message names the field and what is allowed."""


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _bots(v: Any) -> bool:
    return isinstance(v, list) and len(v) > 0 and all(isinstance(b, str) for b in v)


# rules beyond the type of the default value: (check, what is allowed)
RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "name": (lambda v: re.fullmatch(r"[A-Za-z0-9_.-]+", v) is not None, "letters, digits, '_', '-' and '.' (it names the run folder)"),
    "opponents.bots": (_bots, "a non-empty list of bot names"),
    "opponents.bot_rate": (lambda v: 0 <= v <= 1, "a number from 0 to 1"),
    "evaluation.opponents": (_bots, "a non-empty list of bot names"),
    "env.card_influence": (lambda v: v in CARD_INFLUENCE, f"one of {', '.join(CARD_INFLUENCE)} (with tides_of_trade: true)"),
    "policy.net_arch": (lambda v: all(_whole(x) and x >= 1 for x in v), "a list of layer sizes (whole numbers >= 1), e.g. [256, 256]"),
    "policy.activation": (lambda v: v in ("relu", "tanh"), "relu or tanh"),
    "policy.extractor": (
        lambda v: v in EXTRACTORS,
        "mlp (the flat vector without its card indices) or cards (shared card embedding and encoder: experiments/extractor.py)",
    ),
    "ppo.learning_rate": (lambda v: v > 0, "a number > 0"),
    "ppo.batch_size": (lambda v: v >= 2, "a whole number >= 2"),
    "ppo.gamma": (lambda v: 0 < v <= 1, "a number in (0, 1]"),
    "ppo.gae_lambda": (lambda v: 0 <= v <= 1, "a number from 0 to 1"),
    "ppo.clip_range": (lambda v: v > 0, "a number > 0"),
    "ppo.ent_coef": (lambda v: v >= 0, "a number >= 0"),
    "ppo.vf_coef": (lambda v: v >= 0, "a number >= 0"),
    "training.seed": (lambda v: 0 <= v <= MAX_SEED, f"a whole number from 0 to {MAX_SEED}"),
    "evaluation.seed": (lambda v: 0 <= v <= MAX_SEED, f"a whole number from 0 to {MAX_SEED}"),
}
COUNTS = {"ppo.n_steps", "ppo.n_epochs", "training.timesteps", "training.envs", "training.checkpoint_every"}
COUNTS |= {"evaluation.every", "evaluation.games", "selfplay.snapshot_every", "selfplay.pool_size", "env.num_players", "env.max_cycles"}


def _typed(field: str, default: Any, value: Any) -> Any:
    """``value`` checked against the type of the default and the field's rule. YAML 1.1 reads
    ``3e-4`` (no dot) as a string, so a float field also takes a string that reads as a number."""
    if isinstance(default, bool):
        ok, want = isinstance(value, bool), "true or false"
    elif isinstance(default, int):
        ok, want = _whole(value), "a whole number"
    elif isinstance(default, float):
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                pass
        ok, want = _number(value), "a number"
    elif isinstance(default, str):
        ok, want = isinstance(value, str), "a string"
    else:
        ok, want = isinstance(value, list), "a list"
    if ok and field in COUNTS and value < 1:
        ok, want = False, "a whole number >= 1"
    if ok and field in RULES:
        ok, want = RULES[field][0](value), RULES[field][1]
    if not ok:
        raise TrainConfigError(f"{field} must be {want}, got {value!r}")
    return value


def _merge(base: dict[str, Any], over: dict[str, Any], where: str = "") -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        field = f"{where}{key}"
        if key not in base:
            raise TrainConfigError(f"unknown field {field!r}; allowed{' in ' + where[:-1] if where else ''}: {', '.join(base)}")
        if isinstance(base[key], dict):
            if not isinstance(value, dict):
                raise TrainConfigError(f"{field} must be a mapping of {', '.join(base[key])}, got {value!r}")
            out[key] = _merge(base[key], value, f"{field}.")
        else:
            out[key] = _typed(field, base[key], value)
    return out


def _read_yaml(p: Path) -> dict[str, Any]:
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TrainConfigError(f"config file {str(p)!r} does not exist (see experiments/configs/ for examples)") from None
    except IsADirectoryError:
        raise TrainConfigError(f"config {str(p)!r} is a folder; give a YAML file such as experiments/configs/ppo_2p_vs_bots.yaml") from None
    except UnicodeDecodeError:
        raise TrainConfigError(f"config file {str(p)!r} is not a text (UTF-8) YAML file") from None
    except OSError as exc:
        raise TrainConfigError(f"cannot read config file {str(p)!r}: {exc.strerror or exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise TrainConfigError(f"config file {str(p)!r} is not valid YAML: {problem}{at}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise TrainConfigError(f"config file {str(p)!r} must be a mapping of sections ({', '.join(DEFAULTS)}), got {type(data).__name__}")
    return data


def _check_env(cfg: dict[str, Any]) -> None:
    """Build one training environment here, so that a bad env section or bot is reported now,
    in one line, rather than as a broken pipe from a worker process."""
    from agents.registry import UnknownBotError, make_bot
    from experiments.opponents import PoolEnv
    from wayfarers_env import ConfigError

    for section in ("opponents.bots", "evaluation.opponents"):
        part, key = section.split(".")
        for name in cfg[part][key]:
            try:
                make_bot(name)
            except (UnknownBotError, ImportError) as exc:
                raise TrainConfigError(f"{section}: {exc}") from None
    try:
        PoolEnv(bots=cfg["opponents"]["bots"], seat="rotate", **cfg["env"]).close()
    except ConfigError as exc:
        raise TrainConfigError(f"env: {exc}") from None


def load_config(path: str | Path | None, **overrides: Any) -> dict[str, Any]:
    """DEFAULTS, updated by the YAML file, updated by command-line overrides (timesteps, seed, envs),
    every field checked (type, range, bot names, a buildable environment)."""
    cfg = copy.deepcopy(DEFAULTS)
    if path is not None:
        data = _read_yaml(Path(path))
        try:
            cfg = _merge(cfg, data)
            _check_env(cfg)
        except TrainConfigError as exc:
            raise TrainConfigError(f"{path}: {exc}") from None
    for key in ("timesteps", "seed", "envs"):
        if overrides.get(key) is not None:
            try:
                cfg["training"][key] = _typed(f"training.{key}", DEFAULTS["training"][key], overrides[key])
            except TrainConfigError as exc:
                raise TrainConfigError(f"--{key}: {exc}") from None
    if path is None:
        _check_env(cfg)
    return cfg


def check_run_folder(out: Path, overwrite: bool) -> None:
    """Refuse a run folder that already holds something, unless --overwrite replaces a previous run."""
    if out.exists() and not out.is_dir():
        raise TrainConfigError(f"run folder {str(out)!r} is a file; choose another --out")
    if not out.is_dir() or not any(out.iterdir()):
        return
    if not overwrite:
        raise TrainConfigError(f"run folder {str(out)!r} already holds a run; pass --overwrite to replace it, or choose another --out")
    if not (out / "config.yaml").is_file():
        raise TrainConfigError(
            f"{str(out)!r} is not empty and holds no run (no config.yaml), so --overwrite leaves it alone; choose another --out"
        )


def require_train_extra(command: str = "wayfarers train", modules: tuple[str, ...] = TRAIN_MODULES) -> None:
    """Import what training needs now, so a missing package is one line naming the extra."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise UsageError(f"{command} needs {name}, from the [train] extra: {TRAIN_EXTRA}") from None


def _env_factory(cfg: dict[str, Any], rank: int, seed: int, worker: bool):
    def make():
        import torch

        torch.set_num_threads(1)
        if worker:  # Ctrl-C reaches every process of the terminal; the main process alone handles it
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        from experiments.opponents import PoolEnv

        env = PoolEnv(
            bots=cfg["opponents"]["bots"],
            bot_rate=cfg["opponents"]["bot_rate"],
            shaping=cfg["shaping"]["vp_margin"],
            seat="rotate",
            **cfg["env"],
        )
        env.reset(seed=seed + 1000 * rank)
        return env

    return make


def make_vec_env(cfg: dict[str, Any], n_envs: int, seed: int):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    fns = [_env_factory(cfg, rank, seed, worker=n_envs > 1) for rank in range(n_envs)]
    vec = SubprocVecEnv(fns, start_method="fork") if n_envs > 1 else DummyVecEnv(fns)
    return VecMonitor(vec)  # episode return/length in the TensorBoard logs


def evaluate(
    model, cfg: dict[str, Any], opponent: str, games: int, seed: int, on_game: Callable[[], None] | None = None
) -> dict[str, float]:
    """Win rate (95% Wilson interval) and mean VP margin of the model against one bot, over the
    fixed seeds seed..seed+games-1, seats alternating. ``on_game`` is called after each game
    (a progress bar)."""
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from stable_baselines3.common.vec_env import DummyVecEnv

    from experiments.opponents import PoolEnv
    from experiments.stats import wilson

    finals: list[dict[str, Any]] = []

    def grab(local: dict[str, Any], _glob: dict[str, Any]) -> None:
        if local.get("done"):
            finals.append(local["info"])
            if on_game is not None:
                on_game()

    env_cfg = dict(cfg["env"])
    env = DummyVecEnv([lambda: PoolEnv(bots=[opponent], seat="rotate", **env_cfg)])
    env.seed(seed)
    evaluate_policy(model, env, n_eval_episodes=games, deterministic=True, callback=grab, warn=False)
    wins = margins = 0.0
    for info in finals:
        me = info["agent"]
        totals = {name: sc["total"] for name, sc in info["scores"].items()}
        margins += totals[me] - max(t for name, t in totals.items() if name != me)
        winners = info.get("winners", [])
        if me in winners:
            wins += 1.0 / len(winners)
    n = max(1, len(finals))
    lo, hi = wilson(wins, len(finals))
    return {"games": len(finals), "win_rate": wins / n, "win_low": lo, "win_high": hi, "mean_margin": margins / n}


def run_training(cfg: dict[str, Any], out: str | Path, progress: bool = True, overwrite: bool = False) -> Path:
    """Train into the run folder ``out``; a folder holding a previous run is replaced only with
    ``overwrite`` (see check_run_folder)."""
    out = Path(out)
    check_run_folder(out, overwrite)
    for name in RUN_FILES:
        old = out / name
        if old.is_dir():
            shutil.rmtree(old)
        elif old.exists():
            old.unlink()
    try:
        (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TrainConfigError(f"cannot create run folder {str(out)!r}: {exc.strerror or exc}") from None
    (out / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    env = make_vec_env(cfg, cfg["training"]["envs"], cfg["training"]["seed"])
    try:
        return _learn(cfg, out, env, progress)
    finally:  # also on Ctrl-C: the worker processes are told to stop
        env.close()


def _learn(cfg: dict[str, Any], out: Path, env, progress: bool) -> Path:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from experiments.extractor import policy_kwargs

    torch.set_num_threads(1)
    tr, ev, sp = cfg["training"], cfg["evaluation"], cfg["selfplay"]
    model = MaskablePPO(
        "MlpPolicy",
        env,
        policy_kwargs=policy_kwargs(**cfg["policy"]),
        tensorboard_log=str(out / "tb"),
        seed=tr["seed"],
        device="cpu",
        verbose=0,
        **cfg["ppo"],
    )
    csv_path = out / "evaluations.csv"
    fields = ["timesteps", "wall_seconds", "opponent", "games", "win_rate", "win_low", "win_high", "mean_margin"]
    with csv_path.open("w", newline="") as fh:
        csv.DictWriter(fh, fields).writeheader()
    started = time.time()

    def run_eval(steps: int) -> None:
        for opponent in ev["opponents"]:
            row = evaluate(model, cfg, opponent, ev["games"], ev["seed"])
            row.update(timesteps=steps, wall_seconds=round(time.time() - started, 1), opponent=opponent)
            with csv_path.open("a", newline="") as fh:
                csv.DictWriter(fh, fields).writerow({k: row[k] for k in fields})
            model.logger.record(f"eval/win_rate_{opponent}", row["win_rate"])
            model.logger.record(f"eval/margin_{opponent}", row["mean_margin"])

    pool: list[str] = []

    class Periodic(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = ev["every"]
            self.next_ckpt = tr["checkpoint_every"]
            self.next_snap = sp["snapshot_every"]

        def _on_step(self) -> bool:
            steps = self.num_timesteps
            if steps >= self.next_ckpt:
                self.model.save(out / "checkpoints" / f"step_{steps}.zip")
                self.next_ckpt += tr["checkpoint_every"]
            if sp["enabled"] and steps >= self.next_snap:
                path = out / "checkpoints" / f"selfplay_{steps}.zip"
                self.model.save(path)
                pool.append(str(path))
                del pool[: -sp["pool_size"]]
                self.training_env.env_method("set_frozen", list(pool))
                self.next_snap += sp["snapshot_every"]
            if steps >= self.next_eval:
                run_eval(steps)
                self.next_eval += ev["every"]
            return True

    model.learn(total_timesteps=tr["timesteps"], callback=Periodic(), progress_bar=progress, tb_log_name="run")
    model.save(out / "final_model.zip")
    with csv_path.open() as fh:
        done_at = [int(r["timesteps"]) for r in csv.DictReader(fh)]
    if model.num_timesteps not in done_at:
        run_eval(model.num_timesteps)
    return out


def run(args) -> int:
    if getattr(args, "algo", "maskable-ppo") == "rllib-ppo":
        from experiments.rllib_train import run as run_rllib

        return run_rllib(args)
    if getattr(args, "address", None) is not None:
        raise UsageError("--address names a Ray cluster for --algo rllib-ppo; MaskablePPO trains on this machine: drop --address")
    cfg = load_config(args.config, timesteps=args.timesteps, seed=args.seed, envs=args.envs)
    out = Path(args.out or f"runs/{cfg['name']}_seed{cfg['training']['seed']}")
    overwrite = bool(getattr(args, "overwrite", False))
    check_run_folder(out, overwrite)
    require_train_extra()
    try:
        path = run_training(cfg, out, progress=True, overwrite=overwrite)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"{out} keeps the checkpoints saved so far") from None
    print(f"run directory: {path}")
    with (path / "evaluations.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    final = [r for r in rows if int(r["timesteps"]) == max(int(x["timesteps"]) for x in rows)]
    for r in final:
        print(
            f"  vs {r['opponent']:<13} win rate {float(r['win_rate']):.2f} "
            f"[{float(r['win_low']):.2f}, {float(r['win_high']):.2f}]  margin {float(r['mean_margin']):+.1f} VP"
        )
    return 0
