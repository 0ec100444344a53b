"""The ``wayfarers`` command. Each subcommand lives in its own module; this file only parses.

Every option is defined here (the benchmark's in ``benchmarks.options``) and the subcommand's
module is imported only to run it, so ``--help`` and a mistyped option answer at once without
loading numpy, torch or PettingZoo. A user's mistake ends as one ``error: ...`` line on stderr
with exit status 2 (``UsageError``), Ctrl-C as one line with status 130, never a traceback.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, NoReturn

INTERRUPTED = 130  # the shell's status for a process ended by SIGINT
# vocabulary.CARD_INFLUENCE, spelled out so that --help loads no engine (tests/test_cli_tides.py compares them)
CARD_INFLUENCE = ("both", "ink_well", "cards")
EXPANSION_FLAGS = ("card_influence", "extension_sides")  # the options that only the expansion takes


class UsageError(ValueError):
    """Something the user asked for that cannot be done; the message names what was wrong and
    what is allowed. ``main`` prints it as ``error: <message>`` and exits with status 2."""


class Parser(argparse.ArgumentParser):
    """argparse with the project's error format: one ``error:`` line instead of usage + error."""

    command_names: list[str]  # the subcommands, set by build_parser

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see '{self.prog} --help')\n")


def count(text: str) -> int:
    """A whole number of at least 1 (games, environments, timesteps)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got {text!r}")
    return value


def seed(text: str) -> int:
    """A seed numpy and SB3 accept: 0 to 2**32 - 1."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**32:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to {2**32 - 1}, got {text!r}")
    return value


def extension_sides(text: str) -> str:
    """'random' or two letters a/b, one per main-board extension of Tides of Trade."""
    if not re.fullmatch(r"random|[ab]{2}", text):
        raise argparse.ArgumentTypeError(f"must be 'random' or two letters a/b for the two extensions (e.g. ab), got {text!r}")
    return text


AI_BOARDS = ("Stargazer", "Inventor", "Mayor", "Wayfarer")  # config.AI_BOARDS, spelled out for the same reason
BOARD_NAMES = ", ".join(f"{k} {name}" for k, name in enumerate(AI_BOARDS, start=1))


def solo_board(text: str) -> int:
    """One AI board 1-4: a game against the solo AI is played against one of them."""
    if not re.fullmatch(r"[1-4]", text.strip()):
        raise argparse.ArgumentTypeError(f"must be an AI board 1-4 ({BOARD_NAMES}), got {text!r}")
    return int(text)


def solo_boards(text: str) -> tuple[int, ...]:
    """The AI boards of a solo run: one board 1-4, or 'all' for the four in turn."""
    if text.strip().lower() == "all":
        return tuple(range(1, len(AI_BOARDS) + 1))
    if not re.fullmatch(r"[1-4]", text.strip()):
        raise argparse.ArgumentTypeError(f"must be an AI board 1-4 ({BOARD_NAMES}) or 'all', got {text!r}")
    return (int(text),)


def table_sizes(text: str) -> tuple[int, ...]:
    """Table sizes of a tournament: comma-separated player counts 2-4 (multiplayer only)."""
    parts = [x.strip() for x in text.split(",")]
    if not parts or not all(re.fullmatch(r"[2-4]", x) for x in parts):
        raise argparse.ArgumentTypeError(
            f"must be player counts 2-4 separated by commas, e.g. 2,3,4, got {text!r} "
            "(tournaments are multiplayer: one bot against the solo AI is wayfarers simulate --solo-board)"
        )
    return tuple(sorted({int(x) for x in parts}))


def ray_address(text: str) -> str:
    """The Ray cluster to join: 'auto' (the one started on this machine by ray start) or HOST:PORT."""
    if not re.fullmatch(r"auto|[A-Za-z0-9_.-]+:[0-9]{1,5}", text):
        raise argparse.ArgumentTypeError(f"must be 'auto' or HOST:PORT of a Ray head node (e.g. 10.0.0.5:6379), got {text!r}")
    return text


ADDRESS_HELP = "with --backend ray: the Ray cluster, 'auto' or HOST:PORT of its head (default: a local Ray started for this run)"


def add_backend_options(p: argparse.ArgumentParser) -> None:
    """Where the games of simulate and tournament run: local processes, or Ray actors."""
    p.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="process (a pool of --workers processes, the default) or ray (--workers Ray actors; needs the [ray] extra); "
        "the games are the same",
    )
    p.add_argument("--address", type=ray_address, default=None, metavar="auto|HOST:PORT", help=ADDRESS_HELP)


