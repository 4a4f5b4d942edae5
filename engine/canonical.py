"""The canonical form of an action: the common core of every game's ``canonical_action``.

A game lists, for each kind of action (its ``type``), the fields the engine reads and
the JSON shape of each (:data:`Fields`). :func:`canonical` checks an action against
that table before the rules see it: anything not shaped like a move of this game (not
an object, a ``type`` that is not one of the game's, a field of the wrong kind: a list
where a name goes, an object where a number goes) is refused with
:class:`IllegalAction`, and the fields the game does not know are named, so the app
refuses them too and stores only what the engine reads. Whether the move is *legal*
is still the rules' business (``apply``); this is only its shape.

A shape is a function that takes a JSON value and returns its canonical copy, or
raises :class:`Malformed`. The shapes here (:func:`text`, :func:`number`, :func:`flag`,
:func:`maybe`, :func:`either`, :func:`list_of`, :func:`map_of`, :func:`record`) cover
what the three games send.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import IllegalAction

__all__ = [
    "Fields", "Malformed", "Shape", "canonical", "either", "flag", "list_of", "map_of", "maybe",
    "number", "record", "text",
]

Shape = Callable[[Any], Any]
Fields = Mapping[str, Mapping[str, Shape]]

MOST_ITEMS = 64  # no move of these games lists more (the longest: a plan's Improvements)
MOST_TEXT = 64  # names, ids and keys are short
BIGGEST = 10**6  # no count or number of a move comes near


class Malformed(ValueError):
    """A value not of the shape a field needs (the reason is internal; the player reads
    :func:`canonical`'s message)."""


def text(value: Any) -> str:
    if not isinstance(value, str) or len(value) > MOST_TEXT:
        raise Malformed("not a short text")
    return value


def number(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > BIGGEST:
        raise Malformed("not a whole number")
    return value


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Malformed("not true or false")
    return value


def maybe(shape: Shape) -> Shape:
    def check(value: Any) -> Any:
        return None if value is None else shape(value)

    return check


def either(*shapes: Shape) -> Shape:
    def check(value: Any) -> Any:
        for shape in shapes:
            try:
                return shape(value)
            except Malformed:
                continue
        raise Malformed("none of the shapes")

    return check


def list_of(shape: Shape, most: int = MOST_ITEMS) -> Shape:
    def check(value: Any) -> list[Any]:
        if not isinstance(value, list) or len(value) > most:
            raise Malformed("not a list")
        return [shape(v) for v in value]

    return check


def map_of(shape: Shape, most: int = MOST_ITEMS) -> Shape:
    """An object with short text keys, each value of ``shape``."""

    def check(value: Any) -> dict[str, Any]:
        if not isinstance(value, dict) or len(value) > most:
            raise Malformed("not an object")
        return {text(k): shape(v) for k, v in value.items()}

    return check


def record(fields: Mapping[str, Shape]) -> Shape:
    """An object with these fields only (each optional here; the rules say which they
    need)."""

    def check(value: Any) -> dict[str, Any]:
        if not isinstance(value, dict) or any(k not in fields for k in value):
            raise Malformed("not the object")
        return {k: fields[k](value[k]) for k in fields if k in value}

    return check


def canonical(action: Any, fields: Fields) -> tuple[dict[str, Any], list[str]]:
    """(``action`` with only the fields its type has, each in canonical form; the names
    of the other fields, sorted). Raises IllegalAction for anything malformed."""
    if not isinstance(action, dict):
        raise IllegalAction("A move is a JSON object with a 'type'.")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in fields:
        raise IllegalAction("That is not a move of this game.")
    known = fields[kind]
    canon: dict[str, Any] = {"type": kind}
    for name, shape in known.items():
        if name in action:
            try:
                canon[name] = shape(action[name])
            except IllegalAction:
                raise  # the game's own words (a plan's structure)
            except (Malformed, TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
                raise IllegalAction(
                    f"That move is not in a form this game understands (its {name.replace('_', ' ')!r})."
                ) from None
    unknown = sorted(str(k) for k in action if k != "type" and k not in known)
    return canon, unknown
