"""Start a command as a terminal's foreground job runs it: for the tests that press Ctrl-C.

Why: a process started from a background job of a non-interactive shell (``cmd &`` in a script,
as some CI runners launch their steps) inherits SIGINT *ignored*, and Python then installs no
KeyboardInterrupt handler; the command under test would shrug off the test's Ctrl-C and the test
would time out. A terminal's foreground job has SIGINT at its default, so the child puts it back
before the command starts."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(cmd: list[str], **kwargs: Any) -> subprocess.Popen:
    """``subprocess.Popen(cmd, **kwargs)`` in its own process group (``os.killpg`` then reaches
    every process the command starts, as Ctrl-C does) with SIGINT at its default."""
    return subprocess.Popen(cmd, start_new_session=True, preexec_fn=_sigint_default, **kwargs)
