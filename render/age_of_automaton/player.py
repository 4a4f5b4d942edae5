"""A player's board: the four columns with Equipment and Action markers, the Technology
track with the worker dice by level, Specialists played (and rotated), Contracts left,
resources and credits against the limit of 10, and the -3 Audit tokens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.age_of_automaton.data import ACTION_NAMES, COLUMNS, WORKER_ACTIONS
from render import kit
from render.age_of_automaton.kit import (
    ACCENT,
    BAD,
    EDGE,
    FAINT,
    GOOD,
    INK,
    MUTED,
    PANEL,
    ROMAN,
    Canvas,
    effect_text,
    player_token,
)


def draw(c: Canvas, view: Mapping[str, Any], seat: str, x: float, y: float, w: float, fs: int, lo: int = 12) -> float:
    """Draw ``seat``'s board in the box at (x, y), ``w`` wide, text ``fs`` px (never below
    ``lo``); return its height."""
    s2, s4, s6 = max(fs - 2, lo), max(fs - 4, lo), max(fs - 6, lo)
    p = view["players"][seat]
    top = y
    pad = 10
    line = fs + 10
    inner = w - 2 * pad
    # the frame is drawn last (its height is known then): leave room by drawing on top of it
    x0 = x + pad
    y += pad
    turn = view.get("turn") == seat
    player_token(c, view, seat, x0 + fs * 0.7, y + fs * 0.7, fs * 0.7, s4)
    head = kit.player_name(view, seat) + ("  ◀ playing now" if turn else "") + ("  (passed)" if p.get("passed") else "")
    c.text(x0 + fs * 1.7, y + fs * 0.7, c.fit(head, fs + 2, True, inner - fs * 2), fs + 2, True, ACCENT if turn else INK, "lm")
    y += fs * 1.4 + 8
    stats = (
        f"{p['vp']} VP · Reputation {p['reputation']} ({p['engineers']} engineer{'s' if p['engineers'] != 1 else ''}) · Reliability {p['reliability']} "
        f"(section {p['reliability_section']}) · Donation {p['donation']}"
    )
    for ln in c.wrap(stats, fs, False, inner):
        c.text(x0, y, ln, fs)
        y += line
    # resources against the limit
    used = c.text(x0, y + 2, "Supply:", fs, True) + 8
    used += c.resources(x0 + used, y, p["resources"], fs, p["credits"] or None)
    over = p["held"] > p["limit"]
    c.text(x0 + used + 4, y + 2, f"{p['held']}/{p['limit']} resources" + (f" · {p['credits']} credits" if p["credits"] else " · 0 credits"),
           fs, over, BAD if over else MUTED)
    y += line + 6
    # Technology track: worker dice by level
    c.text(x0, y + 2, "Technology:", fs, True)
    tx = x0 + c.measure("Technology:", fs, True) + 10
    die = fs + 8
    own = view.get("you") == seat  # (the seat's own area: its automatons are tappable at the table)
    for lvl in (1, 2, 3, 4):
        n = int(p["technology"].get(str(lvl), 0))
        label = f"{ROMAN[lvl]}:"
        start = tx
        tx += c.text(tx, y + 2, label, fs, True, MUTED) + 4
        if n == 0:
            tx += c.text(tx, y + 2, "–", fs, fill=MUTED) + 14
        for _ in range(min(n, 4)):
            c.square(tx, y - 2, die, "#ffffff", INK, ROMAN[lvl], s6)
            tx += die + 3
        if n > 4:
            tx += c.text(tx, y + 2, f"×{n}", fs, True) + 4
        if own and n:
            c.mark(f"worker-{lvl}", "worker", (start - 4, y - 6, tx + 4, y + die + 2), f"Level {ROMAN[lvl]} automaton")
        tx += 12
    c.text(tx, y + 2, f"unbuilt {p['unbuilt']}", fs, fill=MUTED)
    y += line + 8
    # the four columns: Action markers and Equipment
    col_w = (inner - 3 * 6) / 4
    markers = set(p.get("markers") or [])
    heights = []
    col_top = y
    for i, col in enumerate(COLUMNS):
        cx = x0 + i * (col_w + 6)
        cy = col_top + 4
        for act in col:
            on = act in markers
            mark = "✔ " if on else ""
            c.label(cx + 4, cy, col_w - 8, fs + 8, "#fff2cc" if on else FAINT, ACCENT if on else EDGE,
                    c.fit(mark + ACTION_NAMES[act], s2, on, col_w - 20), s2, on, INK if on else MUTED)
            if own and act not in WORKER_ACTIONS:  # (an action with no automaton: tapped here at the table)
                c.mark(act, "action", (cx + 4, cy, cx + col_w - 4, cy + fs + 8), ACTION_NAMES[act])
            cy += fs + 12
        for card in p["columns"][i]:
            c.box(cx + 4, cy, cx + col_w - 4, cy + 2 * fs + 14, fill="#e8f1fb", outline="#7a9cc6", radius=4)
            c.text(cx + 10, cy + 4, c.fit(card["name"], s2, True, col_w - 20), s2, True)
            c.text(cx + 10, cy + fs + 6, c.fit(effect_text(card.get("ability") or []), s4, False, col_w - 20), s4, fill=MUTED)
            if own and card.get("id"):  # (your Equipment: used by a tap at the table)
                c.mark(card["id"], "card", (cx + 4, cy, cx + col_w - 4, cy + 2 * fs + 14), card["name"])
            cy += 2 * fs + 18
        heights.append(cy - col_top)
    col_h = max(heights) + 4
    for i in range(4):
        cx = x0 + i * (col_w + 6)
        c.d.rounded_rectangle((cx, col_top, cx + col_w, col_top + col_h), radius=6, outline=EDGE, width=1)
    c.text(x0 + inner, col_top - 2, "", fs)
    y = col_top + col_h + 8
    left = p["markers_total"] - len(markers)
    c.text(x0, y, f"Action markers: {len(markers)} placed, {left} left of {p['markers_total']}", fs, fill=MUTED)
    y += line
    # Specialists played (rotated = used this round), hand, contracts, cards, tokens
    played = p.get("played") or []
    if played:
        c.text(x0, y, "Specialists played:", fs, True)
        y += line
        for s in played:
            tag = "  ↻ used this round" if s.get("rotated") else ""
            txt = f"• {s['name']}: {effect_text(s.get('ability') or [])}{tag}"
            c.text(x0 + 8, y, c.fit(txt, s2, False, inner - 8), s2, fill=MUTED if s.get("rotated") else INK)
            if own and s.get("id"):  # (a played Specialist used by a tap at the table)
                c.mark(s["id"], "card", (x0, y - 3, x0 + inner, y + fs + 3), s["name"])
            y += fs + 6
    else:
        c.text(x0, y, "Specialists played: none", fs, fill=MUTED)
        y += line
    rnd = p["rnd"] if isinstance(p["rnd"], int) else len(p["rnd"])
    sale = p["sale"] if isinstance(p["sale"], int) else len(p["sale"])
    bits = [f"Hand {p['hand_count']}", f"Contracts {p['contracts']}/6", f"R&D {rnd}", f"Sale Orders {sale}"]
    c.text(x0, y, " · ".join(bits), fs)
    y += line
    tokens = p.get("audit_tokens", 0)
    ach = len(p.get("achievements") or [])
    c.text(x0, y, f"−3 Audit tokens: {tokens}" if tokens else "−3 Audit tokens: none", fs, tokens > 0, BAD if tokens else GOOD)
    c.text(x0 + inner / 2, y, f"Achievements: {ach}", fs)
    y += line
    h = y - top + pad - 6
    c.d.rounded_rectangle((x, top, x + w, top + h), radius=8, outline=ACCENT if turn else EDGE, width=3 if turn else 1)
    return h


def panel(view: Mapping[str, Any], seat: str, w: int, fs: int, lo: int = 12) -> Canvas:
    """The board alone on its own canvas, cropped to its height."""
    c = Canvas(w, 1200, PANEL)
    h = draw(c, view, seat, 0, 0, w - 1, fs, lo)
    c.img = c.img.crop((0, 0, w, int(h) + 2))
    return c
