"""Bots: the registry, legality on every decision kind, determinism, hidden information, strength."""

from __future__ import annotations

import random

import pytest

from agents.base import View, choose
from agents.defaults import DefaultPolicy
from agents.evaluation import NEUTRAL, evaluate, horizon, progress, squash
from agents.lookahead import action_values, finish_turn
from agents.registry import BOTS, UnknownBotError, known_bots, make_bot
from agents.strategies import STRATEGIES
from wayfarers_env import Game, GameConfig
from wayfarers_env.content.measures import TERM_INDEX, TERMS, compile_measure
from wayfarers_env.rules.actions import CATALOG, LEAF_INDEX
from wayfarers_env.rules.engine import decision_kinds

FRAME_NAMES = decision_kinds()

SEARCH_BOTS = ["greedy", "journal", "astronomer", "cartographer"]


def play(names: list[str], seed: int, limit: int | None = None) -> tuple[Game, list[int]]:
    bots = [make_bot(n) for n in names]
    game = Game(GameConfig(num_players=len(names)), seed)
    rngs = [random.Random(seed * 31 + k) for k in range(len(names))]
    actions = []
    while not game.is_over and (limit is None or len(actions) < limit):
        seat = game.current_player
        a = choose(bots[seat], game, rngs[seat])
        game.apply(a)
        actions.append(a)
    return game, actions


