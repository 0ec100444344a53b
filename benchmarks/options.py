"""The benchmark's command-line options, in a module of their own so that ``wayfarers --help``
can show them without importing the benchmark (numpy, the environment, PettingZoo)."""

from __future__ import annotations

import argparse
import math

BENCH_EXTRA = 'pip install -e ".[bench]"'


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):  # inf would never end, nan never compares
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds (e.g. 10), got {text!r}")
    return value


def player_count(text: str) -> int:
    if text not in ("2", "3", "4"):
        raise argparse.ArgumentTypeError(f"takes player counts 2, 3 or 4, got {text!r}")
    return int(text)


def rounds(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of rounds, at least 1, got {text!r}")
    return int(text)


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The benchmark's options, shared by ``python -m benchmarks.bench_env`` and ``wayfarers bench``."""
    ap.add_argument("--seconds", type=positive_seconds, default=10.0, help="time budget per measured loop (default 10)")
    ap.add_argument("--players", type=player_count, nargs="+", default=[2, 4], help="player counts to measure (2, 3, 4)")
    ap.add_argument("--rounds", type=rounds, default=10, help="interleaved rounds per loop (more: steadier ratios on a busy machine)")
    ap.add_argument(
        "--no-reference",
        action="store_true",
        help="skip PettingZoo's connect_four_v3 and chess_v6. Without the [bench] extra they are skipped anyway: "
        f"a one-line note on stderr says to {BENCH_EXTRA}, and wayfarers' own loops are still measured (exit 0)",
    )
    ap.add_argument("--profile", action="store_true", help="also profile the AEC loop of the first player count")
    ap.add_argument("--all-cores", action="store_true", help="do not pin the process to one core")
