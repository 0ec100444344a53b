"""A trained candidate net as a bot (agents/net_bot.py): the net file (experiments/net_pack.py), the
bot name ``net:FILE``, ``wayfarers evaluate FILE.pt`` and the net kept in models/."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.net_bot import FORMAT, NetBot, NetFileError, read_net_file  # noqa: E402
from agents.registry import UnknownBotError, make_bot  # noqa: E402
from experiments.candidate_net import CandidateNet  # noqa: E402
from wayfarers_env import Game, GameConfig  # noqa: E402
from wayfarers_env.envs.candidates import KINDS  # noqa: E402
from wayfarers_env.envs.players import View, choose  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
KEPT = ROOT / "models" / "cartographer-worth.pt"


def shell(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def weights(tmp_path_factory) -> dict[str, Path]:
    """Untrained weights of a worth net and a flat net, saved as candidate_probe --save saves them."""
    root = tmp_path_factory.mktemp("weights")
    out = {}
    for name in ("worth", "flat"):
        torch.manual_seed(0)
        out[name] = root / f"{name}.pt"
        torch.save(CandidateNet(flat=name == "flat", worth=name == "worth").state_dict(), out[name])
    return out


@pytest.fixture(scope="module")
def packed(weights, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("packed") / "worth-turn.pt"
    res = shell("-m", "experiments.net_pack", str(weights["worth"]), str(out), "--kinds", "turn", "--made-by", "a test")
    assert res.returncode == 0, res.stderr
    assert re.fullmatch(rf"wrote {re.escape(str(out))}: a worth net answering turn \([\d,]+ bytes\)\n", res.stdout), res.stdout
    return out


def test_a_net_file_keeps_the_shape_the_kinds_and_half_precision_weights(packed, weights):
    data = read_net_file(packed)
    assert (data["format"], data["flat"], data["worth"], data["kinds"], data["made_by"]) == (FORMAT, False, True, ["turn"], "a test")
    full = torch.load(weights["worth"], weights_only=True)
    assert set(data["state"]) == set(full)
    assert all(v.dtype == torch.float16 for v in data["state"].values())
    assert torch.equal(data["state"]["trunk.0.weight"], full["trunk.0.weight"].half())
    # half the bytes of the float32 weights, give or take the archive's few kB
    assert packed.stat().st_size < 0.55 * weights["worth"].stat().st_size


def test_the_bot_asks_the_net_for_its_kinds_and_the_rules_for_the_rest(packed):
    """A ``turn`` decision takes the net's highest logit; every other decision is what the
    cartographer's rules (its DefaultPolicy) choose."""
    bot = make_bot(f"net:{packed}")
    assert isinstance(bot, NetBot) and bot.kinds == {"turn"} and bot.name == f"net:{packed}"
    game, rng = Game(GameConfig(num_players=2), seed=3), random.Random(0)
    asked = {"net": 0, "rules": 0}
    while not game.state.over and sum(asked.values()) < 300:
        legal = game.legal_actions()
        view = View(game, game.state.current, rng)
        chosen, seen = bot.decide(view, legal, rng), view.game  # the bot's own determinized copy
        if len(legal) > 1:
            if seen.decision()[0] == "turn":
                acts, toks, worth = bot.candidates.encode(seen, legal)
                obs = torch.as_tensor(bot.encoder.encode(seen, view.seat))[None]
                as_long = [torch.as_tensor(x.astype("int64"))[None] for x in (acts, toks)]
                logits = bot.net(obs, *as_long, torch.as_tensor(worth)[None])
                assert chosen == legal[int(logits[0].argmax())]
                asked["net"] += 1
            else:
                assert chosen == bot.rules(seen, legal)
                asked["rules"] += 1
        game.apply(chosen)
    assert asked["net"] >= 10 and asked["rules"] >= 10, asked


def test_a_net_bot_plays_the_same_game_from_the_same_seed(packed):
    def play() -> list[int]:
        game, bots = Game(GameConfig(num_players=2), seed=11), [make_bot(f"net:{packed}"), make_bot("random")]
        rngs, actions = [random.Random(1), random.Random(2)], []
        while not game.state.over and len(actions) < 400:
            actions.append(choose(bots[game.state.current], game, rngs[game.state.current]))
            game.apply(actions[-1])
        return actions

    assert play() == play()


