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
from engine.mobile_markets.preview import preview_from_view


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
    }
