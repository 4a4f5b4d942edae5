"""The public board of Mobile Markets as SVG (render.svg): the same drawing as the PNG
(render.mobile_markets.board), its names and numbers SVG text."""

from __future__ import annotations

from typing import Any

from render import svg
from render.mobile_markets import board as public
from render.mobile_markets.look import Canvas
from render.smartphone_inc import svg as si_svg

HEIGHT = 3000  # the PNG's tallest canvas (board.draw)


class SvgCanvas(si_svg.SvgCanvas, Canvas):
    """The Mobile Markets canvas (the Smartphone Inc. helpers) writing SVG."""


CLASSES = {Canvas: SvgCanvas}


def board(view: dict[str, Any]) -> str:
    """The SVG document of the public board of ``view`` (the engine's public view)."""
    return svg.draw(lambda: public._draw(view, HEIGHT), CLASSES)
