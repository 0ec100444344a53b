"""Speed of the environment, measured against PettingZoo's classic games in the same run.

Every loop plays random *masked* games through the AEC API exactly as a training loop does:
``last()`` (observation and mask built every step), pick a legal id, ``step()``. The loops run
interleaved in rounds, on one CPU core, so that machine load hits them alike and the ratios
stay meaningful even where the absolute figures do not. The raw engine loop (``legal_actions``
and ``apply``, no observation) shows how much of the step is the rules themselves; the "Tides of
Trade" loops play the same AEC loop with the expansion on (``tides_of_trade=True``), and the solo
loop plays one agent against the rulebook's AI (``num_players=1``, the four AI boards in turn),
counting the agent's steps and timing the AI's turns apart.

    python -m benchmarks.bench_env --seconds 10          (or: wayfarers bench --seconds 10)
    python -m benchmarks.bench_env --seconds 5 --profile (where the AEC step's time goes, base game and expansion)
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import resource
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from benchmarks.options import BENCH_EXTRA, add_arguments  # noqa: F401 - add_arguments: the options' old home

if TYPE_CHECKING:
    from pettingzoo import AECEnv

REFERENCES = ("connect_four_v3", "chess_v6")
TIDES_LABEL = "Tides of Trade AEC"  # the expansion's AEC loops: "Tides of Trade AEC 2p"
SOLO_LABEL = "solo AEC (AI boards 1-4)"  # one agent against the rulebook's AI, the four boards in turn


class Loop:
    """One measured loop: accumulates steps, finished games and time over several rounds."""

    def __init__(self, label: str, play: Callable[[float, int], tuple[int, int, int]], unit: str = "steps"):
        self.label, self.play, self.unit = label, play, unit
        self.steps = self.games = self.game_steps = 0
        self.elapsed = 0.0
        self.cpu = 0.0  # CPU time of this process: robust to other load on a shared machine

    def round(self, seconds: float) -> None:
        t0, c0 = time.perf_counter(), time.process_time()
        steps, games, game_steps = self.play(seconds, self.games)
        self.elapsed += time.perf_counter() - t0
        self.cpu += time.process_time() - c0
        self.steps += steps
        self.games += games
        self.game_steps += game_steps

    @property
    def rate(self) -> float:
        return self.steps / self.elapsed if self.elapsed else 0.0

    @property
    def cpu_rate(self) -> float:
        return self.steps / self.cpu if self.cpu else 0.0


def play_game(env, rng: random.Random, deadline: float = float("inf")) -> tuple[int, bool]:
    """One random masked game through the AEC API (cut at ``deadline``): (steps, finished)."""
    clock = time.perf_counter
    n = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
        env.step(action)
        n += 1
        if n & 63 == 0 and clock() >= deadline:
            return n, False
    return n, True


def aec_loop(make: Callable[[], AECEnv]) -> Callable[[float, int], tuple[int, int, int]]:
    """Random masked play through the AEC API until ``seconds`` pass (a started game is cut)."""
    env = make()
    rng = random.Random(0)

    def play(seconds: float, seed: int) -> tuple[int, int, int]:
        deadline = time.perf_counter() + seconds
        steps = games = game_steps = 0
        while time.perf_counter() < deadline:
            env.reset(seed=seed + games)
            n, finished = play_game(env, rng, deadline)
            steps += n
            if finished:
                games += 1
                game_steps += n
        return steps, games, game_steps

    return play


class AiClock:
    """Time and count the solo AI's turns (the engine settles them inside the agent's ``step``):
    wraps the AI turn's settle function for the benchmark only."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.turns = 0

    def __enter__(self) -> AiClock:
        from wayfarers_env.rules import frames, solo

        rule = frames.RULES[solo.AiTurn]
        inner = self._inner = rule.settle
        assert inner is not None
        clock = time.perf_counter

        def timed(g, frame):  # the first step of a turn is "start": count it as a turn
            t0 = clock()
            done = inner(g, frame)
            self.seconds += clock() - t0
            if frame.steps and frame.steps[0][0] == "start":
                self.turns += 1
            return done

        rule.settle = timed
        return self

    def __exit__(self, *exc: object) -> None:
        from wayfarers_env.rules import frames, solo

        frames.RULES[solo.AiTurn].settle = self._inner


AI_CLOCK = AiClock()


