"""Learning curve of a training run: win rate against each evaluation bot over time.

``python -m experiments.plot RUN_DIR [--out docs/learning_curve.png]`` reads
RUN_DIR/evaluations.csv and writes a small PNG (matplotlib, no display needed).
"""

from __future__ import annotations

import argparse
import csv
from collections import defaultdict
from pathlib import Path


def plot(run_dir: str | Path, out: str | Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader((Path(run_dir) / "evaluations.csv").open()))
    series: dict[str, list[tuple[int, float, float, float]]] = defaultdict(list)
    for r in rows:
        series[r["opponent"]].append((int(r["timesteps"]), float(r["win_rate"]), float(r["win_low"]), float(r["win_high"])))
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    for name, pts in sorted(series.items()):
        pts.sort()
        xs = [p[0] for p in pts]
        ax.plot(xs, [p[1] for p in pts], marker="o", markersize=3, label=f"vs {name}")
        ax.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts], alpha=0.15)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel("win rate (95% Wilson band)")
    ax.set_ylim(0, 1)
    ax.set_title(Path(run_dir).name)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("run_dir")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    out = args.out or str(Path(args.run_dir) / "learning_curve.png")
    print(plot(args.run_dir, out))


if __name__ == "__main__":
    main()
