"""The planner's plan preview as a compact picture (issue 22): 640 px wide like the other
compact pictures (:mod:`render.smartphone_inc.compact`), no text under 22 px, so that its
yields and its caption stay readable on a phone (the 1200 px preview of
:mod:`render.smartphone_inc.plan` showed them about 5 px high there).

It shows the two Pads as arranged with the Improvements on them (the piece just placed
framed in orange), a caption naming the colours it is drawn in (grey bottom Pad, blue top
Pad, cream Improvement), what the decision gives this round, and where each Improvement
went. Like every picture it reads only the seat's own view.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.smartphone_inc import pads as engine_pads
from engine.smartphone_inc.data import MINI_UPGRADES
from engine.smartphone_inc.planning import literal_cover
from render.smartphone_inc import pads as padview
from render.smartphone_inc import theme as t
from render.smartphone_inc.compact import (
    BODY,
    INNER,
    LARGE,
    MARGIN,
    SMALL,
    WIDTH,
    CompactCanvas,
    card,
    header,
)
from render.smartphone_inc.plan import has_4g, previewed

THUMBS_PER_ROW = 3  # the small grids of a placing step's options: room for their letters and numbers
THUMB_ROW = 220  # the most height a row of them takes (a grid of 4 rows, its number and letters)
HIGHLIGHT = "#e67e22"  # the frame render.smartphone_inc.pads.draw_grid puts round the piece just placed


def caption(plan: dict[str, Any], highlight: bool) -> list[str]:
    """The Pads in words, with the colours they are drawn in (cream: an Improvement)."""
    b = plan["bottom"]
    top_pad = "B" if b["pad"] == "A" else "A"
    out = [
        f"Bottom (grey): Pad {b['pad']} side {b['side'] + 1}",
        f"Top (blue): Pad {top_pad} side {plan['top']['side'] + 1}, turned {plan['top']['rot'] * 90}°",
    ]
    if plan.get("improvements"):
        out.append("Cream: an Improvement on the Pads")
    if highlight:
        out.append("Orange frame: the piece just placed")
    return out


def option_thumbs(cv: CompactCanvas, view: dict[str, Any], options: list[dict[str, Any]], x: float, y: float) -> float:
    """Every option of the placing step drawn small, numbered as the list numbers it (the
    large grid shows option 1 only): the player sees the place of the one they choose.
    Each small grid has its column letters and row numbers, the names the list gives its
    cells ("on D2–F3"): one frame for every option (``pads.grid_origin``)."""
    me = view["players"][view["you"]]
    drawn = []
    for o in options:
        try:
            canon = engine_pads.validate_plan(dict(o["plan"]), me["improvements"], has_4g(view))
            grid = engine_pads.evaluate(canon, me["improvements"], has_4g(view), literal_cover(view))["grid"]
        except ValueError:
            continue
        drawn.append((o["n"], grid, [tuple(c) for c in o.get("highlight") or []]))
    if not drawn:
        return y
    origin = padview.grid_origin(has_4g(view))
    per_row = THUMBS_PER_ROW
    tw = (INNER - 28 - (per_row - 1) * 10) / per_row
    side = SMALL + 4  # the row numbers left of a grid
    sizes = [padview.grid_size(g) for _n, g, _h in drawn]
    cell = int(min(30, min((tw - side - 4) / gw for gw, _gh in sizes), min(120 / gh for _gw, gh in sizes)))
    above = SMALL + 8 + SMALL + 6  # the option's number, then the column letters
    th = above + max(gh for _gw, gh in sizes) * cell + 8
    rows = (len(drawn) + per_row - 1) // per_row
    h = 14 + BODY + 12 + rows * (th + 10) + 4
    card(cv, x, y, INNER, h)
    cv.text(x + 14, y + 12, "Each option of the list, by its number:", BODY, bold=True)
    top = y + 14 + BODY + 12
    for i, (n, grid, hl) in enumerate(drawn):
        tx = x + 14 + (i % per_row) * (tw + 10)
        ty = top + (i // per_row) * (th + 10)
        cv.text(tx, ty, str(n), SMALL, bold=True, fill=HIGHLIGHT)
        gw, _gh = padview.grid_size(grid)
        padview.draw_grid(
            cv, grid, tx + side + (tw - side - gw * cell) / 2, ty + above, cell,
            origin=origin, highlight=hl, label_size=SMALL,  # type: ignore[arg-type]
        )
    return y + h


def yield_rows(view: dict[str, Any], seat: str, outcome: dict[str, Any]) -> list[tuple[str | None, str, str]]:
    yl = padview.yields(view, seat, outcome)
    d = yl["price_delta"]
    parts = " + ".join(f"{n} {k[:-1] if n == 1 and k.endswith(('tokens', 'cells')) else k}" for k, n in yl["goods_parts"]) or "none"
    return [
        ("up" if d > 0 else ("down" if d < 0 else None), "Price", f"{yl['price']} ({d:+d})" if d else f"{yl['price']} (no change)"),
        ("prod", "Goods", f"{yl['goods']} ({parts})"),
        ("research", "Research", f"{yl['research']} Progress marker{'' if yl['research'] == 1 else 's'}"),
        ("logistics", "Logistics", f"{yl['logistics']} Progress marker{'' if yl['logistics'] == 1 else 's'}"),
        ("improve", "Improve", "take an Improvement" if yl["improve"] else "no: a Goods token instead"),
    ]


def draw(view: dict[str, Any], plan: dict[str, Any]) -> Image.Image:
    """Raises engine.IllegalAction (a ValueError) if the plan is not legal for the seat."""
    seat, me, plan, highlight = previewed(view, plan)
    options = list(plan.pop("options", None) or [])
    canon = engine_pads.validate_plan(plan, me["improvements"], has_4g(view))
    outcome = engine_pads.evaluate(canon, me["improvements"], has_4g(view), literal_cover(view))
    cv = CompactCanvas(WIDTH, 2400 + THUMB_ROW * -(-len(options) // THUMBS_PER_ROW))  # (cut to the height drawn)
    y = header(cv, view, seat) + 12
    x = MARGIN
    cv.text(x, y, cv.fit("Plan preview (not sealed yet)", LARGE, True, INNER), LARGE, bold=True)
    y += LARGE + 14
    # the Pads as arranged
    grid = outcome["grid"]
    origin = padview.grid_origin(has_4g(view))
    gw, gh = padview.grid_size(grid)
    cell = int(min(110, (INNER - 60) / gw, 340 / gh))
    lines = caption(canon, bool(highlight))
    if options:
        lines[-1] = "Orange frame: the piece being placed"
        lines.insert(0, f"Shown large: option {options[0]['n']} of the list")
    box_h = 24 + 30 + gh * cell + 16 + len(lines) * (SMALL + 8) + 12
    card(cv, x, y, INNER, box_h)
    gx = x + (INNER - gw * cell) / 2 + 12
    padview.draw_grid(cv, grid, gx, y + 24 + 30, cell, origin=origin, highlight=highlight)  # type: ignore[arg-type]
    ty = y + 24 + 30 + gh * cell + 16
    for line in lines:
        fill = HIGHLIGHT if line.startswith("Orange") else t.INK
        cv.text(x + 14, ty, cv.fit(line, SMALL, False, INNER - 28), SMALL, fill=fill)
        ty += SMALL + 8
    y += box_h + 14
    if options:
        y = option_thumbs(cv, view, options, x, y) + 14
    # what it gives this round
    rows = yield_rows(view, seat, outcome)
    value_w = INNER - 212
    wrapped = [cv.wrap(value, BODY, False, value_w) or [""] for _s, _l, value in rows]  # a long value on two lines
    heights = [max(48, 10 + len(lines) * (BODY + 8)) for lines in wrapped]
    card(cv, x, y, INNER, 16 + sum(heights) + 8, good=True)
    ry = y + 12
    for (sym, label, _value), lines, h in zip(rows, wrapped, heights, strict=True):
        if sym is None:
            cv.box(x + 12, ry, x + 52, ry + 40, fill=t.FAINT, outline=t.PANEL_EDGE, radius=6)
            cv.text(x + 32, ry + 20, "=", LARGE, bold=True, fill=t.MUTED, anchor="mm")
        else:
            cv.icon(x + 12, ry, 40, sym)
        cv.text(x + 64, ry + 20, label, BODY, bold=True, anchor="lm")
        for k, line in enumerate(lines):
            cv.text(x + 200, ry + 20 + k * (BODY + 8), cv.fit(line, BODY, False, value_w), BODY, anchor="lm")
        ry += h
    y = ry + 8 + 14
    # the Improvements: where each went, or face down
    placed = [
        f"{padview.improvement_words(i['id'])} on "
        + " and ".join(padview.cell_name(cx, cy, origin) for cx, cy in engine_pads.improvement_positions(i["x"], i["y"], i["rot"]))
        for i in canon["improvements"]
    ]
    down = [padview.improvement_words(i) + (" (no Goods)" if i in MINI_UPGRADES else "") for i in outcome["face_down"]]
    said = (placed or ["No Improvement on the Pads"]) + ([f"Face down (+1 Goods each): {', '.join(down)}"] if down else [])
    for line in said:
        y = cv.lines(x, y, line, SMALL, INNER) + 6
    cv.height = int(y + MARGIN)
    return cv.finish(cv.height)
