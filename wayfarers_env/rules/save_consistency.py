"""The second pass over a loaded save (see rules/save_check.py): the built state as a whole.

Every card, die, worker, influence token and tile is where exactly one of them can be, counts and
caravan cells match the panorama, the journal and end-game fields agree, and the stack is one the
engine could have built with a live decision on top. Linear in the size of the state.

In a solo game the AI's seat (players[1]) holds only influence, workers, its journal marker and
counts mirroring ``GameState.solo`` (its cards, tiles and comet track); its cards, tiles and worker
tiles count in the same censuses as everyone's, and its influence supply starts at solo.AI_SUPPLY.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from wayfarers_env.content.measures import TERM_INDEX, TERMS
from wayfarers_env.rules.bag import cost_need
from wayfarers_env.rules.dice import CaravanChain, DieSpace, TradeGuild
from wayfarers_env.rules.frames import RULES
from wayfarers_env.rules.influence import Fee, InfluenceSource, ink_well_takes_influence
from wayfarers_env.rules.journal import HourglassSaving
from wayfarers_env.rules.market import DrawKeep, DrawOrder, TakeCard
from wayfarers_env.rules.payments import Payment
from wayfarers_env.rules.save_check import FRAMES, Facts, SaveError, facts_for, held
from wayfarers_env.rules.solo import AI, AI_SUPPLY, COMET_TOP, HUMAN, AiTurn, AiWants, ai_footprint
from wayfarers_env.rules.solo import candidates as ai_candidates  # what the AI would go for, best first
from wayfarers_env.rules.state import SUPPLY, GameState, PlayerState, extra_on, extra_placed
from wayfarers_env.rules.tables import (
    COMET,
    T_INSPIRATION,
    T_LAND_CARDS,
    T_SPACE_CARDS,
    T_TILE_KIND,
    T_TILES,
    T_TOWNSFOLK,
    T_WATER_CARDS,
    Tables,
)
from wayfarers_env.rules.traders import TraderArrives
from wayfarers_env.rules.turn import RestReroll, Turn
from wayfarers_env.rules.worker_tiles import WorkerColumn
from wayfarers_env.rules.workers import Capture, CaptureFrom, PlaceWorker, TakeBackWorker, WorkerTarget, free_extras, never_blocked
from wayfarers_env.vocabulary import GREEN_WORKER, GUILDS, RED, ROWS, WORKER_COLOURS


def check_state(g: GameState) -> None:
    """Conservation and consistency of the built state, then the stack's shape and top decision."""
    f = facts_for(g.tables)
    for k, p in enumerate(g.players):
        if g.solo is not None and k == AI:
            _ai_seat(g, p)
        else:
            _panorama(g, k, p, f)
    _cards_once(g, f)
    _tokens(g, f)
    _tiles(g)
    _journal(g)
    _tides(g)
    _solo(g)
    _stack(g)


def recount(t: Tables, p: PlayerState) -> list[int]:
    """The static counts vector of a player, computed from scratch from the panorama."""
    counts = [0] * len(p.counts)
    vectors = [t.start_tags] + [t.cards[c].tag_counts for c in (*p.land, *p.water)]
    vectors += [t.cards[c].tag_counts for c in p.above.values()]
    vectors += [t.designs[d].tag_counts for d, _x, _y, _f in p.tiles]
    for k, total in enumerate(map(sum, zip(*vectors))):
        counts[k] = total
    for d, _x, _y, _f in p.tiles:
        counts[T_TILES] += 1
        counts[T_TILE_KIND[t.design_kind[d]]] += 1
    for top, bottom in p.worker_tiles:  # Tides of Trade: a worker tile's two halves make one upgrade tile
        if top >= 0:
            counts[T_TILES] += 1
            for half in (top, bottom):
                for k, n in enumerate(t.half_tags[half]):
                    counts[k] += n
    counts[T_LAND_CARDS] = 1 + t.market_land + len(p.land)
    counts[T_WATER_CARDS] = 1 + len(p.water)
    counts[T_SPACE_CARDS] = 1 + len(p.above)
    counts[T_TOWNSFOLK] = 1 + len(p.tucked) + (p.overseer >= 0)
    counts[T_INSPIRATION] = len(p.inspired)
    return counts


