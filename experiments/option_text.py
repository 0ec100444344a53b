"""Each option of a decision in the game's words, in the situation it is offered in, and its
short form for the log of a turn (``describe``); ``plain`` names any action without a situation.

One function per kind of decision reads the frame it answers: the die space with what the die
would do there (``queries.die_space_action``: the caravan's discounts and a tucked Townsfolk's
ability included), the card with its price and text, the journal space with its reward and its
splotch, the part of an effect with what it gives up when it is one side of an either/or. A kind
without one (a payment, the Trade guild's steps) reads well enough as its catalog label, ids named.
"""

from __future__ import annotations

from functools import lru_cache

from wayfarers_env import Game, describe_action
from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, flatten
from wayfarers_env.rules import bag, icons, queries
from wayfarers_env.rules.actions import CATALOG, MOVES
from wayfarers_env.rules.caravan import prices
from wayfarers_env.rules.frames import EffectBag
from wayfarers_env.vocabulary import COLUMN_ICONS, GUILDS, INSPIRATION_ROW, ROWS, WORKER_COLOURS

from . import describe as d

# ----------------------------------------------------------------------------- ids in plain words


@lru_cache(maxsize=1)
def _leaf_words() -> dict[str, str]:
    """The catalog's resolve-next leaves (``tile_basic``, ``pay_silver``) as the icon's words."""
    out = {}
    for ic in icons.ICONS.values():
        for leaf in ic.leaves:
            arg = leaf.removeprefix(f"{ic.keyed}_") if ic.keyed else None
            out[leaf] = d.atom_words(Atom(ic.name, 1, (arg,) if arg else ()))
        if ic.cost_leaf:
            out[ic.cost_leaf] = "pay " + ic.name.replace("spend_", "").replace("spend", "influence").replace("_", " ")
    return out


def plain(action: int) -> str:
    """The catalog label of an action with every id replaced by the name of what it names."""
    text = describe_action(action)
    if action in CATALOG.EMPLOY:
        return "employ " + text.split("(", 1)[1].rstrip(")")
    if action in CATALOG.LEAF:
        leaf = text.removeprefix("resolve next: ")
        return "resolve next: " + _leaf_words()[leaf]
    return d.plain_ids(text)


# ----------------------------------------------------------------------------- one option in words


def describe(game: Game, action: int) -> tuple[str, str]:
    """(the option in words, a short form for the turn's log) for a legal action of the current decision."""
    kind, frame = game.decision()
    fn = _KINDS.get(kind)
    if fn is not None:
        out = fn(game, frame, action)
        if out is not None:
            return out
    text = plain(action)
    return text, _short(kind, action, text)


def _short(kind: str, a: int, text: str) -> str:
    """The short form of an option described by its catalog label alone."""
    c = CATALOG
    if a in (c.DONE, c.SKIP) or kind in ("influence_source", "payment", "hourglass_saving", "card_influence_paid"):
        return ""
    if a in c.ADJUST:
        k = c.at[a]
        f, up = k // 2 + 1, k % 2 == 0
        return f"die {f} to {f + 1 if up else f - 1}"
    if a in c.REFRESH_SUPPLY or a in c.REROLL:
        return f"rerolled a {c.at[a] + 1}"
    abilities = {c.YELLOW: "Trade guild", c.SHIP: "hired a ship", c.BLACK: "Science guild"}
    abilities.update({c.INK_ASSETS: "Ink Well", c.INK_CAPTURE: "Ink Well", c.INK_RED: "Ink Well"})
    return abilities.get(a, text)


def _me(game: Game):
    g = game.state
    return g, g.tables, g.players[g.current]


def _column(p, face: int) -> str:
    vec = p.col[face - 1]
    return ", ".join(d.icon_words(COLUMN_ICONS[k]) + ("" if v == 1 else f" x{v}") for k, v in enumerate(vec) if v) or "nothing"


def _slot(t, i: int) -> str:
    return f"{ROWS[i // t.slots]} row, slot {i % t.slots + 1}"


