"""The fixed global action catalog: every decision of the game is one id in ``range(NUM_ACTIONS)``.

Each id means one thing everywhere ("place the die on land.7's die space", "pay the influence
fee with Provisions"), whatever the player count or the decision being asked, so a policy
network can learn what an output unit does. The order of the sections below is the contract of
the action ids: it is one list, here, like the observation's layout. Whatever the Tides of Trade
expansion adds (its icons' leaves, the red guild, its cards' die spaces and hosts...) comes in a
block of sections appended after the base game's, so a base-game action id never moves; such a
"split" section is one logical list (``CATALOG.SPACE``) whose ids lie in two ranges.
``CATALOG.at[a]`` is the position of action ``a`` in its logical section. The ``do`` section (which
part of a pending effect to resolve next) is contributed by the icons the rule modules declare,
in the order the engine lists them (rules/icons.py). The engine builds the catalog once, after
its rule modules are imported (rules/engine.py); rule modules use it only inside functions.
docs/ACTIONS.md is generated from it (``python -m wayfarers_env.docs actions``).
"""

from __future__ import annotations

import numbers
from typing import Any

from wayfarers_env.content.loader import load_content
from wayfarers_env.vocabulary import (
    BASE_GUILDS,
    CONTENT_OPTIONS,
    DRAW_COUNT,
    EXPANSIONS,
    GUILD_INDEX,
    GUILDS,
    MAX_PLAYERS,
    RED,
    ROW_INDEX,
    ROWS,
    WORKER_COLOURS,
    WORKER_INDEX,
)

# the pairs of the "move influence" icon, in catalog order: between the base guilds, then into Red
# (Tides of Trade: "from Black, Yellow, or Blue to any other Guild, including to Red"; never from Red)
_BASE = range(len(BASE_GUILDS))
MOVES = tuple((a, b) for a in _BASE for b in _BASE if a != b) + tuple((a, RED) for a in _BASE)

# the ways to pay a price (rules/payments.py), in catalog order: (the base guild whose one influence
# the Red guild's ability replaces, or -1; the Ink Well swap: 0 none, 1 silver for a provision, 2 a
# provision for silver). Way 0 pays as printed.
WAYS = tuple((red_for, ink) for red_for in (-1, *range(len(BASE_GUILDS))) for ink in (0, 1, 2))


def _way_label(red_for: int, ink: int) -> str:
    parts = []
    if red_for >= 0:
        parts.append(f"1 red in place of 1 {BASE_GUILDS[red_for]} (Red guild)")
    if ink == 1:
        parts.append("1 card influence and 1 silver in place of 1 provision (Ink Well)")
    elif ink == 2:
        parts.append("1 card influence and 1 provision in place of 1 silver (Ink Well)")
    return "pay as printed" if not parts else "pay with " + " and ".join(parts)


EXTENSION_SPACE = "extension.market"  # Tides of Trade: the die space of the player-board extension

# filled when the catalog is built: the "do" leaves in catalog order, and their positions
LEAVES: list[str] = []
LEAF_INDEX: dict[str, int] = {}
NUM_ACTIONS: int  # set by Catalog.build


