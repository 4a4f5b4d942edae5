"""Pictures as PNG bytes that fit Discord's upload limit.

Discord accepts uploads of up to 10 MiB per file from bots today; the older limit
was 8 MiB, and some of Discord's documentation counts the whole request. The bot
keeps every picture (and every message's pictures together) under 8 MiB:

1. the plain PNG (fast; the board pictures are a few hundred kB);
2. if larger: the same PNG with ``optimize=True``;
3. then a 256-colour palette (flat board graphics lose almost nothing);
4. then the palette picture at half the size, up to three times;
5. else ``None``: the message goes out without that picture, never fails.

The first step writes a palette picture (the renderer's pictures are already
quantized to 256 colours) with zlib level 3 instead of 6: about a third less
encoding time for about a fifth more bytes (``benchmarks/bench_render.py``).

:class:`Painter` draws and encodes off the event loop, several pictures at once
(the pictures of one phase change), in 2 threads by default (Pillow releases the
GIL while it encodes) or, with ``BOARDROOM_PICTURES=process``, in 2 worker
processes (drawing holds the GIL, so only processes overlap the drawing itself).
On the shared 2-core machine the threads were faster in 4 of 6 runs of the
pictures-alone figures of ``benchmarks/bench_round_end.py``: there the bot's
processes together get about one core, so worker processes only add their overhead.
On the whole round end through the fake Discord (its main figure) the processes were
steadier (456-470 ms against 397-550 ms with threads, one quiet moment): the round's
two board pictures are drawn side by side. On a host whose second core is free, try
``process``. Where worker processes cannot start, the painter draws in threads.

:func:`warm_up` (run by the bot in the painter once the start-up catch-up is done)
draws one throwaway picture per game, so that the first picture a player waits for
(the planner's first screen) does not also load the renderer, its fonts and icons.

No ``discord`` import here: the functions are tested on their own.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import logging
import multiprocessing
import os
import pickle
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from PIL import Image

log = logging.getLogger("boardroom.pictures")

MAX_UPLOAD = 8 * 1024 * 1024  # bytes; Discord's older per-upload limit (bots now get 10 MiB)
HALVINGS = 3
FAST_LEVEL = 3  # zlib level of the first try on a palette picture
WORKERS = 2  # the machine has 2 cores


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
    if image.mode == "P":
        data = _png(image, compress_level=FAST_LEVEL)
    else:
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


def draw_png(fn: Callable[..., Image.Image], args: tuple[Any, ...], limit: int = MAX_UPLOAD) -> bytes | None:
    """``png_bytes(fn(*args), limit)``: what a worker runs for one picture."""
    return png_bytes(fn(*args), limit)


def warm_up() -> int:
    """Load what a game's first picture after a start would load: its pictures package
    (``render.<game>``, imported lazily otherwise), the fonts and the icons it caches,
    by drawing (and throwing away) the compact (else the private) picture of a new
    3-seat game's first seat. The first picture a player waits for then costs what the next ones cost
    (benchmarks/bench_planner.py). Returns how many games were warmed; never raises."""
    done = 0
    try:
        import render
        from engine import get_game
    except Exception:  # noqa: BLE001 - pictures are optional: a broken renderer shows later
        log.warning("could not load the pictures packages ahead of time", exc_info=True)
        return 0
    for name in render.games():
        try:
            game = get_game(name)
            state = game.setup(["a", "b", "c"], 1, {})
            seat = sorted(game.pending(state) or ["a"])[0]
            view = game.view(state, seat)
            if hasattr(render._module(name), "draw_compact"):
                render.draw_compact(name, view)
            else:  # a game without compact pictures: its private picture
                render.draw(name, view)
            done += 1
        except Exception:  # noqa: BLE001 - a game without that picture is simply not warmed
            log.debug("no warm-up picture for %s", name, exc_info=True)
    return done


def load_packages() -> None:
    """Import every game's engine and pictures package in the calling thread. Python's
    imports are not safe to race: a worker thread importing a package while the event
    loop's thread imports the same one can see it partly initialised (an ImportError in
    an autocomplete). The painter calls this before it warms up in a worker."""
    try:
        import render
        from engine import get_game

        for name in render.games():
            get_game(name)
            render._module(name)
    except Exception:  # noqa: BLE001 - pictures are optional: a broken renderer shows later
        log.warning("could not load the pictures packages ahead of time", exc_info=True)


def _warm_worker() -> None:
    warm_up()  # load Pillow, the fonts' module and the renderers once per worker


class Painter:
    """Draws pictures off the event loop, up to ``workers`` at once.

    ``mode`` is ``"thread"`` or ``"process"`` (a pool of worker processes, started
    when first used); unset, ``BOARDROOM_PICTURES`` decides (default ``thread``). Only plain functions that pickle (``render.draw``) go to the
    processes; anything else (a test's recording renderer, a bound method) is drawn
    in a thread, in this process. If a worker process dies, the pool is started
    again and that picture is drawn in a thread.
    """

    def __init__(self, workers: int = WORKERS, mode: str | None = None) -> None:
        if mode not in (None, "process", "thread"):
            raise ValueError(f"unknown painter mode {mode!r}")
        self.workers, self._mode = workers, mode
        self._processes: ProcessPoolExecutor | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._picklable: dict[Any, bool] = {}
        self._warmed = False

    @property
    def mode(self) -> str:
        """``"thread"`` or ``"process"``; unset: ``BOARDROOM_PICTURES`` when first drawing."""
        if self._mode is None:
            wanted = os.environ.get("BOARDROOM_PICTURES", "thread").strip().lower()
            if wanted not in ("process", "thread"):
                log.warning("BOARDROOM_PICTURES=%r is neither 'thread' nor 'process': using threads", wanted)
                wanted = "thread"
            self._mode = wanted
        return self._mode

    def _executor(self, fn: Callable[..., Any]) -> Executor:
        if self.mode == "process" and self._can_send(fn):
            if self._processes is None:
                # forkserver: never fork the bot's own process (threads, sockets, event loop)
                self._processes = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("forkserver"), initializer=_warm_worker
                )
            return self._processes
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="painter")
        return self._threads

    def _can_send(self, fn: Callable[..., Any]) -> bool:
        known = self._picklable.get(fn)
        if known is None:
            known = inspect.isfunction(fn)
            if known:
                try:
                    pickle.dumps(fn)
                except Exception:  # noqa: BLE001 - any failure means "draw it here"
                    known = False
            self._picklable[fn] = known
        return known

    async def png(self, fn: Callable[..., Image.Image], *args: Any, limit: int = MAX_UPLOAD) -> bytes | None:
        """``fn(*args)`` drawn and encoded in a worker (see :func:`png_bytes`)."""
        loop = asyncio.get_running_loop()
        try:
            pool = self._executor(fn)
            future = loop.run_in_executor(pool, draw_png, fn, args, limit)
        except (OSError, NotImplementedError, RuntimeError) as exc:
            if self._mode != "process":
                raise
            # no worker processes here (no semaphores, a sandbox, interpreter shutting
            # down): threads from now on
            log.warning("picture worker processes are unavailable (%s): drawing in threads", exc)
            self._mode = "thread"
            self._processes = None
            return await loop.run_in_executor(self._executor(fn), draw_png, fn, args, limit)
        try:
            return await future
        except BrokenProcessPool:
            log.warning("a picture worker process died; starting new ones")
            if self._processes is pool:
                self._processes = None
                pool.shutdown(wait=False, cancel_futures=True)
            if self._threads is None:
                self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="painter")
            return await loop.run_in_executor(self._threads, draw_png, fn, args, limit)

    def warm_up(self) -> None:
        """:func:`warm_up` in a worker now, without waiting (the bot's start-up); once per
        painter (worker processes also warm up when they start)."""
        if self._warmed:
            return
        self._warmed = True
        load_packages()  # no import races with the event loop's thread (see load_packages)
        self._executor(warm_up).submit(warm_up)

    def close(self) -> None:
        for pool in (self._processes, self._threads):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._processes = self._threads = None


# One painter for the whole process (every bot and game share its 2 workers);
# BOARDROOM_PICTURES=process draws in worker processes instead of threads.
PAINTER = Painter()
