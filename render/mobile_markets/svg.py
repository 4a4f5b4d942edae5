"""The public board of Mobile Markets as SVG (render.svg): the same drawing as the PNG
(render.mobile_markets.board), its names and numbers SVG text."""

from __future__ import annotations

from typing import Any

from render import svg
from render.mobile_markets import board as public
from render.mobile_markets import private
from render.mobile_markets.look import Canvas
from render.smartphone_inc import svg as si_svg

HEIGHT = 3000  # the PNG's tallest canvas (board.draw)


class SvgCanvas(si_svg.SvgCanvas, Canvas):
    """The Mobile Markets canvas (the Smartphone Inc. helpers) writing SVG."""


CLASSES = {Canvas: SvgCanvas}


def board(view: dict[str, Any]) -> str:
    """The SVG document of the public board of ``view`` (the engine's public view)."""
    return svg.draw(lambda: public._draw(view, HEIGHT), CLASSES)


def _mine(view: dict[str, Any]) -> Any:
    """The private picture, and below it, while a product is being built, its slots and
    the Feature hand to drag into them (private.product_strip); in Marketing, the
    Customer decks to tap (private.marketing_strip)."""
    desk = private._draw(view, HEIGHT)
    prompt = view.get("prompt") or {}
    if prompt.get("type") not in ("product", "marketing"):
        return desk
    strip = Canvas(private.WIDTH, 1600, private.k.BG)
    if prompt["type"] == "marketing":
        y = private.marketing_strip(strip, prompt, 10)
    else:
        y = private.product_strip(strip, view, prompt, 10)
    part = strip.finish(int(y))
    out = Canvas(private.WIDTH, desk.height + part.height, private.k.BG)
    out.img.paste(desk, (0, 0))
    out.img.paste(part, (0, desk.height))
    return out.finish(desk.height + part.height)


def mine(view: dict[str, Any]) -> str:
    """The SVG of the seat's own area from its own view (the slots carry ``slot:<slot>``,
    the Features their ids)."""
    return svg.draw(lambda: _mine(view), CLASSES)
