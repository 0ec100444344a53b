"""Saving and loading a game: ``state_to_dict`` writes the whole state as plain JSON-able data,
``state_from_dict`` reads it back exactly (frames as ``[kind, *fields]``, effect trees in the
grammar's text). Loading raises ValueError naming the first field that is wrong.
"""

from __future__ import annotations

from typing import Any

from wayfarers_env.content import effects
from wayfarers_env.rules import frames, save_check, save_consistency
from wayfarers_env.rules.solo import SoloState
from wayfarers_env.rules.state import GameState, PlayerState, recompute_caravan

# 2: four guilds (Tides of Trade's red) and the expansion's config fields; 3: market_extra; 4: "solo", the solo AI's
# pieces beyond its seat (null in other games), without which a solo game could not be saved at all
SCHEMA_VERSION = 4


def _enc(value: Any) -> Any:
    if isinstance(value, (effects.Atom, effects.Seq, effects.Choice, effects.Cost, effects.Repeat)):
        return {"effect": effects.to_text(value)}
    tag = frames.SAVED_AS.get(type(value))
    if tag is not None:  # a nested record saved under its name (e.g. what an influence fee is paid for)
        return [tag, *(_enc(v) for v in value)]
    if isinstance(value, tuple):
        return [_enc(v) for v in value]
    return value


def frame_to_list(frame: Any) -> list[Any]:
    """A frame as saved: its kind number, then its fields."""
    return [frames.kind_of(frame), *(_enc(v) for v in frame)]


def state_to_dict(g: GameState) -> dict[str, Any]:
    rng_state = g.rng.getstate()
    return {
        "schema_version": SCHEMA_VERSION,
        "config": g.config.to_dict(),
        "rng": [rng_state[0], list(rng_state[1]), rng_state[2]],
        "sides": "".join("ab"[s] for s in g.sides),
        "players": [
            {
                "silver": p.silver,
                "provisions": p.provisions,
                "supply": p.supply,
                "guild": p.guild[:],
                "dice_face": p.dice_face[:],
                "dice_loc": p.dice_loc[:],
                "workers": p.workers[:],
                "node": p.node,
                "land": p.land[:],
                "water": p.water[:],
                "above": [[k, v] for k, v in p.above.items()],
                "tucked": [[k, v] for k, v in p.tucked.items()],
                "inspired": [[k, v] for k, v in p.inspired.items()],
                "tiles": [list(tile) for tile in p.tiles],
                "cells": p.cells,
                "board": p.board,
                "counts": p.counts[:],
                "acquired": p.acquired[:],
                "ink": p.ink,
                "hourglass": p.hourglass,
                "trader": p.trader,
                "overseer": p.overseer,
                "worker_tiles": [list(pair) for pair in p.worker_tiles],
            }
            for p in g.players
        ],
        "market": g.market[:],
        "market_inf": g.market_inf[:],
        "market_workers": g.market_workers[:],
        "market_placed": g.market_placed[:],
        "market_extra": g.market_extra[:],
        "decks": [d[:] for d in g.decks],
        "known": [k[:] for k in g.known],
        "tile_supply": g.tile_supply[:],
        "node_tile": g.node_tile[:],
        "green": g.green[:],
        "current": g.current,
        "turn": g.turn,
        "guild_used": g.guild_used[:],
        "ink_used": g.ink_used,
        "ship_hired": g.ship_hired,
        "ink_assets": g.ink_assets,
        "extension_sides": "".join("ab"[s] for s in g.ext_sides),
        "traders": g.traders[:],
        "worker_stacks": [s[:] for s in g.worker_stacks],
        "boxed": g.boxed[:],
        "solo": _solo_to_dict(g.solo),
        "end_trigger": g.end_trigger,
        "final_turns": g.final_turns,
        "over": g.over,
        "stack": [frame_to_list(f) for f in g.stack],
        "decisions": g.decisions,
    }


