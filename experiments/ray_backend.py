"""``--backend ray``: the games of ``simulate`` and ``tournament`` played by Ray actors.

Results are identical to the process backend because nothing about a game depends on where it
runs: each ``GameSpec`` carries its deal and its bots' seeds, the actors only compute records,
and the parent writes them in game order through the same ``play_run`` (so games.jsonl, the
summary's statistics, the Parquet logs and ``--resume`` are the process backend's).

``--workers N`` starts N actors of one CPU each, every one playing one game at a time, so N is
the number of games in parallel on a laptop or a cluster alike. Games go to the actors in turn,
at most ``IN_FLIGHT_PER_WORKER`` queued per actor, and come back in order: a schedule of 10**8
games is never read ahead. An actor keeps its bots between games (a policy loads once).

Ray is imported only when this backend is chosen (the [ray] extra); ``prepare`` checks the
options and joins or starts Ray before anything is written, so a mistake is one line.
"""

from __future__ import annotations

import importlib.util
import os
import socket
from collections import deque
from collections.abc import Callable, Generator, Iterator
from typing import Any

from experiments.cli import UsageError
from experiments.tournament import IN_FLIGHT_PER_WORKER, _ignore_sigint

RAY_EXTRA = 'pip install -e ".[ray]"'


def _reachable(address: str, timeout_s: float = 5.0) -> None:
    host, _, port = address.rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise UsageError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc} (is `ray start --head --port {port}` running on {host}?)"
        ) from None


def start_ray(address: str | None, cpus: int) -> None:
    """Join the cluster at ``address`` or start a local Ray with at least ``cpus`` CPUs (more than
    the machine has is fine, as for a process pool; too few would leave an actor waiting for a
    CPU forever). A Ray already running in this process (a test's) is used as it is."""
    import logging

    import ray

    if ray.is_initialized():
        return
    if address not in (None, "auto"):
        _reachable(address)  # Ray itself would retry an unreachable head for minutes
    quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
    try:
        if address is None:
            # "local": a new Ray of its own, even where RAY_ADDRESS or `ray start` names another
            ray.init(address="local", num_cpus=max(os.cpu_count() or 1, cpus), **quiet)
        else:
            ray.init(address=address, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        what = f"reach the Ray cluster at {address}" if address else "start a local Ray"
        raise UsageError(f"cannot {what}: {' '.join(str(exc).split())[:200]}") from None


def prepare(args: Any, workers: int) -> str | None:
    """What is wrong with --backend/--address (None: nothing), having joined or started Ray for
    ``workers`` actors when the backend is Ray."""
    backend, address = getattr(args, "backend", "process"), getattr(args, "address", None)
    if backend != "ray":
        return f"--address {address} names a Ray cluster: add --backend ray, or drop --address" if address else None
    if importlib.util.find_spec("ray") is None:
        return f"--backend ray needs Ray, from the [ray] extra: {RAY_EXTRA}"
    try:
        start_ray(address, workers)
    except UsageError as exc:
        return str(exc)
    import ray

    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cpus < workers:
        where = f"the Ray cluster at {address}" if address else "the Ray in use"
        return f"--workers {workers} needs {workers} CPUs for its Ray actors; {where} has {cpus}: lower --workers"
    return None


class _Player:
    """One Ray actor: plays the games it is sent with ``play``, one at a time."""

    def __init__(self, play: Callable[[Any], tuple]):
        _ignore_sigint()  # Ctrl-C belongs to the driver, which ends the actors
        self.play = play

    def game(self, spec: Any) -> tuple:
        return self.play(spec)


def results(specs: Iterator[Any], workers: int, play: Callable[[Any], tuple]) -> Generator[tuple, None, None]:
    """``play(spec)`` per game, in game order, computed by ``workers`` Ray actors. Closing the
    generator ends the actors."""
    import ray

    player: Any = ray.remote(num_cpus=1)(_Player)
    actors = [player.remote(play) for _ in range(max(1, workers))]
    pending: deque = deque()
    try:
        for k, spec in enumerate(specs):
            pending.append(actors[k % len(actors)].game.remote(spec))
            if len(pending) >= IN_FLIGHT_PER_WORKER * len(actors):
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())
    finally:
        for actor in actors:
            ray.kill(actor)
