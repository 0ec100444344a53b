"""``wayfarers view``: one self-contained HTML page that steps through a recorded game.

A person judging a bot wants to watch its game, not read a games.jsonl. The page needs no server
and no network (it can be mailed or opened from a run folder years later): the game's steps are
JSON inside it, drawn by the small hand-written script and style of ``view_template.html``.

The record is trusted only as ``replay`` trusts it, by the same code: a broken line or a game
that does not reproduce its scores stops with the same ``error:`` line (exit status 2), and the
page is written only after the whole game has been rebuilt. Step k shows the table before the
k-th recorded action, the decision it answered and the action; the last step shows the end.
A step holds only the fields of the table that changed (``view_state``): the four games of
``wayfarers simulate --players greedy,random --games 4 --seed 3 --out DIR`` (335 to 1,080 steps)
give pages of 97 to 219 KB, about 30 KB of them the script, the style and the content's names.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from wayfarers_env import Game, describe_action
from wayfarers_env.rules import solo

from . import solo_text
from .cli import UsageError
from .records import is_solo
from .replay import ReplayError, load_record, rebuild
from .view_state import content_table, decision, sections

TEMPLATE = Path(__file__).with_name("view_template.html")
DATA_MARK = "/*DATA*/"  # where the template takes the game's JSON


def default_out(path: str | Path, index: int) -> Path:
    """Beside the games.jsonl, so a run folder keeps its pages with its games."""
    return Path(path).parent / f"game_{index}.html"


def check_out(out: Path, overwrite: bool) -> None:
    """Refuse a page path that cannot be written, or would replace a file the user did not give up."""
    if out.is_dir():
        raise UsageError(f"--out {out} is a directory: give a file name, e.g. {out / 'game.html'}")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: folder {out.parent} does not exist")
    if out.exists() and not overwrite:
        raise UsageError(f"{out} exists: add --overwrite to replace it, or give another --out")


def steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per recorded action and one for the end: the turn, whose decision, its name and
    detail, the action in words (a solo game adds what the AI did after it), and the fields of
    the table that differ from the step before (all of them at step 0)."""
    game = Game(record["config"], record["seed"])
    shown: dict[str, dict[str, str]] = {}
    out = []
    actions = record["actions"]
    for k in range(len(actions) + 1):
        kind, detail = decision(game)
        if k == len(actions) and not game.is_over:
            kind, detail = "the record ends here", "the game is not over"
        elif k == len(actions) and game.ended_by_turn_limit:
            detail = f"stopped at the turn limit ({game.config.max_turns} turns), not by the journal"
        step: dict[str, Any] = {"t": game.state.turn, "s": game.current_player, "k": kind}
        if detail:
            step["d"] = detail
        step["c"] = changes(shown, sections(game))
        if k < len(actions):
            step["a"] = describe_action(actions[k])
            before = solo.snapshot(game.state) if game.config.solo else None
            turn = game.state.turn
            game.apply(actions[k])
            if before is not None and solo_text.ai_moved(game, turn):
                step["ai"] = solo.describe(game.state, before)
        out.append(step)
    return out


def changes(shown: dict[str, dict[str, str]], table: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The fields of each section that differ from ``shown`` (the table as the page last drew it,
    as JSON text per field), which is brought up to date."""
    out: dict[str, dict[str, Any]] = {}
    for name, section in table.items():
        before = shown.setdefault(name, {})
        for key, value in section.items():
            text = json.dumps(value, separators=(",", ":"))
            if before.get(key) != text:
                before[key] = text
                out.setdefault(name, {})[key] = value
    return out


def page_data(record: dict[str, Any], game: Game, source: str) -> dict[str, Any]:
    """Everything the page draws: who played, the content's names, the steps, the recorded result."""
    players = list(record["players"])
    if is_solo(record):
        players.append(solo_text.ai_label(game))
    c = game.config
    setup = [f"board sides {'/'.join('ab'[s] for s in game.state.sides)}"]
    if c.tides_of_trade:
        sides = "/".join("ab"[s] for s in game.state.ext_sides)
        setup.append(f"Tides of Trade (extension sides {sides}, card influence {c.card_influence})")
    if c.solo:
        setup.append(f"solo against the {solo_text.ai_label(game)}")
    return {
        "title": f"{source}, game {record.get('game', '?')}",
        "players": players,
        "seed": record["seed"],
        "setup": ", ".join(setup),
        "solo": bool(c.solo),
        "content": content_table(game),
        "steps": steps(record),
        "scores": record["scores"],
        "winners": record["winners"],
    }


def page(data: dict[str, Any]) -> str:
    """The template with the data in it; '<' is escaped so no card name can close the script."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).replace("<", "\\u003c")
    template = TEMPLATE.read_text(encoding="utf-8")
    title = data["title"].replace("&", "&amp;").replace("<", "&lt;")
    return template.replace("<title>wayfarers replay</title>", f"<title>wayfarers replay: {title}</title>").replace(DATA_MARK, text)


def write_new(out: Path, text: str, overwrite: bool) -> None:
    """Write through a temporary file in the same folder, so an interrupted run leaves no half page."""
    fd, tmp = tempfile.mkstemp(prefix=".view-", suffix=".html", dir=out.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as an ordinary new file, not mkstemp's owner-only mode
        if not overwrite and out.exists():  # appeared while the game was rebuilt
            raise UsageError(f"{out} exists: add --overwrite to replace it, or give another --out")
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def run(args) -> int:
    out = Path(args.out) if args.out else default_out(args.path, args.game)
    try:
        number, record = load_record(args.path, args.game)
        check_out(out, args.overwrite)
        where = f"{Path(args.path).name} line {number}"
        game = rebuild(record, where)
    except ReplayError as exc:
        raise UsageError(str(exc)) from None
    data = page_data(record, game, where)
    write_new(out, page(data), args.overwrite)
    print(f"wrote {out} ({len(data['steps'])} steps, {out.stat().st_size // 1024} KB)")
    return 0
