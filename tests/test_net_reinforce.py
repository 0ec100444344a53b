"""``experiments.net_reinforce``: policy gradient on a candidate net's own sampled games (docs/TRAINING.md
"Policy gradient on the net's own games"). What it does to the net's strength is a measured figure
there, not a test; here: the baseline, the recorded inputs, the update's direction, and the command
with its folder, resume and refusals."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.net_bot import NetBot, read_net_file  # noqa: E402
from experiments import net_reinforce as nr  # noqa: E402

NET = "models/cartographer-worth.pt"
# the tests of the shared run folders in one worker of pytest -n (make test's --dist loadgroup), so that
# the runs are made once
SHARED = pytest.mark.xdist_group("net_reinforce_runs")


def part(deal: int, result: float, margin: float) -> dict:
    return {"deal": deal, "result": result, "margin": margin}


def test_reward_is_the_result_and_the_clipped_margin():
    assert nr.reward(part(0, 1.0, 10.0), 0.5) == pytest.approx(1.25)
    assert nr.reward(part(0, -1.0, -100.0), 0.5) == pytest.approx(-1.5)  # a rout counts as 20 VP
    assert nr.reward(part(0, 0.0, 0.0), 0.5) == 0.0
    assert nr.reward(part(0, -1.0, -5.0), 0.0) == -1.0


def test_each_game_is_judged_against_its_twin_on_the_same_deal():
    parts = [part(0, 1.0, 20.0), part(0, -1.0, -20.0), part(1, -1.0, -4.0), part(1, -1.0, -8.0)]
    adv = nr.advantages(parts, 0.5)
    assert adv == pytest.approx([3.0, -3.0, 0.1, -0.1])
    assert nr.advantages([part(5, 1.0, 3.0)], 0.5) == [0.0]  # a deal played once teaches nothing


@pytest.fixture(scope="module")
def sampled():
    """Deal 0 of seed 4, played twice by the kept net at a low temperature and once at 1."""
    cold = nr.sample_game((NET, 4, 0, 0, 1e-3, "cartographer"))
    again = nr.sample_game((NET, 4, 0, 0, 1e-3, "cartographer"))
    warm = nr.sample_game((NET, 4, 0, 1, 1.0, "cartographer"))
    return cold, again, warm


def test_a_task_replays_exactly(sampled):
    cold, again, _ = sampled
    assert cold["margin"] == again["margin"] and cold["result"] == again["result"]
    assert np.array_equal(cold["choice"], again["choice"]) and np.array_equal(cold["val"], again["val"])


def test_the_recorded_inputs_give_back_the_nets_logits(sampled):
    """Scored again from what the game kept (the observation densified from its sparse form), the
    net's best candidate is the one a nearly cold sample chose (or one tied with it): the trainer sees what the player saw."""
    cold, _, warm = sampled
    net = NetBot(NET).net
    dec = nr.Decisions([cold, warm], [0.0, 0.0], nr.obs_size())
    with torch.no_grad():
        obs, acts, toks, worth, choice, _ = dec.tensors(np.arange(len(dec)))
        logits = net(obs, acts, toks, worth)
    n = len(cold["choice"])
    assert n > 50
    best = logits[:n].max(1).values
    chosen = logits[:n].gather(1, choice[:n, None]).squeeze(1)
    assert float((best - chosen).max()) < 1e-3  # the cold choice is the best, or tied with it to 1e-3
    legal = (acts >= 0).sum(1)
    assert bool((choice < legal).all())  # every choice is a legal candidate
    assert 0 < (logits[n:].argmax(1) != choice[n:]).sum() < len(dec) - n  # at T=1 it sometimes leaves its best


