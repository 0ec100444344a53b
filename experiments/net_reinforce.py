"""``python -m experiments.net_reinforce NET --out DIR``: a candidate net trained on by policy
gradient from its own games against an opponent (clipped PPO over whole games; with ``--critic``,
per-decision advantages from a value of each position).

Why. Every imitation route in docs/TRAINING.md ends at 23-31% against the cartographer: the net
copies a teacher's choices, judged on the teacher's measure, and the copy's errors lose the games.
Here the measure is the game itself. The net file's bot (``net:NET``, the cartographer's rules
for the small decisions) plays ``--vs`` and *samples* its choices from the softmax of its logits
at ``--temperature``; every deal is played twice from the same seat with independent draws, and
each game's decisions are pushed towards the choices of the better of the two (the advantage of a
game is its reward less its twin's: a leave-one-out baseline that takes the deal's luck out,
with no value net to train). The reward is the game's result (+1 a win, 0 a shared win, -1 a
loss) plus ``--margin-weight`` times the VP margin over 20 VP (clipped to +-1), so that a close
loss is better than a rout.

The update is PPO's clipped surrogate (``--clip``) over ``--epochs`` passes of the iteration's
decisions, with the old log-probabilities scored again in this process before the first pass, so
the ratio starts at exactly 1. Only the net's own decisions (the kinds its file names, with a
choice) are trained; the rules' answers are not the net's to learn.

With ``--critic`` (``experiments.critic``) a small value net of each decision's position (the
cartographer's value of it and the game's progress) is fitted to the game rewards of the last
``--value-window`` iterations, and after ``--critic-warmup`` iterations each decision's advantage
is its GAE at ``--lam`` over the net's own decisions of the game instead of the game's: a good
choice in a lost game is no longer pushed down with the bad ones.

The folder keeps ``state.pt`` (weights, optimiser, iteration, generator) after every iteration,
so a run stopped at any point goes on from its last iteration when started again with the same
``--out``; ``history.jsonl`` has one line per iteration, and ``latest.pt`` is a net file of the
newest weights, ready for ``wayfarers evaluate DIR/latest.pt --vs cartographer`` (and
``net-N.pt`` of every ``--keep-every``-th iteration, for a learning curve). The same
arguments give the same run for any ``--workers``.

    python -m experiments.net_reinforce models/cartographer-worth.pt --out runs/pg --iterations 40 --workers 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

STATE, HISTORY, LATEST = "state.pt", "history.jsonl", "latest.pt"
MARGIN_SCALE = 20.0  # VP: a margin this large counts fully in the reward
_CACHE: dict[str, Any] = {}  # per worker process: the bot of the latest weights file (the opponent is cached by tournament._bot)


def _net_bot(path: str):
    from agents.net_bot import NetBot

    if _CACHE.get("path") != path:
        _CACHE["path"], _CACHE["bot"] = path, NetBot(path)
    return _CACHE["bot"]


def sample_game(task: tuple[str, int, int, int, float, str]) -> dict[str, Any]:
    """Play deal ``deal`` of run ``seed`` with the net of file ``path`` in seat ``deal % 2``,
    sampling its decisions at ``temperature`` with draw ``draw``; the part: the decisions' inputs
    (observations sparse), the chosen candidates, and the game's scores from the net's seat."""
    from agents.base import choose
    from wayfarers_env import Game, GameConfig
    from wayfarers_env.envs.candidates import CANDIDATES, TOKENS

    from .tournament import MAX_DECISIONS, _bot, derive_seed

    path, seed, deal, draw, temperature, opponent = task
    bot = _net_bot(path)
    game = Game(GameConfig(num_players=2), derive_seed("wayfarers-reinforce", seed, deal))
    me = deal % 2
    other = _bot(opponent)
    rules_rng = random.Random(derive_seed("wayfarers-reinforce-rules", seed, deal, draw))
    other_rng = random.Random(derive_seed("wayfarers-reinforce-opponent", seed, deal, draw))
    pick = random.Random(derive_seed("wayfarers-reinforce-draw", seed, deal, draw))
    from .critic import FEATURES, position_features

    rec: dict[str, list] = {"idx": [], "val": [], "ptr": [0], "acts": [], "toks": [], "worth": [], "choice": [], "feat": []}
    moves = 0
    while not game.is_over and moves < MAX_DECISIONS:
        seat = game.current_player
        legal = game.legal_actions()
        if seat == me and len(legal) > 1 and game.decision()[0] in bot.kinds:
            obs, acts, toks, worth = bot.inputs(game, seat, legal)
            z = np.asarray(bot.logits(obs, acts, toks, worth), np.float64) / temperature
            p = np.exp(z - z.max())
            i = min(int(np.searchsorted(np.cumsum(p / p.sum()), pick.random(), side="right")), len(legal) - 1)
            nz = np.flatnonzero(obs)
            rec["idx"].append(nz.astype(np.int32))
            rec["val"].append(obs[nz].astype(np.float32))
            rec["ptr"].append(rec["ptr"][-1] + len(nz))
            rec["acts"].append(acts)
            rec["toks"].append(toks)
            rec["worth"].append(worth)
            rec["choice"].append(i)
            rec["feat"].append(position_features(game, me))
            action = legal[i]
        else:
            action = choose(bot if seat == me else other, game, rules_rng if seat == me else other_rng)
        game.apply(action)
        moves += 1
    scores = game.scores()
    winners = game.winners()
    result = (1.0 if winners == [me] else 0.0 if me in winners else -1.0) if game.is_over else -1.0
    n = len(rec["choice"])
    return {
        "deal": deal,
        "draw": draw,
        "result": result,
        "margin": float(scores[me]["total"] - scores[1 - me]["total"]),
        "idx": np.concatenate(rec["idx"]) if n else np.zeros(0, np.int32),
        "val": np.concatenate(rec["val"]) if n else np.zeros(0, np.float32),
        "ptr": np.asarray(rec["ptr"], np.int64),
        "acts": np.stack(rec["acts"]) if n else np.zeros((0, CANDIDATES), np.int16),
        "toks": np.stack(rec["toks"]) if n else np.zeros((0, CANDIDATES, TOKENS, 2), np.int16),
        "worth": np.stack(rec["worth"]) if n else np.zeros((0, CANDIDATES, TOKENS), np.float32),
        "choice": np.asarray(rec["choice"], np.int64),
        "feat": np.stack(rec["feat"]) if n else np.zeros((0, FEATURES), np.float32),
    }


def reward(part: dict[str, Any], margin_weight: float) -> float:
    """The game's result from the net's seat plus ``margin_weight`` times its margin over
    ``MARGIN_SCALE`` VP, clipped to +-1."""
    return part["result"] + margin_weight * max(-1.0, min(1.0, part["margin"] / MARGIN_SCALE))


def split_share(parts: list[dict[str, Any]]) -> float:
    """The share of deals whose games ended with different results. Why: with ``margin_weight`` 0
    only those deals carry an advantage, so this is how much of an iteration teaches anything."""
    by_deal: dict[int, set[float]] = {}
    for part in parts:
        by_deal.setdefault(part["deal"], set()).add(part["result"])
    return sum(len(r) > 1 for r in by_deal.values()) / len(by_deal) if by_deal else 0.0


def advantages(parts: list[dict[str, Any]], margin_weight: float) -> list[float]:
    """Each game's reward less the mean of its deal's other games (leave-one-out). Why: a deal's
    cards and seat decide much of a game, and the twin played the same deal from the same seat."""
    by_deal: dict[int, list[int]] = {}
    for k, part in enumerate(parts):
        by_deal.setdefault(part["deal"], []).append(k)
    r = [reward(p, margin_weight) for p in parts]
    out = [0.0] * len(parts)
    for ks in by_deal.values():
        total = sum(r[k] for k in ks)
        for k in ks:
            out[k] = r[k] - (total - r[k]) / (len(ks) - 1) if len(ks) > 1 else 0.0
    return out


class Decisions:
    """The decisions of an iteration's games, one row per decision, with its game's advantage."""

    def __init__(self, parts: list[dict[str, Any]], adv: list[float], obs_size: int, rewards: list[float] | None = None):
        self.obs_size = obs_size
        self.idx = [p["idx"] for p in parts]
        self.val = [p["val"] for p in parts]
        self.ptr = [p["ptr"] for p in parts]
        self.game = np.concatenate([np.full(len(p["choice"]), k, np.int64) for k, p in enumerate(parts)])
        self.row = np.concatenate([np.arange(len(p["choice"])) for p in parts])
        self.acts = np.concatenate([p["acts"] for p in parts]).astype(np.int64)
        self.toks = np.concatenate([p["toks"] for p in parts]).astype(np.int64)
        self.worth = np.concatenate([p["worth"] for p in parts])
        self.choice = np.concatenate([p["choice"] for p in parts])
        self.feat = np.concatenate([p["feat"] for p in parts])  # the critic's inputs (experiments.critic.position_features)
        self.adv = np.asarray([adv[k] for k in self.game.tolist()], np.float32)
        # each decision's game's reward: the critic's target and the end of its GAE
        self.reward = np.asarray([rewards[k] for k in self.game.tolist()] if rewards else np.zeros(len(self.choice)), np.float32)
        self.starts = np.cumsum([0] + [len(p["choice"]) for p in parts])  # game k's decisions: starts[k]:starts[k+1]

    def per_decision(self, values: np.ndarray, lam: float) -> np.ndarray:
        """Each decision's advantage by GAE over its game's decisions (``experiments.critic.gae``)."""
        from .critic import gae

        out = np.zeros(len(self), np.float32)
        for k in range(len(self.starts) - 1):
            a, b = int(self.starts[k]), int(self.starts[k + 1])
            if b > a:
                out[a:b] = gae(values[a:b].astype(np.float64), float(self.reward[a]), lam)
        return out

    def __len__(self) -> int:
        return len(self.choice)

    def tensors(self, sel: np.ndarray) -> tuple:
        import torch

        obs = np.zeros((len(sel), self.obs_size), np.float32)
        for i, d in enumerate(sel.tolist()):
            g, r = int(self.game[d]), int(self.row[d])
            a, b = int(self.ptr[g][r]), int(self.ptr[g][r + 1])
            obs[i, self.idx[g][a:b]] = self.val[g][a:b]
        return (
            torch.as_tensor(obs),
            torch.as_tensor(self.acts[sel]),
            torch.as_tensor(self.toks[sel]),
            torch.as_tensor(self.worth[sel]),
            torch.as_tensor(self.choice[sel]),
            torch.as_tensor(self.adv[sel]),
        )


def log_probs(net, batch: tuple, temperature: float):
    """Log-probability of each decision's chosen candidate under ``net`` at ``temperature``."""
    obs, acts, toks, worth, choice = batch[:5]
    logits = net(obs, acts, toks, worth) / temperature
    return logits.log_softmax(1).gather(1, choice.unsqueeze(1)).squeeze(1)


