"""A player's private picture (phone-sized: 800 px wide, no text under 20 px): the
draft choices, the hand of Specialists, the last dice with the Overdrive offer, the
player's own board and cards. Only this seat's secrets; nothing of another seat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from render import kit
from render.age_of_automaton import player
from render.age_of_automaton.kit import (
    ACCENT,
    BG,
    EDGE,
    FAINT,
    GOOD,
    INK,
    MUTED,
    PANEL,
    ROMAN,
    Canvas,
    amounts,
    effect_text,
)

WIDTH = 800
M = 12
FS = 22
LO = 20  # the smallest text in this picture


def _can_pay(res: Mapping[str, int], need: Mapping[str, int] | None) -> bool:
    return all(res.get(k, 0) >= n for k, n in (need or {}).items())


def cards(c: Canvas, y: float, title: str, items: Sequence[Mapping[str, Any]], res: Mapping[str, int] | None,
          numbered: bool = False) -> float:
    c.text(M, y, title, FS + 2, True, "#2f3b4c")
    y += FS + 14
    if not items:
        c.text(M + 8, y, "none", FS, fill=MUTED)
        return y + FS + 12
    for i, card in enumerate(items):
        need = card.get("requirement") or {}
        lines = [
            f"Ability: {effect_text(card.get('ability') or [])}",
            f"Play: hold {amounts(need)} · Discard: {amounts(card.get('discard'))} · {card.get('vp', 0)} VP",
        ]
        wrapped = [w for ln in lines for w in c.wrap(ln, LO, False, WIDTH - 2 * M - 24)]
        h = FS + 16 + len(wrapped) * (LO + 6) + 6
        ok = res is not None and _can_pay(res, need)
        c.box(M, y, WIDTH - M, y + h, fill=PANEL, outline=GOOD if ok else EDGE, width=3 if ok else 1)
        name = (f"{i + 1}. " if numbered else "") + str(card.get("name", "Specialist"))
        c.text(M + 12, y + 8, name, FS, True)
        if ok:
            c.text(WIDTH - M - 12, y + 8, "✔ playable", LO, True, GOOD, "ra")
        yy = y + FS + 16
        for ln in wrapped:
            c.text(M + 12, yy, ln, LO, fill=INK)
            yy += LO + 6
        if card.get("id"):
            c.mark(card["id"], "card", (M, y, WIDTH - M, y + h))
        y += h + 8
    return y + 4


def dice(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    prompt = view.get("prompt") or {}
    if prompt.get("type") != "dice":
        return y
    c.text(M, y, "Your Prospect roll", FS + 2, True, "#2f3b4c")
    y += FS + 14
    x = M
    for f in prompt.get("dice") or []:
        c.square(x, y, 44, "#ffffff", INK, ROMAN.get(f, str(f)), FS)
        x += 52
    n = prompt.get("passes", 0)
    c.text(x + 10, y + 22, f"→ {n} pass{'es' if n != 1 else ''}", FS, True, anchor="lm")
    y += 56
    for ln in c.wrap(str(prompt.get("text", "")), LO, False, WIDTH - 2 * M):
        c.text(M, y, ln, LO)
        y += LO + 6
    return y + 8


COLUMNS = (("Prospect", "prospect", "Funding"), ("Equipment", "equipment", "Assembling"),
           ("R&D", "rnd", "Sponsorship"), ("Sale", "sale", "Purchasing"))
MARKER = {"Prospect": "prospect", "Funding": "funding", "Equipment": "equipment", "Assembling": "assembling",
          "R&D": "rnd", "Sponsorship": "sponsorship", "Sale": "sale", "Purchasing": "purchasing"}


def _line(c: Canvas, y: float, text: str, size: int = LO, bold: bool = False, fill: str = INK) -> float:
    for ln in c.wrap(text, size, bold, WIDTH - 2 * M - 8):
        c.text(M + 8, y, ln, size, bold, fill)
        y += size + 6
    return y


TAG_W = 58  # the level tag of a card row's line
ROW_H = LO + 12


def _item(c: Canvas, y: float, tag: str, name: str, rest: str) -> float:
    """One line of a card row: the tag (the automaton level that reaches the card), the
    card's name in bold, then its numbers (under the name when they do not fit beside)."""
    x = M + TAG_W + 6
    beside = x + c.measure(name, LO, True) + 12
    right = WIDTH - M - 10
    under = c.wrap(rest, LO, False, right - x) if rest and c.measure(rest, LO) > right - beside else []
    h = ROW_H + len(under) * (LO + 6)
    c.box(M, y, WIDTH - M, y + h, fill=PANEL, outline=EDGE)
    if tag:
        c.label(M + 4, y + 4, TAG_W - 8, ROW_H - 8, FAINT, EDGE, tag, LO, True)
    c.text(x, y + ROW_H / 2, name, LO, True, anchor="lm")
    if rest and not under:
        c.text(beside, y + ROW_H / 2, rest, LO, fill=MUTED, anchor="lm")
    yy = y + ROW_H - 2
    for ln in under:
        c.text(x, yy, ln, LO, fill=MUTED)
        yy += LO + 6
    return y + h + 4


