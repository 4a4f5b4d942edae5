"""Smartphone Inc. pictures: the public board, a player's private picture, a plan preview,
and the compact picture of a decision for phones."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.smartphone_inc import board, compact, plan, private

__all__ = ["draw", "draw_compact", "draw_plan"]


def draw(view: dict[str, Any]) -> Image.Image:
    if view.get("you") is None:
        return board.draw(view)
    return private.draw(view)


def draw_plan(view: dict[str, Any], plan_: dict[str, Any]) -> Image.Image:
    return plan.draw(view, plan_)


def draw_compact(view: dict[str, Any], prompt: dict[str, Any] | None = None) -> Image.Image:
    return compact.draw_compact(view, prompt)
