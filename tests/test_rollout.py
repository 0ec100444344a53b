"""The ``rollout`` bot (rollout improvement over the cartographer): registered and playable from
the command line, exactly the cartographer when it may roll out only one action, reproducible,
its choice always one of the base's candidates, options checked. Its strength against the
cartographer is a measured figure (docs/RESULTS.md, "Rollout improvement"), not a test."""

from __future__ import annotations

import json
import subprocess
import sys

import bot_games
import pytest

from agents.registry import UnknownBotError, known_bots, make_bot
from agents.rollout import RolloutBot
from wayfarers_env import Game

FAST = "rollout:worlds=1:turns=0"  # one world, scored at the end of its own turn: cheap


def play(names: list[str], seed: int, limit: int) -> tuple[list[int], list]:
    bots = [make_bot(n) for n in names]
    return bot_games.play(bots, seed, limit), bots


def test_registered_with_its_options():
    assert "rollout" in known_bots() and "rollout:KEY=VALUE" in known_bots()
    bot = make_bot("rollout")
    assert isinstance(bot, RolloutBot) and bot.name == "rollout"
    assert (bot.k, bot.worlds, bot.turns, bot.margin) == (3, 4, 2, 3.0)
    bot = make_bot("rollout:k=5:worlds=2:turns=1:margin=1.5")
    assert (bot.k, bot.worlds, bot.turns, bot.margin) == (5, 2, 1, 1.5)
    assert bot.name == "rollout:k=5:worlds=2:turns=1:margin=1.5"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("rollout:sims=3", "unknown option 'sims=3'"),
        ("rollout:k=0", "k is the number of main actions rolled out"),
        ("rollout:worlds=x", "bad value 'worlds=x'"),
        ("rollout:turns", "bad value 'turns'"),
        ("rollout:k=2:k=3", "given twice"),
        ("rollout:margin=inf", "margin is VP below"),
    ],
)
def test_bad_option_names_what_is_allowed(name, words):
    with pytest.raises(UnknownBotError, match=words) as err:
        make_bot(name)
    assert str(err.value).startswith("rollout: ")


def test_one_candidate_plays_exactly_as_the_cartographer():
    """k=1 leaves nothing to roll out: the game is the cartographer's, decision for decision."""
    mine, bots = play(["rollout:k=1", "cartographer"], seed=3, limit=150)
    theirs, _ = play(["cartographer", "cartographer"], seed=3, limit=150)
    assert mine == theirs and bots[0].searches == 0


def test_rolls_out_main_actions_and_picks_one_of_the_candidates(monkeypatch):
    """Every rolled-out choice is among the base's k best main actions within the margin, and
    the rollouts do overrule the base somewhere in a game's first turns."""
    import agents.rollout as rollout

    picked: list[tuple[list[int], int, int]] = []
    original = rollout.RolloutBot.roll
    base_choice: list[int] = []
    original_decide = rollout.Cartographer.decide

    def decide(self, view, legal, rng):
        base_choice.append(original_decide(self, view, legal, rng))
        return base_choice[-1]

    def roll(self, view, cands, rng):
        actions, values = self.base.last_values  # the base's values of this decision (rollouts overwrite them)
        choice = base_choice[-1]
        best = original(self, view, cands, rng)
        top = max(values)
        assert len(cands) <= self.k and all(values[actions.index(a)] >= top - self.margin for a in cands[1:])
        assert choice in cands
        picked.append((cands, best, choice))
        return best

    monkeypatch.setattr(rollout.RolloutBot, "roll", roll)
    monkeypatch.setattr(rollout.Cartographer, "decide", decide)
    _actions, bots = play([FAST, "cartographer"], seed=5, limit=200)
    assert picked and bots[0].searches == len(picked)
    assert all(best in cands for cands, best, _ in picked)
    assert 0 < bots[0].changed == sum(best != choice for _, best, choice in picked)


def test_same_seed_same_game():
    a, _ = play([FAST, "cartographer"], seed=11, limit=120)
    b, _ = play([FAST, "cartographer"], seed=11, limit=120)
    assert a == b


def test_simulate_from_the_command_line(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "experiments.cli", "simulate", "--players", f"{FAST},random"]
    proc = subprocess.run([*cmd, "--games", "2", "--seed", "1", "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 2
    for rec in records:
        game = Game(rec["config"], rec["seed"])
        for act in rec["actions"]:
            game.apply(act)
        assert game.is_over and game.scores() == rec["scores"]
        assert rec["winners"] == [rec["players"].index(FAST)]


def test_bad_option_on_the_command_line():
    cmd = [sys.executable, "-m", "experiments.cli", "simulate", "--players", "rollout:k=0,random", "--games", "1"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "k is the number of main actions" in proc.stderr
    assert "Traceback" not in proc.stderr
