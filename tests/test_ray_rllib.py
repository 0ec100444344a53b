"""RLlib wiring (the [ray] extra): the multi-agent env keeps RLlib's turn-based contract and is
the AEC game, the module never offers an illegal action, and ``wayfarers train --algo rllib-ppo``
from the shell writes checkpoints whose restored policy plays whole legal games."""

from __future__ import annotations

import csv
import random
import subprocess
import sys

import numpy as np
import pytest
import yaml

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from agents.base import choose  # noqa: E402
from agents.registry import make_bot  # noqa: E402
from experiments.rllib_env import MASK_KEY, OBS_KEY, MaskedPPOTorchRLModule, RLlibBot, WayfarersMultiAgentEnv  # noqa: E402
from wayfarers_env import NUM_ACTIONS, Game, GameConfig  # noqa: E402
from wayfarers_env.envs.aec import final_rewards  # noqa: E402

pytestmark = pytest.mark.ray


def _random_game(env: WayfarersMultiAgentEnv, seed: int, rng: random.Random):
    """Play one game through the RLlib API with random legal actions; every step's dicts."""
    obs, infos = env.reset(seed=seed)
    steps = [(obs, None, None, None)]
    actions = []
    while True:
        (agent,) = obs  # only the agent to act is in the observation dict
        legal = np.flatnonzero(obs[agent][MASK_KEY])
        action = int(rng.choice(list(legal)))
        actions.append(action)
        obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
        steps.append((obs, rewards, terminateds, truncateds))
        if terminateds["__all__"] or truncateds["__all__"]:
            return steps, actions, infos


@pytest.mark.parametrize("players", [2, 3])
def test_env_is_turn_based_and_is_the_aec_game(players):
    env = WayfarersMultiAgentEnv({"num_players": players, "reward": "win", "ignored_by_the_env": 1})
    agents = [f"player_{i}" for i in range(players)]
    assert env.possible_agents == agents
    space = env.get_observation_space("player_0")
    assert all(env.get_observation_space(a) == space for a in agents)  # one policy can play any seat
    assert set(space.spaces) == {OBS_KEY, MASK_KEY} and space[MASK_KEY].shape == (NUM_ACTIONS,)
    assert all(env.get_action_space(a).n == NUM_ACTIONS for a in agents)

    steps, actions, infos = _random_game(env, seed=11, rng=random.Random(1))
    game = Game(GameConfig(num_players=players), seed=11)  # reset(seed=s) plays exactly Game(config, s)
    for (obs, _r, _te, _tr), action in zip(steps, actions):
        (agent,) = obs
        assert agent == agents[game.current_player]
        mask = obs[agent][MASK_KEY]
        assert mask.dtype == np.float32 and sorted(np.flatnonzero(mask)) == sorted(game.legal_actions())
        assert space.contains(obs[agent]), "an observation outside the declared space"
        game.apply(action)
    assert game.is_over
    final_obs, rewards, terminateds, truncateds = steps[-1]
    assert set(final_obs) == set(agents) and all(not o[MASK_KEY].any() for o in final_obs.values())
    assert terminateds["__all__"] is True and truncateds["__all__"] is False
    assert [rewards[a] for a in agents] == final_rewards(game, "win")
    for before, after in zip(steps[:-2], steps[1:-1]):  # until the end, the agent that acted gets 0
        (acted,) = before[0]
        assert after[1] == {acted: 0.0}
    assert {a: infos[a]["score"]["total"] for a in agents} == {a: s["total"] for a, s in zip(agents, game.scores())}


def test_env_truncates_every_agent_at_max_cycles():
    env = WayfarersMultiAgentEnv({"num_players": 2, "max_cycles": 30})
    steps, actions, infos = _random_game(env, seed=3, rng=random.Random(3))
    obs, rewards, terminateds, truncateds = steps[-1]
    assert len(actions) == 30 and truncateds["__all__"] is True and terminateds["__all__"] is False
    assert set(obs) == {"player_0", "player_1"} and rewards == {"player_0": 0.0, "player_1": 0.0}
    assert all(info["truncated_at"] == 30 for info in infos.values())


def test_same_seed_same_observations():
    runs = [_random_game(WayfarersMultiAgentEnv({"num_players": 2}), seed=5, rng=random.Random(9)) for _ in range(2)]
    assert runs[0][1] == runs[1][1]
    for a, b in zip(runs[0][0], runs[1][0]):
        assert a[0].keys() == b[0].keys() and all(np.array_equal(a[0][k][OBS_KEY], b[0][k][OBS_KEY]) for k in a[0])


@pytest.fixture(scope="module")
def module():
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    env = WayfarersMultiAgentEnv({"num_players": 2})
    spec = RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        observation_space=env.get_observation_space("player_0"),
        action_space=env.get_action_space("player_0"),
        model_config={"fcnet_hiddens": [16], "head_fcnet_hiddens": []},
    )
    torch.manual_seed(0)
    return spec.build()


def _batch(masks: np.ndarray):
    from ray.rllib.core.columns import Columns

    obs = np.random.default_rng(0).random((len(masks), module_obs_size()), dtype=np.float32)
    return {Columns.OBS: {OBS_KEY: torch.from_numpy(obs), MASK_KEY: torch.from_numpy(masks)}}


def module_obs_size() -> int:
    from wayfarers_env.envs.observation import OBS_SIZE

    return OBS_SIZE


