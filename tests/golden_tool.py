"""Golden playthroughs: complete seeded games written as readable text, diffed in CI.

Any change in engine behaviour changes one of these files, so it shows up as a reviewed diff.
Regenerate after an intended change with ``python tests/golden_tool.py --update``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wayfarers_env import Game, GameConfig, describe_action  # noqa: E402
from wayfarers_env.rules.actions import CATALOG  # noqa: E402

HERE = Path(__file__).with_name("golden")
GAMES = {"2p_seed1": (2, 1), "3p_seed2": (3, 2), "4p_seed3": (4, 3)}
# Tides of Trade games, one per card-influence setting: name -> (players, seed, card_influence)
TIDES_GAMES = {"tides_2p_seed4": (2, 4, "both"), "tides_3p_seed5": (3, 5, "ink_well"), "tides_4p_seed6": (4, 6, "cards")}
# solo games against each AI board: name -> (AI board, seed, tides_of_trade)
SOLO_GAMES = {
    "solo_board1_seed7": (1, 7, False),
    "solo_board2_seed8": (2, 8, False),
    "solo_board3_seed9_tides": (3, 9, True),
    "solo_board4_seed10": (4, 10, False),
}
PASSIVE = {CATALOG.DONE, CATALOG.SKIP, CATALOG.REST}


def playthrough(num_players: int, seed: int, card_influence: str | None = None) -> str:
    """``card_influence`` set: a Tides of Trade game with that card-influence setting."""
    tides = {} if card_influence is None else {"tides_of_trade": True, "card_influence": card_influence}
    g = Game(GameConfig(num_players=num_players, **tides), seed=seed)
    rng = random.Random(seed)
    sides = "".join("ab"[s] for s in g.state.sides)
    if card_influence is not None:
        ext = "".join("ab"[s] for s in g.state.ext_sides)
        sides += f"; Tides of Trade, card influence {card_influence}, extension sides {ext}"
    lines = [
        f"# golden playthrough: {num_players} players, seed {seed}, board sides {sides}",
        "# policy: eager random (random.Random(seed); prefers acting over declining 95% of the time)",
        "# regenerate: python tests/golden_tool.py --update",
    ]
    while not g.is_over:
        legal = g.legal_actions()
        active = [a for a in legal if a not in PASSIVE]
        a = rng.choice(active) if active and rng.random() < 0.95 else rng.choice(legal)
        lines.append(f"T{g.state.turn:<4} P{g.current_player} {g.decision()[0]:<17} {a:>3} {describe_action(a)}")
        g.apply(a)
    lines.append("== scores ==")
    for seat, s in enumerate(g.scores()):
        parts = ", ".join(f"{k} {v}" for k, v in s.items() if k != "total")
        lines.append(f"P{seat} total {s['total']}: {parts}")
    lines.append(f"winners: {g.winners()}")
    return "\n".join(lines) + "\n"


def solo_playthrough(board: int, seed: int, tides: bool) -> str:
    """A solo game; after each of the human's decisions that let the AI play, a line says what it did."""
    from wayfarers_env.rules import solo

    g = Game(GameConfig(num_players=1, solo_ai_board=board, tides_of_trade=tides), seed=seed)
    rng = random.Random(seed)
    lines = [
        f"# golden solo playthrough: AI board {board}, seed {seed}, Tides of Trade {'on' if tides else 'off'}",
        "# policy: eager random (random.Random(seed); prefers acting over declining 95% of the time)",
        "# regenerate: python tests/golden_tool.py --update",
    ]
    while not g.is_over:
        legal = g.legal_actions()
        active = [a for a in legal if a not in PASSIVE]
        a = rng.choice(active) if active and rng.random() < 0.95 else rng.choice(legal)
        lines.append(f"T{g.state.turn:<4} P{g.current_player} {g.decision()[0]:<17} {a:>3} {describe_action(a)}")
        before, turn = solo.snapshot(g.state), g.state.turn
        g.apply(a)
        if g.state.turn != turn or g.decision()[0] == "ai_wants" or g.is_over:
            lines.append(f"      {solo.describe(g.state, before)}")
    lines.append("== scores ==")
    for seat, s in enumerate(g.scores()):
        parts = ", ".join(f"{k} {v}" for k, v in s.items() if k != "total")
        lines.append(f"{'AI' if seat else 'P0'} total {s['total']}: {parts}")
    lines.append(f"winners: {g.winners()}")
    return "\n".join(lines) + "\n"


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, (n, seed) in GAMES.items():
        (HERE / f"{name}.txt").write_text(playthrough(n, seed))
        print("wrote", HERE / f"{name}.txt")
    for name, (n, seed, card_influence) in TIDES_GAMES.items():
        (HERE / f"{name}.txt").write_text(playthrough(n, seed, card_influence))
        print("wrote", HERE / f"{name}.txt")
    for name, (board, seed, tides) in SOLO_GAMES.items():
        (HERE / f"{name}.txt").write_text(solo_playthrough(board, seed, tides))
        print("wrote", HERE / f"{name}.txt")


if __name__ == "__main__":
    if "--update" in sys.argv:
        main()
    else:
        print(__doc__)
