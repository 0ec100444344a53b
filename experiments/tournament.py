"""``wayfarers simulate``: play bots against each other, save every game, print a results table.

Games come in blocks that share one seed: with rotation on, block k plays the same deal once per
seating (the lineup rotated by one seat each time), so a seat or a deal never favours one bot.
Each bot's generator is seeded from the game seed and its seat, and the workers only compute
records that the parent writes in game order, so ``games.jsonl`` is byte-identical for any
``--workers``. Timings (which vary) go to ``summary.json`` only.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.base import choose
from agents.registry import UnknownBotError, make_bot
from wayfarers_env import ConfigError, Game, GameConfig
from wayfarers_env.rules.scoring import SOURCES

from .stats import mean, openskill_ratings, ranks, stdev, wilson

SCHEMA_VERSION = 1
MAX_DECISIONS = 100_000  # a guard against bots that never end a game; random games need ~4,000


@dataclass(frozen=True)
class GameSpec:
    """One game to play: its place in the run, its seed, and who sits where."""

    index: int
    seed: int
    players: tuple[str, ...]  # bot names in seat order
    lineup: tuple[int, ...]  # per seat: position of that bot in the --players list
    config: dict[str, Any]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, identical in every process and Python run (unlike hash())."""
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def schedule(players: list[str], games: int, seed: int, config: GameConfig, rotate: bool = True) -> list[GameSpec]:
    """The games of a run. Rotation: game i plays deal i // n with the lineup rotated by i % n."""
    n = len(players)
    specs = []
    for i in range(games):
        if rotate:
            block, shift = divmod(i, n)
            lineup = tuple((j + shift) % n for j in range(n))
        else:
            block, lineup = i, tuple(range(n))
        specs.append(
            GameSpec(
                index=i,
                seed=derive_seed("wayfarers-simulate", seed, block),
                players=tuple(players[j] for j in lineup),
                lineup=lineup,
                config=config.to_dict(),
            )
        )
    return specs


_BOTS: dict[str, Any] = {}


def _bot(name: str):
    """One bot per name and process: bots keep no state between decisions, and a policy bot
    should load its model once, not once per game."""
    if name not in _BOTS:
        _BOTS[name] = make_bot(name)
    return _BOTS[name]


def play_game(spec: GameSpec) -> tuple[dict[str, Any], list[float]]:
    """Play one game. Returns its record (deterministic) and each seat's thinking time (not)."""
    game = Game(spec.config, spec.seed)
    n = game.num_players
    bots = [_bot(name) for name in spec.players]
    rngs = [random.Random(derive_seed("bot", spec.seed, seat)) for seat in range(n)]
    actions: list[int] = []
    decisions = [0] * n
    think = [0.0] * n
    while not game.is_over and len(actions) < MAX_DECISIONS:
        seat = game.current_player
        start = time.perf_counter()
        action = choose(bots[seat], game, rngs[seat])
        think[seat] += time.perf_counter() - start
        game.apply(action)
        actions.append(action)
        decisions[seat] += 1
    record = {
        "schema_version": SCHEMA_VERSION,
        "game": spec.index,
        "config": spec.config,
        "seed": spec.seed,
        "players": list(spec.players),
        "lineup": list(spec.lineup),
        "finished": game.is_over,
        "turns": game.state.turn + 1,
        "decisions": len(actions),
        "seat_decisions": decisions,
        "scores": game.scores(),
        "winners": game.winners(),
        "actions": actions,
    }
    return record, think


def entrant_labels(players: list[str]) -> list[str]:
    """Names for the table: a bot listed twice becomes name and name#2."""
    out = []
    for j, name in enumerate(players):
        same = players[:j].count(name)
        out.append(name if same == 0 else f"{name}#{same + 1}")
    return out


def summarize(players: list[str], records: list[dict[str, Any]], think: list[list[float]], elapsed: float) -> dict[str, Any]:
    """Per entrant: win rate with a Wilson interval, VP mean/spread and by source, game length."""
    labels = entrant_labels(players)
    per: dict[str, dict[str, Any]] = {}
    rated = []
    for j, label in enumerate(labels):
        wins = 0.0
        totals: list[int] = []
        by_source = {s: [] for s in SOURCES}
        own_decisions: list[int] = []
        seconds = 0.0
        for rec, secs in zip(records, think):
            seat = rec["lineup"].index(j)
            if seat in rec["winners"]:
                wins += 1.0 / len(rec["winners"])
            score = rec["scores"][seat]
            totals.append(score["total"])
            for s in SOURCES:
                by_source[s].append(score[s])
            own_decisions.append(rec["seat_decisions"][seat])
            seconds += secs[seat]
        n = len(records)
        lo, hi = wilson(wins, n)
        per[label] = {
            "bot": players[j],
            "games": n,
            "wins": round(wins, 3),
            "win_rate": round(wins / n, 4) if n else 0.0,
            "win_rate_95": [round(lo, 4), round(hi, 4)],
            "score_mean": round(mean(totals), 2),
            "score_sd": round(stdev(totals), 2),
            "score_min": min(totals, default=0),
            "score_max": max(totals, default=0),
            "vp_by_source": {s: round(mean(v), 2) for s, v in by_source.items()},
            "own_decisions_mean": round(mean(own_decisions), 1),
            "ms_per_decision": round(1000 * seconds / max(1, sum(own_decisions)), 3),
        }
    for rec in records:
        seats = [labels[j] for j in rec["lineup"]]
        rated.append((seats, ranks([s["total"] for s in rec["scores"]], rec["winners"])))
    n = len(records)
    seat_wins = [0.0] * len(players)
    for rec in records:
        for seat in rec["winners"]:
            seat_wins[seat] += 1.0 / len(rec["winners"])
    return {
        "schema_version": SCHEMA_VERSION,
        "players": players,
        "games": n,
        "unfinished_games": sum(1 for r in records if not r["finished"]),
        "turns_mean": round(mean([r["turns"] for r in records]), 1),
        "turns_sd": round(stdev([r["turns"] for r in records]), 1),
        "decisions_mean": round(mean([r["decisions"] for r in records]), 1),
        "seat_win_rate": [round(w / n, 4) if n else 0.0 for w in seat_wins],
        "entrants": per,
        "openskill": openskill_ratings(rated),
        "elapsed_s": round(elapsed, 2),
        "games_per_s": round(n / elapsed, 3) if elapsed > 0 else None,
    }


