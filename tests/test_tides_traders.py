"""Tides of Trade: traders ("Employing a Trader", ToT l.155-187) and worker upgrade tiles
("Acquiring Worker Upgrade Tiles", ToT l.189-235). Line numbers are those of
../shared/rules/tides-of-trade-rulebook.txt."""

from __future__ import annotations

from conftest import can, leaves, play, with_effect

from wayfarers_env import Game, GameConfig, build_scenario
from wayfarers_env.content.measures import TERM_INDEX
from wayfarers_env.rules.actions import CATALOG, action_id
from wayfarers_env.rules.scoring import score_player
from wayfarers_env.vocabulary import RED

TIDES = {"num_players": 2, "tides_of_trade": True}


def trader_index(game: Game, tid: str) -> int:
    tides = game.state.tables.content.tides
    return [tr.id for tr in tides.traders].index(tid)


def test_setup_has_trader_twins_only_with_three_or_four_players():
    """ToT setup: "If playing with 3-4 players, also place the duplicate Trader Tiles"; each stack
    holds one worker tile per player (ToT setup 4)."""
    for n in (2, 3, 4):
        g = Game(GameConfig(num_players=n, tides_of_trade=True), 1).state
        tides = g.tables.content.tides
        assert g.traders == [tr.copies if n >= 3 else 1 for tr in tides.traders]
        assert sum(g.traders) == (6 if n >= 3 else 4)
        assert [len(s) for s in g.worker_stacks] == [n] * 2 * tides.stacks
        assert all(p.worker_tiles == [(-1, -1)] * 3 and p.trader == -1 and not p.hourglass for p in g.players)


def test_a_trader_costs_first_then_its_effects_then_it_goes_onto_the_market():
    """ToT l.161: "players must pay any costs before resolving any other effects. After resolving all
    effects, the Trader Tile must be placed onto the player's Market." Trader of Goods, side A:
    spend 1 red, gain 2 provisions and refresh 1 die."""
    spec = {"config": TIDES, "extension_sides": "aa", "players": [{"guild": {"red": 1}, "provisions": 0}]}
    g = with_effect(spec, "trader")
    k = trader_index(g, "trader.3")
    play(g, ("do", "trader"), ("employ_trader", "trader.3"))
    p = g.state.players[0]
    assert p.guild[RED] == 0 and p.trader == -1  # paid at once; the tile is not on the Market yet
    assert g.state.traders[k] == 0
    assert can(g, "do", "provisions") or g.decision()[0] == "effect"
    for _ in range(6):  # resolve its effects (the refresh may have nothing to refresh: skipped)
        if g.decision()[0] == "turn" or p.trader >= 0:
            break
        g.apply(g.legal_actions()[0])
        p = g.state.players[0]
    assert p.provisions == 2 and p.trader == k


def test_the_previous_trader_goes_back_and_a_trader_returns_after_resting():
    """ToT l.161 "If they already had a Trader Tile there, that Tile must immediately be returned";
    l.151 "After resting, players must always return any Trader Tile from their Market"."""
    spec = {"config": TIDES, "extension_sides": "ab", "players": [{"trader": "trader.3", "guild": {"red": 0}}]}
    g = with_effect(spec, "trader")
    guilds, goods = trader_index(g, "trader.4"), trader_index(g, "trader.3")
    assert g.state.traders[goods] == 0
    play(g, ("do", "trader"), ("employ_trader", "trader.4"))  # side B: gain 1 red and move 1 influence
    while g.state.players[0].trader != guilds:
        g.apply(g.legal_actions()[0])
    assert g.state.traders[goods] == 1 and g.state.traders[guilds] == 0
    rested = build_scenario({"config": TIDES, "players": [{"trader": "trader.2"}]})
    rested.apply(CATALOG.REST)
    while rested.current_player == 0 and not rested.is_over:
        rested.apply(rested.legal_actions()[0])
    assert rested.state.players[0].trader == -1 and rested.state.traders[trader_index(rested, "trader.2")] == 1


