"""Phase 6 Production (MM-PROD-01..02, T26)."""

from __future__ import annotations

from engine.mobile_markets import effects, events, pads, steve_jr
from engine.mobile_markets.common import State, say


def event_goods(state: State) -> int:
    """Goods icons on every revealed Event card (they stay visible)."""
    return events.goods_icons(state)


def goods_of(state: State, seat: str) -> int:
    """Event Goods icons + visible Production cells + covered cells + card effects."""
    p = state["players"][seat]
    if p["steve"]:
        base = steve_jr.production(state)
    else:
        base = event_goods(state) + pads.goods(p["outcome"])
    return base + effects.total(state, seat, "production", "goods")


def produce(state: State) -> None:
    for seat in state["order"]:
        n = goods_of(state, seat)
        state["players"][seat]["goods"] = n  # the Goods Produced track (MM-PROD-02)
        say(state, f"{seat} produces {n} Goods.")
    # T26: after everyone has produced, checked for all at once
    extra = {seat: effects.total(state, seat, "after_production", "goods") for seat in state["order"]}
    for seat, n in extra.items():
        if n:
            state["players"][seat]["goods"] += n
            say(state, f"{seat} produces {n} more Goods (no company has fewer).")
