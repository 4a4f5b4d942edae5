"""Smartphone Inc. at the live table (:mod:`bot.table`): what the browser's planner
(``table.js`` beside this file) needs, and the live preview of a plan laid by hand.

The preview is the Discord planner's own (:mod:`bot.games.smartphone_inc.planner`):
the engine validates the plan and computes what it gives for this seat (price, Goods,
Improve, Research, Logistics), with the unsellable-Goods warning. The printed Pads and
the seat's own Improvements are component data, the same for every seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.smartphone_inc import planner, words
from engine.smartphone_inc import pads
from engine.smartphone_inc.data import MINI_UPGRADES

CELL_WORDS = {
    "down": ("▼", "price"),
    "up": ("▲", "price"),
    "prod": ("Prod",),
    "improve": ("Impr",),
    "research": ("Res",),
    "logistics": ("Log",),
}
CELL_LEGEND = "Prod: Production · Impr: Improve Production · Res: Research · Log: Logistics · ▼/▲ price: Price Down/Up"


def facts(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """The Pads' printed sides, the symbols' names, and the Improvements this seat
    places now (from its plan prompt), each with its two halves."""
    out: dict[str, Any] = {
        "symbols": {k: words.SYMBOL_NAMES[k] for k in words.SYMBOL_SHORT},
        "short": dict(words.SYMBOL_SHORT),
        # a planner cell's words, short enough for 13 px text in its 50 px square
        "cell": {k: list(v) for k, v in CELL_WORDS.items()},
        "cell_legend": CELL_LEGEND,
        "pads": {p: [pads.pad_cells(p, s) for s in (0, 1)] for p in ("A", "B")},
        "regions": {rid: words.region_name(rid) for rid in view.get("regions") or {}},
        # a Technology's two printed sides (face up, face down), for its details on a tap
        "tech_sides": {
            tid: [str(side.get("text", "")) for side in words.TECHS[tid]["sides"][:2]]
            for tid in view.get("techs") or {}
            if tid in words.TECHS
        },
    }
    if prompt and prompt.get("type") == "plan":
        owned = [str(i) for i in prompt.get("improvements") or []]
        out["improvements"] = [
            {
                "id": i,
                "cells": list(pads.improvement_cells(i)),
                "label": words.improvement_label(i),
                "mini": i in MINI_UPGRADES,
            }
            for i in owned
        ]
        out["has_4g"] = bool(prompt.get("has_4g"))
    return out


def preview(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, action: Any) -> dict[str, Any] | None:
    """What the plan in ``action`` ({"type": "plan", "plan": …}) gives, or why it cannot
    be sealed yet: {"ok", "problem", "price", "goods", "improve", "research",
    "logistics", "covered", "warning", "text"}."""
    if not prompt or prompt.get("type") != "plan" or not isinstance(action, Mapping):
        return None
    plan = action.get("plan")
    if not isinstance(plan, Mapping):
        return None
    ctx = planner.PlanContext.from_prompt(dict(prompt), dict(view), seat)
    try:
        draft = planner.Draft.from_plan(dict(plan))
    except (KeyError, TypeError, ValueError):
        return {"ok": False, "problem": "Lay both Pads first."}
    ev = planner.evaluate(draft, ctx)
    if ev is None:
        why = planner.problem(draft, ctx) or "That plan breaks a Planning rule."
        return {"ok": False, "problem": why[:1].upper() + why[1:]}
    y = ev["yields"]
    can = planner.sellable(ctx, int(y["price"]))
    warning = ""
    if can is not None and y["goods"] > can:
        warning = f"About {y['goods'] - can} of {y['goods']} Goods unsold: you can sell about {can} at price {y['price']}."
    return {
        "ok": True,
        "problem": "",
        "price": y["price"],
        "goods": y["goods"],
        "improve": bool(y["improve"]),
        "research": y["research"],
        "logistics": y["logistics"],
        "covered": ev.get("covered"),
        "warning": warning,
        "text": planner.short_yields(y, ctx),
    }


def moves(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, action: Any) -> list[list[str]] | None:
    """An action's gestures on the board (bot.table.decide): an Improvement of the block,
    a Technology's track to research, the regions of Logistics, a sale or Wi-Fi, each a
    tap on the place that carries its id (render.smartphone_inc: regions, techs,
    improvements). A plan is laid on the planner (table.js), not here."""
    if not isinstance(action, Mapping):
        return None
    kind = action.get("type")
    if kind == "improvement" and isinstance(action.get("id"), str):
        return [[action["id"]]]
    if kind == "research" and isinstance(action.get("place"), Mapping) and action["place"]:
        return [[str(tech)] for tech in action["place"]]
    if kind == "logistics" and isinstance(action.get("place"), list) and action["place"]:
        return [[str(p[0])] for p in action["place"] if isinstance(p, list) and p]
    if kind == "sell" and isinstance(action.get("regions"), Mapping) and action["regions"]:
        return [[str(r)] for r in action["regions"]]
    if kind == "wifi" and isinstance(action.get("region"), str):
        return [[action["region"]]]
    return other_moves(kind, action)


REGION_TAPS = frozenset({"start_region", "start_retailer", "gamepad_office", "place_retailer"})


def other_moves(kind: Any, action: Mapping[str, Any]) -> list[list[str]] | None:
    """The decisions of the Update 1.1 modules and the 2-3 player board that name a place
    drawn: a region tapped (a starting region or Retailer, the Gamepad's Office, a
    Retailer placed: each of its Retailers and sides a ✓ of its own; the CEO moved there
    in Logistics), the regions of a second sale, and a Retailer's bonus (its region, its
    Technologies' tracks, or a marker dragged from one region to another)."""
    if kind in REGION_TAPS and isinstance(action.get("region"), str):
        return [[action["region"]]]
    if kind == "logistics" and isinstance(action.get("ceo"), str) and not action.get("place"):
        return [[action["ceo"]]]
    if kind == "second_sell" and isinstance(action.get("regions"), Mapping) and action["regions"]:
        return [[str(r)] for r in action["regions"]]
    if kind == "retailer_bonus" and action.get("use"):
        if isinstance(action.get("region"), str):
            return [[action["region"]]]
        if isinstance(action.get("place"), Mapping) and action["place"]:
            return [[str(tech)] for tech in action["place"]]
        if isinstance(action.get("from"), str) and isinstance(action.get("to"), str):
            return [[action["from"], action["to"]]]
    return None
