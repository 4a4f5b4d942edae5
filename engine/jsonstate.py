"""Helpers for game states, which are plain JSON data."""

from __future__ import annotations

import json
from typing import Any


def clone(obj: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars); ~3x faster than copy.deepcopy."""
    kind = type(obj)
    if kind is dict:
        return {k: clone(v) for k, v in obj.items()}
    if kind is list:
        return [clone(v) for v in obj]
    return obj


def dumps(obj: Any) -> str:
    """Canonical JSON text: same data, same bytes."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))
