"""``wayfarers play``: numbered choices, bad input re-asked, clean exits, whole games."""

from __future__ import annotations

import os
import subprocess
import sys
from argparse import Namespace

import pytest

from experiments.cli import main
from experiments.play import run
from wayfarers_env import Game, GameConfig, describe_action


def feed(monkeypatch, answers):
    """Make input() return the answers in turn, then behave like end of input."""
    it = iter(answers)
    prompts = []

    def fake(prompt=""):
        prompts.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake)
    return prompts


def test_bad_input_is_asked_again_and_q_quits(monkeypatch, capsys):
    prompts = feed(monkeypatch, ["x", "0", "99", "", "?", "l", "s", "1", "q"])
    assert main(["play", "--players", "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("not a choice") == 4  # x, 0, 99 and the empty answer
    assert "type the number of an action" in out
    assert "game abandoned" in out
    first = Game(GameConfig(), 3).legal_actions()
    assert f"1. {describe_action(first[0])}" in out
    assert len(prompts) == 9 and prompts[0].startswith("seat 0, choose 1-")


def test_a_choice_is_applied(monkeypatch, capsys):
    feed(monkeypatch, ["1", "q"])
    assert main(["play", "--players", "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    game = Game(GameConfig(), 3)
    game.apply(game.legal_actions()[0])  # what "1" did: the next question is the follow-up decision
    assert f"decision: {game.decision()[0].replace('_', ' ')}" in out


@pytest.mark.parametrize("error", [EOFError, KeyboardInterrupt])
def test_end_of_input_and_ctrl_c_exit_cleanly(monkeypatch, capsys, error):
    def fake(prompt=""):
        raise error

    monkeypatch.setattr("builtins.input", fake)
    assert main(["play", "--players", "human,greedy", "--seed", "1"]) == 0
    assert "abandoned" in capsys.readouterr().out


def test_a_whole_game_to_the_score_table(capsys):
    lines = iter(["1"] * 100_000)
    assert run(Namespace(players="human,random", seed=2), ask=lambda prompt: next(lines)) == 0
    out = capsys.readouterr().out
    assert "game over after" in out and "* = winner" in out and "primary tags" in out


def test_bots_only_game_and_unknown_names(capsys):
    assert main(["play", "--players", "random,random", "--seed", "4"]) == 0
    assert "game over after" in capsys.readouterr().out
    assert main(["play", "--players", "human,sorcerer"]) == 2
    assert "sorcerer" in capsys.readouterr().err
    assert main(["play", "--players", "human"]) == 2


def test_terminal_session_through_stdin():
    proc = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", "--players", "human,random", "--seed", "5"],
        input="abc\n2\n1\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not a choice: 'abc'" in proc.stdout and "game abandoned" in proc.stdout
    assert "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", "--players", "human,random"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr


def test_fallback_panorama_without_a_renderer(monkeypatch, capsys):
    import experiments.play as play_mod

    game = Game(GameConfig(), 3)
    text = play_mod.panorama(game, 0)
    assert "seat 0: 3 silver, 2 provisions" in text and "market inspiration" in text
    monkeypatch.setattr(play_mod, "_renderer", lambda: None)
    feed(monkeypatch, ["s", "q"])
    assert main(["play", "--players", "human,random", "--seed", "3"]) == 0
    assert capsys.readouterr().out.count("market townsfolk") == 2  # turn start and the 's' answer


@pytest.mark.parametrize(
    "typed, echoed",
    [
        ("²\n", "'²'"),  # a digit to str.isdigit(), not to int()
        ("１\n", "'１'"),  # a full-width digit: not one of the listed numbers
        ("\n", "''"),
        ("99999999999999999999\n", "'99999999999999999999'"),
    ],
)
def test_odd_answers_from_the_shell_are_asked_again(typed, echoed):
    proc = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", "--players", "human,random", "--seed", "5"],
        input=typed + "1\n" + "q\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert f"not a choice: {echoed}" in proc.stdout
    assert proc.stdout.count("seat 0, choose 1-") >= 3  # the odd answer, then 1, then q
    assert proc.stdout.rstrip().endswith("game abandoned")


def test_bytes_that_are_not_text_end_cleanly():
    proc = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", "--players", "human,random", "--seed", "5"],
        input=b"\xff\xfe\n",
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},  # strict decoding, as on a UTF-8 terminal
        timeout=60,
    )
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    assert b"not a choice: the answer is not readable text" in proc.stdout
    assert b"game abandoned (end of input)" in proc.stdout
