"""Why an option a player might expect is not offered, in the rules' words (issue 15: "a
vanished option is never explained").

The engine lists only legal actions; a person who knows the game looks for the one that is
missing (the die space that needs a ship, the journal space beyond a splotch, the tile that is sold
out). ``missing(game)`` names those of the current decision that the rules rule out, each with its
reason, checked in the order the rulebook gives them. Options nobody would look for (a slot of a
row the decision is not about) are not listed.
"""

from __future__ import annotations

import re

from wayfarers_env import Game
from wayfarers_env.content.effects import Atom, Choice, Cost
from wayfarers_env.content.measures import compile_measure
from wayfarers_env.rules import bag, dice, queries
from wayfarers_env.rules.actions import CATALOG
from wayfarers_env.rules.caravan import positions, prices
from wayfarers_env.rules.frames import EffectBag
from wayfarers_env.rules.influence import can_pay_fee
from wayfarers_env.rules.panorama import free_host_tags, has_space_host
from wayfarers_env.rules.payments import payable
from wayfarers_env.rules.state import SUPPLY
from wayfarers_env.vocabulary import ASSETS, ROWS, SPACE_ROW, TOWNSFOLK_ROW, WORKER_COLOURS

from . import describe as d
from .option_text import leaf_nodes

_AT_LEAST = re.compile(r"^(.*\S)\s*>=\s*(\d+)$")


def missing(game: Game) -> list[str]:
    """'what: why' for each option of the current decision that the rules do not offer now."""
    if game.is_over:
        return []
    kind, frame = game.decision()
    fn = _KINDS.get(kind)
    return fn(game, frame, set(game.legal_actions())) if fn is not None else []


def _me(game: Game):
    g = game.state
    return g, g.tables, g.players[g.current]


def _turn(game, frame, legal):
    g, t, p = _me(game)
    out = []
    supply = sorted({f for f, loc in zip(p.dice_face, p.dice_loc) if loc == SUPPLY})
    if not supply:
        out.append("place a die: none in your supply (rest to bring your dice back)")
    for f in supply:
        if CATALOG.DIE[f - 1] not in legal:
            out.append(f"place a die showing {f}: no empty die space of yours takes it, even along your caravan's arrows")
    for colour, name in enumerate(WORKER_COLOURS):
        if CATALOG.WORKER[colour] in legal:
            continue
        if p.workers[colour] == 0:
            out.append(f"place a {name} worker: none in your supply")
        else:
            out.append(f"place a {name} worker: no market card it may go on lets you do anything now")
    if CATALOG.YELLOW not in legal:
        why = "used this turn" if g.guild_used[1] else "no yellow influence" if not p.guild[1] else "no die in your supply"
        out.append(f"Trade guild: {why}")
    return out


def _space(game, frame, legal):
    g, t, p = _me(game)
    face = p.dice_face[frame.die]
    out = []
    for s in dice.owned_spaces(g, p) + [t.space_of_card[c] for c in p.acquired if c in t.space_of_card]:
        if CATALOG.SPACE[s] in legal:
            continue
        name = d.space_name(t, s)
        card = t.space_card[s]
        if card in p.acquired:
            out.append(f"{name}: acquired this turn; its die space works from your next turn")
        elif s in p.dice_loc:
            out.append(f"{name}: one of your dice is already on it")
        elif not dice.space_assets_ok(g, p, s, face, g.ship_hired):
            need = ", ".join(f"{n} {a}" for a, n in zip(ASSETS, t.space_need[s]) if n)
            if dice.ship_available(g, p) and dice.space_assets_ok(g, p, s, face, True):
                out.append(f"{name}: needs {need}; hire the Exploration guild's ship first")
            else:
                out.append(f"{name}: needs {need}; a die showing {face} brings {_column(p, face)}")
        elif (price := dice.space_price(g, p, s)) is not None and not payable(g, price):
            out.append(f"{name}: you cannot pay its influence cost")
        else:
            items, _ctx = queries.die_space_action(g, p, s, face)
            out.append(f"{name}: nothing of it can be done now ({d.items_words(items)})")
    return list(dict.fromkeys(out))


def _fits(t, p, design: int) -> bool:
    return bool(positions(t, p, design))


def _column(p, face: int) -> str:
    vec = p.col[face - 1]
    got = [f"{v} {ASSETS[k]}" for k, v in enumerate(vec[: len(ASSETS)]) if v]
    return ", ".join(got) or "no asset"


def measure_status(g, requires, terms) -> str:
    """A requirement with what the player has: 'needs at least 2 City tags (you have 1)'."""
    m = _AT_LEAST.match(requires.text.strip())
    have = f" (you have {compile_measure(m.group(1))(terms)})" if m else ""
    return f"needs {d.measure_words(requires)}{have}"


def _journal(game, frame, legal):
    g, t, p = _me(game)
    out = []
    terms = p.terms()
    for n in t.nodes[p.node].next:
        if CATALOG.JOURNAL[n] in legal or CATALOG.JOURNAL_HOURGLASS[n] in legal:
            continue
        node = t.nodes[n]
        link = t.link[(p.node, n)]
        side = g.sides[link.section - 1]
        requires, cost = link.requires[side], link.cost[side]
        if node.final and any(q.node == n for k, q in enumerate(g.players) if k != g.current):
            why = "another player's marker is already there"
        elif requires is not None and not requires(terms):
            why = measure_status(g, requires, terms)
        elif cost is not None:
            why = f"costs {d.effect_words(cost)}, which you cannot pay" + (" with the Science guild's black too" if frame.second else "")
        else:
            why = "not open to you now"
        out.append(f"journal to {d.node_name(node)}: {why}")
    return out


