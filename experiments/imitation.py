"""``wayfarers imitate``: behaviour cloning and DAgger from ``wayfarers dataset`` files.

The model is an ordinary sb3-contrib MaskablePPO, built exactly as ``wayfarers train`` builds
one (``policy_kwargs`` of the YAML's ``policy`` section, its ``ppo`` section, ``make_vec_env``),
so a PPO run can start from it and ``wayfarers evaluate`` plays it. Only its policy's weights
are trained here, with a separate Adam: the optimizer state saved in the zip stays PPO's own.

Policy: the masked cross-entropy of the recorded action under the policy's own distribution
(``MaskableCategorical`` with the recorded mask, as PPO samples it). Value: squared error against
what ``env.reward: win`` training would teach it, the final reward (+1 win, -1 loss, 1/k shared)
discounted by ``ppo.gamma`` once per decision of the seat still to come, so the value head starts
on PPO's scale; the ``shaping`` bonus of a config is left out (it sums to a constant times the
final margin and a bot's games say nothing about it).

Soft targets (``--soft T``): where the recorded bot valued every candidate (the lookahead bots'
searched decisions; ``dataset`` keeps those values), the policy's target is the softmax of the
values over ``T`` VP instead of the one action picked: the cross-entropy then also teaches how far
behind each other candidate was, which a single label hides (docs/TRAINING.md, "Soft targets").

Validation holds out whole games (decisions of one game are too alike to test each other).
Accuracy is reported on all decisions and on those with a choice (two or more legal actions),
beside the masked-uniform baseline (the mean of 1 / legal actions).

DAgger (``--dagger-rounds``): the current policy plays (sampling from its distribution) against
the dataset's bots, seats rotating; at each of its decisions the expert bot is asked what it
would do from the same seat-limited view; those labelled decisions join the training set, and
the policy is trained further on the aggregate for ``--epochs``. Their value targets are the
outcomes of the learner's own games, i.e. the value of the policy being trained.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from experiments.cli import UsageError

DEFAULT_CONFIG = Path(__file__).resolve().parent / "configs" / "ppo_2p_vs_bots.yaml"
EVAL_SAMPLE = 20_000  # training decisions re-scored after each epoch for the train accuracy


def split_games(data, holdout: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Row indices (train, validation): a seeded ``holdout`` fraction of the games (at least one
    when there are two or more) is held out whole."""
    n_games = len(data.games)
    n_val = 0 if n_games < 2 or holdout <= 0 else min(n_games - 1, max(1, round(holdout * n_games)))
    held = np.random.default_rng(seed).permutation(n_games)[:n_val]
    val = np.isin(data.game, held)
    return np.flatnonzero(~val), np.flatnonzero(val)


def uniform_baseline(data, rows: np.ndarray) -> float:
    """Accuracy of picking a legal action uniformly at random."""
    return float(np.mean(1.0 / data.legal_counts()[rows])) if len(rows) else float("nan")


