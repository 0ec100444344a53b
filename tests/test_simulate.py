"""``wayfarers simulate`` and ``wayfarers replay``: records, determinism, round trips, bad files."""

from __future__ import annotations

import json

import pytest

from experiments.cli import main
from experiments.replay import ReplayError, load_record, rebuild
from experiments.stats import ranks, stdev, wilson
from experiments.tournament import derive_seed, schedule
from wayfarers_env import GameConfig
from wayfarers_env.rules.scoring import BASE_SOURCES as SOURCES  # base-game runs report these


def simulate(tmp_path, name: str, *extra: str, players: str = "greedy,random", games: int = 4) -> tuple[list[dict], dict]:
    out = tmp_path / name
    rc = main(["simulate", "--players", players, "--games", str(games), "--seed", "5", "--out", str(out), "--quiet", *extra])
    assert rc == 0
    lines = (out / "games.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines], json.loads((out / "summary.json").read_text())


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """One small run shared by the record and replay tests."""
    tmp = tmp_path_factory.mktemp("sim")
    records, summary = simulate(tmp, "run")
    return tmp / "run", records, summary


def test_records_hold_what_a_game_needs(run_dir):
    _, records, _ = run_dir
    assert len(records) == 4
    for i, rec in enumerate(records):
        assert rec["schema_version"] == 1 and rec["game"] == i
        assert GameConfig.from_dict(rec["config"]).num_players == 2
        assert isinstance(rec["seed"], int) and rec["finished"] is True
        assert sorted(rec["players"]) == ["greedy", "random"]
        assert len(rec["actions"]) == rec["decisions"] == sum(rec["seat_decisions"])
        totals = [s["total"] for s in rec["scores"]]
        for s in rec["scores"]:
            assert s["total"] == sum(s[k] for k in SOURCES)
        assert rec["winners"] and all(totals[w] == max(totals) for w in rec["winners"])
    # seats rotate within a block, and the block shares its deal
    assert records[0]["players"] == ["greedy", "random"] and records[1]["players"] == ["random", "greedy"]
    assert records[0]["seed"] == records[1]["seed"] != records[2]["seed"]
    assert records[0]["actions"] != records[1]["actions"]


def test_summary_and_table(run_dir, capsys):
    _, records, summary = run_dir
    assert summary["games"] == 4 and set(summary["entrants"]) == {"greedy", "random"}
    wins = sum(e["wins"] for e in summary["entrants"].values())
    assert wins == pytest.approx(4)
    for name, e in summary["entrants"].items():
        lo, hi = e["win_rate_95"]
        assert 0 <= lo <= e["win_rate"] <= hi <= 1
        totals = [r["scores"][r["players"].index(name)]["total"] for r in records]
        assert e["score_mean"] == pytest.approx(sum(totals) / 4, abs=0.01)
        assert set(e["vp_by_source"]) == set(SOURCES)
    assert summary["entrants"]["greedy"]["win_rate"] == 1.0  # greedy beats random
    assert summary["turns_mean"] == pytest.approx(sum(r["turns"] for r in records) / 4, abs=0.1)
    for key in ("rating", "openskill"):  # the whole-run fit, and the online ratings kept for scripts
        assert set(summary[key]) == {"greedy", "random"}
        assert summary[key]["greedy"]["mu"] > summary[key]["random"]["mu"]


def test_a_bot_against_itself_plays_independent_games(tmp_path):
    """Rotated games share a deal; with the bots' draws seeded per game and seat, random,random
    still plays different games (it used to play each deal twice, action for action)."""
    records, summary = simulate(tmp_path, "self", players="random,random", games=6)
    assert records[0]["seed"] == records[1]["seed"]
    actions = [tuple(r["actions"]) for r in records]
    assert len(set(actions)) == 6
    wins = [e["wins"] for e in summary["entrants"].values()]
    assert sum(wins) == pytest.approx(6)


def test_table_is_printed(tmp_path, capsys):
    assert main(["simulate", "--players", "random,random", "--games", "2", "--seed", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "95% CI" in out and "random#2" in out and "rating (whole-run fit, mu - 3 sigma): random" in out


def test_results_do_not_depend_on_the_worker_count(tmp_path):
    one, s1 = simulate(tmp_path, "w1", "--workers", "1", players="journal,random,cartographer", games=3)
    two, s2 = simulate(tmp_path, "w2", "--workers", "2", players="journal,random,cartographer", games=3)
    assert (tmp_path / "w1" / "games.jsonl").read_bytes() == (tmp_path / "w2" / "games.jsonl").read_bytes()
    for key in ("entrants", "rating", "openskill", "turns_mean"):
        if key == "entrants":
            strip = lambda d, timing={"ms_per_decision", "think_s"}: {  # noqa: E731
                k: {f: v for f, v in e.items() if f not in timing} for k, e in d.items()
            }
            assert strip(s1[key]) == strip(s2[key])
        else:
            assert s1[key] == s2[key]
    assert [r["players"] for r in one] == [
        ["journal", "random", "cartographer"],
        ["random", "cartographer", "journal"],
        ["cartographer", "journal", "random"],
    ]


def test_unknown_bot_is_a_clear_error(capsys):
    assert main(["simulate", "--players", "greedy,wizard", "--games", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "wizard" in err and "cartographer" in err


def test_schedule_and_seeds():
    specs = list(schedule(["a", "b", "c"], 7, 3, GameConfig(num_players=3)))
    assert [s.players for s in specs[:3]] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert len({s.seed for s in specs}) == 3 and specs[6].seed != specs[0].seed
    fixed = list(schedule(["a", "b"], 3, 3, GameConfig(), rotate=False))
    assert all(s.players == ("a", "b") for s in fixed) and len({s.seed for s in fixed}) == 3
    # every game and seat draws from its own generator, even where a deal is shared
    bot_seeds = [seed for s in specs for seed in s.bot_seeds]
    assert len(bot_seeds) == 21 and len(set(bot_seeds)) == 21
    assert list(schedule(["a", "b", "c"], 7, 3, GameConfig(num_players=3), start=5)) == specs[5:]
    assert derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(2, 1)


def test_stats():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)
    assert wilson(0, 20)[0] == 0.0 and 0 < wilson(0, 20)[1] < 0.2
    assert wilson(20, 20)[1] == 1.0
    assert stdev([1, 1, 1]) == 0 and stdev([2, 4]) == pytest.approx(2**0.5)
    assert ranks([10, 30, 20], [1]) == [3, 1, 2]
    assert ranks([30, 30, 5], [0, 1]) == [1, 1, 2]


# ------------------------------------------------------------------------------- replay


def test_replay_round_trip(run_dir, capsys):
    path = run_dir[0] / "games.jsonl"
    for k in range(4):
        line, rec = load_record(path, k)
        assert line == k + 1
        assert rebuild(rec).scores() == rec["scores"]
    assert main(["replay", str(path), "--game", "1"]) == 0
    out = capsys.readouterr().out
    assert "reproduces the recorded scores" in out and "-- turn 1: seat 0" in out and "winner" in out


def test_replay_step_mode_quits_on_request(run_dir, capsys, monkeypatch):
    answers = iter(["", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["replay", str(run_dir[0] / "games.jsonl"), "--step"]) == 0
    out = capsys.readouterr().out
    assert "-- turn 2:" in out and "-- turn 3:" not in out


def _write(tmp_path, lines: list[str], end: str = "\n"):
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + end)
    return path


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda lines: lines[:1] + [lines[1][:200]], "line 2: the file ends in the middle of this record (truncated)"),
        (lambda lines: [lines[0], "{not json", lines[2]], "line 2: corrupt JSON"),
        (
            lambda lines: [lines[0], json.dumps({k: v for k, v in json.loads(lines[1]).items() if k != "actions"})],
            "line 2: the record has no 'actions'",
        ),
        (lambda lines: [lines[0], json.dumps({**json.loads(lines[1]), "schema_version": 9})], "line 2: schema_version 9"),
        (lambda lines: ["[1, 2]"], "line 1: a game record is a JSON object"),
    ],
)
def test_damaged_files_name_the_line(run_dir, tmp_path, capsys, damage, message):
    lines = (run_dir[0] / "games.jsonl").read_text().splitlines()
    bad = damage(lines)
    path = _write(tmp_path, bad, end="" if "truncated" in message else "\n")
    assert main(["replay", str(path), "--game", "0"]) == 2
    assert message in capsys.readouterr().err


def test_replay_detects_tampering_and_bad_indices(run_dir, tmp_path, capsys):
    lines = (run_dir[0] / "games.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])
    rec["scores"][0]["total"] += 1
    path = _write(tmp_path, [json.dumps(rec)])
    assert main(["replay", str(path)]) == 2
    assert "does not reproduce the recorded scores" in capsys.readouterr().err
    rec = json.loads(lines[0])
    rec["actions"][3] = 9999
    with pytest.raises(ReplayError, match="action #3"):
        rebuild(rec)
    assert main(["replay", str(run_dir[0] / "games.jsonl"), "--game", "4"]) == 2
    assert "--game 4 is out of range" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
