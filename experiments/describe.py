"""The game's content in the game's words, for people: effects, counts, cards, tiles, journal
spaces, die spaces and worker spots, each written from the content data.

A person at the table should never need the data files (issue 15): ``land.9`` is "Observatory
City 9", ``space_card, guild(blue)`` is "a Space card and 1 blue influence", ``city >= 2`` is
"at least 2 City tags". Nothing here is written per card: effects are worded once per icon of
the effect grammar (``ATOM_WORDS``, one entry for every icon the rules declare; a test holds them
together), counts once per count name, and every card, tile or space is put together from its
fields. Terminal play, replay and the web viewer share these words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, Repeat, Seq, atoms
from wayfarers_env.content.loader import load_content
from wayfarers_env.content.measures import Measure, _Parser
from wayfarers_env.rules.actions import CATALOG, EXTENSION_SPACE
from wayfarers_env.vocabulary import ASSETS, CONTENT_OPTIONS, EXPANSIONS, LINK_ROWS, ROWS, TAGS

GUILD_NAMES = {"black": "Science", "yellow": "Trade", "blue": "Exploration", "red": "Red"}  # the rulebook's names of the abilities


def tag_word(tag: str) -> str:
    """A printed tag as the rulebook capitalises it: open_water -> Open Water."""
    return tag.replace("_", " ").title()


def kind_word(kind: str) -> str:
    return kind.replace("_", " ").title()


def _n(count: int, one: str, many: str) -> str:
    return one if count == 1 else many.format(n=count)


def _times(phrase: str, count: int) -> str:
    return phrase if count == 1 else f"{phrase}, twice" if count == 2 else f"{phrase}, {count} times"


def _tile(a: Atom, n: int) -> str:
    kind, how = a.arg(0), a.arg(1)
    what = "upgrade tile of any kind" if kind == "any" else f"{kind_word(kind or '')} tile"
    if how == "free":
        what = "free " + what
    phrase = _n(n, f"a {what}", f"{{n}} {what}s")
    return phrase + (" for 3 silver less" if how == "discount3" else "")


def _space_card(a: Atom, n: int) -> str:
    less = {"discount": " for 1 silver less", "discount3": " for 3 silver less"}.get(a.arg(0) or "", "")
    return _n(n, "a Space card", "{n} Space cards") + less


def _guild(a: Atom, n: int) -> str:
    colour = a.arg(0)
    return f"{n} influence in any guild" if colour == "any" else f"{n} {colour} influence"


# One entry per icon of the effect grammar: its words for ``n`` of it (an amount or a repeat).
ATOM_WORDS: dict[str, Callable[[Atom, int], str]] = {
    "silver": lambda a, n: f"{n} silver",
    "provisions": lambda a, n: _n(n, "1 provision", "{n} provisions"),
    "guild": _guild,
    "card_influence": lambda a, n: _n(n, "1 influence on a market card", "{n} influence on market cards"),
    "move_influence": lambda a, n: _times("move 1 influence to another guild", n),
    "spend_card_influence": lambda a, n: _n(n, "1 card influence", "{n} card influence"),
    "spend": lambda a, n: f"{n} {a.arg(0)} influence",
    "journal": lambda a, n: _n(n, "1 journal step", "{n} journal steps"),
    "journal_tile": lambda a, n: "the journal tile here",
    "green_worker": lambda a, n: "this column's green worker",
    "new_die": lambda a, n: _n(n, "a new die", "{n} new dice"),
    "refresh_die": lambda a, n: _n(n, "refresh a die", "refresh {n} dice"),
    "adjust_die": lambda a, n: _times("change a die by 1", n),
    "capture_worker": lambda a, n: _times("capture a worker", n),
    "retrieve_worker": lambda a, n: _n(n, "retrieve a worker", "retrieve {n} workers"),
    "land_card": lambda a, n: _n(n, "a Land card", "{n} Land cards"),
    "water_card": lambda a, n: _n(n, "a Water card", "{n} Water cards"),
    "space_card": _space_card,
    "townsfolk": lambda a, n: _n(n, "a Townsfolk", "{n} Townsfolk") + (" for free" if a.arg(0) == "free" else ""),
    "inspiration": lambda a, n: _n(n, "an Inspiration card", "{n} Inspiration cards"),
    "draw_three": lambda a, n: _times(f"draw 3 {kind_word(a.arg(0) or '')} cards and keep 1", n),
    "tile": _tile,
    "trader": lambda a, n: _times("employ a trader", n),
    "worker_tile": lambda a, n: _n(n, "a worker upgrade tile", "{n} worker upgrade tiles"),
    "ai_focus": lambda a, n: _times("the AI board's focus action", n),
    "ai_worker": lambda a, n: "the AI places a " + " (else a ".join(a.args) + ")" * (len(a.args) - 1) + " worker",
    "ai_card": lambda a, n: f"the AI takes {_n(n, 'a', '{n}')} {kind_word(a.arg(0) or '')} card" + ("s" if n > 1 else ""),
    "ai_tile": lambda a, n: "the AI takes " + _n(n, _a(_ai_tile(a)), f"{{n}} {_ai_tile(a)}s"),
    "ai_card_influence": lambda a, n: _times("the AI places influence on a card", n),
    "ai_comet": lambda a, n: _times("the AI's comet marker moves up", n),
    "ai_retrieve_worker": lambda a, n: _times("the AI retrieves a worker", n),
}


def _ai_tile(a: Atom) -> str:
    kind = a.arg(0) or "any"
    return {"any": "upgrade tile of any kind", "worker": "worker upgrade tile"}.get(kind, f"{kind_word(kind)} tile")


def atom_words(a: Atom, times: int = 1) -> str:
    return ATOM_WORDS[a.name](a, a.amount * times)


def effect_words(node: Effect | None) -> str:
    """An effect tree in words: parts joined by 'and', options by 'OR', a cost as 'pay X to get Y'."""
    if node is None:
        return "nothing"
    return _words(node, top=True)


def _words(node: Effect, top: bool = False) -> str:
    if isinstance(node, Atom):
        return atom_words(node)
    if isinstance(node, Repeat):
        if isinstance(node.body, Atom):
            return atom_words(node.body, node.count)
        return _times(f"({_words(node.body)})", node.count)
    if isinstance(node, Seq):
        parts = [_words(p) if isinstance(p, (Atom, Repeat)) else f"({_words(p)})" for p in node.parts]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    if isinstance(node, Choice):
        text = " OR ".join(_words(o) if isinstance(o, (Atom, Repeat)) else f"({_words(o)})" for o in node.options)
        return text
    if isinstance(node, Cost):
        text = f"pay {_words(node.cost)} to get {_words(node.gain)}"
        return text if top else f"({text})"
    raise TypeError(f"not an effect node: {node!r}")


def items_words(items) -> str:
    """The parts of an effect bag, as a list a person reads: '2 provisions; a Townsfolk OR 2 silver'."""
    return "; ".join(effect_words(item) for item in items) or "nothing"


# ------------------------------------------------------------------------------ counts


def term_words(term: str) -> str:
    """A count name of the counting expressions in words (land_tiles -> land tiles)."""
    if term in TAGS:
        return f"{tag_word(term)} tags"
    if term == "comet_majority":
        return "the most Comet tags"
    if term.endswith("_influence"):
        return f"{term.removesuffix('_influence')} influence"
    if term == "tiles":
        return "upgrade tiles"
    if term.endswith("_cards"):
        return f"{kind_word(term.removesuffix('_cards'))} cards"
    if term.endswith("_tiles"):
        return f"{kind_word(term.removesuffix('_tiles'))} tiles"
    return term.replace("_", " ")


_CMP_WORDS = {">=": "at least", ">": "more than", "<=": "at most", "<": "fewer than", "==": "exactly"}


class _Words(_Parser):
    """The counting grammar's parser (content/measures.py), building words instead of Python."""

    def expr(self) -> str:
        value = self.cmp()
        if self.peek() == "if":
            self.take()
            start = self.i
            cond = self.cmp()
            if self.i == start + 1:  # a bare count: 'if moon' holds when there is one
                cond = f"you have {cond}"
            self.take("else")
            return f"{value} if {cond}, else {self.expr()}"
        return value

    def cmp(self) -> str:
        start = self.i
        left = self.sum()
        if self.peek() in _CMP_WORDS:
            op = self.take()
            right = self.sum()
            if self.i - start == 3 and right.isdigit():  # 'city >= 2': at least 2 City tags
                return f"{_CMP_WORDS[op]} {right} {left.removesuffix('s') if right == '1' else left}"
            return f"{left} is {_CMP_WORDS[op]} {right}"
        return left

    def sum(self) -> str:
        out = self.prod()
        while self.peek() in ("+", "-"):
            op = self.take()
            out = f"{out} {op} {self.prod()}"
        return out

    def prod(self) -> str:
        out = self.unary()
        while self.peek() in ("*", "//"):
            op = self.take()
            right = self.unary()
            out = f"{out} × {right}" if op == "*" else f"1 per {right} {out}"
        return out

    def unary(self) -> str:
        tok = self.take()
        if tok.isdigit():
            return tok
        if tok == "(":
            inner = self.expr()
            self.take(")")
            return f"({inner})"
        if tok in ("min", "max"):
            args = self.arguments()
            return f"the {'fewest' if tok == 'min' else 'most'} of {', '.join(args[:-1])} and {args[-1]}"
        return term_words(tok)


