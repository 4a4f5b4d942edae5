"""A player's private pictures, ≤ 800 px wide with text of 20 px or more (read on a
phone): their Pads and plan, Feature hand, cards, and in Sales the product preview
(net profit per sale and the Customers who would buy, in sale order)."""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.mobile_markets import pads
from engine.mobile_markets.data import CUSTOMERS
from engine.mobile_markets.preview import preview_from_view
from render import kit
from render.mobile_markets import look as k
from render.mobile_markets.look import Canvas

WIDTH = 800
M = 14
TEXT = 20  # the smallest text here
BIG = 24
TITLE = 28


def _header(c: Canvas, view: dict[str, Any], title: str) -> float:
    seat = view["you"]
    p = view["players"][seat]
    c.box(0, 0, WIDTH, 64, fill=k.HEADER)
    c.token(M, 12, 40, p["colour"])
    c.text(M + 52, 32, c.fit(f"{p['company']} — {title}", TITLE, True, WIDTH - M - 60), TITLE, bold=True, fill=k.HEADER_INK, anchor="lm")
    y = 76
    phase = view.get("phase_title", "")
    c.text(M, y, f"Round {view.get('round')} · {phase} · ${p['money']} · price {p['price']}", BIG, bold=True)
    y += 34
    c.text(M, y, f"Goods {p['goods']} · net profit {p['net']} · Progress tokens {p['progress']}", TEXT)
    return y + 32


def _cell(c: Canvas, x: float, y: float, w: float, h: float, cell: list[str], covered: bool = False) -> None:
    if covered:
        c.box(x, y, x + w, y + h, fill="#bdbdbd", outline="#7a7a7a", width=2, radius=6)
        c.text(x + w / 2, y + h / 2, "covered", TEXT, bold=True, fill="#303030", anchor="mm")
        return
    c.box(x, y, x + w, y + h, fill="#ffffff", outline=k.PANEL_EDGE, width=2, radius=6)
    n = len(cell)
    for i, sym in enumerate(cell):
        sw = (w - 8) / n
        sx = x + 4 + i * sw
        c.box(sx + 1, y + 4, sx + sw - 1, y + h - 4, fill=k.SYMBOL_FILL[sym], radius=5)
        c.text(sx + sw / 2, y + h / 2, k.SYMBOL_WORD[sym], TEXT, bold=True, fill="#ffffff", anchor="mm")


def _pads(c: Canvas, y: float) -> float:
    c.text(M, y, "Your Pads: A and B, sides 1 and 2", BIG, bold=True)
    y += 34
    cw = (WIDTH - 2 * M - 130) / 5
    for pad, sides in pads.PADS.items():
        for side, cells in enumerate(sides):
            c.text(M, y + 22, f"Pad {pad}{side + 1}", TEXT, bold=True, anchor="lm")
            for i, cell in enumerate(cells):
                _cell(c, M + 130 + i * cw, y, cw - 6, 44, cell)
            y += 50
    c.text(M, y + 2, "▲Up/▼Dn price · Tech/Mkt: 1 point · Prod and every covered cell: 1 Goods", TEXT, fill=k.MUTED)
    return y + 34


def _plan_rows(c: Canvas, plan: dict[str, Any], y: float) -> float:
    bottom = plan["bottom"]
    top = pads.top_pad(bottom)
    cw = (WIDTH - 2 * M - 130) / 5
    c.text(M, y + 22, f"Top {top}{plan['top_side'] + 1}", TEXT, bold=True, anchor="lm")
    cover = plan["cover"]
    # the top Pad drawn over the cells it covers: along (shifted) or across (one cell)
    for i, cell in enumerate(pads.PADS[top][plan["top_side"]]):
        _cell(c, M + 130 + i * cw, y, cw - 6, 44, cell)
    y += 50
    c.text(M, y + 22, f"Bottom {bottom}{plan['bottom_side'] + 1}", TEXT, bold=True, anchor="lm")
    for i, cell in enumerate(pads.PADS[bottom][plan["bottom_side"]]):
        _cell(c, M + 130 + i * cw, y, cw - 6, 44, cell, covered=i in cover)
    y += 52
    how = "across it" if len(cover) == 1 else "along it"
    cells = ", ".join(str(i + 1) for i in cover)
    c.text(M, y, f"The top Pad lies {how}, covering cell{'s' if len(cover) > 1 else ''} {cells} of the bottom Pad.", TEXT)
    return y + 30


