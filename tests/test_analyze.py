"""``wayfarers analyze``, run from the shell as a user runs it, on a small tournament and a training
run's evaluations.csv: the files it writes, its numbers checked against the logs and records, the
report opened in headless Chromium (Debian's ``chromium``), and every mistake as one ``error:``
line that writes nothing."""

from __future__ import annotations

import base64
import csv
import html
import json
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from experiments.game_log import VP_SOURCES
from experiments.stats import Rating, ranks, wilson

CLI = [sys.executable, "-m", "experiments.cli"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
TOURNAMENT_PLOTS = {
    "ratings",
    "pairwise",
    "vp_by_source",
    "score_distribution",
    "game_length",
    "seat_advantage",
    "cards_lift",
    "tiles_lift",
    "journal_timing",
    "clusters",
}
TOURNAMENT_TABLES = {
    "leaderboard",
    "pairwise_matrix",
    "pairwise",
    "vp_by_source",
    "score_distribution",
    "game_length",
    "seat_advantage",
    "cards_lift",
    "tiles_lift",
    "journal_timing",
    "clusters",
    "cluster_mix",
}
EVALUATIONS = [  # what wayfarers train writes, two evaluations against two bots
    "timesteps,wall_seconds,opponent,games,win_rate,win_low,win_high,mean_margin",
    "1000,10.0,random,10,0.5,0.2366,0.7634,1.5",
    "1000,12.0,greedy,10,0.0,0.0,0.2775,-40.0",
    "2000,20.0,random,10,1.0,0.7225,1.0,60.0",
    "2000,22.0,greedy,10,0.2,0.0567,0.5098,-20.0",
]


def wayfarers(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    res = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600)
    assert "Traceback" not in res.stderr, res.stderr
    if check:
        assert res.returncode == 0, res.stderr
    return res


def table(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("inputs")
    league = root / "league"
    wayfarers("tournament", "--bots", "random,cartographer", "--games", "4", "--seed", "11", "--out", str(league), "--quiet")
    train = root / "ppo_run"
    train.mkdir()
    (train / "evaluations.csv").write_text("\n".join(EVALUATIONS) + "\n")
    return {"league": league, "train": train, "root": root}


@pytest.fixture(scope="module")
def report(inputs) -> tuple[Path, subprocess.CompletedProcess]:
    out = inputs["root"] / "report"
    res = wayfarers("analyze", str(inputs["league"]), str(inputs["train"]), "--out", str(out), "--min-seats", "1")
    return out, res


def rows(folder: Path) -> list[dict]:
    return [r for p in sorted((folder / "logs").glob("*.parquet")) for r in pq.read_table(p).to_pylist()]


# ------------------------------------------------------------------------------- the files


def test_the_report_holds_every_plot_and_table(report, inputs):
    out, res = report
    plots = {p.stem for p in (out / "plots").glob("*.png")}
    assert plots == TOURNAMENT_PLOTS | {"learning_curve_ppo_run", "margin_curves", "checkpoint_league"}
    tables = {p.stem for p in (out / "tables").glob("*.csv")}
    assert tables == TOURNAMENT_TABLES | {"learning_curves", "checkpoint_league"}
    assert f"wrote {out / 'report.html'}, {len(plots)} plots in {out / 'plots'} and {len(tables)} tables in {out / 'tables'}" in res.stdout
    page = (out / "report.html").read_text()
    embedded = {
        name: data
        for data, name in re.findall(r'<img src="data:image/png;base64,([^"]+)" alt="[^"]*" data-file="plots/([^"]+)\.png"', page)
    }
    assert set(embedded) == plots
    for name, data in embedded.items():  # the page shows the very PNG written beside it
        assert base64.b64decode(data) == (out / "plots" / f"{name}.png").read_bytes()
        assert (out / "plots" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http://" not in page and "https://" not in page and "<link" not in page  # nothing fetched from elsewhere
    assert f"wayfarers analyze {inputs['league']} {inputs['train']} --out {out} --min-seats 1" in html.unescape(page)


def test_the_leaderboard_is_the_tournament_s(report, inputs):
    out, res = report
    summary = json.loads((inputs["league"] / "summary.json").read_text())
    board = {r["bot"]: r for r in table(out / "tables" / "leaderboard.csv")}
    for row in summary["leaderboard"]:
        got = board[row["bot"]]
        assert int(got["rank"]) == row["rank"] and int(got["games"]) == row["games"]
        for key in ("mu", "sigma", "ordinal"):  # the same games, the same fit
            assert float(got[key]) == pytest.approx(row[key], abs=1e-9)
        assert float(got["win_rate"]) == pytest.approx(row["win_rate"], abs=1e-4)
        assert float(got["win_rate_lo"]) == pytest.approx(row["win_rate_95"][0], abs=1e-4)
        assert float(got["margin_mean"]) == pytest.approx(row["margin_mean"], abs=0.01)
    best = summary["leaderboard"][0]
    assert f"leaderboard: 1. {best['bot']} ({100 * best['win_rate']:.1f}% wins)" in res.stdout
    pairs = {(r["bot"], r["opponent"]): r for r in table(out / "tables" / "pairwise.csv")}
    for a, others in summary["pairwise"].items():
        for b, p in others.items():
            assert float(pairs[(a, b)]["ahead_rate"]) == pytest.approx(p["ahead_rate"], abs=1e-4)


def test_the_tables_are_the_logs_counted(report, inputs):
    out, _res = report
    seats = rows(inputs["league"])
    assert len(seats) == 16
    by_bot = defaultdict(list)
    for r in seats:
        by_bot[r["bot"]].append(r)
    for r in table(out / "tables" / "vp_by_source.csv"):
        mine = by_bot[r["bot"]]
        assert int(r["games"]) == len(mine)
        for s in VP_SOURCES:
            if s in r:
                assert float(r[s]) == pytest.approx(sum(x[f"vp_{s}"] for x in mine) / len(mine))
    for r in table(out / "tables" / "seat_advantage.csv"):
        mine = [x for x in seats if x["seat"] == int(r["seat"])]
        wins = sum(x["won"] for x in mine)
        assert int(r["games"]) == len(mine) == 8 and float(r["win_rate"]) == pytest.approx(wins / 8)
        assert float(r["win_rate_hi"]) == pytest.approx(wilson(wins, 8)[1])
    (length,) = table(out / "tables" / "game_length.csv")
    turns = [x["turns"] for x in seats if x["seat"] == 0]
    assert int(length["games"]) == 8 and float(length["turns_mean"]) == pytest.approx(sum(turns) / 8)
    cards = {r["item"]: r for r in table(out / "tables" / "cards_lift.csv")}
    card = max(cards, key=lambda c: int(cards[c]["seats"]))
    took = [x for x in seats if card in x["cards"]]
    expected = len(took) * (sum(x["won"] for x in seats) / len(seats))  # one table size: its base rate
    assert int(cards[card]["seats"]) == len(took)
    assert float(cards[card]["lift"]) == pytest.approx(sum(x["won"] for x in took) / expected)
    assert float(cards[card]["lift_lo"]) <= float(cards[card]["lift"]) <= float(cards[card]["lift_hi"])
    journal = {(r["bot"], int(r["column"])): r for r in table(out / "tables" / "journal_timing.csv")}
    mine = by_bot["cartographer"]
    reached = [x["journal_turn"][2] for x in mine if x["journal_turn"][2] is not None]
    assert float(journal[("cartographer", 2)]["share_reached"]) == pytest.approx(len(reached) / len(mine))
    if reached:
        assert float(journal[("cartographer", 2)]["turn_mean"]) == pytest.approx(sum(reached) / len(reached))
    groups = table(out / "tables" / "clusters.csv")
    assert sum(int(g["seats"]) for g in groups) == 16 and [int(g["cluster"]) for g in groups] == list(range(1, len(groups) + 1))
    assert [int(g["seats"]) for g in groups] == sorted((int(g["seats"]) for g in groups), reverse=True)
    mix = defaultdict(float)
    for r in table(out / "tables" / "cluster_mix.csv"):
        mix[r["bot"]] += float(r["share"])
    assert mix == pytest.approx({"random": 1.0, "cartographer": 1.0})


def test_training_runs_give_curves_and_a_checkpoint_league(report):
    out, _res = report
    curves = table(out / "tables" / "learning_curves.csv")
    assert sorted((r["timesteps"], r["opponent"], r["win_rate"]) for r in curves) == sorted(
        (line.split(",")[0], line.split(",")[2], line.split(",")[4]) for line in EVALUATIONS[1:]
    )
    league = {r["entrant"]: r for r in table(out / "tables" / "checkpoint_league.csv")}
    assert set(league) == {"ppo_run@1000", "ppo_run@2000", "random", "greedy"}
    assert league["ppo_run@2000"]["kind"] == "checkpoint" and league["greedy"]["kind"] == "reference bot"
    ordinal = {k: float(v["ordinal"]) for k, v in league.items()}
    assert ordinal["ppo_run@2000"] > ordinal["ppo_run@1000"]  # it won more, against both bots
    assert ordinal["greedy"] > ordinal["random"]


def test_the_same_inputs_give_the_same_report(report, inputs, tmp_path):
    out, _res = report
    again = tmp_path / "again"
    wayfarers("analyze", str(inputs["league"]), str(inputs["train"]), "--out", str(again), "--min-seats", "1")
    for path in sorted(out.rglob("*.csv")) + sorted(out.rglob("*.png")):
        assert (again / path.relative_to(out)).read_bytes() == path.read_bytes(), path.name
    assert (again / "report.html").read_text().replace(str(again), str(out)) == (out / "report.html").read_text()


def test_tournaments_are_analysed_together(inputs, tmp_path):
    other = tmp_path / "second"
    wayfarers("tournament", "--bots", "cartographer,random", "--games", "1", "--seed", "3", "--out", str(other), "--quiet")
    out = tmp_path / "both"
    res = wayfarers("analyze", str(inputs["league"]), str(other), "--out", str(out))
    assert "read 2 tournament runs (20 game-seat rows) and no training run" in res.stdout
    board = {r["bot"]: r for r in table(out / "tables" / "leaderboard.csv")}
    assert {b: int(r["games"]) for b, r in board.items()} == {"random": 10, "cartographer": 10}
    league = Rating()  # one fit over both runs' games
    for folder in (inputs["league"], other):
        for line in (folder / "games.jsonl").read_text().splitlines():
            rec = json.loads(line)
            league.rate(rec["players"], ranks([s["total"] for s in rec["scores"]], rec["winners"]))
    for bot, r in league.result().items():
        assert float(board[bot]["mu"]) == pytest.approx(r["mu"], abs=1e-9) and float(board[bot]["sigma"]) == pytest.approx(
            r["sigma"], abs=1e-9
        )
    assert not (out / "plots" / "checkpoint_league.png").exists()
    page = (out / "report.html").read_text()
    assert str(inputs["league"]) in page and str(other) in page


# --------------------------------------------------------------------- the page in a browser

CHECK = """<script>
window.__errors = [];
window.addEventListener('error', function (e) { window.__errors.push(String(e.message)); });
window.addEventListener('load', function () {
  var out = {errors: window.__errors, images: [], tables: [], sorted: []};
  document.querySelectorAll('img').forEach(function (img) {
    out.images.push({file: img.getAttribute('data-file'), width: img.naturalWidth, complete: img.complete});
  });
  document.querySelectorAll('table').forEach(function (t) {
    out.tables.push({file: t.getAttribute('data-file'), rows: t.tBodies[0].rows.length, sortable: t.classList.contains('sortable')});
  });
  var t = document.getElementById('table-score_distribution');
  var heads = t.tHead.rows[0].cells, col = -1;
  for (var i = 0; i < heads.length; i++) if (heads[i].textContent.trim() === 'mean') col = i;
  function column() {
    return Array.prototype.map.call(t.tBodies[0].rows, function (r) { return parseFloat(r.cells[col].getAttribute('data-v')); });
  }
  heads[col].click(); out.sorted.push(column());
  heads[col].click(); out.sorted.push(column());
  var pre = document.createElement('pre'); pre.id = 'check-result'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


@pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install -y chromium): the report's browser check is skipped"
)
def test_the_report_in_headless_chromium(report, tmp_path):
    out, _res = report
    page = (out / "report.html").read_text()
    checked = out.parent / "checked.html"  # beside the report, so that it opens as the report does
    checked.write_text(page.replace("<head>", "<head>" + CHECK, 1))
    cmd = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--virtual-time-budget=10000",
        "--enable-logging=stderr",
        "--v=0",
        "--dump-dom",
        checked.as_uri(),
    ]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="check-result">(.*?)</pre>', res.stdout, re.S)
    assert found, (res.returncode, res.stderr[-2000:])
    result = json.loads(html.unescape(found.group(1)))
    assert result["errors"] == [] and "Uncaught" not in res.stderr, (result["errors"], res.stderr[-2000:])
    pngs = {f"plots/{p.name}" for p in (out / "plots").glob("*.png")}
    assert {img["file"] for img in result["images"]} == pngs and len(result["images"]) == len(pngs)
    assert all(img["complete"] and img["width"] > 300 for img in result["images"]), result["images"]
    csvs = {f"tables/{p.name}": len(table(p)) for p in (out / "tables").glob("*.csv")}
    assert {t["file"]: t["rows"] for t in result["tables"]} == csvs  # every table, every row
    assert all(t["sortable"] for t in result["tables"])
    up, down = result["sorted"]
    assert up == sorted(up) and down == sorted(up, reverse=True) and len(up) == 2


# ------------------------------------------------------------------------------- mistakes


def _one_error(res: subprocess.CompletedProcess, *words: str) -> None:
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert res.stderr.startswith("error: ") and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert res.stdout == ""
    for w in words:
        assert w in res.stderr, (w, res.stderr)


def _damaged(root: Path, kind: str, inputs: dict[str, Path]) -> Path:
    """A folder that analyze must refuse."""
    d = root / kind
    if kind == "empty":
        d.mkdir()
    elif kind == "simulate":
        wayfarers("simulate", "--players", "random,random", "--games", "1", "--out", str(d), "--quiet")
    elif kind == "corrupt":
        shutil.copytree(inputs["league"], d)
        part = next((d / "logs").glob("*.parquet"))
        part.write_bytes(part.read_bytes()[:100])
    elif kind == "old_columns":
        shutil.copytree(inputs["league"], d)
        part = next((d / "logs").glob("*.parquet"))
        pq.write_table(pq.read_table(part).drop_columns(["journal_turn"]), part)
    elif kind == "bad_csv":
        d.mkdir()
        (d / "evaluations.csv").write_text("timesteps,opponent,games\n1000,random,10\n")
    elif kind == "bad_number":
        d.mkdir()
        (d / "evaluations.csv").write_text(EVALUATIONS[0] + "\n1000,10.0,random,ten,0.5,0.2,0.7,1.5\n")
    return d


@pytest.mark.parametrize(
    "kind, words",
    [
        ("missing", ["is not a folder"]),
        ("empty", ["holds neither a tournament's Parquet logs", "evaluations.csv"]),
        ("simulate", ["holds games.jsonl but no Parquet logs", "wayfarers tournament --out"]),
        ("corrupt", ["cannot be read as Parquet", "seats-00000000-00000007.parquet"]),
        ("old_columns", ["lacks the columns journal_turn"]),
        ("bad_csv", ["evaluations.csv lacks the columns win_rate, win_low, win_high, mean_margin"]),
        ("bad_number", ["evaluations.csv has a value that is not a number"]),
    ],
)
def test_a_bad_folder_is_one_line_and_writes_nothing(inputs, tmp_path, kind, words):
    d = tmp_path / "missing" if kind == "missing" else _damaged(tmp_path, kind, inputs)
    out = tmp_path / "report"
    _one_error(wayfarers("analyze", str(d), "--out", str(out), check=False), str(d.name), *words)
    assert not out.exists()


def test_the_output_folder_is_checked_first(inputs, report, tmp_path):
    league = str(inputs["league"])
    (tmp_path / "file").write_text("x")
    _one_error(wayfarers("analyze", league, "--out", str(tmp_path / "file"), check=False), "is a file")
    out, _res = report
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    _one_error(wayfarers("analyze", league, "--out", str(out), check=False), "already holds a report", "--overwrite")
    _one_error(wayfarers("analyze", league, league, "--out", str(tmp_path / "r"), check=False), "given twice")
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert not (tmp_path / "r").exists()
    res = subprocess.run([*CLI, "analyze", "--out", str(tmp_path / "r")], capture_output=True, text=True)
    assert res.returncode == 2 and res.stderr.startswith("error: ") and "DIR" in res.stderr


def test_overwrite_replaces_the_report(inputs, tmp_path):
    out = tmp_path / "report"
    wayfarers("analyze", str(inputs["train"]), "--out", str(out))
    assert {p.stem for p in (out / "plots").glob("*.png")} == {"learning_curve_ppo_run", "margin_curves", "checkpoint_league"}
    (out / "mine.txt").write_text("kept")
    wayfarers("analyze", str(inputs["league"]), "--out", str(out), "--overwrite")
    # no stale plot of the run before; no lift plot: no card is taken in the default 30 game-seats of 8 games
    assert {p.stem for p in (out / "plots").glob("*.png")} == TOURNAMENT_PLOTS - {"cards_lift", "tiles_lift"}
    assert "(none taken in at least 30 game-seats: lower --min-seats)" in (out / "report.html").read_text()
    assert (out / "mine.txt").read_text() == "kept"
    assert not list(tmp_path.glob(".report.*"))  # the folder it was built in is gone


def test_without_the_extra_it_is_named(inputs, tmp_path):
    code = "import sys\nsys.modules['polars'] = None\nfrom experiments.cli import main\nsys.exit(main(sys.argv[1:]))"
    res = subprocess.run(
        [sys.executable, "-c", code, "analyze", str(inputs["league"]), "--out", str(tmp_path / "r")], capture_output=True, text=True
    )
    _one_error(res, "polars", 'pip install -e ".[analysis]"')
    assert not (tmp_path / "r").exists()


def test_the_benchmark_runs_at_a_small_size():
    """benchmarks/bench_analysis.py as docs/PERFORMANCE.md runs it, on 400 rows and two games."""
    cmd = [sys.executable, "-m", "benchmarks.bench_analysis", "--rows", "400", "--deals", "1", "--rounds", "1"]
    res = subprocess.run([*cmd, "--bots", "random,cartographer", "--players-per-game", "2"], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    rows, games = map(
        lambda x: int(x.replace(",", "")), re.search(r"analysis of ([\d,]+) game-seat rows \(([\d,]+) games\)", res.stdout).groups()
    )
    assert 396 <= rows <= 400 and rows / 4 <= games <= rows / 2
    assert float(re.search(r"wayfarers analyze, one run \(wall\)\s+([\d.]+) s", res.stdout).group(1)) > 0
    assert "logging 2 games of random,cartographer at tables of 2:" in res.stdout
    assert 0 <= float(re.search(r"cost of the logs\s+([\d.]+) %", res.stdout).group(1)) < 100
