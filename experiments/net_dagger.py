"""``python -m experiments.net_dagger NET --games N --out FILE``: a candidate net's own games, each of
its decisions labelled by the expert (DAgger for ``experiments.candidate_net``).

Why. A net cloned from the cartographer's games is judged on the positions the cartographer
reaches; playing, it reaches its own, where its errors may be larger and its training says
nothing. Here the net file's bot (``net:NET``, the cartographer's rules for the rest) plays
``--vs`` with its seat alternating, and at each of its decisions ``--expert`` is asked what it
would choose (and what it thinks every candidate is worth) from the same seat-limited view, while
the net's choice is played. The file is a ``wayfarers dataset`` file whose games say ``dagger``:
``candidate_probe`` reads it alone (the net's regret on its own positions) or beside the
expert's own games (training on both). The same arguments give the same file for any
``--workers``.

    python -m experiments.net_dagger models/cartographer-worth.pt --games 400 --workers 2 --out runs/dagger/worth400.npz
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

_PLAY: dict[str, Any] = {}  # what each worker needs, set before the pool forks


def _game(j: int) -> dict[str, Any]:
    from .imitation import dagger_game

    p = _PLAY
    if "learner" not in p:  # built once per process: the net loads in a second, not once per game
        from agents.registry import make_bot

        p["learner"], p["teacher"] = make_bot(p["net"]), make_bot(p["expert"])
    return dagger_game(p["learner"], p["teacher"], p["players"], p["config"], p["seed"], j)


def main(argv: list[str] | None = None) -> int:
    from experiments.cli import count, seed

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("net", help="a net file (python -m experiments.net_pack), e.g. models/cartographer-worth.pt")
    parser.add_argument("--games", type=count, default=100, help="games to play (default 100); the net's seat alternates")
    parser.add_argument("--vs", default="cartographer", help="the net's opponent (default cartographer)")
    parser.add_argument("--expert", default="cartographer", help="the bot that labels the net's decisions (default cartographer)")
    parser.add_argument("--seed", type=seed, default=0, help="fixes the deals and the bots' draws (default 0)")
    parser.add_argument("--workers", type=count, default=1, help="parallel processes; the file is the same for any number")
    parser.add_argument("--out", required=True, metavar="FILE", help="the dataset file to write (refused if it exists)")
    parser.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.exists() and not args.overwrite:
        parser.error(f"--out {args.out}: exists; choose another file or pass --overwrite")
    if not out.parent.is_dir():
        parser.error(f"--out {args.out}: folder {str(out.parent)!r} does not exist")
    from tqdm import tqdm

    from agents.registry import NET_PREFIX, UnknownBotError, make_bot
    from wayfarers_env import GameConfig

    from .dataset import file_meta, save_rows
    from .tournament import GameSpec, play_games

    net = NET_PREFIX + args.net
    for option, name in (("net", net), ("--vs", args.vs), ("--expert", args.expert)):
        try:
            make_bot(name)
        except (UnknownBotError, ImportError) as exc:
            parser.error(f"{option}: {exc}")
    config = GameConfig(num_players=2)
    _PLAY.update(net=net, expert=args.expert, players=[args.vs, args.vs], config=config.to_dict(), seed=args.seed)
    meta = file_meta([net, args.vs], [net], args.seed, config, dagger={"learner": net, "expert": args.expert})
    start = time.perf_counter()
    parts: list[dict[str, Any]] = []
    play = cast(Callable[[GameSpec], tuple], _game)  # the tournament's runner, given game numbers and parts back
    with tqdm(total=args.games, desc="dagger", unit="game", file=sys.stderr) as bar:
        for part in play_games(cast(Iterator[GameSpec], iter(range(args.games))), min(args.workers, args.games), play):
            parts.append(cast(dict[str, Any], part))
            bar.update(1)
    rows = save_rows(meta, parts, out)
    wins = sum(1.0 / len(p["info"]["winners"]) for p in parts if p["info"]["recorded"][0] in p["info"]["winners"])
    print(
        f"wrote {out}: {rows} decisions of {net} labelled by {args.expert}, from {args.games} games against {args.vs} "
        f"(the net won {wins:g}; {time.perf_counter() - start:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
