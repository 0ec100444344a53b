"""Instructions per AEC step, counted by valgrind's callgrind: a speed figure no other load moves.

Why. ``bench_env`` times loops interleaved with ``connect_four_v3``, and on a shared VM its ratios
still move by about 0.1 between runs: too much to tell a 2% change from noise. The number of
instructions a step executes does not depend on the machine's load, so an optimisation can be
judged in one run. It is not time: an interpreter's branchy instructions cost more than numpy's
tight loops (``docs/PERFORMANCE.md``, "Instructions, not seconds").

Each figure is (instructions of N2 steps - instructions of N1 steps) / (N2 - N1), each count a
separate process under callgrind, so the start-up and the imports cancel. The loop is
``bench_env``'s: ``last()``, a random legal id from the mask, ``step()``, new envs as games end.

    python -m benchmarks.instructions                       (tides2, base2, c4; needs valgrind)
    python -m benchmarks.instructions --loops tides2 --steps 2000 12000
"""

from __future__ import annotations

import argparse
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

        make = partial(wayfarers_env.env, num_players=int(loop[-1]), tides_of_trade=loop.startswith("tides"))
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


def count(loop: str, steps: int) -> int:
    """Instructions callgrind collects for a whole process that plays ``steps`` steps."""
    with tempfile.TemporaryDirectory() as tmp:
        child = [sys.executable, "-m", "benchmarks.instructions", "--child", loop, str(steps)]
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *child]
        proc = subprocess.run(cmd, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit(f"error: callgrind failed for {loop} ({steps} steps): {proc.stderr.strip().splitlines()[-1:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", nargs="+", choices=LOOPS, default=["base2", "tides2", "c4"], help="loops (default: base2 tides2 c4)")
    parser.add_argument("--steps", nargs=2, type=int, default=[3000, 13000], metavar=("N1", "N2"), help="step counts (default 3000 13000)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        play(args.child[0], int(args.child[1]))
        return 0
    n1, n2 = args.steps
    if not 0 <= n1 < n2:
        parser.error(f"--steps needs 0 <= N1 < N2, got {n1} {n2}")
    if shutil.which("valgrind") is None:
        print("error: valgrind is not installed (apt-get install valgrind); it counts the instructions", file=sys.stderr)
        return 2
    rows = []
    for loop in args.loops:
        per_step = (count(loop, n2) - count(loop, n1)) / (n2 - n1)
        rows.append((loop, per_step))
        print(f"{loop:8s} {per_step:12,.0f} instructions/step", flush=True)
    ref = dict(rows).get("c4")
    if ref:
        print("vs c4 (connect_four_v3): " + ", ".join(f"{loop} {ref / v:.2f}x fewer" for loop, v in rows if loop != "c4"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