def solo_loop() -> Callable[[float, int], tuple[int, int, int]]:
    """The agent's steps through the one-agent AEC env, game k against AI board 1 + k % 4; the AI's
    turns (inside ``step``) are timed apart in ``AI_CLOCK``."""
    from wayfarers_env import env

    envs = [env(num_players=1, solo_ai_board=b) for b in (1, 2, 3, 4)]
    rng = random.Random(0)

    def play(seconds: float, seed: int) -> tuple[int, int, int]:
        deadline = time.perf_counter() + seconds
        steps = games = game_steps = 0
        with AI_CLOCK:
            while time.perf_counter() < deadline:
                e = envs[(seed + games) % 4]
                e.reset(seed=seed + games)
                n, finished = play_game(e, rng, deadline)
                steps += n
                if finished:
                    games += 1
                    game_steps += n
        return steps, games, game_steps

    return play


def engine_loop(num_players: int) -> Callable[[float, int], tuple[int, int, int]]:
    """The rules alone: legal_actions() and apply(), no observation, mask or env bookkeeping."""
    from wayfarers_env import Game, GameConfig

    config = GameConfig(num_players=num_players)
    rng = random.Random(0)

    def play(seconds: float, seed: int) -> tuple[int, int, int]:
        deadline = time.perf_counter() + seconds
        clock = time.perf_counter
        steps = games = game_steps = 0
        while clock() < deadline:
            game = Game(config, seed=seed + games)
            n = 0
            while not game.is_over:
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
                n += 1
                if n & 63 == 0 and clock() >= deadline:
                    break
            else:
                games += 1
                game_steps += n
            steps += n
        return steps, games, game_steps

    return play


def _reference(name: str) -> Callable[[], AECEnv] | str:
    try:
        with warnings.catch_warnings():  # PettingZoo deprecates importing classic envs this way
            warnings.simplefilter("ignore", DeprecationWarning)
            module = __import__(f"pettingzoo.classic.{name}", fromlist=["env"])
        module.env().reset(seed=0)
    except ImportError as exc:  # the [bench] extra (pygame-ce, chess) is not installed
        return f"{exc.name or exc} is missing"
    except Exception as exc:  # noqa: BLE001 - a broken optional install skips the loop, it does not end the run
        return f"{type(exc).__name__}: {exc}"
    return module.env


def build_loops(players: list[int], references: bool) -> tuple[list[Loop], str | None]:
    """The loops to measure, and a one-line note when a reference game cannot be measured."""
    from wayfarers_env import env

    loops = [Loop(f"wayfarers AEC {n}p", aec_loop(partial(env, num_players=n))) for n in players]
    loops += [Loop(f"{TIDES_LABEL} {n}p", aec_loop(partial(env, num_players=n, tides_of_trade=True))) for n in players]
    loops += [Loop(SOLO_LABEL, solo_loop())]
    loops += [Loop(f"wayfarers engine {n}p (no obs)", engine_loop(n), unit="decisions") for n in players]
    missing = []
    if references:
        for name in REFERENCES:
            ref = _reference(name)
            if isinstance(ref, str):
                missing.append(f"{name} ({ref})")
            else:
                loops.append(Loop(name, aec_loop(ref)))
    note = None
    if missing:
        note = f"note: reference games not measured: {'; '.join(missing)}; {BENCH_EXTRA} to compare (or pass --no-reference)"
    return loops, note


