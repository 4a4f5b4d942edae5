"""What the Update 1.1 modules add to the pictures: legend entries for the pieces the
map draws (mixed Buyers of the 2-3 player board, CEO figures, Marketing Tokens, second
Goods) and the Directives panel."""

from __future__ import annotations

from typing import Any

from render.smartphone_inc import frame
from render.smartphone_inc import map as world
from render.smartphone_inc import pads as padview
from render.smartphone_inc import theme as t
from render.smartphone_inc.frame import LegendItem
from render.smartphone_inc.kit import Canvas, ceo_image, marketing_image


def _mixed_buyer(cv: Canvas, x: float, y: float) -> None:
    world.draw_buyer(cv, {"price": 3, "tech": "gps"}, x, y - 1, 44, 34)


def _ceo(cv: Canvas, x: float, y: float) -> None:
    cv.paste(ceo_image("blue", 32), x, y - 1)


def _marketing(cv: Canvas, x: float, y: float) -> None:
    cv.box(x, y - 2, x + 36, y + 32, fill=t.SLOT, outline=t.INK, width=2, radius=5)
    cv.paste(marketing_image("blue", 28), x + 4, y + 1)


def _second(cv: Canvas, x: float, y: float) -> None:
    cv.box(x, y + 4, x + 30, y + 26, fill=t.INK, radius=5)
    cv.text(x + 15, y + 15, "x2", t.SMALL, bold=True, fill="#ffffff", anchor="mm")


def _mini(cv: Canvas, x: float, y: float) -> None:
    padview.draw_domino(cv, "M1", x, y - 1, 32)


def pad_legend_items(view: dict[str, Any]) -> list[LegendItem]:
    """Legend entries of the private and plan pictures: the Mini-upgrade, when the
    Technology that gives them is in play."""
    if view.get("mini_upgrades") is None:
        return []
    return [(64, _mini, "Mini-upgrade: 1 symbol, placed like an Improvement; face down no Goods")]


def legend_items(view: dict[str, Any]) -> list[LegendItem]:
    """The legend entries of the modules in play in ``view``."""
    items: list[LegendItem] = []
    if world.board_of(view) == "small":
        items.append((44, _mixed_buyer, "mixed Buyer: pays up to 3 OR needs GPS"))
    if view.get("ceo") is not None:
        items.append((26, _ceo, "a company's CEO (B = blue)"))
    if view.get("marketing") is not None:
        items.append((36, _marketing, "Marketing Token: only that company sells to this Buyer"))
    if view.get("seconds") is not None:
        items.append((30, _second, "a second Goods on this Buyer (Patent)"))
    return items


# --- Directives (SU-DIR-01..05) -------------------------------------------------------------

DIR_COLS = 4
DIR_H = 132


def directives_height(view: dict[str, Any]) -> float:
    cards = view.get("directives") or []
    rows = (len(cards) + DIR_COLS - 1) // DIR_COLS
    return 44 + rows * (DIR_H + 10) if cards else 0


def directives_panel(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    """The Directives in play: number, VP, goal in words, and who holds each (taken this
    round, or flipped). Returns the y below (``y`` itself when the module is off)."""
    cards = view.get("directives") or []
    if not cards:
        return y
    h = directives_height(view)
    top = cv.panel(x, y, w, h, "Directives")
    hardcore = bool((view.get("options") or {}).get("hardcore"))
    note = (
        "first to meet a goal may take it (1 a round) · flipped at round end, scored then (Hardcore)"
        if hardcore
        else "first to meet a goal may take it (1 a round) · flipped at round end · score at game end"
    )
    cv.text(x + w - 12, y + 14, note, t.SMALL, fill=t.MUTED, anchor="ra")
    cw = (w - 24 - (DIR_COLS - 1) * 10) / DIR_COLS
    for i, card in enumerate(cards):
        cx = x + 12 + (i % DIR_COLS) * (cw + 10)
        cy = top + (i // DIR_COLS) * (DIR_H + 10)
        _directive(cv, view, card, cx, cy, cw, hardcore)
    return y + h


def _directive(
    cv: Canvas, view: dict[str, Any], card: dict[str, Any], x: float, y: float, w: float, hardcore: bool
) -> None:
    holder = card.get("holder")
    flipped = bool(card.get("flipped"))
    if holder is None:
        fill, edge, width = t.PANEL, t.ACCENT, 2
    elif flipped:
        fill, edge, width = t.FAINT, t.PANEL_EDGE, 1
    else:
        fill, edge, width = "#e7f1e7", t.GOOD, 3
    cv.box(x, y, x + w, y + DIR_H, fill=fill, outline=edge, width=width, radius=8)
    cv.text(x + 10, y + 8, f"Directive {card['number']}", t.BODY, bold=True)
    vp = f"{card['vp']} VP"
    vw = cv.measure(vp, t.BODY, True) + 14
    cv.box(x + w - 8 - vw, y + 6, x + w - 8, y + 32, fill=t.HEADER, radius=6)
    cv.text(x + w - 8 - vw / 2, y + 19, vp, t.BODY, bold=True, fill=t.HEADER_INK, anchor="mm")
    ink = t.MUTED if flipped else t.INK
    for j, line in enumerate(cv.wrap(str(card.get("goal", "")), t.BODY, False, w - 20)[:2]):
        cv.text(x + 10, y + 40 + j * 22, line, t.BODY, fill=ink)
    fy = y + DIR_H - 36
    if holder is None:
        cv.text(x + 10, fy + 14, "open: nobody holds it", t.SMALL, fill=t.MUTED, anchor="lm")
        return
    p = view["players"].get(holder, {})
    cv.token(x + 8, fy, 28, p.get("colour") or "grey")
    rnd = card.get("round")
    when = f", round {rnd}" if isinstance(rnd, int) and 0 < rnd <= 5 else ""
    if flipped:
        status = "flipped, scored" if hardcore else "flipped"
    else:
        status = f"taken{when}"
    name = frame.name_of(view, holder)
    label = cv.fit(f"{name}: {status}", t.SMALL, True, w - 50)
    cv.text(x + 42, fy + 14, label, t.SMALL, bold=not flipped, fill=t.INK, anchor="lm")
