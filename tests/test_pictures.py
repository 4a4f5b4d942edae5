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


# ------------------------------------------------------------- fast level, painter


def swatch(colour: str, size: int = 64) -> Image.Image:
    """A module-level drawing function: worker processes can import it."""
    return Image.new("RGB", (size, size), colour).quantize(16)


def test_a_palette_picture_is_written_at_the_fast_level_and_lossless() -> None:
    """The renderer's quantized pictures go out at zlib level 3: same pixels, a bit bigger."""
    img = Image.radial_gradient("L").resize((600, 400)).convert("RGB").quantize(256)
    data = pictures.png_bytes(img)
    assert data is not None
    assert decoded(data).tobytes() == img.tobytes() and decoded(data).mode == "P"
    default = io.BytesIO()
    img.save(default, format="PNG")
    assert len(data) >= len(default.getvalue())  # level 3 never beats level 6 here
    fast = io.BytesIO()
    img.save(fast, format="PNG", compress_level=pictures.FAST_LEVEL)
    assert data == fast.getvalue()


def test_the_reference_pictures_stay_small_at_the_fast_level() -> None:
    """Every stored reference view's picture stays at most 400 KiB."""
    import json

    import render

    ref = Path(__file__).parent / "reference"
    for path in sorted(ref.glob("*.json")):
        case = json.loads(path.read_text("utf-8"))
        if "view" not in case:
            continue
        prefixes = {"mm-": "mobile-markets", "aoa-": "age-of-automaton"}
        game = next((g for p, g in prefixes.items() if path.name.startswith(p)), "smartphone-inc")
        if "plan" in case:
            img = render.draw_plan(game, case["view"], case["plan"])
        else:
            img = render.draw(game, case["view"])
        data = pictures.png_bytes(img)
        assert data is not None and len(data) <= 400 * 1024, path.name


async def test_painter_threads_draw_several_at_once() -> None:
    import asyncio
    import time

    def slow(colour: str) -> Image.Image:
        time.sleep(0.3)  # sleeping releases the GIL, as Pillow's encoder does
        return swatch(colour)

    painter = pictures.Painter(mode="thread")
    try:
        start = time.perf_counter()
        done = await asyncio.gather(painter.png(slow, "red"), painter.png(slow, "blue"))
        assert time.perf_counter() - start < 0.55
        assert all(d is not None and decoded(d).size == (64, 64) for d in done)
    finally:
        painter.close()


async def test_painter_processes_draw_plain_functions_and_keep_the_rest_here() -> None:
    import asyncio

    painter = pictures.Painter(mode="process")
    try:
        assert painter._can_send(swatch)
        assert not painter._can_send(lambda: swatch("red"))  # not importable by a worker
        spy = HugeRenderer(swatch("red"))
        assert not painter._can_send(spy.draw)  # a bound method: its object stays here
        done = await asyncio.gather(painter.png(swatch, "red"), painter.png(swatch, "blue", 32))
        assert decoded(done[0]).size == (64, 64) and decoded(done[1]).size == (32, 32)
        assert decoded(done[0]).convert("RGB").getpixel((0, 0)) == (255, 0, 0)
    finally:
        painter.close()


def test_painter_refuses_an_unknown_mode() -> None:
    with pytest.raises(ValueError):
        pictures.Painter(mode="gpu")


def test_painter_mode_comes_from_the_environment_else_from_the_cores(monkeypatch) -> None:
    """Unset (or unknown), worker processes where there are 2 cores or more: drawing and
    the planner's sums hold the GIL, threads would starve the event loop; threads on one."""
    monkeypatch.delenv("BOARDROOM_PICTURES", raising=False)
    monkeypatch.setattr(pictures, "usable_cores", lambda: 2)
    assert pictures.Painter().mode == "process"
    monkeypatch.setattr(pictures, "usable_cores", lambda: 1)
    assert pictures.Painter().mode == "thread"
    monkeypatch.setenv("BOARDROOM_PICTURES", "process")
    assert pictures.Painter().mode == "process"
    monkeypatch.setenv("BOARDROOM_PICTURES", "thread")
    monkeypatch.setattr(pictures, "usable_cores", lambda: 2)
    assert pictures.Painter().mode == "thread"
    monkeypatch.setenv("BOARDROOM_PICTURES", "gpu")
    assert pictures.Painter().mode == "process"
    assert pictures.Painter(mode="thread").mode == "thread"
    assert pictures.usable_cores() >= 1


def _add(a: int, b: int) -> int:
    return a + b


def test_painter_calls_run_in_processes_when_everything_pickles_else_in_threads() -> None:
    """``Painter.call`` (a planner's options): a plain function with arguments that
    pickle runs in a worker process; a lock (does not pickle) keeps it in a thread here."""
    import asyncio
    import threading

    painter = pictures.Painter(mode="process")

    async def both() -> tuple[int, int, str]:
        here = await painter.call(pictures.method_call, threading.Lock(), "locked")
        return await painter.call(_add, 2, 3), await painter.call(pictures.method_call, "ab", "upper"), here

    try:
        assert asyncio.run(both()) == (5, "AB", False)
        assert painter._processes is not None and painter._threads is not None
    finally:
        painter.close()


def test_warm_up_loads_every_games_pictures_once_and_never_fails(monkeypatch) -> None:
    """The start-up warm-up draws one throwaway picture per game (so the first picture a
    player waits for costs what the next ones cost); a painter does it once, in a worker;
    a broken game is skipped, not raised."""
    import render

    assert pictures.warm_up() == len(render.games())
    painter = pictures.Painter(mode="thread")
    try:
        painter.warm_up()
        first = painter._threads
        assert first is not None
        painter.warm_up()  # once per painter
        assert painter._threads is first and painter._warmed
    finally:
        painter.close()

    def broken(game_name: str, view: Any, prompt: Any = None) -> Any:
        raise RuntimeError("no picture")

    monkeypatch.setattr(render, "draw_compact", broken)
    monkeypatch.setattr(render, "draw", broken)
    assert pictures.warm_up() == 0


def _small_picture() -> Image.Image:
    return Image.new("RGB", (40, 30), "white")


def test_painter_falls_back_to_threads_when_processes_are_unavailable(monkeypatch) -> None:
    """Where worker processes cannot start (no semaphores, a sandbox), pictures are drawn
    in threads instead, from then on; nothing fails."""
    import asyncio

    from bot import picture_workers

    def unavailable(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no process pools here")

    monkeypatch.setattr(picture_workers, "Worker", unavailable)
    painter = pictures.Painter(mode="process")
    try:
        data = asyncio.run(painter.png(_small_picture))
        assert data is not None and data.startswith(b"\x89PNG")
        assert painter.mode == "thread" and painter._processes is None
    finally:
        painter.close()
