"""Pieces every picture shares: the round and phase tracks, who is being waited for,
and the legend of symbols."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from render import kit
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas, check_image

PHASE_VERB = {
    "planning": "planning in secret",
    "improve": "choosing an Improvement",
    "research": "placing Research markers",
    "logistics": "placing Logistics markers",
    "selling": "selling Goods",
}
START_VERB = {  # the 2-3 player board's start decisions (Update 1.1)
    "company": "choosing a company",
    "region": "choosing a starting region",
    "retailer": "placing a Retailer",
}


def verb(view: dict[str, Any]) -> str:
    """What the table waits for, in words."""
    if view.get("phase") == "start":
        todo = (view.get("start") or {}).get("todo") or []
        return START_VERB.get(str(todo[0][0]) if todo else "", "making the start choices")
    return PHASE_VERB.get(str(view.get("phase")), "deciding")


def name_of(view: dict[str, Any], seat: str) -> str:
    """A seat's player by name (render.kit.player_name; the engine's own views: the seat,
    Steve's marked)."""
    p = view["players"].get(seat, {})
    return kit.player_name(view, seat, f"{seat} (Steve)" if p.get("steve") else "")


def tracks(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float, title: str) -> float:
    """Title, Round track (1-5, in the numbers the texts say: "Round 1") and Phase track
    (1-8) with the current ones marked."""
    cv.box(0, y - t.MARGIN, cv.width, y + 118, fill=t.HEADER)
    cv.text(x, y + 2, title, t.TITLE, bold=True, fill=t.HEADER_INK)
    rounds = int(view.get("rounds", 5))
    cur = int(view.get("round", 1))
    over = bool(view.get("over"))
    bw = 44
    rx = x + w - rounds * (bw + 6) + 6
    cv.text(rx - 10, y + 18, "Round", t.BODY, bold=True, fill=t.HEADER_INK, anchor="rm")
    for i in range(rounds):
        bx = rx + i * (bw + 6)
        now = i + 1 == cur and not over
        done = i + 1 < cur or over
        fill = t.ACCENT if now else ("#51667c" if done else "#31475e")
        cv.box(
            bx,
            y + 2,
            bx + bw,
            y + 34,
            fill=fill,
            outline="#8ea3b8" if not now else "#ffffff",
            width=2 if now else 1,
            radius=6,
        )
        label = str(i + 1)
        cv.text(
            bx + bw / 2,
            y + 18,
            label,
            t.BODY,
            bold=True,
            fill="#ffffff" if now or done else "#b7c4d1",
            anchor="mm",
        )
    # phases
    py = y + 48
    pn = view.get("phase_number")
    n = len(t.PHASE_SHORT)
    pw = (w - (n - 1) * 6) / n
    for i, label in enumerate(t.PHASE_SHORT):
        bx = x + i * (pw + 6)
        now = pn == i + 1 and not over
        done = over or (pn is not None and i + 1 < pn)
        fill = t.ACCENT if now else ("#51667c" if done else "#31475e")
        cv.box(
            bx,
            py,
            bx + pw,
            py + 46,
            fill=fill,
            outline="#ffffff" if now else "#8ea3b8",
            width=3 if now else 1,
            radius=6,
        )
        ink = "#ffffff" if now or done else "#b7c4d1"
        cv.text(
            bx + pw / 2,
            py + 23,
            f"{i + 1} {label}",
            t.BODY + (1 if now else 0),
            bold=now,
            fill=ink,
            anchor="mm",
        )
    return y + 118 + t.MARGIN


