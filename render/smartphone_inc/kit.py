"""Drawing primitives: a canvas with text helpers, company tokens and symbol icons.

Icons and tokens are drawn once at 4x, scaled down (anti-aliased) and cached, so a
picture only pastes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

from render import kit
from render.smartphone_inc import theme as t

SS = 4  # supersampling factor of cached icons


class Canvas(kit.Canvas):
    """The shared canvas (cached text, fit, wrap, the fixed palette) with the drawing
    helpers every section uses."""

    BODY = t.BODY
    INK = t.INK

    def __init__(self, width: int, height: int, bg: str = t.BG) -> None:
        super().__init__(width, height, bg)

    # --- shapes -----------------------------------------------------------------------
    def box(self, x0: float, y0: float, x1: float, y1: float, fill: str | None = None, outline: str | None = None, width: int = 1, radius: int = 0) -> None:
        self.flat_box((x0, y0, x1, y1), radius, fill, outline, width)

    def flat_box(self, xy: tuple[float, float, float, float], radius: float, fill: str | None, outline: str | None, width: int) -> None:
        """The box every helper draws (a :class:`PaletteCanvas` draws it on the palette)."""
        if radius:
            kit.rounded_box(self.img, self.d, xy, radius, fill, outline, width)
        else:
            kit.flat_box(self.img, self.d, xy, fill, outline, width)

    def boxed(self, xy: tuple[float, float, float, float], fill: str | None, outline: str | None, im: Image.Image, x: int, y: int, radius: float = 0, width: int = 1) -> None:
        """:meth:`flat_box`, then ``im`` pasted at (x, y) (a :class:`PaletteCanvas` does
        both in one tile)."""
        self.box(*xy, fill=fill, outline=outline, width=width, radius=radius)
        self.paste(im, x, y)

    def panel(self, x: float, y: float, w: float, h: float, title: str | None = None, note: str = "") -> float:
        """A white card, with its title and a small grey ``note`` at the top right;
        returns the y where its content starts."""
        self.box(x, y, x + w, y + h, fill=t.PANEL, outline=t.PANEL_EDGE, width=1, radius=8)
        if title:
            self.text(x + 12, y + 8, title, t.LARGE, bold=True)
        if note:
            self.text(x + w - 12, y + 14, note, t.SMALL, fill=t.MUTED, anchor="ra")
        return y + 40 if title else y + 10

    def paste(self, im: Image.Image, x: float, y: float) -> None:
        px, py = round(x), round(y)
        if im.mode == "RGBA" and self.img.mode == "RGB":  # Image.paste's own call, without its checks
            w, h = im.size
            self.img.im.paste(im.im, (px, py, px + w, py + h), im.im)
        else:
            self.img.paste(im, (px, py), im)

    def token(self, x: float, y: float, size: int, colour: str) -> None:
        """A company's token (its colour and letter) with its top-left at (x, y)."""
        self.paste(token_image(colour, size), x, y)

    def icon(self, x: float, y: float, size: int, symbol: str | None) -> None:
        if symbol is not None:
            self.paste(icon_image(symbol, size), x, y)

    def icon_box(
        self,
        xy: tuple[float, float, float, float],
        inset: int,
        size: int,
        symbol: str | None,
        fill: str,
        outline: str,
    ) -> None:
        """A cell: the box ``xy`` with the icon of ``symbol`` (``size`` px) ``inset`` px in."""
        if symbol is None:
            self.box(*xy, fill=fill, outline=outline)
        else:
            self.boxed(xy, fill, outline, icon_image(symbol, size), round(xy[0] + inset), round(xy[1] + inset))

    def box_paste(
        self,
        xy: tuple[float, float, float, float],
        im: Image.Image,
        x: float,
        y: float,
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
        radius: int = 0,
    ) -> None:
        """:meth:`box` of ``xy``, then ``im`` pasted at (x, y) (a slot with its token)."""
        self.boxed(xy, fill, outline, im, round(x), round(y), radius, width)

    def footnote(self, x: float, y: float, s: str) -> None:
        """A small grey line with its bottom left at (x, y) (a panel's last line)."""
        self.text(x, y, s, t.SMALL, fill=t.MUTED, anchor="lb")

    def section_title(self, x: float, y: float, s: str, note: str = "") -> float:
        w = self.text(x, y, s, t.LARGE, bold=True)
        if note:
            self.text(x + w + 12, y + 4, note, t.SMALL, fill=t.MUTED)
        return y + 32

    def chip_layout(
        self, items: Sequence[tuple[str, str]], w: float, size: int = t.BODY
    ) -> tuple[list[tuple[str, str, float, float, float]], float]:
        """Where chips go: [(label, style, dx, dy, width)] and the height they take."""
        out = []
        lx = ly = 0.0
        step = size + 17
        for label, style in items:
            bold = style == "good"
            label = self.fit(label, size, bold, w - 20)
            lw = self.measure(label, size, bold) + 16
            if lx > 0 and lx + lw > w:
                lx, ly = 0.0, ly + step
            out.append((label, style, lx, ly, lw))
            lx += lw + 10
        return out, (ly + step if items else 0.0)

    def chips(
        self, items: Sequence[tuple[str, str]], x: float, y: float, w: float, size: int = t.BODY
    ) -> float:
        """Labels in rounded boxes flowing over lines; style is "good", "warn" or "plain".
        Returns the y below the last line."""
        styles = {
            "good": ("#e7f1e7", t.GOOD),
            "warn": ("#fff4dc", t.ACCENT),
            "plain": ("#f1efe9", t.PANEL_EDGE),
        }
        layout, h = self.chip_layout(items, w, size)
        for label, style, dx, dy, lw in layout:
            fill, edge = styles.get(style, styles["plain"])
            self.box(
                x + dx, y + dy, x + dx + lw, y + dy + size + 11, fill=fill, outline=edge, radius=6
            )
            self.text(
                x + dx + 8, y + dy + (size + 11) / 2, label, size, bold=style == "good", anchor="lm"
            )
        return y + h


