"""Builders for Age of Automaton rule tests: games at a chosen point, and play helpers."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.game import GAME

NAMES = ["Emily", "Tyler", "Ann", "Bob"]


def new_game(n: int = 3, seed: int = 1, rules: int | None = None, **options: Any) -> dict[str, Any]:
    """A new game (``rules``: a rules version other than the current one)."""
    return GAME.setup(NAMES[:n], seed, options, rules=rules)


def drafted(n: int = 3, seed: int = 1, rules: int | None = None, **options: Any) -> dict[str, Any]:
    """A game right after the draft (each keeps the first card offered): the first
    player's turn of round 1."""
    state = new_game(n, seed, rules, **options)
    while state["phase"] == "draft":
        for seat in sorted(GAME.pending(state)):
            state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def active(state: dict[str, Any]) -> str:
    (seat,) = GAME.pending(state)
    return seat


def play(state: dict[str, Any], action: dict[str, Any], seat: str | None = None) -> dict[str, Any]:
    return GAME.apply(state, seat or active(state), action)


def answer_all(state: dict[str, Any], seat: str, prefer: dict[str, Any] | None = None) -> dict[str, Any]:
    """Answer the open questions of ``seat`` with the first legal answer (or ``prefer``'s
    answer for a kind), until it is back to its turn prompt or someone else's turn."""
    while state["asks"] and state["asks"][0]["seat"] == seat:
        kind = state["asks"][0]["kind"]
        action = (prefer or {}).get(kind) or GAME.legal_actions(state, seat)[0]
        state = GAME.apply(state, seat, action)
    return state


def vp_logged(lines: list[str], seat: str) -> int:
    import re

    total = 0
    for line in lines:
        m = re.match(rf"^{re.escape(seat)} scores (\d+) VP \(", line)
        if m:
            total += int(m.group(1))
    return total
