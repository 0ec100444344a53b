"""``wayfarers view`` from the shell, and the page it writes opened in headless Chromium.

The command is run as a user runs it; the page is checked twice: its embedded data against the
record (in Python), and its script in a real browser, where the page's ``#selftest`` mode steps
with its own keys and writes PASS or FAIL into the DOM that ``--dump-dom`` prints.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from experiments.cli import main
from wayfarers_env import Game, describe_action

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_CHROMIUM = "Chromium is not installed (Debian: apt-get install -y chromium; CI's .ci/run installs it): no browser test of the page"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """A games.jsonl per kind of game the viewer must show: base, Tides of Trade, solo."""
    root = tmp_path_factory.mktemp("view")
    options = {
        "base": ["--players", "greedy,random", "--games", "2", "--seed", "5"],
        "tides": ["--players", "random,greedy", "--games", "1", "--seed", "6", "--tides-of-trade"],
        "solo": ["--players", "greedy", "--solo-board", "3", "--games", "1", "--seed", "7"],
    }
    for name, args in options.items():
        assert main(["simulate", *args, "--out", str(root / name), "--quiet"]) == 0
    return {name: root / name / "games.jsonl" for name in options}


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def view(*args: str) -> subprocess.CompletedProcess:
    res = subprocess.run([sys.executable, "-m", "experiments.cli", "view", *map(str, args)], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in res.stderr, res.stderr
    return res


def embedded(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script id="game-data" type="application/json">(.*?)</script>', text, re.S)
    assert found, "no game data in the page"
    return json.loads(found.group(1))


def tables(data: dict) -> list[dict]:
    """The full table at each step, from the changed fields (as the page's script builds it)."""
    out, table = [], {}
    for step in data["steps"]:
        table = {**table, **{name: {**table.get(name, {}), **fields} for name, fields in step["c"].items()}}
        out.append(table)
    return out


def test_the_page_holds_the_recorded_game(runs, tmp_path):
    path = runs["base"]
    res = view(path, "--game", "1")
    page = path.parent / "game_1.html"
    assert res.returncode == 0 and res.stderr == ""
    assert re.fullmatch(rf"wrote {re.escape(str(page))} \(\d+ steps, \d+ KB\)\n", res.stdout), res.stdout
    record = records(path)[1]
    data = embedded(page)
    assert data["scores"] == record["scores"] and data["winners"] == record["winners"]
    assert data["players"] == record["players"]
    steps = data["steps"]
    assert len(steps) == len(record["actions"]) + 1  # a step per action, then the end
    assert [s["a"] for s in steps[:-1]] == [describe_action(a) for a in record["actions"]]
    assert steps[-1]["k"] == "game over" and "a" not in steps[-1]
    final = tables(data)[-1]
    assert [final[f"p{seat}"]["score"] for seat in range(2)] == record["scores"]  # the replayed end is the record's
    assert steps[0]["t"] == 0 and steps[-1]["t"] == record["turns"] - 1
    start = Game(record["config"], record["seed"]).state  # the market dealt at the start, named in the page
    assert [slot[0] for slot in tables(data)[0]["market"]["slots"]] == start.market
    assert [data["content"]["cards"][c][0] for c in start.market] == [start.tables.cards[c].name for c in start.market]


def test_the_page_is_self_contained_and_small(runs):
    res = view(runs["base"], "--game", "0")
    assert res.returncode == 0, res.stderr
    text = (runs["base"].parent / "game_0.html").read_text()
    assert not re.search(r"<(script|img|iframe)[^>]*\bsrc=|<link\b|https?://|@import|fetch\(|XMLHttpRequest", text)
    assert len(text.encode()) < 400_000  # a two-player game; the fields that changed, not a table per step


def test_same_record_same_page(runs, tmp_path):
    """Determinism: the page is a function of the record."""
    assert view(runs["tides"], "--out", tmp_path / "a.html").returncode == 0
    assert view(runs["tides"], "--out", tmp_path / "b.html").returncode == 0
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()


def test_an_existing_page_is_kept_unless_overwrite(runs, tmp_path):
    out = tmp_path / "page.html"
    out.write_text("keep me")
    res = view(runs["base"], "--out", out)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == f"error: {out} exists: add --overwrite to replace it, or give another --out\n"
    assert out.read_text() == "keep me"
    res = view(runs["base"], "--out", out, "--overwrite")
    assert res.returncode == 0 and embedded(out)["scores"] == records(runs["base"])[0]["scores"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]  # no temporary file left


def _broken(record: dict) -> dict:
    return {**record, "seed": "12"}


def _wrong_action(record: dict) -> dict:
    return {**record, "actions": [record["actions"][0], -5, *record["actions"][2:]]}


@pytest.mark.parametrize(
    "make, args, message",
    [
        (lambda r: json.dumps(_broken(r)) + "\n", [], "games.jsonl line 1: field 'seed' should be an integer, found \"12\""),
        (lambda r: json.dumps(r)[:200], [], "games.jsonl line 1: the file ends in the middle of this record (truncated)"),
        (lambda r: json.dumps(_wrong_action(r)) + "\n", [], "games.jsonl line 1: action #1 (-5) does not replay"),
        (lambda r: json.dumps({**r, "scores": [{**r["scores"][0], "total": 999}, r["scores"][1]]}) + "\n", [], "does not reproduce"),
        (lambda r: json.dumps(r) + "\n", ["--game", "5"], "--game 5 is out of range: games.jsonl holds 1 games (0..0)"),
        (lambda r: json.dumps(r) + "\n", ["--game", "-1"], "--game -1 is out of range"),
        (lambda r: json.dumps(r) + "\n", ["--game", "one"], "argument --game: invalid int value: 'one'"),
        (lambda r: json.dumps(r) + "\n", ["--out", "{dir}/no/such/page.html"], "folder {dir}/no/such does not exist"),
        (lambda r: json.dumps(r) + "\n", ["--out", "{dir}"], "--out {dir} is a directory"),
        (None, [], "games.jsonl: no such file"),
    ],
    ids=["field", "truncated", "action", "scores", "game-high", "game-negative", "game-word", "out-folder", "out-dir", "missing"],
)
def test_bad_input_is_one_error_line_and_writes_nothing(runs, tmp_path, make, args, message):
    path = tmp_path / "games.jsonl"
    if make is not None:
        path.write_text(make(records(runs["base"])[0]))
    before = sorted(tmp_path.rglob("*"))
    res = view(path, *[a.format(dir=tmp_path) for a in args])
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith("error: ") and message.format(dir=tmp_path) in res.stderr, res.stderr
    assert len(res.stderr.splitlines()) == 1
    assert sorted(tmp_path.rglob("*")) == before  # no page, no temporary file


def test_a_corrupt_record_gets_the_replay_error(runs, tmp_path):
    """The same checks as replay, so the same words."""
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(_wrong_action(records(runs["base"])[0])) + "\n")
    replayed = subprocess.run([sys.executable, "-m", "experiments.cli", "replay", str(path)], capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 2 and view(path).stderr == replayed.stderr


def chromium_dom(page: Path, fragment: str, profile: Path) -> str:
    """The DOM after the page's scripts ran, as headless Chromium prints it."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}"]
    cmd += ["--dump-dom", f"{page.as_uri()}#{fragment}"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and "</html>" in res.stdout, res.stderr[-2000:]
    return res.stdout


def _element(dom: str, ident: str) -> str:
    found = re.search(rf'<div id="{ident}"[^>]*>(.*?)</div>', dom, re.S)
    assert found, f"no #{ident} in the page"
    return html.unescape(found.group(1))


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
@pytest.mark.parametrize("kind", ["base", "tides", "solo"])
def test_the_page_in_headless_chromium(runs, tmp_path, kind):
    """No script error; stepping forward and back changes and restores the shown state (the
    page's self-test, through its keys); the final scores shown are the record's."""
    page = tmp_path / "game.html"
    assert view(runs[kind], "--out", page).returncode == 0
    dom = chromium_dom(page, "selftest", tmp_path / "profile")
    assert _element(dom, "errors") == ""
    assert _element(dom, "selftest").startswith("SELFTEST PASS"), _element(dom, "selftest")
    record = records(runs[kind])[0]
    shown = {(int(s), k): int(v) for s, k, v in re.findall(r'<td data-seat="(\d)" data-source="(\w+)">(-?\d+)</td>', dom)}
    assert shown == {(seat, k): v for seat, score in enumerate(record["scores"]) for k, v in score.items()}


@pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)
def test_a_link_opens_the_page_at_a_step(runs, tmp_path):
    page = tmp_path / "game.html"
    assert view(runs["base"], "--out", page).returncode == 0
    steps = embedded(page)["steps"]
    dom = chromium_dom(page, "step=40", tmp_path / "profile")
    assert f"step 40 / {len(steps) - 1} · turn {steps[40]['t'] + 1}" in html.unescape(dom)
    assert html.escape(steps[40]["a"], quote=False) in dom  # the action of that step


def test_help_loads_no_engine():
    code = "import sys\nfrom experiments.cli import main\ntry: main(['view', '--help'])\nexcept SystemExit: pass\n"
    code += "print('numpy' in sys.modules)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.stdout.splitlines()[-1] == "False" and "--overwrite" in res.stdout
