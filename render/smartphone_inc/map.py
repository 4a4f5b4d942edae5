"""The world map: 12 regions on a 4 x 3 grid shaped like the world (or the 8 regions of
the Update 1.1 2-3 player board on a 4 x 2 grid), with their links, Office spaces
(control VP), Offices, Retailers, Buyers (mixed Buyers too), Goods sold and Logistics
progress."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.smartphone_inc.data import BOARD_REGIONS, REGIONS, RETAILERS
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas, ceo_image, marketing_image, token_image

COLS, ROWS = 4, 3
GRID: dict[str, tuple[int, int]] = {
    "canada": (0, 0),
    "europe": (1, 0),
    "cis": (2, 0),
    "china": (3, 0),
    "usa": (0, 1),
    "north-africa": (1, 1),
    "emirates": (2, 1),
    "india": (3, 1),
    "caribbean": (0, 2),
    "south-america": (1, 2),
    "rsa": (2, 2),
    "australia": (3, 2),
}
# The 2-3 player board (Update 1.1): West and East, two rows; the links that go round
# the world (Latin America - Oceania, Scandinavia - East Asia) run in a channel above
# or below the map.
SMALL_GRID: dict[str, tuple[int, int]] = {
    "north-america": (0, 0),
    "scandinavia": (1, 0),
    "middle-east": (2, 0),
    "east-asia": (3, 0),
    "latin-america": (0, 1),
    "africa": (1, 1),
    "south-asia": (2, 1),
    "oceania": (3, 1),
}
GRIDS = {"big": GRID, "small": SMALL_GRID}
WRAP = 22  # height of the channel above/below a board whose links go round the world
GAP = 26
CHANNEL = 16  # room right of the map for a link routed around a region
BOX_W = (t.WIDTH - 2 * t.MARGIN - CHANNEL - (COLS - 1) * GAP) // COLS
BOX_H = 176
SLOT_W, SLOT_H, SLOT_STEP = 44, 34, 50
BUYER_W, BUYER_H, BUYER_STEP = 46, 44, 50
CEO_H = 34  # a CEO figure (Update 1.1)

Rect = tuple[float, float, float, float]


def board_of(view: dict[str, Any]) -> str:
    """The board a view plays on ("big" or "small")."""
    board = str(view.get("board") or "big")
    return board if board in GRIDS else "big"


def grid_positions(board: str = "big") -> dict[str, tuple[int, int]]:
    """The board's grid, with any region it does not know appended on extra rows
    (data may grow)."""
    pos = dict(GRIDS.get(board, GRID))
    base_rows = max(y for _, y in pos.values()) + 1
    extra = [r for r in BOARD_REGIONS.get(board, []) if r not in pos]
    for i, rid in enumerate(extra):
        pos[rid] = (i % COLS, base_rows + i // COLS)
    return pos


def wrap(board: str = "big") -> int:
    """Room above and below the boxes for links routed round the map."""
    return WRAP if board == "small" else 0


def height(board: str = "big") -> int:
    rows = max(y for _, y in grid_positions(board).values()) + 1
    return rows * BOX_H + (rows - 1) * GAP + 2 * wrap(board)


def rects(x0: float, y0: float, board: str = "big") -> dict[str, Rect]:
    out = {}
    y0 += wrap(board)
    for rid, (cx, cy) in grid_positions(board).items():
        x = x0 + cx * (BOX_W + GAP)
        y = y0 + cy * (BOX_H + GAP)
        out[rid] = (x, y, x + BOX_W, y + BOX_H)
    return out


def _centre(r: Rect) -> tuple[float, float]:
    return (r[0] + r[2]) / 2, (r[1] + r[3]) / 2


def link_path(
    a: str, b: str, boxes: dict[str, Rect], board: str = "big"
) -> list[tuple[float, float]]:
    """Points of the line linking two regions. Neighbours on the grid get a straight line
    (drawn under the boxes, so it shows in the gap); a link that would cross a third
    region goes round it: down the right margin, along the gap between two rows, or
    (same row, on a board with room for it) above the top row / below the bottom row."""
    pos = grid_positions(board)
    (ax, ay), (bx, by) = pos[a], pos[b]
    ra, rb = boxes[a], boxes[b]
    if max(abs(ax - bx), abs(ay - by)) <= 1:
        return [_centre(ra), _centre(rb)]
    if ay == by and wrap(board):  # same row, round the outside of the map
        top = ay == 0
        yc = ra[1] - wrap(board) / 2 if top else ra[3] + wrap(board) / 2
        edge_a = ra[1] + 10 if top else ra[3] - 10
        edge_b = rb[1] + 10 if top else rb[3] - 10
        xa, xb = _centre(ra)[0], _centre(rb)[0]
        return [(xa, edge_a), (xa, yc), (xb, yc), (xb, edge_b)]
    if ax == bx == COLS - 1:  # same right-hand column, not neighbours: round the right margin
        xr = ra[2] + CHANNEL - 4
        ya, yb = _centre(ra)[1], _centre(rb)[1]
        return [(ra[2] - 10, ya), (xr, ya), (xr, yb), (rb[2] - 10, yb)]
    if abs(ay - by) == 1:  # one row apart: along the gap between the rows
        upper, lower = (ra, rb) if ay < by else (rb, ra)
        gy = (upper[3] + lower[1]) / 2
        ux = upper[0] + 48 if upper[0] > lower[0] else upper[2] - 48
        lx = lower[2] - 48 if upper[0] > lower[0] else lower[0] + 48
        return [(ux, _centre(upper)[1]), (ux, gy), (lx, gy), (lx, _centre(lower)[1])]
    return [_centre(ra), _centre(rb)]


def draw_links(cv: Canvas, boxes: dict[str, Rect], board: str = "big") -> None:
    """Routed links first; straight ones over them with a halo, so that a crossing
    reads as one line passing over another rather than as a junction."""
    for path in _link_paths(tuple(boxes.items()), board):
        if len(path) == 2:
            cv.d.line(path, fill=t.BG, width=18)
        cv.d.line(path, fill=t.LINK, width=6, joint="curve")


@lru_cache(maxsize=64)
def _link_paths(boxes: tuple[tuple[str, Rect], ...], board: str) -> list[list[tuple[float, float]]]:
    """The paths :func:`draw_links` draws, in its order (the same for the same boxes)."""
    where = dict(boxes)
    paths = []
    done = set()
    for rid, reg in REGIONS.items():  # the data's order (it decides which line lies on top)
        if rid not in where:
            continue
        for other in reg["links"]:
            key = frozenset((rid, other))
            if key in done or other not in where:
                continue
            done.add(key)
            paths.append(link_path(rid, other, where, board))
    return sorted(paths, key=len, reverse=True)


def draw(cv: Canvas, view: dict[str, Any], x0: float, y0: float) -> float:
    """Draw the map with its top-left at (x0, y0); return the y below it."""
    board = board_of(view)
    boxes = {r: b for r, b in rects(x0, y0, board).items() if r in view["regions"]}
    draw_links(cv, boxes, board)
    colour = {s: p["colour"] for s, p in view["players"].items()}
    steve = view.get("steve") or {}
    for rid, box in boxes.items():
        with cv.tag(rid, "region"):
            _region(cv, view, rid, box, colour, steve.get("marker"))
    return y0 + height(board)


def _region(cv: Canvas, view: dict[str, Any], rid: str, box: Rect, colour: dict[str, str], steve_marker: str | None) -> None:
    data = REGIONS[rid]
    state = view["regions"][rid]
    x0, y0, x1, y1 = box
    retailer = state.get("retailer")
    cv.box(x0, y0, x1, y1, fill=t.REGION, outline="#8d8676", width=2, radius=10)
    # header: name, size, Office cost
    name_w = cv.text(
        x0 + 10,
        y0 + 7,
        cv.fit(data["name"], t.LARGE - 1, True, BOX_W - 110),
        t.LARGE - 1,
        bold=True,
    )
    sx = x0 + 10 + name_w + 8
    cv.box(sx, y0 + 8, sx + 24, y0 + 32, fill=t.HEADER, radius=5)
    cv.text(sx + 12, y0 + 20, data["size"], t.SMALL + 1, bold=True, fill=t.HEADER_INK, anchor="mm")
    cost = f"⌂{data['cost']}"
    cv.text(x1 - 10, y0 + 20, cost, t.BODY, bold=True, fill=t.MUTED, anchor="rm")
    if retailer is not None:
        _retailer(cv, state, retailer, x0, y0 + 40, colour)
    else:
        _offices(cv, data, state, x0 + 10, y0 + 40, colour)
        tokens = ((view.get("marketing") or {}).get(rid)) or {}
        seconds = ((view.get("seconds") or {}).get(rid)) or []
        _buyers(cv, data, state, x0 + 10, y0 + 94, colour, tokens, seconds)
    # foot: Logistics progress per company, Steve's marker
    fx = x0 + 10
    fy = y0 + BOX_H - 30
    for seat in view["seats"]:
        n = view["players"][seat].get("logistics", {}).get(rid)
        if not n:
            continue
        cv.token(fx, fy, 22, colour[seat])
        fx += (
            24
            + cv.text(fx + 25, fy + 11, f"{n}/{data['cost']}", t.SMALL, bold=True, anchor="lm")
            + 10
        )
    right = x1 - 10
    if steve_marker == rid:
        label = "Steve's marker"
        w = cv.measure(label, t.SMALL, True) + 16
        cv.box(right - w, fy, right, fy + 22, fill=t.INK, radius=11)
        cv.text(right - w / 2, fy + 11, label, t.SMALL, bold=True, fill="#ffffff", anchor="mm")
        right -= w + 6
    ceos = [s for s in view["seats"] if (view.get("ceo") or {}).get(s) == rid]
    if ceos:  # CEO figures (Update 1.1), right to left; packed closer when the row is full
        fig_h = CEO_H
        fig_w = round(fig_h * 0.8)
        step = min(fig_w + 3, max(10, (right - fx) / len(ceos)))
        for i, seat in enumerate(reversed(ceos)):
            cv.paste(ceo_image(colour.get(seat) or "grey", fig_h), right - fig_w - i * step, fy - 10)


def _offices(cv: Canvas, data: dict[str, Any], state: dict[str, Any], x: float, y: float, colour: dict[str, str]) -> None:
    offices = state["offices"]
    paying = len(offices) - 1  # the rightmost Office shows the control VP
    for i, space in enumerate(data["spaces"]):
        sx = x + i * SLOT_STEP
        vp = f"{space['vp']}/{space['vp2']}" if space.get("vp2") else str(space["vp"])
        cv.text(
            sx + SLOT_W / 2,
            y + 7,
            vp,
            t.SMALL,
            bold=True,
            fill=t.BUYER_PRICE if i == paying else t.MUTED,
            anchor="mm",
        )
        top = y + 16
        edge, width = (t.ACCENT, 4) if i == paying else ("#b5ad9c", 2)
        slot = (sx, top, sx + SLOT_W, top + SLOT_H)
        if i < len(offices):  # the slot with the Office's token
            token = token_image(colour.get(offices[i], "grey"), 28)
            at = (sx + (SLOT_W - 28) / 2, top + (SLOT_H - 28) / 2)
            cv.box_paste(slot, token, *at, fill=t.SLOT, outline=edge, width=width, radius=6)
        else:
            cv.box(*slot, fill=t.SLOT, outline=edge, width=width, radius=6)


def _buyers(cv: Canvas, data: dict[str, Any], state: dict[str, Any], x: float, y: float, colour: dict[str, str], tokens: dict[str, str] | None = None, seconds: list[int] | None = None) -> None:
    """The Buyers left to right: empty (what they want), sold (the seller's token), a
    Marketing Token (a diamond: only its company sells there) and a second Goods (x2)."""
    sold = state.get("sold", [])
    tokens = tokens or {}
    for i, buyer in enumerate(data["buyers"]):
        bx = x + i * BUYER_STEP
        who = sold[i] if i < len(sold) else None
        owner = tokens.get(str(i))
        if who is None and owner is not None:  # reserved: whatever it wants, only the owner
            cv.box(bx, y, bx + BUYER_W, y + BUYER_H, fill=t.SLOT, outline=t.INK, width=2, radius=6)
            cv.paste(marketing_image(colour.get(owner) or "grey", 36), bx + 5, y + 4)
        elif who is None:
            draw_buyer(cv, buyer, bx, y, BUYER_W, BUYER_H)
        else:
            tech, price = buyer.get("tech"), buyer.get("price")
            edge = t.BUYER_TECH if tech and price is None else t.BUYER_PRICE
            bounds = (bx, y, bx + BUYER_W, y + BUYER_H)
            token = token_image(colour.get(who, "grey"), 32)
            at = (bx + (BUYER_W - 32) / 2, y + (BUYER_H - 32) / 2)
            if tech and price is not None:  # a mixed Buyer keeps both colours when sold
                cv.box(*bounds, fill="#ffffff", outline=edge, width=4, radius=6)
                cv.box(bx + 4, y + BUYER_H - 8, bx + BUYER_W - 4, y + BUYER_H - 4, fill=t.BUYER_TECH)
                cv.paste(token, *at)
            else:  # the Buyer with the seller's token
                cv.box_paste(bounds, token, *at, fill="#ffffff", outline=edge, width=4, radius=6)
            if owner is not None:
                cv.paste(marketing_image(colour.get(owner) or "grey", 20), bx + BUYER_W - 16, y - 6)
        if seconds and i in seconds:  # Gamepad Patent: a second Goods on this Buyer
            cv.box(bx + BUYER_W - 24, y + BUYER_H - 14, bx + BUYER_W + 2, y + BUYER_H + 6, fill=t.INK, radius=5)
            cv.text(bx + BUYER_W - 11, y + BUYER_H - 4, "x2", t.SMALL, bold=True, fill="#ffffff", anchor="mm")


def draw_buyer(cv: Canvas, buyer: dict[str, Any], x: float, y: float, w: float, h: float) -> None:
    """An empty Buyer: red with the highest price it pays, purple with the Technology it
    wants, or (mixed Buyer of the 2-3 player board) both, price on top, Technology below:
    it buys if either is met."""
    tech, price = buyer.get("tech"), buyer.get("price")
    if tech and price is not None:
        half = h / 2
        cv.box(x, y, x + w, y + h, fill=t.BUYER_TECH, radius=6)
        cv.box(x, y, x + w, y + half + 6, fill=t.BUYER_PRICE, radius=6)
        cv.box(x, y + half, x + w, y + half + 6, fill=t.BUYER_PRICE)
        cv.d.line((x + 3, y + half + 1, x + w - 3, y + half + 1), fill="#ffffff", width=2)
        size = t.BODY if h >= 40 else t.SMALL
        cv.text(x + w / 2, y + half / 2 + 1, str(price), size, bold=True, fill="#ffffff", anchor="mm")
        cv.text(
            x + w / 2,
            y + half + half / 2 + 1,
            cv.fit(t.TECH_SHORT.get(tech, tech), t.SMALL, True, w - 2),
            t.SMALL,
            bold=True,
            fill="#ffffff",
            anchor="mm",
        )
    elif tech:
        cv.box(x, y, x + w, y + h, fill=t.BUYER_TECH, radius=6)
        cv.text(
            x + w / 2,
            y + h / 2,
            t.TECH_SHORT.get(tech, tech),
            t.SMALL,
            bold=True,
            fill="#ffffff",
            anchor="mm",
        )
    else:
        cv.box(x, y, x + w, y + h, fill=t.BUYER_PRICE, radius=6)
        cv.text(
            x + w / 2, y + h / 2, str(price), t.LARGE + 3, bold=True, fill="#ffffff", anchor="mm"
        )


def _retailer(cv: Canvas, state: dict[str, Any], retailer: dict[str, Any], x0: float, y: float, colour: dict[str, str]) -> None:
    side = RETAILERS[retailer["id"]]["sides"][retailer["side"]]
    x = x0 + 8
    cv.box(
        x, y, x + BOX_W - 16, y + 102, fill=t.RETAILER_FILL, outline=t.RETAILER, width=2, radius=8
    )
    cv.text(x + 8, y + 5, "Retailer: no sales here", t.SMALL, bold=True, fill=t.RETAILER)
    offices = state["offices"]
    for i, vp in enumerate(side["vp"]):
        sx = x + 8 + i * 58
        cv.box(sx, y + 30, sx + 22, y + 52, fill=t.BUYER_PRICE, radius=4)
        cv.text(sx + 11, y + 41, str(vp), t.SMALL, bold=True, fill="#ffffff", anchor="mm")
        cv.box(
            sx + 24, y + 26, sx + 54, y + 56, fill="#ffffff", outline=t.RETAILER, width=2, radius=5
        )
        if i < len(offices):
            cv.token(sx + 26, y + 28, 26, colour.get(offices[i], "grey"))
    for i, line in enumerate(cv.wrap(t.bonus_text(side["bonus"]), t.SMALL, False, BOX_W - 34)[:2]):
        cv.text(x + 8, y + 61 + i * 18, line, t.SMALL, fill=t.INK)