def palette() -> kit.Palette:
    """The fixed palette of the Smartphone Inc. pictures: every colour of their modules,
    then the edges of text on each background, of the white glyphs on the symbol icons,
    of the company tokens' letters, and of the tokens, icons and lines on the cards."""
    inks = [t.INK, t.MUTED, t.HEADER_INK, t.GOOD, t.BAD, t.ACCENT]
    backs = [t.PANEL, t.BG, t.FAINT, t.HEADER, t.REGION, t.REGION_HOME, t.IMPROVEMENT, t.MINI,
             t.RETAILER_FILL, t.SLOT, t.PAD_BOTTOM, t.PAD_TOP, "#e7f1e7", "#fff4dc", "#f1efe9"]
    pairs = [(i, b) for i in inks for b in backs]
    pairs += [("#ffffff", f) for f in t.SYMBOL_FILL.values()]
    pairs += [(t.COMPANY_INK[c], f) for c, f in t.COMPANY_FILL.items()]
    for back in (t.PANEL, t.REGION, t.BG):
        pairs += [(f, back) for f in (*t.COMPANY_FILL.values(), *t.SYMBOL_FILL.values())]
        pairs += [(t.LINK, back), (t.PANEL_EDGE, back), (t.RETAILER, back)]
    return kit.Palette(kit.colours_written_in(Path(__file__).parent), pairs)


SI_PALETTE = Canvas.PALETTE = palette()


class PaletteCanvas(kit.PaletteCanvas, Canvas):
    """The canvas of the public board: drawn straight on the palette
    (:class:`render.kit.PaletteCanvas`), byte for byte the picture a :class:`Canvas`
    gives. Its helpers are the Canvas's; boxes (``flat_box``, ``boxed``) and pasted icons
    go on the palette."""

    FIRST = (t.BG, t.PANEL)  # the grounds keep an index they share with another colour

    def __init__(self, width: int, height: int, bg: str = t.BG) -> None:
        kit.PaletteCanvas.__init__(self, width, height, bg)

    def paste(self, im: Image.Image, x: float, y: float) -> None:
        self.paste_rgba(im, round(x), round(y))


