"""The observation: generated docs, fixed shape and seat order, decision encoding, and no leak of
hidden information (deck order, an opponent's private draw, the random generator)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import observation_snapshot as snapshot
import pytest
from conftest import shuffle_hidden
from observation_snapshot import picture_card

from wayfarers_env import Game, GameConfig
from wayfarers_env.content import load_content
from wayfarers_env.envs.observation import (
    CARD,
    MAX_SEATS,
    NUM_CARDS,
    O_SEATS,
    OBS_SIZE,
    SEAT,
    B,
    Encoder,
    F,
    L,
    card_feature_table,
    encode,
    markdown,
)
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.engine import decision_kinds
from wayfarers_env.rules.frames import EffectBag, kind_of
from wayfarers_env.rules.market import DrawKeep, DrawOrder

FRAME_NAMES = decision_kinds()
DRAW_KEEP = kind_of(DrawKeep(0, ()))  # the saved form's kind number

ROOT = Path(__file__).resolve().parents[1]


def sl(name: str) -> slice:
    s = L[name]
    return slice(s.start, s.stop)


def seat_block(obs: np.ndarray, k: int) -> np.ndarray:
    return obs[O_SEATS + k * B : O_SEATS + (k + 1) * B]


def play_until(n: int, seed: int, pred, limit: int = 20000) -> Game | None:
    """Random play that prefers drawing 3 (to reach private draws), until pred(game)."""
    g = Game(GameConfig(num_players=n), seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if g.is_over:
            return None
        if pred(g):
            return g
        legal = g.legal_actions()
        g.apply(CATALOG.DRAW if CATALOG.DRAW in legal else rng.choice(legal))
    return None


def drawing(g: Game) -> bool:
    return not g.is_over and isinstance(g.state.stack[-1], (DrawKeep, DrawOrder))


def knows_bottom_cards(g: Game) -> bool:
    return any(k for known in g.state.known for k in known)


# ------------------------------------------------------------------------------ docs


def test_observation_doc_is_generated_from_the_code():
    committed = (ROOT / "docs" / "OBSERVATION.md").read_text()
    assert committed == markdown(), "regenerate: python -m wayfarers_env.docs observation > docs/OBSERVATION.md"
    out = subprocess.run([sys.executable, "-m", "wayfarers_env.docs", "observation"], capture_output=True, text=True, check=True)
    assert out.stdout == committed
    for s in L.slices:
        assert f"`{s.name}`" in committed
    assert f"**{OBS_SIZE}**" in committed


def test_actions_doc_is_generated_from_the_code():
    committed = (ROOT / "docs" / "ACTIONS.md").read_text()
    assert committed == CATALOG.markdown(), "regenerate: python -m wayfarers_env.docs actions > docs/ACTIONS.md"
    out = subprocess.run([sys.executable, "-m", "wayfarers_env.docs", "actions"], capture_output=True, text=True, check=True)
    assert out.stdout == committed


def test_layout_is_contiguous():
    pos = 0
    for s in L.slices:
        assert s.start == pos and s.size > 0
        pos = s.stop
    assert pos == OBS_SIZE == L.size
    assert B == SEAT.size and len({s.name for s in L.slices}) == len(L.slices)


# ---------------------------------------------------------------------- shape and order


@pytest.mark.parametrize("n", [2, 3, 4])
def test_same_shape_and_padding_for_every_player_count(n):
    g = play_until(n, n, lambda g: g.state.turn >= 6)
    for seat in range(n):
        obs = encode(g, seat)
        assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
        assert obs[sl("game.num_players")].tolist() == [float(n == k) for k in (2, 3, 4)]
        for k in range(MAX_SEATS):
            block = seat_block(obs, k)
            present = k < n
            assert block[SEAT["present"].start] == float(present)
            if present:  # absolute seat of the k-th seat after me
                assert block[SEAT["seat"].start + (seat + k) % n] == 1
            else:
                assert not block.any()


def test_own_seat_first_then_opponents_in_turn_order():
    g = play_until(3, 7, lambda g: g.state.turn >= 9)
    obs = [encode(g, s) for s in range(3)]
    for s in range(3):
        for k in range(3):
            assert np.array_equal(seat_block(obs[s], k), seat_block(obs[(s + k) % 3], 0))
        p = g.state.players[s]
        block = seat_block(obs[s], 0)
        assert block[SEAT["silver"].start] == pytest.approx(min(p.silver / 10, 2))  # silver / 10, clipped at 2
        assert block[SEAT["journal"].start + p.node] == 1
        owned = len(p.land) + len(p.water) + len(p.above) + len(p.tucked) + len(p.inspired)
        assert block[SEAT["cards"].start : SEAT["cards"].stop].sum() == owned
        assert block[SEAT["score"].stop - 1] == pytest.approx(min(g.scores()[s]["total"] / 50, 2))  # VP / 50, clipped at 2
        t = g.state.tables
        for host, folk in p.tucked.items():  # who sits where is public
            assert block[SEAT["tucked_under"].start + CATALOG.host_ids.index(t.cards[host].id)] == folk + 1
        for host, card in p.above.items():
            assert block[SEAT["space_above"].start + CATALOG.above_ids.index(t.cards[host].id)] == card + 1
        assert np.count_nonzero(block[SEAT["tucked_under"].start : SEAT["tucked_under"].stop]) == len(p.tucked)
        assert np.count_nonzero(block[SEAT["inspiration_on"].start : SEAT["inspiration_on"].stop]) == len(p.inspired)


def test_pending_stack_is_summarised():
    def nested(g):  # an effect resolved inside another effect, under a sub-decision
        return not g.is_over and len(g.state.stack) >= 3 and sum(isinstance(f, EffectBag) for f in g.state.stack[:-1]) >= 2

    g = play_until(2, 8, nested)
    assert g is not None
    stack = g.state.stack
    obs = encode(g, 0)
    counts = obs[sl("decision.stack")]
    for kind in range(len(FRAME_NAMES)):
        assert counts[kind] == pytest.approx(min(sum(kind_of(f) == kind for f in stack[:-1]) / 4, 1))  # per kind / 4, clipped at 1
    assert counts.sum() > 0
    assert obs[sl("bag.present")][0] == 1 and obs[sl("bag.outer_source")].sum() == 1


def test_decision_and_market_are_encoded():
    g = play_until(3, 3, lambda g: g.state.turn >= 4 and any(i >= 0 for i in g.state.market_inf))
    cur = g.current_player
    kind = FRAME_NAMES.index(g.decision()[0])
    for seat in range(3):
        obs = encode(g, seat)
        assert obs[sl("decision.kind")].tolist() == [float(k == kind) for k in range(len(FRAME_NAMES))]
        assert np.flatnonzero(obs[sl("decision.decider")]).tolist() == [(cur - seat) % 3]
        ids = obs[sl("market.ids")]
        assert ids.tolist() == [c + 1 for c in g.state.market]
        inf = obs[sl("market.influence")].reshape(20, 4)
        for i, owner in enumerate(g.state.market_inf):
            assert inf[i].tolist() == [float(owner >= 0 and (owner - seat) % 3 == k) for k in range(4)]


def test_private_draw_is_seen_by_the_drawer_only():
    g = play_until(3, 1, drawing)
    assert g is not None
    top = g.state.stack[-1]
    cards = top.cards if isinstance(top, DrawKeep) else (*top.rest, top.kept)
    drawer = g.current_player
    for seat in range(3):
        obs = encode(g, seat)
        assert obs[sl("decision.draw_count")][0] == pytest.approx(len(cards) / 3)
        ids = obs[sl("private.draw_ids")]
        unseen = obs[sl("deck.unseen")]
        if seat == drawer:
            assert ids[: len(cards)].tolist() == [c + 1 for c in cards]
            assert not any(unseen[c] for c in cards)
        else:
            assert not ids.any() and not obs[sl("private.draw")].any()
            assert all(unseen[c] == 1 for c in cards)


def test_unseen_pool_is_everything_not_visible():
    g = play_until(2, 4, lambda g: g.state.turn >= 10 and not drawing(g))
    obs = encode(g, 0)
    unseen = set(np.flatnonzero(obs[sl("deck.unseen")]).tolist())
    known = set(np.flatnonzero(obs[sl("deck.known_depth")]).tolist())
    in_decks = {c for d in g.state.decks for c in d}
    assert unseen | known == in_decks and not unseen & known
    assert all(c < NUM_CARDS for c in in_decks)


# --------------------------------------------------------------------------- no leak


def leak_states() -> list[Game]:
    states = []
    for n, seed in ((2, 1), (3, 2), (4, 3), (2, 5)):
        for pred in (drawing, knows_bottom_cards, lambda g: g.state.turn >= 30):
            g = play_until(n, seed, pred)
            if g is not None:
                states.append(g)
    assert any(drawing(g) for g in states) and any(knows_bottom_cards(g) for g in states)
    return states


@pytest.fixture(scope="module")
def states() -> list[Game]:
    return leak_states()


def test_deck_order_does_not_leak(states):
    rng = random.Random(0)
    changed = 0
    for g in states:
        for seat in range(g.state.n):
            other = Game.from_dict(shuffle_hidden(g.to_dict(), seat, rng))
            changed += other.state.decks != g.state.decks
            assert np.array_equal(encode(other, seat), encode(g, seat))
    assert changed > 0


def test_known_bottom_cards_are_part_of_the_observation(states):
    """The check above can fail: moving a card the seat saw go to the bottom changes its view."""
    g = next(g for g in states if knows_bottom_cards(g))
    d = g.to_dict()
    row, i = next((r, i) for r, known in enumerate(d["known"]) for i, k in enumerate(known) if k)
    seat = (d["known"][row][i] & -d["known"][row][i]).bit_length() - 1
    j = len(d["decks"][row]) - 1
    d["decks"][row][i], d["decks"][row][j] = d["decks"][row][j], d["decks"][row][i]
    assert not np.array_equal(encode(Game.from_dict(d), seat), encode(g, seat))


def test_opponent_private_draw_does_not_leak(states):
    rng = random.Random(1)
    tested = 0
    for g in (g for g in states if drawing(g)):
        drawer = g.current_player
        for seat in range(g.state.n):
            if seat == drawer:
                continue
            d = g.to_dict()
            frame = d["stack"][-1]
            row = frame[1]
            bit = 1 << seat
            deck, known = d["decks"][row], d["known"][row]
            hidden = [i for i in range(len(deck)) if not known[i] & bit]
            drawn = frame[2] if frame[0] == DRAW_KEEP else frame[2] + [frame[3]]
            picks = rng.sample(hidden, min(len(drawn), len(hidden)))
            for slot, i in enumerate(picks):  # swap drawn cards with unseen deck cards
                drawn[slot], deck[i] = deck[i], drawn[slot]
            if frame[0] == DRAW_KEEP:
                frame[2] = drawn
            else:
                frame[2], frame[3] = drawn[:2], drawn[2]
            other = Game.from_dict(d)
            assert np.array_equal(encode(other, seat), encode(g, seat))
            assert not np.array_equal(encode(other, drawer), encode(g, drawer))  # the drawer sees it
            tested += 1
    assert tested > 0


def test_rng_state_and_determinize_do_not_leak(states):
    for g in states:
        d = g.to_dict()
        d["rng"] = Game(GameConfig(num_players=g.state.n), seed=12345).to_dict()["rng"]
        other = Game.from_dict(d)
        for seat in range(g.state.n):
            assert np.array_equal(encode(other, seat), encode(g, seat))
            det = g.determinize(seat, random.Random(seat + 7))
            assert np.array_equal(encode(det, seat), encode(g, seat))


def test_cached_encoder_matches_a_fresh_one_over_a_game():
    g = Game(GameConfig(num_players=3), seed=21)
    enc = Encoder()
    rng = random.Random(21)
    step = 0
    while not g.is_over:
        if step % 5 == 0:
            for seat in range(3):
                assert np.array_equal(enc.encode(g, seat), encode(g, seat))
        g.apply(rng.choice(g.legal_actions()))
        step += 1
    for seat in range(3):
        assert np.array_equal(enc.encode(g, seat), encode(g, seat))
    a = enc.encode(g, 0)
    a[:] = -1  # the caller owns the returned array
    assert not np.array_equal(enc.encode(g, 0), a)


# ------------------------------------------------------------------- base-game snapshot


def test_base_game_observations_keep_their_values():
    """Base-game observations keep their values: every named slice holds the nonzeros of
    tests/golden/observation_base.json (taken for the env's v4 scales; v3's values mapped through
    the scale changes gave the same file), and the card feature slices hold the rows of the cards
    the observation names."""
    want = json.loads(snapshot.FILE.read_text())
    table = card_feature_table(load_content())
    assert [picture_card(table[c], CARD) for c in range(snapshot.BASE_CARDS)] == want["cards"]
    pictures = iter(want["positions"])
    for n, seed, stop, g in snapshot.positions():
        for seat in range(n):
            w = next(pictures)
            assert (w["players"], w["seed"], w["decisions"], w["seat"]) == (n, seed, stop, seat)
            obs = encode(g, seat)
            assert snapshot.picture_obs(obs, L) == w["slices"], (n, seed, stop, seat)
            ids = obs[sl("market.ids")].astype(int)
            assert np.array_equal(obs[sl("market.cards")].reshape(len(ids), F), table[ids - 1])  # id 0: the zero row
            for name, ids_name in (("decision.card", "decision.card_id"), ("private.draw", "private.draw_ids")):
                ids = obs[sl(ids_name)].astype(int)
                assert np.array_equal(obs[sl(name)].reshape(len(ids), F), table[ids - 1])
    assert next(pictures, None) is None
