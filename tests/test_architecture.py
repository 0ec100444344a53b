"""The package's shape (docs/ARCHITECTURE.md): layers point one way, no import loops, bots use the
engine's public surface, and every module can be imported first.

The import graph counts every import statement, also those inside functions, since a deferred
import is still a dependency a reader has to follow.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "wayfarers_env"

# a module may import from its own layer and the layers before it
LAYERS = ("wayfarers_env.vocabulary", "wayfarers_env.content", "wayfarers_env.rules", "wayfarers_env.envs", "wayfarers_env")
# what bots may use: the package root, the game's words and content, the state they read, the query
# API, the catalog and scoring's names, and the environment layer's player interface / observation
BOT_SURFACE = (
    "wayfarers_env",
    "wayfarers_env.vocabulary",
    "wayfarers_env.content",
    "wayfarers_env.rules.queries",
    "wayfarers_env.rules.state",
    "wayfarers_env.rules.tables",
    "wayfarers_env.rules.actions",
    "wayfarers_env.rules.scoring",
    "wayfarers_env.envs",
)


def _modules(root: Path, package: str) -> dict[str, Path]:
    out = {}
    for f in root.rglob("*.py"):
        parts = f.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = f
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Modules (of ``known``, or top-level names otherwise) imported anywhere in the file."""
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                out.add(full if full in known else base)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


MODULES = _modules(PKG, "wayfarers_env")
GRAPH = {m: {t for t in _imports(m, f, MODULES) if t in MODULES and t != m} for m, f in MODULES.items()}


def _layer(module: str) -> int:
    return max(i for i, prefix in enumerate(LAYERS) if module == prefix or module.startswith(prefix + "."))


def test_layers_point_one_way():
    wrong = [
        f"{m} -> {t}"
        for m, targets in GRAPH.items()
        for t in targets
        if _layer(t) > _layer(m) and not (m == "wayfarers_env.rules" and t == "wayfarers_env.rules.engine")
    ]
    assert not wrong, "imports from a later layer: " + ", ".join(wrong)


def test_the_engine_package_imports_no_bots_tools_or_benchmarks():
    outside = [
        f"{m} -> {t}"
        for m, f in MODULES.items()
        for t in _imports(m, f, MODULES)
        if t.split(".")[0] in ("agents", "experiments", "benchmarks")
    ]
    assert not outside


def test_no_import_loops():
    """Apart from the rules package's __init__ building the engine on first import, no module of
    wayfarers_env reaches itself through its imports."""
    graph = {m: set(t) for m, t in GRAPH.items()}
    graph["wayfarers_env.rules"].discard("wayfarers_env.rules.engine")
    loops = []
    for start in graph:
        seen, todo = set(), list(graph[start])
        while todo:
            m = todo.pop()
            if m == start:
                loops.append(start)
                break
            if m not in seen:
                seen.add(m)
                todo.extend(graph[m])
    assert not loops, f"modules in import loops: {sorted(loops)}"


def test_bots_use_the_public_surface():
    """agents/ imports only the engine's public modules and reads no private names of other objects
    (``game._legal``, ``bag._leaves``...)."""
    agents = _modules(ROOT / "agents", "agents")
    bad = []
    for m, f in agents.items():
        for t in _imports(m, f, MODULES):
            if t.startswith("wayfarers_env") and not any(t == s or t.startswith(s + ".") for s in BOT_SURFACE if s != "wayfarers_env"):
                if t != "wayfarers_env":
                    bad.append(f"{m} imports {t}")
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    bad.append(f"{m} reads {ast.unparse(node)}")
    assert not bad, bad


ENTRY_POINTS = [
    "wayfarers_env.rules.actions",
    "wayfarers_env.rules.frames",
    "wayfarers_env.rules.icons",
    "wayfarers_env.rules.state",
    "wayfarers_env.content",
    "wayfarers_env.content.effects",
    "wayfarers_env.envs.observation",
    "wayfarers_env.envs.wrappers",
    "agents",
]


@pytest.mark.parametrize("module", ENTRY_POINTS)
def test_any_module_can_be_imported_first(module):
    """A fresh interpreter that imports this module first sees the whole engine (the catalog built,
    every icon declared)."""
    code = f"import {module}; from wayfarers_env import NUM_ACTIONS, Game; Game(None, 1); print(NUM_ACTIONS)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout) > 0


def test_only_the_engine_counts_changes():
    """Change counters are bumped in one place (rules/engine.py, from each rule's declared writes);
    a rule module cannot forget them because it never touches them. State creation (state.py,
    saves.py) only starts them at zero."""
    writers = []
    for m, f in MODULES.items():
        for node in ast.walk(ast.parse(f.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
            for target in targets:
                base = target.value if isinstance(target, ast.Subscript) else target
                if isinstance(base, ast.Attribute) and base.attr in ("seat_ver", "board_ver"):
                    if isinstance(node, ast.AugAssign) or isinstance(target, ast.Subscript):
                        writers.append(m)
    assert set(writers) == {"wayfarers_env.rules.engine"}, writers
