"""Builders for Smartphone Inc. rule tests: games at a chosen point of a round."""

from __future__ import annotations

import copy
from typing import Any

from engine.smartphone_inc import flow, steve
from engine.smartphone_inc.game import GAME

SYMBOLS = ("down", "up", "prod", "improve", "research", "logistics")
PLAN = {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": 2, "y": 0}, "improvements": []}


def new_game(n: int = 3, seed: int = 1, steve_seat: bool = False, **options: Any) -> dict[str, Any]:
    seats = [f"p{i + 1}" for i in range(n)]
    if steve_seat:
        seats[-1] = "steve"
        options.setdefault("automata", ["steve"])
    return GAME.setup(seats, seed, options)


def outcome(covered: int = 1, face_down: tuple[str, ...] = (), **active: int) -> dict[str, Any]:
    return {"active": {k: active.get(k, 0) for k in SYMBOLS}, "covered": covered, "face_down": list(face_down)}


def reveal_with(
    state: dict[str, Any], outcomes: dict[str, dict[str, Any]], until: str | None = None
) -> dict[str, Any]:
    """Skip Planning: give each company the outcome given (default: nothing active, 1
    covered), then run the automatic phases up to the first decision (or until phase
    ``until`` begins)."""
    for seat in state["seats"]:
        p = state["players"][seat]
        if p["steve"]:
            p["outcome"] = steve.plan_outcome(state)
            continue
        p["plan"] = dict(PLAN)
        p["outcome"] = outcomes.get(seat, outcome())
    state["log"] = []
    flow.enter(state, "prices")
    flow.run(state, until)
    return state


def revealed_at(state: dict[str, Any], outcomes: dict[str, dict[str, Any]], phase: str) -> dict[str, Any]:
    """:func:`reveal_with`, checked to stop at a decision of ``phase``."""
    state = reveal_with(state, outcomes)
    assert state["phase"] == phase, state["phase"]
    return state


def act(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
    return GAME.apply(state, seat, action)


def pass_turns(state: dict[str, Any], until_phase: str) -> dict[str, Any]:
    """Answer every decision with the first legal action until ``until_phase``."""
    guard = 0
    while state["phase"] != until_phase:
        pend = GAME.pending(state)
        if not pend:
            flow.run(state, until_phase)
            if state["phase"] == until_phase or state["phase"] == "over":
                return state
            pend = GAME.pending(state)
            if not pend:
                raise AssertionError(f"stuck in {state['phase']}")
        seat = sorted(pend)[0]
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1] if pend[seat]["type"] in ("research", "logistics") else GAME.legal_actions(state, seat)[0])
        guard += 1
        if guard > 500:
            raise AssertionError("too many actions")
    return state


def act_here(state: dict[str, Any], seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """Apply one decision and stop there (no automatic phases after it), to look at its
    immediate effect."""
    if seat not in GAME.pending(state):
        raise AssertionError(f"{seat} is not pending")
    new = copy.deepcopy(state)
    new["log"] = []
    flow.act(new, seat, action)
    return new
