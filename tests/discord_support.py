"""Helpers for the end-to-end bot tests: start/stop the real bot against the fake Discord.

Every bot started here is closed (and with it its database connection) by the
``running`` context manager, even when the test fails; an unclosed aiosqlite
connection would hang pytest at exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator
from typing import Any

from PIL import Image, ImageDraw

from bot.discord_bot import BoardroomBot, create_bot, default_renderer
from tests.fake_discord import FakeDiscord, message_text

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.fake-token.for-tests-only-0123456789abcdef"


class Clock:
    """A settable clock shared by the app and the reminder scheduler."""

    def __init__(self, now: float = 1_750_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class SpyRenderer:
    """Wraps the real renderer (or draws a small stand-in) and records every view drawn,
    so tests can check that no public picture is drawn from a view holding a hidden plan."""

    def __init__(self, real: Any | None = None) -> None:
        self.real = real if real is not None else default_renderer()
        self.calls: list[tuple[str, Any, dict[str, Any], Any]] = []

    def _stub(self, label: str) -> Image.Image:
        img = Image.new("RGB", (160, 90), "white")
        ImageDraw.Draw(img).text((5, 5), label, fill="black")
        return img

    def draw(self, game: str, view: dict[str, Any]) -> Image.Image:
        self.calls.append(("draw", game, view, None))
        if self.real is not None:
            return self.real.draw(game, view)
        return self._stub(f"{view.get('phase')} r{view.get('round')} you={view.get('you')}")

    def draw_plan(self, game: str, view: dict[str, Any], plan: dict[str, Any]) -> Image.Image:
        self.calls.append(("draw_plan", game, view, plan))
        if self.real is not None and hasattr(self.real, "draw_plan"):
            return self.real.draw_plan(game, view, plan)
        return self._stub(f"plan for {view.get('you')}")

    def draw_compact(self, game: str, view: dict[str, Any], prompt: Any = None) -> Image.Image:
        self.calls.append(("draw_compact", game, view, prompt))
        if self.real is not None and hasattr(self.real, "draw_compact"):
            return self.real.draw_compact(game, view, prompt)
        return self._stub(f"decision of {view.get('you')}")


async def _wait_ready(bot: BoardroomBot, task: asyncio.Task[None], timeout: float) -> None:
    waiter = asyncio.ensure_future(bot.wait_until_ready())
    done, _ = await asyncio.wait({waiter, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        waiter.cancel()
        task.result()  # raises the start-up error
        raise AssertionError("bot stopped during start-up")
    if waiter not in done:
        waiter.cancel()
        raise AssertionError("bot was not ready in time")


TEST_PACE = 0.25  # seconds per 5 writes in a channel, in tests (the bot: 5.0)
PACED = {"per": 5.0}  # the bot's own pacing, for the tests that look at it


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, db_path: str, **overrides: Any) -> AsyncIterator[BoardroomBot]:
    """A started bot connected to ``fake``; closed on exit."""
    overrides.setdefault("guild_ready_timeout", 0.05)
    overrides.setdefault("seed_source", lambda: 7)
    # the status message's edits after a turn inside a phase go out at once here (the
    # tests look at it); tests of that wait pass their own (tests/test_channel_posts.py);
    # a channel's writes are paced 5 per 0.25 s, not the bot's 5 per 5 s (whole games wait
    # for nothing else): the tests of the pacing itself pass PACED
    overrides["delivery"] = {"status_settle": 0.0, "per": TEST_PACE, **(overrides.get("delivery") or {})}
    bot = create_bot(db_path=db_path, **overrides)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await _wait_ready(bot, task, 20)
        await asyncio.wait_for(bot.ready_event.wait(), 10)
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        return img.size


def texts(messages: list[dict[str, Any]]) -> str:
    return "\n---\n".join(message_text(m) for m in messages)


class _ScaledAsyncio:
    """discord.py's ``asyncio`` module with the server-error back-offs cut short.

    discord.py retries a 500/502/504 five times, sleeping ``1 + 2 * tries`` seconds (whole
    seconds, an ``int``: 25 s in all); those sleeps are scaled by ``scale``. A 429's
    ``retry_after`` comes from the response body as a ``float`` and is slept as Discord
    asked, so a test still sees the bot honour it."""

    def __init__(self, scale: float) -> None:
        self.scale = scale

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        if isinstance(delay, int) and not isinstance(delay, bool):
            delay = delay * self.scale
        return await asyncio.sleep(delay, result)


@contextlib.contextmanager
def fast_backoff(scale: float = 0.01) -> Any:
    """Within the block, discord.py's retries of 5xx answers wait ``scale`` of their time."""
    import discord.http
    import discord.webhook.async_ as webhook_async

    saved = (discord.http.asyncio, webhook_async.asyncio)
    discord.http.asyncio = webhook_async.asyncio = _ScaledAsyncio(scale)  # type: ignore[assignment]
    try:
        yield
    finally:
        discord.http.asyncio, webhook_async.asyncio = saved  # type: ignore[assignment]
