"""The Tides of Trade options wherever a game is configured: the environments' keywords, the
commands' flags (simulate, play, train's YAML, evaluate), the records that replay an expansion
game, and ``simulate --resume`` refusing other expansion settings.

The commands run from the shell as a user runs them (the expansion's rules and observation are
tested in tests/test_tides_*.py and tests/test_env_observation_tides.py).
"""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from experiments.cli import CARD_INFLUENCE, build_parser
from experiments.evaluate import game_env, run_env
from experiments.train import TrainConfigError, load_config
from wayfarers_env import ConfigError, GameConfig, SingleAgentEnv, env
from wayfarers_env.envs.aec import raw_env
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.scoring import BASE_SOURCES, TIDES_SOURCES
from wayfarers_env.vocabulary import CARD_INFLUENCE as ENGINE_CARD_INFLUENCE

SEED = "6"  # both games of `simulate --players random,random --games 2 --seed 6` with the expansion end
EXPANSION = ("--tides-of-trade", "--card-influence", "ink_well")
# every expansion action id comes after the base game's (rules/actions.py appends the "_tides" sections)
FIRST_EXPANSION_ID = min(start for name, start, _stop, _meaning in CATALOG.sections if name.endswith("_tides"))


def wayfarers(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], input=stdin, capture_output=True, text=True, timeout=300)


def one_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    """What every refused command shows: one ``error:`` line naming the problem, status 2."""
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: ") and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    for word in words:
        assert word in proc.stderr, (word, proc.stderr)


