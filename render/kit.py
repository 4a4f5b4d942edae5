"""The drawing kit every game's pictures share: the fonts, a canvas whose text is drawn
from a cache, shortening and wrapping of text, and the finished picture on a fixed
256-colour palette.

Speed: every text is drawn as a cached mask (rendered once per string, size, weight and
anchor, then filled in with its colour), and a finished picture is mapped to its game's
fixed palette (each flat colour of the game plus the blends of anti-aliased text on its
backgrounds) with no dithering: a few milliseconds, where an adaptive quantization takes
tens, and a small PNG, which :func:`png_bytes` encodes. A :class:`PaletteCanvas` draws
straight on that palette instead, with no RGB canvas to fill and map: the same bytes.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
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
    if "\n" not in s:
        # what ImageDraw.text draws for one line at (-left, -top) on a blank mask of the
        # text's box: FreeType's bitmap of that box, at the offset getbbox gives (once)
        core, (left, top) = f.getmask2(s, "L", None, None, None, 0, anchor, 255, (0, 0), stroke_filled=True)
        if core.size[0] > 0 and core.size[1] > 0:
            return Image.Image()._new(core), left, top
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
    got = _tile(key, area <= SMALL_BOX)
    if got is None:
        return False
    tile, mask = got
    w, h = tile.size
    img.im.paste(tile.im, (ox, oy, ox + w, oy + h), mask.im)
    return True


def _tile(key: Hashable, small: bool) -> tuple[Image.Image, Image.Image] | None:
    """The tile of a box (:func:`_box_tile` of ``key``) from the cache; None the first
    time the box is seen."""
    tiles = _TILES[small]
    got = tiles.get(key)
    if got is None:
        if key not in _SEEN:
            _SEEN[key] = None
            while len(_SEEN) > _SEEN_KEEP:
                _SEEN.popitem(last=False)
            return None
        _SEEN.pop(key, None)
        got = tiles[key] = _box_tile(*key)  # type: ignore[misc]
        while len(tiles) > _KEEP[small]:
            tiles.popitem(last=False)
    else:
        with contextlib.suppress(KeyError):  # (another thread may just have dropped it)
            tiles.move_to_end(key)
    return got


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


NAMES = "player_names"  # the key of a view under which the bot gives the seats' names


def player_name(view: Any, seat: str, automaton: str = "") -> str:
    """How a picture names ``seat``'s player: by the name the bot gives it in the view
    (``view["player_names"]``: each seat's display name, as every message names it; a
    seat id is never a word a player reads), else, for the engine's own views (the
    command line, the docs' reference views), ``automaton`` where given (the game's own AI
    player: "Steve Jr.") or the seat id."""
    names = view.get(NAMES) if isinstance(view, dict) else None
    got = names.get(seat) if isinstance(names, dict) else None
    if got:
        return str(got)
    return automaton or str(seat)


def possessive(name: str) -> str:
    """ "Ann Lee" -> "Ann Lee's"; "You" (the local table's player) -> "Your"."""
    return "Your" if name == "You" else f"{name}'s"


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

    def __new__(cls, *args: Any, **kw: Any) -> Canvas:
        # inside canvases_as(...) on this thread, a canvas is made of the class it names
        # (the SVG twin of ``cls``, render.svg); else of ``cls`` itself
        make = _AS.make
        return object.__new__(cls if make is None else make(cls))

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
        x0, y0 = round(x) + dx, round(y) + dy
        self._ink_through(rgb(fill or self.INK), (x0, y0, x0 + w, y0 + h), mask, (s, size, bold, anchor))
        return wide

    def _ink_through(self, colour: tuple[int, int, int], box: tuple[int, int, int, int], mask: Any, key: tuple) -> None:
        """Fill ``box`` with ``colour`` through the text mask ``mask`` (the glyphs of
        ``key``): Image.paste(colour, corner, mask) without its per-call checks."""
        self.img.im.paste(colour, box, mask)

    @staticmethod
    def measure(s: str, size: int, bold: bool = False) -> float:
        return length(s, size, bold)

    def tag(self, ident: Any, kind: str = "") -> contextlib.AbstractContextManager[None]:
        """``with cv.tag(engine_id, kind):`` around what shows a place a decision can name
        (a region, a slot, an action space, a card): the SVG canvas (render.svg) groups
        it under ``data-id``; a picture ignores it."""
        return _NO_TAG

    def mark(self, ident: Any, kind: str, box: tuple[float, float, float, float], label: str = "") -> None:
        """The box (x0, y0, x1, y1) just drawn shows a place a decision can name: the SVG
        canvas lays an invisible target carrying ``data-id`` over it (one line where a
        ``with cv.tag(...)`` would wrap a long block), named ``label`` (``aria-label``)
        where its drawing has no words of its own; a picture ignores it."""

    def kept(self, draw: Callable[..., Any], *args: Any) -> Any:
        """``draw(*args)``: a sub-picture drawn once and kept (a ``functools`` cache); the
        SVG canvas draws it anew on SVG canvases instead."""
        return draw(*args)

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


_NO_TAG = contextlib.nullcontext()


class _Making(threading.local):
    make: Callable[[type], type] | None = None


_AS = _Making()


@contextlib.contextmanager
def canvases_as(make: Callable[[type], type]) -> Iterator[None]:
    """While inside, every canvas made on this thread is of the class ``make(cls)`` gives
    for the class it names (render.svg draws a game's pictures on SVG twins so)."""
    before, _AS.make = _AS.make, make
    try:
        yield
    finally:
        _AS.make = before


# --- drawing straight on the palette -------------------------------------------------------


class Inexact(Exception):
    """Something a :class:`PaletteCanvas` cannot draw exactly as :class:`Canvas` and its
    :meth:`~Canvas.finish` would (a blend over pixels whose colour it does not know):
    the picture is to be drawn on an RGB canvas instead."""


_COVERED = [255] + [0] * 255  # what a map of uncovered pixels (255) covers
_KEEP_SPRITES = 8192  # sprites of a palette kept (then they are all dropped and made anew)
_KEEP_PTILES = 4096  # box tiles on a palette kept (likewise)


class Inks:
    """A palette as a :class:`PaletteCanvas` draws on it: the index Pillow maps a colour
    to (as :meth:`Palette.apply` does, pixel by pixel), and the one colour each index
    stands for (``truth``): the first of ``first`` and then the palette's flat colours
    that maps to it. A colour is *exact* if it is its index's colour: a pixel drawn in
    it keeps its true colour known, so text or an icon can be blended over it. Also the
    caches of what is drawn on this palette: sprites (a text or icon blended over one
    flat colour) and box tiles, each dropped as a whole when full."""

    def __init__(self, palette: Palette, first: tuple[str, ...]) -> None:
        self.core = palette.image.im  # what Image.quantize(palette=...) maps through
        self.data = palette.image.getpalette()
        self._index: dict[Hashable, tuple[int, bool]] = {}
        self.truth: dict[int, tuple[int, int, int]] = {}
        for c in (*first, *palette.flat):
            colour: tuple[int, int, int] = ImageColor.getcolor(c, "RGB")  # type: ignore[assignment]
            self.truth.setdefault(self.quantize(colour), colour)
        self.truth_bytes = bytes(v for i in range(256) for v in self.truth.get(i, (0, 0, 0)))
        self.sprites: dict[Hashable, tuple[Any, Any, Any]] = {}
        self.tiles: dict[Hashable, Any] = {}
        self.seen: dict[Hashable, None] = {}  # larger boxes drawn once, not yet tiles

    def quantize(self, colour: tuple[int, int, int]) -> int:
        return Image.new("RGB", (1, 1), colour).im.convert("P", 0, self.core).getpixel((0, 0))

    def ink(self, colour: Any) -> tuple[int, bool]:
        """(index, exact) of a colour as ImageDraw takes it on an RGB picture."""
        got = self._index.get(colour)
        if got is None:
            if isinstance(colour, str):
                value = ImageColor.getcolor(colour, "RGB")
            elif isinstance(colour, tuple) and len(colour) == 3 and all(type(v) is int for v in colour):
                value = colour
            else:
                raise Inexact(f"colour {colour!r}")
            i = self.quantize(value)  # type: ignore[arg-type]
            got = (i, self.truth.get(i) == value)
            if len(self._index) > 4096:
                self._index.clear()
            self._index[colour] = got
        return got


@cache
def inks(palette: Palette, first: tuple[str, ...]) -> Inks:
    return Inks(palette, first)


class PaletteCanvas(Canvas):
    """A canvas drawn straight on its game's palette (``PALETTE``): byte for byte the
    picture :class:`Canvas` draws in RGB and maps to the palette in :meth:`finish`,
    without the RGB canvas nor the mapping of every pixel at the end.

    Flat shapes (ImageDraw's, the tiles of boxes) are drawn in their colour's index:
    Pillow maps each pixel to the palette on its own, so a shape's pixels are the
    index of its colour either way. What blends with the pixels under it (text
    through its anti-aliased mask, an RGBA icon) is blended over the true colours
    under it and mapped to the palette: over one flat colour, a sprite from a cache
    (one per text or icon, colour and ground) pasted whole; over several, in place.
    The true colour of a pixel is known while only *exact* flat colours (:class:`Inks`)
    drew it; ``self.impure`` marks (not 0) what was blended or drawn in another
    colour. A blend over such a pixel raises :class:`Inexact`: the caller draws the
    picture on a :class:`Canvas` instead (none of the boards of the seeded games
    tested does).

    ``FIRST``: the colours that keep an index two flat colours share (the backgrounds).
    """

    FIRST: tuple[str, ...] = ()
    _fresh: tuple[int, int, int, int, int] | None = None  # the plain inside of the box just drawn, its index

    def __init__(self, width: int, height: int, bg: str = "#ffffff") -> None:
        if self.PALETTE is None:
            raise TypeError("a PaletteCanvas needs its PALETTE")
        self.width = width
        self.height = height
        self.inks = inks(self.PALETTE, self.FIRST)
        index, exact = self.inks.ink(bg)
        self.img = Image.new("P", (width, height), index)
        self.img.putpalette(self.inks.data)
        self.impure = _impure_map(width, height, 0 if exact else 255)
        self._im, self._impure = self.img.im, self.impure.im
        self._sprites, self._tiles = self.inks.sprites, self.inks.tiles
        self.d = PaletteDraw(self)  # type: ignore[assignment]

    # --- what blends with the pixels under it ----------------------------------------
    def _ink_through(self, colour: tuple[int, int, int], box: tuple[int, int, int, int], mask: Any, key: tuple) -> None:
        x0, y0, x1, y1 = box
        fresh, self._fresh = self._fresh, None
        lo: int | None
        if fresh is not None and fresh[0] <= x0 and fresh[1] <= y0 and x1 <= fresh[2] and y1 <= fresh[3]:
            lo = fresh[4]  # inside the box just drawn: its colour, its pixels pure
        elif x0 >= 0 and y0 >= 0 and x1 <= self.width and y1 <= self.height and self._impure.crop(box).getbbox(False) is None:
            lo, hi = self._im.crop(box).getextrema()
            if lo != hi:
                lo = None
        else:
            lo = None
        if lo is None:
            self._blend(box, colour, mask, mask)
            return
        got = self._sprites.get((key, colour, lo))  # over one flat colour: the sprite
        if got is None:
            got = self._sprite((key, colour, lo), box, colour, mask, mask, lo, None)
        self._im.paste(got[0], box)  # what it does not cover is the ground's index: no mask
        self._impure.paste(mask, box)  # (all 0 before: now not 0 where it covers)

    def paste_rgba(self, im: Image.Image, x: int, y: int) -> None:
        """``im`` (RGBA) pasted through its alpha with its top-left at (x, y)."""
        if im.mode != "RGBA":
            raise Inexact(f"a {im.mode} picture pasted")
        self._fresh = None
        w, h = im.size
        box = (x, y, x + w, y + h)
        if x >= 0 and y >= 0 and x + w <= self.width and y + h <= self.height and self._impure.crop(box).getbbox(False) is None:
            lo, hi = self._im.crop(box).getextrema()
            if lo == hi:
                got = self._sprites.get((id(im), lo))
                if got is None or got[2] is not im:
                    got = self._sprite((id(im), lo), box, None, im.im, _alpha(im), lo, im)
                self._im.paste(got[0], box)
                self._impure.paste(got[1], box)  # (all 0 before: now not 0 where it covers)
                return
        self._blend(box, None, im.im, _alpha(im))

    def _sprite(
        self, key: Hashable, box: tuple[int, int, int, int], colour: Any, mask: Any, ones: Any, ground: int, ref: Any
    ) -> tuple[Any, Any, Any]:
        """What the blend (see :meth:`_blend`) makes of ``box`` all of the flat colour
        ``ground``, on the palette; kept under ``key`` with ``ones`` (what it covers)
        and ``ref`` (the object ``key`` names by id, kept with it)."""
        w, h = box[2] - box[0], box[3] - box[1]
        im = Image.core.fill("RGB", (w, h), self.inks.truth[ground])
        im.paste(colour if colour is not None else mask, (0, 0, w, h), mask)
        if len(self._sprites) >= _KEEP_SPRITES:
            self._sprites.clear()
        got = self._sprites[key] = (im.convert("P", 0, self.inks.core), ones, ref)
        return got

    def _blend(self, box: tuple[int, int, int, int], colour: Any, mask: Any, ones: Any) -> None:
        """Paste ``colour`` through ``mask`` (a text), or the RGBA ``mask`` through itself
        (``colour`` None: an icon), at ``box`` as the RGB canvas would, mapped to the
        palette; ``ones``: what it covers (not 0 where it does). Over the true colours
        of the pixels under it, blended and mapped back (:meth:`_ink_through` and
        :meth:`paste_rgba` take a sprite over one flat colour)."""
        x0, y0, x1, y1 = box
        if x0 < 0 or y0 < 0 or x1 > self.width or y1 > self.height:  # cut to the canvas, as paste cuts
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, self.width), min(y1, self.height)
            if x0 >= x1 or y0 >= y1:
                return
            part = (x0 - box[0], y0 - box[1], x1 - box[0], y1 - box[1])
            mask, ones, box = mask.crop(part), ones.crop(part), (x0, y0, x1, y1)
        if self._impure.crop(box).getbbox(False) is not None:
            raise Inexact("over a blend")
        under = self._im.crop(box)
        under.putpalette("RGB", "RGB", self.inks.truth_bytes)
        im = under.convert("RGB")
        im.paste(colour if colour is not None else mask, (0, 0, x1 - x0, y1 - y0), mask)
        self._im.paste(im.convert("P", 0, self.inks.core), box)
        self._impure.paste(ones, box)  # (all 0 before: now not 0 where it covers)

    # --- flat shapes -------------------------------------------------------------------
    def taint(self, xy: tuple[float, float, float, float]) -> None:
        """Mark the box ``xy`` (ImageDraw's corners, widened by a pixel) as drawn in a
        colour that is not exact."""
        x0, y0, x1, y1 = xy
        box = (max(0, int(x0) - 1), max(0, int(y0) - 1), min(self.width, int(x1) + 3), min(self.height, int(y1) + 3))
        if box[0] < box[2] and box[1] < box[3]:
            self._impure.paste(255, box)

    def flat_box(self, xy: tuple[float, float, float, float], radius: float, fill: str | None, outline: str | None, width: int) -> None:
        """:func:`rounded_box` (with a ``radius``) or :func:`flat_box` (none) on the palette,
        from tiles of the box drawn once (the second time it is seen), as those are: a
        small box from their cache, a larger one drawn on the palette in parts (the
        rows of a corner masked, the plain rows between them filled)."""
        x0, y0, x1, y1 = xy
        self._fresh = None
        if x0 >= 0 and y0 >= 0:
            ox, oy = 2 * int(x0 // 2), 2 * int(y0 // 2)
            key = (x0 - ox, y0 - oy, x1 - ox, y1 - oy, radius, fill, outline, width)
            got = self._tiles.get(key)
            if got is None:
                got = self._tile(key, (x1 - x0) * (y1 - y0))
            if got is not None:
                parts, exact, small, inner = got
                im = self._im
                for source, mask, (bx0, by0, bx1, by1) in parts:
                    if mask is None:
                        im.paste(source, (ox + bx0, oy + by0, ox + bx1, oy + by1))
                    else:
                        im.paste(source, (ox + bx0, oy + by0, ox + bx1, oy + by1), mask)
                if not exact:
                    self.taint(xy)
                elif small:  # what it covers of an impure pixel is pure again (a larger box
                    # is not drawn over text or icons: were one, the picture would be drawn in RGB)
                    source, mask, (_, _, w, h) = parts[0]
                    box = (ox, oy, ox + w, oy + h)
                    if self._impure.crop(box).getbbox(False) is not None:
                        self._impure.paste(0, box, mask)
                    if inner is not None:  # (a text inside it next knows what lies under it)
                        self._fresh = (ox + inner[0], oy + inner[1], ox + inner[2], oy + inner[3], inner[4])
                return
        if radius:
            self.d.rounded_rectangle(xy, radius, fill=fill, outline=outline, width=width)
        else:
            self.d.rectangle(xy, fill=fill, outline=outline, width=width)

    def _tile(self, key: tuple, area: float) -> tuple[list[tuple[Any, Any, tuple[int, int, int, int]]], bool, bool] | None:
        """The tile of a box (``key`` as :func:`_paste_box` makes it) on this palette, made
        and kept the second time the box is seen (None before, or if it cannot be one)."""
        kx0, ky0, kx1, ky1, radius, fill, outline, width = key
        if not (kx1 >= kx0 and ky1 >= ky0 and _opaque(fill) and _opaque(outline)) or (fill is None and outline is None):
            return None
        small = area <= SMALL_BOX
        if small:  # the tiles every canvas shares (RGB), mapped to the palette
            tile = _tile(key, True)
            if tile is None:
                return None
            w, h = tile[0].size
            parts = [(tile[0].im.convert("P", 0, self.inks.core), tile[1].im, (0, 0, w, h))]
        else:
            seen = self.inks.seen
            if key not in seen:
                if len(seen) >= _KEEP_PTILES:
                    seen.clear()
                seen[key] = None
                return None
            parts = self._big_tile(key)
        exact = all(c is None or self.inks.ink(c)[1] for c in (fill, outline))
        inner = None
        if small and exact and fill is not None:  # its plain inside, clear of the corners and edge
            m = max(int(radius), width) + 1
            rect = (int(kx0) + 1 + m, int(ky0) + 1 + m, int(kx1) - m, int(ky1) - m)
            index = self.inks.ink(fill)[0]
            core, mask, _ = parts[0]
            if rect[0] < rect[2] and rect[1] < rect[3] and core.crop(rect).getextrema() == (index, index) and mask.crop(rect).getextrema() == (255, 255):
                inner = (*rect, index)
        if len(self._tiles) >= _KEEP_PTILES:
            self._tiles.clear()
        got = self._tiles[key] = (parts, exact, small, inner)
        return got

    def _big_tile(self, key: tuple) -> list[tuple[Any, Any, tuple[int, int, int, int]]]:
        """A larger box drawn once on the palette (as :func:`_box_tile` draws a tile) and
        cut into parts to paste: the masked rows down to the first row the box covers
        whole, the plain rows below it (when all alike, filled run by run), the masked
        rows after them."""
        kx0, ky0, kx1, ky1, radius, fill, outline, width = key
        w, h = int(kx1) + 2, int(ky1) + 2
        im, uncover = Image.new("P", (w, h), 0), Image.new("L", (w, h), 255)  # (what it leaves uncovered: 255)
        ink = self.inks.ink
        fi, oi = (None if fill is None else ink(fill)[0]), (None if outline is None else ink(outline)[0])
        # (one ink for the fill and the outline would skip the outline: drawn on their own)
        for target, f, o in ((im, fi, oi), (uncover, None if fill is None else 0, None), (uncover, None, None if outline is None else 0)):
            if f is None and o is None:
                continue
            if radius:
                ImageDraw.Draw(target).rounded_rectangle((kx0, ky0, kx1, ky1), radius, fill=f, outline=o, width=width)
            else:
                ImageDraw.Draw(target).rectangle((kx0, ky0, kx1, ky1), fill=f, outline=o, width=width)
        bbox = uncover.point(_COVERED).getbbox()
        if bbox is None:
            return []
        left, right = bbox[0], bbox[2]  # the columns it covers
        # a row is covered whole where nothing of it is left uncovered
        runs = itertools.groupby(enumerate(uncover.crop((left, 0, right, h)).im.getprojection()[1]), key=lambda yv: yv[1] == 0)
        a = b = 0  # the longest run of rows covered whole: [a, b)
        for whole, rows in runs:
            ys = [y for y, _ in rows]
            if whole and len(ys) > b - a:
                a, b = ys[0], ys[-1] + 1

        def masked(top: int, bottom: int) -> tuple[Any, Any, tuple[int, int, int, int]]:
            band = (0, top, w, bottom)
            return im.crop(band).im, uncover.crop(band).point(_COVERED, "1").im, band

        if b - a < 8:
            return [masked(0, h)]
        parts = [masked(0, a)] if a else []
        first = im.crop((left, a, right, a + 1))
        alike = first.resize((right - left, b - a), Image.Resampling.NEAREST)  # every row as the first
        if im.crop((left, a, right, b)).im.chop_difference(alike.im).getbbox(False) is None:
            x = left
            for index, run in itertools.groupby(first.tobytes()):
                n = len(list(run))
                parts.append((index, None, (x, a, x + n, b)))
                x += n
        else:
            parts.append((im.crop((left, a, right, b)).im, None, (left, a, right, b)))
        if b < h:
            parts.append(masked(b, h))
        return parts

    def boxed(
        self,
        xy: tuple[float, float, float, float],
        fill: str | None,
        outline: str | None,
        im: Image.Image,
        x: int,
        y: int,
        radius: float = 0,
        width: int = 1,
    ) -> None:
        """:meth:`flat_box`, then the RGBA ``im`` pasted at (x, y) inside the box: one
        tile of the two (a cell with its icon, a slot with its token) once they were
        drawn together (as :meth:`flat_box` and :meth:`paste_rgba` would draw them)."""
        x0, y0, x1, y1 = xy
        self._fresh = None
        if x0 >= 0 and y0 >= 0:
            ox, oy = 2 * int(x0 // 2), 2 * int(y0 // 2)
            key = ("boxed", x0 - ox, y0 - oy, x1 - ox, y1 - oy, radius, fill, outline, width, id(im), x - ox, y - oy)
            got = self._tiles.get(key)
            if got is None or got[6] is not im:
                got = self._boxed_tile(key, im)
            if got is not None:
                core, mask, ones, w, h, exact, _ = got
                box = (ox, oy, ox + w, oy + h)
                if self._impure.crop(box).getbbox(False) is not None:
                    self._impure.paste(0, box, mask)  # true colours again
                self._im.paste(core, box, mask)
                if not exact:
                    self.taint(xy)
                iw, ih = im.size
                self._impure.paste(ones, (x, y, x + iw, y + ih))  # (0 under the box now)
                return
        self.flat_box(xy, radius, fill, outline, width)
        self.paste_rgba(im, x, y)

    def _boxed_tile(self, key: tuple, im: Image.Image) -> tuple[Any, Any, Any, int, int, bool, Image.Image] | None:
        """The tile of :meth:`boxed`: the box's tile with the picture blended in (its
        sprite over the box's colour, or over the box's true colours where it lies on
        several); None before the box is a tile, or if the picture is not inside it."""
        _, kx0, ky0, kx1, ky1, radius, fill, outline, width, _, ix, iy = key
        if im.mode != "RGBA":
            return None
        box_key = (kx0, ky0, kx1, ky1, radius, fill, outline, width)
        tile = self._tiles.get(box_key) or self._tile(box_key, (kx1 - kx0) * (ky1 - ky0))
        if tile is None or not tile[2]:  # (not yet a tile, not small)
            return None
        core, mask, (_, _, w, h) = tile[0][0]
        iw, ih = im.size
        inside = (ix, iy, ix + iw, iy + ih)
        if ix < 0 or iy < 0 or ix + iw > w or iy + ih > h or mask.crop(inside).getextrema() != (255, 255):
            return None
        lo, hi = core.crop(inside).getextrema()
        both = core.copy()
        if lo == hi and tile[1]:
            sprite = self._sprites.get((id(im), lo))
            if sprite is None or sprite[2] is not im:
                sprite = self._sprite((id(im), lo), inside, None, im.im, _alpha(im), lo, im)
            both.paste(sprite[0], inside)
        else:  # over several colours (or one not exact): blended over the tile's true colours
            rgb, _ = _box_tile(*box_key)
            rgb.im.paste(im.im, inside, im.im)
            both.paste(rgb.im.crop(inside).convert("P", 0, self.inks.core), inside)
        if len(self._tiles) >= _KEEP_PTILES:
            self._tiles.clear()
        got = self._tiles[key] = (both, mask, _alpha(im), w, h, tile[1], im)
        return got

    def finish(self, height: int, width: int | None = None) -> Image.Image:
        _POOL.impure = self.impure  # for the next canvas of this thread
        box = (0, 0, width or self.width, height)
        if box == (0, 0, self.width, self.height):
            return self.img
        img = self.img.crop(box)
        if box[2] > self.width or height > self.height:  # Image.crop's black beyond the canvas
            black = self.inks.quantize((0, 0, 0))
            if box[2] > self.width:
                img.im.paste(black, (self.width, 0, box[2], height))
            if height > self.height:
                img.im.paste(black, (0, self.height, box[2], height))
        return img


_POOL = threading.local()


def _impure_map(width: int, height: int, value: int) -> Image.Image:
    """The map of what is impure on a canvas of ``width`` x ``height``: the one the last
    finished canvas of this thread left (cleared, if large enough), else a new one. A
    fresh image of a few MB costs milliseconds of page faults; clearing one, a tenth."""
    got: Image.Image | None = getattr(_POOL, "impure", None)
    _POOL.impure = None  # this canvas's until it is finished
    if got is None or got.width < width or got.height < height:
        return Image.new("L", (width, height), value)
    got.im.paste(value, (0, 0, width, height))
    return got


_ALPHA: dict[int, tuple[Image.Image, Any]] = {}


def _alpha(im: Image.Image) -> Any:
    """The alpha of an RGBA picture (kept with it): not 0 where it covers."""
    got = _ALPHA.get(id(im))
    if got is None or got[0] is not im:
        if len(_ALPHA) >= 1024:
            _ALPHA.clear()
        got = _ALPHA[id(im)] = (im, im.getchannel("A").im)
    return got[1]


def _bounds(xy: Any) -> tuple[float, float, float, float]:
    """The corners of what ImageDraw's ``xy`` (corners, points or flat numbers) spans."""
    if len(xy) and isinstance(xy[0], (int, float)):
        xs, ys = xy[0::2], xy[1::2]
    else:
        xs, ys = [p[0] for p in xy], [p[1] for p in xy]
    return min(xs), min(ys), max(xs), max(ys)


class PaletteDraw:
    """ImageDraw's shapes on a :class:`PaletteCanvas`: each colour given as its index;
    what is drawn in a colour that is not exact is marked as such."""

    def __init__(self, cv: PaletteCanvas) -> None:
        self.cv = cv
        self.draw = ImageDraw.Draw(cv.img)
        self._clear: ImageDraw.ImageDraw | None = None

    def _shape(self, name: str, xy: Any, pad: float, fill: Any, outline: Any, **kw: Any) -> None:
        """ImageDraw's ``name`` shape in the indices of ``fill`` and ``outline``; its
        pixels marked impure if a colour is not exact, else pure again."""
        if fill is None and outline is None:
            raise Inexact("ImageDraw's default colour")
        self.cv._fresh = None
        ink = self.cv.inks.ink
        (i, ok), (j, ok2) = ink(fill) if fill is not None else (None, True), ink(outline) if outline is not None else (None, True)
        getattr(self.draw, name)(xy, fill=i, outline=j, **kw)
        cv = self.cv
        x0, y0, x1, y1 = _bounds(xy)
        box = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
        if not (ok and ok2):
            cv.taint(box)
            return
        area = (max(0, int(box[0]) - 1), max(0, int(box[1]) - 1), min(cv.width, int(box[2]) + 3), min(cv.height, int(box[3]) + 3))
        if area[0] < area[2] and area[1] < area[3] and cv._impure.crop(area).getbbox(False) is not None:
            # drawn over something impure: the same shape in 0 on the map of impure pixels
            if self._clear is None:
                self._clear = ImageDraw.Draw(cv.impure)
            shape = getattr(self._clear, name)
            if fill is not None:
                shape(xy, fill=0, **{k: v for k, v in kw.items() if k != "width"})
            if outline is not None:
                shape(xy, outline=0, **kw)

    def line(self, xy: Any, fill: Any = None, width: int = 1, joint: str | None = None) -> None:
        """A line. What it covers stays marked impure if it was (no check and no
        clearing: lines are not drawn under text or icons; were one, that picture
        would be drawn in RGB)."""
        if fill is None:
            raise Inexact("ImageDraw's default colour")
        self.cv._fresh = None
        index, exact = self.cv.inks.ink(fill)
        if joint == "curve" and width > 4:
            self.draw.line(xy, fill=index, width=width, joint=joint)
        elif width:  # (what ImageDraw.line does then)
            core = self.draw.draw
            core.draw_lines(xy, core.draw_ink(index), width)
        if not exact:
            x0, y0, x1, y1 = _bounds(xy)
            self.cv.taint((x0 - width, y0 - width, x1 + width, y1 + width))

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._shape("rectangle", xy, 0, fill, outline, width=width)

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._shape("rounded_rectangle", xy, 0, fill, outline, radius=radius, width=width)

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._shape("ellipse", xy, 0, fill, outline, width=width)

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._shape("polygon", xy, 0, fill, outline, width=width)

    def __getattr__(self, name: str) -> Any:
        raise Inexact(f"ImageDraw.{name} on the palette")


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
