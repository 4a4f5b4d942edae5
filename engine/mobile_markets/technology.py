"""Phase 4 Technology, in turn order (MM-TECH-01..04, E1)."""

from __future__ import annotations

from typing import Any

from engine.errors import require
from engine.mobile_markets import displays
from engine.mobile_markets.common import State, plural, say
from engine.mobile_markets.data import card_name


def begin(state: State, seat: str) -> None:
    state["turn"].update(points=displays.turn_points(state, seat, "technology", "tech", "tech_points"), bought=0)


def offers(state: State, seat: str) -> list[dict[str, Any]]:
    """Cards ``seat`` may buy now, with their cost after discounts."""
    t = state["turn"]
    budget = t["points"] + state["players"][seat]["progress"]
    out = []
    off = displays.feature_discount(state, seat)
    for display in ("technology", "feature"):
        if display == "technology" and t["bought"] >= displays.card_limit(state, "technology"):
            continue
        for card in state["displays"][display]["row"]:
            c = displays.cost(state, seat, display, card, off)
            if c <= budget:
                out.append({"card": card, "display": display, "cost": c, "discount": card in state["discounts"]})
    return out


def prompt(state: State, seat: str) -> dict[str, Any] | None:
    o = offers(state, seat)
    t = state["turn"]
    if not o:
        return None
    return {
        "type": "technology",
        "points": t["points"],
        "progress": state["players"][seat]["progress"],
        "budget": t["points"] + state["players"][seat]["progress"],
        "technology_left": displays.card_limit(state, "technology") - t["bought"],
        "offers": o,
    }


def buy(state: State, seat: str, card: Any) -> None:
    o = {x["card"]: x for x in offers(state, seat)}
    require(isinstance(card, str) and card in o, "you cannot buy that card now (not on a display, too expensive, or no Technology card left this turn)")
    offer = o[card]
    t = state["turn"]
    p = state["players"][seat]
    cost = offer["cost"]
    from_points = min(cost, t["points"])
    t["points"] -= from_points
    p["progress"] -= cost - from_points  # a Progress Token is discarded when used
    displays.take(state, offer["display"], card)
    if offer["display"] == "technology":
        p["techs"].append(card)
        t["bought"] += 1
    else:
        p["features"].append(card)
    say(state, f"{seat} buys {card_name(card)} for {cost}.")


def finish(state: State, seat: str) -> None:
    """Unspent Technology Points become Progress Tokens (MM-TECH-03)."""
    left = state["turn"]["points"]
    if left:
        state["players"][seat]["progress"] += left
        say(state, f"{seat} saves {plural(left, 'Progress Token')}.")
    state["turn"]["points"] = 0


def act(state: State, seat: str, action: dict[str, Any]) -> bool:
    """Returns whether the turn is over."""
    kind = action.get("type")
    if kind == "done":
        finish(state, seat)
        return True
    require(kind == "buy", "buy a card or say you are done")
    buy(state, seat, action.get("card"))
    return False
