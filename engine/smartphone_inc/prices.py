"""Phase 2. Set Prices (SI-PRICE-01..02, SI-TECH-10, SI-STEVE-04)."""

from __future__ import annotations

from engine.smartphone_inc import hardcore
from engine.smartphone_inc.common import State, say
from engine.smartphone_inc.outcome_yields import yields


def set_prices(state: State) -> None:
    for seat in state["seats"]:
        p = state["players"][seat]
        p["price"] = max(1, p["price"] + yields(state, seat, p["outcome"])["price_delta"])
        say(state, f"{seat} sets price {p['price']}.")
    hardcore.pay_for_decisions(state)
