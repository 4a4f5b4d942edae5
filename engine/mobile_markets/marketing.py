"""Phase 5 Marketing, in reverse turn order (MM-MKT-01..04, E2, M9/M16/M25)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction, require
from engine.mobile_markets import displays, effects, market
from engine.mobile_markets.common import State, say
from engine.mobile_markets.data import CUSTOMER_TYPES, CUSTOMERS, TYPE_NAMES, card_name


def points(state: State, seat: str) -> int:
    return displays.turn_points(state, seat, "marketing", "mkt", "marketing_points")


def begin(state: State, seat: str) -> None:
    state["turn"].update(points=points(state, seat), bought=0)
    state["turn"]["place"] = effects.total(state, seat, "marketing", "place_customers")


def offers(state: State, seat: str) -> list[dict[str, Any]]:
    t = state["turn"]
    if t["bought"] >= displays.card_limit(state, "marketing"):
        return []
    out = []
    for card in state["displays"]["marketing"]["row"]:
        c = displays.cost(state, seat, "marketing", card)
        if c <= t["points"]:
            out.append({"card": card, "display": "marketing", "cost": c, "discount": card in state["discounts"]})
    return out


def decks(state: State) -> list[str]:
    return [k for k in CUSTOMER_TYPES if market.available(state, k)]


def stuck(state: State, seat: str) -> bool:
    """Points that cannot be spent: no affordable campaign and no Customer left."""
    return not offers(state, seat) and not decks(state)


def prompt(state: State, seat: str) -> dict[str, Any] | None:
    t = state["turn"]
    spendable = t["points"] > 0 and not stuck(state, seat)
    if not spendable and not t["place"]:
        return None
    return {
        "type": "marketing",
        "points": t["points"],
        "offers": offers(state, seat),
        "decks": {k: market.available(state, k) for k in decks(state)},
        "place": t["place"],
        "private": list(state["players"][seat]["private"]),
        "can_finish": not spendable,
    }


def finish(state: State, seat: str) -> None:
    left = state["turn"]["points"]
    if left:
        say(state, f"{seat} loses {left} Marketing Point{'s' if left > 1 else ''}: no Customer is left to take.")
    state["turn"]["points"] = 0


def act(state: State, seat: str, action: dict[str, Any]) -> bool:
    """Returns whether the turn is over."""
    t = state["turn"]
    p = state["players"][seat]
    kind = action.get("type")
    if kind == "buy":
        card = action.get("card")
        o = {x["card"]: x for x in offers(state, seat)}
        require(isinstance(card, str) and card in o, "you cannot buy that Marketing Campaign card now")
        t["points"] -= o[card]["cost"]
        t["bought"] += 1
        displays.take(state, "marketing", card)
        p["campaigns"].append(card)
        say(state, f"{seat} buys {card_name(card)} for {o[card]['cost']}.")
        # a campaign works at once, even in this phase (MM-MKT-03)
        t["points"] += effects.card_total(state, seat, card, "marketing", "marketing_points")
        t["place"] += effects.card_total(state, seat, card, "marketing", "place_customers")
        return False
    if kind == "customer":
        deck = action.get("deck")
        require(t["points"] > 0, "you have no Marketing Points left")
        require(deck in CUSTOMER_TYPES, "choose the Variety-seeking, Regular or Complex deck")
        cid = market.draw(state, deck)
        require(cid is not None, f"the {TYPE_NAMES.get(deck, deck)} deck and its discard pile are empty")
        t["points"] -= 1
        p["private"].append(cid)
        say(state, f"{seat} takes a Private Customer: {market.describe(cid)}.")
        return False
    if kind == "place":
        require(t["place"] > 0, "you cannot put Customers on the market now")
        if "customer" in action:
            cid = action.get("customer")
            require(cid in p["private"], "that is not one of your Private Customers")
            p["private"].remove(cid)
        else:
            deck = action.get("deck")
            require(deck in CUSTOMER_TYPES, "choose a Customer deck or one of your Private Customers")
            cid = market.draw(state, deck)
            require(cid is not None, "that deck and its discard pile are empty")
        market.place(state, cid)
        t["place"] -= 1
        say(state, f"{seat} puts a {market.describe(cid)} on the market under {CUSTOMERS[cid]['price']}.")
        return False
    if kind == "done":
        require(t["points"] == 0 or stuck(state, seat), "Marketing Points cannot be saved: spend them on Private Customers first")
        t["place"] = 0
        return True
    raise IllegalAction("buy a campaign, take a Private Customer, put a Customer on the market, or finish")

