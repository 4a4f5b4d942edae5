"""Smartphone Inc. at the live table (:mod:`bot.table`): what the browser's planner
(``table.js`` beside this file) needs, and the live preview of a plan laid by hand.

The plan is laid on the seat's own area (``/api/mine.svg``, drawn with the half-built
plan by :mod:`render.smartphone_inc.laying`): :func:`places` says, from the engine
(``pads.validate_plan`` through the Discord planner's own candidates), every legal
place of each piece given what is laid already, so the page only matches a drop
against that list.

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
from render.smartphone_inc import laying


def facts(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """The regions' and Technologies' words, and the Improvements this seat places now
    (from its plan prompt), each with its two halves (the plan itself is laid on the
    own area's drawing: :func:`places`)."""
    out: dict[str, Any] = {
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


def lay_draft(prompt: Mapping[str, Any] | None, raw: Any) -> dict[str, Any] | None:
    """A plan being laid, as the page sends it (the top Pad's place may be null: not laid
    yet), checked for its shape only (the engine judges it): the canonical dict, or None."""
    if not prompt or prompt.get("type") != "plan" or not isinstance(raw, Mapping):
        return None
    owned = {str(i) for i in prompt.get("improvements") or []}

    def num(v: Any, lo: int, hi: int) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(v)
        return v

    try:
        b, t = raw["bottom"], raw["top"]
        if b["pad"] not in pads.PAD_IDS:
            return None
        laid = t.get("x") is not None or t.get("y") is not None
        out: dict[str, Any] = {
            "bottom": {"pad": b["pad"], "side": num(b["side"], 0, 1)},
            "top": {
                "side": num(t["side"], 0, 1),
                "rot": num(t["rot"], 0, 3),
                "x": num(t["x"], pads.COORD_MIN, pads.COORD_MAX) if laid else None,
                "y": num(t["y"], pads.COORD_MIN, pads.COORD_MAX) if laid else None,
            },
            "improvements": [],
        }
        seen = set()
        for i in raw.get("improvements") or []:
            if i["id"] not in owned or i["id"] in seen or i.get("layer", "over") not in pads.LAYERS or not laid:
                return None
            seen.add(i["id"])
            out["improvements"].append({
                "id": i["id"],
                "x": num(i["x"], pads.COORD_MIN, pads.COORD_MAX),
                "y": num(i["y"], pads.COORD_MIN, pads.COORD_MAX),
                "rot": num(i["rot"], 0, 3),
                "layer": i.get("layer", "over"),
            })
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return out


def places(prompt: Mapping[str, Any], view: Mapping[str, Any], seat: str, draft: Mapping[str, Any]) -> dict[str, Any]:
    """Where each piece may go now, from the engine: {"top": [[side, rot, x, y], …] (the
    top Pad, the Improvements laid staying where they are), "<Improvement id>": [[x, y,
    rot, layer], …] (the others staying; none before the top Pad is laid), "occupied":
    {"x,y": piece on top there (the top Pad's id or an Improvement's)}}. ``(x, y)`` is
    the top-left cell of the piece's box, as the engine places it."""
    ctx = planner.PlanContext.from_prompt(dict(prompt), dict(view), seat)
    b, t = draft["bottom"], draft["top"]
    imps = list(draft.get("improvements") or [])
    top_pad = "B" if b["pad"] == "A" else "A"
    tops = []
    for bp, bs, ts, rot, x, y in planner._arrangements():
        if (bp, bs) != (b["pad"], b["side"]):
            continue
        plan = {"bottom": dict(b), "top": {"side": ts, "rot": rot, "x": x, "y": y}, "improvements": imps}
        if not imps or planner._safe_validate(plan, ctx):
            tops.append([ts, rot, x, y])
    out: dict[str, Any] = {"top": tops, "occupied": {}}
    if t.get("x") is None:
        return out
    for imp in ctx.owned:
        others = tuple(planner.Placed(i["id"], i["x"], i["y"], i["rot"], i["layer"]) for i in imps if i["id"] != imp)
        d = planner.Draft(bottom=b["pad"], bottom_side=b["side"], top_side=t["side"], rot=t["rot"], x=t["x"], y=t["y"], improvements=others)
        out[imp] = [[p.x, p.y, p.rot, p.layer] for p in planner._imp_candidates(d, ctx, imp)]
    grid, _laid = laying.laid_grid(dict(draft), list(ctx.owned), ctx.has_4g)
    for c in grid:
        if c["layer"] != "bottom":
            out["occupied"][f"{c['x']},{c['y']}"] = top_pad if c["layer"] == "top" else c["item"]
    return out


def preview(prompt: Mapping[str, Any] | None, view: Mapping[str, Any], seat: str, action: Any) -> dict[str, Any] | None:
    """What the plan in ``action`` ({"type": "plan", "plan": …}) gives, or why it cannot
    be sealed yet: {"ok", "problem", "price", "goods", "improve", "research",
    "logistics", "covered", "warning", "text", "places"} (``places``: :func:`places`,
    for a plan being laid, whose top Pad may not be laid yet)."""
    if not prompt or prompt.get("type") != "plan" or not isinstance(action, Mapping):
        return None
    plan = action.get("plan")
    if not isinstance(plan, Mapping):
        return None
    draft = lay_draft(prompt, plan)
    if draft is not None and draft["top"]["x"] is None:
        return {"ok": False, "problem": "Lay the top Pad on the bottom one first.", "places": places(prompt, view, seat, draft)}
    out = _preview(prompt, view, seat, plan)
    if draft is not None:
        out["places"] = places(prompt, view, seat, draft)
    return out


def _preview(prompt: Mapping[str, Any], view: Mapping[str, Any], seat: str, plan: Mapping[str, Any]) -> dict[str, Any]:
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


# the seat's own area drawn with the plan being laid (bot.table.mine): the draft the page
# sends, checked for its shape, or None (the area as the view alone draws it)
mine_draft = lay_draft