def _solo_to_dict(s: SoloState | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {
        "board": s.board,
        "track": s.track,
        "draw": s.draw[:],
        "shown": s.shown[:],
        "cards": s.cards[:],
        "tiles": s.tiles[:],
        "cells": s.cells,
        "worker_tiles": [list(pair) for pair in s.worker_tiles],
        "bonus_due": s.bonus_due,
        "traders_below": s.traders_below[:],
    }


def _solo_from_dict(d: dict[str, Any] | None) -> SoloState | None:
    if d is None:
        return None
    s = SoloState.__new__(SoloState)
    s.board, s.track, s.cells, s.bonus_due = d["board"], d["track"], d["cells"], d["bonus_due"]
    s.draw, s.shown, s.cards, s.tiles = list(d["draw"]), list(d["shown"]), list(d["cards"]), list(d["tiles"])
    s.worker_tiles = [(pair[0], pair[1]) for pair in d["worker_tiles"]]
    s.traders_below = list(d["traders_below"])
    return s


def state_from_dict(d: dict[str, Any]) -> GameState:
    """Inverse of state_to_dict. A save is outside data, so every field is checked first
    (rules/save_check.py) and a wrong one raises ValueError naming it, instead of an odd failure
    many moves later."""
    if not isinstance(d, dict):
        raise save_check.SaveError(f"a saved game must be a dict, got {type(d).__name__}")
    version = d.get("schema_version")
    if not save_check.is_int(version) or version != SCHEMA_VERSION:
        raise save_check.SaveError(f"schema_version: this version reads {SCHEMA_VERSION}, got {version!r}")
    checked = save_check.check_fields(d)
    t = checked.tables
    g = GameState.__new__(GameState)
    g.config, g.tables, g.n, g.rng = checked.config, t, checked.config.seats, checked.rng
    g.sides = tuple("ab".index(s) for s in d["sides"])
    g.players = []
    for pd in d["players"]:
        p = PlayerState(t.dice)
        p.silver, p.provisions, p.supply = pd["silver"], pd["provisions"], pd["supply"]
        p.guild = list(pd["guild"])
        p.dice_face = list(pd["dice_face"])
        p.dice_loc = list(pd["dice_loc"])
        p.workers = list(pd["workers"])
        p.node = pd["node"]
        p.land = list(pd["land"])
        p.water = list(pd["water"])
        p.above = {k: v for k, v in pd["above"]}
        p.tucked = {k: v for k, v in pd["tucked"]}
        p.inspired = {k: v for k, v in pd["inspired"]}
        p.tiles = [(tile[0], tile[1], tile[2], tile[3]) for tile in pd["tiles"]]
        p.cells = pd["cells"]
        p.board = pd["board"]
        p.counts = list(pd["counts"])
        p.acquired = list(pd["acquired"])
        p.ink = pd["ink"]
        p.hourglass = pd["hourglass"]
        p.trader, p.overseer = pd["trader"], pd["overseer"]
        p.worker_tiles = [(pair[0], pair[1]) for pair in pd["worker_tiles"]]
        recompute_caravan(t, p)
        g.players.append(p)
    market = ("market", "market_inf", "market_workers", "market_placed", "market_extra")
    for name in (*market, "tile_supply", "node_tile", "green", "guild_used"):
        setattr(g, name, list(d[name]))
    g.decks = [list(x) for x in d["decks"]]
    g.known = [list(x) for x in d["known"]]
    g.current, g.turn = d["current"], d["turn"]
    g.ship_hired = d["ship_hired"]
    g.ink_assets = d["ink_assets"]
    g.ink_used = d["ink_used"]
    g.ext_sides = tuple("ab".index(s) for s in d["extension_sides"])
    g.traders = list(d["traders"])
    g.worker_stacks = [list(x) for x in d["worker_stacks"]]
    g.boxed = list(d["boxed"])
    g.end_trigger, g.final_turns, g.over = d["end_trigger"], d["final_turns"], d["over"]
    g.stack = checked.stack
    g.decisions = d["decisions"]
    g.space_memo = {}
    g.seat_ver = [0] * g.n
    g.board_ver = 0
    g.solo = _solo_from_dict(d["solo"])
    save_consistency.check_state(g)
    return g