def _outcome_line(c: Canvas, o: dict[str, int], y: float, label: str = "Your plan") -> float:
    txt = (
        f"{label}: price {o['up'] - o['down']:+d} · {o['tech']} Tech · {o['mkt']} Mkt · "
        f"{o['prod'] + o['covered']} Goods"
    )
    for line in c.wrap(txt, BIG, True, WIDTH - 2 * M):
        c.text(M, y, line, BIG, bold=True, fill=k.GOOD)
        y += 32
    return y + 4


def _chip_cards(c: Canvas, title: str, items: list[str], y: float) -> float:
    if not items:
        return y
    c.text(M, y, title, BIG, bold=True)
    y += 34
    return c.chips([(s, "plain") for s in items], M, y, WIDTH - 2 * M, TEXT) + 8


def _customer_row(c: Canvas, y: float, i: int, cust: dict[str, Any], where: str) -> float:
    kind = cust["type"]
    c.box(M, y, WIDTH - M, y + 38, fill=k.TYPE_FILL[kind], outline=k.TYPE_EDGE[kind], width=2, radius=6)
    c.box(M, y, M + 34, y + 38, fill=k.TYPE_EDGE[kind], radius=6)
    c.text(M + 17, y + 19, k.TYPE_LETTER[kind], TEXT, bold=True, fill="#ffffff", anchor="mm")
    need = k.needs_text(cust["needs"], cust["stars"])
    c.text(M + 44, y + 19, f"{i}. {k.TYPE_WORD[kind]} ${cust['price']}" + (f" · needs {need}" if need else ""), TEXT, bold=True, anchor="lm")
    c.text(WIDTH - M - 10, y + 19, where, TEXT, fill=k.MUTED, anchor="rm")
    return y + 44


def _preview_block(c: Canvas, view: dict[str, Any], pv: dict[str, Any], y: float, title: str) -> float:
    c.text(M, y, title, BIG, bold=True)
    y += 34
    icons = ", ".join(k.FEATURE_SHORT.get(i, i) for i in pv["icons"]) or "no features"
    colour = k.GOOD if pv["net"] > 0 else k.BAD
    c.text(M, y, f"Net profit per sale {pv['net']}", TITLE, bold=True, fill=colour)
    y += 38
    c.text(M, y, f"cost {pv['cost']} · {icons} · {pv['stars']}★ · {pv['goods']} Goods", TEXT)
    y += 30
    buyers = pv["buyers"]
    c.text(M, y, f"{len(buyers)} would buy, in sale order → ${pv['profit']}", BIG, bold=True)
    y += 34
    for i, b in enumerate(buyers[:12], 1):
        y = _customer_row(c, y, i, CUSTOMERS[b["customer"]], "private" if b["where"] == "private" else "market")
    if len(buyers) > 12:
        c.text(M, y, f"…and {len(buyers) - 12} more", TEXT, fill=k.MUTED)
        y += 30
    if not buyers:
        c.text(M, y, "Nobody would buy.", TEXT, fill=k.BAD)
        y += 30
    return y + 6


def _offer_rows(c: Canvas, offers: list[dict[str, Any]], labels: dict[str, str], y: float) -> float:
    for o in offers:
        cost = f"cost {o['cost']}" + (" (−1 Discount token)" if o.get("discount") else "")
        c.box(M, y, WIDTH - M, y + 36, fill="#ffffff", outline=k.PANEL_EDGE, radius=6)
        name = labels.get(o["card"], "?")
        cw = c.measure(cost, TEXT, True)
        c.text(M + 10, y + 18, c.fit(name, TEXT, False, WIDTH - 2 * M - cw - 40), TEXT, anchor="lm")
        c.text(WIDTH - M - 10, y + 18, cost, TEXT, bold=True, fill=k.ACCENT if o.get("discount") else k.INK, anchor="rm")
        c.mark(o["card"], "card", (M, y, WIDTH - M, y + 36))
        y += 40
    return y


