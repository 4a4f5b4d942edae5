"""Age of Automaton pictures: the public table (main board and every player's board) and
a player's private picture (hand of Specialists, draft choices, own board)."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.age_of_automaton import board, private

__all__ = ["board", "draw_plan", "private"]


def draw_plan(view: dict[str, Any], plan: dict[str, Any]) -> Image.Image:
    """Age of Automaton has no plan to preview: the private picture."""
    return private.draw(view)