def _panorama(g: GameState, k: int, p: PlayerState, f: Facts) -> None:
    t = g.tables
    where = f"players[{k}]"
    cards = set(p.land) | set(p.water)
    for key, allowed, what in (
        ("above", cards, "one of this player's land or water cards"),
        ("tucked", cards | f.capital_hosts, "one of this player's land or water cards or the capital city or harbour"),
        ("inspired", set(p.above.values()) | {t.capital_star}, "one of this player's space cards or the capital star"),
    ):
        for i, host in enumerate(getattr(p, key)):
            if host not in allowed:
                raise SaveError(f"{where}.{key}[{i}][0]: must be {what}, got {host} ({t.cards[host].id})")
    owned = cards | set(p.above.values()) | set(p.tucked.values()) | set(p.inspired.values()) | {p.overseer}
    listed: set[int] = set()
    for i, card in enumerate(p.acquired):
        if card not in owned or card in listed:
            raise SaveError(f"{where}.acquired[{i}]: must be a card of this player's panorama, listed once, got {card}")
        listed.add(card)
    if p.acquired and k != g.current:
        raise SaveError(f"{where}.acquired: must be empty: only the current player ({g.current}) acquires during a turn")
    spaces = {0, 1, *t.centre_spaces} | {t.space_of_card[c] for c in cards if c in t.space_of_card}
    taken: dict[int, int] = {}
    for d, loc in enumerate(p.dice_loc):
        if loc >= 0:
            if loc not in spaces:
                raise SaveError(f"{where}.dice_loc[{d}]: die space {loc} is not one of this player's; allowed: -2, -1, {sorted(spaces)}")
            if loc in taken:
                raise SaveError(f"{where}.dice_loc[{d}]: die space {loc} already holds die {taken[loc]}; one die per space")
            taken[loc] = d
    cells = 0
    for i, (d, x, y, _flip) in enumerate(p.tiles):
        mask = f.anchors[(d, x, y)]
        if mask & (cells | t.blocked):
            raise SaveError(f"{where}.tiles[{i}]: design {t.designs[d].id} at x={x}, y={y} overlaps another tile or a printed cell")
        cells |= mask
    if p.cells != cells:
        raise SaveError(f"{where}.cells: must be {cells}, the cells its tiles cover, got {p.cells}")
    expected = recount(t, p)
    for i, (want, got) in enumerate(zip(expected, p.counts)):
        if want != got:
            raise SaveError(f"{where}.counts[{i}] ({TERMS[i]}): must be {want}, a recount of the panorama, got {got}")
    boards = g.config.player_boards
    if boards != "random" and p.board != boards[k] - 1:
        raise SaveError(f"{where}.board: must be {boards[k] - 1} (config.player_boards), got {p.board}")
    _board_once(g, k, p)
    if g.solo is not None and p.board == g.solo.board:
        raise SaveError(f"{where}.board: board {p.board} lies turned over as the AI's board (config.solo_ai_board); choose another")


def _board_once(g: GameState, k: int, p: PlayerState) -> None:
    if p.board in (q.board for q in g.players[:k]):
        raise SaveError(f"players[{k}].board: board {p.board} is another player's; each player has their own")


def ai_recount(g: GameState) -> list[int]:
    """The solo AI's counts: only what it acquired (cards by kind, tiles by kind) and its comet track;
    it has no panorama, starting tags or caravan printing."""
    t, solo = g.tables, g.solo
    assert solo is not None
    counts = [0] * len(TERMS)
    counts[COMET] = g.players[AI].counts[COMET]  # its comet track, checked for range by the caller
    for card in solo.cards:
        counts[TERM_INDEX[f"{t.cards[card].kind}_cards"]] += 1
    for d in solo.tiles:
        counts[T_TILES] += 1
        counts[T_TILE_KIND[t.design_kind[d]]] += 1
    return counts


