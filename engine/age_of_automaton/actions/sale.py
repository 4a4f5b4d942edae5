"""Sale: take a Sale Order the level reaches, pay it, improve relationships and gain 1
reputation at once; bonus credits = level (AA-SALE-01/02)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects
from engine.age_of_automaton.actions import affordable, card_choices, reached_card, take_card
from engine.age_of_automaton.common import State, fmt_res, pay_res
from engine.age_of_automaton.data import SALES
from engine.errors import IllegalAction


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    p = state["players"][seat]
    return card_choices(state, seat, "sale", extra, lambda c: affordable(p, SALES[c]["cost"]))


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    p = state["players"][seat]
    level, card = reached_card(state, "sale", params)
    info = SALES[card]
    if not affordable(p, info["cost"]):
        raise IllegalAction(f"{info['name']} costs {fmt_res(info['cost'])}")
    take_card(state, seat, "sale", level, extra, card, info["name"])
    pay_res(state, seat, info["cost"], info["name"])
    p["sale"].append(card)
    effects.queue(
        state,
        seat,
        [{"rel": info["logos"]}, {"rep": 1}, {"credits": level, "why": "Sale bonus"}],
        front=True,
    )
