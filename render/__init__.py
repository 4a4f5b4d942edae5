"""Pillow pictures of game views (see shared/DESIGN.md).

``draw(game_name, view)`` draws the picture of a view returned by ``game.view(state, seat)``:
the table for the public view (seat ``None``), that player's private picture for a
seat's view. ``draw_plan(game_name, view, plan)`` previews a plan for the planner.
``draw_compact(game_name, view)`` draws the compact picture of the seat's decision
(at most 800 px wide, text at least 20 px high: readable on a phone).
Nothing here reads raw state or imports the bot or discord.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from typing import Any

from PIL import Image

from render.kit import png_bytes as png_bytes

__all__ = ["draw", "draw_compact", "draw_plan", "png_bytes", "games"]


def _package(game_name: str) -> str:
    """A game's pictures live in the package named after it: "smartphone-inc" ->
    ``render.smartphone_inc`` (so a new game adds its folder, and no line here)."""
    return f"{__name__}.{game_name.replace('-', '_')}"


def games() -> list[str]:
    """The games this package draws (one subpackage each)."""
    return sorted(m.name.replace("_", "-") for m in pkgutil.iter_modules(__path__) if m.ispkg and m.name != "fonts")


_LOADED: dict[str, Any] = {}  # game name -> its pictures package, once found


def _module(game_name: str) -> Any:
    found = _LOADED.get(game_name)
    if found is not None:  # no scan of the package folder per picture (about 2 ms each)
        return found
    if game_name in games() and importlib.util.find_spec(_package(game_name)) is not None:
        found = _LOADED[game_name] = importlib.import_module(_package(game_name))
        return found
    raise KeyError(f"no pictures for game {game_name!r}; known: {', '.join(games())}")


def draw(game_name: str, view: dict[str, Any]) -> Image.Image:
    """The picture of ``view``: the public table (``view["you"] is None``: the game's
    ``board.draw``) or the seat's private picture (its ``private.draw``)."""
    pictures = _module(game_name)
    return (pictures.board if view.get("you") is None else pictures.private).draw(view)


def draw_plan(game_name: str, view: dict[str, Any], plan: dict[str, Any]) -> Image.Image:
    """A preview of ``plan`` for the seat whose private ``view`` is given.

    Raises ``engine.IllegalAction`` (a ValueError) if the plan breaks a Planning rule.
    """
    return _module(game_name).draw_plan(view, plan)


def draw_compact(
    game_name: str, view: dict[str, Any], prompt: dict[str, Any] | None = None
) -> Image.Image:
    """The compact picture of a seat's decision: only what ``prompt`` (by default
    ``view["prompt"]``) needs, for a phone. ``view`` is that seat's private view."""
    return _module(game_name).draw_compact(view, prompt)
