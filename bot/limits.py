"""Limits on what players and files may hand the bot: JSON depth and size, integers
SQLite can store, and the length of a Discord message.

Input arrives from slash-command options, buttons, and exported files. Each is checked
here, once, before anything recursive (``json.dumps``, the engine) touches it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 64  # actions and options nest a few levels; anything deeper is not ours
MAX_ACTION_CHARS = 8_192  # the largest real action (a plan with 8 Improvements) is < 1 KiB
MESSAGE_LIMIT = 2_000  # Discord's limit on a message's content


def too_deep(value: Any, max_depth: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests lists/objects more than ``max_depth`` levels (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return True
        if isinstance(item, Mapping):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list | tuple):
            stack.extend((v, depth + 1) for v in item)
    return False


def text_too_deep(text: str, max_depth: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` opens more than ``max_depth`` nested lists/objects: checked on
    the raw text (strings skipped), before a recursive parser sees it."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def json_size(value: Any) -> int | None:
    """The length of ``value`` as compact JSON, or None if it is not plain JSON data (or
    holds an integer too long to print)."""
    try:
        return len(json.dumps(value, separators=(",", ":"), allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        return None


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_input(text: Any, limit: int = 60) -> str:
    """A piece of user input fit to quote in a reply: short, on one line."""
    s = " ".join(str(text).split())
    return clip(s, limit)
