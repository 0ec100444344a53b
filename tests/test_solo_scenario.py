"""build_scenario for solo positions (docs/SCENARIOS.md, "Solo"): the AI's board (config), its track,
scheme cards face up and in the deck, influence, workers, journal marker, cards and caravan."""

from __future__ import annotations

import pytest

from wayfarers_env import build_scenario
from wayfarers_env.rules.scenario import ScenarioError
from wayfarers_env.rules.solo import AI_SUPPLY
from wayfarers_env.rules.tables import COMET

SOLO = {"num_players": 1, "solo_ai_board": 2}


def test_a_solo_position_with_every_ai_piece():
    game = build_scenario(
        {
            "config": SOLO,
            "seed": 3,
            "players": [{}, {"guild": {"black": 3}, "workers": {"green": 1}, "node": "journal.2.1"}],
            "green": [False, True, True, True],
            "influence_on": {},
            "solo": {
                "track": 5,
                "comet": 4,
                "shown": ["scheme.4", "scheme.1"],
                "draw": ["scheme.2", "scheme.3", "scheme.5", "scheme.6"],
                "cards": ["land.3", "space.planet2"],
                "tiles": ["tile.land1", "tile.space2"],
            },
        }
    )
    g = game.state
    s, ai, t = g.solo, g.players[1], g.tables
    assert s.track == 5 and ai.counts[COMET] == 4
    assert [t.content.solo.schemes[x].id for x in s.shown] == ["scheme.4", "scheme.1"]
    assert t.content.solo.schemes[s.draw[-1]].id == "scheme.2"  # the first listed is the top
    assert [t.cards[c].id for c in s.cards] == ["land.3", "space.planet2"]
    assert all(c not in g.market and all(c not in d for d in g.decks) for c in s.cards)
    assert s.cells == (1 << 14) | (1 << 15) | (1 << 16) | (1 << 17)  # along the winding path
    assert ai.guild[0] == 3 and ai.supply == AI_SUPPLY + 2 - sum(ai.guild)
    assert game.scores()[1] == {"ai_cards": 5, "caravan": 3, "guilds": 6, "total": 14}
    assert game.decision()[0] == "turn" and game.current_player == 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"solo": {"track": 1}}, "solo: the solo AI's pieces need a solo game"),
        ({"config": SOLO, "solo": {"track": 8}}, "solo.track: an int 0..7"),
        ({"config": SOLO, "solo": {"comet": 11}}, "solo.comet: an int 0..10"),
        ({"config": SOLO, "solo": {"shown": ["scheme.9"]}}, "solo.shown: unknown scheme card"),
        ({"config": SOLO, "solo": {"shown": ["scheme.1", "scheme.2", "scheme.3", "scheme.4"]}}, "solo.shown: the AI rests once"),
        ({"config": SOLO, "solo": {"shown": ["scheme.1"], "draw": ["scheme.2"]}}, "solo.draw: the scheme cards not face up"),
        ({"config": SOLO, "solo": {"cards": ["capital.city"]}}, "solo.cards: capital.city is a capital card"),
        ({"config": SOLO, "solo": {"cards": ["land.3"]}, "market": {"land": ["land.3"]}}, "already placed by"),
        ({"config": SOLO, "solo": {"tiles": ["tile.nope"]}}, "solo.tiles: unknown tile design"),
        ({"config": SOLO, "solo": {"colour": 1}}, "solo: unknown key(s) ['colour']"),
        ({"config": SOLO, "players": [{}, {"silver": 3}]}, "players[1] (the solo AI): unknown key(s) ['silver']"),
        ({"config": SOLO, "current": 1, "turn": 1}, "current: a solo game's positions start on the human's turn"),
    ],
)
def test_solo_scenario_errors_name_the_key(spec, message):
    with pytest.raises(ScenarioError, match=None) as err:
        build_scenario(spec)
    assert message in str(err.value)
