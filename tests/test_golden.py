"""The golden playthroughs in tests/golden/ still play out exactly (see tests/golden_tool.py)."""

from __future__ import annotations

import difflib

import pytest
from golden_tool import GAMES, HERE, SOLO_GAMES, TIDES_GAMES, playthrough, solo_playthrough


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_playthrough(name):
    n, seed = GAMES[name]
    expected = (HERE / f"{name}.txt").read_text()
    got = playthrough(n, seed)
    if got != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), "golden", "now", n=2))
        pytest.fail(f"{name} changed; review and regenerate with python tests/golden_tool.py --update\n{diff[:4000]}")


@pytest.mark.parametrize("name", sorted(TIDES_GAMES))
def test_golden_tides_of_trade_playthrough(name):
    n, seed, card_influence = TIDES_GAMES[name]
    expected = (HERE / f"{name}.txt").read_text()
    got = playthrough(n, seed, card_influence)
    if got != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), "golden", "now", n=2))
        pytest.fail(f"{name} changed; review and regenerate with python tests/golden_tool.py --update\n{diff[:4000]}")


@pytest.mark.parametrize("name", sorted(SOLO_GAMES))
def test_golden_solo_playthrough(name):
    """Solo games against each AI board, with a line for each AI turn (base rulebook "Solo Mode")."""
    board, seed, tides = SOLO_GAMES[name]
    expected = (HERE / f"{name}.txt").read_text()
    got = solo_playthrough(board, seed, tides)
    if got != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), "golden", "now", n=2))
        pytest.fail(f"{name} changed; review and regenerate with python tests/golden_tool.py --update\n{diff[:4000]}")
