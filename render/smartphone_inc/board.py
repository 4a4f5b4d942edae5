"""The public picture: everything on the table, for every player to see."""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.smartphone_inc.data import IMPROVEMENTS, REGIONS, STEVE_PAD
from render import kit
from render.smartphone_inc import frame, modules, techs
from render.smartphone_inc import map as world
from render.smartphone_inc import pads as padview
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas, PaletteCanvas

INNER = t.WIDTH - 2 * t.MARGIN
ROW_H = 40


def draw(view: dict[str, Any]) -> Image.Image:
    shape = (
        "si-board",
        len(view["seats"]),
        str(view.get("board")),
        bool(view.get("over")),
        bool(view.get("directives")),
        bool(view.get("steve")),
        bool(view.get("result")),
        any(view["players"][s].get("outcome") for s in view["seats"]),
    )
    return kit.drawn_to_fit(shape, 3600, lambda height: _draw(view, height))


def _draw(view: dict[str, Any], height: int) -> Image.Image:
    """The picture on a canvas ``height`` px high: drawn straight on the palette, or in
    RGB where that cannot be exact (the same bytes either way)."""
    try:
        return _draw_on(PaletteCanvas(t.WIDTH, height), view)
    except kit.Inexact:
        return _draw_on(Canvas(t.WIDTH, height), view)


def _draw_on(cv: Canvas, view: dict[str, Any]) -> Image.Image:
    x = t.MARGIN
    y = frame.tracks(cv, view, x, t.MARGIN, INNER, "Smartphone Inc.")
    y = frame.waiting_line(cv, view, x, y, INNER) + 8
    if view.get("over") and view.get("result"):
        y = result_table(cv, view, x, y, INNER) + 14
    y = companies(cv, view, x, y, INNER) + 14
    y = cv.section_title(x, y, "World map", "lines = links between regions")
    y = world.draw(cv, view, x, y) + 14
    if view.get("directives"):
        y = modules.directives_panel(cv, view, x, y, INNER) + 14
    if any(view["players"][s].get("outcome") for s in view["seats"]):
        y = decisions(cv, view, x, y, INNER) + 14
    y = cv.section_title(
        x, y, "Technologies", "cost = Progress needed; +1 while the Patent is open"
    )
    y = techs.draw_row(cv, view, x, y, INNER) + 14
    y = block_and_steve(cv, view, x, y, INNER) + 14
    y = frame.legend(cv, x, y, INNER, extras=modules.legend_items(view)) + t.MARGIN
    return cv.finish(int(y))


# --- Price Block + VP Scoreboard -----------------------------------------------------------

COLS = {
    "#": 8,
    "company": 44,
    "price": 262,
    "vp": 336,
    "goods": 546,
    "sold": 612,
    "tokens": 678,
    "impr": 744,
    "offices": 810,
    "techs": 884,
}


