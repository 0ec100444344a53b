"""An observation networks can learn from (issue 14, env v4): card identities only in slices
marked as categorical indices, every count scaled to about [0, 1] with honest bounds, and the
card slots laid out as rows that one shared card encoder can read."""

from __future__ import annotations

import random

import numpy as np
import pytest

from wayfarers_env import Game, GameConfig, build_scenario, env
from wayfarers_env.envs import observation as ob
from wayfarers_env.envs.card_features import FULL, card_feature_table
from wayfarers_env.envs.observation import CARD, NUM_CARDS, O_SEATS, OBS_SIZE, SEAT, B, Encoder, F, L, encode, markdown, observation_bounds

SEAT_INDEX = ("tucked_under", "space_above", "inspiration_on", "overseer")
INDEX_SLICES = {"market.ids", "decision.card_id", "private.draw_ids"} | {f"seat{k}.{n}" for k in range(4) for n in SEAT_INDEX}
CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "tides_of_trade": True},
    {"num_players": 4, "tides_of_trade": True, "card_influence": "cards"},
    {"num_players": 1, "solo_ai_board": 1},
    {"num_players": 1, "solo_ai_board": 4, "tides_of_trade": True},
]


def val(obs: np.ndarray, name: str) -> np.ndarray:
    s = L[name]
    return obs[s.start : s.stop]


def seat_val(obs: np.ndarray, k: int, name: str) -> np.ndarray:
    s = SEAT[name]
    return obs[O_SEATS + k * B + s.start : O_SEATS + k * B + s.stop]


@pytest.fixture(scope="module")
def sampled() -> list[tuple[Game, np.ndarray]]:
    """(game, observation of the deciding seat) along random games of every kind, to their ends."""
    out = []
    for k, cfg in enumerate(CONFIGS):
        g = Game(GameConfig(**cfg), seed=70 + k)
        enc, rng = Encoder(), random.Random(k)
        step = 0
        while not g.is_over:
            if step % 9 == 0:
                out.append((g.clone(), enc.encode(g, g.current_player)))
            g.apply(rng.choice(g.legal_actions()))
            step += 1
        out.append((g, enc.encode(g, 0)))
    return out


# ------------------------------------------------------------------ the layout's kinds


def test_card_identities_live_only_in_index_slices():
    assert {s.name for s in L.slices if s.kind == "index"} == INDEX_SLICES
    low, high = observation_bounds()
    doc = markdown()
    for s in L.slices:
        if s.kind == "index":  # a category out of NUM_CARDS + 1 (0 = none): bounds say exactly that
            assert (s.vocab, s.low, s.high) == (NUM_CARDS + 1, 0, NUM_CARDS) and "index + 1" in s.meaning, s.name
            assert f"| `{s.name}` | {s.meaning} | [0, {NUM_CARDS}] | index of {NUM_CARDS + 1}" in doc
        else:  # everything else is usable as a number: about [0, 1], never beyond the cap
            assert -ob.CAP <= low[s.start : s.stop].min() and high[s.start : s.stop].max() <= ob.CAP, s.name
            if s.kind == "cards":
                assert s.size == NUM_CARDS, s.name
            if s.kind == "value" and (s.high > 1 or s.low < 0):  # beyond [0, 1] only where the rules set no maximum
                assert "clipped" in s.meaning, s.name
    assert not any(s.high > ob.CAP for s in CARD.slices)


def test_card_slots_are_rows_a_shared_encoder_can_read():
    groups: dict[str, list] = {}
    for s in L.slices:
        if s.group:
            groups.setdefault(s.group, []).append(s)
    assert {name: slices[0].items for name, slices in groups.items()} == {"market": 20, "decision": 1, "draw": 3}
    for name, slices in groups.items():
        assert [s.kind for s in slices].count("index") == 1 and [s.kind for s in slices].count("features") == 1, name
        assert all(s.items == slices[0].items and s.size == s.items * s.width for s in slices), name
        feats = next(s for s in slices if s.kind == "features")
        assert feats.width == F
    # the card feature slices take the card layout's bounds, feature by feature
    low, high = observation_bounds()
    c_low, c_high = CARD.bounds()
    for name in ("market.cards", "decision.card", "private.draw"):
        s = L[name]
        assert np.array_equal(low[s.start : s.stop], np.tile(c_low, s.items))
        assert np.array_equal(high[s.start : s.stop], np.tile(c_high, s.items))
    assert c_high.max() <= 1.5 and c_low.min() >= -1  # card counts scaled too (tags / 3, effects / 4, cost / 10)


