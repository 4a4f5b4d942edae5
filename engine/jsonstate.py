"""Helpers for game states, which are plain JSON data, and for the games' JSON data files."""

from __future__ import annotations

import json
import marshal
from importlib import resources
from typing import Any


def clone(obj: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, str, int, float, bool, None).

    A marshal round trip (in C, in memory only) is ~5x faster than copy.deepcopy on a
    game state and keeps every type as it was."""
    return marshal.loads(marshal.dumps(obj))


def dumps(obj: Any) -> str:
    """Canonical JSON text: same data, same bytes."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def game_data(package: str, name: str) -> Any:
    """The JSON file ``data/<name>`` of the game package ``package`` (its components)."""
    return json.loads(resources.files(package).joinpath("data", name).read_text("utf-8"))
