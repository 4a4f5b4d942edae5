"""Technology track: building and upgrading automatons (AA-TEC-01/02). ``p["tech"][i]``
counts the built workers of level i+1; ``p["unbuilt"]`` the dice in the play area."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.common import State, say
from engine.age_of_automaton.data import ROMAN


def built(p: dict[str, Any]) -> int:
    return sum(p["tech"])


def total_level(p: dict[str, Any]) -> int:
    return sum((i + 1) * n for i, n in enumerate(p["tech"]))


def levels(p: dict[str, Any]) -> list[int]:
    return [i + 1 for i, n in enumerate(p["tech"]) if n]


def build(state: State, seat: str, level: int, n: int = 1) -> int:
    """Add up to ``n`` unbuilt workers at ``level``; fewer if fewer are left."""
    p = state["players"][seat]
    n = min(n, p["unbuilt"])
    if n > 0:
        p["unbuilt"] -= n
        p["tech"][min(level, 4) - 1] += n
        say(state, f"{seat} builds {n} Level {ROMAN[min(level, 4)]} automaton{'s' if n != 1 else ''}.")
    elif n == 0:
        say(state, f"{seat} has no unbuilt automaton left to build.")
    return n


def can_upgrade(p: dict[str, Any]) -> list[int]:
    """Levels holding a worker that can still go up."""
    return [lvl for lvl in (1, 2, 3) if p["tech"][lvl - 1]]


def upgrade(state: State, seat: str, level: int, steps: int) -> None:
    """One worker of ``level`` goes up ``steps`` levels; beyond IV is lost (AA-TEC-02)."""
    p = state["players"][seat]
    to = min(4, level + steps)
    p["tech"][level - 1] -= 1
    p["tech"][to - 1] += 1
    say(state, f"{seat} upgrades a Level {ROMAN[level]} automaton to Level {ROMAN[to]}.")


def take_worker(state: State, seat: str, level: int) -> None:
    p = state["players"][seat]
    p["tech"][level - 1] -= 1
    p["placed"] += 1
