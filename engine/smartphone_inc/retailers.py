"""Retailers and their one-time bonuses (SI-RET-01..09)."""

from __future__ import annotations

from typing import Any

from engine.errors import as_int, require
from engine.smartphone_inc import hardcore, logistics, research
from engine.smartphone_inc.common import State, add_goods, can_found_office, region_id, say
from engine.smartphone_inc.data import REGIONS, RETAILERS


def bonus_of(state: State, rid: str) -> dict[str, Any]:
    ret = state["regions"][rid]["retailer"]
    return RETAILERS[ret["id"]]["sides"][ret["side"]]["bonus"]


def move_choices(state: State, seat: str) -> list[list[str]]:
    """[from, to] pairs for the move-an-Office bonus (SI-RET-09)."""
    froms = [r for r, reg in state["regions"].items() if seat in reg["offices"]]
    if not froms:
        return []
    to = [b for b in state["regions"] if can_found_office(state, seat, b) in (None, "you have no Office markers left")]
    return [[a, b] for a in froms for b in to if b != a]


def prompt(state: State, seat: str, item: dict[str, Any]) -> dict[str, Any]:
    rid = item["region"]
    bonus = bonus_of(state, rid)
    p: dict[str, Any] = {"type": "retailer_bonus", "region": rid, "bonus": dict(bonus)}
    kind = bonus["kind"]
    if kind == "progress":
        p["techs"] = research.open_techs(state, seat)
    elif kind == "second_office":
        p["regions"] = logistics.second_office_choices(state, seat)
    elif kind == "move_office":
        p["moves"] = move_choices(state, seat)
    return p


def act(state: State, seat: str, item: dict[str, Any], action: dict[str, Any]) -> None:
    rid = item["region"]
    bonus = bonus_of(state, rid)
    use = action.get("use")
    require(isinstance(use, bool), "say whether you use the Retailer's bonus (use: true/false)")
    if not use:
        say(state, f"{seat} declines the Retailer bonus in {REGIONS[rid]['name']}.")
        return
    kind = bonus["kind"]
    p = state["players"][seat]
    if kind == "goods":  # SI-RET-05
        n = add_goods(state, seat, bonus["n"])
        say(state, f"{seat} produces {n} Goods (Retailer bonus).")
    elif kind == "progress":  # SI-RET-06: completion waits for the Phase 5 turn
        place = research.validate_place(state, seat, action.get("place"), bonus["n"])
        require(place, "choose where the Progress markers go, or decline the bonus")
        for tech, n in place.items():
            p["research"][tech] = p["research"].get(tech, 0) + n
        say(state, f"{seat} places {sum(place.values())} Progress marker(s) on Technologies (Retailer bonus).")
    elif kind == "price":  # SI-RET-07
        delta = as_int(action.get("delta"), "delta", -1, 1)
        require(delta != 0, "the price bonus is +1 or -1")
        require(p["price"] + delta >= 1, "a price cannot go below 1")
        p["price"] += delta
        say(state, f"{seat} changes their price to {p['price']} (Retailer bonus).")
    elif kind == "second_office":  # SI-RET-08
        logistics.add_second_office(state, seat, region_id(action.get("region"), state), "Retailer bonus")
    elif kind == "move_office":  # SI-RET-09
        a, b = region_id(action.get("from"), state), region_id(action.get("to"), state)
        require([a, b] in move_choices(state, seat), f"you cannot move an Office from {REGIONS[a]['name']} to {REGIONS[b]['name']}")
        move_office(state, seat, a, b)


def move_office(state: State, seat: str, a: str, b: str) -> None:
    offices = state["regions"][a]["offices"]
    index = len(offices) - 1 - offices[::-1].index(seat)
    del offices[index]  # the others shift left
    hardcore.office_leaves(state, seat, a, index)
    state["regions"][b]["offices"].append(seat)  # no Retailer bonus from a move
    hardcore.office_placed(state, seat, b)
    say(state, f"{seat} moves an Office from {REGIONS[a]['name']} to {REGIONS[b]['name']}.")
