"""Assembling: one worker raised one level per Sale Order (max IV), plus one Level I worker
per engineer, as far as unbuilt workers last (AA-ASM-01)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import reputation, technology
from engine.age_of_automaton.actions import log_action
from engine.age_of_automaton.common import State


def first_level(p: dict[str, Any]) -> int:
    return min(4, 1 + len(p["sale"]))


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    return [{}] if state["players"][seat]["unbuilt"] > 0 else []


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    p = state["players"][seat]
    log_action(state, seat, "Assembling")
    technology.build(state, seat, first_level(p), 1)
    n = reputation.engineers(p)
    if n and p["unbuilt"]:
        technology.build(state, seat, 1, n)
