"""Sales step 1 and 2: building the product and its Net Profit per Sale
(MM-SALE-02..05, T3/T4/T9, T6, T11, T30, E4)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.mobile_markets import effects, steve_jr
from engine.mobile_markets.common import State
from engine.mobile_markets.data import (
    ALL_FEATURES,
    ALL_TECHS,
    BASE_COST,
    BOARD_SLOTS,
    THIRD_SLOT_COST,
)

BOARD = [str(i) for i in range(1, BOARD_SLOTS + 1)]
THIRD = BOARD[-1]


def slots(state: State, seat: str) -> list[str]:
    """The company's Feature slots: 3 on the Corporation Board, then one per
    Technology card with a slot (named by the card)."""
    return BOARD + [t for t in state["players"][seat]["techs"] if ALL_TECHS[t].get("slot")]


def validate(state: State, seat: str, placement: Any) -> dict[str, str]:
    if placement is None:
        placement = {}
    if not isinstance(placement, dict):
        raise IllegalAction("slots maps each slot to the Feature card placed in it")
    free = slots(state, seat)
    owned = state["players"][seat]["features"]
    seen: set[str] = set()
    out: dict[str, str] = {}
    for slot, fid in placement.items():
        if slot not in free:
            raise IllegalAction(f"you have no Feature slot called {slot!r}")
        if fid not in owned:
            raise IllegalAction("you can only place your own Feature cards")
        if fid in seen:
            raise IllegalAction("a Feature card goes in one slot only")
        seen.add(fid)
        out[slot] = fid
    return {s: out[s] for s in free if s in out}


def base_cost(state: State) -> int:
    """1, or the Event's base cost (E4: 2)."""
    return effects.event_value(state, "sales", "base_cost", BASE_COST)


def evaluate(state: State, seat: str, placement: dict[str, str]) -> dict[str, Any]:
    """The product of ``placement``: feature icons (union), Stars, Manufacturing Cost
    and Net Profit per Sale. Card effects that depend on the product (T6, T30) are
    evaluated on it."""
    p = state["players"][seat]
    if p["steve"]:
        return steve_jr.product(state, seat)
    placed = list(placement.values())
    icons = sorted({i for f in placed for i in ALL_FEATURES[f]["icons"]})
    icon_count = sum(len(ALL_FEATURES[f]["icons"]) for f in placed)
    product: dict[str, Any] = {
        "slots": dict(placement),
        "icons": icons,
        "icon_count": icon_count,
        "full": len(placement) == len(slots(state, seat)),
    }
    saved = p["product"]
    p["product"] = product  # conditions of effects read the product being built
    try:
        if effects.active(state, seat, "sales", "all_feature_stars"):  # T11
            stars = sum(ALL_FEATURES[f]["stars"] for f in p["features"])
        else:
            stars = sum(ALL_FEATURES[f]["stars"] for f in placed)
        for slot, fid in placement.items():
            if slot in ALL_TECHS and ALL_TECHS[slot].get("slot") == "double":  # T4
                stars += ALL_FEATURES[fid]["stars"]
        stars += sum(ALL_TECHS[t]["stars"] for t in p["techs"])
        stars += effects.total(state, seat, "sales", "stars")
        ignore_all = bool(effects.active(state, seat, "sales", "ignore_costs"))  # T6
        icons_cost = 0
        for slot, fid in placement.items():
            if slot in ALL_TECHS and ALL_TECHS[slot].get("slot") == "free":  # T3
                continue
            icons_cost += ALL_FEATURES[fid]["cost_icons"]
        if ignore_all:
            icons_cost = 0
        cost = base_cost(state) + icons_cost + (THIRD_SLOT_COST if THIRD in placement else 0)
        cost += effects.total(state, seat, "sales", "cost")
        cost = max(0, cost)  # never below 0 (MM-SALE-04)
    finally:
        p["product"] = saved
    product["stars"] = stars
    product["cost"] = cost
    product["net"] = p["price"] - cost  # may be negative (MM-SALE-05)
    return product
