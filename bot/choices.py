"""Choosing any decision from a list of options, generic for every game.

* :class:`Choice` (value, label, description): one option of a select; the views turn
  them into Discord select options (25 per select, so long lists are paged: :func:`page`).
* :class:`ActionPath` + :func:`action_step`: a decision picked from the engine's
  ``legal_actions`` list. A short list is one select; a bigger one is walked field by
  field (first the field where the remaining actions differ), so research splits,
  placements and sales are built in a few clicks. This is the fallback for every prompt
  a game's presenter does not specialise; the labels come from the presenter's words
  (:class:`Words`: ``describe_action``, ``describe_key``, ``describe_value``).

No ``discord``, no game package here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot import text
from engine import IllegalAction

PAGE = 23  # options per select page (2 slots left for "previous"/"more")


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    description: str = ""


class Words(Protocol):
    """How a game labels the parts of its actions (a presenter is one)."""

    def describe_action(self, action: dict[str, Any]) -> str: ...
    def describe_key(self, key: str) -> str: ...
    def describe_value(self, key: str, value: Any) -> str: ...


class PlainWords:
    """Labels for any game: the action's own keys and values in words (no JSON)."""

    def describe_action(self, action: dict[str, Any]) -> str:
        return text.describe_action(action)

    def describe_key(self, key: str) -> str:
        return text.describe_key(key)

    def describe_value(self, key: str, value: Any) -> str:
        return text.describe_value(key, value)


PLAIN = PlainWords()


def page(items: list[Choice], number: int) -> list[Choice]:
    """Page ``number`` (from 0) of at most 25 options, with "more"/"back" entries when needed."""
    if len(items) <= 25:
        return items
    pages = (len(items) + PAGE - 1) // PAGE
    number = max(0, min(number, pages - 1))
    chunk = items[number * PAGE : (number + 1) * PAGE]
    if number > 0:
        chunk = [Choice("@prev", f"◀ previous options (page {number}/{pages})")] + chunk
    if number < pages - 1:
        chunk = chunk + [Choice("@next", f"more options ▶ (page {number + 2}/{pages})")]
    return chunk


def turned_page(value: str, number: int) -> int | None:
    """The page a "previous"/"more" entry of :func:`page` leads to from page ``number``;
    None when ``value`` is an option."""
    if value == "@next":
        return number + 1
    if value == "@prev":
        return max(0, number - 1)
    return None


def picked(op: str, value: str, number: int, stale: str) -> tuple[str, int]:
    """A select's pick in a builder whose options are a letter and a number ("c3"): the
    letter and the number, or ``("@", page)`` for a page turned from page ``number``.
    IllegalAction: ``stale`` for an op that is not a select (an older button), "not on
    the list" for a value that is neither."""
    if op != "select":
        raise IllegalAction(stale)
    turned = turned_page(value, number)
    if turned is not None:
        return "@", turned
    try:
        return value[0], int(value[1:])
    except (IndexError, ValueError):
        raise IllegalAction("That choice is not on the list any more.") from None


def tagged(*fields: tuple[str, Any]) -> list[str]:
    """A draft's fields in its code: the tag and value of each field that is not None."""
    return [f"{tag}{value}" for tag, value in fields if value is not None]



@dataclass(frozen=True)
class Step:
    """One select of a step-by-step action: its title and options, or the finished action."""

    title: str
    choices: list[Choice] = field(default_factory=list)
    action: dict[str, Any] | None = None
    at_once: bool = False  # the pick that led here applies at once (no Confirm; Undo is the way back)
    finish: dict[str, Any] | None = None  # the same choice that also ends the turn ("Confirm and end")


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k in sorted(value):
            out.update(_flatten(value[k], f"{prefix}.{k}" if prefix else str(k)))
        return out or {prefix: {}}
    if isinstance(value, list):
        out = {}
        for i, v in enumerate(value):
            out.update(_flatten(v, f"{prefix}.{i}"))
        out[f"{prefix}.#"] = len(value)
        return out
    return {prefix: value}


@dataclass(frozen=True)
class ActionPath:
    """The choices made so far in a step-by-step action.

    Each pick is ``"3"`` (the 4th value of the field being chosen) or ``"=17"``
    (action 17 of the list, once the list is short enough to show whole).
    """

    picks: tuple[str, ...] = ()

    def encode(self) -> str:
        return ".".join(self.picks) or "-"

    @classmethod
    def decode(cls, code: str) -> ActionPath:
        if not code or code == "-":
            return cls()
        parts = tuple(code.split("."))
        if not all(p.lstrip("=").isdigit() for p in parts):
            return cls()
        return cls(parts)

    def then(self, value: str) -> ActionPath:
        return ActionPath(self.picks + (value,))

    def back(self) -> ActionPath:
        return ActionPath(self.picks[:-1])


def _keys_in_order(flat: list[dict[str, Any]]) -> list[str]:
    keys: list[str] = []
    for f in flat:
        for k in f:
            if k not in keys:
                keys.append(k)
    # "type" first, list lengths before their items, else in order of appearance
    return sorted(keys, key=lambda k: (k != "type", not k.endswith(".#")))


STALE = "that choice is out of date; open your prompt again"


def action_step(
    actions: Sequence[dict[str, Any]],
    path: ActionPath,
    words: Words = PLAIN,
) -> Step:
    """Where ``path`` leads in ``actions``: the next select, or the chosen action.

    A list of at most 25 actions is shown whole. A longer one is narrowed one
    field at a time (in a stable order) until at most 25 remain.
    """
    if not actions:
        return Step("Nothing to decide.")
    flat = [_flatten(a) for a in actions]
    keys = _keys_in_order(flat)
    remaining = list(range(len(actions)))
    picks = list(path.picks)
    ki = 0
    while True:
        if len(remaining) == 1:
            return Step("", action=actions[remaining[0]])
        if len(remaining) <= 25:
            if not picks:
                detail = getattr(words, "describe_detail", None)  # a game's optional second line
                return Step("Choose:", [
                    Choice(f"={i}", text.clip(words.describe_action(actions[i]), 100),
                           text.clip(detail(actions[i]), 100) if detail else "")
                    for i in remaining
                ])
            p = picks.pop(0)
            if not p.startswith("=") or int(p[1:]) not in remaining:
                raise IllegalAction(STALE)
            return Step("", action=actions[int(p[1:])])
        # narrow by the next field on which the remaining actions differ
        while ki < len(keys):
            values: list[Any] = []
            for i in remaining:
                v = flat[i].get(keys[ki])
                if v not in values:
                    values.append(v)
            if len(values) > 1:
                break
            ki += 1
        else:  # identical actions: take the first
            return Step("", action=actions[remaining[0]])
        key = keys[ki]
        ki += 1
        if not picks:
            choices = [
                Choice(str(j), text.clip(f"{words.describe_key(key)}: {words.describe_value(key, v)}", 100))
                for j, v in enumerate(values)
            ]
            return Step(f"Choose {words.describe_key(key)}:", choices[:25])
        p = picks.pop(0)
        if p.startswith("=") or not 0 <= int(p) < len(values):
            raise IllegalAction(STALE)
        chosen = values[int(p)]
        remaining = [i for i in remaining if flat[i].get(key) == chosen]
