"""Instructions per AEC step, counted by valgrind's callgrind: a speed figure no other load moves.

Why. ``bench_env`` times loops interleaved with ``connect_four_v3``, and on a shared VM its ratios
still move by about 0.1 between runs: too much to tell a 2% change from noise. The number of
instructions a step executes does not depend on the machine's load, so an optimisation can be
judged in one run. It is not time: an interpreter's branchy instructions cost more than numpy's
tight loops (``docs/PERFORMANCE.md``, "Instructions, not seconds").

Each figure is (instructions of N2 steps - instructions of N1 steps) / (N2 - N1), each count a
separate process under callgrind, so the start-up and the imports cancel. The loop is
``bench_env``'s: ``last()``, a random legal id from the mask, ``step()``, new envs as games end.

``--rev`` counts earlier commits of the engine too, each extracted from git into a temporary
folder and played by this file's loop (the base-game loops run on any commit since the AEC env
landed): how a regression is found and dated, since a wall-clock ratio cannot compare commits
measured on different days or machines (docs/PERFORMANCE.md, "Where the base game's speed went").

    python -m benchmarks.instructions                       (tides2, base2, c4; needs valgrind)
    python -m benchmarks.instructions --loops tides2 --steps 2000 12000
    python -m benchmarks.instructions --loops base2 --steps 2000 8000 --rev c296e50 HEAD
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from functools import partial

LOOPS = ("base2", "base4", "tides2", "tides4", "c4")


def play(loop: str, steps: int) -> None:
    """The measured loop: ``steps`` AEC steps of random masked play (the child process runs this)."""
    if loop == "c4":
        warnings.simplefilter("ignore")
        from pettingzoo.classic import connect_four_v3

        make = connect_four_v3.env
    else:
        import wayfarers_env

        # the keyword only for the expansion: a base-game loop then also runs commits older than it
        tides = {"tides_of_trade": True} if loop.startswith("tides") else {}
        make = partial(wayfarers_env.env, num_players=int(loop[-1]), **tides)
    rng = random.Random(0)
    done = game = 0
    while done < steps:
        env = make()
        env.reset(seed=game)
        game += 1
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
            if done >= steps:
                break


def child_command(loop: str, steps: int, tree: str | None = None) -> tuple[list[str], dict[str, str] | None]:
    """The process that plays the loop, and its environment: this file runs it, and the engine it
    imports is the one in ``tree`` or, without a tree, the installed one."""
    from benchmarks.revisions import engine_env  # not at the top: the child, run by path, imports only the engine

    return [sys.executable, os.path.abspath(__file__), "--child", loop, str(steps)], engine_env(tree)


def count(loop: str, steps: int, tree: str | None = None) -> int:
    """Instructions callgrind collects for a whole process that plays ``steps`` steps (with the
    engine of ``tree``, a folder holding an extracted commit; None: the one installed)."""
    child, env = child_command(loop, steps, tree)
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *child]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit(f"error: callgrind failed for {loop} ({steps} steps): {proc.stderr.strip().splitlines()[-1:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", nargs="+", choices=LOOPS, default=["base2", "tides2", "c4"], help="loops (default: base2 tides2 c4)")
    parser.add_argument("--steps", nargs=2, type=int, default=[3000, 13000], metavar=("N1", "N2"), help="step counts (default 3000 13000)")
    parser.add_argument(
        "--rev", nargs="+", metavar="REV", help="git commits to count (each extracted to a temporary folder); default: the installed engine"
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        play(args.child[0], int(args.child[1]))
        return 0
    n1, n2 = args.steps
    if not 0 <= n1 < n2:
        parser.error(f"--steps needs 0 <= N1 < N2, got {n1} {n2}")
    from benchmarks.revisions import extract, refuse_unknown

    if refuse_unknown(args.rev):  # every name checked before any counting starts
        return 2
    if shutil.which("valgrind") is None:
        print("error: valgrind is not installed (apt-get install valgrind); it counts the instructions", file=sys.stderr)
        return 2
    if args.rev is None:
        _report(args.loops, n1, n2, None, "")
    for rev in args.rev or ():
        with tempfile.TemporaryDirectory() as tree:
            extract(rev, tree)
            _report(args.loops, n1, n2, tree, f"{rev:12s} ")
    return 0


def _report(loops: list[str], n1: int, n2: int, tree: str | None, label: str) -> None:
    rows = []
    for loop in loops:
        per_step = (count(loop, n2, tree) - count(loop, n1, tree)) / (n2 - n1)
        rows.append((loop, per_step))
        print(f"{label}{loop:8s} {per_step:12,.0f} instructions/step", flush=True)
    ref = dict(rows).get("c4")
    if ref:
        print(f"{label}vs c4 (connect_four_v3): " + ", ".join(f"{loop} {ref / v:.2f}x fewer" for loop, v in rows if loop != "c4"))


if __name__ == "__main__":
    raise SystemExit(main())
