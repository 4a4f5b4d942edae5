"""Market phase: the first player rolls 3 Resource dice; those tokens wait on the Market
space for Purchasing (AA-MKT-01)."""

from __future__ import annotations

from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import BOARD
from engine.rng import Rng

RESOURCE_DIE = BOARD["dice"]["resource"]


def run(state: State) -> None:
    rng = Rng(state["rng"])
    faces = [RESOURCE_DIE[rng.below(len(RESOURCE_DIE))] for _ in range(3)]
    state["rng"] = rng.state
    state["market"] = faces
    first = state["order"][0]
    state["dice"] = {"kind": "resource", "seat": first, "faces": list(faces)}
    say(state, f"Round {state['round']}, Market phase: {first} rolls the Resource dice: {', '.join(faces)}.")