class Catalog:
    """Named sections of consecutive ids (``CATALOG.DIE[f - 1]``, ``CATALOG.REST``...)."""

    def __init__(self) -> None:
        self.built = False

    def build(self, leaves: list[str], base_leaves: int) -> None:
        """Lay out every section; ``leaves`` are the icons' resolve-next names (rules/icons.py), the
        first ``base_leaves`` of them the base game's."""
        c = load_content()  # the base game
        full = load_content(options=frozenset(CONTENT_OPTIONS + EXPANSIONS))  # every card and tile of every option
        LEAVES[:] = leaves
        LEAF_INDEX.clear()
        LEAF_INDEX.update({name: i for i, name in enumerate(leaves)})
        self.slots = c.player["face_up"]
        self.worker_rows = tuple(ROW_INDEX[k] for k in ROWS if c.rows[k].workers)  # rows that take workers
        self.names: list[str] = []
        self.sections: list[tuple[str, int, int, str]] = []  # name, start, stop, meaning
        self._later: list[tuple[str, list[str], str, list[int]]] = []  # the expansion parts of split sections

        def more(base: list[str], full_ids: list[str]) -> list[str]:
            """What the full content adds to a base list of ids (in the full content's order)."""
            seen = set(base)
            return [x for x in full_ids if x not in seen]

        # die spaces: capital first, then every City and Harbour card in the box
        centre = ["capital.city", "capital.harbour"] + [s.id for s in c.capital.centre]
        base_spaces = centre + [card.id for card in c.cards if card.kind in ("land", "water") and card.die_space]
        tides_spaces = more(base_spaces, [card.id for card in full.cards if card.kind in ("land", "water") and card.die_space])
        tides_spaces.append(EXTENSION_SPACE)  # every player's own, like the capital's
        base_pano = [card.id for card in c.cards if card.kind in ("land", "water")]
        tides_pano = more(base_pano, [card.id for card in full.cards if card.kind in ("land", "water")])
        base_hosts = base_pano + ["capital.city", "capital.harbour"]
        base_sky = [card.id for card in c.cards if card.kind == "space"] + ["capital.star"]
        tides_sky = more(base_sky, [card.id for card in full.cards if card.kind == "space"])
        base_designs = [d.id for d in c.designs]
        tides_designs = more(base_designs, [d.id for d in full.designs])
        self.space_ids = base_spaces + tides_spaces
        self.space_index = {sid: i for i, sid in enumerate(self.space_ids)}
        self.host_ids = base_hosts + tides_pano
        self.host_index = {h: i for i, h in enumerate(self.host_ids)}
        self.above_ids = base_pano + tides_pano
        self.above_index = {h: i for i, h in enumerate(self.above_ids)}
        self.space_card_ids = base_sky + tides_sky
        self.space_card_index = {h: i for i, h in enumerate(self.space_card_ids)}
        self.node_ids = [n.id for n in c.nodes]
        self.design_ids = base_designs + tides_designs
        self.caravan_cols, self.caravan_rows = c.caravan.columns, c.caravan.rows
        base_moves = len(BASE_GUILDS) * (len(BASE_GUILDS) - 1)
        split = self._split

        add = self._section
        self.DIE = add("die", [f"place a die showing {f}" for f in range(1, 7)], "main action: pick a die in supply by its face")
        self.WORKER = add("worker", [f"place a {w} worker" for w in WORKER_COLOURS], "main action: place a worker of this colour")
        self.REST = add("rest", ["rest"], "main action: rest")[0]
        trade = "use the Trade guild: spend 1 yellow influence to change a die by 1, then one by 1 again if wished"  # rulebook p.14
        self.YELLOW = add("yellow_guild", [trade], "guild ability")[0]
        self.FACE = add("face", [f"caravan chain: turn the die to {f}" for f in range(1, 7)], "dice manipulation from the caravan")
        self.SPACE = split(
            "space",
            [f"put the die on {s}" for s in base_spaces],
            [f"put the die on {s}" for s in tides_spaces],
            "die space to place the die on",
        )
        self.SHIP = add("hire_ship", ["use the Exploration guild: spend 1 blue influence for a ship"], "guild ability")[0]
        self.LEAF = split(
            "do",
            [f"resolve next: {leaf}" for leaf in LEAVES[:base_leaves]],
            [f"resolve next: {leaf}" for leaf in LEAVES[base_leaves:]],
            "which part of the pending effect to resolve next",
        )
        self.DONE = add("done", ["decline the rest of this effect"], "end the pending effect")[0]
        self.GUILD = add("guild", [f"choose the {g} guild" for g in BASE_GUILDS], "guild for an any-guild influence (never red)")
        self.FROM_GUILD = split(
            "from_guild",
            [f"take the influence from the {g} guild" for g in BASE_GUILDS],
            [f"take the influence from the {g} guild" for g in GUILDS[len(BASE_GUILDS) :]],
            "empty supply: source of the influence",
        )
        self.CARD = add(
            "card",
            [f"{ROWS[r]} row, slot {s + 1}" for r in range(len(ROWS)) for s in range(self.slots)],
            "a face-up card: influence target, worker target, or (empty supply) influence source",
        )
        moves = [f"move influence from {GUILDS[a]} to {GUILDS[b]}" for a, b in MOVES]
        self.MOVE = split("move", moves[:base_moves], moves[base_moves:], "move influence between guilds (never from red)")
        self.JOURNAL = add("journal_to", [f"journal to {n}" for n in self.node_ids], "journal track destination")
        self.BLACK = add("black_guild", ["use the Science guild: spend 1 black influence to journal again"], "guild ability")[0]
        self.REFRESH_PLACED = split(
            "refresh_placed",
            [f"refresh the die on {s}" for s in base_spaces],
            [f"refresh the die on {s}" for s in tides_spaces],
            "refresh a placed die",
        )
        self.REFRESH_SUPPLY = add("refresh_supply", [f"reroll a supply die showing {f}" for f in range(1, 7)], "refresh a die in supply")
        self.ADJUST = add(
            "adjust",
            [f"change a die showing {f} {'up' if up else 'down'} by 1" for f in range(1, 7) for up in (True, False)],
            "change a die in supply by 1",
        )
        self.RETRIEVE = add(
            "retrieve",
            [
                f"retrieve the {WORKER_COLOURS[w]} worker from {ROWS[r]} slot {s + 1}"
                for r in self.worker_rows
                for s in range(self.slots)
                for w in range(len(WORKER_COLOURS))
            ],
            "retrieve a worker from a face-up card",
        )
        self.SLOT = add("take_slot", [f"take the face-up card in slot {s + 1}" for s in range(self.slots)], "which face-up card to acquire")
        self.DRAW = add("draw_three", ["draw 3 from the deck instead (pigeon or 1 provision)"], "deck option for Land/Water")[0]
        self.FEE = add(
            "fee",
            ["pay the influence fee with 1 silver", "pay the influence fee with 1 provision"],
            "pay an opponent for interacting",
        )
        self.KEEP = add("keep_drawn", [f"keep drawn card {i + 1}" for i in range(DRAW_COUNT)], "draw 3, keep 1")
        self.ORDER = add(
            "bottom_order",
            ["return the others in drawn order (first one lowest)", "return the others in reverse order"],
            "order of the returned cards at the bottom of the deck",
        )
        self.TUCK = split(
            "tuck_under",
            [f"tuck the townsfolk under {h}" for h in base_hosts],
            [f"tuck the townsfolk under {h}" for h in tides_pano],
            "townsfolk host",
        )
        self.ABOVE = split(
            "place_above",
            [f"place the space card above {h}" for h in base_pano],
            [f"place the space card above {h}" for h in tides_pano],
            "space card position",
        )
        self.INSPIRE = split(
            "inspire",
            [f"tuck the inspiration card above {s}" for s in base_sky],
            [f"tuck the inspiration card above {s}" for s in tides_sky],
            "inspiration target",
        )
        self.DISCARD = add("discard_inspiration", ["discard the inspiration card for the worker spot's effect"], "inspiration")[0]
        self.DESIGN = split(
            "tile_design",
            [f"choose upgrade tile {d}" for d in base_designs],
            [f"choose upgrade tile {d}" for d in tides_designs],
            "upgrade tile design",
        )
        self.TILE_PAY = add("tile_pay", ["pay for the tile with silver", "pay for the tile with guild influence"], "upgrade tile price")
        self.TILE_AT = add(
            "tile_at",
            [
                f"place the tile with its top-left at row {y + 1}, column {x + 1}{', flipped' if fl else ''}"
                for y in range(self.caravan_rows)
                for x in range(self.caravan_cols)
                for fl in (False, True)
            ],
            "upgrade tile position in the caravan",
        )
        self.REROLL = add("reroll", [f"reroll a supply die showing {f}" for f in range(1, 7)], "resting: reroll dice kept in supply")
        self.SKIP = add("skip", ["skip"], "decline an optional choice")[0]
        # -- Tides of Trade: the expansion parts of the split sections, in the order they were declared
        for name, labels, meaning, ids in self._later:
            ids.extend(add(name + "_tides", labels, meaning + " (Tides of Trade)"))
        # -- Tides of Trade's own decisions
        self.INK_WELL = add("ink_well", ["place the card influence on the Ink Well"], "card influence target (Tides of Trade)")[0]
        self.HOURGLASS_FILL = add(
            "hourglass_fill", ["turn the empty hourglass to its full side instead of journaling"], "journal effect (Tides of Trade)"
        )[0]
        self.JOURNAL_HOURGLASS = add(
            "journal_hourglass",
            [f"journal to {n}, turning the full hourglass back to ease the splotch by 1" for n in self.node_ids],
            "journal track destination reached with the hourglass (Tides of Trade)",
        )
        self.HOURGLASS_SAVES = add(
            "hourglass_saves",
            [f"the hourglass saves 1 {g} influence" for g in GUILDS],
            "which influence of a splotch's cost the hourglass saves (Tides of Trade)",
        )
        tides = full.tides
        assert tides is not None
        self.trader_ids = [tr.id for tr in tides.traders]
        self.worker_columns = list(tides.worker_columns)
        self.EMPLOY = add("employ_trader", [f"employ {tr.id} ({tr.name})" for tr in tides.traders], "trader to employ (Tides of Trade)")
        self.WORKER_PAIR = add(
            "worker_pair",
            [f"acquire the worker tile pair of stacks {k + 1}" for k in range(tides.stacks)],
            "worker upgrade tile to acquire (Tides of Trade)",
        )
        self.WORKER_COLUMN = add(
            "worker_column",
            [f"place the worker tile under the {w} worker" for w in tides.worker_columns],
            "where the worker upgrade tile goes (Tides of Trade)",
        )
        self.MARKET = add("tuck_market", ["tuck the Overseer under the Market"], "Overseer host (Tides of Trade)")[0]
        self.DISMISS = add("dismiss", ["dismiss the Overseer for its effect"], "Overseer (Tides of Trade)")[0]
        self.CAPTURE = add(
            "capture_from_player",
            [f"capture a {w} worker from the player {k} seat(s) after you" for k in range(1, MAX_PLAYERS) for w in WORKER_COLOURS],
            "worker to capture from an opponent's supply (Tides of Trade)",
        )
        self.INK_ASSETS = add(
            "ink_assets", ["use the Ink Well: 2 card influence for a pigeon, a camel and a telescope"], "Ink Well (Tides of Trade)"
        )[0]
        self.INK_CAPTURE = add("ink_capture", ["use the Ink Well: 3 card influence to capture a worker"], "Ink Well (Tides of Trade)")[0]
        self.INK_RED = add("ink_red", ["use the Ink Well: 3 card influence for 1 red influence"], "Ink Well (Tides of Trade)")[0]
        self.PAYMENT = add("payment", [_way_label(*w) for w in WAYS], "how to pay a price (Tides of Trade: Red guild, Ink Well)")
        # -- the solo game: the AI wants a card you influenced
        self.SOLO = add(
            "solo_ai_wants",
            [
                "let the AI go ahead and take 1 silver",
                "let the AI go ahead and take 1 provision",
                "deny the AI: pay 1 silver, it goes for its next choice",
                "deny the AI: pay 1 provision, it goes for its next choice",
            ],
            "the solo AI wants a card you influenced",
        )
        self.size = len(self.names)
        # the position of every action in its logical section (a split section counts through both parts)
        self.at = [0] * self.size
        for _name, start, stop, _meaning in self.sections:
            for k, a in enumerate(range(start, stop)):
                self.at[a] = k
        for _name, _labels, _meaning, ids in self._later:
            for k, a in enumerate(ids):
                self.at[a] = k
        self.built = True
        self.__class__ = Catalog  # built: no hook on attribute reads any more
        globals()["NUM_ACTIONS"] = self.size

    def _split(self, name: str, base: list[str], later: list[str], meaning: str) -> list[int]:
        """A logical section whose base-game ids come here and whose expansion ids are appended
        after the base game's sections (the returned list is extended then)."""
        ids = self._section(name, base, meaning)
        if later:
            self._later.append((name, later, meaning, ids))
        return ids

    def _section(self, name: str, labels: list[str], meaning: str) -> list[int]:
        start = len(self.names)
        self.names.extend(labels)
        self.sections.append((name, start, len(self.names), meaning))
        return list(range(start, len(self.names)))

    def retrieve_id(self, row: int, slot: int, colour: int) -> int:
        return self.RETRIEVE[(self.worker_rows.index(row) * self.slots + slot) * len(WORKER_COLOURS) + colour]

    def tile_at_id(self, x: int, y: int, flipped: bool) -> int:
        return self.TILE_AT[(y * self.caravan_cols + x) * 2 + int(flipped)]

    def markdown(self) -> str:
        lines = [
            "# Action catalog",
            "",
            "Generated by `python -m wayfarers_env.docs actions`; do not edit by hand.",
            "",
            f"The action space is `Discrete({self.size})` for every player count. Each decision of the",
            "game enables a subset of these ids (the action mask); the current decision's kind is part of",
            "the observation.",
            "",
            "| section | ids | count | meaning |",
            "|---|---|---|---|",
        ]
        for name, start, stop, meaning in self.sections:
            lines.append(f"| `{name}` | {start}–{stop - 1} | {stop - start} | {meaning} |")
        lines += ["", "## Every id", "", "| id | meaning |", "|---|---|"]
        lines += [f"| {i} | {n} |" for i, n in enumerate(self.names)]
        return "\n".join(lines) + "\n"


