"""Relationship tracks: one space per company logo, moves past the end are lost (AA-RLT-01)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import RELATIONSHIPS


def value(p: dict[str, Any], company: str) -> int:
    return RELATIONSHIPS[company]["values"][p["rel"][company]]


def improve(state: State, seat: str, logos: list[str]) -> None:
    p = state["players"][seat]
    for company in logos:
        track = RELATIONSHIPS[company]
        if p["rel"][company] >= len(track["values"]) - 1:
            say(state, f"{seat} is already at the end of the {track['name']} track.")
            continue
        p["rel"][company] += 1
        say(state, f"{seat} improves the relationship with the {track['name']} (now worth {value(p, company)}).")
