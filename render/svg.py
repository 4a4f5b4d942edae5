"""The second medium of the render kit: the same drawing code, written as SVG.

A game's picture code draws through a :class:`render.kit.Canvas` (text, boxes, ImageDraw's
shapes on ``cv.d``, pasted RGBA icons). :class:`SvgCanvas` takes the same calls and writes
SVG elements instead of pixels: every text is an SVG ``<text>`` (its string, size, weight
and colour; ``textLength`` keeps the width the PNG gives it, whatever font the browser
has), shapes are ``<rect>``/``<ellipse>``/``<polygon>``/``<polyline>``/``<path>``, and a
pasted icon is one PNG data URI in ``<defs>`` reused by ``<use>`` wherever it is pasted.

``cv.tag(ident, kind)`` (a no-op on a PNG canvas) wraps what is drawn inside it in a
``<g data-id=… data-kind=…>``: the places a decision can name carry the engine's id.

:func:`draw` runs a game's drawing with every canvas made on this thread an SVG twin of
its class (so sub-pictures a board draws on canvases of its own come out as SVG groups
too); a game's ``render/<game>/svg.py`` names the SVG class of each of its canvases.
Why a backend behind the canvas rather than a second drawing: each later change of a
picture reaches both media with no second copy to keep in step.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib
import io
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from PIL import Image

from render import kit

FONT_FAMILY = "'DejaVu Sans Condensed','DejaVu Sans','Arial Narrow',sans-serif"
INK = "#1f2328"  # the document's fill: the text colour of every game's pictures, written once
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # (no XML document may hold them)


def _n(v: float) -> str:
    """A coordinate with at most one decimal (a short SVG)."""
    if type(v) is int:  # (most are: no rounding to do)
        return str(v)
    r = round(float(v), 1)
    i = int(r)
    return str(i) if r == i else str(r)


_URIS: OrderedDict[tuple[str, tuple[int, int], bytes], str] = OrderedDict()
_URIS_KEEP = 2048  # pictures' PNG encodings kept (icons: a few hundred, a few KiB each)
_URIS_LOCK = threading.Lock()  # (boards are drawn in threads)


def png_uri(im: Image.Image) -> str:
    """``im`` as a PNG data URI, encoded once per content: the icons a board pastes are
    the same pictures from one drawing to the next, and their PNG encoding was half of a
    board's SVG (benchmarks/bench_table_flow.py). Keyed by the pixels themselves (a
    digest of them), so a picture changed in place is never given an old encoding."""
    key = (im.mode, im.size, hashlib.blake2b(im.tobytes(), digest_size=16).digest())
    with _URIS_LOCK:
        got = _URIS.get(key)
        if got is not None:
            _URIS.move_to_end(key)
            return got
    buf = io.BytesIO()
    im.save(buf, format="PNG", optimize=True)
    uri = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
    with _URIS_LOCK:
        _URIS[key] = uri
        while len(_URIS) > _URIS_KEEP:
            _URIS.popitem(last=False)
    return uri


def _colour(c: Any) -> str:
    if c is None:
        return "none"
    if isinstance(c, tuple):
        return "#{:02x}{:02x}{:02x}".format(*c[:3])
    if isinstance(c, int):  # (a grey level, as ImageDraw takes one on an L picture)
        return f"#{c:02x}{c:02x}{c:02x}"
    return str(c)


def _paint(fill: Any, outline: Any, width: float) -> str:
    out = f' fill="{_colour(fill)}"'
    if outline is not None and width:
        out += f' stroke="{_colour(outline)}" stroke-width="{_n(width)}"'
    return out


class Defs:
    """The pictures pasted into one SVG document, each embedded once (a PNG data URI).

    Once by content, not by object: two pictures with the same pixels are one ``<image>``.
    A drawing's icons are the same objects or equal copies depending on what a process
    drew before (the caches of the kit), and the document must not depend on that: the
    table's board for a view is the same bytes in every process, first drawing or not."""

    def __init__(self) -> None:
        self.ids: dict[int, tuple[str, Image.Image]] = {}  # the object's id: its ident (fast path)
        self.by_uri: dict[str, str] = {}  # the picture's PNG: its ident
        self.parts: list[str] = []

    def ref(self, im: Image.Image) -> str:
        got = self.ids.get(id(im))
        if got is not None and got[1] is im:
            return got[0]
        uri = png_uri(im)
        ident = self.by_uri.get(uri)
        if ident is None:
            ident = f"p{len(self.parts)}"
            self.parts.append(f'<image id="{ident}" width="{im.width}" height="{im.height}" href="{uri}"/>')
            self.by_uri[uri] = ident
        self.ids[id(im)] = (ident, im)
        return ident