class Cloner:
    """Gradient steps on a MaskablePPO policy towards recorded decisions."""

    def __init__(self, model, learning_rate: float, gamma: float, vf_coef: float, batch_size: int, seed: int, soft: float = 0.0):
        import torch

        self.torch = torch
        self.policy = model.policy
        self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=learning_rate)
        self.gamma, self.vf_coef, self.batch_size, self.soft = gamma, vf_coef, batch_size, soft
        self.rng = np.random.default_rng(seed)

    def _forward(self, data, rows: np.ndarray, observations: np.ndarray | None = None):
        """(distribution, values, actions, value targets) of a batch, as evaluate_actions computes them."""
        torch, policy = self.torch, self.policy
        obs = torch.as_tensor(data.observations(rows) if observations is None else observations)
        features = policy.extract_features(obs)
        if policy.share_features_extractor:
            latent_pi, latent_vf = policy.mlp_extractor(features)
        else:
            latent_pi = policy.mlp_extractor.forward_actor(features[0])
            latent_vf = policy.mlp_extractor.forward_critic(features[1])
        dist = policy._get_action_dist_from_latent(latent_pi)
        dist.apply_masking(data.masks(rows))
        values = policy.value_net(latent_vf).flatten()
        actions = torch.as_tensor(data.action[rows].astype(np.int64))
        target = torch.as_tensor(data.reward[rows] * np.power(self.gamma, data.remaining[rows].astype(np.float64)), dtype=torch.float32)
        return dist, values, actions, target

    def epoch(self, data, rows: np.ndarray, bar=None) -> float:
        """One pass over ``rows`` in a seeded order; the mean loss."""
        torch = self.torch
        self.policy.set_training_mode(True)
        order = self.rng.permutation(rows)
        total, steps = 0.0, 0
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            dist, values, actions, target = self._forward(data, batch)
            if self.soft > 0:  # cross-entropy against the bot's values (one-hot where it had none)
                goal = torch.as_tensor(data.soft_targets(batch, self.soft))
                policy_loss = -(goal * dist.distribution.logits).sum(1).mean()
            else:
                policy_loss = -dist.log_prob(actions).mean()
            loss = policy_loss + self.vf_coef * torch.nn.functional.mse_loss(values, target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            total += loss.item()
            steps += 1
            if bar is not None:
                bar.update(len(batch))
        return total / max(1, steps)

    def score(self, data, rows: np.ndarray, by_kind: bool = False) -> dict[str, Any]:
        """Accuracy of the most likely legal action, on all decisions and on those with a choice,
        and the value's mean squared error. ``by_kind`` adds ``kinds``: per decision kind (read off
        the observation's one-hot kind), (choices, right) over the decisions with a choice; the
        overall figure hides that a clone can be right on the many effect-bag picks and wrong on
        the few main actions and card choices that decide games."""
        from wayfarers_env.envs.observation_layout import FRAME_NAMES, O_KIND

        torch = self.torch
        self.policy.set_training_mode(False)
        hits = choice_hits = choices = 0
        sq = 0.0
        counts = data.legal_counts()
        per_kind = np.zeros((len(FRAME_NAMES), 2), np.int64)
        with torch.no_grad():
            for start in range(0, len(rows), 1024):
                batch = rows[start : start + 1024]
                obs = data.observations(batch)
                dist, values, actions, target = self._forward(data, batch, obs)
                right = (dist.distribution.logits.argmax(1) == actions).numpy()
                several = counts[batch] > 1
                hits += int(right.sum())
                choice_hits += int(right[several].sum())
                choices += int(several.sum())
                sq += float(((values - target) ** 2).sum())
                if by_kind:
                    kind = obs[several, O_KIND : O_KIND + len(FRAME_NAMES)].argmax(1)
                    np.add.at(per_kind, (kind, 0), 1)
                    np.add.at(per_kind, (kind, 1), right[several].astype(np.int64))
        n = max(1, len(rows))
        out: dict[str, Any] = {"acc": hits / n, "choice_acc": choice_hits / max(1, choices), "value_mse": sq / n, "n": len(rows)}
        if by_kind:
            out["kinds"] = {FRAME_NAMES[k]: (int(c), int(r)) for k, (c, r) in enumerate(per_kind) if c}
        return out


def kind_table(kinds: dict[str, tuple[int, int]], top: int = 12) -> str:
    """The held-out choices by decision kind, most frequent first: share, accuracy, and the share
    of all choices the clone gets wrong there (where the errors are)."""
    total = sum(c for c, _r in kinds.values()) or 1
    lines = [f"{'decision kind':<20} {'share':>6} {'acc':>6} {'errors':>7}"]
    for name, (c, r) in sorted(kinds.items(), key=lambda kv: -kv[1][0])[:top]:
        lines.append(f"{name:<20} {c / total:6.3f} {r / c:6.3f} {(c - r) / total:7.3f}")
    return "\n".join(lines)


def build_model(cfg: dict[str, Any], seed: int):
    """A fresh MaskablePPO exactly as ``wayfarers train`` builds it for ``cfg``."""
    import torch
    from sb3_contrib import MaskablePPO

    from experiments.extractor import policy_kwargs
    from experiments.train import make_vec_env

    torch.set_num_threads(1)
    env = make_vec_env(cfg, 1, seed)
    return MaskablePPO("MlpPolicy", env, policy_kwargs=policy_kwargs(**cfg["policy"]), seed=seed, device="cpu", verbose=0, **cfg["ppo"])


def dagger_games(model, expert: str, players: list[str], config: dict[str, Any], games: int, seed: int, progress: bool = True) -> list:
    """The policy's own games against the dataset's bots (its seat rotating), each of its
    decisions labelled with the expert's choice from the same seat-limited view: the parts of a
    Dataset (``dataset.from_rows``)."""
    from tqdm import tqdm

    from agents.policy_bot import PolicyBot
    from agents.registry import make_bot

    learner = PolicyBot(model, deterministic=False, name="learner")
    teacher = make_bot(expert)
    jobs = tqdm(range(games), desc="dagger", unit="game", disable=not progress, file=sys.stderr, leave=False)
    return [dagger_game(learner, teacher, players, config, seed, j) for j in jobs]


def dagger_game(learner, teacher, players: list[str], config: dict[str, Any], seed: int, j: int) -> dict[str, Any]:
    """Game ``j`` of a DAgger round with seed ``seed``: bot ``learner`` in seat ``j % n`` against
    ``players``' other bots, each of its decisions recorded with ``teacher``'s choice (and values)
    from the same seat-limited view while the learner's own choice is played. The part's ``info``
    says ``dagger``: its row actions are labels, not the moves (``game_actions`` are)."""
    from agents.base import View, choose
    from wayfarers_env import Game

    from .dataset import Recorder
    from .tournament import MAX_DECISIONS, _bot, derive_seed

    n = len(players)
    deal = derive_seed("wayfarers-dagger", seed, j)
    game = Game(config, deal)
    me = j % n
    bots = [learner if s == me else _bot(players[s]) for s in range(n)]
    rngs = [random.Random(derive_seed("wayfarers-dagger-bot", seed, j, s)) for s in range(n)]
    ask = random.Random(derive_seed("wayfarers-dagger-expert", seed, j))
    rec = Recorder()
    actions: list[int] = []
    while not game.is_over and len(actions) < MAX_DECISIONS:
        seat = game.current_player
        if seat == me:
            legal = game.legal_actions()
            rec.observe(game, seat, legal)
            label = legal[0] if len(legal) == 1 else teacher.decide(View(game, seat, ask), legal, ask)
            if label not in legal:
                raise RuntimeError(f"expert {teacher.name!r} chose illegal action {label!r}")
            rec.label(label, getattr(teacher, "last_values", None) if len(legal) > 1 else None)
        action = choose(bots[seat], game, rngs[seat])
        game.apply(action)
        actions.append(action)
    players_here = ["learner" if s == me else players[s] for s in range(n)]
    return rec.close(game, {"game": j, "seed": deal, "players": players_here, "recorded": [me], "dagger": True}, actions)


def _check(args) -> tuple[list[Path], Path]:
    """The user's arguments, checked before anything slow is loaded."""
    paths = [Path(p.strip()) for p in str(args.data).split(",") if p.strip()]
    if not paths:
        raise UsageError("--data needs at least one dataset file (wayfarers dataset --out FILE)")
    out = Path(args.out)
    if out.suffix != ".zip":
        raise UsageError(f"--out {args.out!r} must end in .zip (a MaskablePPO model file, as wayfarers train saves)")
    if out.is_dir():
        raise UsageError(f"--out {args.out!r} is a folder; give a file name ending in .zip")
    if out.exists() and not args.overwrite:
        raise UsageError(f"--out {args.out!r} already exists; pass --overwrite to replace it, or choose another file")
    if not out.parent.is_dir():
        raise UsageError(f"--out {args.out!r}: folder {str(out.parent)!r} does not exist")
    if not 0 <= args.holdout < 1:
        raise UsageError(f"--holdout is the fraction of games held out, from 0 up to (not including) 1, got {args.holdout}")
    if not (math.isfinite(args.learning_rate) and args.learning_rate > 0):
        raise UsageError(f"--learning-rate must be a number > 0, got {args.learning_rate}")
    if args.dagger_rounds < 0:
        raise UsageError(f"--dagger-rounds must be 0 or more, got {args.dagger_rounds}")
    if not (math.isfinite(args.soft) and args.soft >= 0):
        raise UsageError(f"--soft takes a temperature in VP above 0 (0: off, the recorded action alone), got {args.soft}")
    if args.dagger_rounds and not args.expert:
        raise UsageError("--dagger-rounds needs --expert BOT, the bot that labels the policy's decisions (e.g. --expert cartographer)")
    if args.expert and not args.dagger_rounds:
        raise UsageError("--expert labels DAgger rounds: add --dagger-rounds K (K >= 1), or drop --expert")
    if args.expert:
        from agents.registry import UnknownBotError, make_bot

        try:
            make_bot(args.expert)
        except (UnknownBotError, ImportError) as exc:
            raise UsageError(f"--expert: {exc}") from None
    return paths, out


def _line(tag: str, loss: float | None, train: dict[str, float], val: dict[str, float] | None) -> str:
    text = f"{tag:<22}" + (f"loss {loss:6.3f}  " if loss is not None else " " * 13)
    text += f"train acc {train['acc']:.3f} (choices {train['choice_acc']:.3f})"
    if val is not None:
        text += f"  val acc {val['acc']:.3f} (choices {val['choice_acc']:.3f})  val value mse {val['value_mse']:.3f}"
    return text


def run(args) -> int:
    from experiments.train import load_config, require_train_extra

    from .dataset import concat, from_rows, load_dataset

    paths, out = _check(args)
    data = concat([load_dataset(p) for p in paths])
    if len(data) == 0:
        raise UsageError(f"--data {args.data!r} holds no decisions")
    config_path = args.config if args.config is not None else DEFAULT_CONFIG
    cfg = load_config(config_path, check_init=False, seed=args.seed)  # its training.init may be the model written here
    require_train_extra("wayfarers imitate", ("torch", "stable_baselines3", "sb3_contrib", "tqdm"))
    from tqdm import tqdm

    progress = not args.quiet
    train_rows, val_rows = split_games(data, args.holdout, args.seed)
    n_val_games = len(np.unique(data.game[val_rows]))
    print(
        f"{len(data)} decisions from {len(data.games)} games: {len(train_rows)} to train on, {len(val_rows)} held out "
        f"({n_val_games} games); masked-uniform baseline: train {uniform_baseline(data, train_rows):.3f}"
        + (f", val {uniform_baseline(data, val_rows):.3f}" if len(val_rows) else "")
    )
    model = build_model(cfg, args.seed)
    if args.soft > 0 and not len(data.soft_action):
        raise UsageError(f"--soft: {args.data!r} holds no bot values (record lookahead bots, e.g. cartographer, with this version)")
    cloner = Cloner(model, args.learning_rate, cfg["ppo"]["gamma"], cfg["ppo"]["vf_coef"], args.batch_size, args.seed, args.soft)
    sample_rng = np.random.default_rng(args.seed)

    last_val: list[dict[str, Any] | None] = [None]  # the newest held-out score, its by-kind counts printed at the end

    def train(rows: np.ndarray, label: str) -> None:
        probe = rows if len(rows) <= EVAL_SAMPLE else np.sort(sample_rng.choice(rows, EVAL_SAMPLE, replace=False))
        for e in range(1, args.epochs + 1):
            with tqdm(total=len(rows), desc=f"{label} epoch {e}", unit="dec", disable=not progress, file=sys.stderr, leave=False) as bar:
                loss = cloner.epoch(data, rows, bar)
            val = cloner.score(data, val_rows, by_kind=True) if len(val_rows) else None
            last_val[0] = val
            print(_line(f"{label} epoch {e}/{args.epochs}", loss, cloner.score(data, probe), val), flush=True)

    train(train_rows, "bc")
    bc_size = len(data)
    for r in range(1, args.dagger_rounds + 1):
        meta, players = data.meta, data.meta["players"]
        parts = dagger_games(model, args.expert, players, meta["config"], args.dagger_games, derive(args.seed, r), progress)
        new = from_rows({**meta, "players": players}, parts)
        data = concat([data, new])
        train_rows = np.concatenate([train_rows, np.arange(len(data) - len(new), len(data))])
        print(f"dagger round {r}: {len(new)} decisions of the policy labelled by {args.expert}; training on {len(train_rows)}")
        train(train_rows, f"dagger {r}")
    if last_val[0] is not None:  # the last epoch's held-out score: the weights saved below
        print("held-out choices by decision kind (errors: share of all held-out choices missed there):")
        print(kind_table(last_val[0]["kinds"]))
    model.save(out)
    extra = f" and {len(data) - bc_size} DAgger" if args.dagger_rounds else ""
    arch = f"{cfg['policy']['extractor']} {cfg['policy']['net_arch']}"
    print(f"wrote {out}: a MaskablePPO model ({arch}) cloned from {bc_size} recorded{extra} decisions")
    if data.meta["config"].get("tides_of_trade"):
        print(f"note: the games were Tides of Trade games: wayfarers evaluate {out} --tides-of-trade", file=sys.stderr)
    return 0


def derive(seed: int, round_: int) -> int:
    """The seed of DAgger round ``round_``'s games."""
    from .tournament import derive_seed

    return derive_seed("wayfarers-dagger-round", seed, round_)