def _ai_seat(g: GameState, p: PlayerState) -> None:
    """The solo AI's seat: no money, panorama, caravan, Ink Well, trader or Overseer; a comet track
    0..COMET_TOP; counts mirroring its cards and tiles; its player board turned over as its AI board
    when the boards are chosen (config.player_boards)."""
    where = f"players[{AI}]"
    for key, empty in (
        ("silver", 0),
        ("provisions", 0),
        ("land", []),
        ("water", []),
        ("above", {}),
        ("tucked", {}),
        ("inspired", {}),
        ("tiles", []),
        ("cells", 0),
        ("acquired", []),
        ("ink", 0),
        ("hourglass", False),
        ("trader", -1),
        ("overseer", -1),
    ):
        got = getattr(p, key)
        if got != empty:
            shown = [list(x) for x in got.items()] if isinstance(got, dict) else got
            raise SaveError(f"{where}.{key}: must be {empty!r} for the solo AI (its other pieces are in solo), got {shown}")
    if not 0 <= p.counts[COMET] <= COMET_TOP:
        raise SaveError(f"{where}.counts[{COMET}] (comet): the AI's comet track runs 0..{COMET_TOP}, got {p.counts[COMET]}")
    for i, (want, got) in enumerate(zip(ai_recount(g), p.counts)):
        if want != got:
            raise SaveError(f"{where}.counts[{i}] ({TERMS[i]}): must be {want}, a recount of the AI's cards and tiles (solo), got {got}")
    solo = g.solo
    assert solo is not None
    if g.config.player_boards != "random" and p.board != solo.board:
        raise SaveError(f"{where}.board: must be {solo.board}, the AI's board (config.solo_ai_board), got {p.board}")
    _board_once(g, AI, p)


