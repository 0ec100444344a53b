"""``rollout:lead=FILE``: rollout improvement over a trained net's own best main actions, the teacher
of ``experiments.net_dagger --expert`` in docs/TRAINING.md "The net's own candidates, rolled out".
Its strength against the cartographer is a measured figure there, not a test."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import bot_games  # noqa: E402

from agents.net_bot import NetBot, NetFileError  # noqa: E402
from agents.registry import UnknownBotError, make_bot  # noqa: E402
from agents.rollout import RolloutBot  # noqa: E402
from experiments.candidate_net import CandidateNet  # noqa: E402
from wayfarers_env.envs.players import View  # noqa: E402


@pytest.fixture(scope="module")
def net_file(tmp_path_factory):
    """An untrained worth net packed as net_pack packs one: its logits differ from candidate to
    candidate, which is all the lead needs."""
    from experiments.net_pack import pack

    torch.manual_seed(3)
    state = CandidateNet(worth=True).state_dict()
    path = tmp_path_factory.mktemp("lead") / "net.pt"
    torch.save(pack(state, ["turn", "acquire_card", "worker_target", "die_space"], "a test"), path)
    return path


def fast(net_file, **more) -> str:
    options = {"lead": net_file, "worlds": 1, "turns": 0, **more}
    return "rollout:" + ":".join(f"{k}={v}" for k, v in options.items())


def test_the_lead_is_the_net_files_bot(net_file):
    bot = make_bot(f"rollout:lead={net_file}")
    assert isinstance(bot, RolloutBot) and isinstance(bot.base, NetBot)
    assert bot.name == f"rollout:lead={net_file}"
    assert (bot.k, bot.worlds, bot.turns, bot.margin) == (3, 4, 2, 3.0)


@pytest.mark.parametrize(
    ("option", "words"),
    [("lead=", "lead needs a path"), ("lead=/no/such.pt", "no file there"), ("lead=a.pt:lead=b.pt", "given twice")],
)
def test_a_bad_lead_is_refused_by_name(option, words):
    with pytest.raises(UnknownBotError, match=words):
        make_bot(f"rollout:{option}")


def test_a_file_that_is_no_net_is_refused(tmp_path):
    bad = tmp_path / "bad.pt"
    bad.write_text("not a net")
    with pytest.raises(NetFileError, match="not a net file"):
        make_bot(f"rollout:lead={bad}")


def test_one_candidate_plays_exactly_as_the_net(net_file):
    """k=1 leaves nothing to roll out: every move is the net bot's own."""
    lead = make_bot(fast(net_file, k=1))
    mine = bot_games.play([lead, make_bot("cartographer")], 4, 160)
    theirs = bot_games.play([make_bot(f"net:{net_file}"), make_bot("cartographer")], 4, 160)
    assert mine == theirs and lead.searches == 0


def test_candidates_are_the_nets_best_main_actions_and_values_are_kept(net_file, monkeypatch):
    """Every rolled-out decision weighs the net's k best main actions by logit (within the margin),
    picks one of them, and leaves the candidates' values where a DAgger file reads them."""
    import agents.rollout as rollout

    seen: list[tuple[list[int], int]] = []  # candidates, and how many the margin lets through
    original = rollout.RolloutBot.roll

    def roll(self, view, cands, rng):
        actions, logits = self.base.last_logits
        ranked = sorted(actions, key=lambda a: -logits[actions.index(a)])
        top = max(logits)
        assert cands == [a for a in ranked[: self.k] if logits[actions.index(a)] >= top - self.margin]
        best = original(self, view, cands, rng)
        assert self.last_values is not None and self.last_values[0] == cands and len(self.last_values[1]) == len(cands)
        assert best == max(cands, key=lambda a: (self.last_values[1][cands.index(a)], -cands.index(a)))
        seen.append((cands, min(self.k, len(actions))))
        return best

    monkeypatch.setattr(rollout.RolloutBot, "roll", roll)
    lead = make_bot(fast(net_file, margin=1000))
    bot_games.play([lead, make_bot("cartographer")], 6, 160)
    assert seen and lead.searches == len(seen) and all(len(c) == n for c, n in seen)


def test_no_values_where_nothing_was_rolled_out(net_file):
    """After a rolled-out main action, the next decision the rollouts do not weigh (not a main
    action) leaves ``last_values`` empty again, so a DAgger file labels it with the net's own
    choice and no values."""
    import random

    from wayfarers_env import Game, GameConfig

    lead = make_bot(fast(net_file, margin=1000))
    game = Game(GameConfig(num_players=2), seed=9)
    rng = random.Random(0)
    assert game.decision()[0] == "turn"
    game.apply(lead.decide(View(game, game.current_player, rng), game.legal_actions(), rng))
    assert lead.searches == 1 and lead.last_values is not None
    while game.decision()[0] == "turn" or len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    lead.decide(View(game, game.current_player, rng), game.legal_actions(), rng)
    assert lead.last_values is None and lead.searches == 1


def test_simulate_from_the_shell_with_the_kept_net(tmp_path):
    """As the README names it (with cheap rollouts): the kept net leads, the games replay."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from wayfarers_env import Game

    kept = Path(__file__).resolve().parents[1] / "models" / "cartographer-worth.pt"
    name = f"rollout:lead={kept}:worlds=1:turns=0"
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "experiments.cli", "simulate", "--players", f"{name},random", "--games", "2", "--seed", "1"]
    proc = subprocess.run([*cmd, "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 2 and {r["players"].index(name) for r in records} == {0, 1}
    for rec in records:
        game = Game(rec["config"], rec["seed"])
        for act in rec["actions"]:
            game.apply(act)
        assert game.is_over and game.scores() == rec["scores"] and rec["winners"] == [rec["players"].index(name)]
    bad = subprocess.run([*cmd[:5], "rollout:lead=nothing.pt,random", "--games", "1"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "nothing.pt" in bad.stderr and "Traceback" not in bad.stderr


def test_a_dataset_of_the_rollout_bot_keeps_the_values_of_what_it_rolled_out():
    """Recorded by ``wayfarers dataset``, a rollout bot's rolled-out main actions carry their
    candidates' values (at most k of them) and its choice is the best of them; its other
    decisions carry none."""
    from experiments.dataset import from_rows, play_and_record
    from wayfarers_env import GameConfig

    meta, parts = play_and_record(
        ["rollout:worlds=1:turns=0", "random"], 1, 2, GameConfig(num_players=2), {"rollout:worlds=1:turns=0"}, progress=False
    )
    data = from_rows(meta, parts)
    valued = [r for r in range(len(data)) if data.soft_ptr[r + 1] - data.soft_ptr[r] > 0]
    assert valued and len(valued) < len(data)
    for r in valued:
        a, b = int(data.soft_ptr[r]), int(data.soft_ptr[r + 1])
        acts, vals = data.soft_action[a:b].tolist(), data.soft_value[a:b].tolist()
        assert 2 <= len(acts) <= 3 and int(data.action[r]) == acts[vals.index(max(vals))]
