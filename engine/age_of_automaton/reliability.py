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


def next_benefits(p: dict[str, Any]) -> list[dict[str, Any]]:
    """The benefits of the space the next loss of reliability reaches ([] if none)."""
    if p["reliability"] >= LAST:
        return []
    v = REL["values"][p["reliability"] + 1]
    return list(REL["benefits"].get(str(v), [])) if v >= 0 else []


def next_credits(p: dict[str, Any]) -> int:
    """Credits the next loss of reliability gives at once (rules 4: before the action's
    credits are paid, so they can pay them)."""
    return sum(int(a.get("credits", 0)) for a in next_benefits(p))


def immediate(state: State) -> bool:
    """Rules 4 (versions.py): the benefits of the space reached are gained IMMEDIATELY,
    before the action's credits are paid and before any open question; rules 1-3 queued
    them behind the open question."""
    return int(state.get("rules", 1)) >= 4


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
