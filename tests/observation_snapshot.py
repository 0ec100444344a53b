"""A picture of base-game observations, slice by slice, so that a change of the layout cannot move
a base-game value unnoticed (only offsets and sizes may move).

tests/golden/observation_base.json holds the env's v4 values. It was first taken before the
expansion's pieces were added to the observation; for v4 it was retaken after checking that each
v3 value, mapped through v4's scale changes (docs/OBSERVATION.md: silver / 10 clipped at 2,
influence / 15, VP / 50, card features' counts / 3, / 4, ...), gives the new one. Regenerate only
after an intended change of the base game's observation (``python tests/observation_snapshot.py
--update``), and only from committed rules: the positions come from seeded random games, so a rules
change that alters random play changes them too. It holds:

- ``positions``: seeded random base games stopped at fixed decision counts, and per position and
  seat the nonzero values of each observation slice by name (``[index in slice, value]``, or only the indices when every value is 1). The
  slices made of card feature vectors are left out: they are the ``cards`` rows of the cards the
  observation names (``market.ids``, ``decision.card_id``, ``private.draw_ids``), which the test
  checks instead;
- ``cards``: per base card index, the nonzero values of its feature vector per ``CARD`` slice name.

A slice that grows must keep its old values at the same index within it (card-indexed slices grow
at the end), so comparing the nonzeros of each named slice is enough.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).with_name("golden")
FILE = HERE / "observation_base.json"
GAMES = ((2, 1), (3, 2), (4, 3))  # (players, seed)
STOPS = (0, 41, 377, 1500)  # decisions applied when the picture is taken
FEATURE_SLICES = ("decision.card", "private.draw", "market.cards")  # card feature vectors, checked by card id
BASE_CARDS = 160  # the base game's deck cards: indices 0-159


def positions():
    """(players, seed, decisions, game) at every stop of the seeded random games."""
    from wayfarers_env import Game, GameConfig

    for n, seed in GAMES:
        g = Game(GameConfig(num_players=n), seed=seed)
        rng = random.Random(seed)
        for stop in STOPS:
            while g.state.decisions < stop and not g.is_over:
                g.apply(rng.choice(g.legal_actions()))
            yield n, seed, stop, g


def nonzeros(values: Any) -> list:
    """The nonzero values as ``[index, value]`` pairs, or only the indices when every one is 1."""
    nz = [[i, float(v)] for i, v in enumerate(values.tolist()) if v]
    return [i for i, _ in nz] if all(v == 1 for _, v in nz) else nz


def expand(nz: list) -> dict[int, float]:
    """index -> value, from either form written by ``nonzeros``."""
    return {int(x): 1.0 for x in nz} if nz and not isinstance(nz[0], list) else {int(i): v for i, v in nz}


def picture_obs(obs: Any, layout: Any) -> dict[str, list]:
    """Nonzero values per slice name (feature-vector slices left out)."""
    out = {}
    for s in layout.slices:
        if s.name in FEATURE_SLICES:
            continue
        nz = nonzeros(obs[s.start : s.stop])
        if nz:
            out[s.name] = nz
    return out


def picture_card(row: Any, card_layout: Any) -> dict[str, list]:
    out = {}
    for s in card_layout.slices:
        nz = nonzeros(row[s.start : s.stop])
        if nz:
            out[s.name] = nz
    return out


def take() -> dict[str, Any]:
    from wayfarers_env.content import load_content
    from wayfarers_env.envs import observation as ob

    table = ob.card_feature_table(load_content())
    pics = []
    for n, seed, stop, g in positions():
        for seat in range(n):
            pics.append({"players": n, "seed": seed, "decisions": stop, "seat": seat, "slices": picture_obs(ob.encode(g, seat), ob.L)})
    return {"positions": pics, "cards": [picture_card(table[c], ob.CARD) for c in range(BASE_CARDS)]}


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    if argv != ["--update"]:
        print("usage: python tests/observation_snapshot.py --update", file=sys.stderr)
        return 2
    pic = take()
    lines = ['{"positions": [']
    lines += [json.dumps(p, sort_keys=True) + ("," if i < len(pic["positions"]) - 1 else "") for i, p in enumerate(pic["positions"])]
    lines.append('], "cards": [')
    lines += [json.dumps(c, sort_keys=True) + ("," if i < len(pic["cards"]) - 1 else "") for i, c in enumerate(pic["cards"])]
    lines.append("]}")
    FILE.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