def waiting_line(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    """One line: who the table waits for and what they are doing (or who won)."""
    colour = {s: p["colour"] for s, p in view["players"].items()}
    if view.get("over"):
        winners = (view.get("result") or {}).get("winners", [])
        cv.text(x, y + 14, "Game over.", t.LARGE, bold=True, anchor="lm")
        wx = x + cv.measure("Game over.", t.LARGE, True) + 12
        cv.text(wx, y + 14, "Winner:" if len(winners) == 1 else "Winners:", t.LARGE, anchor="lm")
        wx += cv.measure("Winners:", t.LARGE) + 10
        for s in winners:
            cv.token(wx, y + 1, 26, colour.get(s, "grey"))
            wx += (
                32
                + cv.text(wx + 32, y + 14, name_of(view, s), t.LARGE, bold=True, anchor="lm")
                + 16
            )
        return y + 36
    phase = view.get("phase")
    pending = list(view.get("pending", []))
    if phase == "planning":
        cv.text(x, y + 14, "Planning:", t.LARGE, bold=True, anchor="lm")
        px = x + cv.measure("Planning:", t.LARGE, True) + 14
        for s in view["seats"]:
            p = view["players"][s]
            sealed = bool(p.get("sealed")) and s not in pending
            cv.paste(check_image(24, sealed), px, y + 2)
            cv.token(px + 28, y + 1, 26, p["colour"])
            label = name_of(view, s) + (" sealed" if sealed else " thinking")
            label = cv.fit(label, t.BODY, False, 210)
            px += (
                62
                + cv.text(
                    px + 60, y + 14, label, t.BODY, fill=t.INK if sealed else t.BAD, anchor="lm"
                )
                + 18
            )
            if px > x + w - 120:
                break
        return y + 36
    if pending:
        s = pending[0]
        cv.text(x, y + 14, "Now:", t.LARGE, bold=True, anchor="lm")
        px = x + cv.measure("Now:", t.LARGE, True) + 12
        cv.token(px, y + 1, 26, colour.get(s, "grey"))
        cv.text(px + 34, y + 14, f"{name_of(view, s)} is {verb(view)}", t.LARGE, anchor="lm")
        return y + 36
    cv.text(x, y + 14, str(view.get("phase_title", "")), t.LARGE, bold=True, anchor="lm")
    return y + 36


LEGEND_SYMBOLS = (
    ("down", "Price -1"),
    ("up", "Price +1"),
    ("prod", "Production: 1 Goods"),
    ("improve", "Improve: take an Improvement"),
    ("research", "Research: 1 Progress"),
    ("logistics", "Logistics: 1 Progress"),
)


# a legend entry of a module: (the sample's width, a function drawing the sample with
# its top-left at (x, y), at most 32 px high; the words)
LegendItem = tuple[float, Callable[[Canvas, float, float], None], str]


def _extra_layout(cv: Canvas, extras: Sequence[LegendItem], w: float) -> list[tuple[int, float]]:
    """(row, x offset) of each extra legend entry, flowing over rows."""
    out = []
    row, lx = 0, 0.0
    for sw, _, label in extras:
        ew = sw + 8 + cv.measure(label, t.BODY) + 24
        if lx and lx + ew > w - 24:
            row, lx = row + 1, 0.0
        out.append((row, lx))
        lx += ew
    return out


def legend(
    cv: Canvas,
    x: float,
    y: float,
    w: float,
    board: bool = True,
    extras: Sequence[LegendItem] = (),
) -> float:
    """Symbols (and, on the board, Buyers and Office spaces) explained, then the entries
    of the modules in play (``extras``); returns y below."""
    rows = 3 if board else 2
    layout = _extra_layout(cv, extras, w)
    extra_rows = layout[-1][0] + 1 if layout else 0
    h = 44 + rows * 36 + extra_rows * 40
    top = cv.panel(x, y, w, h, "Legend")
    col = w / 3
    for i, (sym, label) in enumerate(LEGEND_SYMBOLS):
        lx = x + 12 + (i % 3) * col
        ly = top + (i // 3) * 36
        cv.icon(lx, ly, 28, sym)
        cv.text(lx + 36, ly + 14, label, t.BODY, anchor="lm")
    if board:
        ly = top + 72
        lx = x + 12
        cv.box(lx, ly, lx + 34, ly + 30, fill=t.BUYER_PRICE, radius=5)
        cv.text(lx + 17, ly + 15, "4", t.BODY, bold=True, fill="#ffffff", anchor="mm")
        lx += 42 + cv.text(lx + 42, ly + 15, "pays up to 4", t.BODY, anchor="lm") + 16
        cv.box(lx, ly, lx + 34, ly + 30, fill=t.BUYER_TECH, radius=5)
        cv.text(lx + 17, ly + 15, "NFC", t.SMALL, bold=True, fill="#ffffff", anchor="mm")
        lx += 42 + cv.text(lx + 42, ly + 15, "needs NFC", t.BODY, anchor="lm") + 16
        cv.box(lx, ly, lx + 34, ly + 30, fill=t.SLOT, outline=t.ACCENT, width=4, radius=5)
        lx += (
            42
            + cv.text(lx + 42, ly + 15, "Office paying control VP (1st/2nd)", t.BODY, anchor="lm")
            + 16
        )
        lx += cv.text(lx, ly + 15, "⌂3", t.BODY, bold=True, fill=t.MUTED, anchor="lm") + 6
        cv.text(lx, ly + 15, "Progress to open an Office", t.BODY, anchor="lm")
    base = top + rows * 36 + 2
    for (sw, sample, label), (row, dx) in zip(extras, layout, strict=True):
        lx, ly = x + 12 + dx, base + row * 40
        sample(cv, lx, ly)
        cv.text(lx + sw + 8, ly + 15, label, t.BODY, anchor="lm")
    return y + h
