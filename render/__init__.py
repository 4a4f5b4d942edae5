"""Pillow pictures of game views (see shared/DESIGN.md).

``draw(game_name, view)`` draws the picture of a view returned by ``game.view(state, seat)``:
the table for the public view (seat ``None``), that player's private picture for a
seat's view. ``draw_plan(game_name, view, plan)`` previews a plan for the planner.
Nothing here reads raw state or imports the bot or discord.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

__all__ = ["draw", "draw_plan", "png_bytes", "games"]


def games() -> list[str]:
    return ["smartphone-inc"]


def _module(game_name: str) -> Any:
    if game_name == "smartphone-inc":
        from render import smartphone_inc

        return smartphone_inc
    raise KeyError(f"no pictures for game {game_name!r}; known: {', '.join(games())}")


def draw(game_name: str, view: dict[str, Any]) -> Image.Image:
    """The picture of ``view``: public table (``view["you"] is None``) or private."""
    return _module(game_name).draw(view)


def draw_plan(game_name: str, view: dict[str, Any], plan: dict[str, Any]) -> Image.Image:
    """A preview of ``plan`` for the seat whose private ``view`` is given.

    Raises ``engine.IllegalAction`` (a ValueError) if the plan breaks a Planning rule.
    """
    return _module(game_name).draw_plan(view, plan)


def png_bytes(image: Image.Image) -> bytes:
    """``image`` encoded as PNG (what the bot sends)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()
