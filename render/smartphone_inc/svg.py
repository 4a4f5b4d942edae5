"""The public board of Smartphone Inc. as SVG (render.svg): the same drawing as the
PNG (render.smartphone_inc.board), its names and numbers SVG text."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render import svg
from render.smartphone_inc import board as public
from render.smartphone_inc import private
from render.smartphone_inc.kit import Canvas, PaletteCanvas

HEIGHT = 3600  # the PNG's tallest canvas (board.draw)


class SvgCanvas(svg.SvgCanvas, Canvas):
    """The board's canvas and its helpers; boxes and pasted pictures as SVG."""

    def box(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: str | None = None,
        outline: str | None = None,
        width: int = 1,
        radius: int = 0,
    ) -> None:
        self.flat_box((x0, y0, x1, y1), radius, fill, outline, width)

    def paste(self, im: Image.Image, x: float, y: float) -> None:
        self.paste_rgba(im, round(x), round(y))


CLASSES = {Canvas: SvgCanvas, PaletteCanvas: SvgCanvas}


def board(view: dict[str, Any]) -> str:
    """The SVG document of the public board of ``view`` (the engine's public view)."""
    return svg.draw(lambda: public._draw_on(SvgCanvas(public.t.WIDTH, HEIGHT), view), CLASSES)


def mine(view: dict[str, Any], draft: dict[str, Any] | None = None) -> str:
    """The SVG of the seat's own area (its private picture) from its own view, with the
    plan it is laying (``draft``: the table's, a plan whose top Pad may not be laid yet)."""
    return svg.draw(lambda: private._draw(view, HEIGHT, draft), CLASSES)
