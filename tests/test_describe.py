"""The game in words for people (issue 15): every icon of the effect grammar, every content item,
every catalog id and every option of played games described in the game's words, never by id;
stable option numbers; the reasons for missing options; a table that fits 100 x 50."""

from __future__ import annotations

import random
import re

import pytest

from experiments import describe as d
from experiments.options import options, ordered, plain
from experiments.reasons import missing
from experiments.table import compact_table, journal_view, market_view, players_view
from wayfarers_env import Game, GameConfig
from wayfarers_env.content.effects import ATOMS, Atom, parse
from wayfarers_env.content.loader import load_content
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.tables import tables_for
from wayfarers_env.vocabulary import CONTENT_OPTIONS, EXPANSIONS, ROWS

# an id as the data files write them (land.9, journal.5.1, tile.basic1, capital.market) or a name
# with an underscore (open_water, tile_basic, guild_any): neither belongs in a line for people
RAW = re.compile(r"\b[a-z_]+\.[a-z0-9_]+\b|\b[a-z]+_[a-z_]+\b")
FULL = frozenset(CONTENT_OPTIONS + EXPANSIONS)
CONFIGS = [
    GameConfig(num_players=3),
    GameConfig(num_players=2, tides_of_trade=True),
    GameConfig(num_players=4, tides_of_trade=True, card_influence="cards"),
    GameConfig(num_players=1, solo_ai_board=3),
]


def readable(text: str) -> None:
    assert text.strip(), "an empty description"
    assert not RAW.search(text), f"a raw id in {text!r}"


def test_every_icon_of_the_grammar_has_words():
    assert set(d.ATOM_WORDS) == set(ATOMS)  # a new icon needs its words here
    for name, grammar in ATOMS.items():
        for arg in grammar.args[0] if grammar.args else (None,):
            readable(d.atom_words(Atom(name, 2 if grammar.amount else 1, (arg,) if arg else ())))


@pytest.mark.parametrize(
    "effect, words",
    [
        ("tile(land) / 2 x guild(yellow)", "a Land tile OR 2 yellow influence"),
        ("2 provisions -> silver, land_card", "pay 2 provisions to get 1 silver and a Land card"),
        ("space_card(discount), guild(blue)", "a Space card for 1 silver less and 1 blue influence"),
        ("2 x guild(any), (tile(special) / inspiration)", "2 influence in any guild and (a Special tile OR an Inspiration card)"),
        ("townsfolk(free)", "a Townsfolk for free"),
        ("2 x adjust_die", "change a die by 1, twice"),
        ("provision", "1 provision"),
    ],
)
def test_effects_in_words(effect, words):
    assert d.effect_words(parse(effect)) == words


@pytest.mark.parametrize(
    "measure, words",
    [
        ("city >= 2", "at least 2 City tags"),
        ("7 if moon else 3", "7 if you have Moon tags, else 3"),
        ("1 + black_influence // 2", "1 + 1 per 2 black influence"),
        ("3 * min(planet, comet, stars)", "3 × the fewest of Planet tags, Comet tags and Stars tags"),
        ("sun + moon >= 1", "Sun tags + Moon tags is at least 1"),
        ("4 if comet_majority else 1", "4 if you have the most Comet tags, else 1"),
    ],
)
def test_counts_in_words(measure, words):
    assert d.measure_words(measure) == words


def test_every_content_item_is_described_in_words():
    c = load_content(options=FULL)
    t = tables_for(FULL)
    cap = c.capital
    for card in (*c.cards, cap.city, cap.harbour, cap.star, cap.townsfolk):
        readable(d.card_words(card))
        assert d.card_words(card).startswith(card.name + ": ")
    assert "Capital Townsfolk: Capital; when resting: 1 silver and 1 journal step" == d.card_words(cap.townsfolk)
    for design in c.designs:
        readable(d.design_words(design, c.tile_costs[design.kind]))
    for s in range(len(CATALOG.space_ids)):
        readable(d.space_name(t, s) + ": " + d.space_words(t, s))
    for row in range(len(ROWS)):
        for slot in range(t.slots):
            readable(d.spot_words(t, row, slot))
    for _tid, effect in c.journal_tiles:
        readable(d.effect_words(effect))
    game = Game(GameConfig(num_players=2, tides_of_trade=True), 1)
    for node in c.nodes:
        readable(d.node_name(node) + ": " + d.node_words(game.state, node.index))
        for nxt in node.next:
            readable(d.link_words(game.state, node.index, nxt))
    for k in range(len(c.tides.traders)):
        readable(d.trader_words(game.state, k))
    for h in range(len(c.tides.halves)):
        readable(d.half_words(t, h))
    for board in c.solo.ai_boards:
        readable(d.effect_words(board.focus) + "; " + d.effect_words(board.rest) + "; " + d.effect_words(board.track_bonus))


