"""``wayfarers train``: MaskablePPO on the single-agent view, against bots or in self-play.

The policy is sb3-contrib's MaskablePPO: a feature extractor (``policy.extractor``,
experiments/extractor.py), then MLP heads (``policy.net_arch``). ``mlp``, the baseline, passes
the flat observation vector (docs/OBSERVATION.md) without its card indices, so an MLP must learn
the same card features once per slot; ``cards`` shares one card embedding and one card encoder
over every card slot and one seat encoder over the seats, with a quarter of the parameters.

A run directory holds the resolved config (config.yaml), checkpoints/, final_model.zip,
TensorBoard logs (tb/) and evaluations.csv (every ``eval_every`` steps: win rate with a 95%
Wilson interval and mean score margin against each evaluation bot over a fixed set of seeds).

Opponents (experiments/opponents.py): ``opponents.mix`` gives each opponent its share of the
learner's decisions, ``self`` being a frozen snapshot from the self-play pool, optionally leaning
toward the opponents the learner loses to; without a mix, the old draw of one bot per episode
(frozen selves at ``1 - bot_rate``). Shaping: the old ``vp_margin``, or a gamma-correct potential
over the bots' position value that fades out (``shaping.potential``, ``fade_steps``). The
bookkeeping during training (checkpoints, snapshots, evaluations, per-opponent TensorBoard
statistics) is experiments/train_loop.py. ``--resume RUN_DIR`` continues a run from its latest
checkpoint (also one saved on Ctrl-C); ``training.init`` starts from another model's weights.
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

from experiments.beside import beside
from experiments.cli import CARD_INFLUENCE, UsageError
from experiments.ctrl_c import CtrlC

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
    # mix: share of the learner's decisions per opponent (bot names, "self"); empty: the old draw
    # of one of ``bots`` per episode (frozen selves at 1 - bot_rate with selfplay.enabled)
    "opponents": {"mix": {}, "bots": ["random"], "bot_rate": 1.0, "toward_losses": False, "floor": 0.2, "window": 100},
    # vp_margin: the old shaping on the VP margin; potential: gamma-correct shaping over the bots'
    # position value, fading linearly to 0 over fade_steps learner steps (0: never fades)
    "shaping": {"vp_margin": 0.0, "potential": 0.0, "fade_steps": 0},
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
    # trunk: a hidden layer of this width shared by the policy and value heads (0: none; each
    # head then has its own first layer over the whole observation)
    "policy": {"extractor": "mlp", "net_arch": [256, 256], "activation": "relu", "trunk": 0},
    # init: a saved MaskablePPO .zip (e.g. behaviour-cloned) whose weights the run starts from
    "training": {"timesteps": 200000, "envs": 2, "seed": 0, "checkpoint_every": 50000, "init": ""},
    "evaluation": {"every": 25000, "games": 40, "opponents": ["random"], "seed": 10000},
}


TRAIN_EXTRA = 'pip install -e ".[train]"'
TRAIN_MODULES = ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "rich", "tqdm")  # rich, tqdm: the progress bar
RUN_FILES = ("config.yaml", "evaluations.csv", "final_model.zip", "checkpoints", "tb")  # what --overwrite replaces
EVAL_FIELDS = ["timesteps", "wall_seconds", "opponent", "games", "win_rate", "win_low", "win_high", "mean_margin"]
CHECKPOINT = re.compile(r"step_(\d+)\.zip")
SNAPSHOT = re.compile(r"selfplay_(\d+)\.zip")
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


def _mix(v: Any) -> bool:
    return (
        isinstance(v, dict) and all(isinstance(k, str) and _number(x) and x >= 0 for k, x in v.items()) and (not v or sum(v.values()) > 0)
    )


# rules beyond the type of the default value: (check, what is allowed)
RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "name": (lambda v: re.fullmatch(r"[A-Za-z0-9_.-]+", v) is not None, "letters, digits, '_', '-' and '.' (it names the run folder)"),
    "opponents.bots": (_bots, "a non-empty list of bot names"),
    "opponents.bot_rate": (lambda v: 0 <= v <= 1, "a number from 0 to 1"),
    "opponents.mix": (
        _mix,
        "a mapping of opponent (a bot name, or self: a frozen snapshot of the learner) to its share of the learner's "
        "decisions (numbers >= 0, not all 0), e.g. {random: 0.3, self: 0.5, greedy: 0.2}",
    ),
    "opponents.floor": (lambda v: v >= 0, "a number >= 0"),
    "shaping.potential": (lambda v: v >= 0, "a number >= 0"),
    "shaping.fade_steps": (lambda v: v >= 0, "a whole number >= 0 (0: the shaping never fades)"),
    "evaluation.opponents": (_bots, "a non-empty list of bot names"),
    "env.card_influence": (lambda v: v in CARD_INFLUENCE, f"one of {', '.join(CARD_INFLUENCE)} (with tides_of_trade: true)"),
    "policy.net_arch": (lambda v: all(_whole(x) and x >= 1 for x in v), "a list of layer sizes (whole numbers >= 1), e.g. [256, 256]"),
    "policy.activation": (lambda v: v in ("relu", "tanh"), "relu or tanh"),
    "policy.trunk": (
        lambda v: v >= 0,
        "a whole number >= 0: the width of a layer shared by the policy and value heads, before net_arch (0: none)",
    ),
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
COUNTS |= {"opponents.window"}
FREE_MAPPINGS = {"opponents.mix"}  # mappings whose keys are the user's (opponent names), checked by their rule


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
    elif isinstance(default, dict):
        ok, want = isinstance(value, dict), "a mapping"
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
        if isinstance(base[key], dict) and field not in FREE_MAPPINGS:
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


def _check_env(cfg: dict[str, Any], check_init: bool = True) -> None:
    """Build one training environment here, so that a bad env section or bot is reported now,
    in one line, rather than as a broken pipe from a worker process."""
    from agents.registry import UnknownBotError, make_bot
    from experiments.opponents import SELF, PoolEnv
    from wayfarers_env import ConfigError

    for section in ("opponents.bots", "evaluation.opponents", "opponents.mix"):
        part, key = section.split(".")
        for name in cfg[part][key]:
            if section == "opponents.mix" and name == SELF:
                continue
            try:
                make_bot(name)
            except (UnknownBotError, ImportError) as exc:
                raise TrainConfigError(
                    f"{section}: {exc}{'; or self (a frozen snapshot of the learner)' if part == 'opponents' else ''}"
                ) from None
    try:
        PoolEnv(bots=cfg["opponents"]["bots"], mix=cfg["opponents"]["mix"] or None, seat="rotate", **cfg["env"]).close()
    except ConfigError as exc:
        raise TrainConfigError(f"env: {exc}") from None
    if cfg["training"]["init"] and check_init:
        from agents.policy_bot import ModelFileError, model_file

        try:
            model_file(cfg["training"]["init"])
        except ModelFileError as exc:
            raise TrainConfigError(f"training.init: {exc}") from None


def load_config(path: str | Path | None, *, check_init: bool = True, **overrides: Any) -> dict[str, Any]:
    """DEFAULTS, updated by the YAML file, updated by command-line overrides (timesteps, seed, envs),
    every field checked (type, range, bot names, a buildable environment). ``check_init=False``
    skips the check that ``training.init`` exists: ``wayfarers imitate`` reads a config to *make*
    that model, so the file it will write must not be required already."""
    cfg = copy.deepcopy(DEFAULTS)
    if path is not None:
        data = _read_yaml(Path(path))
        try:
            cfg = _merge(cfg, data)
            _check_env(cfg, check_init)
        except TrainConfigError as exc:
            raise TrainConfigError(f"{path}: {exc}") from None
    for key in ("timesteps", "seed", "envs"):
        if overrides.get(key) is not None:
            try:
                cfg["training"][key] = _typed(f"training.{key}", DEFAULTS["training"][key], overrides[key])
            except TrainConfigError as exc:
                raise TrainConfigError(f"--{key}: {exc}") from None
    if path is None:
        _check_env(cfg, check_init)
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

        opp, shaping = cfg["opponents"], cfg["shaping"]
        env = PoolEnv(
            bots=opp["bots"],
            bot_rate=opp["bot_rate"],
            mix=opp["mix"] or None,
            shaping=shaping["vp_margin"],
            potential=shaping["potential"],
            gamma=cfg["ppo"]["gamma"],
            seat="rotate",
            **cfg["env"],
        )
        env.reset(seed=seed + 1000 * rank)
        return env

    return make


def make_vec_env(cfg: dict[str, Any], n_envs: int, seed: int):
    """The training envs: one process per env when there are several (SB3 batches the learner's
    forward over them; the opponents play inside their env's process)."""
    import sb3_contrib  # noqa: F401
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    # imported here, before the fork: a worker's first frozen policy then loads in ~0.06 s, not ~1.9 s
    import agents.policy_bot  # noqa: F401

    fns = [_env_factory(cfg, rank, seed, worker=n_envs > 1) for rank in range(n_envs)]
    from experiments.train_loop import MasksInInfo

    vec = SubprocVecEnv(fns, start_method="fork") if n_envs > 1 else DummyVecEnv(fns)
    return VecMonitor(MasksInInfo(vec))  # VecMonitor: episode return/length in the TensorBoard logs


def close_vec_env(env, interrupted: bool = False) -> None:
    """Stop the training envs' worker processes.

    Why not ``env.close()`` alone: a Ctrl-C can land in ``SubprocVecEnv.step_wait`` between the
    replies of two workers; the vec env is still ``waiting``, and its ``close`` then reads a reply
    from every worker, blocking forever on the one already read (the train command hung on Ctrl-C,
    now and then, under load). After an interruption the workers (which ignore SIGINT) are
    terminated instead; a vec env without worker processes, or one closed already, is closed as usual."""
    vec = env
    while hasattr(vec, "venv"):  # VecMonitor and MasksInInfo wrap the SubprocVecEnv
        vec = vec.venv
    processes = getattr(vec, "processes", None)
    if not interrupted or processes is None or getattr(vec, "closed", False):
        env.close()
        return
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=30)
    for remote in vec.remotes:
        remote.close()
    vec.closed = True