def update(net, opt, dec: Decisions, args, rng: np.random.Generator, critic: Any = None) -> dict[str, float]:
    """PPO's clipped surrogate over ``args.epochs`` passes; the advantages normalised to unit
    spread over the iteration (their mean is ~0 already: each deal's pair sums to zero).

    With ``critic`` (a ``(Critic, use_gae)`` pair) the critic's values of every decision are read
    first (``explained_variance`` in the stats); where ``use_gae``, they replace the game
    advantages by per-decision ones (GAE at ``args.lam``, centred and scaled). The critic is
    fitted apart, after the update (``main``)."""
    import torch

    batch_size = args.batch_size
    old = np.zeros(len(dec), np.float32)
    values = np.zeros(len(dec), np.float32)
    net.eval()
    with torch.no_grad():
        for s in range(0, len(dec), 1024):
            sel = np.arange(s, min(len(dec), s + 1024))
            batch = dec.tensors(sel)
            old[sel] = log_probs(net, batch, args.temperature).numpy()
        if critic is not None:
            values[:] = critic[0](torch.as_tensor(dec.feat)).numpy()
    stats = {"loss": 0.0, "clipped": 0.0, "kl": 0.0}
    adv_all = dec.adv
    if critic is not None:
        from .critic import explained_variance

        explained = explained_variance(values, dec.reward)
        if critic[1]:
            adv_all = dec.per_decision(values, args.lam)
            adv_all = adv_all - adv_all.mean()
    scale = float(adv_all.std()) or 1.0
    adv_t = torch.as_tensor(adv_all / scale)
    net.train()
    steps = 0
    for _ in range(args.epochs):
        order = rng.permutation(len(dec))
        for s in range(0, len(order), batch_size):
            sel = order[s : s + batch_size]
            batch = dec.tensors(sel)
            new = log_probs(net, batch, args.temperature)
            ratio = (new - torch.as_tensor(old[sel])).exp()
            adv = adv_t[sel]
            loss = -torch.min(ratio * adv, ratio.clamp(1 - args.clip, 1 + args.clip) * adv).mean()
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            opt.step()
            stats["loss"] += loss.item()
            with torch.no_grad():
                stats["clipped"] += float(((ratio - 1).abs() > args.clip).float().mean())
                stats["kl"] += float((torch.as_tensor(old[sel]) - new).mean())
            steps += 1
    out = {k: v / max(1, steps) for k, v in stats.items()}
    if critic is not None:
        out["explained_variance"] = explained
        out["advantage"] = "gae" if critic[1] else "game"  # type: ignore[assignment]
    return out


