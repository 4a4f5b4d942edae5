"""R&D: take a card the level reaches, gain its upgrade and relationships, keep it face down;
bonus credits (round 1) or any resources/credits (AA-RD-01/02)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects
from engine.age_of_automaton.actions import (
    is_level,
    log_action,
    place_worker,
    reachable,
    take_from_row,
    worker_levels,
)
from engine.age_of_automaton.common import State
from engine.age_of_automaton.data import RND, ROMAN
from engine.errors import IllegalAction


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    return [
        {"worker": lvl, "card": c}
        for lvl in worker_levels(state, seat, "rnd", extra)
        for c in reachable(state, "rnd", lvl)
    ]


def bonus(state: State, level: int) -> dict[str, Any]:
    if state["round"] == 1:
        return {"credits": level, "why": "R&D bonus"}
    return {"any_or_credits": level, "why": "R&D bonus"}


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    level, card = params.get("worker"), params.get("card")
    if not is_level(level) or not isinstance(card, str) or card not in reachable(state, "rnd", level):
        raise IllegalAction("a Level I automaton takes only the leftmost card, II the first two, III three, IV any")
    place_worker(state, seat, "rnd", level, extra)
    info = RND[card]
    log_action(state, seat, f"R&D with a Level {ROMAN[level]} automaton and takes {info['name']} ({info['part']})")
    take_from_row(state, "rnd", card)
    state["players"][seat]["rnd"].append(card)
    steps: list[dict[str, Any]] = [{"upgrade": info["upgrade"], "why": info["name"]}]
    if info["logos"]:
        steps.append({"rel": info["logos"]})
    steps.append(bonus(state, level))
    effects.queue(state, seat, steps, front=True)