def evaluate(
    model, cfg: dict[str, Any], opponent: str, games: int, seed: int, on_game: Callable[[], None] | None = None
) -> dict[str, float]:
    """Win rate (95% Wilson interval) and mean VP margin of the model against one bot, over the
    fixed seeds seed..seed+games-1, seats alternating. ``on_game`` is called after each game
    (a progress bar)."""
    from sb3_contrib.common.maskable.evaluation import evaluate_policy
    from stable_baselines3.common.vec_env import DummyVecEnv

    from experiments.opponents import PoolEnv
    from experiments.stats import win_row

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
    return win_row([(f["agent"], {name: sc["total"] for name, sc in f["scores"].items()}, f.get("winners", [])) for f in finals])


def new_model(cfg: dict[str, Any], env, tb: Path | None, policy: dict[str, Any] | None = None, sb3_buffer: bool = False):
    """A fresh MaskablePPO for the config; ``policy`` replaces the policy_kwargs built from the
    config's policy section (the benchmark's old whole-vector MLP); ``sb3_buffer``: SB3's own
    rollout buffer (the benchmark's old default) rather than train_loop.StepMajorBuffer."""
    import torch
    from sb3_contrib import MaskablePPO

    from experiments.extractor import policy_kwargs
    from experiments.train_loop import StepMajorBuffer

    torch.set_num_threads(1)
    return MaskablePPO(
        "MlpPolicy",
        env,
        rollout_buffer_class=None if sb3_buffer else StepMajorBuffer,
        policy_kwargs=policy if policy is not None else policy_kwargs(**cfg["policy"]),
        tensorboard_log=str(tb) if tb is not None else None,
        seed=cfg["training"]["seed"],
        device="cpu",
        verbose=0,
        **cfg["ppo"],
    )


