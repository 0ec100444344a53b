"""``experiments.ctrl_c.CtrlC``: Ctrl-C never lands inside a write (a games.jsonl line, summary.json,
a training checkpoint). A KeyboardInterrupt inside ``torch.save`` left half a checkpoint and a
RuntimeError traceback instead of ``wayfarers train``'s one line (stop 42's CI run)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from experiments.ctrl_c import CtrlC


@pytest.fixture(autouse=True)
def python_handles_ctrl_c():
    """As in a shell's foreground; a test worker may have been started with Ctrl-C ignored."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def ctrl_c() -> None:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)  # the handler runs here, between two bytecodes of the main thread


def test_a_ctrl_c_inside_a_write_waits_for_the_write_to_end():
    steps = []
    with pytest.raises(KeyboardInterrupt):
        with CtrlC() as stop:
            with stop.writing():
                ctrl_c()
                steps.append("written")
            steps.append("after")
    assert steps == ["written"]  # the whole write, then the stop, before anything else
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is given back


def test_outside_a_write_it_stops_at_once_and_only_the_first_one_counts():
    steps = []
    with CtrlC() as stop:
        with pytest.raises(KeyboardInterrupt):
            ctrl_c()
            steps.append("not reached")
        with stop.writing():  # saving what it has after the stop: a second Ctrl-C is only noted
            ctrl_c()
            steps.append("saved")
        steps.append("after")
    assert steps == ["saved", "after"] and stop.pending


def test_with_ctrl_c_ignored_it_stays_ignored():
    """``nohup`` and a shell's ``&`` start a run with Ctrl-C ignored; the run keeps it so."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with CtrlC() as stop:
        with stop.writing():
            ctrl_c()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN and not stop.pending
