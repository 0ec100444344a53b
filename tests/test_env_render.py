"""The text rendering shared by the environment, replays and terminal play."""

from __future__ import annotations

import random

import numpy as np
import pytest

from wayfarers_env import Game, GameConfig, env
from wayfarers_env.envs.render import render_text
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.market import DrawKeep, DrawOrder


def test_env_renders_ansi_text():
    e = env(num_players=3, render_mode="ansi")
    e.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(400):
        obs, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    text = e.render()
    assert isinstance(text, str)
    game = e.unwrapped.game
    g = game.state
    for needle in ("MARKET", "GUILDS", "JOURNAL", "PLAYER 0", "PLAYER 2", "caravan", "dice:", "silver", "score now"):
        assert needle in text
    for card in g.market:
        if card >= 0:
            assert g.tables.cards[card].id in text
    for seat, p in enumerate(g.players):
        assert f"P{seat} at {g.tables.nodes[p.node].id}" in text
        for c in p.land + p.water:
            assert g.tables.cards[c].id in text
    assert f"player_{game.current_player} is deciding" in text


def test_render_without_mode_returns_none():
    e = env(num_players=2)
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None


def test_private_draw_is_shown_to_its_owner_only():
    g = Game(GameConfig(num_players=2), seed=3)
    rng = random.Random(3)
    while g.is_over or not isinstance(g.state.stack[-1], (DrawKeep, DrawOrder)):
        legal = g.legal_actions()
        g.apply(CATALOG.DRAW if CATALOG.DRAW in legal else rng.choice(legal))
    top = g.state.stack[-1]
    card = g.state.tables.cards[(top.cards if isinstance(top, DrawKeep) else top.rest)[0]].id
    drawer = g.current_player
    assert f"drawn: {card}" in render_text(g, drawer)
    assert card + " " not in render_text(g, 1 - drawer).split("deciding")[1].split("MARKET")[0]
    assert "(hidden)" in render_text(g)
    assert f"drawn: {card}" in render_text(g, reveal=True)
    with pytest.raises(ValueError, match="seat"):
        render_text(g, 5)


def test_the_expansions_pieces_are_shown_and_the_hidden_tiles_are_not():
    """Tides of Trade: traders waiting and on the Market, the face-up worker tiles (never those
    below), the Ink Well, hourglass, Overseer and worker caravan are on the table; a base game shows
    no expansion section."""
    from wayfarers_env import build_scenario

    spec = {
        "config": {"num_players": 2, "tides_of_trade": True},
        "players": [
            {
                "trader": "trader.3",
                "overseer": "townsfolk.40",
                "ink": 2,
                "hourglass": True,
                "worker_tiles": {"blue": ["worker_tile.top13", "worker_tile.bottom13"]},
            }
        ],
    }
    g = build_scenario(spec)
    text = render_text(g)
    assert "TIDES OF TRADE" in text and "Ink Well 2, hourglass full" in text
    assert "trader trader.3 'Trader of Goods'" in text and "Overseer townsfolk.40" in text and "dismissed: " in text
    assert "blue: worker_tile.top13 (never blocked) over worker_tile.bottom13 (2 VP)" in text
    state = g.state
    tides = state.tables.content.tides
    for stack in state.worker_stacks:
        assert tides.halves[stack[-1]].id + " (" in text  # face up
        for hidden in stack[:-1]:
            assert tides.halves[hidden].id + " (" not in text  # below: never shown
    assert "TIDES OF TRADE" not in render_text(Game(GameConfig(num_players=2), 0))
