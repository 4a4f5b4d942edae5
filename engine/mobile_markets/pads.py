"""The Planning Pads and how one lies on the other (MM-PLAN-02..05).

Geometry (reconstructed, DATA.md)
---------------------------------
Each Pad side is a row of 5 square cells, numbered 0-4 from the left as printed in
``data/pads.json``. The top Pad lies on the bottom Pad in one of two ways, always on
whole cells (MM-PLAN-02: each square wholly hidden or wholly visible):

* **along** it, shifted by 1-4 cells: it covers 1-4 cells at one end of the bottom
  Pad (cells ``0..k-1`` or ``5-k..4``) and sticks out at the other end;
* **across** it (perpendicular): it covers exactly one cell, any of the five.

The top Pad itself is never covered, so its 5 cells are always visible. A plan is::

    {"bottom": "A", "bottom_side": 0, "top_side": 1, "cover": [3, 4]}

``cover`` lists the covered cells of the bottom Pad; it must be one of the shapes
above (at least 1 covered and at least 1 visible). The top Pad is the other Pad.
Covered cells produce 1 Goods each whatever they show (MM-PLAN-05): covered = 10 -
visible cells.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.errors import IllegalAction
from engine.mobile_markets.data import PADS, SYMBOLS


@cache
def cover_shapes() -> tuple[tuple[int, ...], ...]:
    """Every allowed set of covered bottom cells: 4 at the left end, 4 at the right
    end (along), 5 single cells (across), without repeats: 11."""
    shapes: list[tuple[int, ...]] = []
    for k in range(1, 5):
        shapes.append(tuple(range(k)))
        shapes.append(tuple(range(5 - k, 5)))
    for i in range(5):
        shapes.append((i,))
    out: list[tuple[int, ...]] = []
    for s in shapes:
        if s not in out:
            out.append(s)
    return tuple(sorted(out, key=lambda s: (len(s), s)))


def validate(plan: Any) -> dict[str, Any]:
    if not isinstance(plan, dict):
        raise IllegalAction("a plan names the bottom Pad, both sides and the covered cells")
    bottom = plan.get("bottom")
    if bottom not in PADS:
        raise IllegalAction("the bottom Pad is A or B")
    sides = []
    for key in ("bottom_side", "top_side"):
        v = plan.get(key)
        if v not in (0, 1) or isinstance(v, bool):
            raise IllegalAction(f"{key.replace('_', ' ')} is 0 or 1")
        sides.append(v)
    cover = plan.get("cover")
    if not isinstance(cover, list) or any(isinstance(c, bool) or not isinstance(c, int) for c in cover):
        raise IllegalAction("cover lists the covered cells of the bottom Pad (0-4)")
    shape = tuple(sorted(set(cover)))
    if not shape:
        raise IllegalAction("at least one cell of the lower Pad must be covered")
    if len(shape) == 5:
        raise IllegalAction("at least one cell of the lower Pad must remain visible")
    if shape not in cover_shapes():
        raise IllegalAction(
            "the top Pad must lie along the bottom one over 1-4 cells at one end, or across it over one cell"
        )
    return {"bottom": bottom, "bottom_side": sides[0], "top_side": sides[1], "cover": list(shape)}


def top_pad(bottom: str) -> str:
    return "B" if bottom == "A" else "A"


def evaluate(plan: dict[str, Any]) -> dict[str, int]:
    """Visible symbols (MM-PLAN-04) and covered cells (MM-PLAN-05) of a valid plan."""
    plan = validate(plan)
    counts = dict.fromkeys(SYMBOLS, 0)
    bottom = PADS[plan["bottom"]][plan["bottom_side"]]
    top = PADS[top_pad(plan["bottom"])][plan["top_side"]]
    visible = 5
    for cell in top:
        for sym in cell:
            counts[sym] += 1
    for i, cell in enumerate(bottom):
        if i in plan["cover"]:
            continue
        visible += 1
        for sym in cell:
            counts[sym] += 1
    counts["covered"] = 10 - visible
    counts["visible"] = visible
    return counts


def goods(outcome: dict[str, int]) -> int:
    """Goods from the Pads: visible Production cells + covered cells."""
    return outcome["prod"] + outcome["covered"]


@cache
def arrangements() -> tuple[dict[str, Any], ...]:
    """Every plan: 2 bottom Pads x 2 bottom sides x 2 top sides x 11 covers = 88."""
    return tuple(
        {"bottom": b, "bottom_side": bs, "top_side": ts, "cover": list(shape)}
        for b in ("A", "B")
        for bs in (0, 1)
        for ts in (0, 1)
        for shape in cover_shapes()
    )


def describe(outcome: dict[str, int]) -> str:
    change = outcome["up"] - outcome["down"]
    return (
        f"price {change:+d}, {outcome['tech']} Technology, {outcome['mkt']} Marketing, "
        f"{outcome['prod']} Production + {outcome['covered']} covered"
    )


@cache
def distinct() -> tuple[dict[str, Any], ...]:
    """Every different result of a plan (visible symbols and covered cells), each with
    the first plan that gives it: what a planner offers by goal."""
    seen: dict[tuple[int, ...], dict[str, Any]] = {}
    for plan in arrangements():
        o = evaluate(plan)
        key = (o["up"] - o["down"], o["tech"], o["mkt"], o["prod"] + o["covered"])
        if key not in seen:
            seen[key] = {"price": key[0], "tech": key[1], "mkt": key[2], "goods": key[3], "outcome": o, "plan": plan}
    return tuple(seen.values())
