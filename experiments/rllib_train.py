"""``wayfarers train --algo rllib-ppo``: RLlib's PPO (new API stack) in self-play on the multi-agent env.

Every seat of ``rllib_env.WayfarersMultiAgentEnv`` is played by the learner itself: with
``selfplay.mapping: shared`` all seats map to one policy ("main"), so each game teaches it from
every side of the table; ``per_seat`` trains one policy per seat (``player_0``..), each against the
others as they learn. Illegal actions never reach the env: ``MaskedPPOTorchRLModule`` masks them.

The config file has the sections and checks of the MaskablePPO config (``train.load_config``)
where the meaning is the same; ``ppo.train_batch_size`` (env steps per training iteration, all
env runners together) replaces ``n_steps``, and ``training.envs`` is the number of Ray EnvRunner
actors (1: sampling in the driver). The run folder holds config.yaml, checkpoints/step_N/ (RLlib
checkpoints), final_checkpoint/ and evaluations.csv, whose last rows come from the policy
restored from final_checkpoint/, playing whole games against the evaluation bots: what a
user of the checkpoint would get, not what is still in memory.

Ray starts locally for the run unless ``--address`` names a cluster (docs/SCALING.md).
"""

from __future__ import annotations

import copy
import csv
import importlib.util
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from experiments.cli import UsageError
from experiments.train import DEFAULTS as SB3_DEFAULTS
from experiments.train import TrainConfigError, _merge, _read_yaml, _typed, check_run_folder

RAY_EXTRA = 'pip install -e ".[ray]"'
MAPPINGS = ("shared", "per_seat")
SHARED = "main"  # the one policy of the shared mapping

DEFAULTS: dict[str, Any] = {
    "name": "rllib_ppo",
    "env": copy.deepcopy(SB3_DEFAULTS["env"]),
    "selfplay": {"mapping": "shared"},
    "ppo": {
        "learning_rate": 3.0e-4,
        "train_batch_size": 4000,
        "batch_size": 256,
        "n_epochs": 4,
        "gamma": 0.997,
        "gae_lambda": 0.95,
        "clip_range": 0.2,
        "ent_coef": 0.01,
        "vf_coef": 0.5,
    },
    "policy": {"net_arch": [256, 256], "activation": "relu"},
    "training": {"timesteps": 200000, "envs": 1, "seed": 0, "checkpoint_every": 50000},
    "evaluation": {"games": 20, "opponents": ["random"], "seed": 10000},
}
RUN_FILES = ("config.yaml", "evaluations.csv", "final_checkpoint", "checkpoints")  # what --overwrite replaces
EVAL_FIELDS = ["timesteps", "wall_seconds", "opponent", "games", "win_rate", "win_low", "win_high", "mean_margin"]
RLLIB_NAMES = {  # our ppo fields (MaskablePPO's words) -> PPOConfig.training keywords
    "learning_rate": "lr",
    "train_batch_size": "train_batch_size_per_learner",
    "batch_size": "minibatch_size",
    "n_epochs": "num_epochs",
    "gamma": "gamma",
    "gae_lambda": "lambda_",
    "clip_range": "clip_param",
    "ent_coef": "entropy_coeff",
    "vf_coef": "vf_loss_coeff",
}


def _check(cfg: dict[str, Any]) -> None:
    """The rules of the fields the MaskablePPO config does not have, then the env and bots."""
    from agents.registry import UnknownBotError, make_bot
    from wayfarers_env import ConfigError
    from wayfarers_env.envs.aec import raw_env

    if cfg["selfplay"]["mapping"] not in MAPPINGS:
        raise TrainConfigError(
            f"selfplay.mapping must be shared (every seat one policy) or per_seat (one policy per seat), got {cfg['selfplay']['mapping']!r}"
        )
    ppo = cfg["ppo"]
    if ppo["train_batch_size"] < 1:
        raise TrainConfigError(f"ppo.train_batch_size must be a whole number >= 1, got {ppo['train_batch_size']!r}")
    if ppo["batch_size"] > ppo["train_batch_size"]:
        raise TrainConfigError(f"ppo.batch_size ({ppo['batch_size']}) must not exceed ppo.train_batch_size ({ppo['train_batch_size']})")
    for name in cfg["evaluation"]["opponents"]:
        try:
            make_bot(name)
        except (UnknownBotError, ImportError) as exc:
            raise TrainConfigError(f"evaluation.opponents: {exc}") from None
    try:
        raw_env(**cfg["env"]).close()
    except ConfigError as exc:
        raise TrainConfigError(f"env: {exc}") from None