def _decision(c: Canvas, view: dict[str, Any], prompt: dict[str, Any], y: float) -> float:
    """What the player decides now, with its numbers (Technology, Marketing)."""
    labels: dict[str, str] = {}
    for d in view.get("displays", {}).values():
        for card in d["cards"]:
            # the engine's one name of the card, as the select says it
            labels[card["id"]] = (card.get("text") or k.feature_text(card)) if "icons" in card else card.get("name", "?")
    kind = prompt.get("type")
    if kind == "technology":
        c.text(M, y, "Technology: what you can buy", BIG, bold=True)
        y += 34
        c.text(M, y, f"{prompt['points']} points + {prompt['progress']} Progress = {prompt['budget']} · {prompt['technology_left']} Technology card left", TEXT)
        y += 32
        return _offer_rows(c, prompt["offers"], labels, y) + 6
    if kind == "marketing" and not prompt.get("place"):
        c.text(M, y, f"Marketing: {prompt['points']} points left", BIG, bold=True)
        y += 34
        y = _offer_rows(c, prompt["offers"], labels, y)
        decks = " · ".join(f"{k.TYPE_LETTER[t]} {k.TYPE_WORD[t]} {n}" for t, n in prompt.get("decks", {}).items())
        for line in c.wrap(f"Points left take Private Customers; decks: {decks}", TEXT, False, WIDTH - 2 * M):
            c.text(M, y, line, TEXT)
            y += 28
        return y + 6
    return y


def draw(view: dict[str, Any]) -> Image.Image:
    return kit.drawn_to_fit(("mm-private", len(view.get("seats") or ())), 3000, lambda height: _draw(view, height))


def _draw(view: dict[str, Any], height: int) -> Image.Image:
    seat = view["you"]
    p = view["players"][seat]
    prompt = view.get("prompt") or {}
    c = Canvas(WIDTH, height, k.BG)
    y = _header(c, view, "your desk")
    if view.get("phase") == "planning" or prompt.get("type") == "plan":
        y = _pads(c, y + 4)
    o = view.get("my_plan_outcome")
    if o:
        y = _outcome_line(c, o, y)
    y = _chip_cards(c, "Feature hand", [k.feature_text(f) for f in p["features"]], y)
    y = _chip_cards(c, "Technology", [t["name"] for t in p["techs"]], y)
    y = _chip_cards(c, "Marketing", [m["name"] for m in p["campaigns"]], y)
    if p["private"]:
        c.text(M, y, "Private Customers (sold to first, lowest price first)", BIG, bold=True)
        y += 34
        for i, cust in enumerate(p["private"], 1):
            if cust.get("id"):  # (at the table: put on the market by a tap, then one on the market)
                c.mark(cust["id"], "customer", (M, y, WIDTH - M, y + 38))
            y = _customer_row(c, y, i, cust, "private")
    y = _decision(c, view, prompt, y + 4)
    if prompt.get("type") == "product" and prompt.get("preview"):
        y = _preview_block(c, view, prompt["preview"], y + 4, "Selling with no Feature placed")
    return c.finish(int(y + 10))


def slot_id(slot: str) -> str:
    """The id of a product's Feature slot on the table's own area (``slot:1``, ``slot:T4``)."""
    return f"slot:{slot}"


def deck_id(deck: str) -> str:
    """The id of a Customer deck on the table's own area (``deck:regular``)."""
    return f"deck:{deck}"