def add_game_options(p: argparse.ArgumentParser, negatable: bool = False) -> None:
    """The Tides of Trade options of a command that sets up games. ``negatable`` adds
    --no-tides-of-trade and leaves the flag unset (None) when neither is given, for a command
    whose game otherwise comes from elsewhere (evaluate: the model's run)."""
    p.add_argument(
        "--tides-of-trade",
        action=argparse.BooleanOptionalAction if negatable else "store_true",
        default=None if negatable else False,
        help="play with the Tides of Trade expansion",
    )
    p.add_argument(
        "--card-influence",
        choices=CARD_INFLUENCE,
        default=None,
        help="with --tides-of-trade: where card influence may go: both (cards or the Ink Well, the default), "
        "ink_well (the Ink Well only) or cards (cards only)",
    )
    p.add_argument(
        "--extension-sides",
        type=extension_sides,
        default=None,
        metavar="SIDES",
        help="with --tides-of-trade: 'random' (default) or two letters a/b for the expansion's two main-board extensions",
    )


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The GameConfig keywords of the expansion options given ({} when a negatable
    --tides-of-trade was left unset and nothing else was given). An option that only the
    expansion takes, given without it, is the user's mistake: it would otherwise be ignored or
    fail deep inside the engine in its words, not the command's."""
    tides = getattr(args, "tides_of_trade", False)
    chosen = {name: getattr(args, name, None) for name in EXPANSION_FLAGS}
    for name, value in chosen.items():
        if value is not None and not tides:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} belongs to the Tides of Trade expansion: add --tides-of-trade, or drop {flag}")
    if tides is None:
        return {}
    return {"tides_of_trade": bool(tides), **{name: value for name, value in chosen.items() if value is not None}}


