"""The drawing kit every game's pictures share: the fonts, a canvas whose text is drawn
from a cache, shortening and wrapping of text, and the finished picture on a fixed
256-colour palette.

Speed: every text is drawn as a cached mask (rendered once per string, size, weight and
anchor, then filled in with its colour), and a finished picture is mapped to its game's
fixed palette (each flat colour of the game plus the blends of anti-aliased text on its
backgrounds) with no dithering: a few milliseconds, where an adaptive quantization takes
tens, and a small PNG, which :func:`png_bytes` encodes.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parent / "fonts"

# A blend nearer than this (squared RGB distance) to a colour already in a palette is
# left out: Pillow maps to a palette through a cache of colours cut to 5-6-5 bits, so a
# blend too near a flat colour would steal it (white would turn bluish).
_NEAR = 300
BLENDS = (0.25, 0.5, 0.75)
# zlib level of a palette picture: about a third less encoding time than the default 6
# for about a fifth more bytes (benchmarks/bench_render.py --level)
PALETTE_LEVEL = 3


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Condensed (bold or regular) at ``size`` px."""
    name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


@lru_cache(maxsize=8192)
def glyphs(s: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The anti-aliased mask of a text and its offset from the anchor point."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(s, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=8192)
def _piece(s: str, size: int, bold: bool, anchor: str) -> tuple[Any, int, int, int, int, float]:
    """What :meth:`Canvas.text` needs of a text, in one look-up: its mask's core, offset
    and size, and its width."""
    mask, dx, dy = glyphs(s, size, bold, anchor)
    return mask.im, dx, dy, mask.width, mask.height, length(s, size, bold)


@lru_cache(maxsize=256)
def rgb(colour: str) -> tuple[int, int, int]:
    """A colour string as the RGB tuple Pillow fills with (as ``Image.paste`` makes it)."""
    return ImageColor.getcolor(colour, "RGB")  # type: ignore[return-value]


def _box_tile(
    x0: float, y0: float, x1: float, y1: float, radius: float, fill: str | None, outline: str | None, width: int
) -> tuple[Image.Image, Image.Image]:
    """A rounded rectangle drawn once (as ``ImageDraw.rounded_rectangle`` draws it) with
    its corner at (``x0``, ``y0``) in [0, 2): its pixels and a 1-bit mask of them. Pasted
    at an even offset it gives the same pixels as drawing it there (Pillow rounds half to
    even, which an even shift keeps), so a picture pastes its repeated boxes instead of
    drawing each (a 1-bit mask pastes several times faster than drawing)."""
    im = Image.new("RGBA", (int(x1) + 2, int(y1) + 2), (0, 0, 0, 0))
    if radius:
        ImageDraw.Draw(im).rounded_rectangle((x0, y0, x1, y1), radius, fill=fill, outline=outline, width=width)
    else:
        ImageDraw.Draw(im).rectangle((x0, y0, x1, y1), fill=fill, outline=outline, width=width)
    return im.convert("RGB"), im.getchannel("A").convert("1", dither=Image.Dither.NONE)


@lru_cache(maxsize=256)
def _opaque(colour: str | None) -> bool:
    """No colour, or an opaque one (a tile's mask keeps only what it covers fully)."""
    return colour is None or (isinstance(colour, str) and ImageColor.getcolor(colour, "RGBA")[3] == 255)


_TILES: dict[bool, OrderedDict[Hashable, tuple[Image.Image, Image.Image]]] = {True: OrderedDict(), False: OrderedDict()}
_KEEP = {True: 2048, False: 64}  # small, large tiles kept (at most about 80 + 20 MB; least recently used go)
_SEEN: OrderedDict[Hashable, None] = OrderedDict()  # boxes drawn once, not yet tiled
_SEEN_KEEP = 16384
# Boxes up to SMALL_BOX (px²) are small tiles, up to LARGE_BOX large ones; larger boxes
# (panels) are drawn (their paste would cost as much as drawing them).
SMALL_BOX = 8_000
LARGE_BOX = 60_000


def rounded_box(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float, float, float],
    radius: float,
    fill: str | None,
    outline: str | None,
    width: int,
) -> None:
    """``d.rounded_rectangle(xy, radius, fill, outline, width)`` on ``img``, byte for byte,
    from a cache of tiles when the box is not too large."""
    x0, y0, x1, y1 = xy
    area = (x1 - x0) * (y1 - y0)
    if area > LARGE_BOX or x0 < 0 or y0 < 0 or x1 < x0 or y1 < y0 or not (_opaque(fill) and _opaque(outline)):
        d.rounded_rectangle(xy, radius, fill=fill, outline=outline, width=width)
    elif not _paste_box(img, xy, area, radius, fill, outline, width):
        d.rounded_rectangle(xy, radius, fill=fill, outline=outline, width=width)