def _architecture(policy) -> dict[str, Any]:
    """What must agree for weights to carry over: the extractor and its width (the trunk), the
    heads and their activation."""
    kw = policy.net_arch
    return {
        "extractor": type(policy.features_extractor).__name__,
        "features": policy.features_extractor.features_dim,
        "net_arch": kw if isinstance(kw, list) else dict(kw),
        "activation": policy.activation_fn.__name__,
    }


def initial_weights(cfg: dict[str, Any]) -> dict[str, Any] | None:
    """The policy weights of ``training.init`` (a MaskablePPO .zip), checked against the policy the
    config builds: the observation and action spaces (load_model), the extractor, heads and
    activation, and every tensor's shape. Read before the run folder is touched."""
    path = cfg["training"]["init"]
    if not path:
        return None
    import numpy as np
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from agents.policy_bot import ModelFileError, load_model
    from experiments.extractor import policy_kwargs
    from wayfarers_env.envs.observation import OBS_SIZE, observation_bounds
    from wayfarers_env.rules.actions import NUM_ACTIONS

    try:
        saved = load_model(path)
    except ModelFileError as exc:
        raise TrainConfigError(f"training.init: {exc}") from None
    low, high = observation_bounds()
    space = spaces.Box(low, high, (OBS_SIZE,), np.float32)
    want = MaskableActorCriticPolicy(space, spaces.Discrete(NUM_ACTIONS), lambda _: 3e-4, **policy_kwargs(**cfg["policy"]))
    have_arch, want_arch = _architecture(saved.policy), _architecture(want)
    if have_arch != want_arch:
        raise TrainConfigError(
            f"training.init: {path!r} has the policy {have_arch}, the config's policy section builds {want_arch}; "
            "set policy: to the model's (extractor, trunk, net_arch, activation)"
        )
    state = saved.policy.state_dict()
    mine = want.state_dict()
    bad = [k for k in mine if k not in state or tuple(state[k].shape) != tuple(mine[k].shape)]
    if bad or set(state) != set(mine):
        raise TrainConfigError(
            f"training.init: {path!r} does not fit the config's policy (tensor {(bad or sorted(set(state) ^ set(mine)))[0]!r})"
        )
    return state