def random_position(seed: int, decisions: int) -> Game:
    game = Game(GameConfig(), seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


# ----------------------------------------------------------------------------- registry


def test_registry_builds_every_named_bot():
    for name in BOTS:
        bot = make_bot(name)
        assert bot.name == name
        assert callable(bot.decide)
    assert {"random", "greedy", "journal", "astronomer", "cartographer"} <= set(BOTS)
    assert set(STRATEGIES) == {"journal", "astronomer", "cartographer"}
    assert make_bot(" Greedy ").name == "greedy"
    assert make_bot("greedy") is not make_bot("greedy")


def test_registry_unknown_name_lists_the_known_ones():
    with pytest.raises(UnknownBotError) as err:
        make_bot("grandmaster")
    message = str(err.value)
    assert "grandmaster" in message
    for name in known_bots():
        assert name in message
    with pytest.raises(UnknownBotError, match="policy:"):
        make_bot("policy:")
    with pytest.raises(FileNotFoundError, match="no trained policy"):
        make_bot("policy:/nonexistent/model.zip")


def test_heuristics_document_their_plan():
    for cls in STRATEGIES.values():
        doc = cls.__doc__ or ""
        assert "Plan:" in doc and len(doc) > 300, cls.__name__


# ------------------------------------------------------------------- rules and evaluation


def test_default_policy_answers_every_decision_kind_legally():
    policy = DefaultPolicy()
    assert set(policy._rules) == set(FRAME_NAMES)  # a rule for every kind the engine can ask
    seen = set()
    for seed in range(3):
        game = Game(GameConfig(num_players=2 + seed), seed)
        rng = random.Random(seed)
        for _ in range(2500):
            if game.is_over:
                break
            legal = game.legal_actions()
            kind, _ = game.decision()
            seen.add(kind)
            assert policy(game, legal) in legal, kind
            game.apply(rng.choice(legal))
    assert len(seen) >= 18, sorted(set(FRAME_NAMES) - seen)


def test_finish_turn_stops_at_the_end_of_the_turn_it_was_given():
    game = Game(GameConfig(), 4)
    turn, seat = game.state.turn, game.current_player
    g = game.clone()
    g.apply(CATALOG.REST)  # rest ends the turn once the reroll question is answered
    finish_turn(g, DefaultPolicy(), turn)
    assert g.state.turn == turn + 1 and g.current_player != seat
    # given the new turn instead, it would play the opponent's turn: the bug this guards against
    h = g.clone()
    finish_turn(h, DefaultPolicy(), h.state.turn)
    assert h.state.turn == turn + 2


def test_evaluation_rewards_the_winner_and_shrinks_with_the_horizon():
    game, _ = play(["random", "random"], 1)
    assert game.is_over and horizon(game.state) == 0.0
    win = game.winners()
    for seat in range(2):
        lead = game.scores()[seat]["total"] - game.scores()[1 - seat]["total"]
        bonus = NEUTRAL.win_bonus / len(win) if seat in win else 0.0
        assert evaluate(game, seat) == pytest.approx(lead + bonus)
    assert horizon(Game(GameConfig(), 0).state) == 1.0
    assert squash(10.0, 60.0) == pytest.approx(9.9, abs=0.1) and squash(1000.0, 60.0) <= 60.0


def test_progress_towards_a_requirement():
    terms = [0] * len(TERMS)
    need = compile_measure("city >= 4")
    terms[TERM_INDEX["city"]] = 2
    assert progress(need, terms) == pytest.approx(0.5)
    terms[TERM_INDEX["city"]] = 4
    assert progress(need, terms) == 1.0
    assert progress(compile_measure("7 if sun else 3"), terms) == 1.0


# ----------------------------------------------------------------- determinism and secrecy


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_bot_is_deterministic_given_view_and_rng(name):
    _, first = play([name, "random"], 11, limit=150)
    _, second = play([name, "random"], 11, limit=150)
    assert first == second


def _permute_unseen(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with the cards ``seat`` has not seen shuffled among their positions."""
    d = game.to_dict()
    changed = False
    for deck, known in zip(d["decks"], d["known"]):
        pos = [i for i in range(len(deck)) if not known[i] & (1 << seat)]
        cards = [deck[i] for i in pos]
        shuffled = cards[:]
        while len(set(cards)) > 1 and shuffled == cards:
            rng.shuffle(shuffled)
        changed |= shuffled != cards
        for i, c in zip(pos, shuffled):
            deck[i] = c
    assert changed
    return Game.from_dict(d)


def hidden_order_positions(count: int) -> list[Game]:
    """Positions where the unseen deck order matters to a bot that could see it: draw-3 choices
    (the drawn cards are the top of a deck) as well as ordinary decisions."""
    draws = {CATALOG.DRAW, CATALOG.LEAF[LEAF_INDEX["draw_land"]], CATALOG.LEAF[LEAF_INDEX["draw_water"]]}
    out: list[Game] = []
    for seed in range(200):
        game = Game(GameConfig(), 500 + seed)
        rng = random.Random(seed)
        plain = 0
        while not game.is_over and game.state.turn < 400:
            legal = game.legal_actions()
            if len(legal) > 1 and (draws & set(legal) or (plain < 1 and rng.random() < 0.01)):
                plain += not draws & set(legal)
                out.append(game.clone())
                if len(out) == count:
                    return out
            game.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_decisions_ignore_the_order_of_unseen_cards(name):
    bot = make_bot(name)
    positions = hidden_order_positions(10)
    assert len(positions) == 10
    for k, game in enumerate(positions):
        seat = game.current_player
        other = _permute_unseen(game, seat, random.Random(k))
        legal = game.legal_actions()
        views = [View(g, seat, random.Random(k)) for g in (game, other)]
        values = [action_values(v.game, seat, legal, bot.policy, bot.estimate) for v in views]
        assert values[0] == values[1], (k, game.decision())
        a = bot.decide(View(game, seat, random.Random(k)), legal, random.Random(k))
        b = bot.decide(View(other, seat, random.Random(k)), legal, random.Random(k))
        assert a == b, (k, game.decision())


# ------------------------------------------------------------------------------ strength


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_search_bots_beat_random(name):
    for seed, names in ((21, [name, "random"]), (22, ["random", name])):
        game, _ = play(names, seed)
        assert game.is_over
        assert game.winners() == [names.index(name)], (names, game.scores())


def test_strategies_play_differently():
    """At the same positions the three strategies do not all make the same choices."""
    bots = {n: make_bot(n) for n in STRATEGIES}
    differ = {pair: 0 for pair in (("journal", "astronomer"), ("journal", "cartographer"), ("astronomer", "cartographer"))}
    for seed in range(30):
        game = random_position(300 + seed, 20 + 13 * seed)
        if game.is_over or len(game.legal_actions()) < 3:
            continue
        seat = game.current_player
        picks = {n: b.decide(View(game, seat, random.Random(0)), game.legal_actions(), random.Random(0)) for n, b in bots.items()}
        for a, b in differ:
            differ[(a, b)] += picks[a] != picks[b]
    assert all(count >= 2 for count in differ.values()), differ


# ---------------------------------------------------------------------------- policy bot


def test_policy_bot_plays_a_saved_maskable_ppo(tmp_path):
    pytest.importorskip("torch")
    sb3_contrib = pytest.importorskip("sb3_contrib")
    pytest.importorskip("wayfarers_env.envs.observation")
    from agents.policy_bot import PolicyBot
    from wayfarers_env.envs.wrappers import make_env

    env = make_env(num_players=2)()
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0, device="cpu", policy_kwargs={"net_arch": [16]})
    path = tmp_path / "tiny.zip"
    model.save(path)
    bot = make_bot(f"policy:{path}")
    assert isinstance(bot, PolicyBot) and bot.name == f"policy:{path}"
    runs = []
    for _ in range(2):
        game = Game(GameConfig(), 5)
        actions = []
        for _step in range(60):
            legal = game.legal_actions()
            a = bot.decide(View(game, game.current_player, random.Random(1)), legal, random.Random(1))
            assert a in legal
            game.apply(a)
            actions.append(a)
        runs.append(actions)
    assert runs[0] == runs[1]
    sampled = PolicyBot(model, deterministic=False)
    game = Game(GameConfig(), 6)
    for _ in range(30):
        legal = game.legal_actions()
        game.apply(sampled.decide(View(game, game.current_player, random.Random(2)), legal, random.Random(2)))