def format_table(summary: dict[str, Any]) -> str:
    """The results table printed after a run."""
    head = ["bot", "win rate", "95% CI", "VP mean", "VP sd", *[s.replace("_", " ") for s in SOURCES], "turns", "decisions", "ms/dec"]
    rows = []
    for label, e in summary["entrants"].items():
        lo, hi = e["win_rate_95"]
        rows.append(
            [
                label,
                f"{100 * e['win_rate']:.1f}%",
                f"{100 * lo:.1f}-{100 * hi:.1f}%",
                f"{e['score_mean']:.1f}",
                f"{e['score_sd']:.1f}",
                *[f"{e['vp_by_source'][s]:.1f}" for s in SOURCES],
                f"{summary['turns_mean']:.0f}",
                f"{e['own_decisions_mean']:.0f}",
                f"{e['ms_per_decision']:.2f}",
            ]
        )
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(head, widths)))]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    foot = (
        f"{summary['games']} games, {summary['turns_mean']:.0f} turns (sd {summary['turns_sd']:.0f}) and "
        f"{summary['decisions_mean']:.0f} decisions per game; "
        f"win rate by seat: {', '.join(f'{100 * w:.0f}%' for w in summary['seat_win_rate'])}"
    )
    if summary["unfinished_games"]:
        foot += f"; {summary['unfinished_games']} games stopped after {MAX_DECISIONS} decisions"
    if summary.get("games_per_s"):
        foot += f"; {summary['games_per_s']:.2f} games/s"
    lines.append(foot)
    if summary.get("openskill"):
        skill = sorted(summary["openskill"].items(), key=lambda kv: -kv[1]["ordinal"])
        lines.append("openskill (PlackettLuce) ordinal: " + ", ".join(f"{k} {v['ordinal']:.1f}" for k, v in skill))
    return "\n".join(lines)


def _iter_results(specs: list[GameSpec], workers: int):
    """Yield (spec, record, think) as games finish; in parallel processes when workers > 1."""
    if workers <= 1:
        for spec in specs:
            yield (spec, *play_game(spec))
        return
    import multiprocessing as mp

    with mp.get_context().Pool(workers) as pool:
        for spec, result in zip(specs, pool.imap(play_game, specs, chunksize=1)):
            yield (spec, *result)


def run(args) -> int:
    players = [p.strip() for p in str(args.players).split(",") if p.strip()]
    if not 2 <= len(players) <= 4:
        print(f"error: --players needs 2 to 4 bot names (one per seat), got {len(players)}", file=sys.stderr)
        return 2
    if args.games < 1 or args.workers < 1:
        print("error: --games and --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        for name in set(players):
            _bot(name)
        config = GameConfig(num_players=len(players), board_sides=args.board_sides)
    except (UnknownBotError, ConfigError, FileNotFoundError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rotate = not getattr(args, "no_rotate", False)
    specs = schedule(players, args.games, args.seed, config, rotate)
    if rotate and args.games % len(players) and not args.quiet:
        print(f"note: {args.games} games is not a multiple of {len(players)} seats; seatings are not balanced", file=sys.stderr)
    out = Path(args.out) if args.out else None
    handle = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        handle = open(out / "games.jsonl", "w", encoding="utf-8")
    from tqdm import tqdm

    records: list[dict[str, Any]] = []
    think: list[list[float]] = []
    start = time.perf_counter()
    bar = tqdm(total=len(specs), desc=" vs ".join(players), unit="game", disable=args.quiet, file=sys.stderr)
    try:
        for _spec, record, secs in _iter_results(specs, min(args.workers, len(specs))):
            records.append(record)
            think.append(secs)
            if handle is not None:
                handle.write(json.dumps(record, separators=(",", ":")) + "\n")
                handle.flush()
            bar.update(1)
    finally:
        bar.close()
        if handle is not None:
            handle.close()
    elapsed = time.perf_counter() - start
    summary = summarize(players, records, think, elapsed)
    summary["seed"] = args.seed
    summary["rotate"] = rotate
    summary["workers"] = args.workers
    summary["config"] = config.to_dict()
    print(format_table(summary))
    if out is not None:
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {out / 'games.jsonl'} and {out / 'summary.json'}")
    return 0
