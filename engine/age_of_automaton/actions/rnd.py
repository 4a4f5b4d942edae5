"""R&D: take a card the level reaches, gain its upgrade and relationships, keep it face down;
bonus credits (round 1) or any resources/credits (AA-RD-01/02)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton import effects
from engine.age_of_automaton.actions import card_choices, reached_card, take_card
from engine.age_of_automaton.common import State
from engine.age_of_automaton.data import RND


def choices(state: State, seat: str, extra: bool) -> list[dict[str, Any]]:
    return card_choices(state, seat, "rnd", extra)


def bonus(state: State, level: int) -> dict[str, Any]:
    if state["round"] == 1:
        return {"credits": level, "why": "R&D bonus"}
    return {"any_or_credits": level, "why": "R&D bonus"}


def resolve(state: State, seat: str, params: dict[str, Any], extra: bool) -> None:
    level, card = reached_card(state, "rnd", params)
    info = RND[card]
    take_card(state, seat, "rnd", level, extra, card, f"{info['name']} ({info['part']})")
    state["players"][seat]["rnd"].append(card)
    steps: list[dict[str, Any]] = [{"upgrade": info["upgrade"], "why": info["name"]}]
    if info["logos"]:
        steps.append({"rel": info["logos"]})
    steps.append(bonus(state, level))
    effects.queue(state, seat, steps, front=True)