def test_the_extension_side_decides_what_a_trader_does():
    """ToT l.46 (either side of each extension) and the two sides of the Trader of Guilds
    (ToT l.185-187): side A gives a basic tile, side B a move of influence."""
    for sides, leaf in (("aa", "tile_basic"), ("ab", "move_influence")):
        g = with_effect({"config": TIDES, "extension_sides": sides, "players": [{"guild": {"black": 1}}]}, "trader")
        play(g, ("do", "trader"), ("employ_trader", "trader.4"))
        names = {CATALOG.names[a] for a in g.legal_actions()}
        assert any(leaf.split("_")[0] in n for n in names), (sides, names)


def test_a_trader_whose_cost_cannot_be_paid_is_not_offered():
    """ToT l.161 costs first; reading TIDES-QUESTIONS 4: only traders whose cost can be paid and whose
    effects then do something are offered. Without red only the Trader of Guilds (no cost) is."""
    g = with_effect({"config": TIDES, "extension_sides": "aa", "players": [{"guild": {"red": 0}}]}, "trader")
    play(g, ("do", "trader"))
    assert g.legal_actions() == [action_id("employ_trader", "trader.4")]


def test_a_worker_tile_costs_three_silver_or_two_red_then_a_pair_then_a_column():
    """ToT l.193 "This is always either 3 Silver or 2 Red Influence"; l.195 "select 1 of the pairs";
    l.197 "only be placed onto the new Caravan area"; l.197 covered icons are gained; l.205 the
    next pair is revealed."""
    spec = {"config": TIDES, "players": [{"silver": 3, "guild": {"red": 2}}]}
    g = with_effect(spec, "worker_tile")
    play(g, ("do", "worker_tile"))
    assert g.decision()[0] == "worker_tile_price" and len(g.legal_actions()) == 2
    g.apply(g.legal_actions()[0])  # silver
    assert g.state.players[0].silver == 0
    stacks = [s[:] for s in g.state.worker_stacks]
    assert g.decision()[0] == "worker_pair" and len(g.legal_actions()) == 4
    play(g, ("worker_pair", 2))
    assert g.decision()[0] == "worker_column" and len(g.legal_actions()) == 3
    top, bottom = stacks[1][-1], stacks[5][-1]
    assert g.state.worker_stacks[1] == stacks[1][:-1] and g.state.worker_stacks[5] == stacks[5][:-1]
    play(g, ("worker_column", "yellow"))
    p = g.state.players[0]
    assert p.worker_tiles[0] == (top, bottom)
    red = p.guild[RED]
    for _ in range(4):  # the covered icon under yellow: 1 red influence (data: worker_caravan.covered)
        if g.decision()[0] != "effect":
            break
        g.apply(g.legal_actions()[0])
    assert g.state.players[0].guild[RED] == red + 1


def test_an_empty_stack_pair_stays_empty_and_a_full_worker_caravan_takes_no_tile():
    """ToT l.205 "If a stack runs out of Tiles, it remains empty for the rest of the game"; reading
    TIDES-QUESTIONS 22: with every column covered no worker tile is offered."""
    g = with_effect({"config": TIDES, "worker_stacks": [[], [["worker_tile.top1", "worker_tile.bottom1"]], [], []]}, "worker_tile")
    play(g, ("do", "worker_tile"))
    g.apply(g.legal_actions()[0])
    assert g.legal_actions() == [action_id("worker_pair", 2)]
    full = {
        "yellow": ["worker_tile.top2", "worker_tile.bottom2"],
        "blue": ["worker_tile.top3", "worker_tile.bottom3"],
        "green": ["worker_tile.top4", "worker_tile.bottom4"],
    }
    h = with_effect({"config": TIDES, "players": [{"silver": 5, "worker_tiles": full}]}, "worker_tile / 1 silver")
    assert not can(h, "do", "worker_tile")


