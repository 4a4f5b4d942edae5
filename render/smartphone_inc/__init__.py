"""Smartphone Inc. pictures: the public board, a player's private picture, a plan preview,
and the compact picture of a decision for phones."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.smartphone_inc import board, compact, plan_compact, private

__all__ = ["board", "draw_compact", "draw_plan", "private"]


def draw_plan(view: dict[str, Any], plan_: dict[str, Any]) -> Image.Image:
    """The planner's preview: a compact picture (640 px, text >= 22 px), readable on a phone
    (the 1200 px preview, render.smartphone_inc.plan, stays for the docs)."""
    return plan_compact.draw(view, plan_)


def draw_compact(view: dict[str, Any], prompt: dict[str, Any] | None = None) -> Image.Image:
    return compact.draw_compact(view, prompt)
