"""How the solo AI chooses (rulebook "AI Prioritising"; RULES-FACTS §15.3-15.10): pure functions of
the table that rank what the AI may take, so its turn (rules/solo.py) only walks the ranking.

Three ideas cover every choice:
- the **colour priority** of the space its marker stands on (solo.toml's resource track), tried
  clockwise when a colour gives nothing;
- the **sum value** of the two most recent face-up scheme cards, which names the preferred position
  counted from the centre of the main board, and the arrow that moves outward (1, 2) or inward (3, 4)
  from it, wrapping;
- the **colour majority** of the face-up scheme cards, for the journal's upper or lower path.
"""

from __future__ import annotations

from wayfarers_env.rules.state import GameState
from wayfarers_env.vocabulary import GREEN_WORKER, GUILD_INDEX, ROW_INDEX, WORKER_INDEX

# what each track colour stands for (RULES-FACTS §15.3): its card row, its tile kind, its guild
COLOUR_ROW = {"black": ROW_INDEX["space"], "blue": ROW_INDEX["water"], "yellow": ROW_INDEX["land"], "green": ROW_INDEX["townsfolk"]}
COLOUR_TILE = {"black": "space", "blue": "water", "yellow": "land", "green": "basic"}
COLOUR_GUILD = {"black": GUILD_INDEX["black"], "blue": GUILD_INDEX["blue"], "yellow": GUILD_INDEX["yellow"]}  # green has none
# the AI's workers go only here (rulebook: green on Townsfolk, yellow on Land, blue on Water)
WORKER_ROW = {
    WORKER_INDEX["green"]: ROW_INDEX["townsfolk"],
    WORKER_INDEX["yellow"]: ROW_INDEX["land"],
    WORKER_INDEX["blue"]: ROW_INDEX["water"],
}


def colours(g: GameState) -> tuple[str, ...]:
    """The colour priority of the marker's space, first colour first, then clockwise."""
    solo = g.solo
    assert solo is not None
    return g.tables.content.solo.track[solo.track][0]


def sum_value(g: GameState) -> int:
    """Silver values of the two most recent face-up scheme cards (one if only one): 1-4, 0 counts as 1."""
    solo = g.solo
    assert solo is not None
    schemes = g.tables.content.solo.schemes
    total = sum(schemes[s].silver for s in solo.shown[-2:])
    return min(max(total, 1), 4)


def centre_out(preferred: int, count: int) -> list[int]:
    """Positions 1..count (1 = centre-most) in the order the AI tries them: from ``preferred``,
    outward for 1 and 2, inward for 3 and 4, wrapping. A preferred position beyond ``count`` (a sum
    of 4 over three piles) starts at the missing position and moves inward from it."""
    span = max(count, preferred)
    step = 1 if preferred <= 2 else -1
    order = [(preferred - 1 + k * step) % span + 1 for k in range(span)]
    return [pos for pos in order if pos <= count]


def slot_order(g: GameState, count: int) -> list[int]:
    """Slot indexes 0..count-1 (0 = centre-most) in the AI's order for this sum value."""
    return [pos - 1 for pos in centre_out(sum_value(g), count)]


def inspiration_order(g: GameState) -> list[int]:
    """Inspiration slot indexes in the AI's order: the card at the track row's depth counted from
    the top of the column (slot index slots-1 is the top, 0 the bottom), then the next lower one,
    wrapping back up to the highest (rulebook; RULES-FACTS §15.4 [RB] reading, top card included)."""
    solo = g.solo
    assert solo is not None
    slots = g.tables.slots
    depth = g.tables.content.solo.track[solo.track][1]
    start = slots - depth
    return [(start - k) % slots for k in range(slots)]


def pink_order(g: GameState) -> list[int]:
    """Special tile designs in the AI's order: from the most recent scheme card's reference, clockwise
    (solo_order + 1, wrapping), with a tile declared ``solo_after`` another visited right after it."""
    solo = g.solo
    assert solo is not None
    designs = g.tables.designs
    ring: list[int] = []
    for d in sorted((d for d in designs if d.solo_order and not d.solo_after), key=lambda d: d.solo_order):
        ring.append(d.index)
        ring += [x.index for x in designs if x.solo_after == d.solo_order]
    schemes = g.tables.content.solo.schemes
    start_order = next((schemes[s].special_tile for s in reversed(solo.shown) if schemes[s].special_tile), 1)
    start = next(k for k, d in enumerate(ring) if designs[d].solo_order == start_order)
    return ring[start:] + ring[:start]


def majority_colour(g: GameState) -> str:
    """'blue' (upper path) or 'red' (lower path): the majority of the face-up scheme cards, a tie
    going to the most recent coloured card (Tides of Trade's scheme card has no colour)."""
    solo = g.solo
    assert solo is not None
    schemes = g.tables.content.solo.schemes
    shown = [schemes[s].colour for s in solo.shown if schemes[s].colour != "none"]
    blue, red = shown.count("blue"), shown.count("red")
    if blue != red:
        return "blue" if blue > red else "red"
    return shown[-1] if shown else "blue"


def height(g: GameState, node: int) -> float:
    """How high a journal node sits in its column, 0 (top) to 1: columns hold 2 or 3 nodes, centred,
    so 'upper' compares nodes of different columns by this, not by their row numbers."""
    nodes = g.tables.nodes
    column = nodes[node].column
    count = sum(1 for n in nodes if n.column == column)
    return (nodes[node].row - 0.5) / count


def journal_target(g: GameState, options: list[int]) -> int:
    """The node the AI journals to from ``options`` (its node's exits): the upper one on a blue
    majority, the lower on red; into the final column never the middle one, the other end if the
    preferred one is taken, the middle only if both ends are."""
    nodes = g.tables.nodes
    upper = majority_colour(g) == "blue"
    ranked = sorted(options, key=lambda n: height(g, n), reverse=not upper)
    if all(nodes[n].final for n in options):
        human = {p.node for k, p in enumerate(g.players) if k != g.current}
        ends = [n for n in (ranked[0], ranked[-1]) if n not in human]
        middle = [n for n in ranked[1:-1] if n not in human]
        return (ends or middle or ranked)[0]
    return ranked[0]


def retrieval_order(g: GameState, candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(market index, colour) of retrievable workers in the AI's order: green first, then the
    colour priority over blue and yellow; among one colour, the sum value's order over the slot
    numbers of their cards (rows in board order for the same slot number)."""
    slots = g.tables.slots
    worker_colours = [GREEN_WORKER] + [WORKER_INDEX[c] for c in colours(g) if c in ("blue", "yellow")]
    order = slot_order(g, slots)
    out = []
    for colour in worker_colours:
        mine = [c for c in candidates if c[1] == colour]
        for slot in order:
            out += sorted((c for c in mine if c[0] % slots == slot), key=lambda c: c[0])
    return out