def flat_box(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float, float, float],
    fill: str | None,
    outline: str | None,
    width: int,
) -> None:
    """``d.rectangle(xy, fill, outline, width)`` on ``img``, byte for byte, from the cache
    of tiles when it is small (a tile of radius 0 is drawn as that rectangle)."""
    x0, y0, x1, y1 = xy
    area = (x1 - x0) * (y1 - y0)
    if area > SMALL_BOX or x0 < 0 or y0 < 0 or x1 < x0 or y1 < y0 or not (_opaque(fill) and _opaque(outline)):
        d.rectangle(xy, fill=fill, outline=outline, width=width)
    elif not _paste_box(img, xy, area, 0, fill, outline, width):
        d.rectangle(xy, fill=fill, outline=outline, width=width)


def _paste_box(
    img: Image.Image,
    xy: tuple[float, float, float, float],
    area: float,
    radius: float,
    fill: str | None,
    outline: str | None,
    width: int,
) -> bool:
    """Paste the box from its tile; False (nothing done: draw it) the first time a box is
    seen, since a tile costs more to make than a box to draw."""
    x0, y0, x1, y1 = xy
    ox, oy = 2 * int(x0 // 2), 2 * int(y0 // 2)
    key = (x0 - ox, y0 - oy, x1 - ox, y1 - oy, radius, fill, outline, width)
    tiles = _TILES[area <= SMALL_BOX]
    got = tiles.get(key)
    if got is None:
        if key not in _SEEN:
            _SEEN[key] = None
            while len(_SEEN) > _SEEN_KEEP:
                _SEEN.popitem(last=False)
            return False
        _SEEN.pop(key, None)
        got = tiles[key] = _box_tile(*key)
        while len(tiles) > _KEEP[area <= SMALL_BOX]:
            tiles.popitem(last=False)
    else:
        with contextlib.suppress(KeyError):  # (another thread may just have dropped it)
            tiles.move_to_end(key)
    tile, mask = got
    w, h = tile.size
    img.im.paste(tile.im, (ox, oy, ox + w, oy + h), mask.im)
    return True


@lru_cache(maxsize=8192)
def length(s: str, size: int, bold: bool = False) -> float:
    """The width of ``s`` in px."""
    return font(size, bold).getlength(s)


def blend(ink: str, back: str, k: float) -> tuple[int, int, int]:
    """``ink`` at coverage ``k`` over ``back``."""
    a, b = ImageColor.getrgb(ink), ImageColor.getrgb(back)
    return (
        round(a[0] * k + b[0] * (1 - k)),
        round(a[1] * k + b[1] * (1 - k)),
        round(a[2] * k + b[2] * (1 - k)),
    )


def colours_written_in(folder: Path) -> list[str]:
    """Every colour written as ``"#rrggbb"`` in the drawing modules of ``folder``, in a
    fixed order (so a colour a module adds joins its game's palette, with no list to
    keep up to date)."""
    found: dict[str, None] = {}
    for path in sorted(folder.glob("*.py")):
        for c in re.findall(r"[\"'](#[0-9a-fA-F]{6})[\"']", path.read_text("utf-8")):
            found.setdefault(c.lower(), None)
    return list(found)


class Palette:
    """A game's fixed palette: its flat colours first, then the blends (1/4, 1/2, 3/4) of
    each ink on each background (``pairs``, most important first) while room is left in
    the 256 colours, so anti-aliased text and icons keep their edges."""

    def __init__(self, flat: Iterable[str], pairs: Iterable[tuple[str, str]]) -> None:
        self.flat = tuple(flat)
        self.pairs = tuple(pairs)

    def colours(self) -> list[tuple[int, int, int]]:
        out: list[tuple[int, int, int]] = []
        for c in self.flat:
            rgb = ImageColor.getrgb(c)[:3]
            if rgb not in out and len(out) < 256:
                out.append(rgb)
        for ink, back in self.pairs:
            if ink == back:
                continue
            for k in BLENDS:
                rgb = blend(ink, back, k)
                if len(out) < 256 and all(
                    sum((a - b) ** 2 for a, b in zip(rgb, c, strict=True)) >= _NEAR for c in out
                ):
                    out.append(rgb)
        return out

    @cached_property
    def image(self) -> Image.Image:
        pal = Image.new("P", (1, 1))
        flat = [v for rgb in self.colours() for v in rgb]
        pal.putpalette(flat + [0] * (768 - len(flat)))
        return pal

    def apply(self, img: Image.Image) -> Image.Image:
        """``img`` on this palette (nearest colour, no dithering)."""
        if img.mode != "RGB":
            img = img.convert("RGB")
        return img.quantize(palette=self.image, dither=Image.Dither.NONE)


class Canvas:
    """An RGB image with the text helpers every game uses. A game's canvas sets
    ``BODY`` (the default text size), ``INK`` (the default text colour) and ``PALETTE``
    (the palette of :meth:`finish`)."""

    BODY = 17
    INK = "#1f2328"
    PALETTE: Palette | None = None

    def __init__(self, width: int, height: int, bg: str = "#ffffff") -> None:
        self.width = width
        self.img = Image.new("RGB", (width, height), bg)
        self.d = ImageDraw.Draw(self.img)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: int | None = None,
        bold: bool = False,
        fill: str | None = None,
        anchor: str = "la",
    ) -> float:
        """Draw ``s`` (from the cache of text masks); return its width."""
        size = size or self.BODY
        if not s:
            return length(s, size, bold)
        mask, dx, dy, w, h, wide = _piece(s, size, bold, anchor)
        # Image.paste(colour, corner, mask) without its per-call checks (same pixels)
        x0, y0 = round(x) + dx, round(y) + dy
        self.img.im.paste(rgb(fill or self.INK), (x0, y0, x0 + w, y0 + h), mask)
        return wide

    @staticmethod
    def measure(s: str, size: int, bold: bool = False) -> float:
        return length(s, size, bold)

    def fit(self, s: str, size: int, bold: bool, max_w: float) -> str:
        """``s`` shortened with an ellipsis so that it fits ``max_w``."""
        if self.measure(s, size, bold) <= max_w:
            return s
        while s and self.measure(s + "…", size, bold) > max_w:
            s = s[:-1]
        return s + "…"

    def wrap(self, s: str, size: int, bold: bool, max_w: float) -> list[str]:
        """``s`` cut into lines of at most ``max_w`` (at spaces)."""
        lines: list[str] = []
        line = ""
        for word in s.split():
            cand = f"{line} {word}".strip()
            if line and self.measure(cand, size, bold) > max_w:
                lines.append(line)
                line = word
            else:
                line = cand
        if line:
            lines.append(line)
        return lines

    def finish(self, height: int, width: int | None = None) -> Image.Image:
        """The finished picture: cut to ``height`` (and ``width``), on the palette."""
        box = (0, 0, width or self.width, height)
        w, h = self.img.size
        if box == (0, 0, w, h):  # already the picture's size: no copy
            return self.PALETTE.apply(self.img) if self.PALETTE is not None else self.img
        if self.PALETTE is not None and box[2] == w and 0 < height < h and height * 5 >= h * 4:
            # nearly the picture's size: mapped to the palette, then cut (the mapping is
            # pixel by pixel, so the same bytes, and a palette picture is cheaper to cut)
            return self.PALETTE.apply(self.img).crop(box)
        img = self.img.crop(box)
        return self.PALETTE.apply(img) if self.PALETTE is not None else img


