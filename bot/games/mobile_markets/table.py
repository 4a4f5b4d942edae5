"""Mobile Markets at the live table (:mod:`bot.table`): the live preview of a product
being built by dragging Feature cards into its slots (``table.js`` beside this file).

The numbers are the engine's own (``engine.mobile_markets.preview.preview_from_view``,
computed from this seat's view, as the Discord product builder does): net profit per
sale, manufacturing cost, the buyers in sale order and the money from sales.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import IllegalAction
from engine.mobile_markets import pads
from engine.mobile_markets.preview import preview_from_view
from render.mobile_markets.private import deck_id, slot_id


def facts(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str) -> dict[str, Any]:
    return {}


def preview(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, action: Any) -> dict[str, Any] | None:
    """{"ok", "net", "cost", "buyers": [what each buyer is], "profit", "problem"}."""
    if not prompt or prompt.get("type") != "product" or not isinstance(action, Mapping):
        return None
    try:
        pv = preview_from_view(dict(view), {"type": "product", "slots": dict(action.get("slots") or {}),
                                            **({"tokens": action["tokens"]} if action.get("tokens") else {})})
    except IllegalAction as exc:
        return {"ok": False, "problem": str(exc)[:1].upper() + str(exc)[1:]}
    except (KeyError, TypeError, ValueError):
        return {"ok": False, "problem": "That product cannot be built."}
    return {
        "ok": True,
        "net": pv["net"],
        "cost": pv["cost"],
        "stars": pv.get("stars", 0),
        "buyers": [b.get("text", "") for b in pv.get("buyers") or []],
        "profit": pv["profit"],
        "problem": "",
        "text": f"Net profit per sale {pv['net']} (manufacturing cost {pv['cost']}) · "
        f"{len(pv.get('buyers') or [])} would buy · money from sales {pv['profit']}",
    }


def moves(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, action: Any) -> list[list[str]] | None:
    """An action's gestures (bot.table.decide): a product is each of its Feature cards
    dragged into its slot on the seat's own area (render.mobile_markets.private:
    ``slot:<slot>``); a card bought is a tap on it (the display on the board, or the
    offer in the seat's area); in Marketing, a Private Customer is a tap on its deck
    (your area), and a Customer put on the market a tap on its deck or on your Private
    Customer, then on the market (the board)."""
    if not isinstance(action, Mapping):
        return None
    kind = action.get("type")
    if kind == "product" and isinstance(action.get("slots"), Mapping) and action["slots"]:
        return [[str(f), slot_id(str(s))] for s, f in action["slots"].items()]
    if kind in ("buy", "free_card") and isinstance(action.get("card"), str):
        return [[action["card"]]]
    if kind == "customer" and isinstance(action.get("deck"), str):  # a Private Customer: its deck
        return [[deck_id(action["deck"])]]
    if kind == "place":  # a Customer onto the market: its deck, or your Private Customer, then the market
        if isinstance(action.get("customer"), str):
            return [[action["customer"]], ["market"]]
        if isinstance(action.get("deck"), str):
            return [[deck_id(action["deck"])], ["market"]]
    return None


def group(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, action: Any) -> list[str] | None:
    """The plans by price change, each different result once (the engine's
    ``pads.distinct``: the first arrangement giving it): [heading, what it gives]; an
    arrangement giving a result listed already is the same choice ([])."""
    if not isinstance(action, Mapping) or action.get("type") != "plan":
        return None
    firsts = {_key(d["plan"]): d for d in pads.distinct()}
    try:
        d = firsts.get(_key(dict(action.get("plan") or {})))
    except (TypeError, ValueError):
        return None
    if d is None:
        return []
    o = d["outcome"]
    return [f"Price {d['price']:+d}", f"{d['tech']} Technology, {d['mkt']} Marketing, {d['goods']} Goods "
            f"({o['prod']} Production + {o['covered']} covered)"]


def _key(plan: Mapping[str, Any]) -> tuple[Any, ...]:
    return (plan.get("bottom"), plan.get("bottom_side"), plan.get("top_side"), tuple(plan.get("cover") or ()))
