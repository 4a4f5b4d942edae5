"""Controlling Regions (SI-CTRL-01..04)."""

from __future__ import annotations

from engine.smartphone_inc.common import State, goods_on
from engine.smartphone_inc.data import REGIONS


def ranking(state: State, rid: str) -> list[str]:
    """Sellers in ``rid`` by Goods sold, ties to the Office further left (SI-CTRL-04)."""
    reg = state["regions"][rid]
    sellers = {s for s in reg["sold"] if s is not None}
    offices = reg["offices"]

    def key(seat: str) -> tuple[int, int]:
        pos = offices.index(seat) if seat in offices else len(offices)
        return (-goods_on(state, seat, rid), pos)  # second Goods count too (SU-TEC-04)

    return sorted(sellers, key=key)


def control_vp(state: State, rid: str) -> dict[str, int]:
    """VP for first (and second) place: the values above the rightmost Office (SI-CTRL-01..03)."""
    reg = state["regions"][rid]
    if reg["retailer"] is not None or not reg["offices"]:
        return {}
    space = REGIONS[rid]["spaces"][len(reg["offices"]) - 1]
    order = ranking(state, rid)  # only companies that sold here (SI-CTRL-02)
    out: dict[str, int] = {}
    if order:
        out[order[0]] = space["vp"]
    if len(order) > 1 and space.get("vp2"):
        out[order[1]] = out.get(order[1], 0) + space["vp2"]
    return out