def marketing_strip(c: Canvas, prompt: dict[str, Any], y: float) -> float:
    """The Customer decks, for the live table in Marketing: one box per deck (tagged
    ``deck:<type>``, with the cards left), to tap for a Private Customer, or to tap and
    then the market (the board's ``market``) to put its top card there."""
    decks = prompt.get("decks") or {}
    if not decks:
        return y
    c.text(M, y, "Customer decks", BIG, bold=True)
    y += 34
    w = (WIDTH - 2 * M - 12 * (len(decks) - 1)) / len(decks)
    for i, (deck, left) in enumerate(decks.items()):
        x0 = M + i * (w + 12)
        c.box(x0, y, x0 + w, y + 56, fill=k.TYPE_FILL.get(deck, "#ffffff"), outline=k.TYPE_EDGE.get(deck, k.PANEL_EDGE), width=2, radius=8)
        c.text(x0 + 12, y + 18, k.TYPE_WORD.get(deck, deck), TEXT, True, anchor="lm")
        c.text(x0 + 12, y + 40, f"{left} left", TEXT, False, k.MUTED, "lm")
        c.mark(deck_id(deck), "deck", (x0, y, x0 + w, y + 56), f"{k.TYPE_WORD.get(deck, deck)} Customer deck")
    return y + 66


def product_strip(c: Canvas, view: dict[str, Any], prompt: dict[str, Any], y: float) -> float:
    """The product being built, for the live table: one box per Feature slot (the
    Corporation Board's and each slotted Technology's, tagged ``slot:<slot>``) and the
    Feature hand as cards (tagged with their ids), to drag into the slots."""
    c.text(M, y, "Your product: drag Features into its slots", BIG, bold=True)
    y += 36
    slots = [str(s) for s in prompt.get("slots") or []]
    names = {t["id"]: t["name"] for t in view["players"][view["you"]].get("techs") or [] if "id" in t}
    w = (WIDTH - 2 * M - 8 * (max(len(slots), 1) - 1)) / max(len(slots), 1)
    for i, s in enumerate(slots):
        x0 = M + i * (w + 8)
        c.box(x0, y, x0 + w, y + 70, fill="#fbfaf6", outline=k.PANEL_EDGE, width=2, radius=8)
        label = f"Slot {s}" if s.isdigit() else names.get(s, "Technology slot")
        c.text(x0 + w / 2, y + 35, c.fit(label, TEXT, True, w - 12), TEXT, True, k.MUTED, "mm")
        c.mark(slot_id(s), "slot", (x0, y, x0 + w, y + 70))
    y += 82
    feats = {f["id"]: f for f in view["players"][view["you"]].get("features") or []}
    for fid in prompt.get("features") or []:
        f = feats.get(fid, {"id": fid})
        c.box(M, y, WIDTH - M, y + 40, fill="#ffffff", outline=k.ACCENT, width=2, radius=8)
        c.text(M + 12, y + 20, c.fit(k.feature_text(f), TEXT, False, WIDTH - 2 * M - 24), TEXT, anchor="lm")
        c.mark(fid, "feature", (M, y, WIDTH - M, y + 40))
        y += 46
    return y + 6


def draw_plan(view: dict[str, Any], plan: dict[str, Any]) -> Image.Image:
    """A plan's Pads and what it gives (raises IllegalAction if it breaks a rule)."""
    o = pads.evaluate(plan)
    plan = pads.validate(plan)
    c = Canvas(WIDTH, 1200, k.BG)
    y = _header(c, view, "plan preview")
    y = _plan_rows(c, plan, y + 6)
    y = _outcome_line(c, o, y + 4, "This plan")
    c.text(M, y, f"Goods: {o['prod']} Production + {o['covered']} covered", TEXT, fill=k.MUTED)
    return c.finish(int(y + 40))


def draw_product(view: dict[str, Any], action: dict[str, Any]) -> Image.Image:
    pv = preview_from_view(view, action)
    c = Canvas(WIDTH, 2400, k.BG)
    y = _header(c, view, "product preview")
    feats = {f["id"]: f for f in view["players"][view["you"]]["features"]}
    placed = [k.feature_text(feats[f]) for f in (action.get("slots") or {}).values() if f in feats]
    y = _chip_cards(c, "Placed Features", placed or ["none"], y)
    y = _preview_block(c, view, pv, y + 4, "If you sell this product")
    return c.finish(int(y + 10))