def _snapshots(out: Path, upto: int | None = None) -> list[tuple[int, Path]]:
    found = []
    for p in (out / "checkpoints").glob("selfplay_*.zip"):
        m = SNAPSHOT.fullmatch(p.name)
        if m and (upto is None or int(m.group(1)) <= upto):
            found.append((int(m.group(1)), p))
    return sorted(found)


def latest_checkpoint(out: Path) -> tuple[int, Path] | None:
    found = [(int(m.group(1)), p) for p in (out / "checkpoints").glob("step_*.zip") if (m := CHECKPOINT.fullmatch(p.name))]
    return max(found) if found else None


def run_training(cfg: dict[str, Any], out: str | Path, progress: bool = True, overwrite: bool = False, resume: bool = False) -> Path:
    """Train into the run folder ``out``; a folder holding a previous run is replaced only with
    ``overwrite`` (see check_run_folder). ``resume``: continue the run in ``out`` from its latest
    checkpoint (resume_point says which), appending to its evaluations.csv and TensorBoard log."""
    out = Path(out)
    start = None
    if resume:
        start = resume_point(out, cfg)
        init = None
    else:
        check_run_folder(out, overwrite)
        init = initial_weights(cfg)
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
        with (out / "evaluations.csv").open("w", newline="") as fh:
            csv.DictWriter(fh, EVAL_FIELDS).writeheader()
    (out / "config.yaml").write_text(yaml.safe_dump(cfg, sort_keys=False))
    env = make_vec_env(cfg, cfg["training"]["envs"], cfg["training"]["seed"] + (start[0] if start else 0))
    try:
        path = _learn(cfg, out, env, progress, init=init, start=start)
    except BaseException:  # Ctrl-C: the workers may owe replies the main process will never read
        close_vec_env(env, interrupted=True)
        raise
    close_vec_env(env)
    return path


def resume_point(out: Path, cfg: dict[str, Any], dry: bool = False) -> tuple[int, Path]:
    """The latest checkpoint of the run in ``out`` (step, path), with the rows of evaluations.csv
    written after it dropped (they are evaluated again); refused when there is none, or when the
    run already reached training.timesteps."""
    found = latest_checkpoint(out)
    if found is None:
        raise TrainConfigError(
            f"{str(out)!r} holds no checkpoint to resume from (checkpoints/step_N.zip are saved every "
            f"training.checkpoint_every = {cfg['training']['checkpoint_every']} steps, and on Ctrl-C); start it again with --overwrite"
        )
    step, _ = found
    if step >= cfg["training"]["timesteps"]:
        raise TrainConfigError(
            f"{str(out)!r} is already trained to {step} steps (training.timesteps is {cfg['training']['timesteps']}); "
            f"pass --timesteps above {step} to train it further"
        )
    if dry:
        return found
    csv_path = out / "evaluations.csv"
    rows = list(csv.DictReader(csv_path.open())) if csv_path.is_file() else []
    with csv_path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, EVAL_FIELDS)
        writer.writeheader()
        writer.writerows(r for r in rows if int(r["timesteps"]) <= step)
    return found