def test_every_catalog_id_has_plain_words():
    seen = set()
    for a in range(CATALOG.size):
        text = plain(a)
        readable(text)
        seen.add(text)
    assert "choose upgrade tile Basic tile 1" in seen and "journal to column 5, row 1" in seen
    assert "put the die on Observatory City 9" in seen and "resolve next: a Basic tile" in seen


@pytest.mark.parametrize("config", CONFIGS, ids=["3p", "tides 2p", "tides 4p cards", "solo"])
def test_every_option_of_a_game_is_described_in_words(config):
    """Every option, its short form, the decision's context and the reasons for what is missing,
    at every decision of a random game; and the table fits 100 columns by 50 rows throughout."""
    game = Game(config, 7)
    rng = random.Random(7)
    kinds = set()
    while not game.is_over:
        kinds.add(game.decision()[0])
        opts = options(game)
        assert sorted(o.action for o in opts) == sorted(game.legal_actions())
        for o in opts:
            readable(o.text)
            assert not RAW.search(o.short)
        for line in missing(game):
            readable(line)
        if game.state.stack and game.decision()[0] == "turn":
            lines = compact_table(game, game.current_player, ["you", "b", "c", "d"]).splitlines()
            assert len(lines) <= 50 and max(map(len, lines)) <= 100, "\n".join(lines)
            readable(lines[0])
        game.apply(rng.choice(game.legal_actions()))
    assert {"turn", "die_space", "effect", "acquire_card", "journal", "tile_design"} <= kinds
    for view in (market_view(game), journal_view(game), players_view(game)):
        readable(view)


def test_option_numbers_are_stable_abilities_last_and_decline_zero():
    game = Game(GameConfig(num_players=2), 2)
    rng = random.Random(2)
    found = 0
    while not game.is_over and found < 5:
        legal = game.legal_actions()
        keys = dict((a, k) for k, a in ordered(legal))
        if CATALOG.YELLOW in legal and game.decision()[0] == "die_space":
            spaces = [keys[a] for a in legal if a in CATALOG.SPACE]
            # the Trade guild (a lower id than every die space) comes after them; without it, the
            # spaces keep their numbers
            assert keys[CATALOG.YELLOW] > max(spaces)
            without = dict((a, k) for k, a in ordered([a for a in legal if a != CATALOG.YELLOW]))
            assert all(without[a] == keys[a] for a in legal if a in CATALOG.SPACE)
            found += 1
        if CATALOG.DONE in legal:
            assert keys[CATALOG.DONE] == 0
        game.apply(rng.choice(legal))
    assert found, "no die space decision with the Trade guild in this game"


def test_an_either_or_says_what_it_gives_up_and_reasons_say_why():
    game = Game(GameConfig(num_players=2), 3)
    game.apply(CATALOG.DIE[2])  # a die showing 3: the capital's Market and Reserve take it
    reasons = missing(game)
    assert "Library (capital): needs 1 pigeon; a die showing 3 brings no asset" in reasons
    assert "Capital City: needs 1 camel; a die showing 3 brings no asset" in reasons
    game.apply(CATALOG.SPACE[CATALOG.space_index["capital.market"]])
    texts = [o.text for o in options(game)]
    assert texts == [
        "2 provisions (instead of a Townsfolk)",
        "a Townsfolk (instead of 2 provisions)",
        "decline the rest: a Townsfolk OR 2 provisions",
    ]


def test_journal_reasons_name_the_requirement_and_the_count():
    """A journal step a player cannot take names the splotch's requirement and what the player has."""
    game = Game(GameConfig(num_players=2), 5)
    rng = random.Random(5)
    checked = 0
    while not game.is_over:
        if game.decision()[0] == "journal":
            p = game.state.players[game.current_player]
            reasons = missing(game)
            assert len(reasons) + len(game.legal_actions()) >= len(game.state.tables.nodes[p.node].next)
            for line in (r for r in reasons if "needs" in r):
                m = re.search(r"needs at least (\d+) .+? \(you have (\d+)\)$", line)
                assert m, line
                assert int(m.group(2)) < int(m.group(1))
                checked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert checked
