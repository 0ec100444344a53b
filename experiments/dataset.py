"""``wayfarers dataset``: bot games recorded as (observation, mask, action, outcome) for imitation.

The games are ``wayfarers simulate``'s (``tournament.schedule``: the same deals, seatings and bot
generators for the same ``--players`` and ``--seed``), so dataset game i is simulate's game i and
the file is the same for any ``--workers``. At every decision of a recorded seat the row holds
what the AEC env (``wayfarers_v4``) would give that seat: the observation the env's ``Encoder``
builds from the true game for that seat, and the mask of the legal actions; where the seat's bot
valued every candidate before choosing (the lookahead bots), those values too, for ``imitate
--soft``.

Why the file looks as it does (docs/TRAINING.md has the measurements): an observation is 9,633
float32 (38.5 KB) of which about 470 are non-zero and only a few hundred distinct values occur
in a whole run. Rows are therefore stored sparse (CSR: a row pointer, uint16 column indices) with
each value as a code into a table of the run's distinct values, masks as bits, and the lot in one
``np.savez_compressed`` archive: about 40 bytes a decision, lossless. Training keeps the same CSR
arrays in memory and densifies one batch at a time (``Dataset.observations``), so a file of 100k
decisions needs a few hundred MB, not the 3.8 GB its dense form would.
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
from tqdm import tqdm

from agents.base import choose
from agents.registry import UnknownBotError
from wayfarers_env import ConfigError, Game, GameConfig
from wayfarers_env.envs.aec import final_rewards
from wayfarers_env.envs.observation import OBS_SIZE, Encoder
from wayfarers_env.rules.actions import NUM_ACTIONS

from .cli import UsageError, game_options
from .tournament import MAX_DECISIONS, GameSpec, _bot, play_games, schedule

FORMAT = "wayfarers-imitation-dataset"
VERSION = 1
ENV_NAME = "wayfarers_v4"  # the AEC env whose observation and mask the rows hold
MASK_BYTES = (NUM_ACTIONS + 7) // 8
ROW_ARRAYS = ("game", "seat", "action", "reward", "margin", "remaining")  # one value per decision
ARRAYS = (*ROW_ARRAYS, "obs_ptr", "obs_col", "obs_code", "obs_values", "mask_bits", "game_actions_ptr", "game_actions")
# the recorded bot's value of each candidate, where it valued them (lookahead bots; CSR over the rows).
# Optional members: a file without them (written before they existed) loads with none
SOFT_ARRAYS = ("soft_ptr", "soft_action", "soft_value")


class DatasetError(UsageError):
    """A dataset file that cannot be used: missing, corrupt or truncated, or of another format or
    observation; the message names the file and the problem."""


# ----------------------------------------------------------------------------- in memory


@dataclass
class Dataset:
    """Decisions of recorded seats. Row arrays are aligned; observations are CSR over the rows
    (``obs_ptr``, ``obs_col``, value codes ``obs_code`` into ``obs_values``); ``games`` describes
    each game (seed, players, winners...) and ``game_actions`` holds every seat's actions, so a
    game can be replayed to check its rows."""

    meta: dict[str, Any]
    game: np.ndarray  # int32: index into meta["games"]
    seat: np.ndarray  # uint8
    action: np.ndarray  # uint16: the action the seat's bot took (the label)
    reward: np.ndarray  # float32: the seat's final reward in the env's "win" units (+1 win, -1 loss, 1/k shared)
    margin: np.ndarray  # float32: own VP minus the best other seat's VP at the end
    remaining: np.ndarray  # uint32: this seat's decisions after this one (the discount exponent)
    obs_ptr: np.ndarray  # int64, len + 1
    obs_col: np.ndarray  # uint16
    obs_code: np.ndarray  # uint16 or uint32
    obs_values: np.ndarray  # float32: the distinct observation values
    mask_bits: np.ndarray  # uint8 (len, MASK_BYTES): np.packbits of the int8 mask
    game_actions_ptr: np.ndarray  # int64, games + 1
    game_actions: np.ndarray  # uint16: every decision of every game, all seats
    soft_ptr: np.ndarray  # int64, len + 1: each row's candidates in soft_action / soft_value (none: by rule)
    soft_action: np.ndarray  # uint16: a candidate the bot valued
    soft_value: np.ndarray  # float32: its value in VP (a lookahead bot sums its worlds if it samples several; rollout: the mean)

    def __len__(self) -> int:
        return int(self.action.shape[0])

    @property
    def games(self) -> list[dict[str, Any]]:
        return self.meta["games"]

    def observations(self, rows: np.ndarray) -> np.ndarray:
        """Dense float32 observations of ``rows`` (any order), as the env gave them."""
        rows = np.asarray(rows, dtype=np.int64)
        starts, ends = self.obs_ptr[rows], self.obs_ptr[rows + 1]
        lens = ends - starts
        out = np.zeros((len(rows), OBS_SIZE), np.float32)
        total = int(lens.sum())
        if total:
            first = np.cumsum(lens) - lens  # where each row's entries start in the gathered arrays
            pos = np.arange(total) - np.repeat(first, lens) + np.repeat(starts, lens)
            out[np.repeat(np.arange(len(rows)), lens), self.obs_col[pos]] = self.obs_values[self.obs_code[pos]]
        return out

    def masks(self, rows: np.ndarray) -> np.ndarray:
        """Boolean masks of ``rows`` (True: legal)."""
        bits = self.mask_bits[np.asarray(rows, dtype=np.int64)]
        return np.unpackbits(bits, axis=1, count=NUM_ACTIONS).astype(bool)

    def legal_counts(self) -> np.ndarray:
        """Legal actions at each decision (for the masked-uniform baseline)."""
        table = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).sum(1)
        return table[self.mask_bits].sum(1)

    def soft_targets(self, rows: np.ndarray, temperature: float) -> np.ndarray:
        """Dense float32 target distributions of ``rows``: where the bot valued the candidates, a
        softmax of their values over ``temperature`` (VP); elsewhere all on the recorded action.
        Why: the label says only which action won, the values say by how much, and how the others
        rank, which is what a clone must learn on the choices the bot makes by looking ahead."""
        rows = np.asarray(rows, dtype=np.int64)
        out = np.zeros((len(rows), NUM_ACTIONS), np.float32)
        for i, r in enumerate(rows.tolist()):
            a, b = int(self.soft_ptr[r]), int(self.soft_ptr[r + 1])
            if b - a > 1:
                v = self.soft_value[a:b].astype(np.float64) / temperature
                w = np.exp(v - v.max())
                out[i, self.soft_action[a:b]] = w / w.sum()
            else:
                out[i, self.action[r]] = 1.0
        return out

    def actions_of(self, g: int) -> list[int]:
        """Every action of game ``g`` in order (all seats)."""
        return self.game_actions[self.game_actions_ptr[g] : self.game_actions_ptr[g + 1]].astype(int).tolist()


@dataclass(frozen=True)
class Pieces:
    """An array of a file that is never held whole: its dtype, shape and, each time ``pieces()``
    is called, its contents in order, a piece at a time. Why: the observation columns and codes
    are 4 bytes a value, several GB for a few thousand games; concatenated, then serialised and
    compressed in memory, a 2,400-game run peaked at 11.5 GB (docs/TRAINING.md, "Memory while
    writing"). Streamed from the games' own arrays they cost nothing beyond those."""

    dtype: np.dtype
    shape: tuple[int, ...]
    pieces: Callable[[], Iterator[np.ndarray]]

    @staticmethod
    def of(array: np.ndarray) -> Pieces:
        """An array held whole, as one piece."""
        return Pieces(array.dtype, array.shape, lambda: iter((array,)))

    def whole(self) -> np.ndarray:
        parts = list(self.pieces())
        return np.concatenate(parts).astype(self.dtype, copy=False) if parts else np.zeros(self.shape, self.dtype)


def _columns(meta: dict[str, Any], parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The Dataset's fields from per-game parts (``record_game``'s output), in the order given:
    arrays, except the two largest (``obs_col``, ``obs_code``) as ``Pieces`` read from the parts."""
    games = [p["info"] for p in parts]
    n_rows = [len(p["action"]) for p in parts]
    lens = np.concatenate([p["obs_lens"] for p in parts]).astype(np.int64) if parts else np.zeros(0, np.int64)
    ptr = np.zeros(len(lens) + 1, np.int64)
    np.cumsum(lens, out=ptr[1:])
    # each game came with its own small table of values; one table for all, each game's codes mapped onto it
    values = np.unique(np.concatenate([p["obs_values"] for p in parts])) if parts else np.zeros(0, np.float32)
    code_type = np.dtype(np.uint16 if len(values) <= 2**16 else np.uint32)
    total = int(ptr[-1])

    def codes() -> Iterator[np.ndarray]:
        for p in parts:
            yield np.searchsorted(values, p["obs_values"]).astype(code_type)[p["obs_code"]]

    def cols() -> Iterator[np.ndarray]:
        for p in parts:
            yield np.asarray(p["obs_col"], np.uint16)

    actions = [np.asarray(p["game_actions"], np.uint16) for p in parts]
    soft = [pair for p in parts for pair in p["soft"]]
    sptr = np.zeros(len(soft) + 1, np.int64)
    np.cumsum([len(c) for c, _v in soft], out=sptr[1:])
    aptr = np.zeros(len(parts) + 1, np.int64)
    np.cumsum([len(a) for a in actions], out=aptr[1:])

    def cat(key: str, dtype: Any) -> np.ndarray:
        return np.concatenate([np.asarray(p[key], dtype) for p in parts]) if parts else np.zeros(0, dtype)

    return {
        "meta": {**meta, "games": games},
        "game": np.repeat(np.arange(len(parts), dtype=np.int32), n_rows),
        "seat": cat("seat", np.uint8),
        "action": cat("action", np.uint16),
        "reward": cat("reward", np.float32),
        "margin": cat("margin", np.float32),
        "remaining": cat("remaining", np.uint32),
        "obs_ptr": ptr,
        "obs_col": Pieces(np.dtype(np.uint16), (total,), cols),
        "obs_code": Pieces(code_type, (total,), codes),
        "obs_values": values.astype(np.float32),
        "mask_bits": np.concatenate([p["masks"] for p in parts]) if parts else np.zeros((0, MASK_BYTES), np.uint8),
        "game_actions_ptr": aptr,
        "game_actions": np.concatenate(actions) if actions else np.zeros(0, np.uint16),
        "soft_ptr": sptr,
        "soft_action": np.asarray([a for c, _v in soft for a in c], np.uint16),
        "soft_value": np.asarray([x for _c, v in soft for x in v], np.float32),
    }


def from_rows(meta: dict[str, Any], parts: list[dict[str, Any]]) -> Dataset:
    """A Dataset from per-game parts (``record_game``'s output), in the order given."""
    fields: dict[str, Any] = {k: v.whole() if isinstance(v, Pieces) else v for k, v in _columns(meta, parts).items()}
    return Dataset(**fields)


def save_rows(meta: dict[str, Any], parts: list[dict[str, Any]], path: Path) -> int:
    """Write the Dataset of ``parts`` to ``path`` (the bytes ``save(from_rows(meta, parts), path)``
    writes) without building it: the largest arrays go from the games' own arrays straight into
    the archive. Returns the number of decisions."""
    fields = _columns(meta, parts)
    _write(path, fields)
    return len(fields["action"])


def concat(datasets: list[Dataset]) -> Dataset:
    """Several datasets as one (their games renumbered after each other; the first's meta, with
    every game's source file kept in its ``file`` field)."""
    if len(datasets) == 1:
        return datasets[0]
    games: list[dict[str, Any]] = []
    parts: dict[str, list[np.ndarray]] = {k: [] for k in (*ARRAYS, *SOFT_ARRAYS) if k != "obs_values"}
    values = np.unique(np.concatenate([d.obs_values for d in datasets]))
    code_type = np.uint16 if len(values) <= 2**16 else np.uint32
    row_base = act_base = soft_base = 0
    for d in datasets:
        parts["game"].append(d.game + len(games))
        games += [{**g, "file": g.get("file", d.meta.get("file"))} for g in d.games]
        for k in ("seat", "action", "reward", "margin", "remaining", "obs_col", "mask_bits", "game_actions", "soft_action", "soft_value"):
            parts[k].append(getattr(d, k))
        parts["soft_ptr"].append(d.soft_ptr[:-1] + soft_base)
        soft_base += int(d.soft_ptr[-1])
        # each file's codes mapped in the final width: an int64 map over a file's hundreds of millions
        # of codes would take 8 bytes each (7 GB for 2,400 cartographer games) before the cast
        parts["obs_code"].append(np.searchsorted(values, d.obs_values).astype(code_type)[d.obs_code])
        parts["obs_ptr"].append(d.obs_ptr[:-1] + row_base)
        parts["game_actions_ptr"].append(d.game_actions_ptr[:-1] + act_base)
        row_base += int(d.obs_ptr[-1])
        act_base += int(d.game_actions_ptr[-1])
    return Dataset(
        meta={**datasets[0].meta, "games": games},
        obs_ptr=np.concatenate([*parts.pop("obs_ptr"), [row_base]]).astype(np.int64),
        game_actions_ptr=np.concatenate([*parts.pop("game_actions_ptr"), [act_base]]).astype(np.int64),
        soft_ptr=np.concatenate([*parts.pop("soft_ptr"), [soft_base]]).astype(np.int64),
        obs_code=np.concatenate(parts.pop("obs_code")),
        obs_values=values.astype(np.float32),
        **{k: np.concatenate(v) for k, v in parts.items()},
    )


# ----------------------------------------------------------------------------- recording


def outcome(game: Game) -> tuple[list[float], list[float]]:
    """Per seat: the env's "win" reward (+1 sole winner, 1/k each for k sharing, -1 otherwise) and
    the VP margin to the best other seat."""
    totals = [s["total"] for s in game.scores()]
    n = len(totals)
    margins = [float(totals[i] - max(totals[j] for j in range(n) if j != i)) for i in range(n)]
    return [float(r) for r in final_rewards(game, "win")], margins


class Recorder:
    """The rows of one game being played: ``observe`` before a recorded seat decides, ``close``
    once the game is over (the outcome and each row's remaining decisions are known only then)."""

    def __init__(self) -> None:
        self.encoder = Encoder()  # one per game, as the env keeps one per episode
        self.seat: list[int] = []
        self.action: list[int] = []
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.soft: list[tuple[list[int], list[float]]] = []

    def observe(self, game: Game, seat: int, legal: list[int]) -> None:
        obs = self.encoder.encode(game, seat)
        nz = np.flatnonzero(obs)
        self.cols.append(nz.astype(np.uint16))
        self.vals.append(obs[nz])
        mask = np.zeros(NUM_ACTIONS, np.uint8)
        mask[legal] = 1
        self.masks.append(np.packbits(mask))
        self.seat.append(seat)

    def label(self, action: int, values: tuple[list[int], list[float]] | None = None) -> None:
        """The recorded choice, and the bot's value of each candidate where it valued them."""
        self.action.append(action)
        self.soft.append(values if values is not None else ([], []))

    def _observations(self) -> dict[str, np.ndarray]:
        """The game's observations in the file's sparse form, coded against the game's own table of
        values. Why here: a game's rows as thousands of small arrays, sent back from a worker and
        merged for the whole run at the end, took some 10 GB per 1,000 games (2,400 cartographer
        games were killed for memory on a 24 GiB machine); coded per game they take 4 bytes a value."""
        cols = np.concatenate(self.cols) if self.cols else np.zeros(0, np.uint16)
        vals = np.concatenate(self.vals) if self.vals else np.zeros(0, np.float32)
        values, codes = np.unique(vals, return_inverse=True)
        return {
            "obs_lens": np.array([len(c) for c in self.cols], np.int32),
            "obs_col": cols,
            "obs_values": values.astype(np.float32),
            "obs_code": codes.reshape(-1).astype(np.uint16 if len(values) <= 2**16 else np.uint32),
        }

    def close(self, game: Game, info: dict[str, Any], actions: list[int]) -> dict[str, Any]:
        rewards, margins = outcome(game)
        later = [0] * game.state.n
        remaining = [0] * len(self.seat)
        for i in range(len(self.seat) - 1, -1, -1):
            remaining[i] = later[self.seat[i]]
            later[self.seat[i]] += 1
        return {
            "info": {**info, "decisions": len(actions), "finished": game.is_over, "winners": game.winners(), "rewards": rewards},
            "seat": self.seat,
            "action": self.action,
            "reward": [rewards[s] for s in self.seat],
            "margin": [margins[s] for s in self.seat],
            "remaining": remaining,
            **self._observations(),
            "masks": np.stack(self.masks) if self.masks else np.zeros((0, MASK_BYTES), np.uint8),
            "game_actions": actions,
            "soft": self.soft,
        }


def record_game(job: tuple[GameSpec, tuple[bool, ...]]) -> dict[str, Any]:
    """Play one scheduled game exactly as simulate does, recording the seats flagged in the job."""
    spec, recorded = job
    game = Game(spec.config, spec.seed)
    bots = [_bot(name) for name in spec.players]
    rngs = [random.Random(s) for s in spec.bot_seeds]
    rec = Recorder()
    actions: list[int] = []
    while not game.is_over and len(actions) < MAX_DECISIONS:
        seat = game.current_player
        if recorded[seat]:
            rec.observe(game, seat, game.legal_actions())
        action = choose(bots[seat], game, rngs[seat])
        if recorded[seat]:
            rec.label(action, getattr(bots[seat], "last_values", None))
        game.apply(action)
        actions.append(action)
    info = {"game": spec.index, "seed": spec.seed, "players": list(spec.players), "recorded": [s for s, r in enumerate(recorded) if r]}
    return rec.close(game, info, actions)


# ----------------------------------------------------------------------------- the file


def save(data: Dataset, path: Path) -> None:
    """Write ``data`` to ``path`` (see ``_write``)."""
    _write(path, {"meta": data.meta, **{k: getattr(data, k) for k in (*ARRAYS, *SOFT_ARRAYS)}})


def _write(path: Path, fields: dict[str, Any]) -> None:
    """Write a file's fields (``meta`` and every array, each an array or ``Pieces``) to ``path``
    through a temporary file beside it, so that an interrupted write never leaves a file that
    looks finished. The archive is what np.savez_compressed writes, except that every member has
    the same date, so a file's bytes depend on its games only (np.savez stamps the time of
    writing); each member is compressed as it is written, never held serialised in memory."""
    tmp = path.with_name(path.name + ".part")
    members: dict[str, Any] = {"meta": np.frombuffer(json.dumps(fields["meta"], separators=(",", ":")).encode(), np.uint8)}
    members.update((k, fields[k]) for k in (*ARRAYS, *SOFT_ARRAYS))
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
            for key, member in members.items():
                if not isinstance(member, Pieces):
                    member = Pieces.of(np.ascontiguousarray(member))
                dtype, shape, pieces = member.dtype, member.shape, member.pieces
                header = io.BytesIO()  # np.save's own header for this dtype and shape (version 1.0)
                described = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False, "shape": shape}
                np.lib.format.write_array_header_1_0(header, described)
                info = zipfile.ZipInfo(key + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.file_size = len(header.getvalue()) + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                with archive.open(info, "w") as dest:  # what writestr does, given the size, a piece at a time
                    dest.write(header.getvalue())
                    for piece in pieces():
                        dest.write(np.ascontiguousarray(piece, dtype).data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def load_dataset(path: str | Path) -> Dataset:
    """Read and check a file written by ``wayfarers dataset``; any problem is a DatasetError
    naming the file and what is wrong with it."""
    p = Path(path)
    name = str(path)
    if not p.exists():
        raise DatasetError(f"dataset {name!r} does not exist (make one with wayfarers dataset --players ... --out FILE)")
    if not p.is_file():
        raise DatasetError(f"dataset {name!r} is a folder, not a file written by wayfarers dataset")
    try:
        with np.load(p, allow_pickle=False) as z:
            missing = [k for k in ("meta", *ARRAYS) if k not in z.files]
            if missing:
                raise DatasetError(f"dataset {name!r} is not a wayfarers dataset: it lacks {', '.join(missing)}")
            arrays = {k: z[k] for k in ARRAYS}
            n = len(arrays["action"])
            if all(k in z.files for k in SOFT_ARRAYS):
                arrays.update((k, z[k]) for k in SOFT_ARRAYS)
            else:  # written before the soft targets existed: no row has values
                arrays.update(soft_ptr=np.zeros(n + 1, np.int64), soft_action=np.zeros(0, np.uint16), soft_value=np.zeros(0, np.float32))
            meta = json.loads(z["meta"].tobytes().decode())
    except DatasetError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError, UnicodeDecodeError) as exc:
        detail = " ".join(str(exc).split())[:160]
        raise DatasetError(f"dataset {name!r} is corrupt or truncated ({type(exc).__name__}: {detail})") from None
    data = Dataset(meta=meta, **arrays)
    problem = _problem(data)
    if problem:
        raise DatasetError(f"dataset {name!r}: {problem}")
    data.meta["file"] = name
    return data


def _problem(d: Dataset) -> str | None:
    """What makes a loaded dataset unusable (None: nothing)."""
    m = d.meta
    if not isinstance(m, dict) or m.get("format") != FORMAT:
        return f"not a wayfarers imitation dataset (format {m.get('format') if isinstance(m, dict) else None!r}, expected {FORMAT!r})"
    if m.get("version") != VERSION:
        return f"format version {m.get('version')!r}; this code reads version {VERSION} (record it again)"
    if m.get("obs_size") != OBS_SIZE or m.get("num_actions") != NUM_ACTIONS:
        return (
            f"recorded for observations of {m.get('obs_size')} values and {m.get('num_actions')} actions; "
            f"this game has {OBS_SIZE} and {NUM_ACTIONS} (record it again with this version)"
        )
    if not isinstance(m.get("games"), list):
        return "its metadata has no list of games"
    n, games = len(d.action), len(m["games"])
    for k in ROW_ARRAYS:
        if getattr(d, k).shape != (n,):
            return f"{k} holds {getattr(d, k).shape} values for {n} decisions"
    if d.mask_bits.shape != (n, MASK_BYTES):
        return f"mask_bits has shape {d.mask_bits.shape}, expected ({n}, {MASK_BYTES})"
    ptr = d.obs_ptr
    if ptr.shape != (n + 1,) or ptr[0] != 0 or np.any(np.diff(ptr) < 0) or ptr[-1] != len(d.obs_col) or len(d.obs_col) != len(d.obs_code):
        return "its observation index (obs_ptr, obs_col, obs_code) is inconsistent"
    if len(d.obs_col) and (int(d.obs_col.max()) >= OBS_SIZE or int(d.obs_code.max()) >= len(d.obs_values)):
        return "an observation entry points outside the observation or the value table"
    if n and (int(d.game.min()) < 0 or int(d.game.max()) >= games):
        return f"a decision names a game outside its {games} games"
    if d.game_actions_ptr.shape != (games + 1,) or d.game_actions_ptr[-1] != len(d.game_actions):
        return "its per-game action index is inconsistent"
    sp = d.soft_ptr
    if sp.shape != (n + 1,) or sp[0] != 0 or np.any(np.diff(sp) < 0) or not sp[-1] == len(d.soft_action) == len(d.soft_value):
        return "its candidate values (soft_ptr, soft_action, soft_value) are inconsistent"
    if len(d.soft_action) and int(d.soft_action.max()) >= NUM_ACTIONS:
        return f"a valued candidate outside the catalog (0..{NUM_ACTIONS - 1})"
    if len(d.soft_value) and not np.isfinite(d.soft_value).all():
        return "a candidate's value is not a finite number"
    if n and int(d.action.max()) >= NUM_ACTIONS:
        return f"an action outside the catalog (0..{NUM_ACTIONS - 1})"
    if n and not d.masks(np.arange(n))[np.arange(n), d.action].all():
        return "a recorded action is not legal under its recorded mask"
    return None


# ----------------------------------------------------------------------------- the command


def _players(text: str) -> list[str]:
    players = [p.strip() for p in str(text).split(",") if p.strip()]
    if not 2 <= len(players) <= 4:
        raise UsageError(f"--players needs 2 to 4 bot names (one per seat, e.g. cartographer,greedy), got {len(players)}")
    for name in set(players):
        try:
            _bot(name)
        except (UnknownBotError, ImportError) as exc:
            raise UsageError(f"--players: {exc}") from None
    return players


def _recorded(text: str | None, players: list[str]) -> set[str]:
    if text is None:
        return set(players)
    names = {p.strip() for p in text.split(",") if p.strip()}
    unknown = sorted(names - set(players))
    if not names or unknown:
        raise UsageError(f"--record names bots of --players to record ({', '.join(dict.fromkeys(players))}), got {text!r}")
    return names


def _target(out: str, overwrite: bool) -> Path:
    p = Path(out)
    if p.is_dir():
        raise UsageError(f"--out {out!r} is a folder; give a file name, e.g. {out.rstrip('/')}/games.npz")
    if p.exists() and not overwrite:
        raise UsageError(f"--out {out!r} already exists; pass --overwrite to replace it, or choose another file")
    return p


def file_meta(players: list[str], record: list[str], seed: int, config: GameConfig, **more: Any) -> dict[str, Any]:
    """The meta of a dataset file: its format, the observation its rows hold, and how it was played."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "env": ENV_NAME,
        "obs_size": OBS_SIZE,
        "num_actions": NUM_ACTIONS,
        "players": players,
        "record": record,
        "seed": seed,
        "config": config.to_dict(),
        "reward": "win",
        **more,
    }


def play_and_record(
    players: list[str],
    games: int,
    seed: int,
    config: GameConfig,
    record: set[str] | None = None,
    workers: int = 1,
    progress: bool = True,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play and record the games: the file's meta and one part per game (``from_rows`` and
    ``save_rows`` read them); the same for any ``workers``."""
    record = set(players) if record is None else record
    specs = schedule(players, games, seed, config, rotate=True)
    jobs = ((spec, tuple(name in record for name in spec.players)) for spec in specs)
    meta = file_meta(players, sorted(record), seed, config)
    parts: list[dict[str, Any]] = []
    play = cast(Callable[[GameSpec], tuple], record_game)  # simulate's runner, given jobs (spec, seats) and parts back
    with tqdm(total=games, desc="dataset", unit="game", disable=not progress, file=sys.stderr) as bar:
        for part in play_games(cast(Iterator[GameSpec], jobs), workers, play):
            parts.append(cast(dict[str, Any], part))
            bar.update(1)
    return meta, parts


def build(*args: Any, **kwargs: Any) -> Dataset:
    """The Dataset of ``play_and_record(*args, **kwargs)``, in memory: the same arguments give the
    same Dataset for any ``workers``."""
    return from_rows(*play_and_record(*args, **kwargs))


def run(args) -> int:
    players = _players(args.players)
    record = _recorded(args.record, players)
    out = _target(args.out, args.overwrite)
    options = game_options(args)
    try:
        config = GameConfig(num_players=len(players), board_sides=args.board_sides, **options)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    if not out.parent.is_dir():
        raise UsageError(f"--out {args.out!r}: folder {str(out.parent)!r} does not exist")
    meta, parts = play_and_record(players, args.games, args.seed, config, record, min(args.workers, args.games), progress=not args.quiet)
    try:
        rows = save_rows(meta, parts, out)
    except OSError as exc:
        raise UsageError(f"--out {args.out!r}: cannot write there ({exc.strerror or exc})") from None
    size = out.stat().st_size
    print(f"wrote {out}: {rows} decisions from {args.games} games ({size:,} bytes, {size / max(1, rows):.1f} bytes a decision)")
    return 0
