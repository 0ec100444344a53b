"""The speed benchmark runs from both entry points and prints a table that can be read back.

No speed is asserted here (speed targets are checked by running the benchmark, see
docs/PERFORMANCE.md); these tests check that the table holds the loops asked for with positive
rates, that progress goes to stderr only, that the reference games are measured when the
[bench] extra is there and explained in one line when not, and that bad options are refused
with a message naming what is allowed.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from benchmarks import bench_env
from experiments.cli import main


def _rows(out: str) -> dict[str, list[str]]:
    rows = {}
    for line in out.splitlines():
        m = re.match(r"((?:wayfarers|Tides of Trade) (?:AEC|engine) \dp(?: \(no obs\))?|solo AEC \(AI boards 1-4\))\s+(.*)", line)
        if m:
            rows[m.group(1)] = m.group(2).split()
    return rows


def test_cli_bench_prints_a_row_per_loop(capsys):
    assert main(["bench", "--seconds", "0.6", "--rounds", "2", "--players", "2", "3", "--no-reference", "--all-cores"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert set(rows) == {
        "wayfarers AEC 2p",
        "wayfarers AEC 3p",
        "Tides of Trade AEC 2p",
        "Tides of Trade AEC 3p",
        "solo AEC (AI boards 1-4)",
        "wayfarers engine 2p (no obs)",
        "wayfarers engine 3p (no obs)",
    }
    for name, cells in rows.items():
        wall, unit, cpu = float(cells[0]), cells[1], float(cells[2])
        assert wall > 0 and cpu > 0, name
        assert unit == ("steps/s" if "AEC" in name else "decisions/s")
    assert re.search(r"peak RSS of this process: \d+ MiB", out)
    assert re.search(r"the AI's \d+ turns took \d+% of the loop's time, \d+ µs per AI turn", out)


BAD = [("--players", "5", "player counts 2, 3 or 4"), ("--rounds", "0", "at least 1")]
BAD += [("--seconds", v, "positive, finite number") for v in ("-1", "0", "inf", "nan", "ten")]


@pytest.mark.parametrize("option,value,message", BAD)
def test_bad_options_are_refused(capsys, option, value, message):
    with pytest.raises(SystemExit) as err:
        bench_env._parser().parse_args([option, value])
    assert err.value.code == 2
    assert message in capsys.readouterr().err
    with pytest.raises(SystemExit) as err:
        main(["bench", option, value])
    assert err.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: argument {option}: ") and message in lines[0]


def _shell(*args: str, block: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """``wayfarers bench ARGS`` in a fresh interpreter; ``block`` makes those modules unimportable
    there, as on a machine without the [bench] extra."""
    code = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in block)
    code += "from experiments.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, "bench", *args], capture_output=True, text=True, timeout=120)


QUICK = ("--seconds", "0.4", "--rounds", "2", "--players", "2", "--all-cores")


def test_progress_goes_to_stderr_and_the_table_to_stdout():
    res = _shell(*QUICK, "--no-reference")
    assert res.returncode == 0, res.stderr
    expected = {"wayfarers AEC 2p", "Tides of Trade AEC 2p", "solo AEC (AI boards 1-4)", "wayfarers engine 2p (no obs)"}
    assert set(_rows(res.stdout)) == expected
    assert "it/s" not in res.stdout and "loop/s" not in res.stdout and "%|" not in res.stdout
    assert "bench: 100%" in res.stderr and "8/8" in res.stderr  # one bar over 2 rounds x 4 loops
    assert "Traceback" not in res.stderr


def test_without_the_bench_extra_the_own_loops_are_measured_and_one_line_says_how_to_install():
    res = _shell(*QUICK, block=("pygame", "chess"))
    assert res.returncode == 0, res.stderr
    notes = [line for line in res.stderr.splitlines() if "reference games" in line]
    assert len(notes) == 1
    assert notes[0].startswith("note: ") and 'pip install -e ".[bench]"' in notes[0] and "--no-reference" in notes[0]
    assert "connect_four_v3 (pygame is missing)" in notes[0]
    rows = _rows(res.stdout)
    assert set(rows) == {"wayfarers AEC 2p", "Tides of Trade AEC 2p", "solo AEC (AI boards 1-4)", "wayfarers engine 2p (no obs)"}
    assert all(cells[-1] == "-" for cells in rows.values())  # no ratio without the reference
    assert "connect_four_v3 " not in res.stdout and "Traceback" not in res.stderr


HAVE_REFERENCES = bool(importlib.util.find_spec("pygame") and importlib.util.find_spec("chess"))


@pytest.mark.skipif(not HAVE_REFERENCES, reason='needs the [bench] extra: pip install -e ".[bench]"')
def test_with_the_bench_extra_the_reference_games_are_measured():
    res = _shell(*QUICK)
    assert res.returncode == 0, res.stderr
    assert "reference games not measured" not in res.stderr
    ref = re.search(r"^connect_four_v3\s+(\d+) steps/s .* 1\.00x / 1\.00x$", res.stdout, re.M)
    assert ref and int(ref.group(1)) > 0
    assert re.search(r"^chess_v6\s+\d+ steps/s", res.stdout, re.M)
    for name in ("wayfarers AEC 2p", "Tides of Trade AEC 2p"):
        ratio = _rows(res.stdout)[name][-3:]
        assert ratio[1] == "/" and float(ratio[0].rstrip("x")) > 0


def test_seeded_rates_plays_the_same_games_and_prints_rates():
    """benchmarks/seeded_rates.py (the A/B comparison in docs/PERFORMANCE.md) measures real games."""
    from benchmarks import seeded_rates

    assert seeded_rates.engine_rate(2) > 0 and seeded_rates.aec_rate(1) > 0


# ----------------------------------------------------------------- benchmarks/instructions.py


def _instructions(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "benchmarks.instructions", *args], capture_output=True, text=True, timeout=300, env=env)


def test_instructions_child_plays_the_measured_loop():
    """The loop callgrind counts (the child process), without callgrind: it plays the steps asked."""
    from benchmarks.instructions import play

    for loop in ("tides2", "base4", "c4"):
        play(loop, 120)  # raises on an illegal step or a broken env
    proc = _instructions("--child", "tides2", "50")
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--steps", "10", "5"], "0 <= N1 < N2"),
        (["--loops", "chess"], "invalid choice: 'chess'"),
    ],
)
def test_instructions_bad_options(args, message):
    proc = _instructions(*args)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


def test_instructions_without_valgrind_says_what_to_install():
    proc = _instructions("--loops", "base2", env={**os.environ, "PATH": "/nonexistent"})
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: valgrind is not installed (apt-get install valgrind); it counts the instructions"


def test_step_split_prints_each_part_for_both_games():
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.step_split", "--games", "1", "--sections"], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    rows = {
        line[:20].strip(): line[20:].split() for line in proc.stdout.splitlines()[2:] if line[:20].strip() and not line.startswith("steps")
    }
    from benchmarks.step_split import SECTIONS

    assert set(rows) == {"legal", "mask", "observation", "apply", "pick", "total", *SECTIONS}
    for name, (base, tides) in rows.items():
        assert float(base) >= 0 and float(tides) >= 0, name
    assert float(rows["_tides_board"][0]) == 0 < float(rows["_tides_board"][1])  # only the expansion has its board
    parts = ("legal", "mask", "observation", "apply", "pick")
    for col in (0, 1):
        assert abs(sum(float(rows[p][col]) for p in parts) - float(rows["total"][col])) < 0.05
    bad = subprocess.run([sys.executable, "-m", "benchmarks.step_split", "--games", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--games must be at least 1" in bad.stderr


def test_instructions_rev_plays_the_loop_with_that_commits_engine(tmp_path):
    """``--rev``: the child process imports the extracted commit's engine, not the installed one;
    c296e50 predates the Tides of Trade keywords, so its base-game loop must run without them."""
    from benchmarks.instructions import child_command
    from benchmarks.revisions import extract, git

    if git("cat-file", "-e", "c296e50^{commit}").returncode != 0:
        pytest.skip("needs the repository's history (a shallow clone lacks c296e50)")
    tree = tmp_path / "tree"
    tree.mkdir()
    extract("c296e50", str(tree))
    assert not (tree / "wayfarers_env" / "rules").exists()  # the engine before the layered packages
    cmd, env = child_command("base2", 60, str(tree))
    probe = tmp_path / "probe" / "probe.py"  # run by path, as the child is: the script's folder leads the path
    probe.parent.mkdir()
    probe.write_text("import wayfarers_env\nprint(wayfarers_env.__file__)\n")
    seen = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, env=env)
    assert seen.stdout.strip() == str(tree / "wayfarers_env" / "__init__.py"), seen.stderr
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr


def test_instructions_refuses_an_unknown_rev():
    proc = _instructions("--rev", "HEAD", "no-such-commit")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: --rev 'no-such-commit' is not a commit of this repository"


def test_seeded_rates_rev_times_each_commit_and_compares_to_the_first():
    """``seeded_rates --rev``: each commit timed in its own process, a row per round and commit,
    then the best rates with the ratio to the first commit (HEAD against itself here)."""
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.seeded_rates", "--rev", "HEAD", "HEAD~1", "--rounds", "1", "--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[2] for line in lines[:2]] == ["HEAD", "HEAD~1"]
    assert lines[2] == "best of 1 rounds (ratio to HEAD):"
    first = lines[3].split()
    assert first[0] == "HEAD" and first[4] == "(1.00x)" and first[8] == "(1.00x)"
    assert float(first[2].replace(",", "")) > 0 and lines[4].split()[0] == "HEAD~1"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rev", "no-such-commit"], "error: --rev 'no-such-commit' is not a commit of this repository"),
        (["--rounds", "0", "--rev", "HEAD"], "--repeat and --rounds must be at least 1, got 3 and 0"),
        (["--rev", "HEAD", "HEAD"], "error: --rev 'HEAD' is given twice"),
    ],
)
def test_seeded_rates_refuses_bad_options(args, message):
    proc = subprocess.run([sys.executable, "-m", "benchmarks.seeded_rates", *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr
