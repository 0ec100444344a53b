"""``wayfarers imitate``: behaviour cloning learns the recorded bot, DAgger adds labelled
decisions, and the model is an ordinary MaskablePPO that ``load_model`` loads and ``wayfarers
evaluate`` plays, built from the YAML's policy section as ``wayfarers train`` builds it.

The data is two recorded games (about 1,500 decisions), made once in-process.
"""

from __future__ import annotations

import re
import subprocess
import sys
from argparse import Namespace
from pathlib import Path

import numpy as np
import pytest
import yaml

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytestmark = pytest.mark.train

from experiments.dataset import build, save  # noqa: E402
from experiments.imitation import DEFAULT_CONFIG, Cloner, build_model, dagger_games, split_games, uniform_baseline  # noqa: E402
from experiments.train import load_config  # noqa: E402
from wayfarers_env import GameConfig  # noqa: E402

SMALL = {"policy": {"net_arch": [64]}, "opponents": {"bots": ["random"]}}


def wayfarers(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def data_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("imitate") / "games.npz"
    save(build(["astronomer", "journal"], 2, 0, GameConfig(num_players=2), progress=False), path)
    return path


@pytest.fixture(scope="module")
def data(data_file):
    from experiments.dataset import load_dataset

    return load_dataset(data_file)


def small_config(tmp_path: Path, **policy) -> dict:
    path = tmp_path / "small.yaml"
    path.write_text(yaml.safe_dump({**SMALL, "policy": {**SMALL["policy"], **policy}}))
    return load_config(path)


def test_imitate_from_the_shell_gives_a_model_that_evaluate_plays(data_file, tmp_path):
    res = wayfarers("imitate", "--data", str(data_file), "--out", "bc.zip", "--epochs", "1", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    assert "bc epoch 1:" in res.stderr  # the progress bar
    assert re.search(r"^bc epoch 1/1 +loss .*train acc 0\.\d+ .*val acc 0\.\d+", res.stdout, re.M), res.stdout
    assert "held out (1 games)" in res.stdout  # 10% of 2 games: one game held out whole
    assert re.search(r"^held-out choices by decision kind", res.stdout, re.M), res.stdout
    assert re.search(r"^turn +0\.\d{3} +[01]\.\d{3} +0\.\d{3}$", res.stdout, re.M), res.stdout  # every game has main actions
    policy = yaml.safe_load(DEFAULT_CONFIG.read_text())["policy"]  # the default config's policy section
    assert f"wrote bc.zip: a MaskablePPO model ({policy['extractor']} {policy['net_arch']})" in res.stdout

    from agents.policy_bot import load_model

    model = load_model(tmp_path / "bc.zip")
    assert [m.out_features for m in model.policy.mlp_extractor.policy_net if hasattr(m, "out_features")] == policy["net_arch"]

    res = wayfarers("evaluate", "bc.zip", "--vs", "astronomer", "--games", "1", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert re.search(r"^astronomer\s+1\s+[01]\.00", res.stdout, re.M), res.stdout


def test_the_policy_comes_from_the_yaml(tmp_path):
    from experiments.extractor import CardsExtractor

    model = build_model(small_config(tmp_path, extractor="cards", net_arch=[32, 16], activation="tanh"), seed=0)
    assert isinstance(model.policy.features_extractor, CardsExtractor)
    sizes = [m.out_features for m in model.policy.mlp_extractor.policy_net if hasattr(m, "out_features")]
    assert sizes == [32, 16]
    assert any(type(m).__name__ == "Tanh" for m in model.policy.mlp_extractor.policy_net)


def test_behaviour_cloning_learns_beyond_the_masked_uniform_baseline(data, tmp_path):
    cfg = small_config(tmp_path)
    model = build_model(cfg, seed=0)
    train, val = split_games(data, 0.5, 0)
    assert len(train) and len(val) and not set(data.game[train]) & set(data.game[val])  # whole games held out
    cloner = Cloner(model, 1e-3, cfg["ppo"]["gamma"], cfg["ppo"]["vf_coef"], 128, 0)
    before = cloner.score(data, train)
    for _ in range(6):
        cloner.epoch(data, train)
    after = cloner.score(data, train)
    baseline = uniform_baseline(data, train)
    assert 0.3 < baseline < 0.5
    assert after["acc"] > baseline + 0.3, (after, baseline)
    assert after["acc"] > before["acc"] + 0.2
    assert after["value_mse"] < before["value_mse"]
    assert cloner.score(data, val)["acc"] > uniform_baseline(data, val) + 0.15  # and it carries over to unseen games


def test_accuracy_by_kind_adds_up_to_the_choice_accuracy(data, tmp_path):
    from experiments.imitation import kind_table

    cfg = small_config(tmp_path)
    cloner = Cloner(build_model(cfg, seed=0), 1e-3, cfg["ppo"]["gamma"], cfg["ppo"]["vf_coef"], 128, 0)
    cloner.epoch(data, np.arange(len(data)))
    rows = np.arange(len(data))
    score = cloner.score(data, rows, by_kind=True)
    kinds = score["kinds"]
    choices = int((data.legal_counts() > 1).sum())
    assert sum(c for c, _r in kinds.values()) == choices  # every decision with a choice, counted once
    assert sum(r for _c, r in kinds.values()) / choices == pytest.approx(score["choice_acc"])
    assert {"turn", "die_space", "effect"} <= set(kinds)  # the kinds every game has
    assert all(0 <= r <= c for c, r in kinds.values())
    table = kind_table(kinds, top=3).splitlines()
    assert len(table) == 4 and table[0].split() == ["decision", "kind", "share", "acc", "errors"]
    top_name = max(kinds, key=lambda k: kinds[k][0])
    c, r = kinds[top_name]
    assert table[1].split() == [top_name, f"{c / choices:.3f}", f"{r / c:.3f}", f"{(c - r) / choices:.3f}"]


def test_same_seed_same_weights(data, tmp_path):
    cfg = small_config(tmp_path)
    weights = []
    for _ in range(2):
        model = build_model(cfg, seed=5)
        cloner = Cloner(model, 1e-3, 0.997, 0.5, 256, 5)
        cloner.epoch(data, np.arange(min(600, len(data))))
        weights.append([p.detach().clone() for p in model.policy.parameters()])
    assert all((a == b).all() for a, b in zip(*weights))


def test_a_dagger_round_adds_decisions_labelled_by_the_expert(data, tmp_path):
    from experiments.dataset import from_rows

    model = build_model(small_config(tmp_path), seed=0)
    parts = dagger_games(model, "astronomer", ["astronomer", "journal"], data.meta["config"], 1, seed=0, progress=False)
    new = from_rows(data.meta, parts)
    assert len(new) > 50
    assert new.games[0]["players"] == ["learner", "journal"] and set(new.seat.tolist()) == {0}  # game 0: the learner in seat 0
    assert new.masks(np.arange(len(new)))[np.arange(len(new)), new.action].all()  # every label legal where it was asked
    # the untrained policy plays its own moves, not the labels: they differ somewhere
    played = [a for a, s in zip(new.actions_of(0), _seats(new.actions_of(0), new)) if s == 0]
    assert played != new.action.tolist()


def _seats(actions: list[int], data) -> list[int]:
    """The seat of each action of game 0 (replayed)."""
    from wayfarers_env import Game

    game = Game(data.meta["config"], data.games[0]["seed"])
    seats = []
    for a in actions:
        seats.append(game.current_player)
        game.apply(a)
    return seats


@pytest.mark.slow
def test_dagger_from_the_shell_reports_the_aggregate(data_file, tmp_path):
    cfg = tmp_path / "small.yaml"
    cfg.write_text(yaml.safe_dump(SMALL))
    args = ["--data", str(data_file), "--out", "m.zip", "--config", str(cfg), "--epochs", "1", "--quiet"]
    res = wayfarers("imitate", *args, "--dagger-rounds", "1", "--expert", "cartographer", "--dagger-games", "1", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    trained = int(re.search(r"(\d+) to train on", res.stdout).group(1))
    added, total = map(int, re.search(r"dagger round 1: (\d+) decisions .* training on (\d+)", res.stdout).groups())
    assert added > 0 and total == trained + added
    assert re.search(r"^dagger 1 epoch 1/1 ", res.stdout, re.M)
    assert (tmp_path / "m.zip").is_file()


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--dagger-rounds", "1"], ["--dagger-rounds needs --expert"]),
        (["--dagger-rounds", "1", "--expert", "nobody"], ["--expert", "unknown bot 'nobody'"]),
        (["--expert", "greedy"], ["--expert", "--dagger-rounds"]),
        (["--holdout", "1"], ["--holdout"]),
        (["--out", "model.pt"], ["must end in .zip"]),
        (["--data", "missing.npz"], ["missing.npz", "does not exist"]),
        (["--data", "broken.npz"], ["broken.npz", "corrupt or truncated"]),
        (["--config", "nope.yaml"], ["nope.yaml", "does not exist"]),
    ],
)
def test_bad_input_is_one_error_line_and_writes_nothing(data_file, tmp_path, extra, words, capsys, monkeypatch):
    """Through ``main`` in-process (the shell's path, without an interpreter start per case)."""
    from experiments.cli import main

    (tmp_path / "broken.npz").write_bytes(data_file.read_bytes()[:5000])
    before = sorted(tmp_path.iterdir())
    monkeypatch.chdir(tmp_path)
    assert main(["imitate", "--data", str(data_file), "--out", "m.zip", *extra]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    for word in words:
        assert word in lines[0]
    assert sorted(tmp_path.iterdir()) == before


def test_an_existing_model_is_kept_without_overwrite_from_the_shell(data_file, tmp_path):
    (tmp_path / "m.zip").write_bytes(b"mine")
    res = wayfarers("imitate", "--data", str(data_file), "--out", "m.zip", cwd=tmp_path)
    assert res.returncode == 2 and "already exists" in res.stderr and "--overwrite" in res.stderr
    assert (tmp_path / "m.zip").read_bytes() == b"mine"


def test_run_in_process_uses_the_arguments(data_file, tmp_path, capsys):
    """``run`` itself (what the shell calls), with two files given to --data (their games add up)
    and one DAgger round of one game (the same from the shell: the slow test above)."""
    from experiments.imitation import run

    cfg = tmp_path / "small.yaml"
    cfg.write_text(yaml.safe_dump(SMALL))
    args = Namespace(
        data=f"{data_file},{data_file}",
        out=str(tmp_path / "m.zip"),
        overwrite=False,
        config=str(cfg),
        epochs=1,
        batch_size=512,
        learning_rate=1e-3,
        seed=0,
        holdout=0.25,
        dagger_rounds=1,
        expert="astronomer",
        dagger_games=1,
        soft=0.5,  # the bots' values as targets, in the recorded games and the DAgger labels alike
        quiet=True,
    )
    assert run(args) == 0
    out = capsys.readouterr().out
    assert "from 4 games" in out and "held out (1 games)" in out
    trained = int(re.search(r"(\d+) to train on", out).group(1))
    added, total = map(int, re.search(r"dagger round 1: (\d+) decisions .* training on (\d+)", out).groups())
    assert added > 0 and total == trained + added  # the policy's labelled decisions join the training set
    assert re.search(r"^dagger 1 epoch 1/1 ", out, re.M)
    assert "and " + str(added) + " DAgger decisions" in out


def test_the_shipped_from_dagger_config_makes_its_own_init_with_imitate(data_file, tmp_path, monkeypatch):
    """experiments/configs/ppo_2p_from_dagger.yaml names, as training.init, the model its own
    header's imitate command writes: imitate must accept the config before that file exists, and
    train must then find a model that fits the config's policy."""
    from experiments.train import TrainConfigError, initial_weights

    shipped = Path(__file__).resolve().parent.parent / "experiments" / "configs" / "ppo_2p_from_dagger.yaml"
    init = yaml.safe_load(shipped.read_text())["training"]["init"]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TrainConfigError, match="training.init: no trained policy at"):
        load_config(shipped)  # train refuses it until the model exists ...
    (tmp_path / init).parent.mkdir(parents=True)  # the header's mkdir -p
    res = wayfarers("imitate", "--data", str(data_file), "--out", init, "--config", str(shipped), "--epochs", "1", "--quiet", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / init).is_file()
    weights = initial_weights(load_config(shipped))  # ... and takes it once imitate wrote it
    assert weights is not None and len(weights) > 0


def test_recorded_values_are_the_bots_own_and_make_soft_targets(data):
    """``dataset`` keeps a lookahead bot's value of every candidate where it valued them: the
    recorded action is among the best valued (its pick breaks ties at random), every valued
    candidate was legal, and ``soft_targets`` turns them into a distribution that sharpens onto
    the best-valued candidates as the temperature falls; a decision made by rule stays one-hot."""
    n = len(data)
    counts = np.diff(data.soft_ptr)
    valued = np.flatnonzero(counts > 1)
    assert 0.2 * n < len(valued) < n  # the searched kinds only, not the rule-answered ones
    masks = data.masks(np.arange(n))
    for r in valued[:200].tolist():
        a, b = data.soft_ptr[r], data.soft_ptr[r + 1]
        acts, vals = data.soft_action[a:b].astype(int), data.soft_value[a:b]
        assert masks[r, acts].all() and data.action[r] in acts
        assert vals[list(acts).index(int(data.action[r]))] >= vals.max() - 1e-3
    rows = valued[:50]
    warm, cold = data.soft_targets(rows, 5.0), data.soft_targets(rows, 0.01)
    assert np.allclose(warm.sum(1), 1) and np.allclose(cold.sum(1), 1)
    assert (cold[np.arange(len(rows)), data.action[rows]] >= warm[np.arange(len(rows)), data.action[rows]] - 1e-6).all()
    assert (np.count_nonzero(warm, axis=1) > 1).mean() > 0.5  # a warm target spreads over the candidates
    by_rule = np.flatnonzero(counts == 0)[:20]
    target = data.soft_targets(by_rule, 1.0)
    assert (target[np.arange(len(by_rule)), data.action[by_rule]] == 1).all() and (target.sum(1) == 1).all()


def test_a_file_without_values_loads_with_none_and_soft_refuses_it(tmp_path, data_file):
    """Files recorded before the values existed lack the three members: they load with no row
    valued, and ``--soft`` says the file has no values instead of training on one-hot targets."""
    import zipfile

    from experiments.dataset import load_dataset

    old = tmp_path / "old.npz"
    with zipfile.ZipFile(data_file) as src, zipfile.ZipFile(old, "w") as dst:
        for item in src.infolist():
            if not item.filename.startswith("soft_"):
                dst.writestr(item, src.read(item.filename))
    loaded = load_dataset(old)
    assert len(loaded.soft_action) == 0 and (loaded.soft_ptr == 0).all() and len(loaded.soft_ptr) == len(loaded) + 1
    cfg = tmp_path / "small.yaml"
    cfg.write_text(yaml.safe_dump(SMALL))
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "experiments.cli",
            "imitate",
            "--data",
            str(old),
            "--out",
            str(tmp_path / "m.zip"),
            "--config",
            str(cfg),
            "--soft",
            "1",
        ],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 2 and "holds no bot values" in res.stderr and not (tmp_path / "m.zip").exists()
    res = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "imitate", "--data", str(old), "--out", str(tmp_path / "m.zip"), "--soft", "-1"],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 2 and "--soft takes a temperature" in res.stderr
