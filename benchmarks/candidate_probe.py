"""Do inputs per candidate help a clone? The flat head and the candidate scorer, trained the same way.

Why. The clones of docs/TRAINING.md copy the cartographer's main action (0.52 of a 0.83 ceiling)
and card choice (0.40 of 0.89) worst, and those two kinds are what cost them the games
(``benchmarks.clone_kinds``). ``experiments.candidate_net`` gives each legal action its own inputs
(``wayfarers_env.envs.candidates``). This probe trains two nets on the same decisions of a
``wayfarers dataset`` file, the same epochs, seed and trunk: ``flat`` (one logit per action id, the
clone's head), ``candidates`` (that logit plus the shared candidate scorer) and ``worth`` (the scorer
also reading each token's rule appraisal, ``candidate_net.rule_worth``), prints their
held-out agreement with the recorded choice and regret per decision kind (beside the regret on as
many training decisions, which tells a net short of games from one short of inputs), and, with ``--deals``, plays each
as part of a cartographer: the cartographer answers every decision except the kinds of a row,
which the net answers, against the cartographer on paired deals (each deal twice, seats swapped).
A row wins 50% if the net chooses as well as the cartographer there. With ``--rest rules`` the
other decisions come from the cartographer's rules with nothing played out, so the player searches
nowhere: the net's kinds plus rules, the closest this probe comes to a policy alone (row ``none``:
the rules alone, the baseline). ``--save DIR`` keeps the
trained weights and ``--load DIR`` takes them back instead of training, so more games can be
played with nets that took most of an hour to train (the same file and ``--train-seed`` give the
same held-out games); ``--init DIR`` starts from them and trains ``--epochs`` more. Several data
files are read as one, so a DAgger file of the net's own games (``experiments.net_dagger``) can be
judged alone or trained on beside the teacher's games.

    python -m benchmarks.candidate_probe runs/cand/carto600.npz --epochs 4 --deals 50 --seed 7000 --workers 2 \\
        --rows turn acquire_card turn,acquire_card,worker_target,die_space
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from pathlib import Path

import numpy as np

from benchmarks.paired_duel import play_deal, summarize
from experiments.cli import count, seed

TEACHER = "cartographer"
NETS = ("flat", "candidates", "worth")


def net_player(net, kinds: frozenset[str], rules: bool = False):
    """The net answering ``kinds``; with ``rules`` the other decisions come from the cartographer's
    rules alone (``agents.net_bot.NetBot``, what ``net:FILE`` plays), otherwise from the
    cartographer itself, lookahead and all."""
    from agents.net_bot import NetBot

    if rules:
        return NetBot(net=net, kinds=kinds, name="net+rules")
    return NetInside(net, kinds)


class NetInside:
    """A cartographer that asks ``net`` for the decisions of ``kinds``."""

    def __init__(self, net, kinds: frozenset[str]):
        from agents.net_bot import NetBot
        from agents.registry import make_bot

        self.answer = NetBot(net=net, kinds=kinds)
        self.teacher = make_bot(TEACHER)
        self.kinds, self.name = kinds, "net+" + TEACHER

    def decide(self, view, legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) > 1 and view.game.decision()[0] in self.kinds:
            return self.answer.decide(view, legal_actions, rng)
        return self.teacher.decide(view, legal_actions, rng)


_NETS: dict[str, object] = {}


def _play(job: tuple[str, frozenset[str], bool, int, int]) -> tuple[float, int, int]:
    """Deal ``deal`` with the net's player in ``seat``: its share of the win and both VP."""
    import torch

    from agents.registry import make_bot

    torch.set_num_threads(1)
    name, kinds, rules, deal, seat = job
    return play_deal(net_player(_NETS[name], kinds, rules), make_bot(TEACHER), deal, seat)


def mean_regret(scores: dict, kind: str) -> float:
    """Mean regret (VP) over the decisions of ``kind`` the teacher valued; NaN when none were judged."""
    j = scores.get(kind)
    return j.regret / j.valued if j is not None and j.valued else float("nan")


