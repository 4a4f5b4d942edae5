"""Reliability track: only ever goes down, one space per special action; benefits on the
space reached; below 0 costs 2 more credits (AA-REL-01/02)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import BOARD

REL = BOARD["reliability"]
LAST = len(REL["values"]) - 1


def value(p: dict[str, Any]) -> int:
    return REL["values"][p["reliability"]]


def section(p: dict[str, Any]) -> int:
    return REL["sections"][p["reliability"]]


def surcharge(p: dict[str, Any]) -> int:
    """Extra credits the next loss of reliability costs: 2 when the marker goes below 0 for
    the first time, and 2 every time after that (it can no longer move)."""
    return REL["below_zero_surcharge"] if REL["values"][p["reliability"]] <= 0 else 0


def lose(state: State, seat: str) -> list[dict[str, Any]]:
    """Lose one reliability; return the benefits of the space reached (to be gained at once).
    The surcharge is paid by the caller (it is part of the action's credits)."""
    p = state["players"][seat]
    if p["reliability"] >= LAST:
        say(state, f"{seat}'s reliability cannot go lower.")
        return []
    p["reliability"] += 1
    v = value(p)
    say(state, f"{seat} loses 1 reliability (now {v}).")
    return list(REL["benefits"].get(str(v), [])) if v >= 0 else []
