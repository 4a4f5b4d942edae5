"""The one interpreter of card effects (Events, Technology, Feature, Marketing Campaign
and Steve Jr. cards). Effects are data in the card JSON::

    {"at": "profit", "do": "money", "n": 1, "per": "unsold", "max": 3, "if": "unsold_any"}

``at`` is the phase (or moment) the effect acts in, ``do`` what it does, ``n`` how
much; ``per`` multiplies ``n`` by a counted quantity, ``max`` caps the result and
``if`` names a condition. The phase modules ask this module "how much ``do`` does
this company get now" (:func:`total`) or "which such effects act now"
(:func:`active`); they never look at card ids.

Which cards act (MM-TECH-04): a company's Technology cards (its Starting Technology
included) and Marketing Campaign cards at their phase; Feature cards only in Sales
and Profit and only when placed on the product; the Event revealed this round (an
Event usually affects the whole round, MM-PREP-04); Steve Jr.'s visible abilities
(MM-SOLO-11).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.mobile_markets.common import State
from engine.mobile_markets.data import (
    ALL_FEATURES,
    ALL_TECHS,
    CAMPAIGNS,
    CUSTOMERS,
    EVENTS,
    STEVE_CARDS,
)
from engine.mobile_markets.events import current_event, event_effects, event_value

Effect = dict[str, Any]

__all__ = ["active", "current_event", "event_effects", "event_value", "total", "value"]


def _index() -> dict[tuple[str, str, str], list[Effect]]:
    """(card, at, do) -> that card's effects, built once from the data."""
    out: dict[tuple[str, str, str], list[Effect]] = {}
    cards = {**EVENTS, **ALL_TECHS, **ALL_FEATURES, **CAMPAIGNS}
    for cid, card in cards.items():
        for e in card["effects"]:
            if cid in ALL_FEATURES and e["at"] not in ("sales", "profit"):
                continue  # Feature effects act only in Sales and Profit (MM-TECH-04)
            out.setdefault((cid, e["at"], e["do"]), []).append(e)
    for cid, card in STEVE_CARDS.items():
        e = card["ability"]
        out.setdefault((cid, e["at"], e["do"]), []).append(e)
    return out


INDEX = _index()


def cards_acting(state: State, seat: str) -> list[str]:
    """The cards that may act for ``seat``: this round's Event; Steve Jr.'s visible
    abilities (every card of his stack); or the company's Technology and Marketing cards and placed Features."""
    p = state["players"][seat]
    revealed = state["events"]["revealed"]
    out = [revealed[-1]] if revealed else []
    if p["steve"]:
        return out + [e["card"] for e in state["steve"]["stack"]]  # every visible ability
    out += p["techs"]
    out += p["campaigns"]
    if p["product"] is not None:
        out += list(p["product"]["slots"].values())
    return out


# --- counted quantities ("per") -----------------------------------------------------------


def _sales_types(state: State, seat: str, kind: str) -> int:
    return sum(1 for c in state["players"][seat]["sales"] if CUSTOMERS[c]["type"] == kind)


def sale_icons(state: State, seat: str) -> int:
    """Different feature icons on the Customers in the sales pile; a Customer with two
    icons gives both, even when they are separated by a slash (M7/M8)."""
    icons = {f for c in state["players"][seat]["sales"] for alt in CUSTOMERS[c]["needs"] for f in alt}
    return len(icons)


def unsold(state: State, seat: str) -> int:
    p = state["players"][seat]
    return max(0, p["goods"] - len(p["sales"]))


COUNTERS: dict[str, Callable[[State, str], int]] = {
    "feature_card": lambda s, seat: len(s["players"][seat]["features"]),
    "tech_card": lambda s, seat: len(s["players"][seat]["techs"]),
    "marketing_card": lambda s, seat: len(s["players"][seat]["campaigns"]),
    "unsold": unsold,
    "sold": lambda s, seat: len(s["players"][seat]["sales"]),
    "placed_feature": lambda s, seat: len((s["players"][seat]["product"] or {"slots": {}})["slots"]),
    "sale_prices": lambda s, seat: len({CUSTOMERS[c]["price"] for c in s["players"][seat]["sales"]}),
    "sale_icons": sale_icons,
    "private": lambda s, seat: len(s["players"][seat]["private"]),
    "sold_regular": lambda s, seat: _sales_types(s, seat, "regular"),
    "sold_variety": lambda s, seat: _sales_types(s, seat, "variety"),
    "sold_complex": lambda s, seat: _sales_types(s, seat, "complex"),
    # E10: a price of 8 counts as 7; E11: a price of 2 counts as 3
    "price_over_5": lambda s, seat: max(0, min(s["players"][seat]["price"], 7) - 5),
    "price_under_5": lambda s, seat: max(0, 5 - max(s["players"][seat]["price"], 3)),
}


