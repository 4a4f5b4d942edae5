"""A product's preview (net profit per sale and buyers, in sale order) computed from a
seat's own view: what the product builder and the pictures hold (they never see the
state). Equal to ``GAME.preview(state, seat, action)`` (tested)."""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalAction
from engine.jsonstate import clone
from engine.mobile_markets import sales
from engine.mobile_markets.common import State


def preview_from_view(view: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    """``MobileMarkets.preview`` computed from the seat's own view (what a product
    builder holds) instead of the state: the Sales phase reads only public things (the
    market, the Event, every company's cards, Goods and sales) and the seat's hand."""
    seat = view.get("you")
    prompt = view.get("prompt") or {}
    if seat is None or prompt.get("type") != "product":
        raise IllegalAction("you are not building a product now")
    players = {}
    for s, p in view["players"].items():
        players[s] = {
            "steve": p["steve"],
            "price": p["price"],
            "progress": p["progress"],
            "goods": p["goods"],
            "net": p["net"],
            "money": p["money"],
            "product": clone(p["product"]),
            "techs": [c["id"] for c in p["techs"]],
            "features": [c["id"] for c in p["features"]],
            "campaigns": [c["id"] for c in p["campaigns"]],
            "private": [c["id"] for c in p["private"]],
            "sales": [c["id"] for c in p["sales"]],
        }
    trial: State = {
        "players": players,
        "market": {col: [c["id"] for c in cards] for col, cards in view["market"].items()},
        "events": {"revealed": [e["id"] for e in view["events"]["revealed"]], "deck": []},
        "seats": list(view["seats"]),
        "steve": None,
        "customers": {},
    }
    return sales.preview(trial, seat, action)