def _design(game, frame, legal):
    g, t, p = _me(game)
    out = []
    for k in t.designs_of_kind[frame.kind]:
        if CATALOG.DESIGN[k] in legal:
            continue
        name = d.design_name(t.designs[k])
        if g.tile_supply[k] <= 0:
            out.append(f"{name}: sold out")
        elif not _fits(t, p, k):
            out.append(f"{name}: does not fit anywhere in your caravan")
        else:
            out.append(f"{name}: you cannot pay {d.effect_words(t.content.tile_costs[t.designs[k].kind])}")
    return out


def _acquire(game, frame, legal):
    g, t, p = _me(game)
    out = []
    row = frame.row
    if row == SPACE_ROW and not has_space_host(p):
        return [f"every {ROWS[row]} card: none of your Land or Water cards is free of a Space card"]
    for slot in range(t.slots):
        if CATALOG.SLOT[slot] in legal:
            continue
        i = row * t.slots + slot
        card = g.market[i]
        where = f"{ROWS[row]} slot {slot + 1}"
        if card < 0:
            continue
        name = f"{t.cards[card].name} ({where})"
        price = queries.card_price(g, row, card, slot, frame.free, frame.discount)
        owner = queries.fee_owner(g, i)
        if g.market_placed[i]:
            out.append(f"{name}: a worker was placed on it this turn")
        elif price > p.silver:
            out.append(f"{name}: costs {price} silver, you have {p.silver}")
        elif owner >= 0 and p.silver - price < 1 and p.provisions < 1:
            out.append(f"{name}: you could not also pay player {owner}'s influence fee")
        elif row == TOWNSFOLK_ROW and not set(t.cards[card].hosts) & free_host_tags(g, p):
            hosts = " or ".join(d.tag_word(h) for h in t.cards[card].hosts)
            out.append(f"{name}: no {hosts} of yours is free to host it")
        else:
            out.append(f"{name}: not takeable now")
    if row in (1, 2) and frame.allow_draw and CATALOG.DRAW not in legal:
        why = "the deck is empty" if not g.decks[row] else "no provision to pay and no spare pigeon"
        out.append(f"draw 3 {ROWS[row]} cards: {why}")
    return out


def _worker(game, frame, legal):
    g, t, p = _me(game)
    out = []
    for row in CATALOG.worker_rows:
        if frame.colour not in t.row_workers[row]:
            continue
        for slot in range(t.slots):
            i = row * t.slots + slot
            if CATALOG.CARD[i] in legal or g.market[i] < 0:
                continue
            name = f"{t.cards[g.market[i]].name} ({ROWS[row]} slot {slot + 1})"
            if g.market_workers[i] >> frame.colour & 1:
                out.append(f"{name}: a {WORKER_COLOURS[frame.colour]} worker is already there")
            elif queries.fee_owner(g, i) >= 0 and not can_pay_fee(p):
                out.append(f"{name}: you cannot pay player {queries.fee_owner(g, i)}'s influence fee")
            else:
                out.append(f"{name}: nothing of its spot can be done now ({d.spot_words(t, row, slot)})")
    return out


def _effect(game, frame: EffectBag, legal):
    g, t, p = _me(game)
    leaves = {CATALOG.at[a] for a in legal if a in CATALOG.LEAF}
    out = []
    for item in frame.items:
        if isinstance(item, Atom) and item.mandatory:
            continue
        if leaf_nodes(item) & leaves:
            continue
        words = d.effect_words(item)
        if isinstance(item, Cost):
            out.append(f"{words}: you cannot pay {d.effect_words(item.cost)} and still gain something")
        elif isinstance(item, Atom):
            out.append(f"{words}: {atom_reason(g, item)}")
        elif isinstance(item, Choice):
            out.append(f"{words}: none of its options can be done now")
    return out


def atom_reason(g, a: Atom) -> str:
    """Why a part of an effect cannot be resolved, for the parts whose rules say."""
    t = g.tables
    p = g.players[g.current]
    if a.name == "tile":
        kind = a.arg(0)
        designs = [x.index for x in t.designs if x.kind == kind or kind == "any"]
        if not any(g.tile_supply[k] for k in designs):
            return f"the {kind} tiles are sold out"
        if not any(g.tile_supply[k] and _fits(t, p, k) for k in designs):
            return f"no {kind} tile left fits in your caravan"
        silver, guild, count = prices(t)[t.design_kind[designs[0]]]
        return f"you cannot pay its price ({silver} silver" + (f" or {count} influence" if guild >= 0 else "") + ")"
    if a.name in ("land_card", "water_card", "space_card", "townsfolk", "inspiration"):
        return "no face-up card of that row you can take (price, host or influence fee)"
    if a.name == "journal":
        return "no splotch after your journal space is open to you"
    if a.name == "retrieve_worker":
        return "no worker on the market that was placed before this turn"
    if a.name == "card_influence":
        return "no influence to place, or no market card free of influence"
    if a.name == "guild":
        return "no influence in your supply, in your guilds or on cards"
    if a.name == "move_influence":
        return "no influence in a guild to move"
    if a.name in ("refresh_die", "adjust_die"):
        return "no die it could change"
    if bag.can_atom(g, a, queries.BagContext(0)):
        return "not with this action"
    return "not possible now"


_KINDS = {
    "turn": _turn,
    "die_space": _space,
    "journal": _journal,
    "tile_design": _design,
    "acquire_card": _acquire,
    "worker_target": _worker,
    "effect": _effect,
}
