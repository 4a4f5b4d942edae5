"""Sale: take a Sale Order the level reaches, pay it, improve relationships and gain 1
reputation at once; bonus credits = level (AA-SALE-01/02)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects
from engine.age_of_automaton.actions import (
    affordable,
    is_level,
    log_action,
    place_worker,
    reachable,
    take_from_row,
    worker_levels,
)
from engine.age_of_automaton.common import State, fmt_res, pay_res
from engine.age_of_automaton.data import ROMAN, SALES
from engine.errors import IllegalAction


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    p = state["players"][seat]
    return [
        {"worker": lvl, "card": c}
        for lvl in worker_levels(state, seat, "sale", extra)
        for c in reachable(state, "sale", lvl)
        if affordable(p, SALES[c]["cost"])
    ]


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    p = state["players"][seat]
    level, card = params.get("worker"), params.get("card")
    if not is_level(level) or not isinstance(card, str) or card not in reachable(state, "sale", level):
        raise IllegalAction("a Level I automaton takes only the leftmost card, II the first two, III three, IV any")
    info = SALES[card]
    if not affordable(p, info["cost"]):
        raise IllegalAction(f"{info['name']} costs {fmt_res(info['cost'])}")
    place_worker(state, seat, "sale", level, extra)
    log_action(state, seat, f"Sale with a Level {ROMAN[level]} automaton and takes {info['name']}")
    take_from_row(state, "sale", card)
    pay_res(state, seat, info["cost"], info["name"])
    p["sale"].append(card)
    effects.queue(
        state,
        seat,
        [{"rel": info["logos"]}, {"rep": 1}, {"credits": level, "why": "Sale bonus"}],
        front=True,
    )
