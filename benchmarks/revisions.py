"""Earlier commits of the engine, extracted from git so that a benchmark can run them beside the
working tree: a wall-clock ratio measured on another day or machine cannot date a regression,
the same loop run on both commits in one session can (docs/PERFORMANCE.md, "Where the base
game's speed went")."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git(*args: str, text: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=text)


def refuse_unknown(revs: list[str] | None) -> bool:
    """Print the error line for a commit named twice (its rows would merge) or not in this
    repository; True when one was found."""
    revs = revs or []
    for i, rev in enumerate(revs):
        if rev in revs[:i]:
            print(f"error: --rev {rev!r} is given twice", file=sys.stderr)
            return True
    for rev in revs:
        if git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode != 0:
            print(f"error: --rev {rev!r} is not a commit of this repository", file=sys.stderr)
            return True
    return False


def extract(rev: str, tree: str) -> None:
    """Write the files of commit ``rev`` into the folder ``tree``."""
    archive = git("archive", "--format=tar", rev, text=False)
    subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)


def engine_env(tree: str | None) -> dict[str, str] | None:
    """The environment of a process that imports the engine of ``tree`` (put first on the path;
    run the process's script by its path so that no checkout's folder leads the path). None: the
    installed engine."""
    if tree is None:
        return None
    return {**os.environ, "PYTHONPATH": os.pathsep.join([tree, *filter(None, [os.environ.get("PYTHONPATH")])])}