def _cards_once(g: GameState, f: Facts) -> None:
    """Every card of the decks is in exactly one place: a deck, the market, a panorama, the solo
    AI's cards or a pending decision that holds it (a private draw, a card waiting to be placed)."""
    seen: dict[int, str] = {}

    def put(card: int, where: str) -> None:
        if card in seen:
            raise SaveError(f"{where}: card {card} ({g.tables.cards[card].id}) is also at {seen[card]}; every card exists exactly once")
        seen[card] = where

    for row, deck in enumerate(g.decks):
        for i, card in enumerate(deck):
            put(card, f"decks[{row}][{i}]")
    for i, card in enumerate(g.market):
        if card >= 0:
            put(card, f"market[{i}]")
    for k, p in enumerate(g.players):
        for key in ("land", "water"):
            for i, card in enumerate(getattr(p, key)):
                put(card, f"players[{k}].{key}[{i}]")
        for key in ("above", "tucked", "inspired"):
            for i, card in enumerate(getattr(p, key).values()):
                put(card, f"players[{k}].{key}[{i}][1]")
        if p.overseer >= 0:
            put(p.overseer, f"players[{k}].overseer")
    for i, card in enumerate(g.boxed):
        put(card, f"boxed[{i}]")
    for i, card in enumerate(g.solo.cards if g.solo is not None else ()):
        put(card, f"solo.cards[{i}]")
    for s, frame in enumerate(g.stack):
        for card, i in held(frame, "card"):
            put(card, f"stack[{s}][{i}]")
    if len(seen) != len(f.deck_cards):
        missing = sorted(f.deck_cards - set(seen))
        ids = ", ".join(g.tables.cards[c].id for c in missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise SaveError(f"decks: {len(missing)} card(s) are nowhere ({ids}); each must be in a deck, the market, a panorama or the stack")


def _tokens(g: GameState, f: Facts) -> None:
    """Influence per player, workers per colour and the market slots that carry them."""
    tides = g.config.tides_of_trade
    for k, p in enumerate(g.players):
        ai = g.solo is not None and k == AI
        total = AI_SUPPLY + 2 if ai else g.tables.content.player["influence"]  # the AI: unlimited supply, Yellow and Blue
        on_cards = g.market_inf.count(k)
        if p.supply + sum(p.guild) + on_cards + p.ink != total:
            raise SaveError(
                f"players[{k}].supply: supply {p.supply} + guilds {sum(p.guild)} + on cards {on_cards} + Ink Well {p.ink} must be "
                f"{total} influence, the {'solo AI' if ai else 'player'}'s total"
            )
        if not tides and (p.guild[RED] or p.ink or p.hourglass):
            raise SaveError(f"players[{k}]: red influence, the Ink Well and the hourglass belong to Tides of Trade (config.tides_of_trade)")
    if g.ink_assets and not g.ink_used:
        raise SaveError("ink_assets: the Ink Well's die ability is used only with ink_used")
    if not tides and (g.guild_used[RED] or g.ink_used):
        raise SaveError("guild_used: the red guild's ability and the Ink Well (ink_used) belong to Tides of Trade")
    colours = range(len(WORKER_COLOURS))
    workers = [0] * len(WORKER_COLOURS)
    for p in g.players:
        for c in colours:
            workers[c] += p.workers[c]
    slots = g.tables.slots
    for i in range(len(g.market)):
        bits, extra = g.market_workers[i], g.market_extra[i]
        if g.market[i] < 0 and (bits or g.market_placed[i] or extra or g.market_inf[i] >= 0):
            raise SaveError(
                f"market[{i}]: an empty slot carries influence or workers (market_inf, market_workers, market_placed, market_extra)"
            )
        if bits & ~f.worker_bits[i // slots]:
            row, allowed = ROWS[i // slots], f.worker_bits[i // slots]
            raise SaveError(f"market_workers[{i}]: the {row} row takes worker bits {allowed} (1 yellow, 2 blue, 4 green), got {bits}")
        if g.market_placed[i] & ~bits:
            raise SaveError(f"market_placed[{i}]: must name workers on that card ({bits}), got {g.market_placed[i]}")
        for c in colours:
            workers[c] += bits >> c & 1
        if extra:
            _extras(g, i, extra)
            for c in colours:
                workers[c] += extra_on(extra, c)
    workers[GREEN_WORKER] += sum(g.green)
    start = g.tables.content.player["workers"]
    want = [g.n * start.count(name) for name in WORKER_COLOURS]
    want[GREEN_WORKER] = g.tables.content.player["green_workers"]
    for c, name in enumerate(WORKER_COLOURS):
        if workers[c] != want[c]:
            places = "players' supplies, market cards" + (", journal" if c == GREEN_WORKER else "")
            raise SaveError(f"players[*].workers[{c}]: the game has {want[c]} {name} workers, got {workers[c]} ({places})")


def _extras(g: GameState, i: int, extra: int) -> None:
    """Second and later workers of a colour on a card: only Tides of Trade's never-blocked worker tile
    puts them there (ToT l.233), so they need a card with that colour's first worker, a player with
    such a tile, and the current player's where one was placed this turn (no one else places now)."""
    if not g.config.tides_of_trade:
        raise SaveError(
            f"market_extra[{i}]: must be 0 in a base game (a second worker of a colour on a card needs Tides of Trade's "
            f"never-blocked worker tile), got {extra}"
        )
    bits, placed = g.market_workers[i], g.market_placed[i]
    for c, name in enumerate(WORKER_COLOURS):
        on, now = extra_on(extra, c), extra_placed(extra, c)
        if not on and not now:
            continue
        if not bits >> c & 1:
            raise SaveError(f"market_extra[{i}]: {on} more {name} worker(s) on a card whose market_workers ({bits}) shows no {name} one")
        if now > on or (now and not placed >> c & 1):
            raise SaveError(
                f"market_extra[{i}]: {now} more {name} worker(s) placed this turn need as many more on the card ({on}) "
                f"and the {name} bit of market_placed ({placed})"
            )
        who = [g.players[g.current]] if placed >> c & 1 else g.players
        if not any(never_blocked(g, p, c) for p in who):
            whose = f"the current player's ({g.current}, who placed one this turn)" if placed >> c & 1 else "a player's"
            raise SaveError(
                f"market_extra[{i}]: {on + 1} {name} workers on one card need a never-blocked worker tile under {name} "
                f"in {whose} worker caravan (ToT l.233)"
            )


def _tiles(g: GameState) -> None:
    t = g.tables
    out = Counter(d for p in g.players for d, *_ in p.tiles)
    out.update(g.solo.tiles if g.solo is not None else ())
    for frame in g.stack:
        out.update(d for d, _i in held(frame, "tile"))
    for d, design in enumerate(t.designs):
        start = 1 if design.kind == "special" else g.n * t.content.copies_per_player
        if g.tile_supply[d] + out[d] != start:
            raise SaveError(
                f"tile_supply[{d}]: {design.id} has {g.tile_supply[d]} in supply and {out[d]} taken; the box holds {start} "
                f"for {g.n} players"
            )


def _journal(g: GameState) -> None:
    t = g.tables
    tiles = [g.node_tile[v] for v in t.tile_nodes]
    if sorted(tiles) != list(range(len(t.content.journal_tiles))):
        raise SaveError(f"node_tile: the journal tiles must lie one on each tile node {list(t.tile_nodes)}, got {tiles}")
    for v, tile in enumerate(g.node_tile):
        if tile >= 0 and not t.nodes[v].takes_tile:
            raise SaveError(f"node_tile[{v}]: node {t.nodes[v].id} takes no journal tile, got {tile}")
    finals = [k for k, p in enumerate(g.players) if t.nodes[p.node].final]
    for k in finals:
        if any(g.players[j].node == g.players[k].node for j in finals if j < k):
            raise SaveError(f"players[{k}].node: final space {t.nodes[g.players[k].node].id} is taken; one marker per final space")
    if g.end_trigger >= 0 and g.end_trigger not in finals:
        raise SaveError(f"end_trigger: player {g.end_trigger} ended the game, so must stand on a final journal space")
    if g.end_trigger < 0 and finals:
        raise SaveError(f"end_trigger: must be a seat: player {finals[0]} stands on a final journal space")
    if g.final_turns >= 0 and g.end_trigger < 0:
        raise SaveError(f"final_turns: must be -1 while no one has ended the game (end_trigger -1), got {g.final_turns}")
    if g.final_turns == 0 and not g.over:
        raise SaveError("over: must be true once final_turns reaches 0")
    if not g.over and g.turn >= g.config.max_turns:
        raise SaveError(f"turn: must be below config.max_turns ({g.config.max_turns}) in a game not over, got {g.turn}")
    if g.over and g.end_trigger < 0 and g.turn < g.config.max_turns:
        raise SaveError(f"over: a game no one ended on the journal is over only at config.max_turns ({g.config.max_turns}) turns")


def _tides(g: GameState) -> None:
    """Tides of Trade's pieces: each trader tile, worker-tile half and Overseer in one place."""
    t = g.tables
    tides = t.content.tides
    if tides is None:
        for k, p in enumerate(g.players):
            if p.overseer >= 0:
                raise SaveError(f"players[{k}].overseer: the Market under which Overseers lie is Tides of Trade's")
        if g.boxed:
            raise SaveError("boxed: only Tides of Trade's dismissed Overseers leave the game")
        return
    for k, tr in enumerate(tides.traders):
        copies = tr.copies if g.n >= 3 else 1
        employed = sum(p.trader == k for p in g.players) + sum(type(f) is TraderArrives and f.trader == k for f in g.stack)
        below = g.solo.traders_below.count(k) if g.solo is not None else 0  # a solo game's, out of play
        if g.traders[k] + employed + below != copies:
            raise SaveError(
                f"traders[{k}]: {tr.id} has {copies} tile(s) with {g.n} players: {g.traders[k]} waiting + {employed} on Markets"
                + (f" + {below} below the extensions" if below else "")
            )
    per = 2 if g.config.solo else g.n  # halves per stack: one per player, two in a solo game
    seen: dict[int, str] = {}

    def put(half: int, where: str, want: str) -> None:
        if tides.halves[half].half != want:
            raise SaveError(f"{where}: must be a {want} half, got {tides.halves[half].id}")
        if half in seen:
            raise SaveError(f"{where}: {tides.halves[half].id} is also at {seen[half]}; every half exists once")
        seen[half] = where

    for i, stack in enumerate(g.worker_stacks):
        want = "top" if i < tides.stacks else "bottom"
        pair = g.worker_stacks[i - tides.stacks] if want == "bottom" else g.worker_stacks[i + tides.stacks]
        if len(stack) > per or len(stack) != len(pair):
            raise SaveError(f"worker_stacks[{i}]: at most {per} halves, as many as the stack it lines up with, got {len(stack)}")
        for j, half in enumerate(stack):
            put(half, f"worker_stacks[{i}][{j}]", want)
    for s, frame in enumerate(g.stack):
        if type(frame) is WorkerColumn:
            put(frame.top, f"stack[{s}][1]", "top")
            put(frame.bottom, f"stack[{s}][2]", "bottom")
    for i, (top, bottom) in enumerate(g.solo.worker_tiles if g.solo is not None else ()):
        put(top, f"solo.worker_tiles[{i}][0]", "top")
        put(bottom, f"solo.worker_tiles[{i}][1]", "bottom")
    for k, p in enumerate(g.players):
        for c, (top, bottom) in enumerate(p.worker_tiles):
            if (top < 0) != (bottom < 0):
                raise SaveError(f"players[{k}].worker_tiles[{c}]: a top and a bottom half together, or [-1, -1]")
            if top >= 0:
                put(top, f"players[{k}].worker_tiles[{c}][0]", "top")
                put(bottom, f"players[{k}].worker_tiles[{c}][1]", "bottom")
        if p.overseer >= 0 and not t.cards[p.overseer].is_overseer:
            raise SaveError(f"players[{k}].overseer: must be an Overseer card, got {t.cards[p.overseer].id}")
    for i, card in enumerate(g.boxed):
        if not t.cards[card].is_overseer:
            raise SaveError(f"boxed[{i}]: only dismissed Overseers leave the game, got {t.cards[card].id}")


def _solo(g: GameState) -> None:
    """The solo AI's caravan cells follow from its tiles (each goes to the first place along the
    winding path where it fits), and only the human decides: ``current`` is seat 0 in a live game.

    A Tides of Trade worker tile also lies on that caravan (a 1x2 tile), but the save does not say
    when it came among the upgrade tiles, which decides where each lies: with worker tiles, only the
    number of covered cells is bounded (each tile covers its length in cells, or none beside the board)."""
    solo = g.solo
    if solo is None:
        return
    designs = g.tables.designs
    if solo.worker_tiles:
        most = sum(max(designs[d].width, designs[d].height) for d in solo.tiles) + 2 * len(solo.worker_tiles)
        if solo.cells.bit_count() > most:
            raise SaveError(
                f"solo.cells: its {len(solo.tiles)} tiles and {len(solo.worker_tiles)} worker tiles cover at most {most} cells, "
                f"got {solo.cells.bit_count()} ({solo.cells})"
            )
    else:
        cells = 0
        for d in solo.tiles:
            cells |= ai_footprint(cells, designs[d].width, designs[d].height)
        if solo.cells != cells:
            raise SaveError(
                f"solo.cells: must be {cells}, the cells its tiles {solo.tiles} cover along the AI board's path, got {solo.cells}"
            )
    if not g.over and g.current != HUMAN:
        raise SaveError(f"current: must be {HUMAN} in a live solo game (the AI only ever asks the human), got {g.current}")


# decisions asked on the way of another one, which waits under them: the Trade guild's change
# (during the turn's choice or a die's space choice), a payment, and the Ink Well's capture (during
# the turn's choice) with its fee
_ON_THE_WAY = (TradeGuild, Payment, Capture, Fee)


def _stack(g: GameState) -> None:
    stack = g.stack
    if g.over:
        if stack:
            raise SaveError(f"stack: must be empty in a game that is over, got {len(stack)} frame(s)")
        return
    if not stack:
        raise SaveError("stack: must hold the decision being asked in a game not over, got []")
    p = g.players[g.current]
    top = len(stack) - 1
    for s, frame in enumerate(stack):
        where = f"stack[{s}] ({RULES[type(frame)].name})"
        under = all(type(f) in _ON_THE_WAY for f in stack[s + 1 :])  # only decisions asked on the way lie above it
        if s < top and not FRAMES[type(frame)].waits and not under:
            raise SaveError(f"{where}: only an effect, science_guild or trader_arrives frame waits under another decision")
        rule = _RULES.get(type(frame))
        if rule is not None:
            rule(g, p, stack, s, where)
    _top_decision(g, stack[top], f"stack[{top}] ({RULES[type(stack[top])].name})")


def _top_decision(g: GameState, top: Any, where: str) -> None:
    """The engine settles what needs no decision before it stops, so a saved top frame is a
    real decision with at least one legal action."""
    rule = RULES[type(top)]
    if rule.settle is not None:
        probe = g.clone()  # settling pops the frame
        if rule.settle(probe, probe.stack[-1]):
            raise SaveError(f"{where}: the engine settles this {rule.name} frame by itself (nothing to decide), so it is never asked")
    if not rule.legal(g, top):
        raise SaveError(f"{where}: this decision has no legal action in the saved position")


def _die_in_supply(g, p, stack, s, where) -> None:
    d = stack[s].die
    if d >= 0 and p.dice_loc[d] != SUPPLY:
        raise SaveError(f"{where}: die {d} of the current player must be in the supply, its location is {p.dice_loc[d]}")


def _rule_turn(g, p, stack, s, where) -> None:
    if s != 0:
        raise SaveError(f"{where}: the turn's main-action choice lies only at the bottom of the stack")


def _rule_yellow(g, p, stack, s, where) -> None:
    die = stack[s].die
    below = stack[s - 1] if s > 0 else None
    right = type(below) is Turn if die < 0 else type(below) is DieSpace and below.die == die
    if not right:
        what = "the turn's choice" if die < 0 else f"the die-space choice of die {die}"
        raise SaveError(f"{where}: the Trade guild's change lies right on {what}, got {below!r} below it")
    if die >= 0 and p.dice_loc[die] != SUPPLY:
        raise SaveError(f"{where}: die {die} of the current player must be in the supply, its location is {p.dice_loc[die]}")


def _rule_inf_source(g, p, stack, s, where) -> None:
    on_card, target = stack[s]
    if on_card == 0 and target >= len(GUILDS):
        raise SaveError(f"{where}: a guild target is 0..{len(GUILDS) - 1}, got {target}")
    if on_card == 2 and (target != 0 or not ink_well_takes_influence(g)):
        raise SaveError(f"{where}: the Ink Well is target 0, and takes card influence only with Tides of Trade's setting allowing it")
    if on_card == 1 and (g.market[target] < 0 or g.market_inf[target] >= 0):
        raise SaveError(f"{where}: market slot {target} must hold a card without influence")


def _rule_fee(g, p, stack, s, where) -> None:
    owner, then = stack[s]
    if owner == g.current:
        raise SaveError(f"{where}: the fee goes to an opponent, got the current player {owner}")
    slots = g.tables.slots
    if isinstance(then, CaptureFrom):
        if then.owner != owner or g.players[owner].workers[then.colour] < 1 or not g.config.tides_of_trade:
            raise SaveError(f"{where}: a capture takes a worker of colour {then.colour} from player {owner}'s supply (Tides of Trade)")
        return
    if isinstance(then, TakeCard):
        i, colour = then.row * slots + then.slot, -1
    else:
        i, colour = then.spot, then.colour
    if g.market[i] < 0 or g.market_inf[i] != owner:
        raise SaveError(f"{where}: market slot {i} must hold a card with player {owner}'s influence")
    bit = 1 << colour if colour >= 0 else 0
    takes = facts_for(g.tables).worker_bits[i // slots] & bit
    blocked = g.market_workers[i] & bit and not never_blocked(g, p, colour)
    if isinstance(then, PlaceWorker) and (p.workers[colour] < 1 or blocked or not takes):
        raise SaveError(f"{where}: the current player must have a worker of colour {colour} and slot {i} must take it")
    free = (g.market_workers[i] & ~g.market_placed[i] | free_extras(g.market_extra[i])) & bit
    if isinstance(then, TakeBackWorker) and not free:
        raise SaveError(f"{where}: slot {i} must hold a worker of colour {colour} placed before this turn")


def _rule_draw(g, p, stack, s, where) -> None:
    row = stack[s].row
    f = facts_for(g.tables)
    for card, _i in held(stack[s], "card"):
        if f.row_of[card] != row:
            raise SaveError(f"{where}: card {card} must come from the {ROWS[row]} deck drawn from")


def _rule_reroll(g, p, stack, s, where) -> None:
    for d in stack[s].dice:
        if p.dice_loc[d] != SUPPLY:
            raise SaveError(f"{where}: die {d} of the current player must be in the supply, its location is {p.dice_loc[d]}")


def _rule_worker(g, p, stack, s, where) -> None:
    colour = stack[s].colour
    if p.workers[colour] < 1:
        raise SaveError(f"{where}: the current player has no worker of colour {colour} to place")


def _rule_hourglass_saving(g, p, stack, s, where) -> None:
    src = stack[s].source
    t = g.tables
    link = t.link.get((src, p.node))
    cost = link.cost[g.sides[link.section - 1]] if link is not None else None
    if not g.config.tides_of_trade or cost is None or sum(1 for n in cost_need(cost)[2] if n) < 2:
        raise SaveError(
            f"{where}: the marker (node {t.nodes[p.node].id}) must have crossed from node {src} over a splotch costing two "
            "colours of influence, in a Tides of Trade game"
        )


def _rule_ai_turn(g, p, stack, s, where) -> None:
    """The AI's turn settles inside the engine, so a save holds it only where it waits: at the bottom,
    under the human's let-or-deny. Its first step ("start") has run by then, a pending reveal has a
    card to draw (there is at most one), a pending scheme action is the card just revealed, and what
    the AI's turn clears (per-turn flags, cards acquired, the bonuses owed) is clear."""
    if s != 0 or len(stack) != 2 or type(stack[1]) is not AiWants:
        raise SaveError(f"{where}: the AI's turn is settled by the engine; it waits only at the bottom of the stack under an ai_wants")
    solo = g.solo
    names = [step[0] for step in stack[s].steps]
    if "start" in names:
        raise SaveError(f"{where}: a 'start' step runs before the AI wants anything; it is never pending under an ai_wants")
    if names.count("reveal") > (1 if solo.draw else 0):
        raise SaveError(f"{where}: at most one 'reveal' step waits, and only with scheme cards in solo.draw ({len(solo.draw)})")
    for step in stack[s].steps:
        if step[0] == "act" and (not solo.shown or step[1] != solo.shown[-1]):
            raise SaveError(f"{where}: an 'act' step resolves the scheme card just revealed (solo.shown[-1]), got {step[1]}")
    if solo.bonus_due:
        raise SaveError(f"solo.bonus_due: must be 0 during the AI's turn (it gains them first), got {solo.bonus_due}")
    if any(g.guild_used) or g.ink_used or g.ship_hired or g.ink_assets or any(q.acquired for q in g.players):
        raise SaveError(
            "guild_used: the AI's turn starts with the turn's flags cleared (guild_used, ink_used, ship_hired, "
            "ink_assets, acquired) and sets none"
        )


def _rule_ai_wants(g, p, stack, s, where) -> None:
    """The human decides whether the AI may have its first choice not yet denied: a card the human
    influenced. Each denied card was, in order, the AI's first choice then; the AI has the worker it
    would place."""
    if s != 1 or type(stack[0]) is not AiTurn:
        raise SaveError(f"{where}: the AI's wants lie right on the AI's turn (ai_turn) at the bottom of the stack")
    step, denied = stack[s]
    choices = [i for i, _colour in ai_candidates(g, step)]
    for j in range(len(denied) + 1):
        first = next((i for i in choices if i not in denied[:j]), None)
        if j < len(denied) and first != denied[j]:
            raise SaveError(f"{where}: denied[{j}] must be {first}, the AI's choice after the cards denied before it, got {denied[j]}")
        if first is None or g.market_inf[first] != HUMAN:
            what = "nothing" if first is None else f"market slot {first} with influence {g.market_inf[first]}"
            raise SaveError(f"{where}: the AI's choice must be a card with the human's influence (market_inf {HUMAN}), got {what}")
    if step[0] == "worker" and g.players[AI].workers[step[1]] < 1:
        raise SaveError(f"{where}: the AI has no worker of colour {step[1]} to place")


_RULES = {
    AiTurn: _rule_ai_turn,
    AiWants: _rule_ai_wants,
    HourglassSaving: _rule_hourglass_saving,
    Turn: _rule_turn,
    CaravanChain: _die_in_supply,
    DieSpace: _die_in_supply,
    TradeGuild: _rule_yellow,
    InfluenceSource: _rule_inf_source,
    Fee: _rule_fee,
    DrawKeep: _rule_draw,
    DrawOrder: _rule_draw,
    RestReroll: _rule_reroll,
    WorkerTarget: _rule_worker,
}
