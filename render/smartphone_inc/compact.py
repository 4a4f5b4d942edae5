"""The compact picture: what one decision needs, readable on a phone.

Discord shows a picture about 400 px wide on a phone. The full pictures are 1200 px
wide, so their 15-17 px text shrinks to 5-6 px there. This picture is :data:`WIDTH`
px wide (shown at about 0.6x) and no text in it is smaller than :data:`SMALL` px: the
glyphs of "Hg" are at least 20 px high, about 13 px on the phone. It shows only what
the seat's prompt is about:

* Planning: the seat's four Pad sides and its Improvements, large, with a legend;
* Improve: the Block, each tile with its symbols named;
* Research: each Technology open to the seat with its cost, the seat's progress,
  the Patent and who else researches it;
* Logistics: each region in reach with the seat's progress, its Office spaces and
  Buyers;
* Selling: the order companies sell in (by price) and each region with Buyers left;
* Wi-Fi, NFC, Gamepad and the Retailer bonuses: the regions, Technologies or
  numbers of that choice.

Like every picture, it reads only the seat's own view (and the static component data):
nothing of another seat's secret can reach it.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from engine.smartphone_inc.data import (
    REGION_ORDER,
    REGIONS,
    RETAILERS,
    TECH_ORDER,
    TECHS,
)
from render import kit
from render.smartphone_inc import pads as padview
from render.smartphone_inc import prompts, techs
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas, ceo_image, marketing_image

WIDTH = 640
MARGIN = 16
INNER = WIDTH - 2 * MARGIN
GAP = 12  # between cards
COL_W = (INNER - GAP) // 2  # a card in two columns

SMALL = 22  # the smallest text anywhere in the picture ("Hg" is 22 px high)
BODY = 25
LARGE = 29
TITLE = 34
TOKEN = 36  # the smallest company token (its letter is 0.62 x 36 = 22 px)

LEGEND = (
    ("down", "Price −1"),
    ("up", "Price +1"),
    ("prod", "Production: 1 Goods"),
    ("improve", "Improve: 1 Improvement"),
    ("research", "Research: 1 Progress"),
    ("logistics", "Logistics: 1 Progress"),
)


class CompactCanvas(Canvas):
    """A canvas that remembers the text sizes it drew (the tests check the smallest)."""

    min_text = SMALL  # pieces that label themselves skip a label smaller than this

    def __init__(self, width: int, height: int) -> None:
        super().__init__(width, height)
        self.sizes: set[int] = set()
        self.height = height

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: int = BODY,
        bold: bool = False,
        fill: str = t.INK,
        anchor: str = "la",
    ) -> float:
        if s.strip():
            self.sizes.add(size)
        return super().text(x, y, s, size, bold, fill, anchor)

    def token(self, x: float, y: float, size: int, colour: str) -> None:
        self.sizes.add(round(size * 0.62))  # the letter on the token
        super().token(x, y, size, colour)

    def lines(
        self, x: float, y: float, s: str, size: int, w: float, bold: bool = False, fill: str = t.INK
    ) -> float:
        """``s`` wrapped to ``w``; returns the y below the last line."""
        for line in self.wrap(s, size, bold, w):
            self.text(x, y, line, size, bold, fill)
            y += size + 8
        return y


# --- names -------------------------------------------------------------------------------


def _region(rid: str) -> str:
    return str(REGIONS[rid]["name"]) if rid in REGIONS else str(rid)


def _tech(tid: str) -> str:
    return str(TECHS[tid]["name"]) if tid in TECHS else str(tid)


def willing(me: dict[str, Any], buyer: dict[str, Any]) -> bool:
    """Would this Buyer buy from the seat: it pays the seat's price or more, or it wants a
    Technology the seat has (the rule of SI-SELL-03/04, read from the view)."""
    ok = "price" in buyer and int(me["price"]) <= int(buyer["price"])
    return ok or ("tech" in buyer and buyer["tech"] in me.get("techs", []))


improvement_words = padview.improvement_words


# --- the picture ---------------------------------------------------------------------------


def render(
    view: dict[str, Any], prompt: dict[str, Any] | None = None, room: int = 2000
) -> CompactCanvas:
    """Draw the compact picture of ``view`` (a seat's view) for ``prompt`` (by default the
    view's own prompt) on a canvas; ``cv.height`` is the height used. The canvas is
    ``room`` px high (a small canvas is quicker to fill), drawn again higher if needed."""
    seat = view.get("you")
    if seat is None or seat not in view["players"]:
        raise ValueError("a compact picture needs a seat's private view")
    if prompt is None:
        prompt = view.get("prompt")
    if prompt is not None and prompt is not view.get("prompt"):
        view = {**view, "prompt": prompt}
    cv = CompactCanvas(WIDTH, room)
    y = header(cv, view, seat)
    y = headline(cv, view, MARGIN, y + 12, INNER) + 14
    kind = (prompt or {}).get("type")
    section = SECTIONS.get(str(kind))
    if section is not None:
        y = section(cv, view, seat, prompt or {}, MARGIN, y, INNER)
    elif prompt:
        y = other(cv, view, seat, prompt, MARGIN, y, INNER)
    else:
        y = waiting(cv, view, seat, MARGIN, y, INNER)
    cv.height = int(y + MARGIN)
    if cv.height > room:
        return render(view, prompt, cv.height)
    return cv


def header(cv: CompactCanvas, view: dict[str, Any], seat: str) -> float:
    """A dark band: the company, the round and phase, VP / Price / Goods."""
    me = view["players"][seat]
    h = 104
    cv.box(0, 0, WIDTH, h, fill=t.HEADER)
    cv.token(MARGIN, 14, 44, me["colour"])
    name = cv.fit(kit.player_name(view, seat), LARGE, True, 240)
    cv.text(MARGIN + 54, 16, name, LARGE, bold=True, fill=t.HEADER_INK)
    rnd = int(view.get("round", 1))
    pn = view.get("phase_number")
    phase = f"{pn} {t.PHASE_SHORT[pn - 1]}" if isinstance(pn, int) and 0 < pn <= 8 else "over"
    if view.get("phase") == "start":  # the 2-3 player board's start decisions
        phase = "start"
    cv.text(MARGIN, 66, f"Round {rnd} · Phase {phase}", SMALL, fill="#c9d5e2")  # "round 1", as the texts say
    stats = (("VP", me["vp"]), ("Price", me["price"]), ("Goods", me["goods"]))
    sw = 86
    for i, (label, value) in enumerate(stats):
        cx = WIDTH - MARGIN - (len(stats) - i) * sw + sw / 2
        cv.text(cx, 12, label, SMALL, fill="#c9d5e2", anchor="ma")
        cv.text(cx, 44, str(value), TITLE, bold=True, fill=t.HEADER_INK, anchor="ma")
    return h


def headline(cv: CompactCanvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    text, mine = prompts.headline_text(view)
    if text.startswith("Your move: "):
        text = text[len("Your move: ") :]
        text = text[:1].upper() + text[1:]
    lines = cv.wrap(text, BODY, mine, w - 28)
    h = 20 + len(lines) * (BODY + 8)
    if mine:
        cv.box(x, y, x + w, y + h, fill="#fdf1d6", outline=t.ACCENT, width=3, radius=8)
    yy = y + 10
    for line in lines:
        cv.text(x + 14, yy, line, BODY, bold=mine)
        yy += BODY + 8
    return y + h


def title(cv: CompactCanvas, x: float, y: float, s: str, note: str = "", w: float = INNER) -> float:
    """A section title with an optional note under it; returns the y below."""
    cv.text(x, y, s, LARGE, bold=True)
    y += LARGE + 10
    if note:
        y = cv.lines(x, y, note, SMALL, w, fill=t.MUTED) + 2
    return y


def card(cv: CompactCanvas, x: float, y: float, w: float, h: float, good: bool = False) -> None:
    cv.box(
        x, y, x + w, y + h,
        fill=t.PANEL,
        outline=t.GOOD if good else t.PANEL_EDGE,
        width=4 if good else 2,
        radius=10,
    )


def grid_of(
    cv: CompactCanvas,
    items: list[Any],
    x: float,
    y: float,
    w: float,
    draw_one: Any,
    height_of: Any,
    columns: int = 2,
) -> float:
    """Cards in ``columns`` columns, each row as high as its highest card."""
    col_w = (w - (columns - 1) * GAP) / columns
    for r in range(0, len(items), columns):
        row = items[r : r + columns]
        h = max(height_of(item, col_w) for item in row)
        for i, item in enumerate(row):
            draw_one(item, x + i * (col_w + GAP), y, col_w, h)
        y += h + GAP
    return y


def progress_boxes(
    cv: CompactCanvas, x: float, y: float, have: int, cost: int, fill: str, size: int = 26
) -> float:
    """``cost`` boxes, ``have`` of them filled; returns the x after them."""
    for i in range(cost):
        bx = x + i * (size + 5)
        if i < have:
            cv.box(bx, y, bx + size, y + size, fill=fill, radius=5)
        else:
            cv.box(bx, y, bx + size, y + size, fill="#ffffff", outline="#8d8676", width=2, radius=5)
    return x + cost * (size + 5)


# --- Planning ------------------------------------------------------------------------------


def planning(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    me = view["players"][seat]
    y = title(cv, x, y, "Your Pads", "Both sides of each Pad. One goes on the table, the other on top of it.")
    cell = 84
    side_w, side_h = 3 * cell, 2 * cell
    gap = w - 2 * side_w
    for i, (pad, side) in enumerate((("A", 0), ("A", 1), ("B", 0), ("B", 1))):
        px = x + (i % 2) * (side_w + gap)
        py = y + (i // 2) * (side_h + 50)
        padview.draw_pad_side(cv, pad, side, px, py, cell)
        cv.text(px + side_w / 2, py + side_h + 8, f"Pad {pad}, side {side + 1}", BODY, bold=True, anchor="ma")
    y += 2 * (side_h + 50) + 8
    owned = list(prompt.get("improvements", me.get("improvements", [])))
    y = title(cv, x, y, f"Your Improvements ({len(owned)})", "Each one on your Pads adds its symbols; face down it gives +1 Goods.")
    if not owned:
        cv.text(x, y, "none yet", BODY, fill=t.MUTED)
        y += BODY + 16
    cell = 62
    col_w = (w - GAP) / 2
    for i, imp in enumerate(owned):
        ix = x + (i % 2) * (col_w + GAP)
        iy = y + (i // 2) * (cell + 22)
        padview.draw_domino(cv, imp, ix, iy, cell)
        words = improvement_words(imp).replace(" + ", " +\n").split("\n")
        if imp.startswith("S-"):
            words[-1] += " (start)"
        ty = iy + cell / 2 - len(words) * (SMALL + 6) / 2
        for line in words:
            cv.text(ix + 2 * cell + 10, ty, cv.fit(line, SMALL, False, col_w - 2 * cell - 12), SMALL)
            ty += SMALL + 6
    if owned:
        y += ((len(owned) + 1) // 2) * (cell + 22) + 4
    effects = [
        f"{techs.name(view, tech)}: {techs.effect_text(tech, int(view['techs'].get(tech, {}).get('side', 0)))}"
        for tech in me.get("techs", [])
        if tech in TECHS
    ]
    if effects:
        y = title(cv, x, y + 4, "Your Technologies")
        for e in effects:
            y = cv.lines(x, y, e, SMALL, w) + 4
    return legend(cv, x, y + 8, w)


def legend(cv: CompactCanvas, x: float, y: float, w: float) -> float:
    y = title(cv, x, y, "Symbols")
    col_w = w / 2
    for i, (sym, label) in enumerate(LEGEND):
        lx = x + (i % 2) * col_w
        ly = y + (i // 2) * 48
        cv.icon(lx, ly, 40, sym)
        cv.text(lx + 50, ly + 20, cv.fit(label, SMALL, False, col_w - 56), SMALL, anchor="lm")
    return y + 3 * 48


# --- Improve -------------------------------------------------------------------------------


def improvement(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    block = list(prompt.get("block", []))
    y = title(cv, x, y, "The Improvement Block", "Take one. It joins your Pads from the next Planning.")
    cell = 84

    def one(item: tuple[int, str], cx: float, cy: float, cw: float, ch: float) -> None:
        i, imp = item
        card(cv, cx, cy, cw, ch)
        cv.text(cx + 12, cy + 10, f"{i + 1}.", BODY, bold=True, fill=t.MUTED)
        padview.draw_domino(cv, imp, cx + (cw - 2 * cell) / 2, cy + 14, cell)
        cv.lines(cx + 12, cy + 24 + cell, improvement_words(imp), SMALL, cw - 24, bold=True)

    def height(item: tuple[int, str], cw: float) -> float:
        n = len(cv.wrap(improvement_words(item[1]), SMALL, True, cw - 24))
        return 24 + cell + n * (SMALL + 8) + 12

    y = grid_of(cv, list(enumerate(block)), x, y, w, one, height)
    owned = list(view["players"][seat].get("improvements", []))
    y = title(cv, x, y + 4, f"Your Improvements ({len(owned)})")
    cell2 = 44
    per_row = max(1, int((w + 12) // (2 * cell2 + 12)))
    for i, imp in enumerate(owned):
        padview.draw_domino(
            cv, imp, x + (i % per_row) * (2 * cell2 + 12), y + (i // per_row) * (cell2 + 12), cell2
        )
    if owned:
        y += ((len(owned) + per_row - 1) // per_row) * (cell2 + 12)
    return y


# --- Research ------------------------------------------------------------------------------


def _to_place(prompt: dict[str, Any]) -> tuple[int, dict[str, int], str]:
    """(markers, what each Technology or region still needs, "N Progress markers to
    place.") of a Research or Logistics prompt."""
    markers = int(prompt.get("markers", 0))
    return markers, dict(prompt.get("needed", {})), f"{markers} Progress marker{'' if markers == 1 else 's'} to place."


def research(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    markers, needed, placing = _to_place(prompt)
    y = title(
        cv, x, y, "Technologies you can research",
        f"{placing} Cost: the Progress you need (+1 while the Patent "
        "is open). ✓ and a green frame: you can finish it now.",
    )
    y = tech_cards(cv, view, seat, [k for k, _ in t.ordered(needed, TECH_ORDER)], needed, markers, x, y, w)
    places = list(prompt.get("token", []))
    if places:  # NFC Marketing (Update 1.1)
        y = title(
            cv, x, y + 4, "Or your Marketing Token (1 marker)",
            "On the leftmost or rightmost empty Buyer; only you will sell to it. " + REGION_NOTE,
        )
        by_region: dict[str, list[int]] = {}
        for r, i in places:
            by_region.setdefault(str(r), []).append(int(i) + 1)
        rows = [(r, "Buyer " + " or ".join(str(i) for i in sorted(n)), True) for r, n in by_region.items()]
        y = region_cards(cv, view, seat, rows, x, y, w)
    return y


def tech_cards(
    cv: CompactCanvas,
    view: dict[str, Any],
    seat: str,
    tech_ids: list[str],
    needed: dict[str, int],
    markers: int,
    x: float,
    y: float,
    w: float,
) -> float:
    players = view["players"]
    me = players[seat]

    def others(tech: str) -> list[tuple[str, str]]:
        out = []
        for s in view["seats"]:
            p = players[s]
            if s == seat:
                continue
            if tech in p.get("techs", []):
                out.append((p["colour"], "has it"))
            elif p.get("research", {}).get(tech):
                out.append((p["colour"], f"{p['research'][tech]}/{p.get('costs', {}).get(tech, '?')}"))
        return out

    def effect(tech: str) -> str:
        return techs.effect_text(tech, int(view["techs"].get(tech, {}).get("side", 0)))

    def height(tech: str, cw: float) -> float:
        n = len(cv.wrap(effect(tech), SMALL, False, cw - 24))
        rows = 1 if others(tech) else 0
        return 12 + LARGE + 12 + 30 + 12 + (SMALL + 8) + 12 + rows * (TOKEN + 8) + n * (SMALL + 8) + 10

    def one(tech: str, cx: float, cy: float, cw: float, ch: float) -> None:
        have = int(me.get("research", {}).get(tech, 0))
        need = int(needed.get(tech, me.get("costs", {}).get(tech, 0) - have))
        cost = have + need
        can = 0 < need <= markers
        card(cv, cx, cy, cw, ch, good=can)
        yy = cy + 12
        cv.text(cx + 12, yy, cv.fit(techs.name(view, tech), LARGE, True, cw - 130), LARGE, bold=True, fill=t.BUYER_TECH)
        cv.text(cx + cw - 12, yy + 4, f"cost {cost}", BODY, bold=True, anchor="ra")
        yy += LARGE + 12
        label = f"{need} more" + (" ✓" if can else "")
        room = cw - 24 - cv.measure(label, BODY, can) - 8
        size = int(max(12, min(26, room / max(1, cost) - 5)))
        bx = progress_boxes(cv, cx + 12, yy + 2 + (26 - size) / 2, have, cost, t.BUYER_TECH, size)
        cv.text(bx + 6, yy + 15, label, BODY, bold=can, fill=t.GOOD if can else t.INK, anchor="lm")
        yy += 30 + 12
        holder = view["techs"].get(tech, {}).get("patent")
        vp = techs.patent_vp(view, tech) if tech in TECHS else "?"
        if holder is None:
            cv.text(cx + 12, yy, f"Patent {vp} VP: open", SMALL, bold=True, fill=t.GOOD)
        else:
            label = f"Patent {vp} VP: "
            lw = cv.text(cx + 12, yy, label, SMALL, bold=True)
            who = "you" if holder == seat else kit.player_name(view, holder)
            cv.text(cx + 12 + lw, yy, cv.fit(who, SMALL, True, cw - 36 - lw), SMALL, bold=True, fill=t.MUTED)
        yy += SMALL + 8 + 12
        rivals = others(tech)
        if rivals:
            ox = cx + 12
            for colour, label in rivals:
                lw = cv.measure(label, SMALL, True)
                if ox + TOKEN + lw > cx + cw - 8:
                    break
                cv.token(ox, yy, TOKEN, colour)
                cv.text(ox + TOKEN + 4, yy + TOKEN / 2, label, SMALL, bold=True, anchor="lm")
                ox += TOKEN + lw + 14
            yy += TOKEN + 8
        cv.lines(cx + 12, yy, effect(tech), SMALL, cw - 24)

    return grid_of(cv, tech_ids, x, y, w, one, height)


# --- regions (Logistics, Selling, Wi-Fi, Gamepad, Retailer bonuses) ------------------------

SLOT = 46  # an Office space, and a Buyer (as high, as wide or wider)
STEP = 52
REGION_NOTE = (
    "Over each Office space: the VP for control (1st/2nd). Buyers: the most each pays; "
    "pale ones will not buy from you."
)


def buyer_width(cv: CompactCanvas, buyer: dict[str, Any]) -> float:
    tech = buyer.get("tech")
    if not tech:
        return SLOT
    tw = cv.measure(_tech(tech), SMALL, True) + 12
    if buyer.get("price") is not None:  # a mixed Buyer: price and Technology side by side
        return SLOT - 10 + tw
    return max(SLOT, tw)


def region_cards(
    cv: CompactCanvas,
    view: dict[str, Any],
    seat: str,
    rows: list[tuple[str, str, bool]],
    x: float,
    y: float,
    w: float,
    *,
    progress: dict[str, int] | None = None,
    markers: int = 0,
) -> float:
    """One card per region, full width: (region, note, good). It shows the Office spaces
    (with the VP for control over each) and the Offices, and the Buyers left to right
    (a sold one carries the seller's token, one that would not buy from you is pale);
    with ``progress`` (region -> markers still needed) the seat's Logistics progress."""
    for row in rows:
        y = region_card(cv, view, seat, row, x, y, w, progress, markers) + GAP
    return y


def region_card(
    cv: CompactCanvas,
    view: dict[str, Any],
    seat: str,
    row: tuple[str, str, bool],
    x: float,
    y: float,
    w: float,
    progress: dict[str, int] | None,
    markers: int,
) -> float:
    rid, note, good = row
    players = view["players"]
    colour = {s: p["colour"] for s, p in players.items()}
    data = REGIONS[rid]
    state = view["regions"][rid]
    retailer = state.get("retailer")
    h = 12 + LARGE + 10 + (40 if progress is not None else 0) + SMALL + 4 + SLOT + 14
    card(cv, x, y, w, h, good=good)
    yy = y + 12
    nw = cv.text(x + 14, yy, data["name"], LARGE, bold=True)
    bx = x + 14 + nw + 8
    cv.box(bx, yy + 2, bx + 30, yy + 32, fill=t.HEADER, radius=5)
    cv.text(bx + 15, yy + 17, data["size"], SMALL, bold=True, fill=t.HEADER_INK, anchor="mm")
    ceos = [s for s in view["seats"] if (view.get("ceo") or {}).get(s) == rid]
    for i, s in enumerate(ceos):  # CEO figures (Update 1.1), letters 22 px
        cv.paste(ceo_image(colour.get(s) or "grey", 44), bx + 40 + i * 34, yy - 6)
        cv.sizes.add(22)
    bx += len(ceos) * 34 + (6 if ceos else 0)
    if note:
        room = x + w - 14 - (bx + 44)
        cv.text(x + w - 14, yy + 17, cv.fit(note, BODY, True, room), BODY, bold=True,
                fill=t.GOOD if good else t.INK, anchor="rm")
    yy += LARGE + 10
    if progress is not None:
        need = int(progress.get(rid, 0))
        cost = int(data["cost"])
        ex = progress_boxes(cv, x + 14, yy + 2, max(0, cost - need), cost, t.RETAILER, 28)
        can = 0 < need <= markers
        cv.text(ex + 8, yy + 16, f"{need} more" + (": Office now ✓" if can else " for an Office"), BODY,
                bold=can, fill=t.GOOD if can else t.INK, anchor="lm")
        yy += 40
    offices = list(state.get("offices", []))
    if retailer is not None:
        side = RETAILERS[retailer["id"]]["sides"][retailer["side"]]
        spaces = [str(v) for v in side["vp"]]
        paying = -1
    else:
        spaces = [f"{s['vp']}/{s['vp2']}" if s.get("vp2") else str(s["vp"]) for s in data["spaces"]]
        paying = len(offices) - 1
    sx0 = x + 14
    for i, label in enumerate(spaces):
        sx = sx0 + i * STEP
        cv.text(sx + SLOT / 2, yy, label, SMALL, bold=i == paying,
                fill=t.BUYER_PRICE if i == paying else t.MUTED, anchor="ma")
        edge, width = (t.ACCENT, 4) if i == paying else ("#b5ad9c", 2)
        top = yy + SMALL + 4
        cv.box(sx, top, sx + SLOT, top + SLOT, fill=t.SLOT, outline=edge, width=width, radius=6)
        if i < len(offices):
            cv.token(sx + (SLOT - 38) / 2, top + (SLOT - 38) / 2, 38, colour.get(offices[i], "grey"))
    bx0 = max(sx0 + 4 * STEP + 6, x + w * 0.42)
    if retailer is not None:
        side = RETAILERS[retailer["id"]]["sides"][retailer["side"]]
        ty = yy
        for line in cv.wrap("Retailer: no sales; " + t.bonus_text(side["bonus"]), SMALL, False, x + w - 14 - bx0)[:3]:
            cv.text(bx0, ty, line, SMALL, fill=t.RETAILER)
            ty += SMALL + 4
        return y + h
    sold = list(state.get("sold", []))
    free = sum(1 for i in range(len(data["buyers"])) if i >= len(sold) or sold[i] is None)
    cv.text(bx0, yy, f"Buyers: {free} left", SMALL, fill=t.MUTED)
    top = yy + SMALL + 4
    me = players[seat]
    tokens = ((view.get("marketing") or {}).get(rid)) or {}
    bx = bx0
    for i, buyer in enumerate(data["buyers"]):
        bw = buyer_width(cv, buyer)
        who = sold[i] if i < len(sold) else None
        owner = tokens.get(str(i))
        tech = buyer.get("tech")
        base = t.BUYER_TECH if tech and buyer.get("price") is None else t.BUYER_PRICE
        if who is not None:
            cv.box(bx, top, bx + bw, top + SLOT, fill="#ffffff", outline=base, width=3, radius=6)
            cv.token(bx + (bw - 38) / 2, top + (SLOT - 38) / 2, 38, colour.get(who, "grey"))
        elif owner is not None:  # a Marketing Token: only its company sells here
            cv.box(bx, top, bx + bw, top + SLOT, fill=t.SLOT, outline=t.INK, width=2, radius=6)
            cv.paste(marketing_image(colour.get(owner) or "grey", 44), bx + (bw - 44) / 2, top + 1)
            cv.sizes.add(round(44 * 0.5))  # the letter on the diamond
        else:
            compact_buyer(cv, buyer, bx, top, bw, willing(me, buyer))
        bx += bw + 6
    return y + h


def compact_buyer(cv: CompactCanvas, buyer: dict[str, Any], x: float, y: float, w: float, ok: bool) -> None:
    """An empty Buyer: red with the price it pays at most, purple with the Technology it
    wants; a mixed Buyer is one box with both, price on the left (it buys if either is
    met). Pale when it would not buy from the seat."""
    tech, price = buyer.get("tech"), buyer.get("price")
    parts: list[tuple[str, str, float, int]] = []
    if price is not None:
        parts.append((str(price), t.BUYER_PRICE, SLOT - 10 if tech else w, LARGE))
    if tech:
        parts.append((_tech(tech), t.BUYER_TECH, w - (SLOT - 10 if price is not None else 0), SMALL))
    if ok:
        cv.box(x, y, x + w, y + SLOT, fill=parts[-1][1], radius=6)
        if len(parts) == 2:  # the price half, squared where it meets the Technology half
            pw = parts[0][2]
            cv.box(x, y, x + pw, y + SLOT, fill=parts[0][1], radius=6)
            cv.box(x + pw - 8, y, x + pw, y + SLOT, fill=parts[0][1])
            cv.d.line((x + pw, y + 4, x + pw, y + SLOT - 4), fill="#ffffff", width=2)
        ink = "#ffffff"
    else:  # would not buy from you: pale
        cv.box(x, y, x + w, y + SLOT, fill="#f4eeee", outline="#d9c9c9", width=2, radius=6)
        if len(parts) == 2:
            pw = parts[0][2]
            cv.d.line((x + pw, y + 6, x + pw, y + SLOT - 6), fill="#d9c9c9", width=2)
        ink = "#b9a7a7"
    px = x
    for label, _fill, pw, size in parts:
        cv.text(px + pw / 2, y + SLOT / 2, label, size, bold=True, fill=ink, anchor="mm")
        px += pw


def logistics(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    markers, needed, placing = _to_place(prompt)
    y = title(cv, x, y, "Regions you can reach", f"{placing} Boxes: your progress to an Office. {REGION_NOTE}")
    if "ceo" in prompt:  # CEO Technologies (Update 1.1)
        y = cv.lines(
            x, y, f"Or move your CEO from {_region(str(prompt['ceo']))} to any region: 1 marker.", BODY, w, bold=True
        ) + 8
    rows = [(rid, "", 0 < n <= markers) for rid, n in t.ordered(needed, REGION_ORDER)]
    return region_cards(cv, view, seat, rows, x, y, w, progress=needed, markers=markers)


def price_order(cv: CompactCanvas, view: dict[str, Any], seat: str, x: float, y: float, w: float) -> float:
    """The companies in turn order (the Price Block: lowest price first) with their prices."""
    y = title(cv, x, y, "Turn order by price", "Lowest price first. Each Goods sold scores its seller's price in VP.")
    order = list(view.get("priority") or view["seats"])
    ox = x
    for s in order:
        p = view["players"][s]
        mine = s == seat
        label = cv.fit(f"{'you' if mine else kit.player_name(view, s)} {p['price']}", BODY, mine, 150)
        lw = cv.measure(label, BODY, mine)
        if ox > x and ox + TOKEN + 6 + lw > x + w:
            ox = x
            y += TOKEN + 10
        cv.token(ox, y, TOKEN, p["colour"])
        cv.text(ox + TOKEN + 6, y + TOKEN / 2, label, BODY, bold=mine, anchor="lm")
        ox += TOKEN + lw + 26
    return y + TOKEN + 18


def selling(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    me = view["players"][seat]
    y = price_order(cv, view, seat, x, y, w)
    y = title(
        cv, x, y, "Where your Goods can go",
        f"Your price is {me['price']}. Goods go to the leftmost Buyer that will buy. {REGION_NOTE}",
    )
    rows = [(rid, f"sell up to {n}", True) for rid, n in t.ordered(prompt.get("regions", {}), REGION_ORDER)]
    rows += [(rid, "1 with 4G", False) for rid, _ in t.ordered(prompt.get("extra", {}), REGION_ORDER)]
    return region_cards(cv, view, seat, rows, x, y, w)


def wifi(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    y = title(cv, x, y, "A second Office in", f"Or skip. Never a third, never on a Retailer. {REGION_NOTE}")
    rows = [(rid, "", True) for rid in prompt.get("regions", [])]
    return region_cards(cv, view, seat, rows, x, y, w)


def gamepad_office(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    y = title(cv, x, y, "Small regions without your Office", REGION_NOTE)
    rows = [(rid, "", True) for rid in prompt.get("regions", [])]
    return region_cards(cv, view, seat, rows, x, y, w)


def nfc(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    n, price = int(prompt.get("max", 0)), int(prompt.get("price", 0))
    me = view["players"][seat]
    h = 150
    card(cv, x, y, w, h)
    cv.text(x + 16, y + 14, f"Sell 0 to {n} Goods off the map", LARGE, bold=True)
    cv.text(x + 16, y + 60, f"each scores {price} VP now: up to {n * price} VP", BODY, fill=t.GOOD, bold=True)
    cv.text(x + 16, y + 100, f"You have {me['goods']} Goods; the rest go to the Buyers.", SMALL, fill=t.MUTED)
    return y + h + GAP


def retailer_bonus(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    me = view["players"][seat]
    bonus = dict(prompt.get("bonus", {}))
    kind = bonus.get("kind")
    if kind == "progress":
        opts = [k for k in TECH_ORDER if k in prompt.get("techs", [])]
        costs = me.get("costs", {})
        have = me.get("research", {})
        needed = {k: int(costs.get(k, 0)) - int(have.get(k, 0)) for k in opts}
        y = title(cv, x, y, "Technologies", f"{bonus.get('n', 0)} Progress to place, or decline.")
        return tech_cards(cv, view, seat, opts, needed, int(bonus.get("n", 0)), x, y, w)
    if kind == "second_office":
        y = title(cv, x, y, "A second Office in", f"Or decline. {REGION_NOTE}")
        return region_cards(cv, view, seat, [(r, "", True) for r in prompt.get("regions", [])], x, y, w)
    if kind == "move_office":
        moves = list(prompt.get("moves", []))
        froms = sorted({a for a, _ in moves}, key=lambda r: REGION_ORDER.index(r) if r in REGION_ORDER else 99)
        y = title(cv, x, y, "Move one of your Offices", "From one of these regions (or decline):")
        rows = [(a, "", False) for a in froms]
        y = region_cards(cv, view, seat, rows, x, y, w)
        targets = sorted({b for _, b in moves}, key=lambda r: REGION_ORDER.index(r) if r in REGION_ORDER else 99)
        y = title(cv, x, y, "To one of")
        return cv.lines(x, y, ", ".join(_region(r) for r in targets) or "nowhere", BODY, w) + 4
    if kind == "price":
        y = price_order(cv, view, seat, x, y, w)
        p = int(me["price"])
        items = [f"Price {p} → {p + 1}"] + ([f"Price {p} → {p - 1}"] if p > 1 else []) + ["or decline"]
    elif kind == "goods":
        items = [f"+{bonus.get('n', 0)} Goods (you have {me['goods']})", "or decline"]
    else:
        items = ["decline"]
    for s in items:
        cv.text(x + 16, y, s, LARGE, bold=s != "or decline")
        y += LARGE + 14
    return y


# --- Update 1.1 decisions -------------------------------------------------------------------


def directive(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """Take a Directive whose goal the seat has just met, or decline."""
    lines = cv.wrap(str(prompt.get("goal", "")), BODY, False, w - 32)
    h = 24 + TITLE + 16 + len(lines) * (BODY + 8) + 16
    card(cv, x, y, w, h, good=True)
    cv.text(x + 16, y + 16, f"Directive {prompt.get('number')}", TITLE, bold=True)
    vp = f"{prompt.get('vp')} VP"
    vw = cv.measure(vp, LARGE, True) + 24
    cv.box(x + w - 16 - vw, y + 14, x + w - 16, y + 14 + LARGE + 14, fill=t.HEADER, radius=8)
    cv.text(x + w - 16 - vw / 2, y + 14 + (LARGE + 14) / 2, vp, LARGE, bold=True, fill=t.HEADER_INK, anchor="mm")
    yy = y + 24 + TITLE + 16
    for line in lines:
        cv.text(x + 16, yy, line, BODY)
        yy += BODY + 8
    y += h + GAP
    hard = bool((view.get("options") or {}).get("hardcore"))
    when = "at the end of the round (Hardcore)" if hard else "at the end of the game"
    y = cv.lines(x, y, f"Take it: it is flipped at the end of the round and scores {when}.", SMALL, w) + 4
    y = cv.lines(x, y, "Decline: you may take it in a later round if you meet its goal again.", SMALL, w, fill=t.MUTED)
    held = [c for c in view.get("directives") or [] if c.get("holder") == seat]
    if held:
        y = title(cv, x, y + 10, "Your Directives")
        for c in held:
            y = cv.lines(x, y, f"{c['number']}: {c['goal']} ({c['vp']} VP)", SMALL, w) + 4
    return y


def mini_upgrade(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """Choose one of the Mini-upgrades left (Blitz Li-Ion)."""
    choices = list(prompt.get("choices", {}))
    y = title(
        cv, x, y, "The Mini-upgrades left",
        "Take one. Place it on your Pads in Planning like an Improvement; unused, it makes no Goods.",
    )
    cell = 84

    def one(item: str, cx: float, cy: float, cw: float, ch: float) -> None:
        card(cv, cx, cy, cw, ch)
        padview.draw_domino(cv, item, cx + (cw - 2 * cell) / 2, cy + 14, cell)
        cv.lines(cx + 12, cy + 24 + cell, improvement_words(item), SMALL, cw - 24, bold=True)

    def height(item: str, cw: float) -> float:
        n = len(cv.wrap(improvement_words(item), SMALL, True, cw - 24))
        return 24 + cell + n * (SMALL + 8) + 12

    return grid_of(cv, choices, x, y, w, one, height)


def place_retailer(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """4G World: a region with the seat's Office, and an unused Retailer of its size."""
    regions = dict(prompt.get("regions", {}))
    y = title(cv, x, y, "Place a Retailer in", f"The Offices there move onto it; you gain its bonus. {REGION_NOTE}")
    for rid, ids in t.ordered(regions, REGION_ORDER):
        y = region_card(cv, view, seat, (rid, "", True), x, y, w, None, 0) + 6
        for ret in ids:
            for side in (0, 1):
                y = cv.lines(x + 14, y, "• " + prompts.retailer_words(ret, side), SMALL, w - 14) + 2
        y += GAP
    return y


def start_region(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """The 2-3 player board: a free medium region to start in."""
    y = title(cv, x, y, "Medium regions free to start in", f"Your first Office goes there. {REGION_NOTE}")
    return region_cards(cv, view, seat, [(r, "", True) for r in prompt.get("regions", [])], x, y, w)


def start_retailer(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """The 2-3 player board with 1-2 players: place the Retailer drawn."""
    words = prompts.retailer_words(str(prompt.get("retailer")), int(prompt.get("side", 0)))
    y = title(cv, x, y, "Free regions of its size", f"The Retailer: {words}. {REGION_NOTE}")
    return region_cards(cv, view, seat, [(r, "", True) for r in prompt.get("regions", [])], x, y, w)


def company(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """The 2-3 player board: choose a free company."""
    y = title(cv, x, y, "Free companies", "Your colour, your starting Improvement and your place on the VP track.")
    for colour in prompt.get("colours", []):
        cv.token(x, y, 56, colour)
        cv.text(x + 70, y + 28, f"{colour} ({t.COMPANY_LETTER.get(colour, '?')})", LARGE, bold=True, anchor="lm")
        y += 56 + 12
    return y


def ceo_sell(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """Wi-Fi CEO: sell in the region with the seat's Office and CEO."""
    rid = str(prompt.get("region"))
    n, price = int(prompt.get("max", 0)), int(prompt.get("price", 0))
    y = title(cv, x, y, f"Sell 0 to {n} Goods with your CEO", f"Each scores your price ({price}) in Phase 8. {REGION_NOTE}")
    return region_cards(cv, view, seat, [(rid, f"up to {n}", True)], x, y, w)


def second_sell(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """Gamepad Patent: second Goods on Buyers of the seat's patented Technologies."""
    y = title(cv, x, y, "Second Goods", f"You have {prompt.get('goods', 0)} Goods. Second Goods count for control. {REGION_NOTE}")
    rows = [(r, f"up to {n}", True) for r, n in t.ordered(prompt.get("regions", {}), REGION_ORDER)]
    return region_cards(cv, view, seat, rows, x, y, w)


def other(
    cv: CompactCanvas, view: dict[str, Any], seat: str, prompt: dict[str, Any], x: float, y: float, w: float
) -> float:
    """A prompt this picture has no section for: its choices as lines of text."""
    _, items = prompts._choices(view, prompt)
    for label, _style in items:
        y = cv.lines(x, y, label, BODY, w) + 6
    return y


def waiting(cv: CompactCanvas, view: dict[str, Any], seat: str, x: float, y: float, w: float) -> float:
    """Nothing to decide: the seat's sealed plan while the others plan, else nothing more."""
    outcome = view.get("my_plan_outcome")
    if outcome and outcome.get("grid"):
        y = title(cv, x, y, "Your sealed plan")
        grid = outcome["grid"]
        gw, gh = padview.grid_size(grid)
        cell = int(min(84, w / gw, 360 / gh))
        padview.draw_grid(cv, grid, x + (w - gw * cell) / 2, y, cell)
        y += gh * cell + 14
    return y


SECTIONS = {
    "plan": planning,
    "improvement": improvement,
    "research": research,
    "logistics": logistics,
    "sell": selling,
    "wifi": wifi,
    "gamepad_office": gamepad_office,
    "nfc": nfc,
    "retailer_bonus": retailer_bonus,
    "directive": directive,
    "mini_upgrade": mini_upgrade,
    "place_retailer": place_retailer,
    "start_region": start_region,
    "start_retailer": start_retailer,
    "company": company,
    "ceo_sell": ceo_sell,
    "second_sell": second_sell,
}


def draw_compact(view: dict[str, Any], prompt: dict[str, Any] | None = None) -> Image.Image:
    """The compact picture (a palette image at most :data:`WIDTH` px wide)."""
    cv = render(view, prompt)
    return cv.finish(cv.height)


__all__ = ["draw_compact", "render", "WIDTH", "SMALL"]
