"""Errors the engines raise, and the two checks every game makes of what a player sends."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action that the rules do not allow; the message is meant for the player."""


class StateTooNew(ValueError):
    """A saved state (or a rules version) newer than this code: a newer boardroom wrote
    it. The message says so; never guess at it, upgrade the code instead."""


def require(cond: bool, message: str) -> None:
    """IllegalAction(``message``) unless ``cond``."""
    if not cond:
        raise IllegalAction(message)


def as_int(value: Any, what: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` if it is a whole number from ``lo`` to ``hi``; else IllegalAction naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{what} must be a whole number")
    if lo is not None and value < lo:
        raise IllegalAction(f"{what} must be at least {lo}")
    if hi is not None and value > hi:
        raise IllegalAction(f"{what} must be at most {hi}")
    return value