def measure_words(measure: Measure | str) -> str:
    """A counting expression in words: 'city >= 2' -> 'at least 2 City tags'."""
    text = measure.text if isinstance(measure, Measure) else measure
    return _Words(text).expr()


def vp_words(measure: Measure) -> str:
    """A Space card's VP: a bare count is 1 VP per item."""
    words = measure_words(measure)
    if measure.text.strip() in measure.terms:
        return f"1 VP per {words.removesuffix('s')}"
    return f"{words} VP" if words.isdigit() else f"VP = {words}"


# ------------------------------------------------------------------------------ cards


def card_name(t, index: int) -> str:
    return t.cards[index].name


def _requires(requires: tuple[str, ...]) -> str:
    if not requires:
        return "any die"
    counts = [(a, requires.count(a)) for a in ASSETS if a in requires]
    return "a die with " + " and ".join(f"{n} {a}s" if n > 1 else f"a {a}" for a, n in counts)


def die_space_words(space) -> str:
    """A die space: what the die needs and what it does (Tides of Trade: the influence it costs)."""
    text = f"die space ({_requires(space.requires)}): {effect_words(space.action)}"
    if space.influence:
        text = f"die space (any die, first pay {' and '.join(f'1 {g} influence' for g in space.influence)}): {effect_words(space.action)}"
    return text