def test_every_value_is_within_its_bounds_and_each_slot_row_is_its_card(sampled):
    low, high = observation_bounds()
    table = card_feature_table(FULL)  # the one card index space; row -1 (id 0): no card, zeros
    index_cols = [i for s in L.slices if s.kind == "index" for i in range(s.start, s.stop)]
    filled = {"market": 0, "decision": 0, "draw": 0}
    for _g, obs in sampled:
        assert obs.shape == (OBS_SIZE,) and ((obs >= low) & (obs <= high)).all()
        ids = obs[index_cols]
        assert np.array_equal(ids, np.round(ids))  # whole card indices
        for group, ids_name, feats_name in (
            ("market", "market.ids", "market.cards"),
            ("decision", "decision.card_id", "decision.card"),
            ("draw", "private.draw_ids", "private.draw"),
        ):
            cards = val(obs, ids_name).astype(int)
            assert np.array_equal(val(obs, feats_name).reshape(len(cards), F), table[cards - 1])
            filled[group] += int((cards > 0).sum())
    assert len(sampled) > 500 and min(filled.values()) > 0


def test_the_environment_declares_these_bounds():
    e = env(num_players=3)
    box = e.observation_space("player_0")["observation"]
    low, high = observation_bounds()
    assert np.array_equal(box.low, low) and np.array_equal(box.high, high)
    assert e.unwrapped.metadata["name"] == "wayfarers_v4"
    assert box.high.max() == NUM_CARDS and np.sort(np.unique(box.high))[-2] == ob.CAP  # only indices reach past the cap


# ------------------------------------------------------------------------ the scales


def test_counts_are_scaled_and_clipped_as_their_meanings_say():
    spec = {
        "players": [
            {"silver": 25, "provisions": 7, "guild": {"yellow": 4}},
            {"silver": 3, "provisions": 0},
        ]
    }
    g = build_scenario(spec)
    obs = encode(g, 0)
    assert seat_val(obs, 0, "silver").tolist() == [2.0]  # 25 silver: / 10, clipped at 2
    assert seat_val(obs, 0, "provisions").tolist() == pytest.approx([0.7])
    p = g.state.players[0]
    assert p.guild[1] == 4 and seat_val(obs, 0, "guilds").tolist() == pytest.approx([x / 15 for x in p.guild])  # of 15 tokens
    assert 0 < p.supply < 15 and seat_val(obs, 0, "influence_supply").tolist() == pytest.approx([p.supply / 15])
    assert seat_val(obs, 1, "silver").tolist() == pytest.approx([0.3])  # the opponent's, one seat after me
    assert seat_val(obs, 0, "workers").tolist() == pytest.approx([w / 4 for w in p.workers])
    supply = sum(loc == -1 for loc in p.dice_loc)  # SUPPLY
    assert seat_val(obs, 0, "dice_supply").sum() == pytest.approx(supply / 5)
    assert val(obs, "game.deck_sizes").tolist() == pytest.approx([len(d) / 49 for d in g.state.decks])
    assert ob.DECK_MAX == max(len(d) for d in FULL.decks.values()) == 49


def test_a_long_game_saturates_at_the_caps(sampled):
    """Random play runs long (hundreds of turns, dozens of silver): the clipped counts stop at their caps."""
    late = [(g, obs) for g, obs in sampled if g.state.turn > 150]
    assert late and max(g.state.turn for g, _ in late) > 200
    for g, obs in late:
        assert val(obs, "game.turn")[0] == pytest.approx(min(ob.CAP, g.state.turn / 100))
    silver = [(g.state.players[g.current_player].silver, seat_val(obs, 0, "silver")[0]) for g, obs in sampled if not g.is_over]
    assert any(s >= 20 for s, _ in silver)
    assert all(v == pytest.approx(min(s / 10, ob.CAP)) for s, v in silver)
