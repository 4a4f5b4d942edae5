"""A plan being laid (issue 35): the planning grid with the two Pads and the Improvements
as laid so far, and the pieces not laid yet beside it (a tray). Drawn in the seat's own
picture (:mod:`render.smartphone_inc.private`) while its plan is not sealed, so the
Discord picture and the live table show the same grid; the table draws it as SVG with
the half-built plan it holds, and lays the pieces on it.

The places a piece can go carry the engine's grid: every cell of the frame any legal
arrangement lies in is marked ``cell:<x>,<y>`` (the engine's coordinates,
``engine.smartphone_inc.pads``; its name, "C3", as the Discord planner names it, is its
label), the top Pad in the tray carries its Pad's id ("A" or "B") and each Improvement
not laid its own id. Which placements are legal is the engine's word
(``bot.games.smartphone_inc.table.places``), never this drawing's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from engine.smartphone_inc import pads as engine_pads
from engine.smartphone_inc.planning import literal_cover
from render.smartphone_inc import pads as padview
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas

CELL = 52  # a cell of the grid (41 px on a phone: 400 px wide, the area at 0.8); the 4G frame, one cell wider all round: CELL_4G
CELL_4G = 50
LABEL = 26  # room for the row numbers left of the grid
GAP = 16


@cache
def frame(has_4g: bool) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1), inclusive: the cells every legal arrangement lies in (and the
    ring round them an Improvement may overhang with 4G)."""
    cells = [
        c
        for plan in engine_pads.all_arrangements()
        for c in engine_pads.top_pad_positions(plan["top"]["rot"], plan["top"]["x"], plan["top"]["y"])
    ]
    out = 1 if has_4g else 0
    return (
        min(0, *(x for x, _ in cells)) - out,
        min(0, *(y for _, y in cells)) - out,
        max(2, *(x for x, _ in cells)) + out,
        max(1, *(y for _, y in cells)) + out,
    )


