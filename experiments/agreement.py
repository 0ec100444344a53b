"""How often a bot agrees with itself: the ceiling of imitating it.

Why. A bot decides from a ``View``: a determinization of what its seat cannot see (deck orders,
dice to come), drawn from the rng it is given. Asked twice about the same decision with two rngs,
a heuristic whose choice rests on a rollout in that one sampled world can answer differently, so
no clone of it can match its recorded choices more often than it matches itself. Measured per
decision kind, beside ``wayfarers imitate``'s held-out accuracy by kind, the gap shows where a
clone falls short of what is learnable (docs/TRAINING.md).

The bot plays both seats of two-player games (seed ``--seed`` + k); at each decision with a
choice it is asked a second time, with an independent rng, and the game goes on with the first
answer.

    python -m experiments.agreement --bot cartographer --games 12 --seed 5000
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict

from experiments.cli import count, seed


def agreement(bot_name: str, games: int, first_seed: int, num_players: int = 2) -> dict[str, tuple[int, int]]:
    """Per decision kind: (decisions with a choice, those where two asks gave the same answer)."""
    from agents.registry import make_bot
    from wayfarers_env import Game, GameConfig
    from wayfarers_env.envs.players import View

    bot = make_bot(bot_name)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for k in range(games):
        game = Game(GameConfig(num_players=num_players), seed=first_seed + k)
        rng = random.Random(first_seed + k)
        while not game.state.over:
            legal = game.legal_actions()
            seat, kind = game.state.current, game.decision()[0]
            first = random.Random(rng.getrandbits(64))
            action = bot.decide(View(game, seat, first), legal, first)
            if len(legal) > 1:
                second = random.Random(rng.getrandbits(64))
                again = bot.decide(View(game, seat, second), legal, second)
                counts[kind][0] += 1
                counts[kind][1] += action == again
            game.apply(action)
    return {kind: (n, same) for kind, (n, same) in counts.items()}


def table(counts: dict[str, tuple[int, int]], top: int = 12) -> str:
    """Kinds by frequency: share of the choices and how often the two answers agreed."""
    total = sum(n for n, _s in counts.values()) or 1
    same = sum(s for _n, s in counts.values())
    lines = [f"{'decision kind':<20} {'share':>6} {'agrees':>7}", f"{'(all)':<20} {1:6.3f} {same / total:7.3f}"]
    for kind, (n, s) in sorted(counts.items(), key=lambda kv: -kv[1][0])[:top]:
        lines.append(f"{kind:<20} {n / total:6.3f} {s / n:7.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="cartographer", help="bot name, as in agents.registry (default cartographer)")
    parser.add_argument("--games", type=count, default=12, help="two-player games of the bot against itself (default 12)")
    parser.add_argument("--seed", type=seed, default=5000, help="game k has seed SEED + k (default 5000)")
    args = parser.parse_args(argv)
    from agents.registry import UnknownBotError

    try:
        counts = agreement(args.bot, args.games, args.seed)
    except UnknownBotError as exc:
        parser.error(f"--bot: {exc}")
    print(f"{args.bot} asked twice (independent rngs) at each decision with a choice, {args.games} games from seed {args.seed}:")
    print(table(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
