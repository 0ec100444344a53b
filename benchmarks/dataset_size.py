"""Bytes a decision of a ``wayfarers dataset`` file's observations in other layouts, for the
choice docs/TRAINING.md explains: ``python -m benchmarks.dataset_size FILE [--games N]``.

Each layout holds the first N games' observations losslessly and is compressed with
``np.savez_compressed``, as the dataset file is; masks and labels are left out (the same in every
layout). The dense layout is built in memory, so N stays small (10 games are about 250 MB).
"""

from __future__ import annotations

import argparse
import io
from typing import Any

import numpy as np

from experiments.dataset import load_dataset
from wayfarers_env.envs.observation import OBS_SIZE


def _size(**arrays: Any) -> int:
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return len(buf.getvalue())


def layouts(data, games: int) -> dict[str, int]:
    """Compressed bytes of the first ``games`` games' observations in each layout."""
    rows = np.flatnonzero(data.game < games)
    obs = data.observations(rows)
    r, c = np.nonzero(obs)
    values = obs[r, c]
    ptr = np.searchsorted(r, np.arange(len(rows) + 1))
    table, codes = np.unique(values, return_inverse=True)
    # each row as its changes from the same seat's previous row in the game (what a row adds)
    changed = np.zeros_like(obs, dtype=bool)
    last: dict[tuple[int, int], int] = {}
    for k, row in enumerate(rows):
        key = (int(data.game[row]), int(data.seat[row]))
        changed[k] = obs[k] != (obs[last[key]] if key in last else 0)
        last[key] = k
    dr, dc = np.nonzero(changed)
    dtable, dcodes = np.unique(obs[dr, dc], return_inverse=True)
    return {
        "decisions": len(rows),
        "dense float32": _size(obs=obs),
        "dense float16 (lossy)": _size(obs=obs.astype(np.float16)),
        "sparse, float32 values": _size(ptr=ptr, col=c.astype(np.uint16), val=values),
        "sparse, value codes (the file's)": _size(ptr=ptr, col=c.astype(np.uint16), code=codes.astype(np.uint16), table=table),
        "changes from the seat's last row": _size(
            ptr=np.searchsorted(dr, np.arange(len(rows) + 1)), col=dc.astype(np.uint16), code=dcodes.astype(np.uint16), table=dtable
        ),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.dataset_size", description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="a file written by wayfarers dataset")
    ap.add_argument("--games", type=int, default=10, help="how many of its games to lay out (default 10)")
    args = ap.parse_args(argv)
    sizes = layouts(load_dataset(args.path), args.games)
    n = sizes.pop("decisions")
    raw = n * 4 * OBS_SIZE
    print(f"{n} decisions of {args.games} games; raw float32: {raw / n:,.0f} bytes a decision")
    print(f"{'layout':<36}{'bytes/decision':>16}{'vs raw':>10}")
    for name, size in sizes.items():
        print(f"{name:<36}{size / n:>16,.1f}{raw / size:>9,.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