def test_bad_net_files_are_refused_by_name(packed, weights, tmp_path):
    text = tmp_path / "notes.pt"
    text.write_text("not a net")
    old = tmp_path / "old.pt"
    torch.save({**read_net_file(packed), "version": 99}, old)
    kinds = tmp_path / "kinds.pt"
    torch.save({**read_net_file(packed), "kinds": ["bag_order"]}, kinds)
    swapped = tmp_path / "swapped.pt"
    torch.save({**read_net_file(packed), "worth": False, "flat": True}, swapped)  # a worth net's weights called flat
    cases = {
        "net:": "give the net file after 'net:'",
        f"net:{tmp_path / 'nope.pt'}": "no file there",
        f"net:{tmp_path}": "a folder there",
        f"net:{text}": "not a torch archive",
        f"net:{weights['worth']}": "pack it with python -m experiments.net_pack",
        f"net:{old}": "version 99; this version reads version 1",
        f"net:{kinds}": "answers kinds ['bag_order']",
        f"net:{swapped}": "do not fit this version's candidate net",
    }
    for name, words in cases.items():
        with pytest.raises(UnknownBotError) as err:
            make_bot(name)
        assert words in str(err.value), (name, str(err.value))
        assert isinstance(err.value, NetFileError) or name == "net:"


def test_net_pack_refuses_what_it_cannot_pack(packed, weights, tmp_path):
    exists = shell("-m", "experiments.net_pack", str(weights["flat"]), str(packed))
    assert exists.returncode == 2 and "exists; choose another OUT or pass --overwrite" in exists.stderr
    bad_kind = shell("-m", "experiments.net_pack", str(weights["flat"]), str(tmp_path / "x.pt"), "--kinds", "turn,dance")
    assert bad_kind.returncode == 2 and "dance" in bad_kind.stderr and "kinds: " + ", ".join(KINDS) in bad_kind.stderr
    not_weights = tmp_path / "list.pt"
    torch.save([1, 2], not_weights)
    res = shell("-m", "experiments.net_pack", str(not_weights), str(tmp_path / "y.pt"))
    assert res.returncode == 2 and "not a net's weights" in res.stderr
    assert not (tmp_path / "x.pt").exists() and not (tmp_path / "y.pt").exists()
    flat = shell("-m", "experiments.net_pack", str(weights["flat"]), str(tmp_path / "flat.pt"))
    assert flat.returncode == 0 and "a flat net answering " + ", ".join(KINDS) in flat.stdout


def _table(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.strip()]


def test_evaluate_a_net_file_from_the_shell(packed):
    """``wayfarers evaluate FILE.pt`` plays the bot net:FILE on the tournament's schedule; the
    table is the same for any --workers."""
    one = shell("-m", "experiments.cli", "evaluate", str(packed), "--vs", "random", "--games", "2")
    two = shell("-m", "experiments.cli", "evaluate", str(packed), "--vs", "random", "--games", "2", "--workers", "2")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert "each deal from both seats" in one.stderr and "base game, 2 players" in one.stderr
    rows = _table(one.stdout)
    assert rows[0].split() == ["opponent", "games", "win", "rate", "95%", "interval", "margin"]
    cells = rows[1].split()
    assert cells[:2] == ["random", "2"] and 0.0 <= float(cells[2]) <= 1.0
    assert rows == _table(two.stdout)


def test_evaluate_refuses_workers_for_a_ppo_model_and_a_bad_net_file(tmp_path):
    res = shell("-m", "experiments.cli", "evaluate", str(tmp_path / "model.zip"), "--workers", "2")
    assert res.returncode != 0 and "--workers is for a net file (.pt)" in res.stderr and "Traceback" not in res.stderr
    res = shell("-m", "experiments.cli", "evaluate", str(tmp_path / "none.pt"))
    assert res.returncode != 0 and "none.pt" in res.stderr and "no file there" in res.stderr and "Traceback" not in res.stderr


REINFORCED = ROOT / "models" / "cartographer-reinforced.pt"


def test_the_kept_net_is_under_the_cap_and_says_how_it_was_made():
    """models/cartographer-worth.pt: the net behind docs/RESULTS.md's figure (docs/TRAINING.md)."""
    assert KEPT.stat().st_size <= 10_000_000
    data = read_net_file(KEPT)
    assert data["worth"] and not data["flat"] and data["kinds"] == list(KINDS)
    assert "wayfarers dataset --players cartographer,cartographer --games 2400" in data["made_by"]
    assert "candidate_probe" in data["made_by"] and "net_pack" in data["made_by"]


def test_the_reinforced_net_is_under_the_cap_and_says_how_it_was_made():
    """models/cartographer-reinforced.pt (docs/TRAINING.md "Policy gradient on the net's own games"):
    the kept net's shape, its commands, then the four commands of the policy-gradient run."""
    assert REINFORCED.stat().st_size <= 10_000_000
    data, start = read_net_file(REINFORCED), read_net_file(KEPT)
    assert (data["worth"], data["flat"], data["kinds"]) == (start["worth"], start["flat"], start["kinds"])
    assert "wayfarers dataset --players cartographer,cartographer --games 2400" in data["made_by"]
    runs = [line for line in data["made_by"].splitlines() if line.startswith("python -m experiments.net_reinforce")]
    assert [line.split("--iterations ")[1].split()[0] for line in runs] == ["59", "87", "150", "180"]
    assert "--margin-weight 0.1" in runs[-1] and data["made_by"].endswith("cp runs/pg/t05/net-180.pt models/cartographer-reinforced.pt")
    assert any(not torch.equal(data["state"][k], start["state"][k]) for k in data["state"])  # trained on, not a copy


