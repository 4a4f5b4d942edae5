"""The 8 main actions (AA-ACT-04, AA-WRK-01..05). Each action module offers
``choices(state, seat, extra)`` (the parameters it can be played with now) and
``resolve(state, seat, params, extra)``; this package places the worker and the marker."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.age_of_automaton import technology
from engine.age_of_automaton.common import State, has_res, say
from engine.age_of_automaton.data import (
    ACTION_NAMES,
    COLOURS,
    EQUIPMENT,
    IV_SPACE,
    ROMAN,
    WORKER_ACTIONS,
)
from engine.age_of_automaton.setup import fill_row
from engine.errors import IllegalAction
from engine.rng import Rng


def free_space(state: State, action: str, level: int) -> int | None:
    """The space a worker of ``level`` goes to: the Level IV space for a Level IV worker when
    it is free, otherwise the leftmost free ordinary space (AA-WRK-03)."""
    spaces = state["spaces"][action]
    if level == 4 and spaces[IV_SPACE] is None:
        return IV_SPACE
    for i, occ in enumerate(spaces):
        if i != IV_SPACE and occ is None:
            return i
    return None


def worker_levels(state: State, seat: str, action: str, extra: bool) -> list[int]:
    """Levels of built workers that may play ``action`` (on the card for an extra action)."""
    p = state["players"][seat]
    return [lvl for lvl in technology.levels(p) if extra or free_space(state, action, lvl) is not None]


def is_level(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 4


def place_worker(state: State, seat: str, action: str, level: int, extra: bool) -> None:
    p = state["players"][seat]
    if not is_level(level):
        raise IllegalAction("choose the level (1-4) of an automaton on your Technology track")
    if level not in technology.levels(p):
        raise IllegalAction(f"you have no Level {ROMAN[level]} automaton on your Technology track")
    if not extra:
        i = free_space(state, action, level)
        if i is None:
            raise IllegalAction("no worker space of that action is free for that level")
        state["spaces"][action][i] = [seat, level]
    technology.take_worker(state, seat, level)


def take_from_row(state: State, kind: str, card: str) -> None:
    """Take a card; cards to its right slide left and the deck refills the last space (AA-WRK-05)."""
    row = state["rows"][kind]
    row.remove(card)
    rng = Rng(state["rng"])
    fill_row(rng, row, state["decks"][kind], state["discards"][kind])
    state["rng"] = rng.state


def reachable(state: State, kind: str, level: int) -> list[str]:
    """Level I: the leftmost card; II: the first two; III: three; IV: any (AA-WRK-04)."""
    return state["rows"][kind][: min(level, 4)]


def card_choices(
    state: State, seat: str, kind: str, extra: bool, takes: Callable[[str], bool] | None = None
) -> list[dict[str, Any]]:
    """``{"worker": level, "card": card}`` for every worker that may play ``kind`` and
    every card of its row that the worker's level reaches and ``takes`` allows."""
    return [
        {"worker": lvl, "card": c}
        for lvl in worker_levels(state, seat, kind, extra)
        for c in reachable(state, kind, lvl)
        if takes is None or takes(c)
    ]


def reached_card(state: State, kind: str, params: dict[str, Any]) -> tuple[int, str]:
    """(level, card) of a card action's parameters; IllegalAction unless the level
    reaches the card (AA-WRK-04)."""
    level, card = params.get("worker"), params.get("card")
    if not is_level(level) or not isinstance(card, str) or card not in reachable(state, kind, level):
        raise IllegalAction("a Level I automaton takes only the leftmost card, II the first two, III three, IV any")
    return level, card


def take_card(state: State, seat: str, kind: str, level: int, extra: bool, card: str, name: str) -> None:
    """The worker placed (AA-WRK-01..03), the action logged, the card taken from its row."""
    place_worker(state, seat, kind, level, extra)
    log_action(state, seat, f"{ACTION_NAMES[kind]} with a Level {ROMAN[level]} automaton and takes {name}")
    take_from_row(state, kind, card)


def discounts(p: dict[str, Any]) -> dict[str, int]:
    out = {c: 0 for c in COLOURS}
    for e in p["equipment"]:
        for c, n in EQUIPMENT[e["id"]]["discount"].items():
            out[c] += n
    return out


def discounted(p: dict[str, Any], cost: dict[str, int]) -> dict[str, int]:
    """An Equipment cost less the accumulated discounts, never below 0 (AA-EQP-01)."""
    d = discounts(p)
    return {c: max(0, n - d.get(c, 0)) for c, n in cost.items()}


def affordable(p: dict[str, Any], cost: dict[str, int]) -> bool:
    return has_res(p, cost)


def is_worker_action(action: str) -> bool:
    return action in WORKER_ACTIONS


def log_action(state: State, seat: str, text: str) -> None:
    say(state, f"{seat} plays {text}.")