def default_draft() -> dict[str, Any]:
    """A plan not begun: Pad A at the bottom, side 1 up; Pad B's side 1 up, not laid."""
    return {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": None, "y": None}, "improvements": []}


def laid_grid(draft: dict[str, Any], owned: list[str], has_4g: bool) -> tuple[list[dict[str, Any]], set[str]]:
    """The visible cells of ``draft`` (the engine's ``evaluate`` grid) and the ids of the
    Improvements on it. A draft the engine refuses is drawn with what it accepts of it:
    the Pads alone, else the bottom Pad alone."""
    got = laid(draft, owned, has_4g)
    if got is not None:
        return got[0]["grid"], got[1]
    b = draft["bottom"]
    rows = engine_pads.pad_cells(b["pad"], int(b["side"]))
    grid = [
        {"x": c, "y": r, "symbol": sym, "item": f"{b['pad']}{b['side']}", "layer": "bottom"}
        for r, row in enumerate(rows)
        for c, sym in enumerate(row)
    ]
    return grid, set()


def laid(draft: dict[str, Any], owned: list[str], has_4g: bool, literal: bool = False) -> tuple[dict[str, Any], set[str]] | None:
    """The engine's ``evaluate`` of ``draft`` (its Improvements dropped if it refuses them)
    and the ids of the Improvements on it; None while the top Pad is not laid."""
    top = draft["top"]
    if top.get("x") is None or top.get("y") is None:
        return None
    for imps in (list(draft.get("improvements") or []), []):
        plan = {"bottom": draft["bottom"], "top": top, "improvements": imps}
        try:
            return engine_pads.evaluate(plan, owned, has_4g, literal), {i["id"] for i in imps}
        except ValueError:
            continue
    return None


def top_piece(draft: dict[str, Any]) -> list[dict[str, Any]]:
    """The top Pad not laid yet, turned and flipped as the draft holds it, as grid cells
    from (0, 0)."""
    b, top = draft["bottom"], draft["top"]
    pad = "B" if b["pad"] == "A" else "A"
    rows = engine_pads.pad_cells(pad, int(top["side"]))
    rot = int(top["rot"]) % 4
    out = []
    for r, row in enumerate(rows):
        for c, sym in enumerate(row):
            x, y = engine_pads._rot_offset(c, r, rot)
            out.append({"x": x, "y": y, "symbol": sym, "item": f"{pad}{top['side']}", "layer": "top"})
    return out


def panel(cv: Canvas, view: dict[str, Any], draft: dict[str, Any] | None, x: float, y: float, w: float, gives: Callable[..., None]) -> float:
    """The grid and the tray of the seat's plan being laid; returns the y below it.
    ``gives``: the private picture's column of what a plan gives
    (``private.outcome_column``, which draws this panel: passed, not imported)."""
    me = view["players"][view["you"]]
    owned = [str(i) for i in me.get("improvements") or []]
    prompt = view.get("prompt") or {}
    has_4g = bool(prompt.get("has_4g"))
    d = draft or default_draft()
    x0, y0, x1, y1 = frame(has_4g)
    cell = CELL_4G if has_4g else CELL
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    grid_grid, on_pads = laid_grid(d, owned, has_4g)
    top_laid = d["top"].get("x") is not None and any(c["layer"] == "top" for c in grid_grid)
    tray = ([] if top_laid else ["pad"]) + [i for i in owned if i not in on_pads]
    # the tray below the grid, as many pieces a row as the grid is wide
    gw = LABEL + cols * cell
    slots = _tray_slots(tray, d, cell, gw)
    tray_h = max((sy + sh for _k, _sx, sy, _sw, sh in slots), default=0)
    # (its words wrapped to the grid's width: a phone shows the area about that wide)
    said = cv.wrap("Not laid yet (at the table: drag each onto the grid, or tap it, then a cell)", t.SMALL, False, gw)
    h = 40 + 24 + rows * cell + (GAP + 20 * len(said) + 4 + tray_h if tray else 0) + 16
    top = cv.panel(x, y, w, h, "Lay your plan", note="not sealed yet: /plan in Discord, or lay it here at the table")
    gx = x + 14 + LABEL
    gy = top + 24

    def at(cx: int, cy: int) -> tuple[float, float]:
        return gx + (cx - x0) * cell, gy + (cy - y0) * cell

    origin = padview.grid_origin(has_4g)
    for cx in range(x0, x1 + 1):
        cv.text(at(cx, y0)[0] + cell / 2, gy - 4, padview.cell_name(cx, origin[1], origin)[:-1], t.SMALL, bold=True, fill=t.MUTED, anchor="md")
    for cy in range(y0, y1 + 1):
        cv.text(gx - 6, at(x0, cy)[1] + cell / 2, str(cy - origin[1] + 1), t.SMALL, bold=True, fill=t.MUTED, anchor="rm")
    for cy in range(y0, y1 + 1):
        for cx in range(x0, x1 + 1):
            px, py = at(cx, cy)
            cv.box(px + 1, py + 1, px + cell - 1, py + cell - 1, fill=t.REGION, outline=t.FAINT)
    minx = min(c["x"] for c in grid_grid)
    miny = min(c["y"] for c in grid_grid)
    padview.draw_grid(cv, grid_grid, *at(minx, miny), cell)
    for cy in range(y0, y1 + 1):  # the places, over the pieces laid (what a tap there meets)
        for cx in range(x0, x1 + 1):
            px, py = at(cx, cy)
            cv.mark(f"cell:{cx},{cy}", "cell", (px, py, px + cell, py + cell), padview.cell_name(cx, cy, origin))
    # beside the grid: the Pads in words, and what the plan gives once the top Pad is laid
    rx = gx + cols * cell + 30
    rw = x + w - 14 - rx
    b = d["bottom"]
    words = [f"Bottom (grey): Pad {b['pad']}, side {int(b['side']) + 1}"]
    if top_laid:
        words.append(f"Top (blue): Pad {'B' if b['pad'] == 'A' else 'A'}, side {int(d['top']['side']) + 1}, turned {int(d['top']['rot']) * 90}°")
    for i, line in enumerate(words):
        cv.text(rx, gy + i * 24, cv.fit(line, t.BODY, False, rw), t.BODY, fill=t.MUTED)
    outcome = laid(d, owned, has_4g, literal_cover(view)) if top_laid else None
    if outcome is not None and rw > 300:
        gives(cv, view, view["you"], outcome[0], rx, gy + len(words) * 24 + 12, rw, True)
    if tray:
        ty = gy + rows * cell + GAP
        for line in said:
            cv.text(x + 14, ty, line, t.SMALL, fill=t.MUTED)
            ty += 20
        ty += 4
        for kind, sx, sy, _sw, _sh in slots:
            px, py = x + 14 + sx, ty + sy
            if kind == "pad":
                piece = top_piece(d)
                pad = piece[0]["item"][0]
                with cv.tag(pad, "pad"):
                    pw, ph = padview.draw_grid(cv, piece, px, py, cell)
                    cv.text(px + pw / 2, py + ph + 4, f"Top: Pad {pad}, side {int(d['top']['side']) + 1}", t.SMALL, bold=True, anchor="ma")
            else:
                with cv.tag(kind, "improvement"):
                    padview.draw_domino(cv, kind, px, py, cell)
                    cv.text(px + cell, py + cell + 4, padview.improvement_name(kind, owned.index(kind)), t.SMALL, bold=True, anchor="ma")
    return y + h


def _tray_slots(tray: list[str], d: dict[str, Any], cell: int, width: float) -> list[tuple[str, float, float, float, float]]:
    """(piece, x, y, w, h) of each piece of the tray, in rows no wider than ``width``."""
    out = []
    sx = sy = row_h = 0.0
    for kind in tray:
        if kind == "pad":
            turned = int(d["top"]["rot"]) % 2
            pw, ph = (2 if turned else 3) * cell, (3 if turned else 2) * cell + 24  # its name below it
        else:
            pw, ph = 2 * cell, cell + 24  # its name below it
        if sx and sx + pw > width:
            sx, sy, row_h = 0.0, sy + row_h + GAP, 0.0
        out.append((kind, sx, sy, pw, ph))
        sx += pw + GAP
        row_h = max(row_h, ph)
    return out
