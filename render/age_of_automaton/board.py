from __future__ import annotations

from typing import Any

from PIL import Image


def draw(view: dict[str, Any]) -> Image.Image:
    return Image.new("RGB", (100, 100), "white")
