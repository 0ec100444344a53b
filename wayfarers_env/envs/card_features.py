"""The card feature vector: a fixed-size description of a card's rules, for the observation.

Cards are observed by what they do, not only by their index, so that a network can generalise
across cards it rarely sees (and across the optional inspiration cards). One vector of ``F``
floats per card holds its kind, tags, die space, an effect histogram of its immediate effect
and of its ability, vista triggers, water links, what its VP / goal measure counts and how it
grows, the townsfolk cost, hosts and gifts, and Tides of Trade's parts (the influence a die space
costs, the influence a townsfolk provides for it; what dismissing an Overseer gives counts as its
immediate effect). ``observation.py`` places these vectors in the market, the decision and the private draw; ``card_feature_table``
computes them once per content, since they depend on the rules only, never on the game state.
Counts are divided by the scale each ``CARD`` meaning names (tags / 3, effects / 4, ...), so that
a network sees values of about [0, 1]; every card there can be lies within the declared bounds
(checked at import), which the observation uses as its Box bounds.

One card index space serves every game, whatever its options: the indices of the content with
every expansion and option loaded (``NUM_CARDS`` of them; the base game's 0-159 are the same in
every content). ``canonical_indices`` maps a smaller content's indices into it, so that an index
in the observation names the same card in a base game, a game with an option and an expansion
game.

``Slice`` and ``Layout`` (named, contiguous slices with bounds and a generated doc table) live
here because the card vector is the first layout built; ``observation.py`` builds the
observation's own layout from the same class.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from wayfarers_env.content.effects import Atom, Choice, Cost, Effect, Repeat, Seq
from wayfarers_env.content.loader import Card, Content, load_content
from wayfarers_env.content.measures import TERMS
from wayfarers_env.rules import icons
from wayfarers_env.vocabulary import ASSETS, CONTENT_OPTIONS, EXPANSIONS, GUILD_INDEX, GUILDS, LINK_ROWS, ROWS, TAGS, TRIGGERS

FULL = load_content(options=frozenset(CONTENT_OPTIONS + EXPANSIONS))  # every card any game may hold
NUM_CARDS = sum(len(d) for d in FULL.decks.values())  # deck cards, all options and expansions
assert FULL.tides is not None
# where a townsfolk may be tucked: under a card with one of the tags, or (Tides of Trade's Overseers)
# under the player board's Market
HOSTS = TAGS + tuple(h for h in FULL.tides.market_hosts if h not in TAGS)
# Effect histogram vocabulary: one feature per icon (or per icon and argument), declared by the icon's
# rule module (rules/icons.py), then "free" and "choice". Gains count +amount, costs -amount,
# "choice" counts either/or nodes.
EFFECT_FEATURES = tuple(icons.FEATURES)
_EFX = {name: i for i, name in enumerate(EFFECT_FEATURES)}
_FREE, _CHOICE = _EFX["free"], _EFX["choice"]
E = len(EFFECT_FEATURES)
EFFECT_DOC = "Effect features (histogram positions): " + ", ".join(f"{i} `{n}`" for i, n in enumerate(EFFECT_FEATURES))


KINDS = ("value", "index", "cards", "features")  # how a slice's values are read (Slice.kind)


@dataclass(frozen=True)
class Slice:
    """A named run of values. ``kind`` says how a network should read them: "value" (flags,
    one-hots, scaled counts and features: usable as numbers), "index" (categorical: a card index
    + 1, 0 = none, out of ``vocab``; embed or drop it, never multiply it) or "cards" (one value
    per card index: a card set, or a weight per card) or "features" (card feature vectors, one per
    card slot, each within the bounds of the ``CARD`` layout). A slice of a card-slot ``group``
    holds ``items`` rows, one per card slot, so that one shared encoder can read every slot of it."""

    name: str
    start: int
    size: int
    meaning: str
    low: float
    high: float
    kind: str = "value"
    vocab: int = 0
    group: str = ""
    items: int = 0

    @property
    def stop(self) -> int:
        return self.start + self.size

    @property
    def width(self) -> int:
        """Values per card slot (the whole slice when it belongs to no group)."""
        return self.size // self.items if self.items else self.size


class Layout:
    """An ordered list of named slices; offsets follow from the order."""

    def __init__(self, title: str):
        self.title = title
        self.slices: list[Slice] = []
        self.size = 0
        self._per_value: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # slices whose bounds differ value by value

    def add(
        self,
        name: str,
        size: int,
        meaning: str,
        low: float = 0.0,
        high: float = 1.0,
        *,
        kind: str = "value",
        vocab: int = 0,
        group: str = "",
        items: int = 0,
        per_value: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> int:
        """Append a slice; ``per_value``: (low, high) arrays of its size, where one range does not fit
        every value (the card feature vectors), low and high then being their extremes."""
        assert kind in KINDS and (kind == "index") == (vocab > 0), (name, kind, vocab)
        assert bool(group) == (items > 0) and (not items or size % items == 0), (name, group, items)
        if per_value is not None:
            assert per_value[0].shape == per_value[1].shape == (size,), name
            self._per_value[name] = per_value
            low, high = float(per_value[0].min()), float(per_value[1].max())
        start = self.size
        self.slices.append(Slice(name, start, size, meaning, low, high, kind, vocab, group, items))
        self.size += size
        return start

    def __getitem__(self, name: str) -> Slice:
        return next(s for s in self.slices if s.name == name)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        low = np.empty(self.size, np.float32)
        high = np.empty(self.size, np.float32)
        for s in self.slices:
            lo, hi = self._per_value.get(s.name, (s.low, s.high))
            low[s.start : s.stop] = lo
            high[s.start : s.stop] = hi
        return low, high

    def markdown_table(self) -> list[str]:
        out = ["| offset | size | slice | meaning | range | kind |", "|---:|---:|---|---|---|---|"]
        for s in self.slices:
            kind = {"index": f"index of {s.vocab}", "cards": "card set", "features": "card features"}.get(s.kind, "")
            if s.group:
                kind += f"{', ' if kind else ''}{s.group} slots: {s.items} x {s.width}"
            span = f"[{s.low:g}, {s.high:g}]" + (" per feature" if s.name in self._per_value else "")
            out.append(f"| {s.start} | {s.size} | `{s.name}` | {s.meaning} | {span} | {kind} |")
        return out


EFFECT_SCALE = 4  # effect histograms (card effects, effect frames) are divided by this: a card's largest count is 4
CARD = Layout("card feature vector")
C_KIND = CARD.add("kind", 5, "one-hot row/kind: " + ", ".join(ROWS))
C_TAGS = CARD.add("tags", len(TAGS), "tag counts / 3: " + ", ".join(TAGS))
C_DIE = CARD.add("die_space", 1 + len(ASSETS), "has a die space; assets it needs / 2: " + ", ".join(ASSETS))
C_IMM = CARD.add(
    "immediate",
    E,
    f"effect histogram of the immediate effect / {EFFECT_SCALE} (see effect features); an Overseer's: dismissing it (Tides of Trade)",
    -1,
)
C_ABK = CARD.add("ability_kind", 4, "one-hot: die-space action, vista trigger, townsfolk ability, resting ability")
C_ABI = CARD.add("ability", E, f"effect histogram of that ability / {EFFECT_SCALE}", -1)
C_TRG = CARD.add("trigger_on", len(TRIGGERS), "vista triggers: " + ", ".join(TRIGGERS))
C_LINK = CARD.add(
    "links",
    2 * len(LINK_ROWS) + len(GUILDS),
    "water links: left icons, right bonuses (" + ", ".join(LINK_ROWS) + "), right guild colour",
)
C_TERMS = CARD.add("measure_terms", len(TERMS), "counts a Space VP / Inspiration goal depends on (TERMS order)")
C_MEAS = CARD.add("measure_at", 3, "VP / goal value if every count were 0, 2, 4 (divided by 10)", 0, 1.5)
C_COST = CARD.add("cost", 1, "townsfolk silver cost / 10 (silver is / 10 everywhere)")
C_HOSTS = CARD.add("hosts", len(HOSTS), "townsfolk: tags it may be tucked under (" + ", ".join(HOSTS) + ")")
C_GIVES = CARD.add("gives", len(ASSETS), "townsfolk: assets it gives its die space / 2")
C_SPINF = CARD.add("space_influence", len(GUILDS), "Tides of Trade: influence its die space costs per guild: " + ", ".join(GUILDS))
C_GINF = CARD.add("gives_influence", len(GUILDS), "Tides of Trade: townsfolk: influence it provides for its host's die-space cost")
F = CARD.size

assert C_GINF + len(GUILDS) == F


def effect_vector(node: Effect | None, out: np.ndarray, sign: float = 1.0) -> np.ndarray:
    """Histogram of what an effect does: costs negative, choices counted in every option."""
    if node is None:
        return out
    if isinstance(node, Atom):
        ic = icons.ICONS[node.name]
        key = ic.feature_name(node)
        if key is not None:
            out[_EFX[key]] += sign * (node.amount if ic.grammar.amount else 1)
        if any(a in ("free", "discount", "discount3") for a in node.args):
            out[_FREE] += 1
    elif isinstance(node, Seq):
        for part in node.parts:
            effect_vector(part, out, sign)
    elif isinstance(node, Repeat):
        for _ in range(node.count):
            effect_vector(node.body, out, sign)
    elif isinstance(node, Choice):
        out[_CHOICE] += 1
        for opt in node.options:
            effect_vector(opt, out, sign)
    elif isinstance(node, Cost):
        effect_vector(node.cost, out, -sign)
        effect_vector(node.gain, out, sign)
    return out


def effect_histogram(items: Iterable[Effect]) -> np.ndarray:
    """Histogram of the parts of an effect bag (what is still to be resolved)."""
    v = np.zeros(E, np.float32)
    for item in items:
        effect_vector(item, v)
    return v


def card_vector(card: Card) -> np.ndarray:
    """The ``F`` features of one card (layout ``CARD``)."""
    v = np.zeros(F, np.float32)
    if card.kind in ROWS:
        v[C_KIND + ROWS.index(card.kind)] = 1
    v[C_TAGS : C_TAGS + len(TAGS)] = [n / 3 for n in card.tag_counts]
    # an Overseer has no immediate effect: what dismissing it gives comes at once instead (its
    # hosts tell the two apart), so it shares the slot rather than widening every card vector
    assert card.immediate is None or card.dismiss is None, card.id
    effect_vector(card.immediate if card.dismiss is None else card.dismiss, v[C_IMM : C_IMM + E])
    ability = None
    if card.die_space is not None:
        v[C_DIE] = 1
        v[C_DIE + 1 : C_DIE + 5] = [n / 2 for n in card.die_space.need]
        ability, k = card.die_space.action, 0
    elif card.trigger is not None:
        ability, k = card.trigger, 1
    elif card.ability is not None:
        ability, k = card.ability, 2
    elif card.resting is not None:
        ability, k = card.resting, 3
    if ability is not None:
        v[C_ABK + k] = 1
        effect_vector(ability, v[C_ABI : C_ABI + E])
    for trig in card.trigger_on:
        v[C_TRG + TRIGGERS.index(trig)] = 1
    v[C_LINK : C_LINK + len(LINK_ROWS)] = card.links_left
    for r, bonus in enumerate(card.links_right):
        if bonus is not None:
            v[C_LINK + len(LINK_ROWS) + r] = 1
            if bonus.name == "guild":
                v[C_LINK + 2 * len(LINK_ROWS) + GUILD_INDEX[bonus.args[0]]] = 1
    measure = card.vp if card.vp is not None else card.goal
    if measure is not None:
        for term in measure.terms:
            v[C_TERMS + TERMS.index(term)] = 1
        for j, level in enumerate((0, 2, 4)):
            v[C_MEAS + j] = measure([level] * len(TERMS)) / 10
    v[C_COST] = card.cost / 10
    for tag in card.hosts:
        v[C_HOSTS + HOSTS.index(tag)] = 1
    for asset in card.gives:
        v[C_GIVES + ASSETS.index(asset)] += 0.5
    if card.die_space is not None:
        for guild in card.die_space.influence:
            v[C_SPINF + GUILD_INDEX[guild]] += 1
    for guild in card.gives_influence:
        v[C_GINF + GUILD_INDEX[guild]] += 1
    v[C_IMM : C_IMM + E] /= EFFECT_SCALE
    v[C_ABI : C_ABI + E] /= EFFECT_SCALE
    return v


def deck_size(content: Content) -> int:
    """Deck cards of ``content``: they come first in ``content.cards`` (the capital's follow)."""
    return sum(len(d) for d in content.decks.values())


def canonical_indices(content: Content) -> tuple[int, ...]:
    """Per deck card of ``content``, its index in the one card index space (``FULL``'s)."""
    return tuple(FULL.by_id[card.id].index for card in content.cards[: deck_size(content)])


def card_feature_table(content: Content) -> np.ndarray:
    """(NUM_CARDS + 1, F) features by card index of ``content``, for its deck cards.

    The last row stays all zeros, so gathering with index -1 (an empty market slot) yields
    zeros without a branch; cards the content leaves out keep zero rows too."""
    feat = np.zeros((NUM_CARDS + 1, F), np.float32)
    for card in content.cards[: deck_size(content)]:
        feat[card.index] = card_vector(card)
    feat[-1] = 0
    return feat


def _check_bounds() -> None:
    """Every card there can be (FULL's) lies within the declared ``CARD`` bounds: the card feature
    slices of the observation use them as their Box bounds, so they must hold for every game."""
    low, high = CARD.bounds()
    table = card_feature_table(FULL)[:NUM_CARDS]
    bad = np.argwhere((table < low) | (table > high))
    assert not len(bad), [(FULL.cards[i].id, next(s.name for s in CARD.slices if s.start <= j < s.stop)) for i, j in bad[:5]]


_check_bounds()