def parse_row(text: str) -> frozenset[str]:
    """Comma-separated decision kinds the net answers (of ``candidates.KINDS``), or ``none``."""
    from wayfarers_env.envs.candidates import KINDS

    if text.strip() == "none":  # the baseline: the rest answers every decision
        return frozenset()
    kinds = frozenset(k.strip() for k in text.split(","))
    unknown = sorted(kinds - set(KINDS))
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown decision kind(s) {', '.join(unknown)}; kinds: {', '.join(KINDS)}")
    return kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "data", nargs="+", help="wayfarers dataset files (base game, 2 players), read as one; DAgger files (experiments.net_dagger) too"
    )
    parser.add_argument("--epochs", type=count, default=4, help="training epochs of each net (default 4)")
    parser.add_argument("--holdout", type=float, default=0.1, help="share of the games held out (default 0.1)")
    parser.add_argument("--batch-size", type=count, default=256)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--soft", type=float, default=0.0, help="soft targets at this temperature (VP; default 0: the label)")
    parser.add_argument("--train-seed", type=seed, default=0, help="held-out games, batch order, initial weights (default 0)")
    parser.add_argument("--deals", type=int, default=0, help="deals per row and net, each played twice (default 0: no play)")
    parser.add_argument("--seed", type=seed, default=7000, help="deal k has seed SEED + k (default 7000)")
    parser.add_argument(
        "--rows", nargs="+", type=parse_row, default=None, help="kind sets the net answers, one row each (none: no kind, the baseline)"
    )
    parser.add_argument(
        "--rest",
        choices=("cartographer", "rules"),
        default="cartographer",
        help="who answers the other decisions: the cartographer (default) or its rules with no lookahead",
    )
    parser.add_argument("--workers", type=count, default=1, help="processes for the games (default 1)")
    parser.add_argument(
        "--nets", nargs="+", choices=NETS, default=list(NETS), help="nets to train and compare (default: all; flat comes first)"
    )
    parser.add_argument("--save", metavar="DIR", help="keep each trained net's weights as DIR/NAME.pt")
    parser.add_argument(
        "--load", metavar="DIR", help="take each net's weights from DIR/NAME.pt (a --save of the same file) instead of training it"
    )
    parser.add_argument("--init", metavar="DIR", help="start each net from DIR/NAME.pt (a --save) and train it --epochs more")
    args = parser.parse_args(argv)
    if args.load and args.init:
        parser.error("--load (no training) and --init (training from saved weights) exclude each other")
    if args.soft < 0:
        parser.error(f"--soft must be 0 (the label) or a positive temperature, got {args.soft}")
    if not 0 < args.holdout < 1:
        parser.error(f"--holdout must lie between 0 and 1, got {args.holdout}")
    load = Path(args.load) if args.load else None
    weights = Path(args.load or args.init) if args.load or args.init else None
    option = "--load" if args.load else "--init"
    if weights is not None:
        missing = [str(weights / f"{n}.pt") for n in args.nets if not (weights / f"{n}.pt").is_file()]
        if missing:
            parser.error(f"{option} {weights}: no saved net {', '.join(missing)} (write them with --save {weights})")
    import torch
    from tqdm import tqdm

    from experiments.candidate_net import CandidateNet, WorthChoice, encode_dataset, judge, rule_worth, train_epoch, uniform_regret
    from experiments.dataset import concat, load_dataset
    from experiments.imitation import split_games
    from wayfarers_env.envs.candidates import KINDS

    names = [n for n in NETS if n in args.nets]
    nets = {}
    for name in names:
        torch.manual_seed(args.train_seed)
        nets[name] = CandidateNet(flat=name == "flat", worth=name == "worth")
        if weights is not None:  # before the minutes of encoding: a wrong file is refused at once
            try:
                nets[name].load_state_dict(torch.load(weights / f"{name}.pt", weights_only=True))
            except Exception as exc:  # torch raises several kinds for a truncated, foreign or mismatched file
                lines = [line.strip() for line in str(exc).splitlines() if line.strip()]  # torch's header, then what differs
                why = f"{type(exc).__name__}: {' '.join(lines[:2])}"[:160]
                parser.error(f"{option} {weights}: {weights / f'{name}.pt'} is not a {name} net saved by this probe ({why})")
    data = concat([load_dataset(path) for path in args.data])
    start = time.perf_counter()
    cand = encode_dataset(data, appraise=rule_worth() if "worth" in names else None)
    train_rows, val_rows = split_games(data, args.holdout, args.train_seed)
    in_train = np.isin(cand.rows, train_rows)
    train_idx, val_idx = np.flatnonzero(in_train), np.flatnonzero(np.isin(cand.rows, val_rows))
    print(
        f"{', '.join(args.data)}: {len(cand)} decisions with a choice of {', '.join(KINDS)} "
        f"({len(train_idx)} train, {len(val_idx)} held out; encoded in {time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    for name, net in nets.items():
        if load is not None:
            print(f"{name}: weights from {load / f'{name}.pt'} (not trained here)", flush=True)
        else:
            opt = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
            rng = np.random.default_rng(args.train_seed)
            epochs = tqdm(range(args.epochs), desc=name, leave=False)
            losses = [train_epoch(net, opt, data, cand, train_idx, args.batch_size, rng, args.soft) for _ in epochs]
            start_from = f" from {weights / f'{name}.pt'}" if weights is not None else ""
            print(f"{name}: training loss by epoch{start_from} " + ", ".join(f"{x:.3f}" for x in losses), flush=True)
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
            torch.save(net.state_dict(), Path(args.save) / f"{name}.pt")
        net.eval()
    trained = f"the nets of {load}" if load is not None else f"after {args.epochs} epochs" + (f" from {weights}" if weights else "")
    print(f"held-out decisions, {trained}: agreement with the recorded choice, and regret (the teacher's")
    print("best value minus its value of the net's choice, VP, mean over the decisions it valued; uniform: a random legal choice's)")
    # the same number of training decisions, judged the same way: a net whose training regret is far
    # below its held-out regret needs more games, one whose two regrets are close needs other inputs
    seen_idx = np.random.default_rng(args.train_seed).choice(train_idx, size=min(len(train_idx), len(val_idx)), replace=False)
    scores = {name: judge(net, data, cand, val_idx) for name, net in nets.items()}
    fitted = {name: judge(net, data, cand, np.sort(seen_idx)) for name, net in nets.items()}
    uniform = uniform_regret(data, cand, val_idx)
    heads = " ".join(f"{n + ' agree':>17} {n + ' regret':>18} {'(train)':>8}" for n in names)
    print(f"{'kind':<16} {'decisions':>9} {'uniform regret':>14} {heads}")
    for kind in KINDS:
        if kind in scores[names[0]]:
            seen = scores[names[0]][kind].decisions
            cells = [(scores[n][kind].right / seen, mean_regret(scores[n], kind), mean_regret(fitted[n], kind)) for n in names]
            row = " ".join(f"{a:>17.3f} {r:>18.3f} {t:>8.3f}" for a, r, t in cells)
            print(f"{kind:<16} {seen:>9} {uniform.get(kind, 0.0):>14.3f} {row}")
    for n in names:
        outside = {k: j.outside / j.decisions for k, j in scores[n].items() if j.outside}
        if outside:  # a teacher that weighed only a learner's best candidates (rollout:lead=FILE) has no value there
            shares = ", ".join(f"{k} {v:.3f}" for k, v in outside.items())
            print(f"{n}: share of held-out choices outside the candidates the teacher valued (not in its regret): {shares}")
    if "worth" in names:
        alone = judge(WorthChoice(), data, cand, val_idx)
        by_kind = ", ".join(f"{k} {mean_regret(alone, k):.3f}" for k in KINDS if k in alone)
        print(f"held-out regret choosing by worth alone (no net): {by_kind}")
    if args.deals <= 0:
        return 0
    _NETS.update(nets)  # inherited by the pool's forked workers
    rules = args.rest == "rules"
    inside = f"{TEACHER}'s rules (no lookahead)" if rules else TEACHER
    print(f"\nthe net answers a row's kinds inside {inside}, against {TEACHER}: {2 * args.deals} games per row on paired deals")
    print(f"{'net answers':<44} {'net':<10} {'win rate':>8} {'95% interval':>13} {'VP':>13}")
    for kinds in args.rows or [frozenset({"turn"})]:
        for name in names:
            jobs = [(name, kinds, rules, args.seed + k, s) for k in range(args.deals) for s in (0, 1)]
            t0 = time.perf_counter()
            with multiprocessing.get_context("fork").Pool(args.workers) as pool:
                results = list(tqdm(pool.imap(_play, jobs), total=len(jobs), desc=name, unit="game", leave=False))
            rate, interval, mine, theirs = summarize(results)
            label = ",".join(k for k in KINDS if k in kinds) or "none"
            print(
                f"{label:<44} {name:<10} {100 * rate:>7.1f}% {interval:>13} {mine:>5.1f} / {theirs:<5.1f}"
                f"   ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
