"""Pictures as PNG bytes that fit Discord's upload limit.

Discord accepts uploads of up to 10 MiB per file from bots today; the older limit
was 8 MiB, and some of Discord's documentation counts the whole request. The bot
keeps every picture (and every message's pictures together) under 8 MiB:

1. the plain PNG (fast; the board pictures are a few hundred kB);
2. if larger: the same PNG with ``optimize=True``;
3. then a 256-colour palette (flat board graphics lose almost nothing);
4. then the palette picture at half the size, up to three times;
5. else ``None``: the message goes out without that picture, never fails.

No ``discord`` import here: the functions are tested on their own.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable
from typing import Any

from PIL import Image

log = logging.getLogger("boardroom.pictures")

MAX_UPLOAD = 8 * 1024 * 1024  # bytes; Discord's older per-upload limit (bots now get 10 MiB)
HALVINGS = 3


def _png(image: Image.Image, **kw: Any) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG", **kw)
    return buf.getvalue()


def _palette(image: Image.Image) -> Image.Image:
    if image.mode == "P":
        return image
    if image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
    return image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)


def png_bytes(image: Image.Image, limit: int = MAX_UPLOAD) -> bytes | None:
    """``image`` as PNG bytes of at most ``limit`` bytes, or None if no step gets there."""
    data = _png(image, optimize=False)
    if len(data) <= limit:
        return data
    log.info("picture of %d bytes is over %d: re-encoding", len(data), limit)
    data = _png(image, optimize=True)
    if len(data) <= limit:
        return data
    current = image
    for step in range(HALVINGS + 1):
        if step:
            w, h = current.size
            if w < 2 or h < 2:
                break
            current = current.resize((w // 2, h // 2), Image.Resampling.LANCZOS)
        data = _png(_palette(current), optimize=True)
        if len(data) <= limit:
            return data
    log.warning("picture still %d bytes after re-encoding; sent without it", len(data))
    return None


def within_budget(sizes: Iterable[int], budget: int = MAX_UPLOAD) -> int:
    """How many of the leading files (by size, in order) fit in one message's budget."""
    total = n = 0
    for size in sizes:
        if total + size > budget:
            break
        total += size
        n += 1
    return n
