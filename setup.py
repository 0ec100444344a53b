"""Compiles the engine's hot modules with Cython at install; everything else is in pyproject.toml.

The compiled modules are the same ``.py`` files, built as they are (no type declarations, no
second variant to keep alike), so the plain and compiled builds play the same games. A build
that cannot compile (no C compiler, no Cython) installs plain Python and says so; so does
``WAYFARERS_COMPILE=0``. The hash of every compiled source goes to
``wayfarers_env/_compiled.json``, which ``wayfarers_env.compiled`` checks so that an edited
module never runs its stale compiled code (docs/PERFORMANCE.md, "The compiled build").
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sysconfig
from glob import glob
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# the rules, the encoder and the env's step path, and the bots' evaluation and search
COMPILED = [
    *sorted(p for p in glob("wayfarers_env/rules/*.py") if not p.endswith("__init__.py")),
    "wayfarers_env/content/effects.py",
    "wayfarers_env/content/measures.py",
    "wayfarers_env/content/records.py",
    "wayfarers_env/envs/aec.py",
    "wayfarers_env/envs/card_features.py",
    "wayfarers_env/envs/cyclic.py",
    "wayfarers_env/envs/observation.py",
    "wayfarers_env/envs/observation_layout.py",
    "wayfarers_env/envs/players.py",
    "agents/appraisal.py",
    "agents/evaluation.py",
    "agents/ismcts.py",
    "agents/lookahead.py",
    "agents/strategies.py",
]
MANIFEST = Path("wayfarers_env") / "_compiled.json"
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}


def module_name(path: str) -> str:
    return path[: -len(".py")].replace("/", ".")


def source_hash(name: str) -> str:
    return hashlib.sha256(Path(name.replace(".", "/") + ".py").read_bytes()).hexdigest()


def build_signature() -> str:
    """What else decides the compiled code besides the source: a change of either rebuilds every module."""
    import Cython

    return f"Cython {Cython.__version__}, {json.dumps(DIRECTIVES, sort_keys=True)}"


def checkout_build(name: str) -> Path | None:
    """The extension an earlier in-place (editable) build left in the checkout, if its source and
    the build's settings are unchanged."""
    try:
        manifest = json.loads(MANIFEST.read_text())
        recorded = manifest["modules"].get(name) if manifest.get("build") == build_signature() else None
    except (OSError, ValueError, KeyError, AttributeError):
        return None
    built = Path(name.replace(".", "/") + sysconfig.get_config_var("EXT_SUFFIX"))
    return built if recorded == source_hash(name) and built.exists() else None


class BuildWithManifest(build_ext):
    """Builds in parallel, reuses unchanged modules' earlier builds (a reinstall after editing one
    module compiles that one), tolerates a failed compile (plain Python stays), records what it built."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def build_extension(self, ext) -> None:  # noqa: ANN001 - setuptools' Extension
        earlier = checkout_build(ext.name)
        target = Path(self.get_ext_fullpath(ext.name))
        if earlier is None:
            target.unlink(missing_ok=True)  # a failed compile must not leave an older build to be recorded as this one
            super().build_extension(ext)
        elif earlier.resolve() != target.resolve():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(earlier, target)

    def run(self) -> None:
        super().run()
        if self.inplace:  # a module taken off the list must not leave its old build shadowing its source
            wanted = {Path(self.get_ext_fullpath(ext.name)).resolve() for ext in self.extensions}
            for package in ("wayfarers_env", "agents"):
                for stray in Path(package).rglob("*" + sysconfig.get_config_var("EXT_SUFFIX")):
                    if stray.resolve() not in wanted:
                        print(f"wayfarers: removing {stray}, no longer compiled")
                        stray.unlink()
        built = {}
        for ext in self.extensions:
            if os.path.exists(self.get_ext_fullpath(ext.name)):
                built[ext.name] = source_hash(ext.name)
        target = Path(self.get_ext_fullpath("wayfarers_env.x")).parent / MANIFEST.name
        target.parent.mkdir(parents=True, exist_ok=True)
        manifest = {"build": build_signature(), "modules": built, "listed": [module_name(p) for p in COMPILED]}
        target.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        print(f"wayfarers: compiled {len(built)} of the {len(COMPILED)} listed modules; manifest {target}")


def extensions() -> list:
    if os.environ.get("WAYFARERS_COMPILE", "1") == "0":
        print("wayfarers: WAYFARERS_COMPILE=0, installing plain Python")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print("wayfarers: Cython is not available, installing plain Python (slower)")
        return []
    from setuptools import Extension

    out = []
    for path in COMPILED:  # one at a time: a module Cython refuses stays plain Python, the others compile
        try:
            out += cythonize(
                [Extension(module_name(path), [path], optional=True)], build_dir="build/cython", quiet=True, compiler_directives=DIRECTIVES
            )
        except Exception as exc:  # Cython's CompileError and whatever a broken toolchain raises
            print(f"wayfarers: {path} stays plain Python: Cython refused it (its messages are above; {type(exc).__name__})")
    return out


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildWithManifest})
