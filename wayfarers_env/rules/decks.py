"""The five decks beside the market rows, and what each seat knows of their order.

A deck is a list with its top card last; ``GameState.known`` holds, per deck position, the
bitmask of seats that have seen that card (cards a player returned to the bottom after a draw 3,
or a discarded Inspiration card everybody saw). Determinization (``Game.determinize``) and the
observation's unseen pool read that knowledge.
"""

from __future__ import annotations

from wayfarers_env.rules.state import GameState


def draw(g: GameState, row: int, count: int) -> tuple[int, ...]:
    """Take up to ``count`` cards from the top of a deck."""
    deck, known = g.decks[row], g.known[row]
    out = []
    for _ in range(min(count, len(deck))):
        out.append(deck.pop())
        known.pop()
    return tuple(out)


def to_bottom(g: GameState, row: int, cards: tuple[int, ...], known_by: int) -> None:
    """cards[0] ends up lowest. ``known_by`` is a bitmask of the seats who saw them."""
    for card in reversed(cards):
        g.decks[row].insert(0, card)
        g.known[row].insert(0, known_by)
