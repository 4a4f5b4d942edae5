"""Pads, Improvements and plans: the grids of a decision and what it yields."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.smartphone_inc import pads as engine_pads
from engine.smartphone_inc.data import IMPROVEMENTS, MINI_UPGRADES, TECHS
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
    try:  # (remembered for the plans seen last)
        return engine_pads.evaluated(plan, _placed(plan, owned), True)["grid"]
    except ValueError:
        return None


def _placed(plan: dict[str, Any], owned: list[str]) -> list[str]:
    """The owned Improvements ``plan`` places: its grid depends on no other, and it is
    refused alike with those alone; so a decision's grid is remembered from one Phase
    to the next while the company takes more Improvements. ``owned`` itself if the
    data is not as expected (the same errors then)."""
    try:
        if all(isinstance(i, str) for i in owned):
            placed = {item["id"] for item in plan["improvements"]}
            return [i for i in owned if i in placed]
    except (TypeError, KeyError, AttributeError):
        pass
    return owned


@cache
def _frame() -> tuple[int, int]:
    """The top-left cell of the frame every legal arrangement of the two Pads lies in."""
    cells = [
        cell
        for plan in engine_pads.all_arrangements()
        for cell in engine_pads.top_pad_positions(plan["top"]["rot"], plan["top"]["x"], plan["top"]["y"])
    ]
    return min(0, *(x for x, _y in cells)), min(0, *(y for _x, y in cells))


def grid_origin(has_4g: bool) -> tuple[int, int]:
    """The cell named "A1" in the planner's words and pictures: the top-left of the frame
    that every arrangement of the two Pads lies in (one cell further out with 4G, where an
    Improvement may overhang). A cell has one name in every plan, so the top Pad's places
    of a by-hand list, each drawn in its own small grid, are named as their grids are
    labelled, and a cell keeps its name while Improvements are added (the bottom Pad lies
    on C3-E4, D4-F5 with 4G)."""
    out = 1 if has_4g else 0
    x, y = _frame()
    return x - out, y - out


def cell_name(x: int, y: int, origin: tuple[int, int]) -> str:
    """A cell as the grid's edges label it: column letter, row number ("C2")."""
    col = x - origin[0]
    return (chr(ord("A") + col) if 0 <= col < 26 else f"({x})") + str(y - origin[1] + 1)