def load_config(path: str | Path | None, **overrides: Any) -> dict[str, Any]:
    """DEFAULTS, updated by the YAML file, then by the command line (timesteps, seed, envs)."""
    cfg = copy.deepcopy(DEFAULTS)
    where = f"{path}: " if path is not None else ""
    try:
        if path is not None:
            cfg = _merge(cfg, _read_yaml(Path(path)))
        _check(cfg)
    except TrainConfigError as exc:
        raise TrainConfigError(f"{where}{exc}") from None
    for key in ("timesteps", "seed", "envs"):
        if overrides.get(key) is not None:
            try:
                cfg["training"][key] = _typed(f"training.{key}", DEFAULTS["training"][key], overrides[key])
            except TrainConfigError as exc:
                raise TrainConfigError(f"--{key}: {exc}") from None
    return cfg


def require_ray(command: str = "wayfarers train --algo rllib-ppo") -> None:
    """A missing Ray is one line naming the extra, before anything is written."""
    for name in ("ray", "torch"):
        if importlib.util.find_spec(name) is None:
            raise UsageError(f"{command} needs {name}, from the [ray] extra: {RAY_EXTRA}")


def policies(cfg: dict[str, Any]) -> list[str]:
    """The policy ids: one shared policy, or one per seat (named as the seat's agent)."""
    if cfg["selfplay"]["mapping"] == "shared":
        return [SHARED]
    return [f"player_{i}" for i in range(cfg["env"]["num_players"])]


