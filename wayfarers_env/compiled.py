"""Which of the package's modules run compiled, and a guard that never lets a stale one run.

An install builds the engine's hot modules with Cython (``setup.py``: the same ``.py`` files,
compiled as they are, about 1.2x the AEC loop's speed and 1.5x the raw engine's; docs/PERFORMANCE.md).
Python prefers an extension module to the ``.py`` beside it, so after an editable install a
module edited since the build would silently run its old compiled code. The build therefore
records a hash of every source it compiled (``_compiled.json``), and the finder below, put first
on ``sys.meta_path`` when ``wayfarers_env`` is imported, loads the ``.py`` instead wherever the
hash no longer matches (with one warning naming the modules and the rebuild command), or
everywhere when ``WAYFARERS_PURE=1`` is set: for debugging, line-level profiling, or
comparing the two builds. This module itself is never compiled.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

MANIFEST = "_compiled.json"  # written by setup.py's build_ext beside this file: {"modules": {module: sha256 of its source}}
PURE_ENV = "WAYFARERS_PURE"  # set to 1: run every module as plain Python
REBUILD = "pip install -e . (or make install) in the checkout, or set WAYFARERS_PURE=1 to run plain Python"


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _forced_pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


class CompiledGuard(importlib.abc.MetaPathFinder):
    """Loads a compiled module's ``.py`` when the build's hash of it is stale or plain Python is asked for."""

    def __init__(self, root: Path, manifest: dict[str, str]):
        self.root, self.manifest = root, manifest
        self.pure = _forced_pure()
        self.stale: list[str] = []
        self.plain: set[str] = set()  # the manifest's modules that were loaded from their .py

    def find_spec(self, fullname, path=None, target=None):  # noqa: ANN001 - the MetaPathFinder protocol
        digest = self.manifest.get(fullname)
        if digest is None:
            return None
        source = self.root.joinpath(*fullname.split(".")).with_suffix(".py")
        if not self.pure:
            if not source.exists() or source_hash(source) == digest:
                return None  # the normal finders pick the extension module
            self.stale.append(fullname)
            warnings.warn(
                f"{fullname} changed since it was compiled ({source}); running its plain Python, which is slower. Rebuild: {REBUILD}",
                stacklevel=2,
            )
        self.plain.add(fullname)
        return importlib.util.spec_from_file_location(fullname, source)


def install() -> CompiledGuard | None:
    """Put the guard first on ``sys.meta_path`` (once); None where nothing was compiled."""
    for finder in sys.meta_path:
        if isinstance(finder, CompiledGuard):
            return finder
    here = Path(__file__).resolve().parent
    try:
        modules = json.loads((here / MANIFEST).read_text())["modules"]  # and "build": Cython's version and directives
    except (OSError, ValueError, KeyError, TypeError):
        return None
    guard = CompiledGuard(here.parent, {str(k): str(v) for k, v in modules.items()})
    sys.meta_path.insert(0, guard)
    return guard


def status() -> dict[str, bool]:
    """Each module the build compiled: True if it was (or will be) loaded compiled in this process."""
    guard = install()
    if guard is None:
        return {}
    out = {}
    for name in sorted(guard.manifest):
        module = sys.modules.get(name)
        if module is not None:
            spec = getattr(module, "__spec__", None)
            out[name] = spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
        else:
            out[name] = not guard.pure and name not in guard.plain and _fresh(guard, name)
    return out


def _fresh(guard: CompiledGuard, name: str) -> bool:
    source = guard.root.joinpath(*name.split(".")).with_suffix(".py")
    return not source.exists() or source_hash(source) == guard.manifest[name]


def summary() -> str:
    """One line for benchmark reports: which build produced the figures."""
    states = status()
    if not states:
        return "plain Python (no compiled modules in this install)"
    done = sum(states.values())
    if done == 0:
        why = f"{PURE_ENV}=1" if _forced_pure() else "all stale"
        return f"plain Python ({why}; {len(states)} modules could run compiled)"
    return f"compiled: {done} of {len(states)} modules (Cython)"


install()  # on import, which ``wayfarers_env/__init__`` makes before any compiled module can load
