"""Pictures stay under Discord's upload limit: re-encoded, shrunk, or left out; the
message never fails because of a picture."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import pictures
from bot.discord_bot import create_bot


def noise(width: int, height: int, mode: str = "RGB") -> Image.Image:
    """Random pixels: PNG cannot compress them, so the file is as big as the raw data."""
    return Image.frombytes(mode, (width, height), os.urandom(width * height * len(mode)))


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.fixture(scope="module")
def huge() -> Image.Image:
    img = noise(1800, 1700)  # about 9.2 MB of pixels: over 8 MiB as a PNG
    return img


def test_a_small_picture_is_the_plain_png() -> None:
    img = Image.new("RGB", (300, 200), "teal")
    data = pictures.png_bytes(img)
    assert data is not None and data[:8] == b"\x89PNG\r\n\x1a\n"
    assert decoded(data).size == (300, 200) and decoded(data).mode == "RGB"


def test_a_huge_picture_is_re_encoded_under_8_mib(huge: Image.Image) -> None:
    buf = io.BytesIO()
    huge.save(buf, format="PNG")
    assert len(buf.getvalue()) > pictures.MAX_UPLOAD  # the fake really is too big
    data = pictures.png_bytes(huge)
    assert data is not None and len(data) <= pictures.MAX_UPLOAD
    out = decoded(data)
    assert out.size == huge.size and out.mode == "P"  # a palette, same size


def test_shrinks_when_a_palette_is_not_enough() -> None:
    img = noise(400, 300, "RGBA")
    limit = 60_000  # the palette picture is about 120 kB: one halving is needed
    data = pictures.png_bytes(img, limit)
    assert data is not None and len(data) <= limit
    assert decoded(data).size == (200, 150)


def test_gives_up_with_none_rather_than_failing() -> None:
    assert pictures.png_bytes(noise(64, 64), limit=100) is None


def test_within_budget_counts_the_leading_files_that_fit() -> None:
    assert pictures.within_budget([3, 3, 3], 7) == 2
    assert pictures.within_budget([9, 1], 7) == 0
    assert pictures.within_budget([], 7) == 0


class HugeRenderer:
    def __init__(self, image: Image.Image) -> None:
        self.image = image

    def draw(self, game: str, view: dict[str, Any]) -> Image.Image:
        return self.image


async def test_the_bot_uploads_a_fitting_picture_or_none(tmp_path: Path, huge: Image.Image) -> None:
    client = create_bot(db_path=str(tmp_path / "p.db"), renderer=HugeRenderer(huge))
    try:
        file = await client.picture("board.png", "draw", "smartphone-inc", {})
        assert file is not None and file.filename == "board.png"
        assert len(file.fp.read()) <= pictures.MAX_UPLOAD
        client.upload_limit = 100  # nothing can fit: no picture, no exception
        assert await client.picture("board.png", "draw", "smartphone-inc", {}) is None
    finally:
        await client.close()


def test_file_size_of_an_upload_keeps_its_position() -> None:
    import discord

    from bot.cogs.play import file_size

    f = discord.File(io.BytesIO(b"x" * 1234), filename="a.png")
    assert file_size(f) == 1234 and f.fp.tell() == 0
