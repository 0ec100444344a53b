"""The speed benchmark runs from both entry points and prints a table that can be read back.

No speed is asserted here (speed targets are checked by running the benchmark, see
docs/PERFORMANCE.md); these tests check that the table holds the loops asked for with positive
rates, and that bad options are refused with a message naming what is allowed.
"""

from __future__ import annotations

import re

import pytest

from benchmarks import bench_env
from experiments.cli import main


def _rows(out: str) -> dict[str, list[str]]:
    rows = {}
    for line in out.splitlines():
        m = re.match(r"(wayfarers (?:AEC|engine) \dp(?: \(no obs\))?)\s+(.*)", line)
        if m:
            rows[m.group(1)] = m.group(2).split()
    return rows


def test_cli_bench_prints_a_row_per_loop(capsys):
    assert main(["bench", "--seconds", "0.6", "--rounds", "2", "--players", "2", "3", "--no-reference", "--all-cores"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert set(rows) == {"wayfarers AEC 2p", "wayfarers AEC 3p", "wayfarers engine 2p (no obs)", "wayfarers engine 3p (no obs)"}
    for name, cells in rows.items():
        wall, unit, cpu = float(cells[0]), cells[1], float(cells[2])
        assert wall > 0 and cpu > 0, name
        assert unit == ("steps/s" if "AEC" in name else "decisions/s")
    assert re.search(r"peak RSS of this process: \d+ MiB", out)


@pytest.mark.parametrize(
    "option,value,message",
    [("--players", "5", "player counts 2, 3 or 4"), ("--seconds", "-1", "positive number"), ("--rounds", "0", "at least 1")],
)
def test_bad_options_are_refused(capsys, option, value, message):
    with pytest.raises(SystemExit):
        bench_env._parser().parse_args([option, value])
    assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["bench", option, value])
    assert message in capsys.readouterr().err
