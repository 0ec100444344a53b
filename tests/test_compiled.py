"""The compiled build (setup.py, wayfarers_env.compiled): the same games as plain Python, and an
edited module never runs its stale compiled code."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import wayfarers_env
from wayfarers_env import compiled

ROOT = Path(wayfarers_env.__file__).resolve().parent
BUILT = (ROOT / compiled.MANIFEST).exists()
needs_build = pytest.mark.skipif(not BUILT, reason="this install has no compiled modules (WAYFARERS_COMPILE=0 or no C compiler)")


def _run(code: str, **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV} | env
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=300)
    assert out.returncode == 0, out.stderr
    return out


def test_the_guard_loads_the_source_when_the_build_is_stale_or_plain_is_asked(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "mod.py").write_text("X = 1\n")
    digest = hashlib.sha256(b"X = 1\n").hexdigest()
    fresh = compiled.CompiledGuard(tmp_path, {"pkg.mod": digest})
    fresh.pure = False
    assert fresh.find_spec("pkg.mod") is None  # the normal finders then take the extension module
    assert fresh.find_spec("pkg.other") is None  # not compiled: not the guard's business
    stale = compiled.CompiledGuard(tmp_path, {"pkg.mod": "0" * 64})
    stale.pure = False
    with pytest.warns(UserWarning, match=r"pkg\.mod changed since it was compiled.*Rebuild: pip install -e \."):
        spec = stale.find_spec("pkg.mod")
    assert spec is not None and spec.origin == str(pkg / "mod.py")
    assert stale.stale == ["pkg.mod"] and stale.plain == {"pkg.mod"}
    fresh.pure = True
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # plain on request is no surprise: no warning
        spec = fresh.find_spec("pkg.mod")
    assert spec is not None and spec.origin == str(pkg / "mod.py")


@needs_build
def test_an_installed_build_is_used_and_wayfarers_pure_turns_it_off():
    code = (
        "import importlib, json\n"
        "from wayfarers_env import compiled\n"
        "files = {n: importlib.import_module(n).__file__ for n in compiled.status()}\n"
        "print(json.dumps({'summary': compiled.summary(), 'files': files}))"
    )
    built = json.loads(_run(code).stdout)
    full = json.loads((ROOT / compiled.MANIFEST).read_text())
    manifest = full["modules"]
    assert sorted(manifest) == sorted(full["listed"])  # every module setup.py lists was compiled: none fell back to plain
    assert built["summary"] == f"compiled: {len(manifest)} of {len(manifest)} modules (Cython)"
    assert all(not f.endswith(".py") for f in built["files"].values())
    plain = json.loads(_run(code, WAYFARERS_PURE="1").stdout)
    assert plain["summary"].startswith("plain Python (WAYFARERS_PURE=1")
    assert all(f.endswith(".py") for f in plain["files"].values()) and len(plain["files"]) == len(manifest)


@needs_build
def test_an_edited_module_runs_as_plain_python_with_a_warning():
    # a second guard behind the installed one, whose manifest says rules/bag.py has changed
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('probe', {str(ROOT / 'compiled.py')!r})\n"
        "probe = importlib.util.module_from_spec(spec); spec.loader.exec_module(probe)\n"
        "guard = next(f for f in sys.meta_path if isinstance(f, probe.CompiledGuard))\n"
        "guard.manifest = {**guard.manifest, 'wayfarers_env.rules.bag': '0' * 64}\n"
        "import wayfarers_env.rules.bag as bag, wayfarers_env.rules.dice as dice\n"
        "print(bag.__file__); print(dice.__file__)"
    )
    out = _run(code)
    bag_file, dice_file = out.stdout.split()
    assert bag_file.endswith("bag.py") and not dice_file.endswith(".py")
    assert "wayfarers_env.rules.bag changed since it was compiled" in out.stderr


@needs_build
def test_compiled_and_plain_python_play_the_same_games():
    # random masked play through the AEC env, base game and expansion, 4 players: every observation and reward hashed
    code = (
        "import hashlib, random, numpy as np\n"
        "from wayfarers_env import env\n"
        "h = hashlib.sha256()\n"
        "for tides in (False, True):\n"
        "    e = env(num_players=4, tides_of_trade=tides); e.reset(seed=7); rng = random.Random(7)\n"
        "    for agent in e.agent_iter(max_iter=3000):\n"
        "        obs, reward, term, trunc, _ = e.last()\n"
        "        h.update(obs['observation'].tobytes()); h.update(obs['action_mask'].tobytes()); h.update(repr(reward).encode())\n"
        "        legal = np.flatnonzero(obs['action_mask'])\n"
        "        e.step(None if term or trunc else int(legal[rng.randrange(len(legal))]))\n"
        "    h.update(repr(e.unwrapped.game.scores()).encode())\n"
        "print(h.hexdigest())"
    )
    assert _run(code).stdout == _run(code, WAYFARERS_PURE="1").stdout


@needs_build
def test_the_bots_choose_alike_compiled_and_plain(tmp_path):
    # the bots' evaluation, lookahead and search are compiled too: one seeded game of the search against cartographer, both ways
    runs = {}
    for pure in ("0", "1"):
        out = tmp_path / f"pure{pure}"
        code = (
            "import sys\n"
            "from experiments.cli import main\n"
            f"sys.exit(main(['simulate', '--players', 'ismcts:sims=8,cartographer', '--games', '1', '--seed', '3', "
            f"'--workers', '1', '--quiet', '--out', {str(out)!r}]))"
        )
        _run(code, WAYFARERS_PURE=pure)
        runs[pure] = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(runs["0"]) == 1 and len(runs["0"][0]["actions"]) > 100
    assert [r["actions"] for r in runs["0"]] == [r["actions"] for r in runs["1"]]
    assert [r["scores"] for r in runs["0"]] == [r["scores"] for r in runs["1"]]
