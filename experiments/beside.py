"""Files written beside and renamed into place. Why: a run stopped while it writes (Ctrl-C, a
kill, the session's end) must leave the last whole file, never half of a new one that a resume
would then read."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def beside(path: Path) -> Iterator[Path]:
    """The side file to write instead of ``path``; renamed over ``path`` when the block ends, removed
    if it fails. The side file is hidden and keeps the suffix (``.step_8.partial.zip``), so no glob
    of the real files takes it, and a writer that adds a missing suffix (SB3's ``save``) keeps its name."""
    side = path.with_name(f".{path.stem}.partial{path.suffix}")
    try:
        yield side
        os.replace(side, path)
    finally:
        side.unlink(missing_ok=True)