class SvgImage:
    """What an SVG canvas's ``img`` is: its elements, with the few calls of a PIL image
    the drawing code makes on it (``paste``, ``crop``, ``width``/``height``)."""

    def __init__(self, width: int, height: int, bg: Any, defs: Defs) -> None:
        self.width, self.height = width, height
        self.bg = bg
        self.defs = defs
        self.parts: list[str] = []

    def body(self) -> list[str]:
        """Its elements, its ground first (as large as it is now: cut or finished)."""
        ground = [] if self.bg is None else [f'<rect width="{self.width}" height="{self.height}" fill="{_colour(self.bg)}"/>']
        return ground + self.parts

    @property
    def size(self) -> tuple[int, int]:
        return self.width, self.height

    def paste(self, im: Any, box: Any = None, mask: Any = None) -> None:
        x, y = (box or (0, 0))[:2]
        if isinstance(im, SvgImage):  # a sub-picture drawn on an SVG canvas: inlined
            self.parts.append(f'<g transform="translate({_n(x)},{_n(y)})">')
            self.parts.extend(im.body())
            self.parts.append("</g>")
        elif isinstance(im, Image.Image):
            self.parts.append(f'<use href="#{self.defs.ref(im)}" x="{_n(x)}" y="{_n(y)}"/>')

    def crop(self, box: tuple[float, float, float, float]) -> SvgImage:
        out = SvgImage(int(box[2] - box[0]), int(box[3] - box[1]), self.bg, self.defs)
        if box[0] or box[1]:
            out.parts = [f'<g transform="translate({_n(-box[0])},{_n(-box[1])})">', *self.parts, "</g>"]
        else:
            out.parts = list(self.parts)
        return out

    def document(self) -> str:
        """The whole SVG document (its pictures in ``<defs>``)."""
        defs = f"<defs>{''.join(self.defs.parts)}</defs>" if self.defs.parts else ""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}" '
            f'width="{self.width}" height="{self.height}" font-family="{FONT_FAMILY}" fill="{INK}">'
            f"{defs}{''.join(self.body())}</svg>"
        )


class SvgDraw:
    """ImageDraw's shapes (as the picture code calls them on ``cv.d``) as SVG elements."""

    def __init__(self, img: SvgImage) -> None:
        self.img = img

    def _add(self, s: str) -> None:
        self.img.parts.append(s)

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self.rounded_rectangle(xy, 0, fill, outline, width)

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        x0, y0, x1, y1 = kit._bounds(xy)
        inset = width / 2 if outline is not None else 0  # ImageDraw's outline lies inside the box
        x0, y0, x1, y1 = x0 + inset, y0 + inset, x1 + 1 - inset, y1 + 1 - inset
        r = f' rx="{_n(radius)}"' if radius else ""
        self._add(f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(max(0, x1 - x0))}" height="{_n(max(0, y1 - y0))}"{r}'
                  f"{_paint(fill, outline, width)}/>")

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        x0, y0, x1, y1 = kit._bounds(xy)
        self._add(f'<ellipse cx="{_n((x0 + x1 + 1) / 2)}" cy="{_n((y0 + y1 + 1) / 2)}" rx="{_n((x1 - x0 + 1) / 2)}" '
                  f'ry="{_n((y1 - y0 + 1) / 2)}"{_paint(fill, outline, width)}/>')

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        self._add(f'<polygon points="{_points(xy)}"{_paint(fill, outline, width)}/>')

    def line(self, xy: Any, fill: Any = None, width: int = 1, joint: str | None = None) -> None:
        cap = ' stroke-linejoin="round"' if joint == "curve" else ""
        self._add(f'<polyline points="{_points(xy)}" fill="none" stroke="{_colour(fill)}" stroke-width="{_n(width)}"{cap}/>')

    def arc(self, xy: Any, start: float, end: float, fill: Any = None, width: int = 1) -> None:
        x0, y0, x1, y1 = kit._bounds(xy)
        cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
        a, b = math.radians(start), math.radians(end)
        large = 1 if (end - start) % 360 > 180 else 0
        self._add(f'<path d="M{_n(cx + rx * math.cos(a))} {_n(cy + ry * math.sin(a))}A{_n(rx)} {_n(ry)} 0 {large} 1 '
                  f'{_n(cx + rx * math.cos(b))} {_n(cy + ry * math.sin(b))}" fill="none" stroke="{_colour(fill)}" '
                  f'stroke-width="{_n(width)}"/>')