def _turn(game, frame, a):
    g, t, p = _me(game)
    if a in CATALOG.DIE:
        f = CATALOG.at[a] + 1
        return f"place a die showing {f} (caravan column {f}: {_column(p, f)})", f"die {f}"
    if a in CATALOG.WORKER:
        colour = WORKER_COLOURS[CATALOG.at[a]]
        rows = [ROWS[r] for r in CATALOG.worker_rows if CATALOG.at[a] in t.row_workers[r]]
        return f"place a {colour} worker (on a {' or '.join(rows)} card, for its spot's action)", f"{colour} worker"
    if a == CATALOG.REST:
        supply = [p.dice_face[k] for k, loc in enumerate(p.dice_loc) if loc == queries.SUPPLY]
        text = "rest: all your placed dice come back and are rolled"
        if len(supply) <= 1:
            folk = [t.capital_townsfolk] + [p.tucked[h] for h in p.water if h in p.tucked and t.cards[p.tucked[h]].resting is not None]
            text += "; resting abilities: " + "; ".join(d.effect_words(t.cards[c].resting) for c in folk)
        else:
            text += f"; no resting abilities ({len(supply)} dice in supply); you may reroll those"
        return text, "rest"
    return None


def _chain(game, frame, a):
    _g, _t, p = _me(game)
    f = CATALOG.at[a] + 1
    return f"turn the die to {f} (caravan column {f}: {_column(p, f)})", f"turned to {f}"


def _space(game, frame, a):
    g, t, p = _me(game)
    if a not in CATALOG.SPACE:
        return None
    s = CATALOG.at[a]
    face = p.dice_face[frame.die]
    items, ctx = queries.die_space_action(g, p, s, face)
    text = f"{d.space_name(t, s)}: {d.items_words(items)}"
    if ctx.silver_discount:
        text += f" (the die's column takes {ctx.silver_discount} silver off)"
    return text, f"on {d.space_name(t, s)}"


def leaf_nodes(node: Effect) -> set[int]:
    """The leaves that name a part of an effect, legal now or not."""
    if isinstance(node, Atom):
        return set() if node.mandatory or not icons.ICONS[node.name].leaves else {bag.atom_leaf(node)}
    if isinstance(node, Cost):
        return {bag.cost_leaf(o) for o in (node.cost.options if isinstance(node.cost, Choice) else (node.cost,))}
    if isinstance(node, Choice):
        return set().union(*(leaf_nodes(o) for o in node.options))
    return set().union(*(leaf_nodes(x) for x in flatten(node)))


def _effect(game, frame: EffectBag, a):
    if a == CATALOG.DONE:
        return f"decline the rest: {d.items_words(frame.items)}", ""
    leaf = CATALOG.at[a]
    for item in frame.items:  # the engine takes a free-standing part before committing a choice (rules/bag.py)
        if isinstance(item, Atom) and not item.mandatory and leaf in leaf_nodes(item):
            words = d.effect_words(item)
            return words, words
    for item in frame.items:
        if isinstance(item, Cost):
            for opt in item.cost.options if isinstance(item.cost, Choice) else (item.cost,):
                if bag.cost_leaf(opt) == leaf:
                    words = f"pay {d.effect_words(opt)} to get {d.effect_words(item.gain)}"
                    return words, f"paid {d.effect_words(opt)}"
    for item in frame.items:
        if isinstance(item, Choice):
            for opt in item.options:
                if leaf in leaf_nodes(opt):
                    others = [d.effect_words(o) for o in item.options if o is not opt]
                    words = d.effect_words(opt)
                    return f"{words} (instead of {' or '.join(others)})", words
    return None


def _guild(game, frame, a):
    _g, _t, p = _me(game)
    k = CATALOG.at[a]
    return f"1 influence in {d.guild_words(GUILDS[k])}; you have {p.guild[k]} there", f"{GUILDS[k]} influence"


def _market_card(game, frame, a):
    g, t, _p = _me(game)
    if a not in CATALOG.CARD:
        return None
    i = CATALOG.at[a]
    name = t.cards[g.market[i]].name
    return f"{name} ({_slot(t, i)}): {d.card_words(t.cards[g.market[i]], with_name=False)}", f"influence on {name}"


def _source(game, frame, a):
    g, t, _p = _me(game)
    if a in CATALOG.CARD:
        i = CATALOG.at[a]
        return f"take back your influence from {t.cards[g.market[i]].name} ({_slot(t, i)})", "influence taken off a card"
    return None


def _move(game, frame, a):
    _g, _t, p = _me(game)
    src, dst = MOVES[CATALOG.at[a]]
    text = f"move 1 influence from {d.guild_words(GUILDS[src])} to {d.guild_words(GUILDS[dst])}; you have {p.guild[src]} and {p.guild[dst]}"
    return text, f"moved influence {GUILDS[src]} to {GUILDS[dst]}"


def _journal(game, frame, a):
    g, t, p = _me(game)
    if a in CATALOG.JOURNAL or a in CATALOG.JOURNAL_HOURGLASS:
        n = CATALOG.at[a]
        node = t.nodes[n]
        how = d.link_words(g, p.node, n)
        glass = ", turning the full hourglass back to ease it by 1" if a in CATALOG.JOURNAL_HOURGLASS else ""
        return f"journal to {d.node_name(node)}: {d.node_words(g, n)} (splotch: {how}{glass})", f"journal to {d.node_name(node)}"
    return None


