"""Reputation track: megaphones, engineers and the VP tokens on spaces 5 and 10 (AA-REP-01/02)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.common import State, say, score
from engine.age_of_automaton.data import BOARD

REP = BOARD["reputation"]


def engineers(p: dict[str, Any]) -> int:
    return REP["engineers"][p["rep"]]


def gain(state: State, seat: str, n: int = 1) -> None:
    p = state["players"][seat]
    for _ in range(n):
        if p["rep"] >= REP["max"]:
            break
        p["rep"] += 1
        say(state, f"{seat} gains 1 reputation (now {p['rep']}).")
        stack = state["vp_tokens"].get(str(p["rep"]))
        if stack:
            vp = stack.pop(0)
            score(state, seat, vp, f"{vp}-VP token on reputation space {p['rep']}")