class _UnbuiltCatalog(Catalog):
    """The catalog before ``build``: reading a section names the cause. ``build`` turns the
    instance into a plain ``Catalog``, because a class with ``__getattr__`` slows every attribute
    read (Python asks the hook's class first), and the rules read the catalog at each decision."""

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"the action catalog has no {name!r} yet: it is built when wayfarers_env.rules.engine is imported")


CATALOG: Catalog = _UnbuiltCatalog()


def action_id(kind: str, *args) -> int:
    """The id of a named action, e.g. ``action_id("space", "capital.city")``,
    ``action_id("do", "journal")``, ``action_id("tile_at", 2, 1, True)`` (row, column, flipped).

    For people and scripts; raises ValueError naming the kinds and arguments allowed."""
    c = CATALOG
    guild, worker, row = GUILD_INDEX, WORKER_INDEX, ROW_INDEX
    simple = {
        "rest": c.REST,
        "yellow_guild": c.YELLOW,
        "hire_ship": c.SHIP,
        "done": c.DONE,
        "black_guild": c.BLACK,
        "draw_three": c.DRAW,
        "discard_inspiration": c.DISCARD,
        "skip": c.SKIP,
        "ink_well": c.INK_WELL,
        "hourglass_fill": c.HOURGLASS_FILL,
        "tuck_market": c.MARKET,
        "dismiss": c.DISMISS,
        "ink_assets": c.INK_ASSETS,
        "ink_capture": c.INK_CAPTURE,
        "ink_red": c.INK_RED,
    }
    try:
        if kind in simple:
            return simple[kind]
        if kind == "die":
            return c.DIE[args[0] - 1]
        if kind == "worker":
            return c.WORKER[worker[args[0]]]
        if kind == "face":
            return c.FACE[args[0] - 1]
        if kind == "space":
            return c.SPACE[c.space_index[args[0]]]
        if kind == "do":
            return c.LEAF[LEAF_INDEX[args[0]]]
        if kind == "guild":
            return c.GUILD[guild[args[0]]]
        if kind == "from_guild":
            return c.FROM_GUILD[guild[args[0]]]
        if kind == "card":
            return c.CARD[row[args[0]] * c.slots + args[1] - 1]
        if kind == "move":
            return c.MOVE[MOVES.index((guild[args[0]], guild[args[1]]))]
        if kind == "journal_to":
            return c.JOURNAL[c.node_ids.index(args[0])]
        if kind == "journal_hourglass":
            return c.JOURNAL_HOURGLASS[c.node_ids.index(args[0])]
        if kind == "hourglass_saves":
            return c.HOURGLASS_SAVES[guild[args[0]]]
        if kind == "employ_trader":
            return c.EMPLOY[c.trader_ids.index(args[0])]
        if kind == "worker_pair":
            return c.WORKER_PAIR[args[0] - 1]
        if kind == "worker_column":
            return c.WORKER_COLUMN[c.worker_columns.index(args[0])]
        if kind == "capture_from_player":
            return c.CAPTURE[(args[0] - 1) * len(WORKER_COLOURS) + worker[args[1]]]
        if kind == "refresh_placed":
            return c.REFRESH_PLACED[c.space_index[args[0]]]
        if kind == "refresh_supply":
            return c.REFRESH_SUPPLY[args[0] - 1]
        if kind == "adjust":
            return c.ADJUST[(args[0] - 1) * 2 + (0 if args[1] == "up" else 1)]
        if kind == "retrieve":
            return c.retrieve_id(row[args[0]], args[1] - 1, worker[args[2]])
        if kind == "take_slot":
            return c.SLOT[args[0] - 1]
        if kind == "fee":
            return c.FEE[("silver", "provision").index(args[0])]
        if kind == "keep_drawn":
            return c.KEEP[args[0] - 1]
        if kind == "bottom_order":
            return c.ORDER[("drawn", "reversed").index(args[0])]
        if kind == "tuck_under":
            return c.TUCK[c.host_ids.index(args[0])]
        if kind == "place_above":
            return c.ABOVE[c.above_ids.index(args[0])]
        if kind == "inspire":
            return c.INSPIRE[c.space_card_ids.index(args[0])]
        if kind == "tile_design":
            return c.DESIGN[c.design_ids.index(args[0])]
        if kind == "tile_pay":
            return c.TILE_PAY[("silver", "influence").index(args[0])]
        if kind == "tile_at":
            return c.tile_at_id(args[1] - 1, args[0] - 1, bool(args[2]) if len(args) > 2 else False)
        if kind == "reroll":
            return c.REROLL[args[0] - 1]
    except (KeyError, ValueError, IndexError, TypeError):
        raise ValueError(f"bad arguments {args!r} for action kind {kind!r}") from None
    kinds = sorted(set(simple) | {s[0] for s in c.sections})
    raise ValueError(f"unknown action kind {kind!r}; kinds: {', '.join(kinds)}")


def describe_action(action_id: int) -> str:
    """Readable meaning of an action id (a numpy integer too: ids come out of policy arrays);
    raise ValueError for an id outside the catalog."""
    if not isinstance(action_id, numbers.Integral) or isinstance(action_id, bool) or not 0 <= action_id < CATALOG.size:
        raise ValueError(f"action id {action_id!r} is outside the catalog; valid ids are 0..{CATALOG.size - 1}")
    return CATALOG.names[int(action_id)]