def _refresh(game, frame, a):
    g, t, _p = _me(game)
    if a in CATALOG.REFRESH_PLACED:
        name = d.space_name(t, CATALOG.at[a])
        return f"take back the die on {name} and roll it into your supply", f"refreshed the die on {name}"
    return None


def _retrieve(game, frame, a):
    g, t, p = _me(game)
    if a in CATALOG.CAPTURE:
        k = CATALOG.at[a]
        seat, colour = (g.current + 1 + k // len(p.workers)) % g.n, WORKER_COLOURS[k % len(p.workers)]
        return f"capture a {colour} worker from player {seat}'s supply (pay them 1 silver or 1 provision)", f"captured a {colour} worker"
    if a not in CATALOG.RETRIEVE:
        return None
    i, colour = t.retrieve_of_action[CATALOG.at[a]]
    name = t.cards[g.market[i]].name
    owner = queries.fee_owner(g, i)
    fee = f"; pay player {owner} a fee of 1 silver or 1 provision" if owner >= 0 else ""
    return f"retrieve the {WORKER_COLOURS[colour]} worker from {name} ({_slot(t, i)}){fee}", f"retrieved a {WORKER_COLOURS[colour]} worker"


def _acquire(game, frame, a):
    g, t, p = _me(game)
    if a == CATALOG.DRAW:
        how = "free: the die has a spare pigeon" if frame.spare_pigeon else "pay 1 provision"
        return f"draw 3 {ROWS[frame.row]} cards instead and keep 1 ({how})", f"drew 3 {ROWS[frame.row]} cards"
    slot = CATALOG.at[a]
    i = frame.row * t.slots + slot
    card = g.market[i]
    price = queries.card_price(g, frame.row, card, slot, frame.free, frame.discount)
    owner = queries.fee_owner(g, i)
    bits = [f"{price} silver" if price else "free"]
    if owner >= 0:
        bits.append(f"a fee of 1 silver or 1 provision to player {owner}")
    name = t.cards[card].name
    return f"{d.card_words(t.cards[card])} — take it for {' and '.join(bits)}", f"took {name}" + (f" for {price} silver" if price else "")


def _fee(game, frame, a):
    what = "1 silver" if a == CATALOG.FEE[0] else "1 provision"
    return f"pay player {frame.owner}'s influence fee with {what}", f"paid player {frame.owner} {what}"


def _keep(game, frame, a):
    _g, t, _p = _me(game)
    card = frame.cards[CATALOG.at[a]]
    return f"keep {d.card_words(t.cards[card])}", f"kept {t.cards[card].name}"


def _order(game, frame, a):
    _g, t, _p = _me(game)
    first, second = (t.cards[c].name for c in frame.rest)
    if a == CATALOG.ORDER[1]:
        first, second = second, first
    return f"return the others to the bottom of the deck: {first} lowest, {second} above it", ""


def _host_name(ids: list[str], a: int) -> str:
    return d.id_names().get(ids[CATALOG.at[a]], ids[CATALOG.at[a]])


def _tuck(game, frame, a):
    _g, t, _p = _me(game)
    if a == CATALOG.MARKET:
        return None
    host = _host_name(CATALOG.host_ids, a)
    return f"tuck {t.cards[frame.card].name} under {host}", f"{t.cards[frame.card].name} under {host}"


def _above(game, frame, a):
    _g, t, _p = _me(game)
    host = _host_name(CATALOG.above_ids, a)
    return f"place {t.cards[frame.card].name} above {host}", f"{t.cards[frame.card].name} above {host}"


def _inspire(game, frame, a):
    _g, t, _p = _me(game)
    card = t.cards[frame.card]
    if a == CATALOG.DISCARD:
        spot = d.spot_words(t, INSPIRATION_ROW, frame.slot)
        return f"discard {card.name} for the worker spot's action instead: {spot}", f"discarded {card.name} for {spot}"
    target = _host_name(CATALOG.space_card_ids, a)
    return f"tuck {card.name} above {target} (goal: {d.measure_words(card.goal)}: then it scores double)", f"{card.name} above {target}"


def _design(game, frame, a):
    g, t, _p = _me(game)
    k = CATALOG.at[a]
    design = t.designs[k]
    text = d.design_words(design, t.content.tile_costs[design.kind]) + f" ({g.tile_supply[k]} left)"
    if frame.free and design.kind != "special":
        text += "; free this time"
    elif frame.discount:
        text += f"; the die's column takes {frame.discount} silver off"
    return text, d.design_name(design)


def _tile_price(game, frame, a):
    _g, t, _p = _me(game)
    kind = t.design_kind[frame.design]
    silver, guild, count = prices(t)[kind]
    if a == CATALOG.TILE_PAY[0]:
        n = max(0, silver - frame.discount)
        return f"pay {n} silver for {d.design_name(t.designs[frame.design])}", f"paid {n} silver"
    return f"pay {count} {GUILDS[guild]} influence for {d.design_name(t.designs[frame.design])}", f"paid {count} {GUILDS[guild]} influence"


def _tile_at(game, frame, a):
    _g, t, p = _me(game)
    k = CATALOG.at[a]
    flipped, cell = k % 2, k // 2
    y, x = divmod(cell, t.cols)
    design = t.designs[frame.design]
    cols = f"column {x + 1}" if design.width == 1 else f"columns {x + 1}-{x + design.width}"
    rows = f"row {y + 1}" if design.height == 1 else f"rows {y + 1}-{y + design.height}"
    bonus = t.board_bonus[p.board]
    covered = [
        d.effect_words(bonus[(y + dy) * t.cols + x + dx])
        for dy in range(design.height)
        for dx in range(design.width)
        if (y + dy) * t.cols + x + dx in bonus
    ]
    text = f"{rows}, {cols}" + (f", flipped ({d.face_words(design.faces[1])})" if flipped else "")
    text += f"; covers {', '.join(covered)}" if covered else "; covers no bonus"
    return text, f"placed at {rows}, {cols}"


def _reroll(game, frame, a):
    if a == CATALOG.SKIP:
        return "keep the other dice as they are", ""
    return None


def _worker(game, frame, a):
    g, t, p = _me(game)
    i = CATALOG.at[a]
    name = t.cards[g.market[i]].name
    items = t.spot_items[i // t.slots][i % t.slots] + (queries.worker_tile_effects(g, p, frame.colour) if p.worker_tiles else ())
    owner = queries.fee_owner(g, i)
    fee = f"; first pay player {owner} a fee of 1 silver or 1 provision" if owner >= 0 else ""
    return f"{name} ({_slot(t, i)}): {d.items_words(items)}{fee}", f"on {name}"


def _trader(game, frame, a):
    g, _t, _p = _me(game)
    k = CATALOG.at[a]
    return "employ " + d.trader_words(g, k), f"employed {g.tables.content.tides.traders[k].name}"


def _worker_tile_price(game, frame, a):
    _g, t, _p = _me(game)
    price = t.content.tides.worker_tile_price
    opts = price.options if isinstance(price, Choice) else (price,)
    k = CATALOG.TILE_PAY.index(a)
    if k < len(opts):
        words = d.effect_words(opts[k])
        return f"pay {words} for the worker tile", f"paid {words}"
    return None


def _pair(game, frame, a):
    g, t, _p = _me(game)
    k = CATALOG.at[a]
    top, bottom = queries.worker_halves(g, k)
    return f"stack {k + 1}: top {d.half_words(t, top)}; bottom {d.half_words(t, bottom)}", f"worker tiles of stack {k + 1}"


def _paid_card(game, frame, a):
    g, t, _p = _me(game)
    if a == CATALOG.INK_WELL:
        return "remove your influence from the Ink Well", ""
    if a in CATALOG.CARD:
        i = CATALOG.at[a]
        return f"remove your influence from {t.cards[g.market[i]].name} ({_slot(t, i)})", "card influence spent"
    return None


_KINDS = {
    "turn": _turn,
    "caravan_chain": _chain,
    "die_space": _space,
    "effect": _effect,
    "choose_guild": _guild,
    "influence_source": _source,
    "card_influence": _market_card,
    "move_influence": _move,
    "journal": _journal,
    "refresh_die": _refresh,
    "retrieve_worker": _retrieve,
    "capture_worker": _retrieve,
    "acquire_card": _acquire,
    "influence_fee": _fee,
    "draw_keep": _keep,
    "draw_order": _order,
    "tuck_townsfolk": _tuck,
    "place_space_card": _above,
    "place_inspiration": _inspire,
    "tile_design": _design,
    "tile_price": _tile_price,
    "tile_position": _tile_at,
    "rest_reroll": _reroll,
    "worker_target": _worker,
    "employ_trader": _trader,
    "worker_tile_price": _worker_tile_price,
    "worker_pair": _pair,
    "card_influence_paid": _paid_card,
}
