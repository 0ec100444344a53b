"""End-game scoring (rulebook p.18) with a per-source breakdown, and the tie-break order."""

from __future__ import annotations

from wayfarers_env.content.measures import PRIMARY_TAGS, TAGS
from wayfarers_env.rules.state import GameState
from wayfarers_env.rules.tables import COMET, T_COMET_MAJORITY
from wayfarers_env.vocabulary import BASE_GUILDS

SOURCES = ("primary_tags", "unique_sets", "space_cards", "inspiration", "caravan", "guilds")
PRIMARY = tuple(TAGS.index(t) for t in PRIMARY_TAGS)


def comet_majority(g: GameState) -> list[int]:
    """1 for the player with strictly more comet tags than each other player (rulebook p.9)."""
    comets = [p.counts[COMET] for p in g.players]
    out = []
    for k, c in enumerate(comets):
        out.append(int(all(c > o for j, o in enumerate(comets) if j != k)))
    return out


def score_player(g: GameState, seat: int, majority: list[int] | None = None) -> dict[str, int]:
    t = g.tables
    rules = t.content.player["scoring"]
    p = g.players[seat]
    terms = p.terms()
    terms[T_COMET_MAJORITY] = (majority or comet_majority(g))[seat]
    table = rules["primary"]
    primary = sum(table[min(p.counts[k], 7)] for k in PRIMARY)
    sets = rules["unique_set"] * min(p.counts[k] for k in PRIMARY)
    space = inspired = 0
    for card in [t.capital_star, *p.above.values()]:
        vp = t.cards[card].vp
        assert vp is not None  # the star and every space card print a VP measure (checked at load)
        value = vp(terms)
        space += value
        insp = p.inspired.get(card)
        if insp is not None:
            goal = t.cards[insp].goal
            assert goal is not None  # an inspiration card always prints its goal (checked at load)
            if goal(terms):
                inspired += value
    caravan = sum(t.designs[d].vp for d, _x, _y, _f in p.tiles)
    guilds = 0
    for k in range(len(BASE_GUILDS)):  # the red majority is the expansion's own (5 VP)
        mine = p.guild[k]
        if mine > 0 and all(mine > q.guild[k] for j, q in enumerate(g.players) if j != seat):
            guilds += rules["guild_majority"]
    out = {
        "primary_tags": primary,
        "unique_sets": sets,
        "space_cards": space,
        "inspiration": inspired,
        "caravan": caravan,
        "guilds": guilds,
    }
    out["total"] = sum(out.values())
    return out


def scores(g: GameState) -> list[dict[str, int]]:
    majority = comet_majority(g)
    return [score_player(g, seat, majority) for seat in range(g.n)]


def winners(g: GameState) -> list[int]:
    """Most VP; ties broken by black, then yellow, then blue (then red) influence; then shared."""
    totals = scores(g)
    keys = [(s["total"], *p.guild) for s, p in zip(totals, g.players)]
    best = max(keys)
    return [k for k, key in enumerate(keys) if key == best]
