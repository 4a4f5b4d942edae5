"""What the Update 1.1 modules add to the pictures: legend entries for the pieces the
map draws (mixed Buyers of the 2-3 player board, CEO figures, Marketing Tokens, second
Goods) and the Directives panel."""

from __future__ import annotations

from typing import Any

from render.smartphone_inc import map as world
from render.smartphone_inc.frame import LegendItem
from render.smartphone_inc.kit import Canvas


def _mixed_buyer(cv: Canvas, x: float, y: float) -> None:
    world.draw_buyer(cv, {"price": 3, "tech": "gps"}, x, y - 1, 44, 34)


def legend_items(view: dict[str, Any]) -> list[LegendItem]:
    """The legend entries of the modules in play in ``view``."""
    items: list[LegendItem] = []
    if world.board_of(view) == "small":
        items.append((44, _mixed_buyer, "mixed Buyer: pays up to 3 OR needs GPS"))
    return items