def links_words(card) -> str:
    """A Water card's connection links: what it takes from the Water card on its left, what it offers the next."""
    bits = []
    takes = [LINK_ROWS[r].replace("_", " ") for r, bolt in enumerate(card.links_left) if bolt]
    if takes:
        bits.append("takes from the Water card on its left: " + ", ".join(takes))
    offers = [effect_words(x) for x in card.links_right if x is not None]
    if offers:
        bits.append("offers the next Water card: " + ", ".join(offers))
    return "; ".join(bits)


def trigger_words(name: str) -> str:
    """What sets a Vista off: a tag, a Townsfolk or an upgrade tile."""
    return f"{_a(tag_word(name))} tag" if name in TAGS else "an upgrade tile" if name == "tile" else _a(kind_word(name))


def card_words(card, with_name: bool = True) -> str:
    """Everything printed on a card, in words (its name first unless ``with_name`` is False)."""
    kind = "Capital" if card.kind == "capital" else kind_word(card.kind)
    tags = ", ".join(tag_word(x) for x in card.tags)
    bits = [f"{kind}" + (f" [{tags}]" if tags else "")]
    if card.kind == "townsfolk":
        hosts = "your board's Market (Tides of Trade)" if card.is_overseer else " or ".join(_a(tag_word(h)) for h in card.hosts)
        bits.append(f"costs {card.cost} silver, goes under {hosts}")
    if card.gives:
        bits.append("dice placed on its host count " + " and ".join(f"a {x}" for x in card.gives) + " more")
    if card.gives_influence:
        bits.append("pays its host's influence cost: " + ", ".join(f"1 {g}" for g in card.gives_influence))
    if card.ability is not None:
        bits.append("with its host's action: " + effect_words(card.ability))
    if card.resting is not None:
        bits.append("when resting: " + effect_words(card.resting))
    if card.dismiss is not None:
        bits.append("dismissed instead: " + effect_words(card.dismiss))
    if card.immediate is not None:
        bits.append("when gained: " + effect_words(card.immediate))
    if card.die_space is not None:
        bits.append(die_space_words(card.die_space))
    if card.trigger is not None:
        bits.append(f"each time you gain {' or '.join(trigger_words(x) for x in card.trigger_on)}: {effect_words(card.trigger)}")
    links = links_words(card)
    if links:
        bits.append(links)
    if card.vp is not None:
        bits.append(vp_words(card.vp))
    if card.goal is not None:
        bits.append(f"goal: {measure_words(card.goal)} (then the Space card below scores double)")
    body = "; ".join(bits)
    return f"{card.name}: {body}" if with_name else body


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


