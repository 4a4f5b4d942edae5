"""Customers and the market: the three Customer decks with their discard piles, the
market columns under the price spaces 2-8, and who buys what (MM-SET-03, MM-PREP-06..08,
MM-SALE-06..09).

A market column is a list from top to bottom: a new Customer goes below the others
(appended); sales read a column from bottom to top.
"""

from __future__ import annotations

from typing import Any

from engine.mobile_markets import effects
from engine.mobile_markets.common import State, draw_from, say
from engine.mobile_markets.data import (
    CUSTOMER_TYPES,
    CUSTOMERS,
    PRICE_HIGH,
    PRICE_LOW,
    TYPE_NAMES,
    customer_text,
)

COLUMNS = [str(p) for p in range(PRICE_LOW, PRICE_HIGH + 1)]


def available(state: State, kind: str) -> int:
    """Customers that can still be drawn from ``kind`` (deck + its discard pile)."""
    c = state["customers"][kind]
    return len(c["deck"]) + len(c["discard"])


def draw(state: State, kind: str) -> str | None:
    """The top card of a Customer deck; an empty deck is first rebuilt by shuffling its
    discard pile (MM-PREP-08). None if both are empty."""
    return draw_from(state, state["customers"][kind], f"{TYPE_NAMES[kind]} Customer")


def place(state: State, cid: str) -> None:
    """Put a Customer under its price space, below those already there (MM-PREP-07)."""
    state["market"][str(CUSTOMERS[cid]["price"])].append(cid)


def discard(state: State, cid: str) -> None:
    state["customers"][CUSTOMERS[cid]["type"]]["discard"].append(cid)


def add_customers(state: State, counts: dict[str, int]) -> None:
    """Draw and place ``counts[type]`` Customers of each type (MM-PREP-06)."""
    added = []
    for kind in CUSTOMER_TYPES:
        n = 0
        for _ in range(counts.get(kind, 0)):
            cid = draw(state, kind)
            if cid is None:
                break
            place(state, cid)
            n += 1
        if n:
            added.append(f"{n} {TYPE_NAMES[kind]}")
    say(state, "Customers added to the market: " + (", ".join(added) if added else "none") + ".")


def clear_market(state: State) -> int:
    """Discard every Customer on the market (E13); Private Customers stay."""
    n = 0
    for col in COLUMNS:
        for cid in state["market"][col]:
            discard(state, cid)
            n += 1
        state["market"][col] = []
    return n


def sale_order(state: State) -> list[str]:
    """The market in sale order: columns 2 to 8, each from bottom to top (MM-SALE-11)."""
    return [cid for col in COLUMNS for cid in reversed(state["market"][col])]


def private_order(private: list[str]) -> list[str]:
    """Private Customers from the lowest preferred price upward (MM-SALE-10); equal
    prices in the order they were taken."""
    return sorted(private, key=lambda c: CUSTOMERS[c]["price"])


# --- who buys -------------------------------------------------------------------------------


def offer(state: State, seat: str, product: dict[str, Any]) -> dict[str, Any]:
    """What Customers see of ``seat``'s product: the price, the features and Stars as
    Customers consider them (M17-M21, M27, E14), and the Star rules (E9, M12)."""
    p = state["players"][seat]
    considered = {e["feature"] for _, e in effects.active(state, seat, "sales", "consider_feature")}
    price_shift: dict[str, int] = {}
    for _, e in effects.active(state, seat, "sales", "consider_price"):
        kind = e.get("type")
        for k in CUSTOMER_TYPES:
            if kind is None or kind == k:
                price_shift[k] = price_shift.get(k, 0) + e["n"]
    return {
        "price": p["price"],
        "price_shift": price_shift,
        "icons": set(product["icons"]) | considered,
        "stars": product["stars"] + effects.total(state, seat, "sales", "consider_stars"),
        "star_need": effects.event_value(state, "sales", "star_need"),
        "stars_met": bool(effects.active(state, seat, "sales", "stars_met")),
    }


def needs_met(cid: str, seen: dict[str, Any]) -> bool:
    """Features (a slash: any one alternative, MM-SALE-06) and Stars."""
    c = CUSTOMERS[cid]
    if c["needs"] and not any(all(f in seen["icons"] for f in alt) for alt in c["needs"]):
        return False
    if c["stars"]:
        need = c["stars"] + seen["star_need"]  # E9
        if not seen["stars_met"] and seen["stars"] < need:  # M12
            return False
    return True


def buys(cid: str, seen: dict[str, Any]) -> bool:
    """Whether this Customer buys (MM-SALE-07..09)."""
    c = CUSTOMERS[cid]
    price_ok = seen["price"] + seen["price_shift"].get(c["type"], 0) <= c["price"]
    if c["type"] == "regular":
        return price_ok
    if c["type"] == "complex":
        return price_ok and needs_met(cid, seen)
    return price_ok or needs_met(cid, seen)  # variety-seeking


def describe(cid: str) -> str:
    return customer_text(cid)
