"""A plain-JSON picture of a loaded ``Content``, field by field, to prove the base game's content
does not change when the expansion's data is added beside it.

tests/golden/content_base.json and content_tides_inspiration.json hold the pictures taken before the
Tides of Trade content was added (regenerate only after an intended base-game change:
``python tests/content_snapshot.py --update``). A field holding its default is left out (the
default is implied), so a field a record gains later changes nothing while it keeps its default, and a
base entry that starts using one shows up.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).with_name("golden")
SNAPSHOTS = {"content_base.json": frozenset(), "content_tides_inspiration.json": frozenset({"tides_inspiration"})}


def plain(value: Any) -> Any:
    """Effects print as their canonical text, measures as their text, records as dicts of their fields."""
    from wayfarers_env.content.effects import Atom, Choice, Cost, Repeat, Seq, to_text
    from wayfarers_env.content.measures import Measure

    if isinstance(value, (Atom, Seq, Choice, Cost, Repeat)):
        return to_text(value)
    if isinstance(value, Measure):
        return value.text
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if f.default is not dataclasses.MISSING and v == f.default:
                continue  # at its default: implied (so a field a record gains later changes nothing)
            out[f.name] = plain(v)
        return out
    if isinstance(value, dict):
        return {json.dumps(plain(k)) if not isinstance(k, str) else k: plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(value)
    return value


def snapshot(content: Any) -> dict[str, Any]:
    """The content's fields; the id maps (by_id, ...) are left out as they only index the lists."""
    picture = plain(content)
    for derived in ("by_id", "design_by_id", "node_by_id", "tides"):
        picture.pop(derived, None)
    return picture


def dumps(picture: dict[str, Any]) -> str:
    """One line per field, and per entry of a list field, so a difference shows as the lines of its entries."""
    lines = ["{"]
    for n, (key, value) in enumerate(sorted(picture.items())):
        end = "," if n < len(picture) - 1 else ""
        if isinstance(value, list) and value:
            lines.append(f" {json.dumps(key)}: [")
            lines += [f"  {json.dumps(v, sort_keys=True)}" + ("," if i < len(value) - 1 else "") for i, v in enumerate(value)]
            lines.append(" ]" + end)
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, sort_keys=True)}{end}")
    return "\n".join(lines + ["}"]) + "\n"


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import wayfarers_env  # noqa: F401  (declares the icons)
    from wayfarers_env.content import load_content

    if argv != ["--update"]:
        print("usage: python tests/content_snapshot.py --update", file=sys.stderr)
        return 2
    for name, options in SNAPSHOTS.items():
        (HERE / name).write_text(dumps(snapshot(load_content(options=options))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
