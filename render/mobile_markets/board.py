"""The public table: phase track and round, price track with the companies' markers,
the market (Customer columns under prices 2-8), the three displays with costs and
Discount tokens, the Event stack, and every corporation."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import kit
from render.mobile_markets import look as k
from render.mobile_markets.look import Canvas

WIDTH = 1200
M = 16
SMALL = 15
BODY = 17
LARGE = 21
COLS = [str(c) for c in range(2, 9)]
MAX_ROWS = 10  # Customers shown per column (more: "+n more")


def customer_card(c: Canvas, x: float, y: float, w: float, cust: dict[str, Any], h: int = 30) -> None:
    kind = cust["type"]
    c.box(x, y, x + w, y + h, fill=k.TYPE_FILL[kind], outline=k.TYPE_EDGE[kind], width=2, radius=5)
    c.box(x, y, x + 24, y + h, fill=k.TYPE_EDGE[kind], radius=5)
    c.text(x + 12, y + h / 2, k.TYPE_LETTER[kind], BODY, bold=True, fill="#ffffff", anchor="mm")
    c.text(x + 30, y + h / 2, str(cust["price"]), BODY, bold=True, anchor="lm")
    need = k.needs_text(cust["needs"], cust["stars"])
    if need:
        c.text(x + 46, y + h / 2, c.fit(need, SMALL, False, w - 50), SMALL, anchor="lm")


def header(c: Canvas, view: dict[str, Any], y: float) -> float:
    c.box(0, y, WIDTH, y + 52, fill=k.HEADER)
    rnd = view.get("round", 1)
    title = "Mobile Markets — game over" if view.get("over") else f"Mobile Markets — round {rnd} of {view.get('rounds', 5)}"
    c.text(M, y + 26, title, 24, bold=True, fill=k.HEADER_INK, anchor="lm")
    n = view.get("phase_number")
    x = WIDTH - M - 8 * 74
    for i, name in enumerate(k.PHASE_SHORT, 1):
        on = i == n
        c.box(x, y + 10, x + 70, y + 42, fill=k.ACCENT if on else "#3c5068", radius=6)
        c.text(x + 35, y + 26, f"{i} {name}", SMALL, bold=on, fill="#ffffff", anchor="mm")
        x += 74
    return y + 60


def price_track(c: Canvas, view: dict[str, Any], y: float) -> float:
    colw = (WIDTH - 2 * M) / 7
    market = view["market"]
    players = view["players"]
    rows = max([min(len(market[col]), MAX_ROWS) + (1 if len(market[col]) > MAX_ROWS else 0) for col in COLS] + [1])
    h = 92 + rows * 34 + 28
    c.box(M, y, WIDTH - M, y + h, fill=k.PANEL, outline=k.PANEL_EDGE, radius=8)
    for i, col in enumerate(COLS):
        x = M + i * colw
        c.box(x + 4, y + 6, x + colw - 4, y + 82, fill="#f1efe9", outline=k.PANEL_EDGE, radius=6)
        c.text(x + 14, y + 12, f"${col}", 26, bold=True)
        spots = view["track"].get(col, [])
        for j, seat in enumerate(spots):
            c.token(x + 10 + j * 36, y + 48, 30, players[seat]["colour"])
        cards = market[col]
        cy = y + 90
        for cust in cards[:MAX_ROWS]:
            customer_card(c, x + 6, cy, colw - 12, cust)
            cy += 34
        if len(cards) > MAX_ROWS:
            c.text(x + 10, cy + 4, f"+{len(cards) - MAX_ROWS} more", SMALL, fill=k.MUTED)
        if not cards:
            c.text(x + colw / 2, cy + 15, "no Customer", SMALL, fill=k.MUTED, anchor="mm")
    c.text(WIDTH - M - 10, y + h - 4, "sold bottom to top, $2 first", SMALL, fill=k.MUTED, anchor="rd")
    c.mark("market", "market", (M, y, WIDTH - M, y + h), "The market")  # (where a Customer is put, at the table)
    return y + h + 10


def display_card(c: Canvas, x: float, y: float, w: float, h: float, card: dict[str, Any]) -> None:
    c.box(x, y, x + w, y + h, fill="#fbfaf6", outline=k.PANEL_EDGE, radius=6)
    if "icons" in card:  # the engine's one name of the card, as the select says it, in the Features row
        name = k.feature_text(card).removeprefix("Feature (").removesuffix(")")
        lines = c.wrap(name, SMALL, False, w - 16)[:4]
        for i, line in enumerate(lines):
            c.text(x + 8, y + 4 + i * 17, c.fit(line, SMALL, False, w - 16), SMALL)
    else:
        lines = c.wrap(card.get("name", "?"), SMALL, True, w - 16)[:2]
        for i, line in enumerate(lines):
            c.text(x + 8, y + 6 + i * 18, c.fit(line, SMALL, True, w - 16), SMALL, bold=True)
    cost = card.get("cost_now", card.get("cost"))
    label = f"cost {cost}"
    c.text(x + 8, y + h - 6, label, SMALL, anchor="ld")
    if card.get("discount"):
        bx = x + w - 44
        c.box(bx, y + h - 26, bx + 38, y + h - 6, fill=k.ACCENT, radius=9)
        c.text(bx + 19, y + h - 16, "-1", SMALL, bold=True, fill="#ffffff", anchor="mm")
    elif card.get("phase"):
        c.text(x + w - 8, y + h - 6, str(card["phase"]).capitalize(), SMALL, fill=k.MUTED, anchor="rd")


TILE_H = {"technology": 68, "feature": 96, "marketing": 68}  # a Feature's name takes up to 4 lines


def displays(c: Canvas, view: dict[str, Any], y: float) -> float:
    w = (WIDTH - 2 * M) * 0.66
    height = sum(h + 8 for h in TILE_H.values()) + 44
    c.box(M, y, M + w, y + height, fill=k.PANEL, outline=k.PANEL_EDGE, radius=8)
    c.text(M + 12, y + 8, "Displays", LARGE, bold=True)
    c.text(M + 120, y + 12, "orange -1: Discount token (cost shown after it)", SMALL, fill=k.MUTED)
    cy = y + 40
    for name in ("technology", "feature", "marketing"):
        d = view["displays"][name]
        c.text(M + 12, cy + 8, k.DISPLAY_TITLE[name], BODY, bold=True)
        c.text(M + 12, cy + 32, f"deck {d['deck']}", SMALL, fill=k.MUTED)
        cards = d["cards"]
        n = max(len(cards), 4)
        x0 = M + 110
        cw = (w - 120) / n
        for i, card in enumerate(cards):
            with c.tag(card.get("id", ""), "card"):
                display_card(c, x0 + i * cw, cy, cw - 6, TILE_H[name], card)
        cy += TILE_H[name] + 8
    return y + height


def events(c: Canvas, view: dict[str, Any], x: float, y: float, w: float, h: float) -> float:
    """The Event stack, each Event's Customer and Goods icons still visible; the
    current one with its text. Returns the height it needs (drawn in at least ``h``)."""
    ev = view["events"]
    rows = len(ev["revealed"])
    current = next((e for e in ev["revealed"] if e["id"] == ev.get("current")), None)
    text = c.wrap(current["text"], SMALL, False, w - 24)[:5] if current else []
    need = 44 + rows * 30 + len(text) * 18 + 8
    h = max(h, need)
    c.box(x, y, x + w, y + h, fill=k.PANEL, outline=k.PANEL_EDGE, radius=8)
    c.text(x + 12, y + 8, "Events", LARGE, bold=True)
    c.text(x + w - 12, y + 12, f"{ev['deck']} left", SMALL, fill=k.MUTED, anchor="ra")
    cy = y + 40
    for e in ev["revealed"]:
        is_current = e is current
        icons: list[tuple[str, str, str]] = []
        for kind in ("variety", "regular", "complex"):
            n = e["customers"].get(kind, 0)
            if n:
                icons.append((f"{k.TYPE_LETTER[kind]}×{n}", k.TYPE_FILL[kind], k.TYPE_EDGE[kind]))
        if e.get("goods"):
            icons.append((f"G+{e['goods']}", "#e8e8e8", "#4d4d4d"))
        iw = 46 * len(icons)
        c.text(x + 12, cy + 12, c.fit(e["name"], BODY if is_current else SMALL, is_current, w - 30 - iw), BODY if is_current else SMALL, bold=is_current, anchor="lm")
        ix = x + w - 12 - iw
        for label, fill, edge in icons:
            c.box(ix, cy + 1, ix + 42, cy + 23, fill=fill, outline=edge, radius=4)
            c.text(ix + 21, cy + 12, label, SMALL, bold=True, anchor="mm")
            ix += 46
        cy += 30
    for line in text:
        c.text(x + 12, cy, line, SMALL, fill=k.MUTED)
        cy += 18
    return h


def corporation(c: Canvas, view: dict[str, Any], seat: str, x: float, y: float, w: float) -> float:
    p = view["players"][seat]
    share = view.get("share", {}).get(seat)
    sold = view.get("last_sold", {}).get(seat)
    lines: list[tuple[str, str]] = []
    top = y
    c.token(x + 10, y + 10, 34, p["colour"])
    name = f"{p['company']} · {k.player_name(view, seat)}"  # which company is whose
    c.text(x + 52, y + 10, c.fit(name, LARGE, True, w - 60), LARGE, bold=True)
    c.text(x + 52, y + 36, f"${p['money']} money · price {p['price']}", BODY)
    if view.get("phase") == "planning" and not p["steve"]:
        sealed = bool(p.get("sealed"))
        c.text(x + w - 12, y + 14, "plan sealed ✓" if sealed else "planning…", BODY, bold=True, fill=k.GOOD if sealed else k.ACCENT, anchor="ra")
    y += 66
    stats = [
        f"Goods {p['goods']}",
        f"net profit {p['net']}",
        f"Progress {p['progress']}",
    ]
    c.text(x + 12, y, " · ".join(stats), BODY, bold=True)
    y += 24
    o = p.get("outcome")
    if o and view.get("phase") != "planning":
        plan = f"plan: price {o['up'] - o['down']:+d} · {o['tech']} Tech · {o['mkt']} Mkt · {o['prod'] + o['covered']} Goods"
        c.text(x + 12, y, plan, SMALL)
        y += 20
    if share is not None or sold is not None:
        c.text(x + 12, y, f"last Sales: sold {sold or 0}" + (f", market share ${share}" if share else ""), SMALL, fill=k.MUTED)
        y += 20
    if p["sales"]:
        c.text(x + 12, y, f"sales pile: {len(p['sales'])} Customer{'s' if len(p['sales']) > 1 else ''}", SMALL, fill=k.MUTED)
        y += 20
    # product slots
    product = p.get("product") or {}
    placed = (product.get("slots") or {}) if product else {}
    feats = {f["id"]: f for f in p["features"]}
    slots = p.get("slots") or []
    if slots:
        c.text(x + 12, y, "Product", SMALL, bold=True)
        y += 20
        sw = (w - 24) / max(3, len(slots))
        for i, slot in enumerate(slots):
            sx = x + 12 + i * sw
            fid = placed.get(slot)
            c.box(sx, y, sx + sw - 4, y + 28, fill="#f1efe9" if fid is None else "#e7f1e7", outline=k.PANEL_EDGE, radius=4)
            techs = {t["id"]: t["name"] for t in p["techs"]}
            label = f"slot {slot}" if slot in ("1", "2", "3") else f"on {techs.get(slot, 'a card')}"
            if fid is not None:
                f = feats.get(fid)
                label = k.feature_text(f) if f else "Feature"
            c.text(sx + 5, y + 14, c.fit(label, SMALL, fid is not None, sw - 12), SMALL, bold=fid is not None, anchor="lm")
        y += 34
    hand = [f for f in p["features"] if f["id"] not in placed.values()]
    if hand:
        lines.append(("Features", ", ".join(k.feature_text(f) for f in hand)))
    if p["techs"]:
        lines.append(("Technology", ", ".join(t["name"] for t in p["techs"])))
    if p["campaigns"]:
        lines.append(("Marketing", ", ".join(m["name"] for m in p["campaigns"])))
    for title, body in lines:
        wrapped = c.wrap(f"{title}: {body}", SMALL, False, w - 24)[:3]
        for line in wrapped:
            c.text(x + 12, y, line, SMALL)
            y += 19
    if p["private"]:
        c.text(x + 12, y, "Private Customers", SMALL, bold=True)
        y += 20
        cw = (w - 24) / 3
        for i, cust in enumerate(p["private"][:9]):
            customer_card(c, x + 12 + (i % 3) * cw, y + (i // 3) * 32, cw - 4, cust, h=28)
        y += ((min(len(p["private"]), 9) + 2) // 3) * 32
    return y + 8 - top


def rows_text(rows: dict[str, Any], round_no: int = 1) -> str:
    """Steve Jr.'s revealed card: the phase rows he follows this round (his Goods as
    the card's base plus its number per round, worked out for ``round_no``)."""
    bits = []
    if "price" in rows:
        bits.append(f"price {rows['price']}")
    tech = rows.get("technology") or {}
    if tech:
        bits.append(f"discards Technology ({tech.get('technology', '-')}) + {tech.get('features', 0)} Feature")
    mkt = rows.get("marketing") or {}
    if mkt:
        cust = "".join(k.TYPE_LETTER.get(t, "?") for t in mkt.get("customers", []))
        bits.append(f"discards {mkt.get('campaigns', 0)} Marketing, Customers {cust or '-'}")
    prod = rows.get("production") or {}
    if prod:
        base, per = int(prod.get("base", 0)), int(prod.get("round", 0))
        more = f" ({base} + {per} × round {round_no})" if per else ""
        bits.append(f"Goods {base + per * round_no}{more} + Event Goods")
    sales = rows.get("sales") or {}
    if sales:
        bits.append(f"sells with {sales.get('features', 0)} features")
    return "This round: " + " · ".join(bits)


