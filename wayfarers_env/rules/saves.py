"""Saving and loading a game: ``state_to_dict`` writes the whole state as plain JSON-able data,
``state_from_dict`` reads it back exactly (frames as ``[kind, *fields]``, effect trees in the
grammar's text). Loading raises ValueError naming the first field that is wrong.
"""

from __future__ import annotations

import random
from typing import Any

from wayfarers_env.content import effects
from wayfarers_env.rules import frames
from wayfarers_env.rules.config import GameConfig
from wayfarers_env.rules.state import GameState, PlayerState, recompute_caravan
from wayfarers_env.rules.tables import tables_for

SCHEMA_VERSION = 1


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


def frame_from_list(value: Any) -> Any:
    """Inverse of frame_to_list; ValueError for an unknown kind or wrong parameters."""
    if not isinstance(value, list) or not value or type(value[0]) is not int or not 0 <= value[0] < len(frames.BY_KIND):
        raise ValueError(f"a saved frame is [kind 0..{len(frames.BY_KIND) - 1}, parameters...], got {value!r}")
    rule = frames.BY_KIND[value[0]]
    params = tuple(_dec(v) for v in value[1:])
    try:
        return rule.load(params)
    except (TypeError, KeyError, ValueError) as exc:
        raise ValueError(f"a saved {rule.name!r} frame has malformed parameters {value[1:]!r}: {exc}") from None


def _dec(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"effect"}:
        return effects.parse(value["effect"])
    if isinstance(value, list):
        return tuple(_dec(v) for v in value)
    return value


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
            }
            for p in g.players
        ],
        "market": g.market[:],
        "market_inf": g.market_inf[:],
        "market_workers": g.market_workers[:],
        "market_placed": g.market_placed[:],
        "decks": [d[:] for d in g.decks],
        "known": [k[:] for k in g.known],
        "tile_supply": g.tile_supply[:],
        "node_tile": g.node_tile[:],
        "green": g.green[:],
        "current": g.current,
        "turn": g.turn,
        "guild_used": g.guild_used[:],
        "ship_hired": g.ship_hired,
        "end_trigger": g.end_trigger,
        "final_turns": g.final_turns,
        "over": g.over,
        "stack": [frame_to_list(f) for f in g.stack],
        "decisions": g.decisions,
    }


def state_from_dict(d: dict[str, Any]) -> GameState:
    """Inverse of state_to_dict. Raises ValueError naming the first field that is wrong."""
    if not isinstance(d, dict):
        raise ValueError(f"a saved game must be a dict, got {type(d).__name__}")
    if d.get("schema_version") != SCHEMA_VERSION:
        raise ValueError(f"saved game has schema_version {d.get('schema_version')!r}; this version reads {SCHEMA_VERSION}")
    try:
        config = GameConfig.from_dict(d["config"])
        t = tables_for(config.content_options)
        g = GameState.__new__(GameState)
        g.config, g.tables, g.n = config, t, config.num_players
        g.rng = random.Random()
        r = d["rng"]
        g.rng.setstate((r[0], tuple(r[1]), r[2]))
        g.sides = tuple("ab".index(s) for s in d["sides"])
        g.players = []
        for pd in d["players"]:
            p = PlayerState(t.dice)
            p.silver, p.provisions, p.supply = int(pd["silver"]), int(pd["provisions"]), int(pd["supply"])
            p.guild = list(pd["guild"])
            p.dice_face = list(pd["dice_face"])
            p.dice_loc = list(pd["dice_loc"])
            p.workers = list(pd["workers"])
            p.node = int(pd["node"])
            p.land = list(pd["land"])
            p.water = list(pd["water"])
            p.above = {int(k): int(v) for k, v in pd["above"]}
            p.tucked = {int(k): int(v) for k, v in pd["tucked"]}
            p.inspired = {int(k): int(v) for k, v in pd["inspired"]}
            p.tiles = [tuple(tile) for tile in pd["tiles"]]
            p.cells = int(pd["cells"])
            p.board = int(pd["board"])
            p.counts = list(pd["counts"])
            p.acquired = list(pd["acquired"])
            recompute_caravan(t, p)
            g.players.append(p)
        for name in (
            "market",
            "market_inf",
            "market_workers",
            "market_placed",
            "tile_supply",
            "node_tile",
            "green",
            "guild_used",
        ):
            setattr(g, name, list(d[name]))
        g.decks = [list(x) for x in d["decks"]]
        g.known = [list(x) for x in d["known"]]
        g.current, g.turn = int(d["current"]), int(d["turn"])
        g.ship_hired = bool(d["ship_hired"])
        g.end_trigger, g.final_turns, g.over = int(d["end_trigger"]), int(d["final_turns"]), bool(d["over"])
        g.stack = [frame_from_list(f) for f in d["stack"]]
        g.decisions = int(d["decisions"])
        g.space_memo = {}
        g.seat_ver = [0] * g.n
        g.board_ver = 0
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"saved game is missing or has a malformed field: {exc!r}") from None
    if len(g.players) != g.n:
        raise ValueError(f"saved game lists {len(g.players)} players but its config says {g.n}")
    return g
