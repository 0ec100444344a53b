"""Inputs per candidate (wayfarers_env/envs/candidates.py), the shared candidate scorer
(experiments/candidate_net.py) and its probe (benchmarks/candidate_probe.py)."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from wayfarers_env import Game, GameConfig
from wayfarers_env.envs.candidates import CANDIDATES, TOKENS, Candidates, pad
from wayfarers_env.envs.card_features import canonical_indices
from wayfarers_env.rules.queries import CATALOG

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def _positions(kind: str, seeds=range(6), limit: int = 400):
    """Games (seeds ``seeds``, random play) stopped at each decision of ``kind`` with a choice."""
    for s in seeds:
        game = Game(GameConfig(num_players=2), seed=s)
        rng = random.Random(s)
        for _ in range(limit):
            if game.state.over:
                break
            legal = game.legal_actions()
            if game.decision()[0] == kind and len(legal) > 1:
                yield game
            game.apply(rng.choice(legal))


def _market_card(game: Game, slot: int) -> int:
    return canonical_indices(game.state.tables.content)[game.state.market[slot]]


def test_a_die_candidate_lists_the_spaces_its_die_can_take():
    """A "place a die" candidate's follow-up is the die_space decision's legal actions (with the
    card of each space on a card), and encoding leaves the game as it was."""
    enc = Candidates()
    checked = 0
    for game in _positions("turn"):
        before = game.to_dict()
        legal = game.legal_actions()
        actions, tokens, worth = enc.encode(game, legal)
        assert game.to_dict() == before
        assert not worth.any()  # no appraisal given: every worth is 0
        assert actions[: len(legal)].tolist() == legal and (actions[len(legal) :] == -1).all()
        assert (tokens[len(legal) :, :, 0] == pad()).all()
        for i, a in enumerate(legal):
            assert tokens[i, 0, 0] == a
            follow = [int(b) for b in tokens[i, 1:, 0] if b != pad()]
            if a in CATALOG.DIE:
                child = game.clone()
                child.apply(a)
                if child.decision()[0] == "die_space":
                    assert follow == child.legal_actions()[: TOKENS - 1]
                    checked += 1
            elif a in CATALOG.WORKER:
                child = game.clone()
                child.apply(a)
                assert follow == child.legal_actions()[: TOKENS - 1]
                for b, card in tokens[i, 1 : 1 + len(follow)].tolist():
                    assert card == _market_card(game, CATALOG.at[b])  # the card the worker would target
            else:
                assert follow == []  # rest, the Trade guild: nothing followed
    assert checked > 20


def test_a_card_choice_names_the_card_in_each_slot():
    enc = Candidates()
    seen = 0
    for game in _positions("acquire_card"):
        row = game.decision()[1].row
        legal = game.legal_actions()
        _actions, tokens, _worth = enc.encode(game, legal)
        for i, a in enumerate(legal):
            card = int(tokens[i, 0, 1])
            if a in CATALOG.SLOT:
                assert card == _market_card(game, row * CATALOG.slots + CATALOG.at[a])
                seen += 1
            else:
                assert card == -1  # draw three from the deck: no card named
    assert seen > 20


def test_too_many_candidates_is_a_clear_error():
    game = Game(GameConfig(num_players=2), seed=0)
    with pytest.raises(ValueError, match=f"at most {CANDIDATES}"):
        Candidates().encode(game, list(range(CANDIDATES + 1)))


def _batch(seed: int = 0, appraise=None):
    import torch

    from wayfarers_env.envs.observation import encode

    game = next(iter(_positions("turn", seeds=[seed])))
    actions, tokens, worth = Candidates(appraise).encode(game)
    obs = torch.as_tensor(encode(game, game.state.current))[None]
    as_long = [torch.as_tensor(x.astype(np.int64))[None] for x in (actions, tokens)]
    return obs, *as_long, torch.as_tensor(worth)[None]


def test_the_scorer_is_shared_across_candidates():
    """Reordering the candidates reorders their logits and changes nothing else; padding is -inf;
    the flat net's logits are its head's units of the candidates' ids."""
    import torch

    from experiments.candidate_net import CandidateNet

    obs, actions, tokens, _worth = _batch()
    n = int((actions >= 0).sum())
    torch.manual_seed(0)
    net = CandidateNet(trunk=32, width=8, hidden=16).eval()
    logits = net(obs, actions, tokens)[0]
    assert torch.isinf(logits[n:]).all() and torch.isfinite(logits[:n]).all()
    perm = torch.cat([torch.randperm(n, generator=torch.Generator().manual_seed(1)), torch.arange(n, CANDIDATES)])
    again = net(obs, actions[:, perm], tokens[:, perm])[0]
    torch.testing.assert_close(again[:n], logits[perm[:n]])
    # the candidate term depends on the follow-up tokens: dropping them changes some logit
    bare = tokens.clone()
    bare[:, :, 1:, 0], bare[:, :, 1:, 1] = pad(), -1
    assert not torch.allclose(net(obs, actions, bare)[0][:n], logits[:n])
    flat = CandidateNet(trunk=32, width=8, hidden=16, flat=True).eval()
    units = flat.flat_head(flat.trunk(obs.index_select(1, flat.cols)))[0]
    torch.testing.assert_close(flat(obs, actions, bare)[0][:n], units[actions[0, :n]])


