"""The public board of Age of Automaton as SVG (render.svg): the same drawing as the
PNG (render.age_of_automaton.board), its names and numbers SVG text. The markers, dice
and labels the PNG pastes as small pictures (drawn once with their letter) are drawn
here as shapes with their letter as text."""

from __future__ import annotations

from typing import Any

from render import svg
from render.age_of_automaton import board as public
from render.age_of_automaton import private
from render.age_of_automaton.kit import EDGE, INK, PANEL, Canvas

HEIGHT = 3200  # the PNG's tallest canvas (board.draw)


class SvgCanvas(svg.SvgCanvas, Canvas):
    """The Age of Automaton canvas and its helpers, writing SVG."""

    def box(self, x0: float, y0: float, x1: float, y1: float, fill: str | None = PANEL, outline: str | None = EDGE,
            width: int = 1, radius: int = 6) -> None:
        self.flat_box((x0, y0, x1, y1), radius, fill, outline, width)

    def token(self, cx: float, cy: float, r: float, fill: str, ink: str, letter: str, size: int) -> None:
        r, x, y = int(round(r)), int(round(cx - r)), int(round(cy - r))
        self.d.ellipse((x, y, x + 2 * r, y + 2 * r), fill=fill, outline=INK, width=2)
        self.text(x + r, y + r, letter, size, True, ink, "mm")

    def square(self, x: float, y: float, s: float, fill: str, ink: str, label: str, size: int) -> None:
        x, y, s = int(round(x)), int(round(y)), int(round(s))
        self.d.rounded_rectangle((x, y, x + s, y + s), 4, fill=fill, outline=INK, width=1)
        self.text(x + s / 2, y + s / 2, label, size, True, ink, "mm")

    def label(self, x: float, y: float, w: float, h: float, fill: str, outline: str, s: str, size: int,
              bold: bool = False, ink: str = INK) -> None:
        x, y, w, h = int(round(x)), int(round(y)), int(round(w)), int(round(h))
        self.d.rounded_rectangle((x, y, x + w, y + h), 4, fill=fill, outline=outline, width=1)
        self.text(x + 6, y + h / 2, s, size, bold, ink, "lm")


CLASSES = {Canvas: SvgCanvas}


def board(view: dict[str, Any]) -> str:
    """The SVG document of the public board of ``view`` (the engine's public view)."""
    return svg.draw(lambda: public._draw(view, HEIGHT), CLASSES)


def mine(view: dict[str, Any]) -> str:
    """The SVG of the seat's own area (its private picture) from its own view; its
    automatons carry ``worker-<level>`` (render.age_of_automaton.player)."""
    return svg.draw(lambda: private._draw(view, HEIGHT), CLASSES)
