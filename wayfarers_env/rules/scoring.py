"""End-game scoring (rulebook p.18) with a per-source breakdown, and the tie-break order.

Tides of Trade adds four sources ("Scoring", ToT l.276-297), reported only in its games: sets of
1 Observatory, 1 Library and 1 Trading Post; filled 2x2 squares of the caravans (covered cells
only: printed cells never count, TIDES-QUESTIONS 32); a full hourglass; the Red guild's majority
(won like the base guilds': strictly most, at least 1).
"""

from __future__ import annotations

from functools import lru_cache

from wayfarers_env.content.measures import PRIMARY_TAGS, TAGS
from wayfarers_env.rules.state import GameState
from wayfarers_env.rules.tables import COMET, T_COMET_MAJORITY
from wayfarers_env.vocabulary import BASE_GUILDS, RED

BASE_SOURCES = ("primary_tags", "unique_sets", "space_cards", "inspiration", "caravan", "guilds")
TIDES_SOURCES = ("secondary_sets", "caravan_squares", "hourglass", "red_guild")
SOLO_SOURCES = ("ai_cards",)  # the solo AI's: VP for the cards it acquired, by kind
SOURCES = BASE_SOURCES + TIDES_SOURCES + SOLO_SOURCES  # every source a game may report (0 where it has none)
SECONDARY = tuple(TAGS.index(t) for t in ("observatory", "library", "trading_post"))
PRIMARY = tuple(TAGS.index(t) for t in PRIMARY_TAGS)


def comet_majority(g: GameState) -> list[int]:
    """1 for the player with strictly more comet tags than each other player (rulebook p.9)."""
    comets = [p.counts[COMET] for p in g.players]
    out = []
    for k, c in enumerate(comets):
        out.append(int(all(c > o for j, o in enumerate(comets) if j != k)))
    return out


def leads_guild(g: GameState, seat: int, guild: int) -> bool:
    """``seat`` holds strictly more influence in ``guild`` than each other player, and some."""
    mine = g.players[seat].guild[guild]
    return mine > 0 and all(mine > q.guild[guild] for j, q in enumerate(g.players) if j != seat)


@lru_cache(maxsize=8)
def _squares(cols: int, rows: int) -> tuple[int, ...]:
    """The bits of each 2x2 square of a ``cols`` x ``rows`` grid (the observation recounts scores
    during play, so the squares are worked out once per grid)."""
    out = []
    for y in range(rows - 1):
        for x in range(cols - 1):
            bit = 1 << (y * cols + x)
            out.append(bit | bit << 1 | bit << cols | bit << (cols + 1))
    return tuple(out)


def filled_squares(cells: int, cols: int, rows: int) -> int:
    """2x2 squares of a ``cols`` x ``rows`` grid whose four cells are all set in ``cells``."""
    n = 0
    for square in _squares(cols, rows):
        if cells & square == square:
            n += 1
    return n


def _leads(players: list, seat: int, guild: int) -> bool:
    """``leads_guild`` over the player list (scoring asks it for every guild of every seat)."""
    mine = players[seat].guild[guild]
    if mine <= 0:
        return False
    for j, q in enumerate(players):
        if j != seat and q.guild[guild] >= mine:
            return False
    return True


def score_player(g: GameState, seat: int, majority: list[int] | None = None) -> dict[str, int]:
    """VP by source for one seat. Written as plain loops: the observation recounts a seat's score
    whenever its panorama or a counted resource moves, so this runs thousands of times a game."""
    if g.solo is not None and seat == 1:
        return score_ai(g)
    t = g.tables
    rules = t.content.player["scoring"]
    players = g.players
    p = players[seat]
    counts = p.counts
    terms = p.terms()
    terms[T_COMET_MAJORITY] = (majority or comet_majority(g))[seat]
    table = rules["primary"]
    primary = 0
    fewest = counts[PRIMARY[0]]
    for k in PRIMARY:
        c = counts[k]
        primary += table[c if c < 7 else 7]
        if c < fewest:
            fewest = c
    sets = rules["unique_set"] * fewest
    space = inspired = 0
    cards = t.cards
    inspired_on = p.inspired
    for card in (t.capital_star, *p.above.values()):
        vp = cards[card].vp
        assert vp is not None  # the star and every space card print a VP measure (checked at load)
        value = vp(terms)
        space += value
        insp = inspired_on.get(card)
        if insp is not None:
            goal = cards[insp].goal
            assert goal is not None  # an inspiration card always prints its goal (checked at load)
            if goal(terms):
                inspired += value
    caravan = 0
    designs = t.designs
    for d, _x, _y, _f in p.tiles:
        caravan += designs[d].vp
    tides = t.content.tides
    if tides is not None and p.worker_tiles:  # VP printed on worker tiles count with the caravan
        halves = tides.halves
        for pair in p.worker_tiles:
            for h in pair:
                if h >= 0:
                    caravan += halves[h].vp
    majority_vp = rules["guild_majority"]
    guilds = 0
    for k in range(len(BASE_GUILDS)):  # red: below
        if _leads(players, seat, k):
            guilds += majority_vp
    out = {
        "primary_tags": primary,
        "unique_sets": sets,
        "space_cards": space,
        "inspiration": inspired,
        "caravan": caravan,
        "guilds": guilds,
    }
    if tides is not None:
        points = tides.scoring
        out["secondary_sets"] = points["set"] * min(counts[SECONDARY[0]], counts[SECONDARY[1]], counts[SECONDARY[2]])
        # a worker tile fills both cells of its column: a square per two filled columns side by side
        worker_squares = 0
        filled_before = False
        for top, _bottom in p.worker_tiles:
            filled = top >= 0
            if filled and filled_before:
                worker_squares += 1
            filled_before = filled
        dice_squares = filled_squares(p.cells, t.cols, t.rows)
        out["caravan_squares"] = min(points["square"] * dice_squares, points["dice_squares_max"]) + min(
            points["square"] * worker_squares, points["worker_squares_max"]
        )
        out["hourglass"] = points["hourglass"] * p.hourglass
        out["red_guild"] = points["red_majority"] * _leads(players, seat, RED)
    total = 0
    for v in out.values():
        total += v
    out["total"] = total
    return out


def score_ai(g: GameState) -> dict[str, int]:
    """The solo AI (rulebook "End Game and Scoring", solo): VP per card it acquired by kind, its
    tiles' printed VP, guild majorities as a player's (the Red guild's too with Tides of Trade). It
    scores no tags and no comets; its comet track counts only against the human's comets."""
    t = g.tables
    solo = g.solo
    assert solo is not None
    vp, tides = t.content.solo.card_vp, t.content.tides
    worker_vp = sum(tides.halves[h].vp for pair in solo.worker_tiles for h in pair) if tides is not None else 0
    out = {
        "ai_cards": sum(vp[t.cards[c].kind] for c in solo.cards),
        "caravan": sum(t.designs[d].vp for d in solo.tiles) + worker_vp,
        "guilds": sum(t.content.player["scoring"]["guild_majority"] for k in range(len(BASE_GUILDS)) if leads_guild(g, 1, k)),
    }
    if tides is not None:
        out["red_guild"] = tides.scoring["red_majority"] * leads_guild(g, 1, RED)
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