def build_parser() -> Parser:
    ap = Parser(prog="wayfarers", description="Wayfarers of the South Tigris: engine, bots and RL tools")
    sub = ap.add_subparsers(dest="command")

    p = sub.add_parser("cards", help="print the game content as a table (or JSON)")
    p.add_argument(
        "--kind",
        choices=["land", "water", "space", "townsfolk", "inspiration", "upgrades", "journal", "schemes", "traders", "worker_tiles"],
        help="one kind only (traders and worker_tiles need --tides-of-trade)",
    )
    p.add_argument("--json", action="store_true", help="print a JSON list of objects instead of a table")
    p.add_argument("--tides-inspiration", action="store_true", help="include the two Tides of Trade inspiration cards")
    p.add_argument(
        "--tides-of-trade",
        action="store_true",
        help="include the Tides of Trade expansion: its cards, pink tile, scheme card, traders and worker tiles, each with its provenance",
    )

    p = sub.add_parser("simulate", help="play bots against each other (or one bot against the solo AI) and print a results table")
    p.add_argument(
        "--players", required=True, help="comma-separated bot names in seat order, e.g. greedy,random; one bot name with --solo-board"
    )
    p.add_argument(
        "--solo-board",
        type=solo_boards,
        default=None,
        metavar="1-4|all",
        help=f"solo games: the one bot of --players against the rulebook's solo AI on this AI board ({BOARD_NAMES}); "
        "'all' plays the four boards in turn, --games split evenly over them (so a multiple of 4), each deal against every board",
    )
    p.add_argument("--games", type=int, default=100, help="games to play (default 100; with --solo-board all, in all)")
    p.add_argument("--seed", type=int, default=0, help="fixes the deals and the bots' draws (default 0)")
    p.add_argument("--workers", type=int, default=1, help="parallel processes; games.jsonl is the same for any number")
    add_backend_options(p)
    p.add_argument("--out", default=None, help="directory for games.jsonl and summary.json (refused if it holds a run)")
    p.add_argument("--resume", action="store_true", help="finish the run in --out: keep its games, play the rest (same arguments)")
    p.add_argument("--overwrite", action="store_true", help="replace the run in --out")
    p.add_argument("--board-sides", default="random", help="'random' or three letters a/b, e.g. aba (default random)")
    add_game_options(p)
    p.add_argument("--no-rotate", action="store_true", help="keep the seat order fixed instead of rotating seats (solo games: one seat)")
    p.add_argument("--quiet", action="store_true", help="no progress bar or notes on stderr")

    p = sub.add_parser(
        "tournament",
        help="a league of bots on shared deals: ratings, a leaderboard, games.jsonl and Parquet logs",
        description="Every set of bots of each table size plays the same deals in every seating (each bot meets every other "
        "in every seat). Prints a leaderboard (ratings fitted to the whole run, win rates with 95% Wilson intervals per "
        "table size, VP and margins, a pairwise matrix) and writes DIR/games.jsonl (replayable records), DIR/summary.json "
        'and DIR/logs/*.parquet (one row per game and seat, for wayfarers analyze; needs pip install -e ".[analysis]"). '
        "Multiplayer only: one bot against the solo AI is wayfarers simulate --solo-board.",
    )
    p.add_argument("--bots", required=True, help="comma-separated bot names, each once, e.g. random,greedy,journal or policy:PATH")
    p.add_argument(
        "--players-per-game",
        type=table_sizes,
        default=(2,),
        metavar="2,3,4",
        help="table sizes to play, each needing that many bots (default 2)",
    )
    p.add_argument(
        "--games",
        type=count,
        default=10,
        metavar="N",
        help="deals: every line-up plays each of N deals once in every seating (default 10; the run's size is printed)",
    )
    p.add_argument("--seed", type=seed, default=0, help="fixes the deals and the bots' draws (default 0)")
    p.add_argument("--workers", type=count, default=1, help="parallel processes; games.jsonl is the same for any number")
    add_backend_options(p)
    p.add_argument("--out", required=True, metavar="DIR", help="folder for games.jsonl, summary.json and logs/ (refused if it holds a run)")
    p.add_argument("--resume", action="store_true", help="finish the run in --out: keep its games, play the rest (same arguments)")
    p.add_argument("--overwrite", action="store_true", help="replace the run in --out")
    p.add_argument("--board-sides", default="random", help="'random' or three letters a/b, e.g. aba (default random)")
    add_game_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar or notes on stderr")

    p = sub.add_parser(
        "analyze",
        help="an HTML report with plots from tournament logs and training runs",
        description="Read the Parquet logs of wayfarers tournament runs and the evaluations.csv of wayfarers train runs, "
        "and write REPORT_DIR/report.html (self-contained: plots embedded, tables sortable, no server), every plot as "
        "REPORT_DIR/plots/*.png and every table as REPORT_DIR/tables/*.csv. docs/ANALYSIS.md explains each part. "
        'Needs pip install -e ".[analysis]".',
    )
    p.add_argument(
        "dirs", nargs="+", metavar="DIR", help="a tournament --out folder or a training run folder; several are analysed together"
    )
    p.add_argument("--out", required=True, metavar="REPORT_DIR", help="folder for the report (refused if it holds one)")
    p.add_argument("--overwrite", action="store_true", help="replace the report in --out")
    p.add_argument("--clusters", type=count, default=4, metavar="K", help="strategy clusters to find across game-seats (default 4)")
    p.add_argument(
        "--min-seats",
        type=count,
        default=30,
        metavar="N",
        help="a card or tile is rated for winning only if taken in at least N game-seats (default 30)",
    )

    p = sub.add_parser("replay", help="rebuild a recorded game, check its scores, render it")
    p.add_argument("path", help="a games.jsonl written by simulate")
    p.add_argument("--game", type=int, default=0, help="index of the game in the file (0-based)")
    p.add_argument("--step", action="store_true", help="show the table after every turn and wait for Enter")
    p.add_argument("--table", action="store_true", help="show the table after every turn (default: one line a turn)")

    p = sub.add_parser(
        "view",
        help="write a recorded game as one HTML page that steps through it (no server, no network)",
        description="Rebuild a recorded game, check its scores as replay does, and write one self-contained HTML page "
        "that steps through it: the market, the journal, every player's panorama, caravan, resources and score, the "
        "decision and the action at each step. Keys: left/right or j/k step, p/n turn, Home/End.",
    )
    p.add_argument("path", help="a games.jsonl written by simulate")
    p.add_argument("--game", type=int, default=0, help="index of the game in the file (0-based)")
    p.add_argument("--out", default=None, help="the HTML file to write (default: game_K.html beside the games.jsonl)")
    p.add_argument("--overwrite", action="store_true", help="replace --out if it exists")

    p = sub.add_parser("play", help="play in the terminal against bots or the solo AI")
    p.add_argument("--players", required=True, help="e.g. human,greedy; one name (human or a bot) with --solo-board")
    p.add_argument(
        "--solo-board",
        type=solo_board,
        default=None,
        metavar="1-4",
        help=f"a solo game against the rulebook's AI on this AI board ({BOARD_NAMES}); its turns are summarised after yours",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--no-auto",
        action="store_true",
        help="ask people every decision (default: decisions with one option, and silver or provisions in an effect, are taken for them)",
    )
    add_game_options(p)

    p = sub.add_parser(
        "bench",
        help="run the environment speed benchmark (same options as python -m benchmarks.bench_env)",
        description="Speed of the environment against PettingZoo's connect_four_v3 and chess_v6 (the [bench] extra), "
        "in interleaved rounds on one core. Progress goes to stderr, the table to stdout.",
    )
    from benchmarks.options import add_arguments

    add_arguments(p)

    p = sub.add_parser(
        "train",
        help="train MaskablePPO (needs the [train] extra) or RLlib PPO in self-play (--algo rllib-ppo, the [ray] extra)",
        description='Train MaskablePPO from a YAML config (needs pip install -e ".[train]"). The run folder gets '
        "config.yaml, checkpoints/, final_model.zip, tb/ and evaluations.csv. With --algo rllib-ppo: RLlib's PPO in "
        'self-play on the multi-agent env (needs pip install -e ".[ray]"; e.g. experiments/configs/rllib_ppo_2p_selfplay.yaml); '
        "the run folder gets config.yaml, checkpoints/, final_checkpoint/ and evaluations.csv.",
    )
    p.add_argument(
        "--algo",
        choices=("maskable-ppo", "rllib-ppo"),
        default="maskable-ppo",
        help="maskable-ppo (sb3-contrib, against bots or a pool of past selves; the default) or rllib-ppo (RLlib, self-play)",
    )
    p.add_argument("--config", default=None, help="YAML file, e.g. experiments/configs/ppo_2p_vs_bots.yaml (needed unless --resume)")
    p.add_argument(
        "--resume",
        default=None,
        metavar="RUN_DIR",
        help="continue the run in RUN_DIR from its latest checkpoint, with its config.yaml (--timesteps may raise the total)",
    )
    p.add_argument("--timesteps", type=count, default=None, help="override training.timesteps")
    p.add_argument("--seed", type=seed, default=None, help="override training.seed")
    p.add_argument("--out", default=None, help="run folder (default runs/NAME_seedSEED)")
    p.add_argument("--envs", type=count, default=None, help="override training.envs (parallel environments)")
    p.add_argument("--overwrite", action="store_true", help="replace the run already in the run folder")
    p.add_argument(
        "--address",
        type=ray_address,
        default=None,
        metavar="auto|HOST:PORT",
        help="with --algo rllib-ppo: the Ray cluster, 'auto' or HOST:PORT of its head (default: a local Ray started for this run)",
    )

    p = sub.add_parser(
        "evaluate",
        help="evaluate a trained model against bots",
        description="Win rate (95% Wilson interval) and mean VP margin of a trained model against each bot, "
        "on fixed seeds with the model's seat alternating. The games are those the model was trained on: the env section "
        "of the run's config.yaml (beside the model, or one folder up for a checkpoint; without one, the base game for 2 "
        "players). --tides-of-trade or --no-tides-of-trade, with --card-influence and --extension-sides, evaluate it on "
        "another setting of the expansion instead (the rest of the run's env section stays).",
    )
    p.add_argument(
        "model",
        help="a final_model.zip or checkpoint saved by wayfarers train, or a candidate net file (.pt, e.g. models/cartographer-worth.pt)",
    )
    p.add_argument("--vs", default="random", help="comma-separated opponent bots (default random)")
    p.add_argument("--games", type=count, default=100, help="games per opponent (default 100)")
    p.add_argument("--seed", type=seed, default=0, help="first game seed (default 0)")
    p.add_argument("--workers", type=count, default=1, help="processes for a net file's games (default 1; the figures are the same)")
    add_game_options(p, negatable=True)

    p = sub.add_parser(
        "dataset",
        help="record bot games as (observation, mask, action, outcome) for imitation learning",
        description="Play bot games (the games wayfarers simulate plays for the same --players and --seed) and record, at "
        "every decision of the recorded seats, the observation and action mask the wayfarers_v4 env gives that seat, the "
        "action taken and the game's outcome, into one compressed file (about 40 bytes a decision; docs/TRAINING.md). "
        "The file is the same for any --workers.",
    )
    p.add_argument("--players", required=True, help="comma-separated bot names in seat order (2-4), e.g. cartographer,greedy")
    p.add_argument("--games", type=count, default=100, metavar="N", help="games to play (default 100); seats rotate")
    p.add_argument("--out", required=True, metavar="FILE", help="the dataset file to write, e.g. data/carto.npz (refused if it exists)")
    p.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    p.add_argument("--seed", type=seed, default=0, help="fixes the deals and the bots' draws (default 0)")
    p.add_argument("--workers", type=count, default=1, help="parallel processes; the file is the same for any number")
    p.add_argument(
        "--record", default=None, metavar="BOTS", help="comma-separated bots of --players whose seats are recorded (default: all seats)"
    )
    p.add_argument("--board-sides", default="random", help="'random' or three letters a/b, e.g. aba (default random)")
    add_game_options(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = sub.add_parser(
        "imitate",
        help="behaviour cloning (and DAgger) of bots from wayfarers dataset files into a MaskablePPO model",
        description="Train a MaskablePPO policy and value head on recorded bot decisions: masked cross-entropy on the "
        "recorded action, squared error of the value against the outcome (the env's win reward, discounted by the "
        "config's ppo.gamma). Games are held out for validation; accuracy is printed per epoch. --dagger-rounds K then "
        "plays the policy against the dataset's bots, labels its decisions with --expert's choices and retrains. "
        "The policy architecture is the YAML's policy section, so the model is one wayfarers train can start from "
        "(needs the [train] extra; docs/TRAINING.md).",
    )
    p.add_argument("--data", required=True, metavar="FILE[,FILE...]", help="dataset files written by wayfarers dataset")
    p.add_argument("--out", required=True, metavar="MODEL.zip", help="the model file to write (refused if it exists)")
    p.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    p.add_argument(
        "--config",
        default=None,
        metavar="YAML",
        help="training config whose policy and ppo sections are used (default experiments/configs/ppo_2p_vs_bots.yaml)",
    )
    p.add_argument("--epochs", type=count, default=5, help="passes over the training decisions (default 5; per DAgger round too)")
    p.add_argument("--batch-size", type=count, default=256, help="decisions per gradient step (default 256)")
    p.add_argument("--learning-rate", type=float, default=1e-3, help="Adam's step size (default 0.001)")
    p.add_argument("--seed", type=seed, default=0, help="fixes the weights, the held-out games and the batches (default 0)")
    p.add_argument("--holdout", type=float, default=0.1, help="fraction of the games held out for validation (default 0.1)")
    p.add_argument("--dagger-rounds", type=int, default=0, metavar="K", help="DAgger rounds after behaviour cloning (default 0)")
    p.add_argument("--expert", default=None, metavar="BOT", help="with --dagger-rounds: the bot that labels the policy's decisions")
    p.add_argument("--dagger-games", type=count, default=10, metavar="N", help="games the policy plays per DAgger round (default 10)")
    p.add_argument(
        "--soft",
        type=float,
        default=0.0,
        metavar="T",
        help="train the policy towards a softmax of the recorded bot's values of every candidate at temperature T "
        "(VP; where it valued them: the lookahead bots' searched decisions) instead of its one choice (default 0: off)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    ap.command_names = list(sub.choices)  # for the message when no command is given
    return ap


def _command(name: str):
    """The ``run`` function of a subcommand, imported only now (see the module docstring)."""
    if name == "cards":
        from experiments.cards_table import run
    elif name == "simulate":
        from experiments.tournament import run
    elif name == "tournament":
        from experiments.league_run import run
    elif name == "analyze":
        from experiments.analyze import run
    elif name == "replay":
        from experiments.replay import run
    elif name == "view":
        from experiments.view import run
    elif name == "play":
        from experiments.play import run
    elif name == "bench":
        from benchmarks.bench_env import run
    elif name == "train":
        from experiments.train import run
    elif name == "dataset":
        from experiments.dataset import run
    elif name == "imitate":
        from experiments.imitation import run
    else:
        from experiments.evaluate import run
    return run


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.error("give a command: " + ", ".join(parser.command_names))
    try:
        return int(_command(args.command)(args) or 0)
    except UsageError as exc:
        print("error: " + " ".join(str(exc).split()), file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        detail = f": {exc}" if str(exc) else ""
        try:
            print(f"\ninterrupted: wayfarers {args.command} stopped{detail}", file=sys.stderr)
        except KeyboardInterrupt:  # a second Ctrl-C while saying so: the status is what matters
            pass
        return INTERRUPTED


if __name__ == "__main__":
    # run as `python -m experiments.cli` this file is __main__, a second copy of the module; the
    # commands raise experiments.cli.UsageError, so the importable module's main must catch it
    from experiments.cli import main as _main

    sys.exit(_main())