# ------------------------------------------------------------------------------ tiles

ICON_WORDS = {
    "up": "die +1",
    "down": "die -1",
    "up_down": "die +1 or -1",
    "silver_discount": "1 silver off",
    "provision_discount": "1 provision off",
}


def icon_words(icon: str) -> str:
    """A caravan icon (assets, arrows, discounts) in words."""
    return ICON_WORDS.get(icon, icon)


def design_name(design) -> str:
    """'Land tile 1', 'special tile (Two Comets)': the kind and the number or tag the id carries."""
    rest = design.id.removeprefix("tile.")
    if design.kind == "special":
        return f"special tile ({tag_word(rest.removeprefix('special.'))})"
    number = rest.removeprefix(design.kind)
    return f"{kind_word(design.kind)} tile {number}"


def face_words(face) -> str:
    return " | ".join(", ".join(icon_words(i) for i in col) or "-" for col in face)


def design_words(design, price: Effect | None = None) -> str:
    """A tile design: its size, the icons of each column it covers, its tags, VP and price."""
    bits = [f"{design.width}x{design.height}"]
    if any(col for face in design.faces for col in face):
        bits.append(
            "columns " + face_words(design.faces[0]) + (f" (flipped: {face_words(design.faces[1])})" if len(design.faces) > 1 else "")
        )
    if design.tags:
        bits.append("tags " + ", ".join(tag_word(x) for x in design.tags))
    bits.append(f"{design.vp} VP")
    if design.kind != "special":
        bits.append("costs " + (effect_words(price) if price is not None else "nothing"))
    return f"{design_name(design)}: " + ", ".join(bits)


# ------------------------------------------------------------------------------ journal


def node_name(node) -> str:
    """A journal space by its place on the track: 'column 5, row 1' (the final ones say so)."""
    return f"final space {node.row}" if node.final else f"column {node.column}, row {node.row}"


def node_words(g, index: int) -> str:
    """What entering a journal space gives, with the journal tile lying there and whether the
    column's green worker is still there."""
    t = g.tables
    node = t.nodes[index]
    if node.effect is None:
        return "the start"
    words = effect_words(node.effect)
    tile = g.node_tile[index]
    if "journal_tile" in {a.name for a in atoms(node.effect)}:
        lying = effect_words(t.content.journal_tiles[tile][1]) if tile >= 0 else "taken"
        words = words.replace("the journal tile here", f"the journal tile here ({lying})")
    if node.column in t.green_columns:
        left = g.green[t.green_columns.index(node.column)]
        words = words.replace("this column's green worker", "this column's green worker" + ("" if left else " (gone)"))
    return words + (" — ends the game" if node.final else "")


