"""The shape of a game export (``App.export``), checked before anything replays it.

An export comes from outside (a bug report, a file an operator pastes), so a replay
first checks that it is one: ``read_export`` turns text into a checked dict or raises
:class:`NotAnExport` ("not a boardroom export: ...") — never a traceback, whatever
the text holds (deep nesting, a 5,000-digit number, a list, wrong types).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.limits import too_deep
from bot.records import AppError

MAX_EXPORT_CHARS = 20_000_000  # a whole game's log is a few hundred KiB
MAX_SEED_DIGITS = 80  # a 256-bit seed has 78 digits


class NotAnExport(AppError):
    def __init__(self, why: str) -> None:
        super().__init__(f"not a boardroom export: {why}")


def read_export(text: str) -> dict[str, Any]:
    """Parse and check an export's text."""
    if len(text) > MAX_EXPORT_CHARS:
        raise NotAnExport(f"it is larger than {MAX_EXPORT_CHARS:,} characters")
    try:
        data = json.loads(text)
    except RecursionError:
        raise NotAnExport("it is nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and ints over Python's digit limit
        raise NotAnExport(f"it is not valid JSON ({str(exc)[:120]})") from None
    check_export(data)
    return data


def check_export(data: Any) -> None:
    """Raise :class:`NotAnExport` unless ``data`` has the shape ``App.export`` writes."""
    if not isinstance(data, Mapping):
        raise NotAnExport(f"the top level is a {type(data).__name__}, not an object")
    if data.get("format") != "boardroom-game":
        raise NotAnExport('"format" is not "boardroom-game"')
    if too_deep(data):
        raise NotAnExport("it is nested too deeply")
    if not isinstance(data.get("game"), str):
        raise NotAnExport('"game" must be a game name')
    seed = data.get("seed")
    if seed is not None and not _is_seed(seed):
        raise NotAnExport(f'"seed" must be a whole number of at most {MAX_SEED_DIGITS} digits')
    if not isinstance(data.get("options", {}), Mapping):
        raise NotAnExport('"options" must be an object')
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats:
        raise NotAnExport('"seats" must be a non-empty list')
    for s in seats:
        if not (isinstance(s, Mapping) and isinstance(s.get("seat"), str) and _small_int(s.get("position"))):
            raise NotAnExport('each seat needs a "seat" name and a "position" number')
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise NotAnExport('"actions" must be a list')
    for a in actions:
        if not (
            isinstance(a, Mapping) and _small_int(a.get("seq")) and isinstance(a.get("seat"), str)
            and isinstance(a.get("action"), Mapping)
        ):
            raise NotAnExport('each action needs a "seq" number, a "seat" and an "action" object')
    result = data.get("result")
    if result is not None and not isinstance(result, Mapping):
        raise NotAnExport('"result" must be an object')


def _is_seed(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value >= 0 and value.bit_length() <= 266
    return isinstance(value, str) and value.isdigit() and len(value) <= MAX_SEED_DIGITS


def _small_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**62