def _map_shared(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    return SHARED


def _map_per_seat(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    return str(agent_id)


def algo_config(cfg: dict[str, Any]):
    """The PPOConfig of a run: the env, the masking module for every policy, the PPO numbers."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from experiments.rllib_env import MaskedPPOTorchRLModule, WayfarersMultiAgentEnv

    model = {
        "fcnet_hiddens": list(cfg["policy"]["net_arch"]),
        "fcnet_activation": cfg["policy"]["activation"],
        "head_fcnet_hiddens": [],
        "vf_share_layers": False,
    }
    ids = policies(cfg)
    spec = MultiRLModuleSpec(rl_module_specs={pid: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model) for pid in ids})
    runners = cfg["training"]["envs"]
    return (
        PPOConfig()
        # the env refuses an illegal action (the mask is the legal set); RLlib's check steps a random one
        .environment(WayfarersMultiAgentEnv, env_config=dict(cfg["env"]), disable_env_checking=True)
        .env_runners(num_env_runners=runners if runners > 1 else 0, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .training(**{RLLIB_NAMES[k]: v for k, v in cfg["ppo"].items()})
        .multi_agent(
            policies=set(ids),
            policy_mapping_fn=_map_shared if len(ids) == 1 else _map_per_seat,
            policies_to_train=ids,
        )
        .rl_module(rl_module_spec=spec)
        .debugging(seed=cfg["training"]["seed"])
    )


def module_paths(checkpoint: Path, cfg: dict[str, Any]) -> dict[str, Path]:
    """Policy id -> the folder of its RLModule inside an algorithm checkpoint."""
    from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE

    base = checkpoint / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER / COMPONENT_RL_MODULE
    return {pid: base / pid for pid in policies(cfg)}


def restore_bot(checkpoint: Path, cfg: dict[str, Any]):
    """The trained policy (or policies, per seat) as a bot, restored from a checkpoint alone."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    from experiments.rllib_env import RLlibBot

    paths = module_paths(checkpoint, cfg)
    modules = {pid: RLModule.from_checkpoint(str(p)) for pid, p in paths.items()}
    if SHARED in modules:
        return RLlibBot(modules[SHARED], name=f"rllib:{checkpoint}")
    return RLlibBot({int(pid.rsplit("_", 1)[1]): m for pid, m in modules.items()}, name=f"rllib:{checkpoint}")


def evaluate(bot: Any, cfg: dict[str, Any], opponent: str) -> dict[str, Any]:
    """Win rate (95% Wilson interval) and mean VP margin of ``bot`` against one bot on the fixed
    deals evaluation.seed.., the learner's seat moving round the table game by game."""
    from agents.base import choose
    from agents.registry import make_bot
    from experiments.stats import wilson
    from experiments.tournament import MAX_DECISIONS, derive_seed
    from wayfarers_env import Game, GameConfig

    env, ev = cfg["env"], cfg["evaluation"]
    config = GameConfig(**{k: env[k] for k in ("num_players", "board_sides", "tides_of_trade", "card_influence", "extension_sides")})
    n = config.num_players
    wins = margins = 0.0
    for k in range(ev["games"]):
        seed, me = ev["seed"] + k, k % n
        game = Game(config, seed)
        bots = [bot if s == me else make_bot(opponent) for s in range(n)]
        rngs = [random.Random(derive_seed("rllib-evaluation", seed, s)) for s in range(n)]
        for _ in range(MAX_DECISIONS):
            if game.is_over:
                break
            seat = game.current_player
            game.apply(choose(bots[seat], game, rngs[seat]))
        totals = [s["total"] for s in game.scores()]
        margins += totals[me] - max(t for s, t in enumerate(totals) if s != me)
        winners = game.winners()
        wins += 1.0 / len(winners) if me in winners else 0.0
    games = ev["games"]
    lo, hi = wilson(wins, games)
    return {"opponent": opponent, "games": games, "win_rate": wins / games, "win_low": lo, "win_high": hi, "mean_margin": margins / games}


def _prepare(out: Path, cfg: dict[str, Any], overwrite: bool) -> None:
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
    (out / "config.yaml").write_text(yaml.safe_dump({"algo": "rllib-ppo", **cfg}, sort_keys=False))
    with (out / "evaluations.csv").open("w", newline="") as fh:
        csv.DictWriter(fh, EVAL_FIELDS).writeheader()


def _check_cpus(cfg: dict[str, Any], address: str | None) -> None:
    """EnvRunner actors take a CPU each: on a cluster without enough, RLlib would wait forever."""
    import ray

    runners = cfg["training"]["envs"] if cfg["training"]["envs"] > 1 else 0
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if runners > cpus:
        where = f"the Ray cluster at {address}" if address else "the Ray in use"
        raise TrainConfigError(f"training.envs {runners} needs {runners} CPUs for its EnvRunner actors; {where} has {cpus}: lower --envs")


def run_training(cfg: dict[str, Any], out: str | Path, progress: bool = True, overwrite: bool = False, address: str | None = None) -> Path:
    """Train into the run folder ``out`` until training.timesteps env steps are sampled, saving
    a checkpoint every training.checkpoint_every steps and at the end; then evaluate the policy
    restored from final_checkpoint/."""
    import torch
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME
    from tqdm import tqdm

    from experiments.ray_backend import start_ray

    out = Path(out)
    check_run_folder(out, overwrite)
    start_ray(address, cfg["training"]["envs"] + 1)
    _check_cpus(cfg, address)  # Ray is up and big enough: from here on the run folder changes
    _prepare(out, cfg, overwrite)
    torch.set_num_threads(1)
    tr = cfg["training"]
    started = time.time()
    algo = algo_config(cfg).build_algo()
    steps, next_ckpt = 0, tr["checkpoint_every"]
    try:
        with tqdm(total=tr["timesteps"], desc="rllib-ppo", unit="step", disable=not progress, file=sys.stderr) as bar:
            while steps < tr["timesteps"]:
                result = algo.train()
                now = int(result[ENV_RUNNER_RESULTS][NUM_ENV_STEPS_SAMPLED_LIFETIME])
                bar.update(now - steps)
                steps = now
                if steps >= next_ckpt and steps < tr["timesteps"]:
                    algo.save_to_path(str((out / "checkpoints" / f"step_{steps}").resolve()))
                    next_ckpt += tr["checkpoint_every"] * (1 + (steps - next_ckpt) // tr["checkpoint_every"])
        final = out / "final_checkpoint"
        algo.save_to_path(str(final.resolve()))
    finally:
        algo.stop()
    bot = restore_bot(final, cfg)
    for opponent in cfg["evaluation"]["opponents"]:
        row = evaluate(bot, cfg, opponent)
        row.update(timesteps=steps, wall_seconds=round(time.time() - started, 1))
        with (out / "evaluations.csv").open("a", newline="") as fh:
            csv.DictWriter(fh, EVAL_FIELDS).writerow({k: row[k] for k in EVAL_FIELDS})
    return out


def run(args) -> int:
    import logging

    for noisy in ("ray.rllib", "ray._common.deprecation"):  # RLlib's notes on its own API, not on this run
        logging.getLogger(noisy).setLevel(logging.ERROR)
    cfg = load_config(args.config, timesteps=args.timesteps, seed=args.seed, envs=args.envs)
    out = Path(args.out or f"runs/{cfg['name']}_seed{cfg['training']['seed']}")
    overwrite = bool(getattr(args, "overwrite", False))
    check_run_folder(out, overwrite)
    require_ray()
    try:
        path = run_training(cfg, out, progress=True, overwrite=overwrite, address=getattr(args, "address", None))
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"{out} keeps the checkpoints saved so far") from None
    print(f"run directory: {path}")
    print(f"final checkpoint: {path / 'final_checkpoint'} (policies: {', '.join(policies(cfg))})")
    with (path / "evaluations.csv").open() as fh:
        for r in csv.DictReader(fh):
            print(
                f"  vs {r['opponent']:<13} win rate {float(r['win_rate']):.2f} "
                f"[{float(r['win_low']):.2f}, {float(r['win_high']):.2f}]  margin {float(r['mean_margin']):+.1f} VP"
            )
    return 0
