"""``wayfarers play`` as a person uses it, from the shell: numbered choices in the game's words,
bad input re-asked, clean exits, undo, the table, the other players' turns, the automatic moves."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from argparse import Namespace

import pytest

from experiments.cli import main
from experiments.options import options, title
from experiments.play import auto_action, play, run
from wayfarers_env import Game, GameConfig

RAW = re.compile(r"\b[a-z_]+\.[a-z0-9_]+\b|\b[a-z]+_[a-z_]+\b")  # an id or a name with an underscore


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


def shell(*args: str, stdin: str = "") -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", *args], input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=120
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return proc.stdout.replace("(? for help): ", "(? for help): \n")  # what the person typed ends the line on a terminal


def test_bad_input_is_asked_again_and_q_quits(monkeypatch, capsys):
    prompts = feed(monkeypatch, ["x", "0", "99", "", "?", "l", "s", "1", "q"])
    assert main(["play", "--players", "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("not a choice") == 4  # x, 0 (the first decision has nothing to decline), 99 and the empty answer
    assert "type the number of an option" in out and "u, undo    take back your last decision" in out
    assert "game abandoned" in out
    first = options(Game(GameConfig(), 3))[0]
    assert f"  1. {first.text}" in out
    assert len(prompts) == 9 and prompts[0].startswith("seat 0, choose 1-")


def test_a_choice_is_applied(monkeypatch, capsys):
    feed(monkeypatch, ["1", "q"])
    assert main(["play", "--players", "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    game = Game(GameConfig(), 3)
    game.apply(options(game)[0].action)  # what "1" did; then the automatic moves, then the next question
    while (action := auto_action(game)) is not None:
        game.apply(action)
    assert out.split("decision: ")[2].startswith(title(game))


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
    out = capsys.readouterr().out
    assert "game over after" in out and "-- turn 1: seat 0 (random)" in out  # one line a turn
    assert main(["play", "--players", "human,sorcerer"]) == 2
    assert "sorcerer" in capsys.readouterr().err
    assert main(["play", "--players", "human"]) == 2


def test_terminal_session_through_stdin():
    out = shell("--players", "human,random", "--seed", "5", stdin="abc\n2\n1\nq\n")
    assert "not a choice: 'abc'" in out and "game abandoned" in out
    assert shell("--players", "human,random").rstrip().endswith("game abandoned (end of input)")


def test_the_full_table_falls_back_to_a_panorama_without_a_renderer(monkeypatch, capsys):
    import experiments.play as play_mod

    game = Game(GameConfig(), 3)
    text = play_mod.panorama(game, 0)
    assert "seat 0: 3 silver, 2 provisions" in text and "market inspiration" in text
    monkeypatch.setattr(play_mod, "_renderer", lambda: None)
    feed(monkeypatch, ["f", "q"])
    assert main(["play", "--players", "human,random", "--seed", "3"]) == 0
    assert capsys.readouterr().out.count("market townsfolk") == 1  # the 'f' answer


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
    out = shell("--players", "human,random", "--seed", "5", stdin=typed + "1\n" + "q\n")
    assert f"not a choice: {echoed}" in out
    assert out.count("seat 0, choose 1-") >= 3  # the odd answer, then 1, then q
    assert out.rstrip().endswith("game abandoned")


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


# ------------------------------------------------------------------------------ issue 15: a readable table


def blocks(out: str, start: str, stop: str) -> list[list[str]]:
    """The lines from each line starting with ``start`` up to the next line starting with ``stop``."""
    found, current = [], None
    for line in out.splitlines():
        if line.startswith(start):
            current = []
            found.append(current)
        if current is not None and line.startswith(stop):
            current = None
        if current is not None:
            current.append(line)
    return found


def test_a_scripted_game_with_undo():
    """Seed 5: the person places a die showing 1 on the Capital City, pays and takes its silver and a
    Land card; undo goes back a decision at a time (nothing before the first), shows the very same
    numbered options again, and a game continued after an undo is the game played without it: the
    bot's generator is put back too."""
    script = ["u", "1", "1", "u", "u", "1", "1", "1", "1", "1", "1", "1", "1", "t", "q"]
    out = shell("--players", "human,random", "--seed", "5", stdin="\n".join(script) + "\n")
    assert "nothing to undo: this is your first decision" in out
    assert out.count("undone: back to turn 1, where the die goes") == 1
    assert out.count("undone: back to turn 1, your main action") == 1
    die_spaces = blocks(out, "decision: where the die goes", "seat 0, choose")
    assert len(die_spaces) >= 3 and die_spaces[0] == die_spaces[1] == die_spaces[2]  # before and after each undo: same numbers
    assert "    1. Capital City: pay 2 provisions to get 1 silver and a Land card" in die_spaces[0]
    assert "     - Capital Harbour: needs 1 ship; hire the Exploration guild's ship first" in die_spaces[0]
    straight = shell("--players", "human,random", "--seed", "5", stdin="\n".join(["1"] * 8 + ["t", "q"]) + "\n")
    table = out[out.rindex("\nTURN ") :]
    assert table == straight[straight.rindex("\nTURN ") :]
    # five answers end turn 1; an undo at turn 3's first decision goes back over the bot's turn 2,
    # which replays the same when the person answers the same
    crossed = shell("--players", "human,random", "--seed", "5", stdin="\n".join(["1"] * 5 + ["u"] + ["1"] * 4 + ["t", "q"]) + "\n")
    assert "undone: back to turn 1, which card to take" in crossed and crossed[crossed.rindex("\nTURN ") :] == table


def test_the_table_fits_100_by_50_and_the_others_turns_are_summarised():
    out = shell("--players", "human,random,random,random", "--tides-of-trade", "--seed", "2", stdin="1\n" * 120)
    tables = blocks(out, "TURN ", "decision:")
    assert len(tables) >= 4
    for table in tables:
        assert len(table) <= 50 and max(map(len, table)) <= 100, "\n".join(table)
        assert any(line.startswith("JOURNAL") for line in table) and any(line.startswith("TILES left") for line in table)
    second = out.index("== turn 5: seat 0 (human)")
    since = out[out.index("== turn 1: seat 0 (human)") : second]
    for seat in (1, 2, 3):  # each opponent's turn in one line, with their VP after it
        assert re.search(rf"^-- turn {seat + 1}: seat {seat} \(random\), \d+ VP after: ", since, re.M)
    assert "-- turn 1: seat 0" not in out  # not the person's own turn
    for line in out.splitlines():
        if re.match(r"^ +\d+\. ", line) or line.startswith("     - "):  # an option, or a reason one is missing
            assert not RAW.search(line), line


def test_automatic_moves_are_for_people_only():
    """With the automatic moves (the default) a decision with one option is taken and said; with
    --no-auto it is asked. The game's own decisions are not changed: a bot still sees them all."""
    auto = shell("--players", "human,random", "--seed", "5", stdin="1\n" * 40)
    asked = shell("--players", "human,random", "--seed", "5", "--no-auto", stdin="1\n" * 40)
    assert "   auto: " in auto and "   auto: " not in asked
    assert re.search(r"choose (1-1|0) \(", asked) and not re.search(r"choose (1-1|0) \(", auto)
    answers = iter(["1"] * 100_000)
    with open(os.devnull, "w") as devnull:
        game = play(["human", "random"], 5, ask=lambda prompt: next(answers), out=devnull)
    assert game is not None and game.is_over
    assert game.config == GameConfig(num_players=2)  # not the engine's auto_forced: the bot was asked every decision
