"""The plan preview of the planner: the two Pads as arranged, the Improvements on them
and what the decision gives this round."""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.smartphone_inc import pads as engine_pads
from engine.smartphone_inc.data import MINI_UPGRADES
from engine.smartphone_inc.planning import literal_cover
from render.smartphone_inc import frame, modules, private
from render.smartphone_inc import pads as padview
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas

INNER = t.WIDTH - 2 * t.MARGIN


def has_4g(view: dict[str, Any]) -> bool:
    prompt = view.get("prompt") or {}
    if prompt.get("type") == "plan" and "has_4g" in prompt:
        return bool(prompt["has_4g"])
    return "improvements_off_edge" in padview.tech_effects(view, view["you"])


def describe(plan: dict[str, Any], highlight: bool = False) -> str:
    """The caption names the colours the grid is drawn in (grey bottom Pad, blue top Pad,
    an orange frame round the piece just placed)."""
    b = plan["bottom"]
    top_pad = "B" if b["pad"] == "A" else "A"
    return (
        f"Bottom: Pad {b['pad']} side {b['side'] + 1} (grey)   ·   "
        f"Top: Pad {top_pad} side {plan['top']['side'] + 1} (blue), turned {plan['top']['rot'] * 90}°"
        + ("   ·   orange frame: just placed" if highlight else "")
    )


def previewed(view: dict[str, Any], plan: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any], list[tuple[Any, ...]]]:
    """(the seat, its company, a copy of the plan, the cells of the piece the planner just
    placed, taken out of the copy) for a plan preview; ValueError without a seat."""
    seat = view.get("you")
    if seat is None or seat not in view["players"]:
        raise ValueError("a plan preview needs a seat's private view")
    plan = dict(plan)
    highlight = [tuple(c) for c in plan.pop("highlight", None) or []]
    return seat, view["players"][seat], plan, highlight


def draw(view: dict[str, Any], plan: dict[str, Any]) -> Image.Image:
    """Raises engine.IllegalAction (a ValueError) if the plan is not legal for the seat."""
    seat, me, plan, highlight = previewed(view, plan)
    canon = engine_pads.validate_plan(plan, me["improvements"], has_4g(view))
    outcome = engine_pads.evaluate(canon, me["improvements"], has_4g(view), literal_cover(view))
    cv = Canvas(t.WIDTH, 2000)
    x = t.MARGIN
    cv.box(0, 0, t.WIDTH, 76, fill=t.HEADER)
    cv.token(x, 18, 40, me["colour"])
    cv.text(
        x + 52,
        38,
        cv.fit(f"Plan preview: {seat}", t.TITLE, True, 560),
        t.TITLE,
        bold=True,
        fill=t.HEADER_INK,
        anchor="lm",
    )
    rnd = int(view.get("round", 1))
    cv.text(
        t.WIDTH - x,
        38,
        f"Round {rnd} · not sealed until you confirm",  # "round 1", as the texts say
        t.BODY,
        fill="#c9d5e2",
        anchor="rm",
    )
    y = 76 + t.MARGIN
    origin = padview.grid_origin(has_4g(view))
    where = [
        f"{padview.improvement_name(i['id'], n)} on "
        + " and ".join(padview.cell_name(cx, cy, origin) for cx, cy in engine_pads.improvement_positions(i["x"], i["y"], i["rot"]))
        for n, i in enumerate(canon["improvements"])
    ]
    line = " · ".join(where) or "No Improvement on the Pads"
    cv.text(x, y, cv.fit(line, t.BODY, False, INNER), t.BODY, fill=t.MUTED)
    y += 30
    grid = outcome["grid"]
    gw, gh = padview.grid_size(grid)
    area_w = 560
    cell = int(min(96, (area_w - 30) / gw, 350 / gh))
    area_h = max(gh * cell + 36, 290)  # room for the column letters above the grid
    h = 40 + area_h + 20
    top = cv.panel(x, y, INNER, h, "Your decision", note=describe(canon, bool(highlight)))
    padview.draw_grid(
        cv,
        grid,
        x + 24 + (area_w - gw * cell) / 2,
        top + 36 + (area_h - 36 - gh * cell) / 2,
        cell,
        origin=origin,
        highlight=highlight,  # type: ignore[arg-type]
    )
    private.outcome_column(
        cv, view, seat, outcome, x + area_w + 40, top + 10, INNER - area_w - 60, True
    )
    y += h + 14
    y = _improvements(cv, me["improvements"], canon, outcome, x, y, INNER) + 14
    y = frame.legend(cv, x, y, INNER, board=False, extras=modules.pad_legend_items(view)) + t.MARGIN
    return cv.finish(int(y))


def _improvements(
    cv: Canvas,
    owned: list[str],
    canon: dict[str, Any],
    outcome: dict[str, Any],
    x: float,
    y: float,
    w: float,
) -> float:
    placed = [i["id"] for i in canon["improvements"]]
    layers = {i["id"]: i["layer"] for i in canon["improvements"]}
    face_down = list(outcome["face_down"])
    cell = 44
    per_row = max(1, int((w - 20) // (2 * cell + 40)))
    items = placed + face_down
    rows = max(1, (len(items) + per_row - 1) // per_row)
    h = 44 + rows * (cell + 52)
    top = cv.panel(x, y, w, h, "Improvements", note="on the Pads: their symbols count · face down: +1 Goods each")
    for i, imp in enumerate(items):
        ix = x + 14 + (i % per_row) * (2 * cell + 40)
        iy = top + (i // per_row) * (cell + 52)
        down = imp not in layers
        padview.draw_domino(cv, imp, ix, iy, cell, faded=down)
        cv.text(ix + cell, iy + cell + 14, padview.improvement_name(imp, i), t.SMALL, bold=True, anchor="mm")
        note = "face down" if down else ("under top Pad" if layers[imp] == "under" else "on top")
        if down and imp in MINI_UPGRADES:
            note = "unused: no Goods"
        cv.text(ix + cell, iy + cell + 33, note, t.SMALL, fill=t.MUTED, anchor="mm")
    if not items:
        cv.text(x + 14, top, "none owned", t.BODY, fill=t.MUTED)
    return y + h