def png_bytes(image: Image.Image) -> bytes:
    """``image`` encoded as PNG (a palette picture at :data:`PALETTE_LEVEL`)."""
    buf = io.BytesIO()
    if image.mode == "P":
        image.save(buf, format="PNG", compress_level=PALETTE_LEVEL)
    else:
        image.save(buf, format="PNG")
    return buf.getvalue()


_HEIGHTS: dict[Hashable, int] = {}  # the tallest picture drawn so far, per kind of picture


def drawn_to_fit(key: Hashable, full: int, draw: Callable[[int], Image.Image]) -> Image.Image:
    """``draw(height)`` (a picture drawn on a canvas ``height`` px high, then cut to its
    content) on a canvas only as high as the tallest picture of this ``key`` so far,
    rather than ``full`` px: a smaller canvas to fill and cut. Content cut to the
    canvas's height never changes above it, so the picture is byte for byte what
    ``draw(full)`` gives; one that comes out taller than the canvas is drawn again at
    ``full``."""
    guess = _HEIGHTS.get(key)
    if guess is not None and guess < full:
        img = draw(guess)
        if img.height <= guess:
            return img
    img = draw(full)
    if img.height < full:
        _HEIGHTS[key] = max(img.height, _HEIGHTS.get(key, 0))
    return img
