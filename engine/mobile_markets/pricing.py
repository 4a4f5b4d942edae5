"""Phase 3 Pricing (MM-PRICE-01..03)."""

from __future__ import annotations

from engine.mobile_markets import effects, steve_jr
from engine.mobile_markets.common import State, say
from engine.mobile_markets.data import PRICE_HIGH, PRICE_LOW


def target(state: State, seat: str) -> int:
    """The new price: 5 + visible Price Up - visible Price Down (Steve Jr.: his price
    row), moved by this round's Event, kept on the track (2-8)."""
    p = state["players"][seat]
    if p["steve"]:
        price = steve_jr.price(state)
    else:
        price = p["price"] + p["outcome"]["up"] - p["outcome"]["down"]
    price += effects.event_value(state, "pricing", "price_shift")
    return max(PRICE_LOW, min(PRICE_HIGH, price))


def move(state: State, seat: str, price: int) -> None:
    """Lift the marker and put it on the leftmost free spot of its new space
    (MM-PRICE-02): the first to arrive takes the leftmost spot."""
    for col in state["track"].values():
        if seat in col:
            col.remove(seat)
    state["track"][str(price)].append(seat)
    state["players"][seat]["price"] = price


def track_order(state: State) -> list[str]:
    """Turn order from the Price Track: left to right (MM-PRICE-03)."""
    return [seat for col in sorted(state["track"], key=int) for seat in state["track"][col]]


def set_prices(state: State) -> None:
    """In turn order from the leftmost spot of the 5 space (MM-PRICE-01)."""
    for seat in list(state["order"]):
        price = target(state, seat)
        move(state, seat, price)
        say(state, f"{seat} sets the price at {price}.")
    state["order"] = track_order(state)
    say(state, "Turn order: " + ", ".join(state["order"]) + ".")