def simulate(out: Path, *extra: str) -> subprocess.CompletedProcess:
    proc = wayfarers("simulate", "--players", "random,random", "--games", "2", "--seed", SEED, "--out", str(out), "--quiet", *extra)
    assert proc.returncode == 0, proc.stderr
    return proc


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def tides_run(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    out = tmp_path_factory.mktemp("tides") / "run"
    return out, simulate(out, *EXPANSION)


# ------------------------------------------------------------------------ simulate and its records


def test_simulate_records_the_expansion_and_its_scores(tides_run, tmp_path):
    out, proc = tides_run
    recs = records(out)
    assert len(recs) == 2
    for rec in recs:
        config = GameConfig.from_dict(rec["config"])
        assert (config.tides_of_trade, config.card_influence, config.extension_sides) == (True, "ink_well", "random")
        for score in rec["scores"]:
            assert set(score) == {*BASE_SOURCES, *TIDES_SOURCES, "total"}  # the expansion's sources join the base game's
            assert score["total"] == sum(score[k] for k in (*BASE_SOURCES, *TIDES_SOURCES))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["config"]["tides_of_trade"] is True and summary["run"]["config"]["card_influence"] == "ink_well"
    assert "secondary sets" in proc.stdout and "red guild" in proc.stdout  # the table's VP-by-source columns

    base = tmp_path / "base"
    base_proc = simulate(base)
    for rec in records(base):
        assert rec["config"]["tides_of_trade"] is False and rec["config"]["card_influence"] == "both"
        assert all(set(score) == {*BASE_SOURCES, "total"} for score in rec["scores"])  # no expansion source in a base game
    assert not any(source.replace("_", " ") in base_proc.stdout for source in TIDES_SOURCES)


def test_the_same_seed_plays_the_same_expansion_games(tides_run, tmp_path):
    out, _proc = tides_run
    again = tmp_path / "again"
    simulate(again, *EXPANSION, "--workers", "2")
    assert (again / "games.jsonl").read_bytes() == (out / "games.jsonl").read_bytes()


def test_replay_rebuilds_an_expansion_game_from_its_record(tides_run, tmp_path):
    out, _proc = tides_run
    for index, rec in enumerate(records(out)):
        proc = wayfarers("replay", str(out / "games.jsonl"), "--game", str(index))
        assert proc.returncode == 0, proc.stderr
        assert "replay reproduces the recorded scores" in proc.stdout
        table = proc.stdout[proc.stdout.rindex("seat  bot") :].splitlines()
        assert "red guild" in table[0] and "caravan squares" in table[0]
        for seat, score in enumerate(rec["scores"]):  # each seat's row: every source, then the total
            assert table[1 + seat].split()[-len(score) :] == [str(score[k]) for k in score]
    # the record's expansion fields are what rebuilds the game: changed, the actions no longer replay
    lines = (out / "games.jsonl").read_text().splitlines()
    for change in ({"tides_of_trade": False, "card_influence": "both"},):  # a game need not use every setting: flip the expansion
        rec = json.loads(lines[0])
        rec["config"].update(change)
        path = tmp_path / "changed.jsonl"
        path.write_text(json.dumps(rec) + "\n")
        one_error(wayfarers("replay", str(path)), "changed.jsonl line 1", "does not replay")


# ------------------------------------------------------------------------ flags that need the expansion


def fake_model(folder: Path, env_section: dict | None = None) -> str:
    """A zip with the entries of a saved model, in a run folder whose config.yaml has ``env_section``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "final_model.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", b"{}")
        archive.writestr("policy.pth", b"not a tensor file")
    if env_section is not None:
        (folder / "config.yaml").write_text(yaml.safe_dump({"name": "fake", "env": env_section}))
    return str(path)


@pytest.mark.parametrize("option", [("--card-influence", "ink_well"), ("--extension-sides", "ab"), ("--card-influence", "both")])
@pytest.mark.parametrize("command", ["simulate", "play", "evaluate"])
def test_expansion_options_without_the_expansion_are_refused(tmp_path, command, option):
    out = tmp_path / "out"
    if command == "simulate":
        args = ["simulate", "--players", "random,random", "--games", "1", "--out", str(out)]
    elif command == "play":
        args = ["play", "--players", "random,random"]
    else:
        args = ["evaluate", fake_model(tmp_path / "run"), "--games", "1"]
    flag = option[0]
    one_error(wayfarers(*args, *option), f"error: {flag} belongs to the Tides of Trade expansion: add --tides-of-trade, or drop {flag}")
    if command == "evaluate":  # --no-tides-of-trade says the same thing in so many words
        one_error(wayfarers(*args, "--no-tides-of-trade", *option), f"{flag} belongs to the Tides of Trade expansion")
    assert not out.exists()


@pytest.mark.parametrize(
    "option, words",
    [
        (("--card-influence", "red"), ["argument --card-influence: invalid choice: 'red'", "'both', 'ink_well', 'cards'"]),
        (("--extension-sides", "aba"), ["argument --extension-sides: must be 'random' or two letters a/b", "'aba'"]),
    ],
)
def test_bad_expansion_values_are_refused(tmp_path, option, words):
    out = tmp_path / "out"
    one_error(wayfarers("simulate", "--players", "random,random", "--tides-of-trade", *option, "--out", str(out)), *words)
    assert not out.exists()


def test_the_command_offers_the_engines_card_influence_settings():
    assert CARD_INFLUENCE == ENGINE_CARD_INFLUENCE  # spelled out in cli.py so that --help loads no engine
    for command in ("simulate", "play", "evaluate"):
        text = wayfarers(command, "--help").stdout
        assert "--tides-of-trade" in text and "{both,ink_well,cards}" in text and "--extension-sides" in text


def test_play_an_expansion_game_to_its_score_table():
    proc = wayfarers("play", "--players", "random,random", "--seed", "0", *EXPANSION)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    head, *rows, last = proc.stdout[proc.stdout.rindex("seat  bot") :].splitlines()
    assert "red guild" in head and "secondary sets" in head
    assert len(rows) == 2 and last.startswith("game over after")
    assert "on the Ink Well" in proc.stdout  # ink_well: card influence goes there


# ------------------------------------------------------------------------ simulate --resume


@pytest.mark.parametrize(
    "flags, message",
    [
        ((), "was run with --tides-of-trade --card-influence ink_well, not the base game (no --tides-of-trade)"),
        (("--tides-of-trade",), "was run with --card-influence ink_well, not --card-influence both"),
        (("--tides-of-trade", "--card-influence", "cards"), "was run with --card-influence ink_well, not --card-influence cards"),
        ((*EXPANSION, "--extension-sides", "ab"), "was run with --extension-sides random, not --extension-sides ab"),
    ],
)
def test_resume_refuses_other_expansion_settings(tides_run, flags, message):
    out, _proc = tides_run
    before = snapshot(out)
    proc = wayfarers("simulate", "--players", "random,random", "--games", "2", "--seed", SEED, *flags, "--out", str(out), "--resume")
    one_error(proc, "error: --resume: ", message, "--overwrite")
    assert snapshot(out) == before


def test_resume_with_the_same_expansion_settings_keeps_the_games(tides_run, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(tides_run[0], out)
    games = (out / "games.jsonl").read_bytes()
    proc = wayfarers("simulate", "--players", "random,random", "--games", "2", "--seed", SEED, *EXPANSION, "--out", str(out), "--resume")
    assert proc.returncode == 0, proc.stderr
    assert (out / "games.jsonl").read_bytes() == games


def test_a_run_recorded_before_the_expansion_fields_resumes_as_the_base_game(tmp_path):
    """A summary and records without tides_of_trade & co. (written before they existed) played the base game."""
    out = tmp_path / "old"
    simulate(out, "--games", "1")  # the last --games wins: one game of two
    for rec in (lines := records(out)):
        for key in ("tides_of_trade", "card_influence", "extension_sides"):
            del rec["config"][key]
    (out / "games.jsonl").write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in lines))
    summary = json.loads((out / "summary.json").read_text())
    for key in ("tides_of_trade", "card_influence", "extension_sides"):
        del summary["run"]["config"][key]
    summary["run"]["games_requested"] = 2
    (out / "summary.json").write_text(json.dumps(summary))
    old_line = (out / "games.jsonl").read_text()
    proc = wayfarers("simulate", "--players", "random,random", "--games", "2", "--seed", SEED, "--out", str(out), "--resume", "--quiet")
    assert proc.returncode == 0, proc.stderr
    text = (out / "games.jsonl").read_text()
    assert text.startswith(old_line) and len(text.splitlines()) == 2  # the old game kept, the second one played
    args = ["--players", "random,random", "--games", "2", "--seed", SEED]
    one_error(
        wayfarers("simulate", *args, "--tides-of-trade", "--out", str(out), "--resume"),
        "was run with the base game (no --tides-of-trade), not --tides-of-trade",
    )


# ------------------------------------------------------------------------ train's YAML and evaluate


def test_shipped_training_configs_show_the_expansion_keys():
    for name in ("ppo_2p_vs_bots", "ppo_2p_selfplay"):
        path = Path(__file__).resolve().parent.parent / "experiments" / "configs" / f"{name}.yaml"
        assert yaml.safe_load(path.read_text())["env"]["tides_of_trade"] is False
        env_section = load_config(path)["env"]
        assert (env_section["tides_of_trade"], env_section["card_influence"], env_section["extension_sides"]) == (False, "both", "random")


def test_a_training_config_plays_the_expansion(tmp_path):
    path = tmp_path / "tides.yaml"
    path.write_text(yaml.safe_dump({"env": {"tides_of_trade": True, "card_influence": "cards", "extension_sides": "ba"}}))
    env_section = load_config(path)["env"]
    assert (env_section["tides_of_trade"], env_section["card_influence"], env_section["extension_sides"]) == (True, "cards", "ba")
    path.write_text(yaml.safe_dump({"env": {"card_influence": "ink_well"}}))
    with pytest.raises(TrainConfigError, match="env: card_influence and extension_sides belong to the Tides of Trade expansion"):
        load_config(path)


@pytest.mark.parametrize(
    "section, words",
    [
        ({"card_influence": "ink_well"}, ["env: card_influence and extension_sides belong to the Tides of Trade", "tides_of_trade=True"]),
        ({"tides_of_trade": True, "card_influence": "red"}, ["env.card_influence must be one of both, ink_well, cards", "'red'"]),
        ({"tides_of_trade": "yes"}, ["env.tides_of_trade must be true or false, got 'yes'"]),
        ({"tides_of_trade": True, "extension_sides": "abc"}, ["env: extension_sides must be 'random' or 2 letters a/b", "'abc'"]),
    ],
)
def test_train_refuses_a_bad_expansion_setting_from_the_shell(tmp_path, section, words):
    config = tmp_path / "bad.yaml"
    config.write_text(yaml.safe_dump({"env": section}))
    out = tmp_path / "run"
    one_error(wayfarers("train", "--config", str(config), "--out", str(out)), f"error: {config}: ", *words)
    assert not out.exists()


def evaluate_args(model: str, *flags: str):
    return build_parser().parse_args(["evaluate", model, *flags])


def test_evaluate_plays_the_game_the_model_was_trained_on(tmp_path):
    trained = {"num_players": 3, "tides_of_trade": True, "card_influence": "ink_well", "board_sides": "bab"}
    model = fake_model(tmp_path / "run", trained)
    env_section, note = game_env(evaluate_args(model))
    assert {k: env_section[k] for k in trained} == trained and env_section["extension_sides"] == "random"
    assert note == (
        "evaluating on Tides of Trade (card influence ink_well, extension sides random), 3 players, board sides bab: "
        f"the env of {tmp_path / 'run' / 'config.yaml'}"
    )
    checkpoint = tmp_path / "run" / "checkpoints" / "step_128.zip"
    checkpoint.parent.mkdir()
    shutil.copy(model, checkpoint)
    assert run_env(checkpoint) == run_env(model)  # a checkpoint's run is one folder up
    # the expansion options given replace the run's (and only those)
    env_section, note = game_env(evaluate_args(model, "--tides-of-trade", "--extension-sides", "ab"))
    assert (env_section["card_influence"], env_section["extension_sides"], env_section["num_players"]) == ("both", "ab", 3)
    assert note.endswith("with the expansion options given")
    env_section, note = game_env(evaluate_args(model, "--no-tides-of-trade"))
    assert (env_section["tides_of_trade"], env_section["card_influence"]) == (False, "both")
    assert note.startswith("evaluating on the base game, 3 players")
    # a model outside a run folder: the base game for 2 players, as before
    loose = fake_model(tmp_path / "loose")
    env_section, note = game_env(evaluate_args(loose))
    assert (env_section["num_players"], env_section["tides_of_trade"]) == (2, False) and "no config.yaml beside the model" in note


def test_evaluate_refuses_a_run_config_it_cannot_play(tmp_path):
    model = fake_model(tmp_path / "run", {"card_influence": "cards"})
    one_error(wayfarers("evaluate", model, "--games", "1"), f"error: {tmp_path / 'run' / 'config.yaml'}: env: card_influence")


# ------------------------------------------------------------------------ the environments


def masks_until_expansion(e, seed: int, limit: int) -> tuple[list[bytes], bool]:
    """Random legal steps (from the action mask alone) until an expansion id is legal or ``limit``
    steps: the masks seen and whether one was."""
    e.reset(seed=seed)
    raw = e.unwrapped
    rng = np.random.default_rng(seed)
    seen = []
    while raw.agents and len(seen) < limit:
        agent = raw.agent_selection
        if raw.terminations[agent] or raw.truncations[agent]:
            e.step(None)
            continue
        mask = e.action_mask(agent)
        seen.append(mask.tobytes())
        legal = np.flatnonzero(mask)
        if (legal >= FIRST_EXPANSION_ID).any():
            return seen, True
        e.step(int(rng.choice(legal)))
    return seen, False


def test_env_keywords_reach_the_game():
    e = env(tides_of_trade=True, card_influence="ink_well", extension_sides="ab")
    e.reset(seed=1)
    config = e.unwrapped.game.config
    assert (config.tides_of_trade, config.card_influence, config.extension_sides) == (True, "ink_well", "ab")
    assert env().unwrapped.config.tides_of_trade is False  # off by default: the base game
    copy = pickle.loads(pickle.dumps(raw_env(num_players=3, tides_of_trade=True, card_influence="cards")))  # EzPickle's arguments
    assert copy.config == GameConfig(num_players=3, tides_of_trade=True, card_influence="cards")
    single = SingleAgentEnv(tides_of_trade=True, card_influence="cards", num_players=3)
    assert single.aec.config == copy.config
    with pytest.raises(ConfigError, match="set tides_of_trade=True"):
        env(card_influence="ink_well")
    with pytest.raises(ConfigError, match="card_influence must be one of both, ink_well, cards"):
        SingleAgentEnv(tides_of_trade=True, card_influence="red")


def test_only_expansion_games_offer_expansion_actions():
    base_masks, found = masks_until_expansion(env(), seed=1, limit=10_000)
    assert not found and len(base_masks) > 1000  # a whole base game without one
    masks, found = masks_until_expansion(env(tides_of_trade=True, card_influence="ink_well"), seed=1, limit=1000)
    assert found
    again, _ = masks_until_expansion(env(tides_of_trade=True, card_influence="ink_well"), seed=1, limit=1000)
    assert again == masks  # the same seed and actions: the same decisions
