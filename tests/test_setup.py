"""Setup (rulebook 'Setup', pp.4-5, and the player setup chart on the back cover)."""

from __future__ import annotations

import pytest

from wayfarers_env import ConfigError, Game, GameConfig
from wayfarers_env.rules.state import RESERVE, SUPPLY


@pytest.mark.parametrize("n", [2, 3, 4])
def test_resources_by_seat(n):
    """Setup chart: 1st 3 silver/2 provisions/1 blue; 2nd adds 1 yellow; 3rd 4 silver; 4th 4 silver 3 provisions."""
    g = Game(GameConfig(num_players=n), seed=1).state
    chart = [(3, 2, [0, 0, 1, 0]), (3, 2, [0, 1, 1, 0]), (4, 2, [0, 1, 1, 0]), (4, 3, [0, 1, 1, 0])]  # black, yellow, blue, red
    for seat, p in enumerate(g.players):
        silver, provisions, guild = chart[seat]
        assert (p.silver, p.provisions, p.guild) == (silver, provisions, guild)
        assert p.supply == 15 - sum(guild)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_player_pieces(n):
    """Each player: 5 dice (3 rolled into supply, 2 in the reserve), 1 yellow and 1 blue worker,
    marker on the far-left journal space, a player board dealt at random (all different)."""
    g = Game(GameConfig(num_players=n), seed=2).state
    for p in g.players:
        assert p.dice_loc.count(SUPPLY) == 3 and p.dice_loc.count(RESERVE) == 2
        assert all(1 <= p.dice_face[d] <= 6 for d in range(5) if p.dice_loc[d] == SUPPLY)
        assert p.workers == [1, 1, 0]
        assert g.tables.nodes[p.node].column == 0
    assert len({p.board for p in g.players}) == n


def test_face_up_rows_and_decks():
    """Setup steps 2-3: five shuffled decks, 4 face-up cards beside each."""
    g = Game(GameConfig(num_players=2), seed=3).state
    assert all(c >= 0 for c in g.market)
    assert [len(d) for d in g.decks] == [32, 32, 32, 32, 12]
    kinds = ["townsfolk", "land", "water", "space", "inspiration"]
    for row, kind in enumerate(kinds):
        assert all(g.tables.cards[c].kind == kind for c in g.market[row * 4 : row * 4 + 4] + g.decks[row])


def test_journal_tiles_green_workers_and_tiles_supply():
    """Setup steps 4-7: one journal tile per empty track space, 4 green workers, all 10 special
    tiles, and one of each coloured tile per player."""
    for n in (2, 3, 4):
        g = Game(GameConfig(num_players=n), seed=n).state
        t = g.tables
        placed = [tile for tile in g.node_tile if tile >= 0]
        assert sorted(placed) == list(range(10))
        assert all(g.node_tile[node] >= 0 for node in t.tile_nodes)
        assert g.green == [True] * 4
        for d, design in enumerate(t.designs):
            assert g.tile_supply[d] == (1 if design.kind == "special" else n)


def test_shuffles_depend_on_seed():
    a, b = Game(seed=10).state, Game(seed=11).state
    assert (a.decks, a.market, a.node_tile) != (b.decks, b.market, b.node_tile)


def test_board_sides_random_or_chosen():
    """Setup step 1: either side of each main-board section may be used."""
    sides = {Game(GameConfig(board_sides="random"), seed=s).state.sides for s in range(40)}
    assert len(sides) > 4
    assert Game(GameConfig(board_sides="bab"), seed=0).state.sides == (1, 0, 1)


def test_player_boards_chosen():
    g = Game(GameConfig(num_players=3, player_boards=(4, 2, 1)), seed=0).state
    assert [p.board for p in g.players] == [3, 1, 0]


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"num_players": 1}, r"a solo game \(num_players=1\) needs solo_ai_board 1-4"),
        ({"num_players": 5}, "num_players must be 1, 2, 3 or 4"),
        ({"board_sides": "abc"}, "board_sides"),
        ({"board_sides": "ab"}, "board_sides"),
        ({"player_boards": (1, 1)}, "player_boards"),
        ({"player_boards": (1, 5)}, "player_boards"),
        ({"content_options": {"moon_saga"}}, "content_options"),
    ],
)
def test_bad_config_is_rejected_with_a_clear_error(kwargs, fragment):
    with pytest.raises(ConfigError, match=fragment):
        GameConfig(**kwargs)


def test_config_from_dict_rejects_unknown_fields():
    with pytest.raises(ConfigError, match="unknown config field"):
        Game({"num_player": 3})
    assert Game({"num_players": 3}).num_players == 3


def test_first_decision_is_the_first_players_turn():
    """Gameplay overview: the first player starts; a turn is one of die, worker or rest."""
    g = Game(seed=5)
    assert g.current_player == 0
    assert g.decision()[0] == "turn"