def test_worth_is_the_rules_appraisal_of_each_token():
    """With ``rule_worth``, a card choice's worth is the rule's own slot score, a die space's the
    rule's placement value for the die being placed, and a die main action's follow-up worth is the
    best such value over the faces that reach the space (the rule's value for its current face at
    least); rest and draw are worth 0."""
    from agents.defaults import DefaultPolicy
    from agents.strategies import Cartographer
    from experiments.candidate_net import rule_worth

    enc, rule = Candidates(rule_worth()), DefaultPolicy(Cartographer.tastes)
    cards = spaces = dice = 0
    for game in _positions("acquire_card"):
        g, params = game.state, game.decision()[1]
        legal = game.legal_actions()
        _a, _t, worth = enc.encode(game, legal)
        for i, a in enumerate(legal):
            want = rule.slot_score(g, params[0], CATALOG.at[a], params[1], params[2]) if a in CATALOG.SLOT else 0.0
            assert worth[i, 0] == pytest.approx(want, abs=1e-5)
            cards += a in CATALOG.SLOT
    for game in _positions("die_space"):
        g, params = game.state, game.decision()[1]
        legal = game.legal_actions()
        _a, _t, worth = enc.encode(game, legal)
        face = g.players[g.current].dice_face[params[0]]
        for i, a in enumerate(legal):
            if a in CATALOG.SPACE:
                assert worth[i, 0] == pytest.approx(rule.placement_value(g, CATALOG.at[a], face), abs=1e-5)
                spaces += 1
    for game in _positions("turn"):
        legal = game.legal_actions()
        _a, tokens, worth = enc.encode(game, legal)
        for i, a in enumerate(legal):
            child = game.clone()
            child.apply(a)
            if a in CATALOG.DIE and child.decision()[0] == "die_space":
                g, face = child.state, child.state.players[child.state.current].dice_face[child.decision()[1][0]]
                for j in range(1, TOKENS):
                    b = int(tokens[i, j, 0])
                    if b in CATALOG.SPACE and b in child.legal_actions():
                        assert worth[i, j] >= rule.placement_value(g, CATALOG.at[b], face) - 1e-5
                        dice += 1
            elif a == CATALOG.REST:
                assert not worth[i].any()
    assert cards > 20 and spaces > 20 and dice > 20


def test_a_worth_net_reads_the_worth():
    """The ``worth`` net's logits move with the tokens' worth and it refuses to run without them;
    the plain candidate net ignores them."""
    import torch

    from experiments.candidate_net import CandidateNet, rule_worth

    obs, actions, tokens, worth = _batch(appraise=rule_worth())
    assert worth.abs().sum() > 0
    n = int((actions >= 0).sum())
    torch.manual_seed(0)
    net = CandidateNet(trunk=32, width=8, hidden=16, worth=True).eval()
    assert not torch.allclose(net(obs, actions, tokens, worth)[0][:n], net(obs, actions, tokens, worth * 0)[0][:n])
    with pytest.raises(ValueError, match="worth"):
        net(obs, actions, tokens)
    plain = CandidateNet(trunk=32, width=8, hidden=16).eval()
    torch.testing.assert_close(plain(obs, actions, tokens, worth)[0][:n], plain(obs, actions, tokens)[0][:n])


@pytest.fixture(scope="module")
def small_dataset(tmp_path_factory):
    from experiments.dataset import build, save

    path = tmp_path_factory.mktemp("cand") / "d.npz"
    save(build(["cartographer", "cartographer"], 2, 0, GameConfig(num_players=2), workers=1, progress=False), path)
    return path


def test_encoded_rows_are_the_recorded_decisions(small_dataset):
    from experiments.candidate_net import encode_dataset
    from experiments.dataset import load_dataset

    data = load_dataset(small_dataset)
    cand = encode_dataset(data)
    assert len(cand) > 100
    picked = cand.actions[np.arange(len(cand)), cand.label]
    assert (picked == data.action[cand.rows]).all()  # the label points at the recorded action
    masks = data.masks(cand.rows)
    for i in range(len(cand)):
        legal = np.flatnonzero(masks[i]).tolist()
        assert sorted(int(a) for a in cand.actions[i] if a >= 0) == legal


