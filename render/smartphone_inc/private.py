"""A player's private picture: their company, what they must decide now, their plan,
Pads and Improvements. It shows only what the seat's own view holds."""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.smartphone_inc.data import (
    MINI_UPGRADES,
    OFFICE_MARKERS,
    REGION_ORDER,
    REGIONS,
    TECH_ORDER,
    TECHS,
)
from render import kit
from render.smartphone_inc import board, frame, modules, prompts, techs
from render.smartphone_inc import laying as layingview
from render.smartphone_inc import pads as padview
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas

INNER = t.WIDTH - 2 * t.MARGIN


def draw(view: dict[str, Any]) -> Image.Image:
    return kit.drawn_to_fit(("si-private", len(view["seats"]), str(view.get("board")), bool(view.get("directives"))), 3600, lambda height: _draw(view, height))


def _draw(view: dict[str, Any], height: int, draft: dict[str, Any] | None = None) -> Image.Image:
    """The picture; ``draft``: the plan the seat is laying (the live table's), drawn on
    the grid of a plan not sealed yet (:mod:`render.smartphone_inc.laying`)."""
    seat = view["you"]
    me = view["players"][seat]
    cv = Canvas(t.WIDTH, height)
    x = t.MARGIN
    y = frame.tracks(cv, view, x, t.MARGIN, INNER, f"{kit.player_name(view, seat)}: your company")
    y = prompts.headline(cv, view, x, y, INNER) + 8
    if view.get("over") and view.get("result"):
        y = board.result_table(cv, view, x, y, INNER) + 14
    y = status(cv, view, x, y, INNER) + 14
    if view.get("prompt") and view["prompt"].get("type") != "plan":
        y = prompts.panel(cv, view, x, y, INNER) + 14
    if laying(view):
        y = layingview.panel(cv, view, draft, x, y, INNER, outcome_column) + 14
    else:
        y = plan_panel(cv, view, x, y, INNER) + 14
    y = pads_panel(cv, x, y, INNER) + 14
    y = improvements_panel(cv, view, x, y, INNER) + 14
    y = offices_panel(cv, view, x, y, INNER) + 14
    y = my_techs_panel(cv, view, x, y, INNER) + 14
    if view.get("directives"):
        y = modules.directives_panel(cv, view, x, y, INNER) + 14
    y = cv.section_title(x, y, "Technologies", f"your costs: {costs_line(me)}")
    y = techs.draw_row(cv, view, x, y, INNER) + 14
    y = frame.legend(cv, x, y, INNER, board=False, extras=modules.pad_legend_items(view)) + t.MARGIN
    return cv.finish(int(y))


def costs_line(me: dict[str, Any]) -> str:
    costs = me.get("costs", {})
    return (
        ", ".join(f"{t.TECH_SHORT.get(k, k)} {v}" for k, v in t.ordered(costs, TECH_ORDER))
        or "all researched"
    )


