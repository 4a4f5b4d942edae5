"""Colours, fonts and drawing helpers of the Age of Automaton pictures.

Colour-blind safe: every colour comes with a letter (resources R/B/Y, players by the
first letter of their name, companies G/B/O), and dice and levels are written out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from engine.age_of_automaton.effects import describe
from render import kit
from render.kit import font as font

BG = "#f1ede4"
PANEL = "#ffffff"
EDGE = "#c4bcaa"
INK = "#1f2328"
MUTED = "#585e66"
FAINT = "#e6e0d2"
HEADER = "#2f3b4c"
HEADER_INK = "#ffffff"
ACCENT = "#d98e04"
GOOD = "#2e7d32"
BAD = "#b3261e"
BLOCKED = "#9b9b9b"

RESOURCE_FILL = {"red": "#d1495b", "blue": "#2c6fbb", "yellow": "#f2c230", "credits": "#8a6d1f"}
RESOURCE_INK = {"red": "#ffffff", "blue": "#ffffff", "yellow": "#1f2328", "credits": "#ffffff"}
RESOURCE_LETTER = {"red": "R", "blue": "B", "yellow": "Y", "credits": "$"}

PLAYER_FILL = {"orange": "#e8731a", "purple": "#7b4fb0", "green": "#2f9e44", "white": "#f7f7f7"}
PLAYER_INK = {"orange": "#ffffff", "purple": "#ffffff", "green": "#ffffff", "white": "#1f2328"}

COMPANY_FILL = {"green": "#7cc242", "blue": "#3b82c4", "orange": "#ef8a2c"}
COMPANY_LETTER = {"green": "G", "blue": "B", "orange": "O"}

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}


def initials(view: Mapping[str, Any]) -> dict[str, str]:
    """One letter per seat: its player's name's first letter (render.kit.player_name), or
    its last digit ("Bot 2" -> 2), or its place when two would clash."""
    out: dict[str, str] = {}
    for i, s in enumerate(view.get("seats") or []):
        name = kit.player_name(view, s)
        letter = name[-1] if name[-1:].isdigit() else (name[:1] or "?").upper()
        out[s] = letter if letter not in out.values() else str(i + 1)
    return out


class Canvas(kit.Canvas):
    """The shared canvas (cached text, fit, wrap, the fixed palette) with the markers
    of Age of Automaton."""

    INK = INK

    def __init__(self, width: int, height: int, bg: str = BG) -> None:
        super().__init__(width, height, bg)

    def box(self, x0: float, y0: float, x1: float, y1: float, fill: str | None = PANEL, outline: str | None = EDGE,
            width: int = 1, radius: int = 6) -> None:
        kit.rounded_box(self.img, self.d, (x0, y0, x1, y1), radius, fill, outline, width)

    def token(self, cx: float, cy: float, r: float, fill: str, ink: str, letter: str, size: int) -> None:
        """A round marker: colour and letter (drawn once, then pasted)."""
        img = _token(int(round(r)), fill, ink, letter, size)
        self.img.paste(img, (int(round(cx - r)), int(round(cy - r))), img)

    def square(self, x: float, y: float, s: float, fill: str, ink: str, label: str, size: int) -> None:
        """A die or resource square with its label (drawn once, then pasted)."""
        img = _label(int(round(s)), int(round(s)), fill, INK, 4, label, size, True, ink)
        self.img.paste(img, (int(round(x)), int(round(y))), img)

    def label(self, x: float, y: float, w: float, h: float, fill: str, outline: str, s: str, size: int,
              bold: bool = False, ink: str = INK) -> None:
        """A rounded box with one line of text, left-aligned (drawn once, then pasted)."""
        img = _label(int(round(w)), int(round(h)), fill, outline, 4, s, size, bold, ink, left=True)
        self.img.paste(img, (int(round(x)), int(round(y))), img)

    def resources(self, x: float, y: float, res: Mapping[str, int], size: int, credits: int | None = None) -> float:
        """Resource amounts as coloured squares with a letter and the number: R 2  B 1 ..."""
        s = size + 6
        start = x
        items = [(c, n) for c, n in res.items() if n and c in RESOURCE_FILL]
        if credits:
            items.append(("credits", credits))
        if not items:
            return self.text(x, y + 2, "—", size, fill=MUTED)
        for c, n in items:
            self.square(x, y, s, RESOURCE_FILL[c], RESOURCE_INK[c], RESOURCE_LETTER[c], size - 4)
            x += s + 3
            x += self.text(x, y + s / 2, f"{n}", size, True, anchor="lm") + 10
        return x - start

    def title_bar(self, y: float, h: float, s: str, size: int) -> None:
        self.d.rectangle((0, y, self.width, y + h), fill=HEADER)
        self.text(12, y + h / 2, s, size, True, HEADER_INK, "lm")


def player_token(c: Canvas, view: Mapping[str, Any], seat: str, cx: float, cy: float, r: float, size: int) -> None:
    colour = (view.get("players") or {}).get(seat, {}).get("colour", "white")
    letter = initials(view).get(seat, "?")
    c.token(cx, cy, r, PLAYER_FILL.get(colour, "#cccccc"), PLAYER_INK.get(colour, INK), letter, size)


def effect_text(atoms: Sequence[Mapping[str, Any]]) -> str:
    return describe(list(atoms))


def amounts(res: Mapping[str, int] | None) -> str:
    parts = [f"{n} {k}" for k, n in (res or {}).items() if n]
    return ", ".join(parts) if parts else "free"


# the other fills of the pictures (board, player boards, private picture)
EXTRA_FILLS = ("#f4ecff", "#fff2cc", "#fff8e6", "#e8f1fb", "#7a9cc6", "#cccccc", "#000000")
TEXT_INKS = (INK, MUTED, BAD, GOOD, ACCENT, HEADER_INK, HEADER, BLOCKED)
TEXT_BACKS = (PANEL, BG, FAINT, HEADER, "#fff2cc", "#e8f1fb", "#fff8e6", "#f4ecff")


def _palette() -> kit.Palette:
    """Every flat colour, and each text colour on each background (speed, issue 11:
    the public picture <= 100 ms)."""
    flat = [BG, PANEL, EDGE, INK, MUTED, FAINT, HEADER, HEADER_INK, ACCENT, GOOD, BAD, BLOCKED,
            *RESOURCE_FILL.values(), *RESOURCE_INK.values(), *PLAYER_FILL.values(), *PLAYER_INK.values(),
            *COMPANY_FILL.values(), *EXTRA_FILLS]
    pairs = [(i, b) for i in TEXT_INKS for b in TEXT_BACKS]
    pairs += [(PLAYER_INK[k], PLAYER_FILL[k]) for k in PLAYER_FILL] + [(RESOURCE_INK[k], RESOURCE_FILL[k]) for k in RESOURCE_FILL]
    return kit.Palette(flat, pairs)


Canvas.PALETTE = _palette()


@cache
def _token(r: int, fill: str, ink: str, letter: str, size: int) -> Image.Image:
    img = Image.new("RGBA", (2 * r + 1, 2 * r + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, 2 * r, 2 * r), fill=fill, outline=INK, width=2)
    d.text((r, r), letter, font=font(size, True), fill=ink, anchor="mm")
    return img


@cache
def _label(w: int, h: int, fill: str, outline: str, radius: int, s: str, size: int, bold: bool, ink: str,
           left: bool = False) -> Image.Image:
    img = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w, h), radius=radius, fill=fill, outline=outline, width=1)
    if left:
        d.text((6, h / 2), s, font=font(size, bold), fill=ink, anchor="lm")
    else:
        d.text((w / 2, h / 2), s, font=font(size, bold), fill=ink, anchor="mm")
    return img
