"""Phase 2. Set Prices (SI-PRICE-01..02, SI-TECH-10, SI-STEVE-04)."""

from __future__ import annotations

from engine.smartphone_inc.common import State, has_effect, say


def set_prices(state: State) -> None:
    for seat in state["seats"]:
        p = state["players"][seat]
        a = p["outcome"]["active"]
        price = p["price"] - a["down"] + a["up"]
        if has_effect(state, seat, "price_up"):
            price += 1
        p["price"] = max(1, price)
        say(state, f"{seat} sets price {p['price']}.")
