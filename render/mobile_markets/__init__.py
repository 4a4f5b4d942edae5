"""Mobile Markets pictures: the public table, a player's private picture (≤ 800 px wide),
a plan preview and a product preview."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.mobile_markets import board, private

__all__ = ["board", "draw_plan", "private"]


def draw_plan(view: dict[str, Any], decision: dict[str, Any]) -> Image.Image:
    """A plan (Pads) or, for a product action (``{"type": "product", ...}``), the
    product preview: net profit per sale and the buyers in sale order."""
    if decision.get("type") == "product":
        return private.draw_product(view, decision)
    return private.draw_plan(view, decision)
