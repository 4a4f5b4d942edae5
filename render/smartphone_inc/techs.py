"""The six Technologies with the side in play (a base side, or a New Technology of the
Update 1.1), their Patents, owners and research progress. Name, cost and Patent VP come
from the view (the side in play), the printed data only as a fallback."""

from __future__ import annotations

from typing import Any

from engine.smartphone_inc.data import TECH_ORDER, TECHS, tech_side
from render.smartphone_inc import theme as t
from render.smartphone_inc.kit import Canvas

CARD_GAP = 8
CARD_H = 214


def effect_text(tech: str, side: int) -> str:
    s = TECHS[tech]["sides"][side]
    return t.EFFECT_SHORT.get(s["effect"], s["text"])


def info(view: dict[str, Any], tech: str) -> dict[str, Any]:
    """The Technology in play on ``tech``'s space: name, cost, patent_vp, text, effect, new."""
    got = view.get("techs", {}).get(tech, {})
    out = tech_side(tech, int(got.get("side", 0)))
    out.update({k: got[k] for k in ("name", "cost", "patent_vp", "text", "effect", "new") if k in got})
    return out


def name(view: dict[str, Any], tech: str) -> str:
    """The name of the Technology in play ("GPS", or "Wi-Fi CEO" for a New Technology)."""
    return str(info(view, tech)["name"]) if tech in TECHS else str(tech)


def patent_vp(view: dict[str, Any], tech: str) -> int:
    return int(info(view, tech)["patent_vp"])


def module_label(view: dict[str, Any], tech: str) -> str | None:
    """"CEO", "Spatial (VP)"...: the New Technology's own part of its name (None for a
    base side)."""
    i = info(view, tech)
    if not i.get("new"):
        return None
    base = TECHS[tech]["name"]
    own = str(i["name"]).replace(base, "").strip()
    return own or str(i["name"])


def base_cost(view: dict[str, Any], tech: str) -> int:
    """The printed cost, +1 while the Patent is unclaimed (what the Patent tile shows)."""
    return int(info(view, tech)["cost"]) + (1 if view["techs"][tech]["patent"] is None else 0)


def draw_row(cv: Canvas, view: dict[str, Any], x: float, y: float, w: float) -> float:
    """All six cards side by side; returns the y below."""
    n = len(TECH_ORDER)
    card_w = (w - (n - 1) * CARD_GAP) / n
    for i, tech in enumerate(TECH_ORDER):
        with cv.tag(tech, "tech"):
            _card(cv, view, tech, x + i * (card_w + CARD_GAP), y, card_w)
    return y + CARD_H


def _card(cv: Canvas, view: dict[str, Any], tech: str, x: float, y: float, w: float) -> None:
    info = view["techs"][tech]
    side = int(info.get("side", 0))
    cv.box(x, y, x + w, y + CARD_H, fill=t.PANEL, outline=t.PANEL_EDGE, radius=8)
    cv.box(x, y, x + w, y + 34, fill=t.BUYER_TECH, radius=8)
    cv.box(x, y + 20, x + w, y + 34, fill=t.BUYER_TECH)
    cv.text(
        x + 10, y + 17, TECHS[tech]["name"], t.LARGE - 1, bold=True, fill="#ffffff", anchor="lm"
    )
    cv.text(
        x + w - 10,
        y + 17,
        f"cost {base_cost(view, tech)}",
        t.SMALL,
        bold=True,
        fill="#ffffff",
        anchor="rm",
    )
    ty = y + 42
    new = module_label(view, tech)
    if new is not None:
        cv.text(x + 10, ty, cv.fit(f"New: {new}", t.SMALL, True, w - 20), t.SMALL, bold=True, fill=t.ACCENT)
    else:
        cv.text(x + 10, ty, "face up" if side == 0 else "face down", t.SMALL, fill=t.MUTED)
    ty += 20
    for line in cv.wrap(effect_text(tech, side), t.SMALL, False, w - 20)[:3]:
        cv.text(x + 10, ty, line, t.SMALL)
        ty += 19
    colour = {s: p["colour"] for s, p in view["players"].items()}
    # Patent
    py = y + 124
    holder = info.get("patent")
    cv.text(
        x + 10, py + 11, f"Patent {patent_vp(view, tech)} VP:", t.SMALL, bold=True, anchor="lm"
    )
    px = x + 10 + cv.measure(f"Patent {patent_vp(view, tech)} VP:", t.SMALL, True) + 6
    if holder is None:
        cv.text(px, py + 11, "open", t.SMALL, bold=True, fill=t.GOOD, anchor="lm")
    elif holder in colour:
        cv.token(px, py, 22, colour[holder])
    # owners
    oy = py + 28
    owners = [s for s in view["seats"] if tech in view["players"][s]["techs"]]
    cv.text(x + 10, oy + 11, "Has:", t.SMALL, fill=t.MUTED, anchor="lm")
    ox = x + 48
    for s in owners:
        cv.token(ox, oy, 22, colour[s])
        ox += 25
    if not owners:
        cv.text(ox, oy + 11, "nobody", t.SMALL, fill=t.MUTED, anchor="lm")
    # research in progress: token + markers/cost for that company
    ry = oy + 30
    rx = x + 10
    for s in view["seats"]:
        p = view["players"][s]
        have = p.get("research", {}).get(tech, 0)
        if not have or tech in p["techs"]:
            continue
        need = p.get("costs", {}).get(tech, base_cost(view, tech))
        label = f"{have}/{need}"
        lw = cv.measure(label, t.SMALL, True)
        if rx + 24 + lw > x + w - 6:
            break
        cv.token(rx, ry, 22, colour[s])
        cv.text(rx + 25, ry + 11, label, t.SMALL, bold=True, anchor="lm")
        rx += 25 + lw + 10