def _points(xy: Any) -> str:
    if len(xy) and isinstance(xy[0], (int, float)):
        pairs = list(zip(xy[0::2], xy[1::2], strict=False))
    else:
        pairs = [(p[0], p[1]) for p in xy]
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pairs)


_ANCHOR = {"l": "", "m": ' text-anchor="middle"', "r": ' text-anchor="end"'}


class SvgCanvas(kit.Canvas):
    """A canvas that writes SVG (mixed in before a game's canvas class, whose helpers it
    keeps). Its :meth:`finish` gives the :class:`SvgImage`; :meth:`document` the SVG."""

    SVG = True

    def __init__(self, width: int, height: int, bg: str = "#ffffff") -> None:
        self.width, self.height = width, height
        self.img = SvgImage(width, height, bg, _defs())  # type: ignore[assignment]
        self.d = SvgDraw(self.img)  # type: ignore[assignment]

    # --- text ---------------------------------------------------------------------------
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
        size = size or self.BODY
        wide = kit.length(s, size, bold)
        if not s:
            return wide
        ascent, descent = kit.font(size, bold).getmetrics()
        v = anchor[1:2] or "a"
        base = {"a": y + ascent, "t": y + ascent, "m": y + (ascent - descent) / 2, "s": y, "b": y - descent, "d": y - descent}.get(v, y + ascent)
        weight = ' font-weight="bold"' if bold else ""
        ink = fill or self.INK
        colour = "" if ink == INK else f' fill="{_colour(ink)}"'
        lines = _NOT_XML.sub("", s).split("\n")
        fit = f' textLength="{_n(wide)}" lengthAdjust="spacingAndGlyphs"' if len(lines) == 1 and wide > 0 else ""
        body = escape(lines[0]) if len(lines) == 1 else "".join(
            f'<tspan x="{_n(x)}" dy="{0 if i == 0 else _n(size * 1.2)}">{escape(ln)}</tspan>' for i, ln in enumerate(lines))
        self.img.parts.append(f'<text x="{_n(x)}" y="{_n(base)}" font-size="{size}"{weight}{colour}'
                              f"{_ANCHOR.get(anchor[:1], '')}{fit}>{body}</text>")
        return wide

    # --- the kit's own box and paste calls ----------------------------------------------------
    def flat_box(self, xy: tuple[float, float, float, float], radius: float, fill: str | None, outline: str | None, width: int) -> None:
        self.d.rounded_rectangle(xy, radius, fill=fill, outline=outline, width=width)

    def paste_rgba(self, im: Image.Image, x: int, y: int) -> None:
        self.img.paste(im, (x, y), im)

    def boxed(self, xy: tuple[float, float, float, float], fill: str | None, outline: str | None, im: Image.Image,
              x: int, y: int, radius: float = 0, width: int = 1) -> None:
        self.flat_box(xy, radius, fill, outline, width)
        self.paste_rgba(im, x, y)

    def kept(self, draw: Callable[..., Any], *args: Any) -> Any:
        """A kept (cached) sub-picture drawn anew, on SVG canvases."""
        return getattr(draw, "__wrapped__", draw)(*args)

    # --- ids ------------------------------------------------------------------------------
    @contextlib.contextmanager
    def tag(self, ident: Any, kind: str = "") -> Iterator[None]:
        """What is drawn inside is one element carrying the engine's id (``data-id``)."""
        k = f" data-kind={quoteattr(kind)}" if kind else ""
        self.img.parts.append(f"<g data-id={quoteattr(_NOT_XML.sub('', str(ident)))}{k}>")
        try:
            yield
        finally:
            self.img.parts.append("</g>")

    def mark(self, ident: Any, kind: str, box: tuple[float, float, float, float], label: str = "") -> None:
        x0, y0, x1, y1 = box
        named = f" aria-label={quoteattr(_NOT_XML.sub('', label))}" if label else ""
        self.img.parts.append(f'<rect data-id={quoteattr(_NOT_XML.sub("", str(ident)))} data-kind={quoteattr(kind)}{named} x="{_n(x0)}" y="{_n(y0)}" '
                              f'width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" fill="#000" fill-opacity="0"/>')

    def finish(self, height: int, width: int | None = None) -> SvgImage:  # type: ignore[override]
        self.img.height = int(height)
        if width is not None:
            self.img.width = int(width)
        return self.img