def game_memory(make: Callable[[], AECEnv], seed: int = 0) -> float:
    """Peak Python allocations (MiB, tracemalloc) while playing one game through the AEC loop."""
    env = make()
    tracemalloc.start()
    env.reset(seed=seed)
    play_game(env, random.Random(seed))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def profile_aec(num_players: int, seconds: float, tides_of_trade: bool = False) -> str:
    """cProfile of the AEC loop (of a Tides of Trade game if asked), grouped by where the time goes,
    plus the top functions."""
    from wayfarers_env import env

    play = aec_loop(lambda: env(num_players=num_players, tides_of_trade=tides_of_trade))
    prof = cProfile.Profile()
    prof.runcall(play, seconds, 0)
    # (file, line, function) -> (primitive calls, calls, own time, cumulative time, callers)
    timings: dict[tuple[str, int, str], tuple[int, int, float, float, dict]]
    timings = pstats.Stats(prof).stats  # type: ignore[attr-defined]  # undocumented, so typeshed leaves it out
    groups = {"engine (rules)": 0.0, "observation": 0.0, "env (aec.py)": 0.0, "pettingzoo/numpy/other": 0.0}
    for (filename, _line, _fn), (_cc, _nc, tottime, _ct, _callers) in timings.items():
        base = os.path.basename(filename)
        if "wayfarers_env" in filename and base in ("observation.py", "card_features.py"):
            groups["observation"] += tottime
        elif "wayfarers_env" in filename and base == "aec.py":
            groups["env (aec.py)"] += tottime
        elif "wayfarers_env" in filename:
            groups["engine (rules)"] += tottime
        else:
            groups["pettingzoo/numpy/other"] += tottime
    total = sum(groups.values())
    game = "Tides of Trade" if tides_of_trade else "base-game"
    lines = [f"profile of the {num_players}p {game} AEC loop ({seconds:g} s, cProfile inflates small calls):"]
    lines += [f"  {k:<24} {v / total:6.1%}" for k, v in groups.items()]
    lines.append("  top functions by own time:")
    rows = sorted(timings.items(), key=lambda kv: -kv[1][2])[:15]
    for (filename, line, fn), (_cc, nc, tottime, cumtime, _callers) in rows:
        where = f"{os.path.basename(filename)}:{line}({fn})"
        lines.append(f"    {tottime / total:6.1%} own  {cumtime / total:6.1%} cum  {nc:>9} calls  {where}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    seconds = float(getattr(args, "seconds", 10.0))
    players = list(getattr(args, "players", None) or [2, 4])
    rounds = max(1, int(getattr(args, "rounds", 10)))
    if hasattr(os, "sched_setaffinity") and not getattr(args, "all_cores", False):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    loops, note = build_loops(players, references=not getattr(args, "no_reference", False))
    if note:
        print(note, file=sys.stderr)
    print(f"wayfarers benchmark: Python {platform.python_version()}, {platform.machine()}, one core, ", end="")
    print(f"{seconds:g} s per loop in {rounds} interleaved rounds", flush=True)
    from wayfarers_env import compiled

    print(f"build: {compiled.summary()}", flush=True)  # the same code runs ~1.2x faster compiled: say which
    from tqdm import tqdm

    # the bar goes to stderr so that the table on stdout stays parseable
    with tqdm(total=rounds * len(loops), desc="bench", unit="loop", file=sys.stderr, leave=False) as bar:
        for _ in range(rounds):
            for loop in loops:
                bar.set_postfix_str(loop.label, refresh=False)
                loop.round(seconds / rounds)
                bar.update(1)
    ref = next((loop for loop in loops if loop.label == "connect_four_v3"), None)
    print(f"\n{'loop':<30} {'wall rate':>19} {'CPU rate':>9} {'games/s':>8} {'steps/game':>11} {'vs connect_four_v3':>19}")
    for loop in loops:
        per_game = f"{loop.game_steps / loop.games:.0f}" if loop.games else "-"
        games = f"{loop.games / loop.elapsed:.2f}" if loop.games else "-"
        ratio = f"{loop.rate / ref.rate:.2f}x / {loop.cpu_rate / ref.cpu_rate:.2f}x" if ref and ref.rate else "-"
        unit = loop.unit + "/s"
        print(f"{loop.label:<30} {loop.rate:>8.0f} {unit:<10} {loop.cpu_rate:>9.0f} {games:>8} {per_game:>11} {ratio:>19}")
    print("(rates per second of wall time and of this process's CPU time; ratios: wall / CPU)")
    solo = next((loop for loop in loops if loop.label == SOLO_LABEL), None)
    if solo is not None and solo.elapsed and AI_CLOCK.turns:
        print(
            f"{SOLO_LABEL}: the rate counts the agent's steps; the AI's {AI_CLOCK.turns} turns took "
            f"{AI_CLOCK.seconds / solo.elapsed:.0%} of the loop's time, {AI_CLOCK.seconds / AI_CLOCK.turns * 1e6:.0f} µs per AI turn"
        )
    ours = [loop for loop in loops if loop.label.startswith("wayfarers AEC")]
    engine = [loop for loop in loops if loop.label.startswith("wayfarers engine")]
    for a, e in zip(ours, engine):
        share = a.cpu_rate / e.cpu_rate if e.cpu_rate else 0.0
        print(f"{a.label}: {share:.0%} of the raw engine's decision rate (the rest is observation, mask, env)")
    from wayfarers_env import env

    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    mem = game_memory(lambda: env(num_players=max(players)))
    print(f"\npeak RSS of this process: {rss:.0f} MiB; peak Python allocations during one {max(players)}p game: {mem:.1f} MiB")
    if getattr(args, "profile", False):
        if any(compiled.status().values()):
            print(f"\nnote: compiled functions are invisible to cProfile; {compiled.PURE_ENV}=1 profiles the plain Python")
        print()
        print(profile_aec(players[0], max(2.0, seconds / 2)))
        print()
        print(profile_aec(players[0], max(2.0, seconds / 2), tides_of_trade=True))
    return 0


def _parser() -> argparse.ArgumentParser:
    from experiments.cli import Parser  # one-line `error:` messages, as from `wayfarers bench`

    ap = Parser(prog="python -m benchmarks.bench_env", description=__doc__.splitlines()[0])
    add_arguments(ap)
    return ap


if __name__ == "__main__":
    try:
        sys.exit(run(_parser().parse_args()))
    except KeyboardInterrupt:
        print("\ninterrupted: benchmark stopped", file=sys.stderr)
        sys.exit(130)