def grid_size(grid: list[dict[str, Any]]) -> tuple[int, int]:
    xs = [c["x"] for c in grid]
    ys = [c["y"] for c in grid]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def draw_grid(
    cv: Canvas,
    grid: list[dict[str, Any]],
    x0: float,
    y0: float,
    cell: int,
    *,
    origin: tuple[int, int] | None = None,
    highlight: list[tuple[int, int]] | None = None,
    label_size: int | None = None,
) -> tuple[int, int]:
    """Draw the visible cells of a plan with the outline of each Pad and Improvement;
    return the drawn width and height. With ``origin`` the columns are lettered and the
    rows numbered along the edges (:func:`cell_name`); ``highlight`` cells (the piece
    just placed) get a thick frame; ``label_size``: the letters' and numbers' size (by
    default a third of a cell, 12 to 22)."""
    minx = min(c["x"] for c in grid)
    miny = min(c["y"] for c in grid)
    at = {(c["x"], c["y"]): c for c in grid}
    if origin is not None:
        size = label_size or max(12, min(22, cell // 3))
        for gx in sorted({c["x"] for c in grid}):
            cv.text(x0 + (gx - minx + 0.5) * cell, y0 - 4, cell_name(gx, origin[1], origin)[:-1], size, bold=True, fill="#34495e", anchor="md")
        for gy in sorted({c["y"] for c in grid}):
            cv.text(x0 - 6, y0 + (gy - miny + 0.5) * cell, str(gy - origin[1] + 1), size, bold=True, fill="#34495e", anchor="rm")
    pad = max(2, cell // 9)
    for c in grid:
        px = x0 + (c["x"] - minx) * cell
        py = y0 + (c["y"] - miny) * cell
        mini = c["item"] in MINI_UPGRADES
        fill = t.MINI if mini else LAYER_FILL[c["layer"]]
        cv.icon_box((px, py, px + cell, py + cell), pad, cell - 2 * pad, c["symbol"], fill, "#a9b2bd")
        if mini and c["symbol"] is None:  # the open half names the Mini-upgrade
            mini_label(cv, c["item"], px, py, cell)
    lw = max(2, cell // 12)
    for c in grid:
        px = x0 + (c["x"] - minx) * cell
        py = y0 + (c["y"] - miny) * cell
        edge = t.MINI_EDGE if c["item"] in MINI_UPGRADES else LAYER_EDGE[c["layer"]]
        for dx, dy, seg in (
            (0, -1, (px, py, px + cell, py)),
            (0, 1, (px, py + cell, px + cell, py + cell)),
            (-1, 0, (px, py, px, py + cell)),
            (1, 0, (px + cell, py, px + cell, py + cell)),
        ):
            other = at.get((c["x"] + dx, c["y"] + dy))
            if other is None or other["item"] != c["item"]:
                cv.d.line(seg, fill=edge, width=lw)
    for hx, hy in highlight or ():
        px = x0 + (hx - minx) * cell
        py = y0 + (hy - miny) * cell
        cv.d.rectangle((px + 1, py + 1, px + cell - 1, py + cell - 1), outline="#e67e22", width=max(3, cell // 10))
    w, h = grid_size(grid)
    return w * cell, h * cell


def draw_pad_side(cv: Canvas, pad: str, side: int, x: float, y: float, cell: int) -> None:
    rows = engine_pads.pad_cells(pad, side)
    inset = max(2, cell // 9)
    for r, row in enumerate(rows):
        for c, sym in enumerate(row):
            px, py = x + c * cell, y + r * cell
            cv.icon_box((px, py, px + cell, py + cell), inset, cell - 2 * inset, sym, t.PAD_BOTTOM, "#a9b2bd")
    cv.box(x, y, x + 3 * cell, y + 2 * cell, outline=LAYER_EDGE["bottom"], width=max(2, cell // 12))


def draw_domino(
    cv: Canvas, imp: str, x: float, y: float, cell: int, *, faded: bool = False
) -> None:
    """An Improvement: two halves side by side (an open half is blank). A Mini-upgrade
    (Update 1.1) is teal, its open half saying "Mini"."""
    cells = IMPROVEMENTS.get(imp, [None, None])
    inset = max(2, cell // 9)
    mini = imp in MINI_UPGRADES
    fill = t.FAINT if faded else (t.MINI if mini else t.IMPROVEMENT)
    for i, sym in enumerate(cells):
        px = x + i * cell
        cv.icon_box((px, y, px + cell, y + cell), inset, cell - 2 * inset, sym, fill, "#c8b27a")
        if sym is None and mini:
            mini_label(cv, imp, px, y, cell)
    edge = t.MINI_EDGE if mini else t.IMPROVEMENT_EDGE
    cv.box(x, y, x + 2 * cell, y + cell, outline=edge, width=max(2, cell // 14), radius=3)


def mini_label(cv: Canvas, imp: str, x: float, y: float, cell: int) -> None:
    """"Mini" in the open half of a Mini-upgrade (its symbol is on the other half; text no
    smaller than the pictures' smallest size, so a cell too small for it stays blank)."""
    size = min(cell // 2, 28)
    while size > 1 and cv.measure(MINI_WORD, size, True) > cell - 6:
        size -= 1
    if size >= getattr(cv, "min_text", t.SMALL):
        cv.text(x + cell / 2, y + cell / 2, MINI_WORD, size, bold=True, fill=t.MINI_EDGE, anchor="mm")


MINI_WORD = "Mini"


def improvement_name(imp: str, index: int) -> str:
    """An Improvement as a picture's list names it (never its id: the tile shows its
    symbols): "Starting", "Mini-upgrade", or its place in the list, "No. 2"."""
    if imp in MINI_UPGRADES:
        return "Mini-upgrade"
    return "Starting" if imp.startswith("S-") else f"No. {index + 1}"


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
    fd = outcome.get("face_down", [])
    if isinstance(fd, list):  # a face-down Mini-upgrade makes no Goods (Update 1.1)
        outcome = {**outcome, "face_down": face_down_goods(fd)}
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


def improvement_words(imp: str) -> str:
    """An Improvement (or Mini-upgrade) by its symbols ("Price Up + Logistics"; an open
    half, with no symbol, is a "blank half": it covers a Pad cell and gives nothing)."""
    cells = IMPROVEMENTS.get(imp, [None, None])
    return " + ".join(t.SYMBOL_LABEL.get(c, "blank half") if c else "blank half" for c in cells)


def face_down_goods(face_down: list[str]) -> list[str]:
    """The face-down Improvements that make Goods: a Mini-upgrade makes none (Update 1.1,
    the engine's ``new_technologies.face_down_goods``; render imports only data and pure
    geometry from the engine)."""
    return [i for i in face_down if i not in MINI_UPGRADES]