# --- one drawing on SVG canvases ---------------------------------------------------------------


class _State(threading.local):
    defs: Defs | None = None


_STATE = _State()


def _defs() -> Defs:
    return _STATE.defs if _STATE.defs is not None else Defs()


def twin(cls: type, classes: Mapping[type, type]) -> type:
    """The SVG class of a canvas class: the game's own (``classes``), else the class with
    :class:`SvgCanvas` mixed in first."""
    got = classes.get(cls)
    if got is not None:
        return got
    if issubclass(cls, SvgCanvas):
        return cls
    made = type(f"Svg{cls.__name__}", (SvgCanvas, cls), {})
    return made


def draw(picture: Callable[[], Any], classes: Mapping[type, type]) -> str:
    """The SVG document of ``picture()`` (a game's drawing, which makes its canvases and
    returns its finished picture), every canvas it makes on this thread an SVG twin
    (``classes`` gives a game's own SVG canvas classes)."""
    if _STATE.defs is not None:
        raise RuntimeError("one SVG drawing at a time on a thread")
    _STATE.defs = Defs()
    made: dict[type, type] = {}
    try:
        with kit.canvases_as(lambda cls: made.setdefault(cls, twin(cls, classes))):
            img = picture()
    finally:
        _STATE.defs = None
    if not isinstance(img, SvgImage):
        raise TypeError("the picture was not drawn on an SVG canvas")
    return img.document()


def board(game_name: str, view: dict[str, Any]) -> str:
    """The SVG of the public board of ``view`` (the engine's public view): the game's
    ``render/<game>/svg.py`` draws it with the same code as its PNG."""
    if view.get("you") is not None:
        raise ValueError("the public board is drawn from the public view only")
    module = importlib.import_module(f"render.{game_name.replace('-', '_')}.svg")
    out: str = module.board(view)
    return out


def mine(game_name: str, view: dict[str, Any], draft: Any = None) -> str:
    """The SVG of one seat's own area from ``view`` (that seat's view from the engine,
    never the whole state): the game's ``render/<game>/svg.py`` draws it with the same
    code as the seat's private picture in Discord. ``draft``: the seat's half-built
    decision at the table, where the game draws one (Smartphone Inc.'s plan being laid)."""
    if view.get("you") is None:
        raise ValueError("a seat's own area is drawn from that seat's view only")
    module = importlib.import_module(f"render.{game_name.replace('-', '_')}.svg")
    out: str = module.mine(view, draft) if draft is not None else module.mine(view)
    return out