def card_row(c: Canvas, y: float, title: str, key: str, cards: Sequence[Mapping[str, Any]]) -> float:
    """A card row, one card a line: the lowest automaton level that takes it (level I
    takes card 1, II cards 1-2, III cards 1-3, IV any), its name and numbers."""
    c.text(M, y, title, FS, True, "#2f3b4c")
    c.text(WIDTH - M, y + 2, "level that reaches it", LO, False, MUTED, "ra")
    y += FS + 8
    if not cards:
        return _item(c, y, "", "none left", "")
    for i, card in enumerate(cards, 1):
        tag = ROMAN[min(i, 4)] + ("+" if i < 4 else "")
        if key == "equipment":
            rest = f"{amounts(card.get('cost'))}" + (f" · extra {card['extra'].replace('rnd', 'R&D').title()}"
                                                     if card.get("extra") else "")
        elif key == "rnd":
            rest = f"{card.get('part', '')} · upgrade {card.get('upgrade', 1)}"
        else:
            rest = f"{amounts(card.get('cost'))} · {card.get('vp', 0)} VP"
        y = _item(c, y, tag, str(card.get("name", "card")), rest)
    return y + 6


def board(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    """What the turn's options name (issue 22): the free worker spaces by board column,
    the three card rows (which card each automaton level reaches, its cost), the
    Sponsorship row and the Market."""
    prompt = view.get("prompt") or {}
    if prompt.get("type") != "turn" or prompt.get("main_done"):
        return y
    me = view["players"][view["you"]]
    used = set(me.get("markers") or [])
    c.text(M, y, "The board: your main actions by column", FS + 2, True, "#2f3b4c")
    y += FS + 12
    spaces = view.get("spaces") or {}
    for n, (work, key, other) in enumerate(COLUMNS, 1):
        sp = spaces.get(key) or []
        free = sum(1 for x in sp[:-1] if x is None)
        iv = "IV space free" if sp and sp[-1] is None else "IV space taken"
        done = [a for a in (work, other) if MARKER[a] in used]
        tail = f" · played: {', '.join(done)}" if done else ""
        y = _line(c, y, f"{n}. {work} ({free} space{'s' if free != 1 else ''} + {iv}) | {other}{tail}", LO,
                  bool(not done), INK if not done else MUTED)
    y += 6
    rows = view.get("rows") or {}
    for title, key in (("Equipment row", "equipment"), ("R&D row", "rnd"), ("Sale Order row", "sale")):
        y = card_row(c, y, title, key, rows.get(key) or [])
    tiles = [effect_text(t.get("gain") or []) for t in view.get("sponsorship") or []]
    c.text(M, y, "Sponsorship tiles", FS, True, "#2f3b4c")
    y += FS + 8
    for i, tile in enumerate(tiles or ["none left"], 1):
        y = _item(c, y, str(i) if tiles else "", tile, "")
    market = view.get("market") or []
    y += 4
    y = _line(c, y, "Market: " + (", ".join(market) if market else "empty"), LO, True)
    return y + 10


def draw(view: Mapping[str, Any]) -> Image.Image:
    return kit.drawn_to_fit(("aoa-private", len(view.get("seats") or ())), 3000, lambda height: _draw(view, height))


def _draw(view: Mapping[str, Any], height: int) -> Image.Image:
    seat = view["you"]
    p = view["players"][seat]
    c = Canvas(WIDTH, height, BG)
    c.title_bar(0, 48, c.fit(f"{kit.player_name(view, seat)} — Round {view['round']} · {view.get('phase_title', '')}", 26, True, WIDTH - 24), 26)
    y = 60.0
    y = dice(c, view, y)
    y = board(c, view, y)
    draft = view.get("draft")
    if draft:
        y = cards(c, y, f"Draft pass {view.get('draft_pass', '?')} of 3: keep one", draft.get("hand") or [], None, True)
        picked = draft.get("picked")
        if picked:
            c.text(M, y, "Chosen for this pass ✔ — waiting for the others", FS, True, ACCENT)
            y += FS + 12
        kept = ", ".join(k["name"] for k in draft.get("kept") or []) or "none yet"
        for ln in c.wrap(f"Kept so far: {kept}", FS, False, WIDTH - 2 * M):
            c.text(M, y, ln, FS)
            y += FS + 8
        y += 8
    hand = view["players"][seat].get("hand") or []
    if hand or not draft:
        y = cards(c, y, "Your hand of Specialists", hand, p["resources"])
    panel = player.panel(view, seat, WIDTH - 2 * M, FS, LO)
    c.img.paste(panel.img, (M, int(y)))
    y += panel.img.height + 10
    own = []
    for k in p["rnd"] if isinstance(p["rnd"], list) else []:
        own.append(f"R&D {k['name']} ({k.get('part', '')})")
    for k in p["sale"] if isinstance(p["sale"], list) else []:
        own.append(f"Sale Order {k['name']} ({k.get('vp', 0)} VP)")
    c.text(M, y, "Your cards", FS + 2, True, "#2f3b4c")
    y += FS + 12
    for ln in c.wrap(" · ".join(own) or "none", LO, False, WIDTH - 2 * M):
        c.text(M, y, ln, LO)
        y += LO + 6
    return c.finish(int(y) + M, WIDTH)  # (the fixed palette: a fast, small PNG)
