"""Smartphone Inc. pictures: the public board, a player's private picture, a plan preview."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.smartphone_inc import board, plan, private

__all__ = ["draw", "draw_plan"]


def draw(view: dict[str, Any]) -> Image.Image:
    if view.get("you") is None:
        return board.draw(view)
    return private.draw(view)


def draw_plan(view: dict[str, Any], plan_: dict[str, Any]) -> Image.Image:
    return plan.draw(view, plan_)
