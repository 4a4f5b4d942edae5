"""Funding: 3 credits plus 1 per engineer (AA-FUND-01)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import reputation
from engine.age_of_automaton.actions import log_action
from engine.age_of_automaton.common import State, gain_credits


def amount(p: dict[str, Any]) -> int:
    return 3 + reputation.engineers(p)


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    return [{}]


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    p = state["players"][seat]
    log_action(state, seat, "Funding")
    n = reputation.engineers(p)
    gain_credits(state, seat, amount(p), f"Funding: 3 + {n} engineer{'s' if n != 1 else ''}")