def link_words(g, source: int, target: int) -> str:
    """The ink splotch between two journal spaces, on this game's board side: what it requires or costs."""
    t = g.tables
    link = t.link[(source, target)]
    side = g.sides[link.section - 1]
    requires, cost = link.requires[side], link.cost[side]
    if requires is not None:
        return "needs " + measure_words(requires)
    if cost is not None:
        return "costs " + effect_words(cost)
    return "free"


# ------------------------------------------------------------------------------ die spaces and spots


def space_name(t, s: int) -> str:
    """A die space by the card or the capital space that prints it."""
    sid = CATALOG.space_ids[s]
    card = t.space_card[s] if s < len(t.space_card) else -2
    if card >= 0:
        return t.cards[card].name
    if sid == EXTENSION_SPACE:
        return "board extension"
    centre = {c.id: c.name for c in t.content.capital.centre}
    if sid in centre:
        return f"{centre[sid]} (capital)"
    if sid in t.content.by_id:
        return t.content.by_id[sid].name
    return f"die space {s + 1}"


def space_words(t, s: int) -> str:
    """A die space's needs and action as printed."""
    sid = CATALOG.space_ids[s]
    if sid == EXTENSION_SPACE and t.content.tides is not None:
        return die_space_words(t.content.tides.die_space)
    card = t.space_card[s]
    if card >= 0:
        return die_space_words(t.cards[card].die_space)
    for c in t.content.capital.centre:
        if c.id == sid:
            return die_space_words(c.die_space)
    return "not in this game"


def spot_words(t, row: int, slot: int) -> str:
    """The worker spot beside market slot ``slot`` of ``row`` (its action, as printed on the board)."""
    spots = t.spots[row]
    if not spots:
        return f"no worker spot in the {ROWS[row]} row"
    return effect_words(spots[slot])


def guild_words(colour: str) -> str:
    """'the black guild (Science)': a guild by its colour, with the ability it grants."""
    return f"the {colour} guild ({GUILD_NAMES[colour]})" if colour in GUILD_NAMES else f"the {colour} guild"


def trader_words(g, k: int) -> str:
    """A Tides of Trade trader: its name and the side this game shows."""
    tr = g.tables.content.tides.traders[k]
    side = g.ext_sides[tr.extension - 1]
    return f"{tr.name}: {effect_words(tr.sides[side])}"


def half_words(t, h: int) -> str:
    """A Tides of Trade worker-tile half: its effect, tags, VP, never blocked."""
    half = t.content.tides.halves[h]
    bits = [effect_words(half.effect)] if half.effect is not None else []
    if half.tags:
        bits.append("tags " + ", ".join(tag_word(x) for x in half.tags))
    if half.vp:
        bits.append(f"{half.vp} VP")
    if half.never_blocked:
        bits.append("its workers are never blocked")
    return ", ".join(bits) or "nothing"


# ------------------------------------------------------------------------------ ids in lines written for machines

_ID = re.compile(r"\b[a-z_]+(?:\.[a-z0-9_]+)+\b")


@lru_cache(maxsize=1)
def id_names() -> dict[str, str]:
    """Every id of every content option (cards, capital spaces, journal spaces, tiles, traders,
    scheme cards) with its name for people."""
    full = load_content(options=frozenset(CONTENT_OPTIONS + EXPANSIONS))
    out = {card.id: card.name for card in full.cards}
    cap = full.capital
    out.update({x.id: x.name for x in (cap.city, cap.harbour, cap.star, cap.townsfolk)})
    out.update({s.id: f"{s.name} (capital)" for s in cap.centre})
    out.update({n.id: node_name(n) for n in full.nodes})
    out.update({x.id: design_name(x) for x in full.designs})
    out.update({s.id: s.id.replace(".", " card ") for s in full.solo.schemes})
    out[EXTENSION_SPACE] = "your board extension"
    if full.tides is not None:
        out.update({tr.id: tr.name for tr in full.tides.traders})
    return out


def plain_ids(text: str) -> str:
    """A line that names content by id (a catalog label, the solo AI's summary) with names instead."""
    names = id_names()
    return _ID.sub(lambda m: names.get(m.group(0), m.group(0)), text)