def test_probe_from_the_shell(small_dataset):
    cmd = [sys.executable, "-m", "benchmarks.candidate_probe", str(small_dataset), "--epochs", "1", "--holdout", "0.5"]
    res = subprocess.run([*cmd, "--deals", "1", "--rows", "acquire_card"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    turn = [line.split() for line in lines if line.split()[:1] == ["turn"] and len(line.split()) == 12]
    assert len(turn) == 1  # kind, count, uniform, 3 x (agree, held-out regret, training regret)
    regrets = [float(turn[0][i]) for i in (4, 5, 7, 8, 10, 11)]
    assert all(r >= 0.0 for r in regrets)  # never below the teacher's best
    alone = [line for line in lines if line.startswith("held-out regret choosing by worth alone")]
    assert len(alone) == 1 and float(alone[0].split("turn ")[1].split(",")[0]) >= 0.0
    played = [line for line in lines if line.startswith("acquire_card ") and "%" in line]
    assert [line.split()[1] for line in played] == ["flat", "candidates", "worth"]
    for line in played:
        assert 0.0 <= float(line.split()[2].rstrip("%")) <= 100.0
    bad = subprocess.run([*cmd, "--rows", "turn,bag"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "unknown decision kind(s) bag" in bad.stderr


def test_probe_keeps_and_takes_back_its_nets(small_dataset, tmp_path):
    """--save then --load judges the very same weights: the held-out table comes out identical
    without training; a --load of a folder without the nets, or with another net's or no net's
    bytes in a file, is refused before any work."""
    cmd = [sys.executable, "-m", "benchmarks.candidate_probe", str(small_dataset), "--holdout", "0.5", "--nets", "flat", "worth"]

    def table(out: str) -> list[str]:
        rows = ("turn ", "acquire_card ", "held-out regret choosing by worth alone")  # per-kind scores, the worth-alone line
        return [line for line in out.splitlines() if line.startswith(rows) and "%" not in line]

    first = subprocess.run([*cmd, "--epochs", "1", "--save", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flat.pt", "worth.pt"]
    # played again, the rest of each decision from the rules with no lookahead; "none" is the rules alone
    play = ["--deals", "1", "--rest", "rules", "--rows", "none", "turn"]
    again = subprocess.run([*cmd, "--load", str(tmp_path), *play], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert "training loss" not in again.stdout and "not trained here" in again.stdout
    assert len(table(first.stdout)) >= 3 and table(again.stdout) == table(first.stdout)
    assert "inside cartographer's rules (no lookahead), against cartographer" in again.stdout
    played = [line.split() for line in again.stdout.splitlines() if "%" in line and not line.startswith("net answers")]
    assert [(cells[0], cells[1]) for cells in played] == [("none", "flat"), ("none", "worth"), ("turn", "flat"), ("turn", "worth")]
    assert played[0][2:7] == played[1][2:7]  # with no kind to answer the net is never asked: the same games, rate and VP
    empty = tmp_path / "empty"
    empty.mkdir()
    bad = subprocess.run([*cmd, "--load", str(empty)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "no saved net" in bad.stderr and "flat.pt" in bad.stderr
    swapped = tmp_path / "swapped"  # the worth net's weights under the flat net's name, then bytes that are no net
    swapped.mkdir()
    (swapped / "flat.pt").write_bytes((tmp_path / "worth.pt").read_bytes())
    (swapped / "worth.pt").write_bytes((tmp_path / "worth.pt").read_bytes())
    for content in [None, b"not a torch file"]:
        if content is not None:
            (swapped / "flat.pt").write_bytes(content)
        bad = subprocess.run([*cmd, "--load", str(swapped)], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert bad.returncode == 2 and "flat.pt is not a flat net saved by this probe" in bad.stderr, bad.stderr
        assert "Traceback" not in bad.stderr


def test_judge_counts_agreement_and_the_teachers_regret(small_dataset):
    """A net that picks the recorded choice agrees everywhere and has no regret in the teacher's
    values (the cartographer picks a best-valued candidate); a random legal choice has regret."""
    import torch

    from experiments.candidate_net import encode_dataset, judge, uniform_regret
    from experiments.dataset import load_dataset

    data = load_dataset(small_dataset)
    cand = encode_dataset(data)

    class Teacher(torch.nn.Module):
        """Top logit on the recorded choice of each decision, in the order judge asks."""

        seen = 0

        def forward(self, obs, actions, tokens, worth=None):
            out = torch.full(actions.shape, -1.0)
            out[torch.arange(len(actions)), torch.as_tensor(cand.label[self.seen : self.seen + len(actions)])] = 1.0
            self.seen += len(actions)
            return out

    idx = np.arange(len(cand))
    judged = judge(Teacher(), data, cand, idx)
    assert sum(j.decisions for j in judged.values()) == len(cand)
    assert all(j.right == j.decisions for j in judged.values())
    assert sum(j.valued for j in judged.values()) > 50
    assert all(abs(j.regret) < 1e-4 for j in judged.values())
    uniform = uniform_regret(data, cand, idx)
    assert uniform["turn"] > 0.1 and all(v >= 0 for v in uniform.values())


def test_judge_leaves_choices_the_teacher_never_valued_out_of_the_regret(small_dataset):
    """A teacher that weighed only a few candidates (``rollout:lead=FILE`` rolls out the learner's
    best) has no value for the others: a choice among them is counted as ``outside``, never as
    a regret, and a choice it valued still has its regret."""
    import dataclasses

    import torch

    from experiments.candidate_net import encode_dataset, judge
    from experiments.dataset import load_dataset

    data = load_dataset(small_dataset)
    cand = encode_dataset(data)
    by_row = {int(r): d for d, r in enumerate(cand.rows)}
    ptr, acts, vals = [0], [], []
    for r in range(len(data)):  # keep the values of the recorded choice and of one other candidate
        a, b = int(data.soft_ptr[r]), int(data.soft_ptr[r + 1])
        keep = []
        if b - a > 2 and r in by_row:
            label = int(data.action[r])
            other = next(int(x) for x in data.soft_action[a:b] if int(x) != label)
            keep = [k for k in range(a, b) if int(data.soft_action[k]) in (label, other)]
        acts += [data.soft_action[k] for k in keep]
        vals += [data.soft_value[k] for k in keep]
        ptr.append(len(acts))
    partial = dataclasses.replace(
        data, soft_ptr=np.asarray(ptr, np.int64), soft_action=np.asarray(acts, np.uint16), soft_value=np.asarray(vals, np.float32)
    )
    kept = {d: {int(x) for x in partial.soft_action[partial.soft_ptr[r] : partial.soft_ptr[r + 1]]} for r, d in by_row.items()}
    third = [d for d in range(len(cand)) if kept[d] and any(int(a) >= 0 and int(a) not in kept[d] for a in cand.actions[d])]
    assert len(third) > 10

    class Elsewhere(torch.nn.Module):
        """Top logit on a legal candidate the teacher did not value, where there is one."""

        seen = 0

        def forward(self, obs, actions, tokens, worth=None):
            out = torch.zeros(actions.shape)
            for i in range(len(actions)):
                d = self.seen + i
                pick = next((j for j, a in enumerate(actions[i].tolist()) if a >= 0 and a not in kept[d]), int(cand.label[d]))
                out[i, pick] = 1.0
            self.seen += len(actions)
            return out.masked_fill(actions < 0, float("-inf"))

    idx = np.arange(len(cand))
    judged = judge(Elsewhere(), partial, cand, idx)
    assert sum(j.outside for j in judged.values()) == len(third)
    assert sum(j.valued for j in judged.values()) == 0  # every valued decision had a third candidate to pick
    assert all(j.regret == 0.0 for j in judged.values())


def test_soft_targets_follow_the_teachers_values(small_dataset):
    """Where the teacher valued the candidates the target is their softmax (the best candidate
    gets the most, padding nothing); elsewhere it is all on the recorded choice."""
    from experiments.candidate_net import encode_dataset, soft_targets
    from experiments.dataset import load_dataset

    data = load_dataset(small_dataset)
    cand = encode_dataset(data)
    idx = np.arange(len(cand))
    goal = soft_targets(data, cand, idx, 0.5)
    np.testing.assert_allclose(goal.sum(1), 1.0, rtol=1e-5)
    assert (goal[cand.actions < 0] == 0).all()
    valued = 0
    for i in idx:
        r = int(cand.rows[i])
        if data.soft_ptr[r + 1] - data.soft_ptr[r] > 1:
            valued += 1
            assert goal[i, cand.label[i]] == goal[i].max()  # the teacher picked a best-valued candidate
        else:
            assert goal[i, cand.label[i]] == 1.0
    assert valued > 50
    cold = soft_targets(data, cand, idx, 1e-3)
    assert (cold.max(1) > 0.3).all()  # a near-zero temperature puts the weight on the best (split between ties)