def companies(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    """One row per company in Priority order (the Price Block), with the VP Scoreboard."""
    order = list(view.get("priority") or view["seats"])
    h = 78 + len(order) * ROW_H
    top = cv.panel(x, y, w, h, "Companies in turn order", note="lowest price plays first; ties: lower VP · +N = VP of the last Phase 8 · Sold = this round")
    heads = {
        "price": "Price",
        "vp": "VP",
        "goods": "Goods",
        "sold": "Sold",
        "tokens": "Tokens",
        "impr": "Impr.",
        "offices": "Offices",
        "techs": "Technologies (★ Patent)",
    }
    for key, label in heads.items():
        cv.text(x + COLS[key], top, label, t.SMALL, bold=True, fill=t.MUTED)
    top += 24
    vps = [view["players"][s]["vp"] for s in order]
    last = view.get("last_round")
    best = max(max(vps), 1)
    pending = set(view.get("pending", []))
    for i, seat in enumerate(order):
        p = view["players"][seat]
        ry = top + i * ROW_H
        if seat in pending:
            cv.box(x + 4, ry - 3, x + w - 4, ry + ROW_H - 5, fill="#fdf1d6", radius=6)
        cv.text(
            x + COLS["#"] + 8, ry + 16, str(i + 1), t.LARGE, bold=True, fill=t.MUTED, anchor="mm"
        )
        cv.token(x + COLS["company"], ry + 1, 30, p["colour"])
        cv.text(
            x + COLS["company"] + 38,
            ry + 16,
            cv.fit(frame.name_of(view, seat), t.LARGE, True, 170),
            t.LARGE,
            bold=True,
            anchor="lm",
        )
        px = x + COLS["price"]
        cv.box(px, ry, px + 52, ry + 32, fill="#fff4dc", outline=t.ACCENT, width=2, radius=6)
        cv.text(px + 26, ry + 16, str(p["price"]), t.LARGE + 2, bold=True, anchor="mm")
        vx = x + COLS["vp"]
        cv.text(vx, ry + 16, str(p["vp"]), t.LARGE + 2, bold=True, anchor="lm")
        bar = 96 * p["vp"] / best
        cv.box(vx + 50, ry + 8, vx + 50 + 96, ry + 24, fill=t.FAINT, radius=4)
        gained = (last or {}).get("vp", {}).get(seat)
        if gained is not None:  # what Phase 8 of the last round brought
            cv.text(vx + 152, ry + 16, f"+{gained}", t.SMALL, bold=True, fill=t.MUTED, anchor="lm")
        if bar >= 1:
            cv.box(
                vx + 50,
                ry + 8,
                vx + 50 + bar,
                ry + 24,
                fill=t.COMPANY_FILL.get(p["colour"], "#888"),
                radius=4,
            )
        sold = sum(r.get("sold", []).count(seat) for r in view["regions"].values())
        for key, val in (
            ("goods", p["goods"]),
            ("sold", sold),
            ("tokens", p["tokens"]),
            ("impr", len(p["improvements"])),
            ("offices", len(p["offices"])),
        ):
            cv.text(
                x + COLS[key] + 14,
                ry + 16,
                str(val),
                t.LARGE,
                bold=val > 0,
                fill=t.INK if val else t.MUTED,
                anchor="mm",
            )
        tx = x + COLS["techs"]
        for tech in p["techs"]:
            label = t.TECH_SHORT.get(tech, tech) + ("★" if tech in p["patents"] else "")
            lw = cv.measure(label, t.BODY, True)
            if tx + lw > x + w - 10:
                break
            cv.box(tx - 4, ry + 3, tx + lw + 4, ry + 29, fill="#efe6f7", radius=5)
            cv.text(tx, ry + 16, label, t.BODY, bold=True, fill=t.BUYER_TECH, anchor="lm")
            tx += lw + 14
        if not p["techs"]:
            cv.text(tx, ry + 16, "none yet", t.BODY, fill=t.MUTED, anchor="lm")
    return y + h


def result_table(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    rows = view["result"].get("scores", [])
    h = 78 + len(rows) * ROW_H
    top = cv.panel(x, y, w, h, "Final scores")
    cols = {
        "rank": 8,
        "company": 44,
        "scored": 330,
        "patent": 470,
        "retail": 610,
        "total": 760,
        "tie": 900,
    }
    heads = {
        "scored": "VP in play",
        "patent": "+ Patents",
        "retail": "+ Retailers",
        "total": "= Total",
        "tie": "Techs / Patents",
    }
    orders = any("directive_vp" in r for r in rows)  # Update 1.1 Directives
    if orders:
        cols.update(scored=320, patent=440, retail=560, orders=680, total=830, tie=950)
        heads = {**heads, "orders": "+ Directives"}
    for key, label in heads.items():
        cv.text(x + cols[key], top, label, t.SMALL, bold=True, fill=t.MUTED)
    top += 24
    winners = set(view["result"].get("winners", []))
    for i, row in enumerate(rows):
        ry = top + i * ROW_H
        seat = row["seat"]
        if seat in winners:
            cv.box(x + 4, ry - 3, x + w - 4, ry + ROW_H - 5, fill="#fdf1d6", radius=6)
        cv.text(
            x + cols["rank"] + 8,
            ry + 16,
            str(row.get("rank", i + 1)),
            t.LARGE,
            bold=True,
            anchor="mm",
        )
        cv.token(
            x + cols["company"], ry + 1, 30, row.get("colour") or view["players"][seat]["colour"]
        )
        name = frame.name_of(view, seat)
        cv.text(
            x + cols["company"] + 38,
            ry + 16,
            cv.fit(name, t.LARGE, True, 230),
            t.LARGE,
            bold=True,
            anchor="lm",
        )
        for key, val in (
            ("scored", row.get("scored")),
            ("patent", row.get("patent_vp")),
            ("retail", row.get("retailer_vp")),
            *((("orders", row.get("directive_vp", 0)),) if orders else ()),
        ):
            cv.text(x + cols[key], ry + 16, str(val), t.LARGE, anchor="lm")
        cv.text(x + cols["total"], ry + 16, str(row.get("vp")), t.LARGE + 2, bold=True, anchor="lm")
        cv.text(
            x + cols["tie"],
            ry + 16,
            f"{row.get('technologies', 0)} / {row.get('patents', 0)}",
            t.LARGE,
            anchor="lm",
        )
    return y + h


# --- revealed decisions ---------------------------------------------------------------------

DEC_H = 356
GRID_H = 170


def decisions(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    """Every company's decision of this round side by side (after the reveal)."""
    seats = list(view["seats"])
    rnd = int(view.get("round", 1))
    top = cv.panel(x, y, w, DEC_H, f"Decisions of round {rnd}")  # "round 1", as the texts say
    note = "grey = bottom Pad, blue = top Pad, cream = Improvement"
    if view.get("mini_upgrades") is not None:
        note += ", teal \"Mini\" = Mini-upgrade"
    cv.text(
        x + w - 12,
        y + 14,
        note,
        t.SMALL,
        fill=t.MUTED,
        anchor="ra",
    )
    col_w = (w - 16) / max(len(seats), 1)
    for i, seat in enumerate(seats):
        cx = x + 8 + i * col_w
        _decision(cv, view, seat, cx, top, col_w - 10)
        if i:
            cv.d.line((cx - 5, top, cx - 5, y + DEC_H - 10), fill=t.FAINT, width=2)
    return y + DEC_H


def _decision(cv: Canvas, view: dict[str, Any], seat: str, x: float, y: float, w: float) -> None:
    p = view["players"][seat]
    cv.token(x + 4, y, 28, p["colour"])
    cv.text(
        x + 38,
        y + 14,
        cv.fit(frame.name_of(view, seat), t.BODY, True, w - 42),
        t.BODY,
        bold=True,
        anchor="lm",
    )
    gy = y + 40
    outcome = p.get("outcome")
    if p.get("steve"):
        draw_steve_cells(cv, view, x + 4, gy, w - 8)
    elif p.get("plan"):
        grid = padview.plan_grid(p["plan"], p["improvements"])
        if grid:
            gw, gh = padview.grid_size(grid)
            cell = int(min(44, (w - 8) / gw, GRID_H / gh))
            padview.draw_grid(
                cv, grid, x + 4 + (w - 8 - gw * cell) / 2, gy + (GRID_H - gh * cell) / 2, cell
            )
    if outcome:
        cy = padview.draw_counts(
            cv, outcome["active"], x + 4, gy + GRID_H + 10, 26, per_row=3, col_w=int((w - 4) / 3)
        )
        if p.get("steve"):
            cv.text(x + 4, cy + 4, "Steve: every cell is active", t.SMALL, fill=t.MUTED)
        else:
            fd = len(padview.face_down_goods(list(outcome.get("face_down", []))))
            cv.text(
                x + 4,
                cy + 4,
                f"covered {outcome.get('covered', 0)} · face down {fd}",
                t.SMALL,
                fill=t.MUTED,
            )


def draw_steve_cells(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> None:
    """Steve's Pad as two rows: the printed cells, then the round parts 1-5 (printed I-V:
    numbered as the texts number the rounds)."""
    cells = steve_cells(view)
    printed = len(STEVE_PAD["cells"])
    rows = [cells[:printed], cells[printed:]]
    cell = int(min(34, w / max(len(r) for r in rows)))
    for r, row in enumerate(rows):
        ox = x + (w - len(row) * cell) / 2
        oy = y + 20 + r * (cell + 30)
        for i, sym in enumerate(row):
            cv.icon_box(
                (ox + i * cell, oy, ox + (i + 1) * cell, oy + cell), 3, cell - 6, sym, t.PAD_BOTTOM, "#a9b2bd"
            )
        if r == 1:
            for k in range(len(row) // 2):
                label = str(k + 1)
                cv.text(ox + (2 * k + 1) * cell, oy - 12, label, t.SMALL, fill=t.MUTED, anchor="mm")
                cv.d.line(
                    (ox + 2 * k * cell, oy, ox + 2 * k * cell, oy + cell), fill="#56677a", width=3
                )


def steve_cells(view: dict[str, Any]) -> list[str | None]:
    """Steve's printed cells, then each round part (the Improvement placed there, if any)."""
    cells: list[str | None] = list(STEVE_PAD["cells"])
    slots = (view.get("steve") or {}).get("slots", {})
    for rnd, printed in STEVE_PAD["round_slots"].items():
        imp = slots.get(rnd)
        cells.extend(IMPROVEMENTS[imp] if imp in IMPROVEMENTS else printed)
    return cells


# --- Improvement Block and Steve ------------------------------------------------------------


def block_and_steve(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    steve = view.get("steve")
    h = 190 if steve else 136
    bw = 520 if steve else w
    top = cv.panel(x, y, bw, h, "Improvement Block", note=f"{view.get('pile_count', 0)} in the pile")
    cell = 44
    for i, imp in enumerate(view.get("block", [])):
        dx = x + 14 + i * (2 * cell + 12)
        if dx + 2 * cell > x + bw - 8:
            break
        with cv.tag(imp, "improvement"):
            padview.draw_domino(cv, imp, dx, top + 10, cell)
    if not view.get("block"):
        cv.text(
            x + 14,
            top + 20,
            "empty: an active Improve symbol takes a Goods token",
            t.BODY,
            fill=t.MUTED,
        )
    if steve:
        steve_panel(cv, view, x + bw + 12, y, w - bw - 12, h)
    return y + h


def steve_panel(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float, h: float) -> None:
    st = view["steve"]
    seat = st.get("seat")
    colour = view["players"].get(seat, {}).get("colour", "grey")
    top = cv.panel(x, y, w, h, "      Steve's Pad")
    cv.token(x + 12, y + 8, 26, colour)
    cv.text(x + w - 12, y + 14, "all cells active", t.SMALL, fill=t.MUTED, anchor="ra")
    cell = 34
    for i, sym in enumerate(STEVE_PAD["cells"]):
        cx = x + 12 + i * cell
        cv.icon_box((cx, top, cx + cell, top + cell), 3, cell - 6, sym, t.PAD_BOTTOM, "#a9b2bd")
    cur = str(view.get("round"))
    slots = st.get("slots", {})
    sy = top + cell + 28
    for i, rnd in enumerate(STEVE_PAD["round_slots"]):
        sx = x + 12 + i * (2 * cell + 10)
        label = f"Round {rnd}" if rnd.isdigit() else rnd
        cv.text(
            sx + cell,
            sy - 12,
            label,
            t.SMALL,
            bold=rnd == cur,
            fill=t.ACCENT if rnd == cur else t.MUTED,
            anchor="mm",
        )
        imp = slots.get(rnd)
        if imp:
            padview.draw_domino(cv, imp, sx, sy, cell)
        else:
            cv.box(sx, sy, sx + 2 * cell, sy + cell, fill=t.PAD_BOTTOM, outline="#a9b2bd", radius=3)
    ix = x + 12 + 5 * (2 * cell + 10) + 10
    cv.text(ix, top - 4, "Delayed", t.SMALL, bold=True)
    delayed = st.get("delayed")
    if delayed:
        padview.draw_domino(cv, delayed, ix, top + 18, cell)
    else:
        cv.text(ix, top + 22, "none", t.SMALL, fill=t.MUTED)
    marker = st.get("marker")
    where = REGIONS[marker]["name"] if marker in REGIONS else "not placed yet"
    cv.footnote(x + 12, y + h - 14, f"Marker: {where} · +{st.get('bonus', 1)} Progress a round · no bonuses")