def status(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    seat = view["you"]
    me = view["players"][seat]
    h = 112
    cv.panel(x, y, w, h)
    cv.token(x + 14, y + 14, 44, me["colour"])
    cv.text(x + 68, y + 16, cv.fit(kit.player_name(view, seat), t.LARGE + 3, True, 220), t.LARGE + 3, bold=True)
    cv.text(x + 68, y + 46, f"{me['colour']} company", t.BODY, fill=t.MUTED)
    order = list(view.get("priority") or view["seats"])
    turn = order.index(seat) + 1 if seat in order else 0
    on_map = len(me.get("offices", []))
    left = OFFICE_MARKERS - on_map - len(me.get("techs", []))
    stats = (
        ("VP", str(me["vp"])),
        ("Price", str(me["price"])),
        ("Turn order", f"{turn} of {len(order)}"),
        ("Goods", str(me["goods"])),
        ("Goods tokens", str(me["tokens"])),
        ("Offices", str(on_map)),
        ("Offices in stock", str(max(0, left))),
    )
    sx = x + 300
    sw = (w - 310) / len(stats)
    for i, (label, value) in enumerate(stats):
        bx = sx + i * sw
        cv.text(bx + sw / 2, y + 26, label, t.SMALL, fill=t.MUTED, anchor="mm")
        cv.text(bx + sw / 2, y + 60, value, t.TITLE, bold=True, anchor="mm")
    cv.footnote(x + 14, y + h - 14, f"Goods in stock {me.get('supply', 0)} · Improvements {len(me['improvements'])}")
    return y + h


def laying(view: dict[str, Any]) -> bool:
    """Whether the seat lays its plan now (its plan prompt, not sealed)."""
    me = view["players"][view["you"]]
    prompt = view.get("prompt") or {}
    return view.get("phase") == "planning" and prompt.get("type") == "plan" and not me.get("sealed")


def plan_panel(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    seat = view["you"]
    me = view["players"][seat]
    outcome = view.get("my_plan_outcome")
    planning = view.get("phase") == "planning"
    title = "Your plan this round" if not planning else "Your plan (sealed)"
    if outcome is None or not me.get("plan"):
        h = 96
        cv.panel(x, y, w, h, "Your plan")
        msg = (
            "Not sealed yet: arrange your Pads with /plan; others see it only when all have sealed."
            if planning
            else "No plan this round."
        )
        cv.text(x + 14, y + 52, msg, t.BODY, fill=t.BAD if planning else t.MUTED)
        return y + h
    h = 330
    top = cv.panel(x, y, w, h, title)
    grid = outcome.get("grid") or []
    if grid:
        gw, gh = padview.grid_size(grid)
        cell = int(min(60, 520 / gw, 250 / gh))
        padview.draw_grid(
            cv, grid, x + 14 + (540 - gw * cell) / 2, top + (260 - gh * cell) / 2, cell
        )
    outcome_column(cv, view, seat, outcome, x + 580, top, w - 600, planning)
    return y + h


def outcome_column(
    cv: Canvas,
    view: dict[str, Any],
    seat: str,
    outcome: dict[str, Any],
    x: float,
    y: float,
    w: float,
    planning: bool,
) -> None:
    """What the plan gives: price, Goods, Research, Logistics, Improve."""
    yl = padview.yields(view, seat, outcome)
    d = yl["price_delta"]
    rows: list[tuple[str | None, str, str]] = [
        (
            "up" if d > 0 else ("down" if d < 0 else None),
            "Price",
            f"{yl['price']}  ({'+' if d > 0 else ''}{d})" if d else f"{yl['price']}  (no change)",
        ),
    ]
    if planning:
        parts = " + ".join(f"{n} {k}" for k, n in yl["goods_parts"]) or "none"
        rows.append(("prod", "Goods", f"{yl['goods']}  ({parts})"))
    else:
        rows.append(
            (
                "prod",
                "Goods",
                f"{outcome['active'].get('prod', 0)} Production, {outcome.get('covered', 0)} covered, {len(outcome.get('face_down', []))} face down",
            )
        )
    rows += [
        ("research", "Research", f"{yl['research']} Progress markers"),
        ("logistics", "Logistics", f"{yl['logistics']} Progress markers"),
        (
            "improve",
            "Improve",
            "take an Improvement" if yl["improve"] else "no: take a Goods token",
        ),
    ]
    for i, (sym, label, value) in enumerate(rows):
        ry = y + i * 46
        if sym is None:  # price unchanged: a neutral mark
            cv.box(x, ry, x + 36, ry + 36, fill=t.FAINT, outline=t.PANEL_EDGE, radius=6)
            cv.text(x + 18, ry + 18, "=", t.LARGE, bold=True, fill=t.MUTED, anchor="mm")
        else:
            cv.icon(x, ry, 36, sym)
        cv.text(x + 46, ry + 18, label, t.BODY, bold=True, anchor="lm")
        cv.text(x + 150, ry + 18, cv.fit(value, t.BODY, False, w - 150), t.BODY, anchor="lm")
    fd = outcome.get("face_down", [])
    ry = y + len(rows) * 46 + 4
    cv.text(
        x,
        ry,
        f"Covered cells: {outcome.get('covered', 0)} · face down: {len(fd) or 'none'}"
        + (" (faded below)" if fd else ""),
        t.SMALL,
        fill=t.MUTED,
    )


def pads_panel(cv: Canvas, x: float, y: float, w: float) -> float:
    """Both sides of both Pads, for reference while planning."""
    cell = 44
    h = 40 + 2 * cell + 40
    top = cv.panel(x, y, w, h, "Your Pads (both sides)", note="A = filled diamond, B = outlined diamond")
    sw = 3 * cell
    gap = (w - 28 - 4 * sw) / 3
    for i, (pad, side) in enumerate((("A", 0), ("A", 1), ("B", 0), ("B", 1))):
        px = x + 14 + i * (sw + gap)
        padview.draw_pad_side(cv, pad, side, px, top + 4, cell)
        cv.text(
            px + sw / 2,
            top + 2 * cell + 18,
            f"Pad {pad}, side {side + 1}",
            t.SMALL,
            bold=True,
            anchor="mm",
        )
    return y + h


def improvements_panel(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    seat = view["you"]
    me = view["players"][seat]
    owned = list(me["improvements"])
    outcome = view.get("my_plan_outcome") or {}
    face_down = set(outcome.get("face_down", []))
    placed = {i["id"] for i in (me.get("plan") or {}).get("improvements", [])}
    cell = 44
    per_row = max(1, int((w - 20) // (2 * cell + 30)))
    rows = max(1, (len(owned) + per_row - 1) // per_row)
    h = 40 + rows * (cell + 56) + 4
    top = cv.panel(x, y, w, h, "Your Improvements", note="face down = +1 Goods in Phase 3")
    if not owned:
        cv.text(x + 14, top + 6, "none", t.BODY, fill=t.MUTED)
    for i, imp in enumerate(owned):
        ix = x + 14 + (i % per_row) * (2 * cell + 30)
        iy = top + (i // per_row) * (cell + 56)
        padview.draw_domino(cv, imp, ix, iy, cell, faded=imp in face_down)
        cv.text(ix + cell, iy + cell + 14, padview.improvement_name(imp, i), t.SMALL, bold=True, anchor="mm")
        note = "on Pads" if imp in placed else ("face down" if imp in face_down else "")
        if note == "face down" and imp in MINI_UPGRADES:
            note = "unused: no Goods"
        if note:
            cv.text(ix + cell, iy + cell + 33, note, t.SMALL, fill=t.MUTED, anchor="mm")
    return y + h


def offices_panel(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    seat = view["you"]
    me = view["players"][seat]
    items = [
        (REGIONS[r]["name"] + (" (Retailer)" if view["regions"][r].get("retailer") else ""), "good")
        for r in me.get("offices", [])
    ]
    items += [
        (f"{REGIONS[r]['name']} {n}/{REGIONS[r]['cost']}", "warn")
        for r, n in t.ordered(me.get("logistics", {}), REGION_ORDER)
        if n
    ]
    ceo = (view.get("ceo") or {}).get(seat)
    if ceo in REGIONS:  # Update 1.1: where the company's CEO stands
        items.append((f"CEO in {REGIONS[ceo]['name']}", "plain"))
    tokens = [
        (r, int(i))
        for r, spots in (view.get("marketing") or {}).items()
        for i, owner in spots.items()
        if owner == seat and r in REGIONS
    ]
    for r, i in sorted(tokens):
        items.append((f"Marketing Token: {REGIONS[r]['name']}, Buyer {i + 1}", "plain"))
    return chip_panel(
        cv, x, y, w, "Your Offices and Logistics progress",
        "green = Office, amber = markers placed / needed", items, "none",
    )


def my_techs_panel(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    """The seat's Technologies (with the bonus on the side in play) and Patents."""
    me = view["players"][view["you"]]
    items = []
    for tech in me.get("techs", []):
        side = int(view["techs"].get(tech, {}).get("side", 0))
        star = " ★ Patent" if tech in me.get("patents", []) else ""
        items.append((f"{techs.name(view, tech)}{star}: {techs.effect_text(tech, side)}", "good"))
    for tech, n in t.ordered(me.get("research", {}), TECH_ORDER):
        if n and tech not in me.get("techs", []):
            items.append(
                (
                    f"{techs.name(view, tech)}: {n}/{me.get('costs', {}).get(tech, '?')} researched",
                    "warn",
                )
            )
    patent_vp = sum(techs.patent_vp(view, p) for p in me.get("patents", []) if p in TECHS)
    return chip_panel(
        cv, x, y, w, "Your Technologies and Patents", f"Patents: {patent_vp} VP at the end", items, "none yet"
    )


def chip_panel(
    cv: Canvas,
    x: float,
    y: float,
    w: float,
    title: str,
    note: str,
    items: list[tuple[str, str]],
    empty: str,
) -> float:
    """A titled panel of chips with a note at the right; returns the y below it."""
    h = 44 + max(34, cv.chip_layout(items, w - 28)[1]) + 6
    top = cv.panel(x, y, w, h, title)
    cv.text(x + w - 12, y + 14, note, t.SMALL, fill=t.MUTED, anchor="ra")
    if items:
        cv.chips(items, x + 14, top, w - 28)
    else:
        cv.text(x + 14, top, empty, t.BODY, fill=t.MUTED)
    return y + h
