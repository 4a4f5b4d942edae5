"""Pads, Improvements and plans: the grids of a decision and what it yields."""

from __future__ import annotations

from typing import Any

from engine.smartphone_inc import pads as engine_pads
from engine.smartphone_inc.data import IMPROVEMENTS, TECHS
from engine.smartphone_inc.planning import yields as engine_yields
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas

LAYER_FILL = {
    "bottom": t.PAD_BOTTOM,
    "top": t.PAD_TOP,
    "under": t.IMPROVEMENT,
    "over": t.IMPROVEMENT,
}
LAYER_EDGE = {
    "bottom": "#56677a",
    "top": "#2c3e57",
    "under": t.IMPROVEMENT_EDGE,
    "over": t.IMPROVEMENT_EDGE,
}


def plan_grid(plan: dict[str, Any], owned: list[str]) -> list[dict[str, Any]] | None:
    """Visible cells of a revealed or sealed plan (None if it cannot be laid out).

    The plan was validated when it was sealed; it is laid out leniently (4G allowed)
    because the Technologies may have changed since.
    """
    try:
        return engine_pads.evaluate(plan, owned, True)["grid"]
    except ValueError:
        return None


def grid_size(grid: list[dict[str, Any]]) -> tuple[int, int]:
    xs = [c["x"] for c in grid]
    ys = [c["y"] for c in grid]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def draw_grid(
    cv: Canvas, grid: list[dict[str, Any]], x0: float, y0: float, cell: int
) -> tuple[int, int]:
    """Draw the visible cells of a plan with the outline of each Pad and Improvement;
    return the drawn width and height."""
    minx = min(c["x"] for c in grid)
    miny = min(c["y"] for c in grid)
    at = {(c["x"], c["y"]): c for c in grid}
    pad = max(2, cell // 9)
    for c in grid:
        px = x0 + (c["x"] - minx) * cell
        py = y0 + (c["y"] - miny) * cell
        cv.box(px, py, px + cell, py + cell, fill=LAYER_FILL[c["layer"]], outline="#a9b2bd")
        cv.icon(px + pad, py + pad, cell - 2 * pad, c["symbol"])
    lw = max(2, cell // 12)
    for c in grid:
        px = x0 + (c["x"] - minx) * cell
        py = y0 + (c["y"] - miny) * cell
        edge = LAYER_EDGE[c["layer"]]
        for dx, dy, seg in (
            (0, -1, (px, py, px + cell, py)),
            (0, 1, (px, py + cell, px + cell, py + cell)),
            (-1, 0, (px, py, px, py + cell)),
            (1, 0, (px + cell, py, px + cell, py + cell)),
        ):
            other = at.get((c["x"] + dx, c["y"] + dy))
            if other is None or other["item"] != c["item"]:
                cv.d.line(seg, fill=edge, width=lw)
    w, h = grid_size(grid)
    return w * cell, h * cell


def draw_pad_side(cv: Canvas, pad: str, side: int, x: float, y: float, cell: int) -> None:
    rows = engine_pads.pad_cells(pad, side)
    inset = max(2, cell // 9)
    for r, row in enumerate(rows):
        for c, sym in enumerate(row):
            px, py = x + c * cell, y + r * cell
            cv.box(px, py, px + cell, py + cell, fill=t.PAD_BOTTOM, outline="#a9b2bd")
            cv.icon(px + inset, py + inset, cell - 2 * inset, sym)
    cv.box(x, y, x + 3 * cell, y + 2 * cell, outline=LAYER_EDGE["bottom"], width=max(2, cell // 12))


def draw_domino(
    cv: Canvas, imp: str, x: float, y: float, cell: int, *, faded: bool = False
) -> None:
    """An Improvement: two halves side by side (an open half is blank)."""
    cells = IMPROVEMENTS.get(imp, [None, None])
    inset = max(2, cell // 9)
    fill = t.FAINT if faded else t.IMPROVEMENT
    for i, sym in enumerate(cells):
        px = x + i * cell
        cv.box(px, y, px + cell, y + cell, fill=fill, outline="#c8b27a")
        if sym is not None:
            cv.icon(px + inset, y + inset, cell - 2 * inset, sym)
    cv.box(
        x, y, x + 2 * cell, y + cell, outline=t.IMPROVEMENT_EDGE, width=max(2, cell // 14), radius=3
    )


def tech_effects(view: dict[str, Any], seat: str) -> set[str]:
    """Effects of the Technologies ``seat`` has, on the side in play (Steve uses none)."""
    p = view["players"][seat]
    if p.get("steve"):
        return set()
    out = set()
    for tech in p["techs"]:
        side = view["techs"].get(tech, {}).get("side", 0)
        out.add(TECHS[tech]["sides"][side]["effect"])
    return out


def yields(view: dict[str, Any], seat: str, outcome: dict[str, Any]) -> dict[str, Any]:
    """What an outcome (active counts, covered, face down) gives ``seat`` this round:
    the engine's own rules (``planning.yields``) applied to the view, so the picture
    cannot drift from the phases."""
    y = dict(engine_yields(view, seat, outcome))
    y["goods_parts"] = [(k, n) for k, n in y["goods_parts"]]
    y["active"] = {s: int(outcome["active"].get(s, 0)) for s in t.SYMBOLS}
    return y


def draw_counts(
    cv: Canvas,
    active: dict[str, int],
    x: float,
    y: float,
    size: int,
    per_row: int = 3,
    col_w: int = 62,
) -> float:
    """Icon + count for the six symbols, ``per_row`` to a row; returns the y below."""
    for i, sym in enumerate(t.SYMBOLS):
        cx = x + (i % per_row) * col_w
        cy = y + (i // per_row) * (size + 6)
        n = active.get(sym, 0)
        cv.icon(cx, cy, size, sym)
        cv.text(
            cx + size + 4,
            cy + size / 2,
            str(n),
            t.BODY,
            bold=n > 0,
            fill=t.INK if n else t.MUTED,
            anchor="lm",
        )
    rows = (len(t.SYMBOLS) + per_row - 1) // per_row
    return y + rows * (size + 6)
