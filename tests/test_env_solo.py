"""Solo games as environments (issue 13): a one-agent AEC env and a SingleAgentEnv with the same spaces
as the multiplayer env, the AI's public state in the opponent slots, exact masks, the cached encoder
agreeing with a fresh one, determinism, and the PettingZoo and Gymnasium checks."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from wayfarers_env import Game, GameConfig, SingleAgentEnv, env
from wayfarers_env.envs.observation import O_SEATS, SEAT, B, Encoder, L, encode
from wayfarers_env.rules.solo import AI, AiWants

EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


def val(obs: np.ndarray, name: str) -> np.ndarray:
    s = L[name]
    return obs[s.start : s.stop]


def seat_val(obs: np.ndarray, k: int, name: str) -> np.ndarray:
    s = SEAT[name]
    return obs[O_SEATS + k * B + s.start : O_SEATS + k * B + s.stop]


@pytest.mark.parametrize("board", [1, 3])
def test_pettingzoo_api_and_seed_tests_on_a_solo_env(board):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="|".join(EXPECTED_WARNINGS))
        api_test(env(num_players=1, solo_ai_board=board), num_cycles=2000)
        seed_test(lambda: env(num_players=1, solo_ai_board=board, tides_of_trade=board == 3), num_cycles=300)


def test_one_agent_with_the_spaces_of_the_multiplayer_env():
    solo, duo = env(num_players=1, solo_ai_board=2), env(num_players=2)
    assert solo.possible_agents == ["player_0"]
    assert solo.observation_space("player_0") == duo.observation_space("player_0")
    assert solo.action_space("player_0") == duo.action_space("player_0")
    assert solo.unwrapped.metadata["name"] == "wayfarers_v4"


def test_a_solo_episode_ends_with_both_scores_and_the_win_reward():
    e = env(num_players=1, solo_ai_board=4)
    e.reset(seed=5)
    rng = random.Random(5)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        assert agent == "player_0"
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal) == sorted(e.unwrapped.game.legal_actions())  # the mask is exactly the legal set
        e.step(int(rng.choice(legal)))
    game = e.unwrapped.game
    scores = game.scores()
    assert info["scores"]["player_0"]["total"] == scores[0]["total"]
    assert info["scores"]["solo_ai"]["total"] == scores[AI]["total"]
    assert reward == (1.0 if game.winners() == [0] else -1.0)
    assert info["winners"] == [["player_0", "solo_ai"][k] for k in game.winners()]


def test_the_ai_public_state_fills_the_opponent_slot():
    game = Game(GameConfig(num_players=1, solo_ai_board=3), seed=2)
    rng = random.Random(2)
    while game.state.solo.cards == [] or game.state.solo.tiles == []:
        game.apply(rng.choice(game.legal_actions()))
    obs = encode(game, 0)
    g, ai = game.state, game.state.players[AI]
    assert val(obs, "solo.on")[0] == 1 and val(obs, "solo.ai_board")[2] == 1
    assert val(obs, "solo.track")[g.solo.track] == 1
    assert sorted(np.flatnonzero(val(obs, "solo.shown"))) == sorted(g.solo.shown)
    assert val(obs, "solo.ai_cards").sum() == pytest.approx(len(g.solo.cards) / 10)
    assert seat_val(obs, 1, "present")[0] == 1
    assert list(seat_val(obs, 1, "guilds")) == pytest.approx([min(x / 15, 1) for x in ai.guild])  # the AI's may pass 15: clipped
    assert list(seat_val(obs, 1, "workers")) == pytest.approx([x / 4 for x in ai.workers])
    assert seat_val(obs, 1, "influence_supply")[0] == 1  # the AI's endless supply
    assert seat_val(obs, 1, "journal")[ai.node] == 1
    assert seat_val(obs, 1, "score")[-1] == pytest.approx(game.scores()[AI]["total"] / 50)
    assert seat_val(obs, 2, "present")[0] == 0
    ai.guild[1] += 20  # the AI's influence is unlimited: a guild may hold more than a player owns (16 seen in play)
    assert seat_val(encode(game, 0), 1, "guilds")[1] == 1.0  # clipped, not an error (a lookup by count once failed here)
    base = encode(Game(GameConfig(num_players=2), seed=2), 0)
    assert val(base, "solo.on")[0] == 0 and not val(base, "solo.ai_cards").any()


def test_cached_encoder_matches_a_fresh_one_over_solo_games():
    for board in (1, 2, 3, 4):
        game = Game(GameConfig(num_players=1, solo_ai_board=board, tides_of_trade=board % 2 == 0), seed=board)
        enc = Encoder()
        rng = random.Random(board)
        wants = 0
        while not game.is_over:
            assert np.array_equal(enc.encode(game, 0), encode(game, 0))
            if type(game.state.stack[-1]) is AiWants:
                wants += 1
                assert val(enc.encode(game, 0), "solo.ai_wants")[:3].sum() == 1
            game.apply(rng.choice(game.legal_actions()))
        assert np.array_equal(enc.encode(game, 0), encode(game, 0))


def test_single_agent_env_plays_solo_games_deterministically():
    def run(seed: int) -> tuple:
        e = SingleAgentEnv(num_players=1, solo_ai_board=2)
        obs, _ = e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace = [obs.sum()]
        done = False
        while not done:
            obs, reward, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
            trace.append(obs.sum())
            done = term or trunc
        return tuple(trace), reward, info["scores"]["solo_ai"]["total"]

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_gymnasium_check_env_on_a_solo_env():
    check_env(SingleAgentEnv(num_players=1, solo_ai_board=1), skip_render_check=True)