def test_module_gives_illegal_actions_no_chance(module):
    from ray.rllib.core.columns import Columns

    rng = np.random.default_rng(1)
    masks = np.zeros((64, NUM_ACTIONS), np.float32)
    for row in masks:
        row[rng.choice(NUM_ACTIONS, size=int(rng.integers(1, 6)), replace=False)] = 1.0
    batch = _batch(masks)
    for forward in (module.forward_inference, module.forward_exploration, module.forward_train):
        logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
        probs = torch.softmax(logits, dim=-1).detach().numpy()
        assert probs[masks == 0].max() == 0.0  # exactly zero, not small
        assert np.allclose(probs.sum(axis=1), 1.0)
        assert all(masks[i, j] == 1 for i, j in enumerate(probs.argmax(axis=1)))
    dist = module.get_exploration_action_dist_cls().from_logits(module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS])
    for _ in range(5):
        sampled = dist.sample().numpy()
        assert all(masks[i, a] == 1 for i, a in enumerate(sampled))
    values = module.compute_values(batch)  # the dict observation, as GAE hands it over
    assert tuple(values.shape) == (64,) and torch.isfinite(values).all()
    assert set(batch[Columns.OBS]) == {OBS_KEY, MASK_KEY}, "the module must leave the batch it was given alone"


def test_module_refuses_a_space_without_the_mask():
    from gymnasium import spaces

    with pytest.raises(ValueError, match="Dict observation space with 'observations' and 'action_mask'"):
        MaskedPPOTorchRLModule(observation_space=spaces.Box(0, 1, (3,)), action_space=spaces.Discrete(2), model_config={})


def _play(bot, opponent: str, seed: int) -> tuple[Game, list[int]]:
    game = Game(GameConfig(num_players=2), seed=seed)
    bots = [bot, make_bot(opponent)]
    rngs = [random.Random(seed), random.Random(seed + 1)]
    mine = []
    while not game.is_over:
        seat = game.current_player
        action = choose(bots[seat], game, rngs[seat])  # raises on an illegal action
        if seat == 0:
            mine.append(action)
        game.apply(action)
    return game, mine


def test_train_from_the_shell_writes_a_checkpoint_whose_policy_plays(tmp_path):
    """The wiring end to end, as CI runs it: a few hundred steps in a local Ray."""
    cfg = {
        "name": "ci",
        "ppo": {"train_batch_size": 150, "batch_size": 75, "n_epochs": 1},
        "policy": {"net_arch": [32]},
        "training": {"timesteps": 300, "envs": 1, "checkpoint_every": 150, "seed": 2},
        "evaluation": {"games": 1, "opponents": ["random"]},
    }
    path = tmp_path / "ci.yaml"
    path.write_text(yaml.safe_dump(cfg))
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "train", "--algo", "rllib-ppo", "--config", str(path), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert f"run directory: {out}" in proc.stdout and "vs random" in proc.stdout
    assert "Traceback" not in proc.stderr
    saved = yaml.safe_load((out / "config.yaml").read_text())
    assert saved["algo"] == "rllib-ppo" and saved["training"]["timesteps"] == 300 and saved["selfplay"] == {"mapping": "shared"}
    assert [p.name for p in (out / "checkpoints").iterdir()] == ["step_150"]
    module_dir = out / "final_checkpoint" / "learner_group" / "learner" / "rl_module" / "main"
    assert (module_dir / "module_state.pkl").is_file()
    rows = list(csv.DictReader((out / "evaluations.csv").open()))
    assert [(r["opponent"], r["games"]) for r in rows] == [("random", "1")] and int(rows[0]["timesteps"]) >= 300

    # the policy restored from the checkpoint alone plays whole games, legal move after legal move
    from ray.rllib.core.rl_module.rl_module import RLModule

    bot = RLlibBot(RLModule.from_checkpoint(str(module_dir)))
    game, mine = _play(bot, "random", seed=21)
    assert game.is_over and len(mine) > 50
    again, mine_again = _play(RLlibBot(RLModule.from_checkpoint(str(module_dir))), "random", seed=21)
    assert mine_again == mine and again.scores() == game.scores()  # greedy and seeded: the same game


def test_per_seat_mapping_trains_one_policy_per_seat(tmp_path):
    import ray

    from experiments.rllib_train import load_config, restore_bot, run_training

    path = tmp_path / "seats.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "selfplay": {"mapping": "per_seat"},
                "ppo": {"train_batch_size": 100, "batch_size": 50, "n_epochs": 1},
                "policy": {"net_arch": [8]},
                "training": {"timesteps": 100, "checkpoint_every": 1000},
                "evaluation": {"games": 1},
            }
        )
    )
    cfg = load_config(path)
    try:
        out = run_training(cfg, tmp_path / "run", progress=False)
    finally:
        ray.shutdown()
    modules = sorted(p.name for p in (out / "final_checkpoint" / "learner_group" / "learner" / "rl_module").iterdir() if p.is_dir())
    assert modules == ["player_0", "player_1"]
    assert not list((out / "checkpoints").iterdir())  # checkpoint_every beyond the run: only the final one
    bot = restore_bot(out / "final_checkpoint", cfg)
    assert set(bot.modules) == {0, 1}
    game, mine = _play(bot, "random", seed=4)
    assert game.is_over and mine
