"""Ctrl-C that never lands inside a write, for the commands that keep files while they run
(``simulate``/``tournament`` and ``wayfarers train``). Why: a KeyboardInterrupt raised inside
``torch.save`` or a JSON line leaves half a file, and torch turns it into a RuntimeError, so the
user sees a traceback instead of the one line that says what was kept."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any


class CtrlC:
    """Ctrl-C as a request to stop. Outside a write it stops the run at once (KeyboardInterrupt);
    inside one (``writing``: a games.jsonl line, summary.json, a training checkpoint) it waits for
    the write to end, so no file is left half-written. Only the first Ctrl-C interrupts: later ones, while the run saves
    its state, are noted and ignored. Python only handles signals in the main thread, so elsewhere
    (a run started from a thread) this does nothing."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending = False
        self.fired = False
        self.previous: Any = None

    def __enter__(self) -> CtrlC:
        main_thread = threading.current_thread() is threading.main_thread()
        if main_thread and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # nohup and `&` mean: ignore it
            self.previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def _handle(self, signum: int, frame: object) -> None:
        if self.depth or self.fired:
            self.pending = True
            return
        self.fired = True
        raise KeyboardInterrupt

    def hold(self) -> None:
        """From now on Ctrl-C is only noted: the run is saving what it has."""
        self.depth += 1

    @contextmanager
    def writing(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if self.pending and not self.depth and not self.fired:
            self.fired = True
            raise KeyboardInterrupt
