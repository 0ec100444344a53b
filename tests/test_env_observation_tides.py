"""The observation of Tides of Trade games (issue 12): one layout for the base game and the
expansion, the expansion's slices 0 in a base game and reading what the state holds in an
expansion game, the new decisions' parameters, the incremental encoder agreeing with a fresh one,
no hidden information (worker stacks below their face-up half, deck order), the card table and
its one index space, and the PettingZoo checks on an expansion environment."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from conftest import shuffle_hidden
from gymnasium import spaces
from pettingzoo.test import api_test, seed_test

from wayfarers_env import Game, GameConfig, env
from wayfarers_env.content import load_content
from wayfarers_env.envs import observation as ob
from wayfarers_env.envs.card_features import EFFECT_SCALE, FULL, HOSTS, canonical_indices, card_feature_table, effect_histogram
from wayfarers_env.envs.observation import CARD, NUM_CARDS, O_SEATS, SEAT, B, Encoder, L, encode, observation_bounds
from wayfarers_env.rules.actions import NUM_ACTIONS
from wayfarers_env.rules.bag import PRICE_SIZE
from wayfarers_env.rules.frames import FROM_WORKER, SOURCE_NAMES, BagContext
from wayfarers_env.rules.influence import Fee, InfluenceSource
from wayfarers_env.rules.journal import HourglassSaving
from wayfarers_env.rules.payments import FEE_AFTER, NOTHING_AFTER, CardInfluencePaid, Payment
from wayfarers_env.rules.state import extra_on, extra_placed
from wayfarers_env.rules.traders import ChooseTrader, TraderArrives
from wayfarers_env.rules.worker_tiles import WorkerColumn
from wayfarers_env.rules.workers import Capture, CaptureFrom
from wayfarers_env.vocabulary import CARD_INFLUENCE, GUILDS, RED, TAGS, TIDES_INSPIRATION, TIDES_OF_TRADE, WORKER_COLOURS

# api_test warns about these by design (as in test_env_api.py): the observation is a Dict
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably should be")
TIDES = FULL.tides
N_HALF = 16  # worker-tile halves of each kind (Top, Bottom) in tides.toml
HALF_POS = {h.index: int(h.id.rsplit("top" if h.half == "top" else "bottom", 1)[1]) - 1 for h in TIDES.halves}
SETTINGS = [(n, ci) for n in (2, 3, 4) for ci in CARD_INFLUENCE]
# the slices the expansion adds or fills (their meaning says so first): 0 in every base game
_OWN = ("Tides of Trade", "the Tides of Trade")
TIDES_SLICES = [s.name for s in L.slices if s.meaning.startswith(_OWN)]
TIDES_SLICES += [f"seat{k}.{s.name}" for k in range(4) for s in SEAT.slices if s.meaning.startswith(_OWN)]


def tides_game(n: int, seed: int, card_influence: str = "both") -> Game:
    return Game(GameConfig(num_players=n, tides_of_trade=True, card_influence=card_influence), seed=seed)


def val(obs: np.ndarray, name: str) -> np.ndarray:
    s = L[name]
    return obs[s.start : s.stop]


def seat_val(obs: np.ndarray, k: int, name: str) -> np.ndarray:
    s = SEAT[name]
    return obs[O_SEATS + k * B + s.start : O_SEATS + k * B + s.stop]


def one_hot(size: int, *positions: int) -> list[float]:
    v = [0.0] * size
    for p in positions:
        v[p] = 1.0
    return v


def random_positions(g: Game, rng: random.Random, every: int):
    """Play ``g`` to its end with random legal actions, yielding it every ``every`` decisions and at the end."""
    step = 0
    while not g.is_over:
        if step % every == 0:
            yield g
        g.apply(rng.choice(g.legal_actions()))
        step += 1
    yield g


# ---------------------------------------------------------------------- one layout


def test_the_spaces_are_the_same_with_and_without_the_expansion():
    base, tides = env(num_players=3), env(num_players=3, tides_of_trade=True, card_influence="cards")
    for a in base.possible_agents:
        b, t = base.observation_space(a), tides.observation_space(a)
        assert b == t
        assert np.array_equal(b["observation"].low, t["observation"].low) and np.array_equal(b["observation"].high, t["observation"].high)
        assert base.action_space(a) == tides.action_space(a) == spaces.Discrete(NUM_ACTIONS)
    assert base.unwrapped.metadata["name"] == tides.unwrapped.metadata["name"] == "wayfarers_v4"


def test_the_expansion_slices_are_listed_and_zero_in_base_games():
    names = set(TIDES_SLICES)
    for new in ("game.tides_of_trade", "game.traders", "game.worker_stacks", "game.worker_faces", "game.boxed", "game.ink_used"):
        assert new in names
    for new in ("decision.node", "decision.price", "decision.worker_tile", "market.extra_workers", "seat3.worker_tiles"):
        assert new in names
    flags, fee_for, hosts = L["decision.flags"], L["decision.fee_for"], SEAT["open_hosts"]
    seen = 0
    for n in (2, 3, 4):
        g = Game(GameConfig(num_players=n), seed=40 + n)
        for pos in random_positions(g, random.Random(n), 97):
            for seat in range(n):
                obs = encode(pos, seat)
                for name in TIDES_SLICES:
                    assert not val(obs, name).any(), name
                assert not obs[flags.start + 5 : flags.stop].any() and obs[fee_for.stop - 1] == 0
                for k in range(n):
                    assert obs[O_SEATS + k * B + hosts.start + len(TAGS)] == 0  # the Market's place: no Market
                seen += 1
    assert seen > 100


def test_card_table_covers_every_card_and_base_cards_keep_their_vectors():
    assert ob.N_HALF == N_HALF == len(HALF_POS) // 2
    assert NUM_CARDS == sum(len(d) for d in FULL.decks.values()) == 194
    assert HOSTS[-1] == "market" and len(HOSTS) == len(TAGS) + 1
    full = card_feature_table(FULL)
    base = card_feature_table(load_content())
    assert np.array_equal(full[:160], base[:160]) and not base[160:].any()
    s = {name: CARD[name] for name in ("hosts", "space_influence", "gives_influence", "immediate", "tags")}
    for card in FULL.cards[:NUM_CARDS]:
        row = full[card.index]
        assert row.any(), card.id
        hosts = row[s["hosts"].start : s["hosts"].stop]
        assert hosts.tolist() == [float(h in card.hosts) for h in HOSTS]
        need = [card.die_space.influence.count(g) if card.die_space else 0 for g in GUILDS]
        assert row[s["space_influence"].start : s["space_influence"].stop].tolist() == need  # 0 or 1: not scaled
        assert row[s["gives_influence"].start : s["gives_influence"].stop].tolist() == [card.gives_influence.count(g) for g in GUILDS]
        # an Overseer's immediate effect is what dismissing it gives (it has none of its own)
        now = card.dismiss if card.is_overseer else card.immediate
        assert (card.dismiss is None) != card.is_overseer, card.id
        want = effect_histogram([now] if now else []) / EFFECT_SCALE
        assert np.allclose(row[s["immediate"].start : s["immediate"].stop], want), card.id
        assert row[s["tags"].start : s["tags"].stop].tolist() == pytest.approx([n / 3 for n in card.tag_counts])
    overseers = [c for c in FULL.cards if c.is_overseer]
    assert overseers and all(full[c.index][s["hosts"].stop - 1] == 1 for c in overseers)


def test_card_indices_name_the_same_card_whatever_the_options():
    option = load_content(options=frozenset({TIDES_INSPIRATION}))
    canon = canonical_indices(option)
    assert canon[:160] == tuple(range(160))
    for card in option.cards[160 : len(canon)]:  # the expansion's two Inspiration cards: 160-161 in this content
        assert FULL.cards[canon[card.index]].id == card.id and canon[card.index] >= 192
    assert canonical_indices(load_content(options=frozenset({TIDES_OF_TRADE}))) == tuple(range(NUM_CARDS))
    # in a game with the option, such a card is observed under its index in the one index space
    g = Game(GameConfig(num_players=2, content_options=frozenset({TIDES_INSPIRATION})), seed=3)
    rng = random.Random(3)
    shown = 0
    for pos in random_positions(g, rng, 1):
        market = pos.state.market
        obs = None
        for slot, c in enumerate(market):
            if c >= 160:
                obs = encode(pos, 0) if obs is None else obs
                assert val(obs, "market.ids")[slot] == canon[c] + 1
                cards = val(obs, "market.cards").reshape(len(market), -1)
                assert np.array_equal(cards[slot], card_feature_table(FULL)[canon[c]])
                shown += 1
        if shown >= 3:
            break
    assert shown >= 3


# ------------------------------------------------------------------ what the slices read


def check_tides_slices(g: Game, seat: int, obs: np.ndarray) -> None:
    """Every Tides of Trade slice against the state it shows."""
    st = g.state
    assert val(obs, "game.tides_of_trade").tolist() == [1.0]
    assert val(obs, "game.card_influence").tolist() == one_hot(3, CARD_INFLUENCE.index(st.config.card_influence))
    assert val(obs, "game.extension_sides").tolist() == list(st.ext_sides)
    assert val(obs, "game.traders").tolist() == pytest.approx([x / ob.TRADERS_MAX for x in st.traders])
    assert ob.TRADERS_MAX == max(tr.copies for tr in TIDES.traders) == 2 and ob.STACK_MAX == 4
    assert val(obs, "game.worker_stacks").tolist() == pytest.approx([len(s) / 4 for s in st.worker_stacks])
    faces = val(obs, "game.worker_faces").reshape(len(st.worker_stacks), N_HALF)
    for j, stack in enumerate(st.worker_stacks):
        assert faces[j].tolist() == (one_hot(N_HALF, HALF_POS[stack[-1]]) if stack else one_hot(N_HALF))
    assert set(np.flatnonzero(val(obs, "game.boxed")).tolist()) == set(st.boxed)
    assert val(obs, "game.ink_used").tolist() == [float(st.ink_used)]
    assert val(obs, "game.ink_assets").tolist() == [float(st.ink_assets)]
    colours = range(len(WORKER_COLOURS))
    extra = val(obs, "market.extra_workers").reshape(len(st.market), len(colours))
    extra_now = val(obs, "market.extra_placed").reshape(len(st.market), len(colours))
    for i, x in enumerate(st.market_extra):
        assert extra[i].tolist() == pytest.approx([extra_on(x, c) / 3 for c in colours])  # beyond the first of 4 workers
        assert extra_now[i].tolist() == pytest.approx([extra_placed(x, c) / 3 for c in colours])
    for k in range(st.n):
        p = st.players[(seat + k) % st.n]
        trader = seat_val(obs, k, "trader")
        if p.trader >= 0:
            side = st.ext_sides[TIDES.traders[p.trader].extension - 1]
            assert trader.tolist() == one_hot(len(trader), 2 * p.trader + side)
        else:
            assert not trader.any()
        assert seat_val(obs, k, "overseer").tolist() == [p.overseer + 1.0]
        assert p.overseer < 0 or seat_val(obs, k, "cards")[p.overseer] == 1
        assert seat_val(obs, k, "open_hosts")[-1] == float(p.overseer < 0)
        tiles = seat_val(obs, k, "worker_tiles").reshape(len(p.worker_tiles), 2, N_HALF)
        for col, (top, bottom) in enumerate(p.worker_tiles):
            want = [one_hot(N_HALF, HALF_POS[top]), one_hot(N_HALF, HALF_POS[bottom])] if top >= 0 else [one_hot(N_HALF)] * 2
            assert tiles[col].tolist() == want
        assert seat_val(obs, k, "ink_well").tolist() == pytest.approx([p.ink / 15])
        assert seat_val(obs, k, "hourglass").tolist() == [float(p.hourglass)]
        assert seat_val(obs, k, "guilds")[RED] == pytest.approx(p.guild[RED] / 15)


def test_each_expansion_slice_reads_what_the_state_holds():
    seen: set[str] = set()
    for n, ci in SETTINGS:
        g = tides_game(n, 60 + n, ci)
        enc = Encoder()
        for pos in random_positions(g, random.Random(n * 7 + len(ci)), 11):
            st = pos.state
            for seat in range(n):
                check_tides_slices(pos, seat, enc.encode(pos, seat))
            seen |= {name for name, on in [
                ("trader", any(p.trader >= 0 for p in st.players)),
                ("overseer", any(p.overseer >= 0 for p in st.players)),
                ("worker tile", any(t[0] >= 0 for p in st.players for t in p.worker_tiles)),
                ("ink", any(p.ink for p in st.players)),
                ("hourglass", any(p.hourglass for p in st.players)),
                ("red", any(p.guild[RED] for p in st.players)),
                ("boxed", bool(st.boxed)),
                ("ink used", st.ink_used),
                ("stack emptied", any(not s for s in st.worker_stacks)),
                ("second worker", any(st.market_extra)),
            ] if on}  # fmt: skip
    assert seen == {"trader", "overseer", "worker tile", "ink", "hourglass", "red", "boxed", "ink used", "stack emptied", "second worker"}


def test_employing_a_trader_shows_it_on_the_market_and_off_the_extension():
    for seed in range(40):
        g = tides_game(3, seed)
        rng = random.Random(seed)
        while not g.is_over and g.decision()[0] != "employ_trader":
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        me = g.current_player
        before = encode(g, me)
        k = g.state.players[me].trader
        action = rng.choice(g.legal_actions())
        g.apply(action)
        while not g.is_over and g.current_player == me and g.state.players[me].trader == k:
            g.apply(rng.choice(g.legal_actions()))  # the trader's effects, then it arrives
        k = g.state.players[me].trader
        assert k >= 0
        after = encode(g, me)
        side = g.state.ext_sides[TIDES.traders[k].extension - 1]
        assert not seat_val(before, 0, "trader")[2 * k + side] and seat_val(after, 0, "trader")[2 * k + side] == 1
        assert val(after, "game.traders")[k] == pytest.approx(val(before, "game.traders")[k] - 1 / ob.TRADERS_MAX)
        other = encode(g, (me + 1) % 3)  # the others see it too, in my seat's block
        assert seat_val(other, 2, "trader")[2 * k + side] == 1
        return
    pytest.fail("no random game employed a trader")


# ------------------------------------------------------------------- decision parameters


def decision_state(frame, below=()) -> Game:
    """A mid-game expansion position with ``frame`` as the decision to take (the encoder only reads it)."""
    g = tides_game(3, 5)
    rng = random.Random(5)
    for _ in range(300):
        g.apply(rng.choice(g.legal_actions()))
    g.state.stack[:] = [*g.state.stack[:1], *below, frame]
    return g


def flags(obs: np.ndarray) -> list[float]:
    return val(obs, "decision.flags").tolist()


@pytest.mark.parametrize("seat", [0, 1])
def test_the_new_decisions_show_their_parameters(seat):
    cases = [
        (HourglassSaving(7), lambda o, g: val(o, "decision.node").tolist() == one_hot(len(val(o, "decision.node")), 7)),
        (
            Payment((3, 0, 0, 1, 0, 0, 0), FEE_AFTER),
            lambda o, g: val(o, "decision.price").tolist() == pytest.approx([0.3, 0, 0, 0.1, 0, 0, 0]) and flags(o)[6] == 1,
        ),
        (Payment((0, 2, 0, 0, 0, 25, 0), NOTHING_AFTER), lambda o, g: val(o, "decision.price").tolist()[5] == 2 and flags(o)[6] == 0),
        (
            ChooseTrader(BagContext(0, 2, 1, 1)),
            lambda o, g: (
                val(o, "decision.source").tolist() == one_hot(len(SOURCE_NAMES), 0)
                and val(o, "decision.context").tolist() == pytest.approx([0.2, 0.1, 1])
            ),
        ),
        (ChooseTrader(FROM_WORKER), lambda o, g: val(o, "decision.source").tolist() == one_hot(len(SOURCE_NAMES), FROM_WORKER.source)),
        (TraderArrives(2), lambda o, g: val(o, "decision.trader").tolist() == one_hot(len(TIDES.traders), 2)),
        (WorkerColumn(4, 21), lambda o, g: val(o, "decision.worker_tile").tolist() == one_hot(2 * N_HALF, 4, N_HALF + 5)),
        (CardInfluencePaid(3), lambda o, g: val(o, "decision.left").tolist() == pytest.approx([0.2])),
        (Capture(True), lambda o, g: flags(o)[7] == 1),
        (Capture(False), lambda o, g: flags(o)[7] == 0),
        (InfluenceSource(2, 0), lambda o, g: flags(o)[5] == 1 and not val(o, "decision.slot").any() and not val(o, "decision.guild").any()),
        (InfluenceSource(1, 0), lambda o, g: flags(o)[5] == 0 and val(o, "decision.slot")[0] == 1),
    ]
    for frame, ok in cases:
        g = decision_state(frame)
        obs = encode(g, seat)
        assert ok(obs, g), frame
        assert val(obs, "decision.kind")[ob._KIND_OF[type(frame)]] == 1
    # a fee for a worker taken from a supply: its own "fee for", the colour, the owner relative to me
    g = decision_state(Fee(2, CaptureFrom(2, 1)))
    obs = encode(g, seat)
    assert val(obs, "decision.fee_for").tolist() == [0, 0, 0, 1] and val(obs, "decision.colour").tolist() == [0, 1, 0]
    assert val(obs, "decision.fee_owner").tolist() == one_hot(4, (2 - seat) % 3)
    assert len(val(obs, "decision.price")) == PRICE_SIZE


def test_decisions_met_in_random_expansion_games_show_their_parameters():
    """The same, for the frames random play reaches (whatever the rules put in them)."""
    met: set[str] = set()
    for n, ci in SETTINGS[::2]:
        g = tides_game(n, 80 + n, ci)
        for pos in random_positions(g, random.Random(n), 1):
            if pos.is_over:
                break
            top = pos.state.stack[-1]
            obs = None
            if isinstance(top, Payment):
                obs = encode(pos, pos.current_player)
                assert val(obs, "decision.price").tolist() == pytest.approx([min(x / 10, 2) for x in top.need])
            elif isinstance(top, ChooseTrader):
                obs = encode(pos, pos.current_player)
                assert val(obs, "decision.source")[top.ctx.source] == 1
            elif isinstance(top, WorkerColumn):
                obs = encode(pos, pos.current_player)
                assert val(obs, "decision.worker_tile").tolist() == one_hot(2 * N_HALF, HALF_POS[top.top], N_HALF + HALF_POS[top.bottom])
            elif isinstance(top, HourglassSaving):
                obs = encode(pos, pos.current_player)
                assert val(obs, "decision.node")[top.source] == 1
            if obs is not None:
                met.add(type(top).__name__)
    assert {"Payment", "ChooseTrader", "WorkerColumn"} <= met


# ------------------------------------------------------------------------ incremental


@pytest.mark.parametrize("n,card_influence", SETTINGS)
def test_cached_encoder_matches_a_fresh_one_over_expansion_games(n, card_influence):
    g = tides_game(n, 100 + n, card_influence)
    enc = Encoder()
    rng = random.Random(n)
    step = 0
    while not g.is_over:
        if step % 4 == 0:
            for seat in range(n):
                assert np.array_equal(enc.encode(g, seat), encode(g, seat)), (step, seat, g.decision()[0])
        else:  # the deciding seat only, as the environment asks
            enc.encode(g, g.current_player)
        g.apply(rng.choice(g.legal_actions()))
        step += 1
    for seat in range(n):
        assert np.array_equal(enc.encode(g, seat), encode(g, seat))


# -------------------------------------------------------------------------- no leak


def hide_differently(d: dict, seat: int, rng: random.Random) -> dict:
    """The same public position with other hidden parts: each worker stack's halves below its face-up
    one reversed and swapped with halves out of play, and each deck's cards ``seat`` does not know
    shuffled."""
    stacks = d["worker_stacks"]
    in_play = {h for s in stacks for h in s} | {h for p in d["players"] for t in p["worker_tiles"] for h in t}
    half = len(stacks) // 2
    for j, stack in enumerate(stacks):
        below = stack[:-1][::-1]
        kind = "top" if j < half else "bottom"
        spare = [h.index for h in TIDES.halves if h.half == kind and h.index not in in_play]
        if below and spare:
            in_play.discard(below[0])
            below[0] = spare[0]
            in_play.add(spare[0])
        stack[:-1] = below
    return shuffle_hidden(d, seat, rng)


def test_worker_stacks_below_the_face_up_half_and_deck_order_do_not_leak():
    rng = random.Random(0)
    tested = 0
    for n in (2, 3, 4):
        g = tides_game(n, 120 + n)
        moves = random.Random(n)
        for _ in range(200 * n):
            g.apply(moves.choice(g.legal_actions()))
        assert max(len(s) for s in g.state.worker_stacks) >= 2
        for seat in range(n):
            d = hide_differently(g.to_dict(), seat, rng)
            other = Game.from_dict(d)
            assert other.state.worker_stacks != g.state.worker_stacks and other.state.decks != g.state.decks
            assert [s[-1] for s in other.state.worker_stacks if s] == [s[-1] for s in g.state.worker_stacks if s]
            assert np.array_equal(encode(other, seat), encode(g, seat))
            det = g.determinize(seat, random.Random(seat))  # what a search bot samples: the same view
            assert np.array_equal(encode(det, seat), encode(g, seat))
            tested += 1
    assert tested == 9


def test_a_face_up_worker_half_is_part_of_the_observation():
    """The check above can fail: another half face up changes what everyone sees."""
    g = tides_game(2, 122)
    d = g.to_dict()
    stack = d["worker_stacks"][0]
    stack[-1], stack[0] = stack[0], stack[-1]
    other = Game.from_dict(d)
    for seat in range(2):
        a, b = encode(other, seat), encode(g, seat)
        assert not np.array_equal(val(a, "game.worker_faces"), val(b, "game.worker_faces"))


# ----------------------------------------------------------------- the environment


def test_pettingzoo_api_and_seed_tests_pass_on_expansion_environments():
    for n, ci in ((2, "both"), (3, "ink_well"), (4, "cards")):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            api_test(env(num_players=n, tides_of_trade=True, card_influence=ci), num_cycles=4000)
        assert not {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}
        seed_test(lambda n=n, ci=ci: env(num_players=n, tides_of_trade=True, card_influence=ci), num_cycles=300)


def test_thirty_six_random_expansion_games_stay_in_bounds_with_exact_masks():
    """Every setting (2-4 players, each card-influence value), four games each, through the AEC loop:
    no crash, every observation inside the declared Box, every mask exactly the legal set."""
    low, high = observation_bounds()
    games = 0
    for n, ci in SETTINGS:
        e = env(num_players=n, tides_of_trade=True, card_influence=ci)
        rng = random.Random(n)
        for game_seed in range(4):
            e.reset(seed=1000 * n + game_seed)
            game = e.unwrapped.game
            for agent in e.agent_iter():
                obs, _reward, term, trunc, _info = e.last()
                x = obs["observation"]
                assert x.dtype == np.float32 and (x >= low).all() and (x <= high).all(), agent
                if term or trunc:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"]).tolist()
                assert legal == sorted(game.legal_actions())
                e.step(legal[rng.randrange(len(legal))])
            assert game.is_over
            games += 1
    assert games >= 30
