"""``experiments.beside.beside``: a file written beside and renamed into place, so a stopped run
leaves the last whole file (``wayfarers train``'s checkpoints, ``net_reinforce``'s state)."""

from __future__ import annotations

import pytest

from experiments.beside import beside


def test_the_new_file_replaces_the_old_one_when_the_write_ends(tmp_path):
    path = tmp_path / "step_8.zip"
    path.write_text("old")
    with beside(path) as side:
        assert side.name == ".step_8.partial.zip" and side.parent == tmp_path  # hidden, same suffix
        side.write_text("new")
        assert path.read_text() == "old"  # until the block ends
    assert path.read_text() == "new" and sorted(p.name for p in tmp_path.iterdir()) == ["step_8.zip"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_side_file(tmp_path):
    path = tmp_path / "state.pt"
    path.write_text("old")
    with pytest.raises(KeyboardInterrupt):
        with beside(path) as side:
            side.write_text("ha")
            raise KeyboardInterrupt
    assert path.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["state.pt"]
