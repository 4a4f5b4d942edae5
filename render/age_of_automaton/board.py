"""The public picture: the main board (Prospect, Reputation, Donation, Reliability and
Relationship tracks; Equipment, R&D, Sale and Sponsorship rows; Achievements; Audits;
Market; turn order; round; blocked spaces; the last dice) and every player's board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from PIL import Image

from engine.age_of_automaton.achievements import describe as achievement_need
from engine.age_of_automaton.data import (
    ACTION_NAMES,
    BLOCKED,
    BOARD,
    COLUMNS,
    RELATIONSHIPS,
    TRACKS,
    WORKER_ACTIONS,
)
from render import kit
from render.age_of_automaton import player
from render.age_of_automaton.kit import (
    ACCENT,
    BAD,
    COMPANY_FILL,
    COMPANY_LETTER,
    EDGE,
    FAINT,
    INK,
    MUTED,
    PANEL,
    RESOURCE_FILL,
    RESOURCE_INK,
    RESOURCE_LETTER,
    ROMAN,
    Canvas,
    amounts,
    effect_text,
    player_token,
)
from render.age_of_automaton.kit import (
    BLOCKED as BLOCKED_GREY,
)

WIDTH = 1200
M = 14
FS = 17


def _section(c: Canvas, y: float, title: str) -> float:
    c.text(M, y, title, FS + 3, True, "#2f3b4c")
    return y + FS + 12


def header(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    c.title_bar(y, 44, f"Age of Automaton — Round {view['round']} of {view.get('rounds', 5)} · {view.get('phase_title', '')}", 24)
    y += 54
    x = M
    x += c.text(x, y + 14, "Turn order:", FS, True, anchor="lm") + 8
    for s in view["order"]:
        player_token(c, view, s, x + 14, y + 14, 13, FS - 3)
        cur = view.get("turn") == s
        x += 32
        x += c.text(x, y + 14, kit.player_name(view, s) + (" ◀" if cur else ""), FS, cur, ACCENT if cur else INK, "lm") + 16
    x += 12
    x += c.text(x, y + 14, "Next turn order:", FS, True, anchor="lm") + 8
    for i, s in enumerate(view.get("next_order") or []):
        x += c.text(x, y + 14, f"{i + 1}.", FS, False, MUTED, "lm") + 4
        if s:
            player_token(c, view, s, x + 12, y + 14, 12, FS - 4)
            x += 30
        else:
            x += c.text(x, y + 14, "free", FS, False, MUTED, "lm") + 10
    return y + 40


def dice_and_market(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    x = M
    dice = view.get("dice")
    x += c.text(x, y + 16, "Last dice:", FS, True, anchor="lm") + 10
    if dice:
        kind = dice.get("kind")
        faces = dice.get("faces") or []
        who = kit.possessive(kit.player_name(view, str(dice.get("seat", ""))))
        if kind == "level":
            x += c.text(x, y + 16, f"{who} Level dice", FS, anchor="lm") + 8
            for f in faces:
                c.square(x, y, 32, "#ffffff", INK, ROMAN.get(f, str(f)), FS - 2)
                x += 38
            rolled = dice.get("rolled")
            if rolled and rolled != faces:
                x += c.text(x + 4, y + 16, "(rolled " + ", ".join(ROMAN.get(f, str(f)) for f in rolled) + ", Overdrive)",
                            FS - 1, fill=MUTED, anchor="lm") + 12
            lvl = dice.get("level")
            if lvl:
                x += c.text(x + 4, y + 16, f"vs Level {ROMAN.get(lvl, lvl)}", FS - 1, fill=MUTED, anchor="lm") + 12
        elif kind == "resource":
            x += c.text(x, y + 16, f"{who} Resource dice", FS, anchor="lm") + 8
            for f in faces:
                c.square(x, y, 32, RESOURCE_FILL.get(f, "#ccc"), RESOURCE_INK.get(f, INK), RESOURCE_LETTER.get(f, "?"), FS - 2)
                x += 38
        else:
            x += c.text(x, y + 16, f"{who} Audit die", FS, anchor="lm") + 8
            for f in faces:
                c.square(x, y, 32, "#ffffff", INK, str(f), FS - 2)
                x += 38
    else:
        x += c.text(x, y + 16, "none yet", FS, fill=MUTED, anchor="lm")
    x = max(x + 30, WIDTH // 2 + 60)
    x += c.text(x, y + 16, "Market:", FS, True, anchor="lm") + 10
    market = view.get("market") or []
    if not market:
        c.text(x, y + 16, "empty", FS, fill=MUTED, anchor="lm")
    for r in market:
        c.square(x, y, 32, RESOURCE_FILL.get(r, "#ccc"), RESOURCE_INK.get(r, INK), RESOURCE_LETTER.get(r, "?"), FS - 2)
        x += 38
    return y + 44


def _req(space: Mapping[str, Any]) -> str:
    req = space.get("req") or {}
    bits = []
    if req.get("credits"):
        bits.append(f"${req['credits']}")
    if req.get("rnd"):
        bits.append(f"{req['rnd']} R&D")
    if req.get("sale"):
        bits.append(f"{req['sale']} Sale")
    return " ".join(bits)


def prospect(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    y = _section(c, y, "Prospect tracks (VP on each space; needs: $ credits, R&D, Sale Order cards)")
    c.img.paste(c.kept(_prospect_grid), (0, int(y)))
    seats = view["seats"]
    name_w = 250
    for tid, track in TRACKS.items():
        sw = (WIDTH - 2 * M - name_w) / len(track["spaces"])
        for i in range(len(track["spaces"])):
            x0 = M + name_w + i * sw
            here = [s for s in seats if view["players"][s]["prospect"].get(tid, 0) == i]
            for k, s in enumerate(here):
                player_token(c, view, s, x0 + 18 + k * 26, y + 50, 11, FS - 6)
        c.mark(tid, "track", (M, y, WIDTH - M, y + 62))
        y += 68
    return y + 6


@cache
def _prospect_grid() -> Image.Image:
    """The printed part of the Prospect tracks (drawn once: it never changes)."""
    c = Canvas(WIDTH, 68 * len(TRACKS))
    y = 0
    name_w = 250
    for track in TRACKS.values():
        spaces = track["spaces"]
        sw = (WIDTH - 2 * M - name_w) / len(spaces)
        c.text(M, y + 26, c.fit(track["name"].capitalize(), FS, True, name_w - 10), FS, True, anchor="lm")
        bonus = "bonus " + "/".join(RESOURCE_LETTER[b] for b in track["bonus"])
        c.text(M, y + 46, bonus, FS - 3, fill=MUTED, anchor="lm")
        for i, sp in enumerate(spaces):
            x0 = M + name_w + i * sw
            c.box(x0 + 2, y, x0 + sw - 2, y + 62, fill=PANEL if i else FAINT)
            c.text(x0 + 8, y + 4, f"{sp.get('vp', 0)} VP", FS - 2, True)
            extra = []
            if sp.get("rep"):
                extra.append("+Rep")
            for comp in sp.get("rel") or []:
                extra.append(f"+{COMPANY_LETTER[comp]}")
            c.text(x0 + sw - 8, y + 4, " ".join(extra), FS - 4, False, MUTED, "ra")
            req = _req(sp)
            if req:
                c.text(x0 + 8, y + 24, req, FS - 4, False, BAD)
        y += 68
    return c.img


def actions(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    y = _section(c, y, "Worker spaces (the rightmost takes Level IV only) · blocked spaces")
    spaces = view.get("spaces") or {}
    colw = (WIDTH - 2 * M) / 4
    for i, act in enumerate(WORKER_ACTIONS):
        x0 = M + i * colw
        c.text(x0 + 4, y + 12, ACTION_NAMES[act], FS, True, anchor="lm")
        row = spaces.get(act) or []
        for k, occ in enumerate(row):
            bx = x0 + 4 + k * 70
            iv = k == len(row) - 1
            c.box(bx, y + 28, bx + 64, y + 74, fill="#f4ecff" if iv else PANEL)
            if occ == "blocked":
                c.d.line((bx + 6, y + 34, bx + 58, y + 68), fill=BLOCKED_GREY, width=4)
                c.d.line((bx + 58, y + 34, bx + 6, y + 68), fill=BLOCKED_GREY, width=4)
                c.text(bx + 32, y + 51, "blocked", FS - 5, True, INK, "mm")
            elif occ:
                seat, lvl = occ[0], occ[1]
                player_token(c, view, seat, bx + 18, y + 51, 12, FS - 5)
                c.text(bx + 36, y + 51, ROMAN.get(lvl, str(lvl)), FS - 1, True, anchor="lm")
            else:
                c.text(bx + 32, y + 51, "IV only" if iv else "free", FS - 5, False, MUTED, "mm")
        c.mark(act, "action", (x0, y, x0 + colw - 8, y + 74))
    y += 80
    blocked = view.get("blocked_card")
    if blocked or view.get("blocked_next"):
        now = " and ".join(ACTION_NAMES[a] for a in BLOCKED[blocked]["actions"]) if blocked in BLOCKED else "none"
        nxt = view.get("blocked_next")
        nxt_s = " and ".join(ACTION_NAMES[a] for a in BLOCKED[nxt]["actions"]) if nxt in BLOCKED else "none"
        c.text(M, y, f"Blocked Actions card: {now} (next: {nxt_s})", FS - 1, fill=MUTED)
        y += FS + 8
    col_names = " · ".join(f"column {i + 1}: {ACTION_NAMES[a]} / {ACTION_NAMES[b]}" for i, (a, b) in enumerate(COLUMNS))
    c.text(M, y, col_names, FS - 2, fill=MUTED)
    return y + FS + 10


def _card_row(c: Canvas, y: float, title: str, cards: Sequence[Mapping[str, Any]], lines: Any, deck: int | None) -> float:
    tw = 140
    c.text(M, y + 10, title, FS, True)
    if deck is not None:
        c.text(M, y + 34, f"deck {deck}", FS - 3, fill=MUTED)
    n = 4
    cw = (WIDTH - 2 * M - tw) / n
    rows_ = max([len(lines(card)) for card in cards[:n]] + [2])
    h = 34 + rows_ * 22
    for i, card in enumerate(cards[:n]):
        x0 = M + tw + i * cw
        c.box(x0 + 3, y, x0 + cw - 3, y + h)
        c.text(x0 + 10, y + 5, c.fit(f"{i + 1}. {card['name']}", FS, True, cw - 24), FS, True)
        for k, ln in enumerate(lines(card)):
            c.text(x0 + 10, y + 30 + k * 22, c.fit(ln, FS - 3, False, cw - 24), FS - 3, fill=INK if k == 0 else MUTED)
        c.mark(card.get("id", ""), "card", (x0 + 3, y, x0 + cw - 3, y + h))
    if not cards:
        c.text(M + tw, y + 30, "empty", FS, fill=MUTED)
    return y + h + 8


def rows(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    y = _section(c, y, "Card rows (a Level I automaton takes card 1; Level IV any)")
    r = view.get("rows") or {}
    decks = view.get("decks") or {}
    y = _card_row(c, y, "Equipment", r.get("equipment", []), lambda k: [
        f"cost {amounts(k.get('cost'))}",
        f"extra {ACTION_NAMES.get(k.get('extra'), '-')} · discount {amounts(k.get('discount'))}",
        f"ability {effect_text(k.get('ability') or [])}",
    ], decks.get("equipment"))
    y = _card_row(c, y, "R&D", r.get("rnd", []), lambda k: [
        f"{k.get('part', '')} · upgrade {k.get('upgrade', 0)}",
        "logos " + (", ".join(f"{COMPANY_LETTER.get(g, '?')} {g}" for g in k.get("logos") or []) or "none"),
    ], decks.get("rnd"))
    y = _card_row(c, y, "Sale", r.get("sale", []), lambda k: [
        f"cost {amounts(k.get('cost'))} · {k.get('vp', 0)} VP",
        "logos " + (", ".join(f"{COMPANY_LETTER.get(g, '?')} {g}" for g in k.get("logos") or []) or "none"),
    ], decks.get("sale"))
    tiles = view.get("sponsorship") or []
    c.text(M, y + 10, "Sponsorship", FS, True)
    tw = 140
    n = max(4, len(tiles))
    cw = (WIDTH - 2 * M - tw) / n
    for i, t in enumerate(tiles):
        x0 = M + tw + i * cw
        c.box(x0 + 3, y, x0 + cw - 3, y + 56, fill="#fff8e6")
        c.text(x0 + 10, y + 5, f"rounds {t['rounds'][1:].replace('-R', '-')}", FS - 3, fill=MUTED)
        c.text(x0 + 10, y + 28, c.fit(effect_text(t.get("gain") or []), FS - 2, True, cw - 24), FS - 2, True)
        c.mark(t.get("id", ""), "tile", (x0 + 3, y, x0 + cw - 3, y + 56))
    if not tiles:
        c.text(M + tw, y + 20, "empty", FS, fill=MUTED)
    return y + 66


def offered_to(view: Mapping[str, Any]) -> dict[str, list[str]]:
    """Achievement card → the seats it is offered to (met, not yet claimed; rules 2)."""
    out: dict[str, list[str]] = {}
    for s in view["seats"]:
        for card in view["players"][s].get("achievements_offered") or []:
            out.setdefault(card, []).append(s)
    return out


def _ring(c: Canvas, cx: float, cy: float, r: float) -> None:
    """A dashed ring around a marker: "offered, not placed yet" (told by shape and by the
    words next to it, not by colour)."""
    box = (cx - r, cy - r, cx + r, cy + r)
    for start in range(0, 360, 30):
        c.d.arc(box, start, start + 18, fill=INK, width=2)


def achievements_audits(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    offers = offered_to(view)
    title = "Achievements (markers: who claimed"
    title += "; ringed: met, can claim) · Audits" if offers else ") · Audits"
    y = _section(c, y, title)
    achs = view.get("achievements") or []
    cw = (WIDTH - 2 * M) / max(4, len(achs))
    h = 112 if offers else 84
    for i, a in enumerate(achs):
        x0 = M + i * cw
        c.box(x0 + 3, y, x0 + cw - 3, y + h)
        c.text(x0 + 10, y + 5, c.fit(f"Level {a['level']}: {a['name']}", FS, True, cw - 24), FS, True)
        c.text(x0 + 10, y + 29, c.fit(f"needs {achievement_need(a['id']).split(' → ')[0]}", FS - 3, False, cw - 24), FS - 3)
        c.text(x0 + 10, y + 52, c.fit(f"→ {effect_text(a.get('gain') or [])}", FS - 3, False, cw - 100), FS - 3, fill=MUTED)
        for k, s in enumerate(a.get("claimed_by") or []):
            player_token(c, view, s, x0 + cw - 22 - k * 26, y + 62, 11, FS - 6)
        can = offers.get(a["id"]) or []
        if can:
            x = x0 + 10 + c.text(x0 + 10, y + 96, "can claim:", FS - 3, True, anchor="lm") + 22
            for s in can:
                player_token(c, view, s, x, y + 96, 10, FS - 7)
                _ring(c, x, y + 96, 14)
                x += 34
        c.mark(a.get("id", ""), "card", (x0 + 3, y, x0 + cw - 3, y + h))
    y += h + 8
    audits = view.get("audits") or []
    per = BOARD["audit_track"]["spaces_per_card"]
    pos = int(view.get("audit_marker") or 0)
    cw = (WIDTH - 2 * M - 90) / max(4, len(audits))
    c.text(M, y + 12, "Audits", FS, True)
    c.text(M, y + 36, f"marker {pos}", FS - 3, fill=MUTED)
    for i, a in enumerate(audits):
        x0 = M + 90 + i * cw
        c.box(x0 + 3, y, x0 + cw - 3, y + 72, fill=FAINT if a.get("flipped") else PANEL)
        state = "done" if a.get("flipped") else f"spaces {i * per + 1}-{i * per + per}"
        c.text(x0 + 10, y + 5, f"{a['side']} · {state}", FS - 2, True, MUTED if a.get("flipped") else INK)
        c.text(x0 + 10, y + 28, c.fit(a.get("text", ""), FS - 3, False, cw - 24), FS - 3)
        # the marker's space on this card
        for k in range(per):
            sx = x0 + 10 + k * 30
            here = pos == i * per + k + 1
            c.box(sx, y + 50, sx + 24, y + 68, fill=ACCENT if here else FAINT, outline=EDGE, radius=3)
            c.text(sx + 12, y + 59, str(i * per + k + 1), FS - 7, here, INK, "mm")
    return y + 80


def _number_track(c: Canvas, view: Mapping[str, Any], x: float, y: float, w: float, title: str, tw: float,
                  values: Sequence[Any], pos_of: Any, marks: Sequence[int] = ()) -> float:
    """A track of numbered spaces from ``x``, ``w`` wide (title ``tw`` of it), the player
    markers under their space, two per line; returns the height used."""
    n = len(values)
    sw = (w - tw) / n
    seats = view["seats"]
    depth = 1
    c.img.paste(c.kept(_track_strip, w, title, tw, tuple(str(v) for v in values), tuple(marks)), (int(x), int(y)))
    for i in range(n):
        x0 = x + tw + i * sw
        here = [s for s in seats if pos_of(view["players"][s]) == i]
        per = 2 if sw >= 42 else 1
        for k, s in enumerate(here):
            r, col = divmod(k, per)
            cx = x0 + sw / 2 + (col - (per - 1) / 2) * 20
            player_token(c, view, s, cx, y + 40 + r * 21, 10, FS - 6)
        depth = max(depth, (len(here) + per - 1) // per)
    return 32 + depth * 21 + 4


@cache
def _track_strip(w: float, title: str, tw: float, values: tuple[str, ...], marks: tuple[int, ...]) -> Image.Image:
    """The printed spaces of a track (drawn once per track)."""
    c = Canvas(int(w) + 1, 29)
    c.text(0, 14, title, FS - 1, True, anchor="lm")
    sw = (w - tw) / len(values)
    for i, v in enumerate(values):
        x0 = tw + i * sw
        c.box(x0 + 1, 0, x0 + sw - 1, 28, fill="#fff2cc" if i in marks else PANEL, radius=3)
        c.text(x0 + sw / 2, 14, v, FS - 4, False, INK, "mm")
    return c.img


def tracks(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    y = _section(c, y, "Tracks (yellow spaces: VP token, Reputation icon or Reliability benefit)")
    full = WIDTH - 2 * M
    rep = BOARD["reputation"]
    rel = BOARD["reliability"]
    vals = rel["values"]
    left = full * 0.6
    h1 = _number_track(c, view, M, y, left - 16, "Reputation", 110, list(range(rep["max"] + 1)),
                       lambda p: min(p["reputation"], rep["max"]), rep["token_spaces"])
    h2 = _number_track(c, view, M + left, y, full - left, "Reliability", 100, vals,
                       lambda p: vals.index(p["reliability"]) if p["reliability"] in vals else len(vals) - 1,
                       [i for i, v in enumerate(vals) if str(v) in rel["benefits"]])
    y += max(h1, h2)
    don = BOARD["donation"]
    y += _number_track(c, view, M, y, full, "Donation", 110, list(range(don["max"] + 1)),
                       lambda p: min(p["donation"], don["max"]), don["reputation_spaces"])
    third = full / 3
    hs = []
    for i, (comp, t) in enumerate(RELATIONSHIPS.items()):
        x = M + i * third
        c.d.rectangle((x, y + 30, x + 70, y + 34), fill=COMPANY_FILL[comp])
        hs.append(_number_track(c, view, x, y, third - 14, f"{COMPANY_LETTER[comp]} {comp}", 90,
                                [f"×{v}" for v in t["values"]], lambda p, comp=comp: p["relationships"].get(comp, 0)))
    return y + max(hs)


def commons(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    cards = view.get("commons") or []
    y = _section(c, y, "Common Specialists (Contract tokens placed this round)")
    cw = (WIDTH - 2 * M) / max(5, len(cards))
    rows_ = 0
    per_row = max(1, int((WIDTH - 2 * M) // cw))
    for i, s in enumerate(cards):
        r, k = divmod(i, per_row)
        rows_ = max(rows_, r + 1)
        x0 = M + k * cw
        y0 = y + r * 84
        c.box(x0 + 3, y0, x0 + cw - 3, y0 + 78)
        c.text(x0 + 10, y0 + 5, c.fit(s["name"], FS - 1, True, cw - 24), FS - 1, True)
        c.text(x0 + 10, y0 + 28, c.fit(effect_text(s.get("ability") or []), FS - 3, False, cw - 24), FS - 3)
        for j, seat in enumerate(s.get("contracts") or []):
            player_token(c, view, seat, x0 + 20 + j * 24, y0 + 62, 10, FS - 7)
        c.mark(s.get("id", ""), "card", (x0 + 3, y0, x0 + cw - 3, y0 + 78))
    return y + max(rows_, 1) * 84 + 4


def players(c: Canvas, view: Mapping[str, Any], y: float) -> float:
    y = _section(c, y, "Player boards")
    seats = view["seats"]
    w = (WIDTH - 2 * M - 12) // 2
    row_h = 0.0
    for i, s in enumerate(seats):
        k = i % 2
        if k == 0 and i:
            y += row_h + 12
            row_h = 0
        panel = player.panel(view, s, int(w), FS - 1, 13)
        c.img.paste(panel.img, (int(M + k * (w + 12)), int(y)))
        row_h = max(row_h, panel.img.height)
    return y + row_h + 10


def draw(view: Mapping[str, Any]) -> Image.Image:
    return kit.drawn_to_fit(("aoa-board", len(view.get("seats") or ())), 3200, lambda height: _draw(view, height))


def _draw(view: Mapping[str, Any], height: int) -> Image.Image:
    c = Canvas(WIDTH, height)
    y = header(c, view, 0)
    y = dice_and_market(c, view, y)
    y = prospect(c, view, y)
    y = actions(c, view, y)
    y = rows(c, view, y)
    y = achievements_audits(c, view, y)
    y = tracks(c, view, y)
    y = commons(c, view, y)
    y = players(c, view, y)
    # the fixed palette: flat board graphics lose nothing visible, and the PNG is a third
    # of the size and faster to encode
    return c.finish(int(y) + M, WIDTH)