CRITIC = ROOT / "models" / "cartographer-critic.pt"


def test_the_critic_net_is_under_the_cap_and_says_how_it_was_made():
    """models/cartographer-critic.pt (docs/TRAINING.md "A critic"): the kept net's shape, its
    commands, then the one command of the run with a critic and the copy of its iteration 120."""
    assert CRITIC.stat().st_size <= 10_000_000
    data, start = read_net_file(CRITIC), read_net_file(KEPT)
    assert (data["worth"], data["flat"], data["kinds"]) == (start["worth"], start["flat"], start["kinds"])
    assert "wayfarers dataset --players cartographer,cartographer --games 2400" in data["made_by"]
    runs = [line for line in data["made_by"].splitlines() if line.startswith("python -m experiments.net_reinforce")]
    assert len(runs) == 1 and "--critic" in runs[0] and "--iterations 120" in runs[0]
    assert data["made_by"].endswith("cp runs/pg/critic/net-120.pt models/cartographer-critic.pt")
    other = read_net_file(REINFORCED)["state"]
    assert any(not torch.equal(data["state"][k], start["state"][k]) for k in data["state"])
    assert any(not torch.equal(data["state"][k], other[k]) for k in data["state"])  # its own run, not stop 42's


@pytest.mark.parametrize("kept", ["models/cartographer-worth.pt", "models/cartographer-reinforced.pt", "models/cartographer-critic.pt"])
def test_the_kept_net_from_the_shell_as_the_readme_shows_it(kept):
    """The README's command with fewer games: the table it prints, from a fresh process."""
    script = str(Path(sys.executable).parent / "wayfarers")
    res = subprocess.run(
        [script, "evaluate", kept, "--vs", "cartographer", "--games", "2"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert res.returncode == 0, res.stderr
    cells = _table(res.stdout)[1].split()
    assert cells[:2] == ["cartographer", "2"] and cells[2] in ("0.00", "0.25", "0.50", "0.75", "1.00")


@pytest.fixture(scope="module")
def small_dataset_for_net(tmp_path_factory) -> Path:
    from experiments.dataset import build, save

    path = tmp_path_factory.mktemp("carto") / "d.npz"
    save(build(["cartographer", "cartographer"], 2, 0, GameConfig(num_players=2), workers=1, progress=False), path)
    return path


@pytest.fixture(scope="module")
def dagger_file(packed, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("dagger")
    out = {}
    for workers in ("1", "2"):
        out[workers] = root / f"w{workers}.npz"
        res = shell("-m", "experiments.net_dagger", str(packed), "--games", "2", "--workers", workers, "--out", str(out[workers]))
        assert res.returncode == 0, res.stderr
        assert re.match(
            rf"wrote {re.escape(str(out[workers]))}: \d+ decisions of net:{re.escape(str(packed))} labelled by cartographer", res.stdout
        )
    return out


def test_dagger_plays_the_net_and_records_the_experts_choices(dagger_file):
    """The moves are the net's, the labels the cartographer's (its best value where it valued the
    candidates); the file is the same for any --workers."""
    from experiments.candidate_net import encode_dataset
    from experiments.dataset import load_dataset

    assert dagger_file["1"].read_bytes() == dagger_file["2"].read_bytes()
    data = load_dataset(dagger_file["1"])
    assert [g["recorded"] for g in data.games] == [[0], [1]] and all(g["dagger"] for g in data.games)
    assert data.meta["dagger"] == {"learner": data.meta["players"][0], "expert": "cartographer"}
    valued = 0
    for r in range(len(data)):
        a, b = int(data.soft_ptr[r]), int(data.soft_ptr[r + 1])
        if b - a > 1:
            values = dict(zip(data.soft_action[a:b].tolist(), data.soft_value[a:b].tolist()))
            assert values[int(data.action[r])] == pytest.approx(max(values.values()), abs=1e-4)
            valued += 1
    assert valued > 100
    cand = encode_dataset(data)  # labels are the expert's choices, not the moves played
    moves = {g: data.actions_of(g) for g in range(len(data.games))}
    assert (cand.actions[np.arange(len(cand)), cand.label] == data.action[cand.rows]).all()
    played = []
    for g, acts in moves.items():
        game, rows = Game(GameConfig(num_players=2, board_sides=data.meta["config"]["board_sides"]), seed=data.games[g]["seed"]), 0
        mine = data.games[g]["recorded"][0]
        for action in acts:
            if game.state.current == mine:
                played.append(int(data.action[np.flatnonzero(data.game == g)[rows]]) != action)
                rows += 1
            game.apply(action)
    assert any(played), "an untrained net's moves all matched the expert: the labels would not be the expert's"


def test_probe_trains_on_both_files_from_saved_weights(small_dataset_for_net, dagger_file, tmp_path):
    """``--init DIR`` starts from saved weights and trains; several data files are read as one."""
    cmd = [sys.executable, "-m", "benchmarks.candidate_probe", str(small_dataset_for_net), str(dagger_file["1"]), "--holdout", "0.5"]
    first = subprocess.run(
        [*cmd, "--nets", "worth", "--epochs", "1", "--save", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert first.returncode == 0, first.stderr
    assert f"{small_dataset_for_net}, {dagger_file['1']}: " in first.stdout
    more = subprocess.run(
        [*cmd, "--nets", "worth", "--epochs", "1", "--init", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert more.returncode == 0, more.stderr
    assert f"worth: training loss by epoch from {tmp_path / 'worth.pt'}" in more.stdout
    loss = [float(line.split()[-1]) for out in (first.stdout, more.stdout) for line in out.splitlines() if "training loss" in line]
    assert loss[1] < loss[0]  # the second epoch starts where the first ended
    both = subprocess.run([*cmd, "--load", str(tmp_path), "--init", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert both.returncode == 2 and "exclude each other" in both.stderr


def test_unpack_gives_back_weights_training_can_start_from(packed, weights, tmp_path):
    """``net_pack --unpack`` writes a net file's weights in float32: the packed (float16) weights
    exactly, which a net loads and plays as the file's bot does; a file that is no net is refused."""
    out = tmp_path / "init" / "worth.pt"
    res = shell("-m", "experiments.net_pack", "--unpack", str(packed), str(out))
    assert res.returncode == 0 and "a worth net, in float32" in res.stdout, res.stderr
    state = torch.load(out, weights_only=True)
    assert all(v.dtype == torch.float32 for v in state.values())
    full = torch.load(weights["worth"], weights_only=True)
    assert set(state) == set(full) and torch.equal(state["trunk.0.weight"], full["trunk.0.weight"].half().float())
    net = CandidateNet(worth=True)
    net.load_state_dict(state)
    bot = NetBot(packed)
    assert all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), bot.net.state_dict().values()))
    again = shell("-m", "experiments.net_pack", "--unpack", str(packed), str(out))
    assert again.returncode == 2 and "--overwrite" in again.stderr
    bad = shell("-m", "experiments.net_pack", "--unpack", str(weights["worth"]), str(tmp_path / "z.pt"))
    assert bad.returncode == 2 and "not a net file" in bad.stderr and not (tmp_path / "z.pt").exists()


def test_teacher_gaps_reads_the_moves_back_from_the_games(dagger_file):
    """``benchmarks.teacher_gaps`` finds the learner's own moves by replaying the games (a DAgger
    row holds the expert's label): every decision the cartographer valued is counted, and the gap
    is the expert's best value less its value of the move actually played."""
    from benchmarks.teacher_gaps import gaps, learner_moves
    from experiments.dataset import load_dataset

    data = load_dataset(dagger_file["1"])
    moves = learner_moves(data)
    played = [a for g in range(len(data.games)) for a in data.actions_of(g)]
    assert set(moves.tolist()) <= set(played)
    found = gaps(data, moves)
    valued = [r for r in range(len(data)) if data.soft_ptr[r + 1] - data.soft_ptr[r] > 1]
    covered = [r for r in valued if int(moves[r]) in data.soft_action[data.soft_ptr[r] : data.soft_ptr[r + 1]].tolist()]
    assert len(found) == len(covered) > 10 and len(covered) >= 0.9 * len(valued)
    assert all(gap >= 0 for gap, _m, _b in found) and any(gap > 0 for gap, _m, _b in found)
    assert any(int(data.action[r]) != moves[r] for r in valued)  # labels and moves differ somewhere
    res = shell("-m", "benchmarks.teacher_gaps", str(dagger_file["1"]), "--large", "2")
    assert res.returncode == 0, res.stderr
    assert f"{len(found)} decisions where the expert valued the move played" in res.stdout
    shares = [float(line.split()[-2]) for line in res.stdout.splitlines()[5:] if line.strip()]
    assert shares and sum(shares) <= 1.0 + 1e-6 and shares == sorted(shares, reverse=True)
