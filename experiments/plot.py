"""Learning curve of a training run: win rate against each evaluation bot over time.

``python -m experiments.plot RUN_DIR [--out docs/learning_curve.png]`` reads
RUN_DIR/evaluations.csv and writes a small PNG (matplotlib, no display needed).
"""

from __future__ import annotations

import csv
import sys
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


def main(argv: list[str] | None = None) -> int:
    from experiments.cli import Parser

    ap = Parser(prog="python -m experiments.plot", description=__doc__.splitlines()[0])
    ap.add_argument("run_dir", help="a run folder written by wayfarers train")
    ap.add_argument("--out", default=None, help="PNG to write (default RUN_DIR/learning_curve.png)")
    args = ap.parse_args(argv)
    csv_path = Path(args.run_dir) / "evaluations.csv"
    if not csv_path.is_file():
        ap.error(f"no evaluations.csv in {args.run_dir!r} (give a run folder written by wayfarers train)")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        ap.error('plotting needs matplotlib, from the [train] extra: pip install -e ".[train]"')
    out = args.out or str(Path(args.run_dir) / "learning_curve.png")
    print(plot(args.run_dir, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