def test_a_worker_tile_counts_as_an_upgrade_tile_with_its_vp_and_tags():
    """ToT l.195 "together they are considered just 1 Upgrade Tile"; l.229 "Tags and VP can also be
    found on Worker Upgrade Tiles"; scoring l.297 "count any VP on Worker Upgrade Tiles"."""
    plain = build_scenario({"config": TIDES})
    tiled = build_scenario({"config": TIDES, "players": [{"worker_tiles": {"blue": ["worker_tile.top1", "worker_tile.bottom13"]}}]})
    library = build_scenario({"config": TIDES, "players": [{"worker_tiles": {"blue": ["worker_tile.top1", "worker_tile.bottom11"]}}]})
    c0, c1, c2 = (game.state.players[0].counts for game in (plain, tiled, library))
    assert c1[TERM_INDEX["tiles"]] == c0[TERM_INDEX["tiles"]] + 1
    assert c2[TERM_INDEX["library"]] == c0[TERM_INDEX["library"]] + 1
    s0, s1 = score_player(plain.state, 0), score_player(tiled.state, 0)
    assert s1["caravan"] - s0["caravan"] == 2  # bottom13 prints 2 VP


def test_a_worker_tile_joins_every_placement_of_its_colour():
    """ToT l.199 "whenever players place the coloured Worker shown above a Worker Upgrade Tile, they
    may resolve any effects on the Tile in addition to the effects of where they placed the Worker.
    All these effects may be resolved in any order." top1 gives 1 yellow, bottom3 1 silver."""
    tile = {"yellow": ["worker_tile.top1", "worker_tile.bottom3"]}
    spec = {"config": TIDES, "players": [{"workers": {"yellow": 1}, "worker_tiles": tile}]}
    g = build_scenario(spec)
    bare = build_scenario({"config": TIDES, "players": [{"workers": {"yellow": 1}}]})
    for game in (g, bare):
        play(game, ("worker", "yellow"))
        game.apply(game.legal_actions()[0])
    extra = leaves(g) - leaves(bare)
    assert {"guild_yellow", "silver"} <= leaves(g) and extra, (leaves(g), leaves(bare))
    assert leaves(bare) <= leaves(g)


def test_determinize_resamples_the_worker_tiles_below_the_face_up_ones():
    """The halves under each stack's face-up pair are unseen (ToT l.205 "reveal a new pairing"):
    a determinized copy keeps every face-up half and stack size, draws the hidden ones from the
    halves nobody has seen, and is a legal position."""
    game = Game(GameConfig(num_players=3, tides_of_trade=True), 7)
    stacks = game.state.worker_stacks
    tops = [s[-1] for s in stacks]
    seen_any_change = False
    for k in range(5):
        d = game.determinize(0, k)
        assert [s[-1] for s in d.state.worker_stacks] == tops
        assert list(map(len, d.state.worker_stacks)) == list(map(len, stacks))
        seen_any_change |= d.state.worker_stacks != stacks
        Game.from_dict(d.to_dict())  # every half once, stacks aligned
        assert d.determinize(0, 99).state.worker_stacks == game.determinize(0, 99).state.worker_stacks
    assert seen_any_change


def test_scenario_refuses_impossible_expansion_pieces():
    """build_scenario names the key at fault and what is allowed (docs/SCENARIOS.md)."""
    import pytest

    from wayfarers_env.rules.scenario import ScenarioError

    bad = [
        ({"config": {"num_players": 2}, "players": [{"trader": "trader.1"}]}, "players[0].trader: Tides of Trade's"),
        ({"config": TIDES, "players": [{"trader": "trader.9"}]}, "unknown trader 'trader.9'"),
        ({"config": TIDES, "players": [{"trader": "trader.2"}, {"trader": "trader.2"}]}, "no trader.2 tile is left waiting"),
        ({"config": TIDES, "players": [{"overseer": "townsfolk.1"}]}, "is not an Overseer"),
        ({"config": TIDES, "players": [{"worker_tiles": {"black": ["worker_tile.top1", "worker_tile.bottom1"]}}]}, "columns are yellow"),
        ({"config": TIDES, "players": [{"worker_tiles": {"blue": ["worker_tile.bottom1", "worker_tile.top1"]}}]}, "a top half then"),
        ({"config": TIDES, "extension_sides": "abc"}, "extension_sides: two letters"),
        ({"config": TIDES, "worker_stacks": [[], []]}, "worker_stacks: 4 stack pairs"),
        ({"config": TIDES, "boxed": ["townsfolk.2"]}, "boxed: townsfolk.2 is not an Overseer"),
    ]
    for spec, message in bad:
        with pytest.raises(ScenarioError, match=message.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")):
            build_scenario(spec)