# --- conditions ("if") -----------------------------------------------------------------------


def owned_stars(state: State, seat: str) -> int:
    """Star Icons printed on the company's Feature and Technology cards (T29; T4's
    doubling is not counted: it acts only in Sales)."""
    p = state["players"][seat]
    return sum(ALL_FEATURES[f]["stars"] for f in p["features"]) + sum(ALL_TECHS[t]["stars"] for t in p["techs"])


def owned_icons(state: State, seat: str) -> set[str]:
    return {i for f in state["players"][seat]["features"] for i in ALL_FEATURES[f]["icons"]}


def _product(state: State, seat: str) -> dict[str, Any]:
    return state["players"][seat]["product"] or {"slots": {}, "icons": [], "icon_count": 0, "full": False}


def fewest_goods(state: State, seat: str) -> bool:
    mine = state["players"][seat]["goods"]
    return all(state["players"][s]["goods"] >= mine for s in state["seats"])


CONDITIONS: dict[str, Callable[[State, str], bool]] = {
    "unsold_any": lambda s, seat: unsold(s, seat) >= 1,
    "unsold_2": lambda s, seat: unsold(s, seat) >= 2,
    "price_le_4": lambda s, seat: s["players"][seat]["price"] <= 4,
    "price_ge_6": lambda s, seat: s["players"][seat]["price"] >= 6,
    "no_private": lambda s, seat: not s["players"][seat]["private"],
    "private_3": lambda s, seat: len(s["players"][seat]["private"]) >= 3,
    "all_slots_full": lambda s, seat: bool(_product(s, seat)["full"]),
    "fewest_goods": fewest_goods,
    "placed_8k": lambda s, seat: any("8k" in ALL_FEATURES[f]["icons"] for f in _product(s, seat)["slots"].values()),
    "product_3_icons": lambda s, seat: _product(s, seat)["icon_count"] >= 3,
    "product_nfc": lambda s, seat: "nfc" in _product(s, seat)["icons"],
    "all_five_icons": lambda s, seat: len(owned_icons(s, seat)) == 5,
    "stars_7": lambda s, seat: owned_stars(s, seat) >= 7,
    "sold_5": lambda s, seat: len(s["players"][seat]["sales"]) >= 5,
    "sold_6": lambda s, seat: len(s["players"][seat]["sales"]) >= 6,
    "complex_3": lambda s, seat: _sales_types(s, seat, "complex") >= 3,
    "all_three_types": lambda s, seat: all(_sales_types(s, seat, k) for k in ("variety", "regular", "complex")),
}


def holds(state: State, seat: str, effect: Effect) -> bool:
    cond = effect.get("if")
    return cond is None or CONDITIONS[cond](state, seat)


def value(state: State, seat: str, effect: Effect) -> int:
    """How much ``effect`` gives ``seat`` now (0 when its condition fails)."""
    if not holds(state, seat, effect):
        return 0
    n = int(effect["n"])
    per = effect.get("per")
    if per is not None:
        n *= COUNTERS[per](state, seat)
    cap = effect.get("max")
    if cap is not None:
        n = min(n, int(cap))
    return n


def active(state: State, seat: str, at: str, do: str) -> list[tuple[str, Effect]]:
    """(card, effect) pairs acting now for ``seat`` whose condition holds."""
    out = []
    for c in cards_acting(state, seat):
        for e in INDEX.get((c, at, do), ()):
            if holds(state, seat, e):
                out.append((c, e))
    return out


def total(state: State, seat: str, at: str, do: str) -> int:
    return sum(value(state, seat, e) for _, e in active(state, seat, at, do))


def card_total(state: State, seat: str, card: str, at: str, do: str) -> int:
    """What one card's effects give ``seat`` now (a card bought in Marketing works at
    once, MM-MKT-03)."""
    found = ALL_TECHS.get(card) or CAMPAIGNS.get(card)
    if found is None:
        return 0
    return sum(value(state, seat, e) for e in found["effects"] if e["at"] == at and e["do"] == do)


def validate_vocabulary() -> None:
    """Every ``per``/``if`` in the data is known to the interpreter."""
    cards = [*EVENTS.values(), *ALL_TECHS.values(), *ALL_FEATURES.values(), *CAMPAIGNS.values()]
    effects = [e for c in cards for e in c["effects"]] + [c["ability"] for c in STEVE_CARDS.values()]
    for e in effects:
        if e.get("per") is not None and e["per"] not in COUNTERS:
            raise ValueError(f"unknown counter {e['per']}")
        if e.get("if") is not None and e["if"] not in CONDITIONS:
            raise ValueError(f"unknown condition {e['if']}")


validate_vocabulary()