def test_an_update_moves_the_choices_the_way_of_their_advantage(sampled):
    cold, _, warm = sampled
    net = NetBot(NET).net
    dec = nr.Decisions([cold, warm], [1.0, -1.0], nr.obs_size())
    args = type("A", (), {"epochs": 2, "batch_size": 256, "temperature": 1.0, "clip": 0.2})()
    before = nr.log_probs(net, dec.tensors(np.arange(len(dec))), 1.0).detach()
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    stats = nr.update(net, opt, dec, args, np.random.default_rng(0))
    after = nr.log_probs(net, dec.tensors(np.arange(len(dec))), 1.0).detach()
    n = len(cold["choice"])
    assert float((after - before)[:n].mean()) > 0 > float((after - before)[n:].mean())
    assert stats["kl"] != 0.0 and stats["loss"] < 0.05


def run(*args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "experiments.net_reinforce", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One run stopped after an iteration and resumed with 2 workers, and the same run in one go
    with 1 worker: three commands the tests below share, for the suite's time."""
    root = tmp_path_factory.mktemp("pg")
    out, whole = root / "pg", root / "whole"
    first = run(NET, "--out", str(out), "--iterations", "1", "--deals", "1", "--keep-every", "1")
    assert first.returncode == 0, first.stderr
    one = (out / nr.HISTORY).read_text().splitlines()
    second = run(NET, "--out", str(out), "--iterations", "2", "--deals", "1", "--workers", "2", "--keep-every", "1")
    assert second.returncode == 0, second.stderr
    straight = run(NET, "--out", str(whole), "--iterations", "2", "--deals", "1", "--keep-every", "1")
    assert straight.returncode == 0, straight.stderr
    return {"out": out, "whole": whole, "one": one, "second": second}


def history(folder) -> list[dict]:
    return [json.loads(x) for x in (folder / nr.HISTORY).read_text().splitlines()]


@SHARED
def test_the_command_keeps_its_folder_and_goes_on_from_it(runs, tmp_path):
    import shutil

    out = runs["out"]
    assert len(runs["one"]) == 1 and json.loads(runs["one"][0])["games"] == 2 and json.loads(runs["one"][0])["decisions"] > 50
    data = read_net_file(out / nr.LATEST)
    assert data["kinds"] == read_net_file(NET)["kinds"] and "net_reinforce" in data["made_by"]
    assert "going on after iteration 1" in runs["second"].stderr
    resumed = history(out)
    assert [h["iteration"] for h in resumed] == [1, 2]
    assert all(h["margin_weight"] == 0.5 and h["split"] in (0.0, 1.0) for h in resumed)  # one deal: split or not
    assert torch.load(out / nr.STATE, weights_only=False)["iteration"] == 2
    assert not list(out.glob("playing-*.pt"))  # the games' copies of the net are gone
    # the same two iterations in one go, with one worker: the same games and the same weights
    keys = ("games", "win_rate", "margin", "decisions", "loss", "split")
    assert [[h[k] for k in keys] for h in history(runs["whole"])] == [[h[k] for k in keys] for h in resumed]
    a, b = read_net_file(out / nr.LATEST)["state"], read_net_file(runs["whole"] / nr.LATEST)["state"]
    assert all(torch.equal(a[k], b[k]) for k in a)
    # going on with another step and margin weight uses them, not the saved ones
    go_on = tmp_path / "pg"
    shutil.copytree(out, go_on)
    with open(go_on / nr.HISTORY, "a") as f:  # as if stopped after the history line of 3, before its state
        f.write(json.dumps({"iteration": 3, "learning_rate": 9.0, "margin_weight": 9.0}) + "\n")
    step = "--iterations 3 --deals 1 --learning-rate 1e-6 --margin-weight 0 --keep-every 2".split()
    third = run(NET, "--out", str(go_on), *step)
    assert third.returncode == 0, third.stderr
    assert [(h["learning_rate"], h["margin_weight"]) for h in history(go_on)] == [(3e-5, 0.5), (3e-5, 0.5), (1e-6, 0.0)]
    assert not list(go_on.glob(".*.partial.*"))  # each file is written beside and renamed into place
    assert (go_on / "net-2.pt").is_file() and not (go_on / "net-3.pt").exists()  # 3 is not a second iteration


def test_split_share_counts_the_deals_whose_games_differ():
    parts = [part(0, 1.0, 2.0), part(0, -1.0, -2.0), part(1, -1.0, -4.0), part(1, -1.0, -8.0), part(2, 0.0, 0.0), part(2, 1.0, 1.0)]
    assert nr.split_share(parts) == pytest.approx(2 / 3)
    assert nr.split_share([]) == 0.0


def test_bad_input_is_refused_before_anything_runs(tmp_path):
    bad = run(NET, "--out", str(tmp_path / "x"), "--temperature", "0")
    assert bad.returncode == 2 and "--temperature 0.0" in bad.stderr and not (tmp_path / "x").exists()
    missing = run("nowhere.pt", "--out", str(tmp_path / "y"))
    assert missing.returncode == 2 and "'nowhere.pt'" in missing.stderr and not (tmp_path / "y").exists()
    (tmp_path / "file").write_text("")
    assert "a file is there" in run(NET, "--out", str(tmp_path / "file")).stderr
    vs = run(NET, "--out", str(tmp_path / "z"), "--vs", "nobody")
    assert vs.returncode == 2 and "nobody" in vs.stderr


@SHARED
def test_a_folder_of_another_run_is_refused(runs):
    out = runs["whole"]
    other = run(NET, "--out", str(out), "--iterations", "3", "--deals", "1", "--seed", "9")
    assert other.returncode == 2 and "seed 0" in other.stderr
    assert len(history(out)) == 2 and not (out / "net-3.pt").exists()


@SHARED
def test_the_curve_plays_each_kept_net_once(runs, tmp_path):
    import csv
    import shutil

    out = tmp_path / "pg"
    shutil.copytree(runs["whole"], out)
    cmd = [sys.executable, "-m", "experiments.reinforce_curve", str(out), "--vs", "random", "--games", "2"]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    rows = list(csv.DictReader((out / "evaluations.csv").open()))
    kept = history(out)
    steps = [0, kept[0]["decisions"], kept[0]["decisions"] + kept[1]["decisions"]]
    assert [int(r["timesteps"]) for r in rows] == steps and {r["opponent"] for r in rows} == {"random"}
    assert all(float(r["win_rate"]) == 1.0 for r in rows)  # the kept net beats random
    assert (out / "learning_curve.png").stat().st_size > 1000
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "(0 evaluations" in again.stdout
    assert len(list(csv.DictReader((out / "evaluations.csv").open()))) == 3
    every = subprocess.run([*cmd, "--vs", "greedy", "--every", "2"], capture_output=True, text=True, timeout=300)
    assert every.returncode == 0, every.stderr
    rows = list(csv.DictReader((out / "evaluations.csv").open()))
    assert [(int(r["timesteps"]), r["opponent"]) for r in rows[3:]] == [(0, "greedy"), (steps[2], "greedy")]
    bad = subprocess.run([*cmd[:3], str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "no state.pt and history.jsonl" in bad.stderr


def test_gae_runs_from_one_step_of_difference_to_the_whole_game():
    """GAE (experiments.critic): lam 0 judges a decision by the next value, lam 1 by the game's end."""
    from experiments.critic import explained_variance, gae

    v = np.array([0.0, 0.5, -0.5])
    assert gae(v, 1.0, 0.0) == pytest.approx([0.5, -1.0, 1.5])
    assert gae(v, 1.0, 1.0) == pytest.approx([1.0, 0.5, 1.5])
    assert gae(v, 1.0, 0.5) == pytest.approx([0.5 + 0.5 * (-1.0 + 0.5 * 1.5), -1.0 + 0.5 * 1.5, 1.5])
    assert explained_variance(np.array([1.0, -1.0]), np.array([1.0, -1.0])) == 1.0
    assert explained_variance(np.zeros(2), np.array([1.0, -1.0])) == 0.0


def test_the_critic_reads_the_position_and_learns_the_rewards(sampled):
    """The critic's inputs are the cartographer's value of the position and the game's progress
    (experiments.critic.position_features); fitted, its values move towards each decision's game
    reward, and GAE advantages (with zero game advantages) move the policy."""
    from experiments.critic import FEATURES, Critic, fit

    cold, _, warm = sampled
    assert cold["feat"].shape == (len(cold["choice"]), FEATURES)
    lead = cold["feat"][:, 2]  # the VP lead now over 20: near level at the start, near the margin at the end
    assert abs(lead[0]) <= 0.25 and lead[-1] == pytest.approx(cold["margin"] / 20.0, abs=1.0)
    net = NetBot(NET).net
    critic = Critic(0)
    dec = nr.Decisions([cold, warm], [0.0, 0.0], nr.obs_size(), [1.0, -1.0])
    n = len(cold["choice"])
    x = torch.as_tensor(dec.feat)
    with torch.no_grad():
        gap_before = float(critic(x)[:n].mean() - critic(x)[n:].mean())
    loss = fit(critic, torch.optim.Adam(critic.parameters(), lr=1e-3), dec.feat, dec.reward, 30, np.random.default_rng(0))
    with torch.no_grad():
        gap_after = float(critic(x)[:n].mean() - critic(x)[n:].mean())
    assert gap_after > gap_before + 0.5 and loss < 1.0  # the won game's positions now value higher than the lost one's
    args = type("A", (), {"epochs": 2, "batch_size": 64, "temperature": 1.0, "clip": 0.2, "lam": 0.9})()
    trunk = net.trunk[0].weight.clone()
    stats = nr.update(net, torch.optim.Adam(net.parameters(), lr=1e-4), dec, args, np.random.default_rng(0), (critic, True))
    assert stats["advantage"] == "gae" and stats["explained_variance"] > 0.2
    assert not torch.equal(trunk, net.trunk[0].weight)


def test_a_run_with_a_critic_goes_on_from_its_folder_as_one_run(tmp_path):
    crit = "--deals 1 --critic --critic-warmup 1 --keep-every 5".split()
    out, whole = tmp_path / "c", tmp_path / "w"
    assert run(NET, "--out", str(out), "--iterations", "1", *crit).returncode == 0
    again = run(NET, "--out", str(out), "--iterations", "2", *crit)
    assert again.returncode == 0 and "going on after iteration 1" in again.stderr
    assert run(NET, "--out", str(whole), "--iterations", "2", *crit).returncode == 0
    rows = history(out)
    assert [h["advantage"] for h in rows] == ["game", "gae"]  # the warm-up keeps the game advantages
    keys = ("win_rate", "margin", "loss", "value_loss", "explained_variance")
    assert [[h[k] for k in keys] for h in rows] == [[h[k] for k in keys] for h in history(whole)]
    a, b = (torch.load(f / nr.STATE, weights_only=False)["critic"] for f in (out, whole))
    assert all(torch.equal(a[k], b[k]) for k in a)
    plain = run(NET, "--out", str(out), "--iterations", "3", "--deals", "1")
    assert plain.returncode == 2 and "holds a run with a critic" in plain.stderr and len(history(out)) == 2
    bad = run(NET, "--out", str(tmp_path / "x"), "--critic", "--lam", "2")
    assert bad.returncode == 2 and "--lam 2.0" in bad.stderr and not (tmp_path / "x").exists()


def test_the_critic_probe_fits_both_critics_on_games_it_holds_out():
    cmd = [sys.executable, "-m", "benchmarks.critic_probe", "--games", "5", "--epochs", "1"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("10 games") and "held out (2 games)" in lines[1]  # the last fifth of the deals, both draws
    critics = [line.split()[0] for line in lines[2:]]
    assert critics == ["observation", "features"] and all(line.count("quarter") == 1 and line.count(",") == 4 for line in lines[2:])
