"""Where an AEC step's time goes: the legal set, the mask, the observation (and its sections),
``apply``, the benchmark's random pick, timed part by part over the same random masked games.

Why beside ``bench_env --profile``: cProfile inflates small calls, so its shares mislead for a step
of ~40 µs made of many small calls. Here each part is timed by the clock around the one call that
does it (the engine's legal list, ``_legal_mask``, ``Encoder.encode``, ``Game.apply``), and with
``--sections`` each of the encoder's section methods is timed by a wrapper (each wrapper adds
about 0.3 µs to the section it wraps: read them as proportions). Timings on a shared machine are
noisy: run it two or three times.

    python -m benchmarks.step_split                        (2 players, expansion off and on, 30 games each)
    python -m benchmarks.step_split --games 20 --players 4 --sections
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

import numpy as np

SECTIONS = ("_decision", "_histogram", "_refresh_seats", "_build_panorama", "_build_resources", "_build_dice", "_deck_row",
            "_build_market", "_tides_board")  # fmt: skip
PARTS = ("legal", "mask", "observation", "apply", "pick")


def split(players: int, tides: bool, games: int, sections: bool) -> tuple[int, dict[str, float]]:
    """(steps, seconds per part) over ``games`` random masked games of seeds 100, 101, ..."""
    import wayfarers_env
    from wayfarers_env.envs.aec import _legal_mask

    raw = wayfarers_env.env(num_players=players, tides_of_trade=tides).unwrapped
    raw.reset(seed=0)
    cls = type(raw._encoder)
    spent: dict[str, float] = defaultdict(float)
    clock = time.perf_counter
    originals = {name: getattr(cls, name) for name in SECTIONS} if sections else {}

    def timed(name, inner):
        def wrapper(self, *args):
            t0 = clock()
            out = inner(self, *args)
            spent["  " + name] += clock() - t0
            return out

        return wrapper

    for name, inner in originals.items():
        setattr(cls, name, timed(name, inner))
    rng = random.Random(0)
    steps = 0
    try:
        for k in range(games):
            raw.reset(seed=100 + k)
            game, enc, g = raw.game, raw._encoder, raw.game.state
            while not g.over:
                t0 = clock()
                legal = game.cached_legal()
                t1 = clock()
                mask = _legal_mask(legal)
                t2 = clock()
                enc.encode(game, g.current)
                t3 = clock()
                ids = np.flatnonzero(mask)
                action = int(ids[rng.randrange(len(ids))])
                t4 = clock()
                game.apply(action)
                t5 = clock()
                for part, dt in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t5 - t4, t4 - t3)):
                    spent[part] += dt
                steps += 1
    finally:
        for name, inner in originals.items():
            setattr(cls, name, inner)
    return steps, spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players per game (default 2)")
    parser.add_argument("--games", type=int, default=30, help="games per setting (default 30)")
    parser.add_argument("--sections", action="store_true", help="also time the observation's sections (wrapped methods)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    results = {label: split(args.players, tides, args.games, args.sections) for label, tides in (("base", False), ("tides", True))}
    names = [*PARTS, *(f"  {s}" for s in SECTIONS if args.sections)]
    print(f"µs per step, {args.players} players, {args.games} games each (sections: inside 'observation')")
    print(f"{'part':20s} {'base game':>10s} {'Tides of Trade':>15s}")
    for name in [*names, "total"]:
        cells = []
        for steps, spent in results.values():
            value = sum(spent[p] for p in PARTS) if name == "total" else spent.get(name, 0.0)
            cells.append(1e6 * value / steps)
        print(f"{name:20s} {cells[0]:10.2f} {cells[1]:15.2f}")
    print("steps: " + ", ".join(f"{label} {steps}" for label, (steps, _) in results.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