def steve_panel(c: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    sj = view.get("steve")
    if not sj:
        return 0
    top = y
    c.text(x + 12, y + 4, f"Steve Jr.'s cards ({sj['deck']} face down)", SMALL, bold=True)
    y += 24
    current = next((card for card in sj["stack"] if card.get("rows")), None)
    if current is not None:
        for line in c.wrap(rows_text(current["rows"], int(view.get("round") or 1)), SMALL, True, w - 24)[:3]:
            c.text(x + 12, y, line, SMALL, bold=True)
            y += 19
    for card in sj["stack"]:
        feats = "; ".join(k.feature_text(f) + (f" cost {f['cost']}" if f.get("cost") else "") for f in card["features"])
        for line in c.wrap(f"{feats} — {card['text']}", SMALL, False, w - 24)[:2]:
            c.text(x + 12, y, line, SMALL)
            y += 19
    return y - top


def corporations(c: Canvas, view: dict[str, Any], y: float) -> float:
    seats = list(view["seats"])
    n = len(seats)
    per_row = 2 if n > 1 else 1
    w = (WIDTH - 2 * M - (per_row - 1) * 10) / per_row
    for r in range(0, n, per_row):
        row = seats[r : r + per_row]
        # white panels drawn tall, their content measured while drawn, then cut to size
        tall = 1400
        heights = []
        for i, seat in enumerate(row):
            x = M + i * (w + 10)
            c.box(x, y, x + w, y + tall, fill=k.PANEL)
            with c.tag(seat, "company"):
                hh = corporation(c, view, seat, x, y, w)
            if view["players"][seat]["steve"]:
                hh += steve_panel(c, view, x, y + hh, w)
            heights.append(hh)
        h = max(heights)
        c.box(M, y + h + 1, WIDTH, y + tall + 1, fill=k.BG)
        for i in range(len(row)):
            x = M + i * (w + 10)
            c.box(x, y, x + w, y + h, outline=k.PANEL_EDGE, radius=8)
        y += h + 10
    return y


def footer(c: Canvas, view: dict[str, Any], y: float) -> float:
    result = view.get("result")
    if result:
        names = {s: k.player_name(view, s) for s in view["seats"]}
        text = "Final: " + " · ".join(f"{r['rank']}. {names.get(r['seat'], '?')} ${r['money']}" for r in result["scores"])
        c.text(M, y, text, LARGE, bold=True)
        return y + 34
    order = " → ".join(k.player_name(view, s) for s in view.get("order", []))
    c.text(M, y, f"Turn order: {order}", BODY)
    c.text(WIDTH - M, y, "R Regular · C Complex · V Variety-seeking · ★ Stars · $ cost icon · G Goods", SMALL, fill=k.MUTED, anchor="ra")
    return y + 30


def draw(view: dict[str, Any]) -> Image.Image:
    return kit.drawn_to_fit(("mm-board", len(view.get("seats") or ())), 3000, lambda height: _draw(view, height))


def _draw(view: dict[str, Any], height: int) -> Image.Image:
    c = Canvas(WIDTH, height, k.BG)
    y = header(c, view, 0)
    y = price_track(c, view, y + 4)
    top = y
    y = displays(c, view, y)
    ex = M + (WIDTH - 2 * M) * 0.66 + 10
    y = top + events(c, view, ex, top, WIDTH - M - ex, y - top)
    y = corporations(c, view, y + 10)
    y = footer(c, view, y + 4)
    return c.finish(int(y + 6))
