"""Tides of Trade: the hourglass tile ("Hourglass Tiles", ToT l.244-260; scoring l.295).

Readings of what the rulebook leaves open (TIDES-QUESTIONS 26-28, docs/ARCHITECTURE.md): the
"first and only movement" is that of one journal effect, so the Science guild's extra step can
never fill the hourglass (and no extra step follows a fill); a full hourglass eases any step.
"""

from __future__ import annotations

import pytest
from conftest import can, play, with_effect

from wayfarers_env import Game
from wayfarers_env.content.measures import TERM_INDEX
from wayfarers_env.rules.actions import CATALOG, action_id
from wayfarers_env.rules.save_check import SaveError
from wayfarers_env.vocabulary import BLACK, BLUE, YELLOW

TIDES = {"num_players": 2, "tides_of_trade": True}
OPEN_WATER = "water.19"  # tags: open water


def journal_from(node: str, sides: str = "aaa", **player) -> Game:
    """Player 0 at ``node`` with a journal effect to resolve (and the player's other fields)."""
    return with_effect({"config": TIDES, "sides": sides, "players": [{"node": node, **player}]}, "journal")


def test_an_empty_hourglass_fills_instead_of_a_move_the_player_could_make():
    """ToT l.252: "If players cannot advance forward when Journaling (or choose not), they may flip
    their empty Hourglass to its full side." No marker move, so no Science-guild step follows."""
    g = journal_from("journal.0.1", guild={"black": 1})
    play(g, ("do", "journal"))
    assert can(g, "journal_to", "journal.1.2") and can(g, "hourglass_fill")
    play(g, ("hourglass_fill",))
    p = g.state.players[0]
    assert p.hourglass and p.node == g.state.tables.content.node_by_id["journal.0.1"].index
    assert g.decision()[0] != "science_guild"


def test_a_journal_effect_with_no_move_still_fills_the_hourglass():
    """ToT l.252 "cannot advance": journal.1.1 side A needs 2 cities or a vista; a player with
    neither may still take the journal effect to fill the hourglass, and only that."""
    g = journal_from("journal.1.1")
    play(g, ("do", "journal"))
    assert g.legal_actions() == [CATALOG.HOURGLASS_FILL]


def test_the_base_game_has_no_hourglass():
    g = with_effect({"sides": "aaa", "players": [{"node": "journal.1.1"}]}, "journal")
    assert not can(g, "do", "journal")  # no move, and nothing else a journal effect could do
    g = with_effect({"sides": "aaa", "players": [{"node": "journal.0.1"}]}, "journal")
    play(g, ("do", "journal"))
    assert CATALOG.HOURGLASS_FILL not in g.legal_actions()


def test_the_science_guilds_extra_step_never_fills_the_hourglass():
    """ToT l.252: "They cannot flip their Hourglass if using the Black Guild to move an additional
    space." """
    g = journal_from("journal.0.1", guild={"black": 1}, water=[OPEN_WATER])
    play(g, ("do", "journal"), ("journal_to", "journal.1.2"), ("done",))
    assert g.decision()[0] == "science_guild"
    play(g, ("black_guild",))
    assert g.decision()[0] == "journal" and CATALOG.HOURGLASS_FILL not in g.legal_actions()


def test_a_full_hourglass_cannot_fill_again():
    g = journal_from("journal.0.1", hourglass=True)
    play(g, ("do", "journal"))
    assert CATALOG.HOURGLASS_FILL not in g.legal_actions()


def test_a_full_hourglass_lowers_a_printed_requirement_by_one():
    """ToT l.258: flip it back "to reduce the requirement on an ink splotch by 1 ... to either lower
    the printed number by 1". journal.1.1 -> 2.2 side A needs 1 vista: with none, only the
    hourglass opens it, and it is empty again afterwards."""
    g = journal_from("journal.1.1", hourglass=True)
    play(g, ("do", "journal"))
    assert not can(g, "journal_to", "journal.2.2") and can(g, "journal_hourglass", "journal.2.2")
    cities = g.state.players[0].terms()[TERM_INDEX["city"]]  # the player board's
    assert cities < 2 and can(g, "journal_hourglass", "journal.2.1") is (cities == 1)  # 2 cities, eased to 1
    play(g, ("journal_hourglass", "journal.2.2"))
    p = g.state.players[0]
    assert not p.hourglass and p.node == g.state.tables.content.node_by_id["journal.2.2"].index


def test_an_easy_splotch_is_not_offered_with_the_hourglass():
    """Turning the hourglass back for a requirement already met gains nothing: not offered."""
    g = journal_from("journal.1.2", hourglass=True, water=[OPEN_WATER])
    play(g, ("do", "journal"))
    assert can(g, "journal_to", "journal.2.2") and not can(g, "journal_hourglass", "journal.2.2")
    harbours = g.state.players[0].terms()[TERM_INDEX["harbour"]]  # the player board's
    assert harbours < 2 and can(g, "journal_hourglass", "journal.2.3") is (harbours == 1)  # 2 harbours, eased to 1


@pytest.mark.parametrize("black", [0, 1])
def test_a_full_hourglass_saves_one_influence_of_a_cost(black):
    """ToT l.258: "or to prevent spending 1 Influence in cases where Influence must be spent".
    journal.4.1 -> 5.1 side A spends 1 black: with the hourglass it costs nothing, which is
    worth taking even when the black could be paid."""
    g = journal_from("journal.4.1", hourglass=True, guild={"black": black})
    play(g, ("do", "journal"))
    assert can(g, "journal_to", "journal.5.1") is bool(black)
    play(g, ("journal_hourglass", "journal.5.1"))
    p = g.state.players[0]
    assert p.guild[BLACK] == black and not p.hourglass


def test_the_player_picks_which_colour_the_hourglass_saves_on_a_two_colour_splotch():
    """Side B of journal.4.1 -> 5.1 spends 1 blue and 1 yellow; the hourglass saves one of them."""
    g = journal_from("journal.4.1", sides="aba", hourglass=True, guild={"blue": 1, "yellow": 1})
    play(g, ("do", "journal"), ("journal_hourglass", "journal.5.1"))
    assert g.decision()[0] == "hourglass_saving"
    assert set(g.legal_actions()) == {action_id("hourglass_saves", "blue"), action_id("hourglass_saves", "yellow")}
    g = Game.from_dict(g.to_dict())  # the pending choice survives a save
    play(g, ("hourglass_saves", "blue"))
    p = g.state.players[0]
    assert (p.guild[BLUE], p.guild[YELLOW]) == (1, 0)


def test_with_one_colour_missing_the_hourglass_saves_that_one():
    g = journal_from("journal.4.1", sides="aba", hourglass=True, guild={"blue": 0, "yellow": 1})
    play(g, ("do", "journal"))
    assert not can(g, "journal_to", "journal.5.1")
    play(g, ("journal_hourglass", "journal.5.1"))
    p = g.state.players[0]
    assert g.decision()[0] != "hourglass_saving" and p.guild[YELLOW] == 0 and not p.hourglass


def test_a_saved_hourglass_choice_must_follow_a_two_colour_splotch():
    g = journal_from("journal.4.1", sides="aba", hourglass=True, guild={"blue": 1, "yellow": 1})
    play(g, ("do", "journal"), ("journal_hourglass", "journal.5.1"))
    d = g.to_dict()
    top = d["stack"][-1]
    top[1] = g.state.tables.content.node_by_id["journal.0.1"].index
    with pytest.raises(SaveError, match="two colours"):
        Game.from_dict(d)
