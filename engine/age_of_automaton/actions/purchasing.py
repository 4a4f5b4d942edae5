"""Purchasing: the 3 Market tokens' colours plus one rolled resource per engineer (AA-PUR-01)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import reputation
from engine.age_of_automaton.actions import log_action
from engine.age_of_automaton.common import State, gain_res, say
from engine.age_of_automaton.data import BOARD
from engine.rng import Rng

RESOURCE_DIE = BOARD["dice"]["resource"]


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    return [{}]


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    p = state["players"][seat]
    log_action(state, seat, "Purchasing")
    got = {"red": 0, "blue": 0, "yellow": 0}
    for c in state["market"]:
        got[c] += 1
    n = reputation.engineers(p)
    if n:
        rng = Rng(state["rng"])
        faces = [RESOURCE_DIE[rng.below(len(RESOURCE_DIE))] for _ in range(n)]
        state["rng"] = rng.state
        state["dice"] = {"kind": "resource", "seat": seat, "faces": faces}
        say(state, f"{seat} rolls {n} Resource di{'ce' if n != 1 else 'e'}: {', '.join(faces)}.")
        for c in faces:
            got[c] += 1
    gain_res(state, seat, got, "Purchasing")