def obs_size() -> int:
    """The length of a two-player observation, as the net's inputs densify it."""
    from wayfarers_env import Game, GameConfig
    from wayfarers_env.envs.observation import Encoder

    return len(Encoder().encode(Game(GameConfig(num_players=2), 0), 0))


def _save(obj: Any, path: Path) -> None:
    import torch

    from experiments.beside import beside

    with beside(path) as side:
        torch.save(obj, side)


def _pack(net, kinds: list[str], made_by: str, path: Path) -> None:
    from experiments.net_pack import pack

    _save(pack(net.state_dict(), kinds, made_by), path)


def _trim_history(path: Path, done: int) -> None:
    """Drop the history lines of iterations after ``done``, the saved state's, so that the
    iteration a resumed run plays again has one line."""
    if not path.is_file():
        return
    lines = path.read_text().splitlines()
    kept = [x for x in lines if json.loads(x)["iteration"] <= done]
    if len(kept) < len(lines):
        path.write_text("".join(x + "\n" for x in kept))


def _games(pool, tasks: list[tuple]) -> list[dict[str, Any]]:
    if pool is None:
        return [sample_game(t) for t in tasks]
    return pool.map(sample_game, tasks, chunksize=1)


def main(argv: list[str] | None = None) -> int:
    from experiments.cli import count, seed

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("net", help="the net file to start from (python -m experiments.net_pack), e.g. models/cartographer-worth.pt")
    parser.add_argument("--out", required=True, metavar="DIR", help="the run's folder; a folder with a state.pt goes on from it")
    parser.add_argument("--iterations", type=count, default=20, help="iterations to reach, counting those already done (default 20)")
    parser.add_argument("--deals", type=count, default=32, help="deals an iteration, each played twice (default 32: 64 games)")
    parser.add_argument("--vs", default="cartographer", help="the opponent (default cartographer)")
    parser.add_argument("--temperature", type=float, default=1.0, help="the net samples from softmax(logits / T) (default 1)")
    parser.add_argument("--learning-rate", type=float, default=3e-5, help="Adam's step (default 3e-5: a fine-tune)")
    parser.add_argument("--epochs", type=count, default=2, help="passes over an iteration's decisions (default 2)")
    parser.add_argument("--batch-size", type=count, default=512, help="decisions a gradient step (default 512)")
    parser.add_argument("--clip", type=float, default=0.2, help="PPO's ratio clip (default 0.2)")
    parser.add_argument("--margin-weight", type=float, default=0.5, help="weight of the clipped VP margin in the reward (default 0.5)")
    parser.add_argument("--seed", type=seed, default=0, help="fixes the deals and the draws (default 0)")
    parser.add_argument("--workers", type=count, default=1, help="parallel processes; the run is the same for any number")
    parser.add_argument("--keep-every", type=count, default=10, help="also keep the net file of every Nth iteration, net-N.pt (default 10)")
    parser.add_argument("--critic", action="store_true", help="fit a value net beside the policy; judge each decision by GAE")
    parser.add_argument("--lam", type=float, default=0.97, help="GAE's lambda with --critic (default 0.97)")
    parser.add_argument("--value-learning-rate", type=float, default=1e-3, help="the critic's Adam step (default 1e-3)")
    parser.add_argument("--value-epochs", type=count, default=4, help="the critic's passes an iteration (default 4)")
    parser.add_argument("--value-window", type=count, default=4, help="the critic learns from the last N iterations' games (default 4)")
    parser.add_argument(
        "--critic-warmup", type=int, default=5, metavar="N", help="with --critic, N first iterations keep the game advantages (default 5)"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.lam <= 1 or not args.value_learning_rate > 0 or args.critic_warmup < 0:
        parser.error(
            f"--lam {args.lam}, --value-learning-rate {args.value_learning_rate}, --critic-warmup {args.critic_warmup}: "
            "need 0 <= lam <= 1, a step > 0 and N >= 0"
        )
    if not args.temperature > 0 or not 0 < args.clip < 1 or not args.learning_rate > 0 or args.margin_weight < 0:
        parser.error(
            f"--temperature {args.temperature}, --clip {args.clip}, --learning-rate {args.learning_rate}, "
            f"--margin-weight {args.margin_weight}: need T > 0, 0 < clip < 1, a step > 0 and a weight >= 0"
        )
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"--out {args.out}: a file is there; --out names a folder")
    from agents.net_bot import build_net, read_net_file
    from agents.registry import UnknownBotError, make_bot

    try:
        data = read_net_file(args.net)
        make_bot(args.vs)
    except (UnknownBotError, ImportError) as exc:
        parser.error(str(exc))
    import torch

    net = build_net(data, repr(args.net))
    torch.set_num_threads(2)
    opt = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    critic = None  # with --critic: (the value net, its optimiser)
    if args.critic:
        from .critic import Critic

        value = Critic(args.seed)
        critic = (value, torch.optim.Adam(value.parameters(), lr=args.value_learning_rate))
    window: list[tuple[np.ndarray, np.ndarray]] = []  # the critic's (features, rewards) of recent iterations
    out.mkdir(parents=True, exist_ok=True)
    done, rng = 0, np.random.default_rng(args.seed)
    if (out / STATE).exists():
        saved = torch.load(out / STATE, map_location="cpu", weights_only=False)
        if saved["args"]["net"] != args.net or saved["args"]["seed"] != args.seed:
            was = saved["args"]
            parser.error(f"--out {args.out}: holds a run from {was['net']} with seed {was['seed']}; go on with those or use another --out")
        if bool(saved["args"].get("critic")) != args.critic:
            had = "a critic" if saved["args"].get("critic") else "no critic"
            flag = "with" if saved["args"].get("critic") else "without"
            parser.error(f"--out {args.out}: holds a run with {had}; go on {flag} --critic or use another --out")
        if critic is not None:
            critic[0].load_state_dict(saved["critic"])
            critic[1].load_state_dict(saved["critic_optimizer"])
            window = saved["critic_window"]
            for group in critic[1].param_groups:
                group["lr"] = args.value_learning_rate
        net.load_state_dict(saved["weights"])
        opt.load_state_dict(saved["optimizer"])
        for group in opt.param_groups:  # the command's step, not the saved one: a run can go on with another
            group["lr"] = args.learning_rate
        done, rng = saved["iteration"], saved["rng"]
        _trim_history(out / HISTORY, done)
        print(f"{out}: going on after iteration {done}", file=sys.stderr)
    size = obs_size()
    kinds = list(data["kinds"])
    made = f"{data['made_by']}\nthen: python -m experiments.net_reinforce {' '.join(sys.argv[1:] if argv is None else argv)}"
    import multiprocessing as mp

    from tqdm import tqdm

    pool = mp.get_context("spawn").Pool(args.workers) if args.workers > 1 else None
    try:
        with tqdm(total=args.iterations, initial=done, desc="reinforce", unit="iter", file=sys.stderr) as bar:
            while done < args.iterations:
                start = time.perf_counter()
                weights = out / f"playing-{done}.pt"  # a name per iteration: a worker's cached net is never a stale one
                _pack(net, kinds, made, weights)
                first = done * args.deals
                tasks = [(str(weights), args.seed, first + d, k, args.temperature, args.vs) for d in range(args.deals) for k in (0, 1)]
                parts = _games(pool, tasks)
                played = time.perf_counter() - start
                weights.unlink()
                adv = advantages(parts, args.margin_weight)
                dec = Decisions(parts, adv, size, [reward(p, args.margin_weight) for p in parts])
                stats = update(net, opt, dec, args, rng, None if critic is None else (critic[0], done >= args.critic_warmup))
                if critic is not None:
                    from .critic import fit

                    window = [*window, (dec.feat, dec.reward)][-args.value_window :]
                    feat, target = (np.concatenate(x) for x in zip(*window))
                    stats["value_loss"] = fit(*critic, feat, target, args.value_epochs, rng)
                done += 1
                wins = sum(p["result"] > 0 for p in parts) + 0.5 * sum(p["result"] == 0 for p in parts)
                line = {
                    "iteration": done,
                    "games": len(parts),
                    "win_rate": wins / len(parts),
                    "margin": float(np.mean([p["margin"] for p in parts])),
                    "decisions": len(dec),
                    "learning_rate": args.learning_rate,
                    "margin_weight": args.margin_weight,
                    "split": split_share(parts),
                    **stats,
                    "play_s": round(played, 1),
                    "update_s": round(time.perf_counter() - start - played, 1),
                }
                # the history line before the state: a run stopped between the two goes on from the
                # last state and drops the line of the iteration it plays again (_trim_history)
                with open(out / HISTORY, "a") as f:
                    f.write(json.dumps(line) + "\n")
                kept = {"weights": net.state_dict(), "optimizer": opt.state_dict(), "iteration": done, "rng": rng, "args": vars(args)}
                if critic is not None:
                    kept |= {"critic": critic[0].state_dict(), "critic_optimizer": critic[1].state_dict(), "critic_window": window}
                _save(kept, out / STATE)
                _pack(net, kinds, made, out / LATEST)
                if done % args.keep_every == 0:
                    _pack(net, kinds, made, out / f"net-{done}.pt")  # the learning curve's points
                bar.set_postfix(win=f"{line['win_rate']:.2f}", kl=f"{stats['kl']:.3f}")
                bar.update(1)
    finally:
        if pool is not None:
            pool.terminate()
    print(f"{out}: {done} iterations; the net file of the latest weights is {out / LATEST}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
