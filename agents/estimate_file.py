"""An ``Estimate`` as a JSON file, so that a bot's weights can be data (``cartographer:estimate=PATH``).

Why. The strategies' weights were set by hand; ``experiments.estimate_fit`` fits them to game
outcomes, and a user tuning a bot edits numbers, not code. The file is one JSON object whose keys
are ``Estimate``'s fields; a field left out keeps the value of the estimate it is read over (the
strategy's own, for ``STRATEGY:estimate=PATH``). A key that is no field, a value of the wrong
type or a non-finite number is an ``EstimateFileError`` naming the key and what is allowed, so a
typo never silently plays the defaults.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

from wayfarers_env.content.measures import TAGS
from wayfarers_env.vocabulary import ASSETS  # the order of ``Estimate.asset_extra``

from .evaluation import NEUTRAL, Estimate
from .registry import UnknownBotError

FIELDS = {f.name: f for f in dataclasses.fields(Estimate)}


class EstimateFileError(UnknownBotError):
    """An estimate file that is missing, not JSON, or not a set of ``Estimate`` fields."""


def _number(key: str, value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise EstimateFileError(f"{where}: {key} must be a finite number, got {value!r}")
    return float(value)


def from_dict(data: Any, base: Estimate = NEUTRAL, where: str = "estimate") -> Estimate:
    """``base`` with the fields ``data`` sets; see the module docstring for what is refused."""
    if not isinstance(data, dict):
        raise EstimateFileError(f"{where}: an estimate is a JSON object of Estimate fields, got {type(data).__name__}")
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key not in FIELDS:
            raise EstimateFileError(f"{where}: unknown field {key!r}; fields: {', '.join(FIELDS)}")
        if key == "symmetric":
            if not isinstance(value, bool):
                raise EstimateFileError(f"{where}: symmetric must be true or false, got {value!r}")
            changes[key] = value
        elif key == "asset_extra":
            if not isinstance(value, list) or len(value) != len(ASSETS):
                raise EstimateFileError(f"{where}: asset_extra is a list of {len(ASSETS)} numbers ({', '.join(ASSETS)}), got {value!r}")
            changes[key] = tuple(_number(f"asset_extra[{i}]", v, where) for i, v in enumerate(value))
        elif key == "tags":
            if not isinstance(value, dict) or any(t not in TAGS for t in value):
                raise EstimateFileError(f"{where}: tags maps tag names ({', '.join(TAGS)}) to numbers, got {value!r}")
            changes[key] = {t: _number(f"tags.{t}", v, where) for t, v in value.items()}
        elif key in ("resource_cap", "tag_cap"):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EstimateFileError(f"{where}: {key} must be a whole number of at least 0, got {value!r}")
            changes[key] = value
        else:
            changes[key] = _number(key, value, where)
    return dataclasses.replace(base, **changes)


def to_dict(est: Estimate) -> dict[str, Any]:
    """Every field, in JSON's types (``asset_extra`` a list)."""
    data = dataclasses.asdict(est)
    data["asset_extra"] = list(est.asset_extra)
    return data


def load(path: str | Path, base: Estimate = NEUTRAL) -> Estimate:
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise EstimateFileError(f"estimate file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise EstimateFileError(f"estimate file {str(path)!r} is not readable JSON: {exc}") from None
    return from_dict(data, base, where=str(path))


def save(est: Estimate, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_dict(est), indent=1) + "\n")