# --- cached, anti-aliased pieces ----------------------------------------------------------


def _scaled(
    points: Sequence[tuple[float, float]], s: float, ox: float = 0, oy: float = 0
) -> list[tuple[float, float]]:
    return [(ox + px * s, oy + py * s) for px, py in points]


DOWN_ARROW = [(0.38, 0.16), (0.62, 0.16), (0.62, 0.5), (0.82, 0.5), (0.5, 0.86), (0.18, 0.5), (0.38, 0.5)]


def _glyph(d: ImageDraw.ImageDraw, symbol: str, s: float, ink: str, paper: str) -> None:
    """White glyph of ``symbol`` in an ``s`` x ``s`` square at the origin."""
    lw = max(2, round(s * 0.07))
    if symbol in ("down", "up"):  # an arrow; "up" is "down" upside down
        arrow = DOWN_ARROW if symbol == "down" else [(px, 1 - py) for px, py in DOWN_ARROW]
        d.polygon(_scaled(arrow, s), fill=ink)
    elif symbol == "prod":  # a cargo container
        d.rectangle(_scaled([(0.16, 0.28), (0.84, 0.74)], s), fill=ink)
        for fx in (0.33, 0.5, 0.67):
            d.line(_scaled([(fx, 0.36), (fx, 0.66)], s), fill=paper, width=lw)
    elif symbol == "improve":  # an Improvement tile with a plus
        d.rounded_rectangle(_scaled([(0.12, 0.30), (0.88, 0.70)], s), radius=s * 0.06, fill=ink)
        d.line(_scaled([(0.5, 0.34), (0.5, 0.66)], s), fill=paper, width=max(1, lw // 2))
        d.line(_scaled([(0.21, 0.5), (0.41, 0.5)], s), fill=paper, width=lw)
        d.line(_scaled([(0.31, 0.40), (0.31, 0.60)], s), fill=paper, width=lw)
        d.line(_scaled([(0.59, 0.5), (0.79, 0.5)], s), fill=paper, width=lw)
        d.line(_scaled([(0.69, 0.40), (0.69, 0.60)], s), fill=paper, width=lw)
    elif symbol == "research":  # a flask
        d.polygon(
            _scaled(
                [
                    (0.40, 0.14),
                    (0.60, 0.14),
                    (0.60, 0.42),
                    (0.84, 0.84),
                    (0.16, 0.84),
                    (0.40, 0.42),
                ],
                s,
            ),
            fill=ink,
        )
        d.line(_scaled([(0.33, 0.14), (0.67, 0.14)], s), fill=ink, width=lw)
        d.polygon(_scaled([(0.30, 0.66), (0.70, 0.66), (0.76, 0.78), (0.24, 0.78)], s), fill=paper)
    elif symbol == "logistics":  # a truck
        d.rectangle(_scaled([(0.10, 0.28), (0.58, 0.64)], s), fill=ink)
        d.polygon(
            _scaled([(0.62, 0.38), (0.78, 0.38), (0.90, 0.52), (0.90, 0.64), (0.62, 0.64)], s),
            fill=ink,
        )
        for cx in (0.28, 0.74):
            r = 0.11
            d.ellipse(
                _scaled([(cx - r, 0.70 - r), (cx + r, 0.70 + r)], s),
                fill=ink,
                outline=paper,
                width=lw,
            )


def _blank(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A transparent picture ``w`` x ``h`` px to draw a piece on at SS times its size."""
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    return im, ImageDraw.Draw(im)


def _letter(d: ImageDraw.ImageDraw, colour: str, xy: tuple[float, float], px: int) -> None:
    """A company's letter, ``px`` px high, centred on ``xy``, in its ink."""
    d.text(xy, t.COMPANY_LETTER.get(colour, "?"), font=t.font(px, True), fill=t.COMPANY_INK.get(colour, "#ffffff"), anchor="mm")


@cache
def icon_image(symbol: str, size: int) -> Image.Image:
    """``symbol`` as a white glyph on its coloured rounded square, ``size`` px."""
    big = size * SS
    im, d = _blank(big, big)
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.18, fill=t.SYMBOL_FILL[symbol])
    _glyph(d, symbol, big, "#ffffff", t.SYMBOL_FILL[symbol])
    return im.resize((size, size), Image.Resampling.LANCZOS)


@cache
def token_image(colour: str, size: int) -> Image.Image:
    """A company's round token with its letter, ``size`` px."""
    big = size * SS
    im, d = _blank(big, big)
    edge = "#1f2328" if colour in ("yellow",) else "#ffffff"
    d.ellipse(
        (0, 0, big - 1, big - 1),
        fill=t.COMPANY_FILL.get(colour, "#888888"),
        outline=edge,
        width=max(SS, big // 14),
    )
    _letter(d, colour, (big / 2, big / 2 + big * 0.02), round(big * 0.62))
    return im.resize((size, size), Image.Resampling.LANCZOS)


@cache
def check_image(size: int, ok: bool) -> Image.Image:
    """A green check (sealed/done) or a grey hourglass-like dot (waiting)."""
    big = size * SS
    im, d = _blank(big, big)
    if ok:
        d.ellipse((0, 0, big - 1, big - 1), fill=t.GOOD)
        d.line(
            _scaled([(0.25, 0.52), (0.43, 0.70), (0.76, 0.32)], big),
            fill="#ffffff",
            width=big // 8,
            joint="curve",
        )
    else:
        d.ellipse((0, 0, big - 1, big - 1), outline=t.ACCENT, width=big // 9)
        d.line(
            _scaled([(0.5, 0.22), (0.5, 0.52), (0.70, 0.64)], big),
            fill=t.ACCENT,
            width=big // 9,
            joint="curve",
        )
    return im.resize((size, size), Image.Resampling.LANCZOS)


@cache
def ceo_image(colour: str, size: int) -> Image.Image:
    """A company's CEO figure (Update 1.1): a pawn (head and shoulders) in the company's
    colour with its letter on the body, ``size`` px high and 0.8 x ``size`` wide. The shape
    tells it from the round Office and Goods tokens without the colour."""
    big = size * SS
    wide = round(big * 0.8)
    im, d = _blank(wide, big)
    fill = t.COMPANY_FILL.get(colour, "#888888")
    edge = "#1f2328"
    lw = max(SS, big // 16)
    r = big * 0.19
    cx = wide / 2
    d.ellipse((cx - r, lw, cx + r, lw + 2 * r), fill=fill, outline=edge, width=lw)
    top = lw + 2 * r - big * 0.04
    d.rounded_rectangle(
        (lw, top, wide - lw, big - lw), radius=big * 0.2, fill=fill, outline=edge, width=lw
    )
    _letter(d, colour, (cx, (top + big) / 2), round(big * 0.5))
    return im.resize((round(size * 0.8), size), Image.Resampling.LANCZOS)


@cache
def marketing_image(colour: str, size: int) -> Image.Image:
    """A company's Marketing Token (Update 1.1): a diamond in the company's colour with its
    letter, ``size`` px (a diamond, so it reads apart from the round tokens)."""
    big = size * SS
    im, d = _blank(big, big)
    h = big / 2
    d.polygon(
        [(h, 0), (big - 1, h), (h, big - 1), (0, h)],
        fill="#ffffff",
    )
    m = big * 0.09
    d.polygon(
        [(h, m), (big - 1 - m, h), (h, big - 1 - m), (m, h)],
        fill=t.COMPANY_FILL.get(colour, "#888888"),
    )
    _letter(d, colour, (h, h + big * 0.02), round(big * 0.5))
    return im.resize((size, size), Image.Resampling.LANCZOS)
