"""The Gymnasium ids under the wayfarers/ namespace (issue 14), as the README calls them."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np

import wayfarers_env.gym  # noqa: F401  (registers the ids)
from wayfarers_env import NUM_ACTIONS


def test_make_plays_a_game_with_masks():
    env = gymnasium.make("wayfarers/Wayfarers-v4", num_players=3, opponents="random")
    obs, _info = env.reset(seed=4)
    assert env.observation_space.contains(obs) and env.action_space.n == NUM_ACTIONS
    rng = np.random.default_rng(4)
    done, steps = False, 0
    while not done:
        mask = env.unwrapped.action_masks()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done, steps = term or trunc, steps + 1
    winners = info["winners"]
    expected = -1.0 if "player_0" not in winners else 0.0 if len(winners) == 3 else 1.0 / len(winners)
    assert reward == expected
    assert set(info["scores"]) == {"player_0", "player_1", "player_2"}


def test_solo_id_and_its_keywords():
    env = gymnasium.make("wayfarers/WayfarersSolo-v4", solo_ai_board=4)
    env.reset(seed=0)
    config = env.unwrapped.aec.config
    assert config.num_players == 1 and config.solo_ai_board == 4


def test_module_prefix_registers_on_demand_and_plain_import_stays_light():
    code = (
        "import sys, wayfarers_env\n"
        "assert 'gymnasium' not in sys.modules\n"
        "import gymnasium\n"
        "e = gymnasium.make('wayfarers_env.gym:wayfarers/Wayfarers-v4')\n"
        "print(e.reset(seed=0)[0].shape)\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == f"({wayfarers_env.envs.observation.OBS_SIZE},)"