def _learn(cfg: dict[str, Any], out: Path, env, progress: bool, init=None, start: tuple[int, Path] | None = None) -> Path:
    from sb3_contrib import MaskablePPO

    from experiments.train_loop import OpponentStats, Trainer

    tr, ev, sp = cfg["training"], cfg["evaluation"], cfg["selfplay"]
    if start is None:
        model = new_model(cfg, env, out / "tb")
        if init is not None:
            model.policy.load_state_dict(init)
    else:
        model = MaskablePPO.load(str(start[1]), env=env, device="cpu", tensorboard_log=str(out / "tb"))
        model.set_random_seed(tr["seed"] + start[0])  # a resumed run is reproducible too
    csv_path = out / "evaluations.csv"
    started = time.time()

    def run_eval(steps: int, log: bool = True) -> None:
        for opponent in ev["opponents"]:
            row = evaluate(model, cfg, opponent, ev["games"], ev["seed"])
            row.update(timesteps=steps, wall_seconds=round(time.time() - started, 1), opponent=opponent)
            with csv_path.open("a", newline="") as fh:
                csv.DictWriter(fh, EVAL_FIELDS).writerow({k: row[k] for k in EVAL_FIELDS})
            if log:  # SB3's logger exists once learn() has started
                model.logger.record(f"eval/win_rate_{opponent}", row["win_rate"])
                model.logger.record(f"eval/margin_{opponent}", row["mean_margin"])

    ctrl_c = CtrlC()

    def save_checkpoint(steps: int, stats: OpponentStats) -> None:
        model.opponent_results = stats.state()  # saved in the zip's data, restored by load (--resume)
        with ctrl_c.writing(), beside(out / "checkpoints" / f"step_{steps}.zip") as side:  # a Ctrl-C waits for the end
            model.save(side)

    callback = Trainer(cfg, out, on_eval=run_eval, on_checkpoint=save_checkpoint)
    if start is not None:
        callback.stats.restore(getattr(model, "opponent_results", {}))
        callback.pool = [str(p) for _, p in _snapshots(out, start[0])][-sp["pool_size"] :]
    elif callback.selfplay_mix:  # the untrained policy is the first self: the pool is never empty
        path = out / "checkpoints" / "selfplay_0.zip"
        model.save(path)
        callback.pool = [str(path)]
    if callback.pool:
        env.env_method("set_frozen", list(callback.pool))
    if start is None and init is not None:
        run_eval(0, log=False)  # where the model started from stands: the learning curve's first point
    remaining = tr["timesteps"] - model.num_timesteps
    with ctrl_c:
        try:
            model.learn(
                total_timesteps=remaining, callback=callback, progress_bar=progress, tb_log_name="run", reset_num_timesteps=start is None
            )
        except KeyboardInterrupt:
            if model.num_timesteps > (start[0] if start else 0):  # what --resume continues from
                save_checkpoint(model.num_timesteps, callback.stats)
            raise
    model.save(out / "final_model.zip")
    with csv_path.open() as fh:
        done_at = [int(r["timesteps"]) for r in csv.DictReader(fh)]
    if model.num_timesteps not in done_at:
        run_eval(model.num_timesteps)
    return out


def run(args) -> int:
    resume = getattr(args, "resume", None)
    if args.config is None and resume is None:
        raise UsageError("wayfarers train needs --config FILE (e.g. experiments/configs/ppo_2p_vs_bots.yaml), or --resume RUN_DIR")
    if getattr(args, "algo", "maskable-ppo") == "rllib-ppo":
        if resume is not None:
            raise UsageError("--resume continues a MaskablePPO run; drop --algo rllib-ppo")
        from experiments.rllib_train import run as run_rllib

        return run_rllib(args)
    if getattr(args, "address", None) is not None:
        raise UsageError("--address names a Ray cluster for --algo rllib-ppo; MaskablePPO trains on this machine: drop --address")
    overwrite = bool(getattr(args, "overwrite", False))
    if resume is not None:
        cfg, out = _resume_args(args)
    else:
        cfg = load_config(args.config, timesteps=args.timesteps, seed=args.seed, envs=args.envs)
        out = Path(args.out or f"runs/{cfg['name']}_seed{cfg['training']['seed']}")
        check_run_folder(out, overwrite)
    require_train_extra()
    try:
        path = run_training(cfg, out, progress=True, overwrite=overwrite, resume=resume is not None)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"{out} keeps the checkpoints saved so far; continue with wayfarers train --resume {out}") from None
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


def _resume_args(args) -> tuple[dict[str, Any], Path]:
    """--resume RUN_DIR: the run's own config.yaml; only --timesteps may change (to train further)."""
    out = Path(args.resume)
    clash = [
        flag for flag, value in (("--config", args.config), ("--out", args.out), ("--seed", args.seed), ("--envs", args.envs)) if value
    ]
    if getattr(args, "overwrite", False):
        clash.append("--overwrite")
    if clash:
        raise UsageError(f"--resume continues a run with its own config.yaml; drop {', '.join(clash)} (only --timesteps may change)")
    if not (out / "config.yaml").is_file():
        raise TrainConfigError(f"--resume {str(out)!r}: no run there (no config.yaml); give the run folder of a wayfarers train run")
    cfg = load_config(out / "config.yaml", timesteps=args.timesteps)
    resume_point(out, cfg, dry=True)  # refused before any process starts
    return cfg, out
