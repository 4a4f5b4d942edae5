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
(the pictures of one phase change), and runs the other heavy work of a message (a
planner's first screen: :meth:`Painter.call`) the same way. On a host with 2 or more
cores it uses 2 worker processes by default: drawing and the planner's sums hold the
GIL, and in threads they starved the event loop (every database answer and request of
the round end waited for the GIL behind them). ``BOARDROOM_PICTURES=thread`` keeps it
all in 2 threads of the bot's process (the default on a single core); ``process``
forces the processes. Where worker processes cannot start, the painter works in
threads. The workers (:mod:`bot.picture_workers`: each answers on a pipe of its own,
read by the event loop, with no thread of the bot's process in between) are started
when first needed (the bot warms them up after its start-up catch-up) and stopped at
exit (or by :meth:`Painter.close`). A bot that dies without stopping them (SIGKILL, the
OOM killer) takes them with it: a worker ends when the bot's end of its pipe closes, and
it also watches the bot's process, in case it is drawing then (:func:`watch_bot`).

:func:`warm_up` (run by the bot in the painter once the start-up catch-up is done)
draws one throwaway picture per game, so that the first picture a player waits for
(the planner's first screen) does not also load the renderer, its fonts and icons.

No ``discord`` import here: the functions are tested on their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import os
import pickle
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PIL import Image

from bot import jsontext
from bot.picture_workers import WorkerDied, WorkerPool, WorkersUnavailable

log = logging.getLogger("boardroom.pictures")

MAX_UPLOAD = 8 * 1024 * 1024  # bytes; Discord's older per-upload limit (bots now get 10 MiB)
HALVINGS = 3
FAST_LEVEL = 3  # zlib level of the first try on a palette picture
WORKERS = 2  # the machine has 2 cores
DIED_IN_A_ROW = 3  # worker processes that die before answering, in a row: threads from then on


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
            continue
        _warm_planner(name, game, state, seat, view)
    return done


def _warm_planner(name: str, game: Any, state: Any, seat: str, view: Any) -> None:
    """The first screen of the game's secret decision, if its first prompt has a builder
    (its tables loaded: a worker process computes the planners' options)."""
    try:
        from bot.games import find

        presenter = find(name)
        prompt = game.pending(state).get(seat)
        builder = presenter.secret_builder(prompt) if presenter is not None else None
        if builder is not None:
            builder.choices(builder.decode(None), builder.context(prompt, view, seat))
    except Exception:  # noqa: BLE001 - a planner not warmed is only slower the first time
        log.debug("no warm-up planner for %s", name, exc_info=True)


def load_packages() -> None:
    """Import every game's engine and pictures package in the calling thread. Python's
    imports are not safe to race: a worker thread importing a package while the event
    loop's thread imports the same one can see it partly initialised (an ImportError in
    an autocomplete). The painter calls this before it warms up in a worker."""
    try:
        import render
        from bot.games import find
        from engine import get_game

        for name in render.games():
            get_game(name)
            render._module(name)
            find(name)  # its presenter (the planner a worker warms up)
    except Exception:  # noqa: BLE001 - pictures are optional: a broken renderer shows later
        log.warning("could not load the pictures packages ahead of time", exc_info=True)


PARENT_POLL_S = 0.5  # how often a worker without a pidfd looks for its bot


def _bot_gone(pid: int) -> bool:
    """True once process ``pid`` has ended (a zombie counts as ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # someone else's process now holds the number
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] == b"Z"
    except OSError:
        return False  # no /proc (not Linux): the signal test above is all there is


def _watch_bot(pid: int) -> None:
    """Block until process ``pid`` (the bot) ends, then end this worker at once.

    A killed bot (SIGKILL, the OOM killer) runs no clean-up. Its workers see their job
    pipe close, but only once they are done drawing; this ends a busy one at once too
    (it would otherwise hold the dead bot's stdout a while). On Linux a pidfd becomes
    readable when the process ends, so the worker wakes at once; elsewhere it looks
    every :data:`PARENT_POLL_S` seconds."""
    try:
        fd = os.pidfd_open(pid)  # type: ignore[attr-defined]  # Linux 5.3+, Python 3.9+
    except ProcessLookupError:
        os._exit(0)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        import select

        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while not poller.poll():
            pass
        os._exit(0)
    import time

    while not _bot_gone(pid):
        time.sleep(PARENT_POLL_S)
    os._exit(0)


def watch_bot(pid: int) -> None:
    """Start the daemon thread of :func:`_watch_bot` in this (worker) process."""
    import threading

    threading.Thread(target=_watch_bot, args=(pid,), name="bot-watch", daemon=True).start()


WORKER_NICE = 19  # a picture worker yields the CPU to the bot's event loop (issue 25)


def worker_nice() -> int:
    """How far a picture worker lowers its priority: ``BOARDROOM_PICTURE_NICE`` (0-19) if
    set, else :data:`WORKER_NICE`. The test suite sets 0: its own workers keep both
    cores busy, and pictures niced behind them made whole games wait (issue 38)."""
    raw = os.environ.get("BOARDROOM_PICTURE_NICE", "").strip()
    if raw.isdigit() and 0 <= int(raw) <= 19:
        return int(raw)
    return WORKER_NICE


def _warm_worker(bot_pid: int | None = None) -> None:
    if bot_pid is not None:
        watch_bot(bot_pid)  # first: a bot killed while this worker warms up ends it too
    # Pictures are background work: on a busy host (2 cores, both workers drawing) the
    # event loop must not wait for a core behind them, or every player's action stalls.
    with contextlib.suppress(OSError, AttributeError):
        os.nice(worker_nice())
    warm_up()  # load Pillow, the fonts' module and the renderers once per worker


def method_call(obj: Any, name: str, *args: Any) -> Any:
    """``obj.<name>(*args)``: a method run by :meth:`Painter.call` (in a worker process
    when ``obj`` and the arguments pickle; e.g. a planner's options)."""
    return getattr(obj, name)(*args)


def call_json(fn: Callable[..., Any], args_json: str) -> Any:
    """``fn(*args)`` with the arguments given as JSON text: a stored post's picture is
    handed to a worker as the text it was kept as, and decoded there, not on the event
    loop (issue 25)."""
    return fn(*jsontext.loads(args_json))


def usable_cores() -> int:
    """The cores this process may run on (1 if the host cannot say)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_mode() -> str:
    """``BOARDROOM_PICTURES`` if it says ``thread`` or ``process``; else processes on a
    host with 2 or more cores, threads on one."""
    wanted = os.environ.get("BOARDROOM_PICTURES", "").strip().lower()
    if wanted in ("process", "thread"):
        return wanted
    if wanted:
        log.warning("BOARDROOM_PICTURES=%r is neither 'thread' nor 'process': choosing by the cores", wanted)
    return "process" if usable_cores() >= 2 else "thread"


class Painter:
    """Draws pictures (and runs other heavy work) off the event loop, up to ``workers`` at once.

    ``mode`` is ``"thread"`` or ``"process"`` (a pool of worker processes, started
    when first used); unset, :func:`default_mode` decides. Only plain functions that
    pickle (``render.draw``), with arguments that pickle, go to the processes; anything
    else (a test's recording renderer, a bound method) runs in a thread, in this
    process. If a worker process dies, the pool is started again and that work is done
    in a thread.
    """

    def __init__(self, workers: int = WORKERS, mode: str | None = None) -> None:
        if mode not in (None, "process", "thread"):
            raise ValueError(f"unknown painter mode {mode!r}")
        self.workers, self._mode = workers, mode
        self._processes: WorkerPool | None = None
        self._threads: ThreadPoolExecutor | None = None
        self._picklable: dict[Any, bool] = {}
        self._warmed = False

    @property
    def mode(self) -> str:
        """``"thread"`` or ``"process"``; unset: :func:`default_mode` when first used."""
        if self._mode is None:
            self._mode = default_mode()
        return self._mode

    def _thread_pool(self) -> ThreadPoolExecutor:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="painter")
        return self._threads

    def _process_pool(self) -> WorkerPool:
        if self._processes is None:
            # fresh interpreters, never a fork of the bot's own process (threads, sockets,
            # event loop); each worker warms up, and ends with the bot
            self._processes = WorkerPool(self.workers, ("bot.pictures:_warm_worker", (os.getpid(),)))
        return self._processes

    def _no_processes(self, why: object) -> None:
        log.warning("worker processes are unavailable (%s): working in threads", why)
        self._mode = "thread"
        if self._processes is not None:
            self._processes.close()
        self._processes = None

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
        return await self.call(draw_png, fn, args, limit)  # type: ignore[no-any-return]

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker: a worker process if ``fn`` and ``args`` pickle
        (``fn`` itself for :meth:`png`'s pictures), else a thread of this process."""
        loop = asyncio.get_running_loop()
        target = args[0] if fn is draw_png else fn  # what must be importable by a worker
        if target is call_json:  # the renderer it calls, given the picture's JSON text
            target = args[1][0] if fn is draw_png else args[0]
        blob = None
        if self.mode == "process" and self._can_send(fn) and self._can_send(target):
            try:
                blob = pickle.dumps(args, pickle.HIGHEST_PROTOCOL)
            except Exception:  # noqa: BLE001 - arguments that do not pickle: a thread here
                blob = None
        if blob is None:
            return await loop.run_in_executor(self._thread_pool(), fn, *args)
        pool = self._process_pool()
        try:
            return await pool.run(fn, blob)
        except WorkersUnavailable as exc:
            # no worker processes here (a sandbox, no memory): threads from now on
            self._no_processes(exc)
        except WorkerDied:
            if pool.failures >= DIED_IN_A_ROW:  # they die as they start: something is broken
                self._no_processes(f"{pool.failures} workers died in a row")
            else:
                log.warning("a picture worker process died; starting a new one")
        return await loop.run_in_executor(self._thread_pool(), fn, *args)

    def warm_up(self) -> None:
        """:func:`warm_up` in a worker now, without waiting (the bot's start-up); once per
        painter (worker processes also warm up when they start)."""
        if self._warmed:
            return
        self._warmed = True
        load_packages()  # no import races with the event loop's thread (see load_packages)
        if self.mode == "process":
            try:
                self._process_pool().start()  # start them all now: each warms up as it starts
                return
            except WorkersUnavailable as exc:
                self._no_processes(exc)
        self._thread_pool().submit(warm_up)

    def close(self) -> None:
        if self._processes is not None:
            self._processes.close()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)
        self._processes = self._threads = None


# One painter for the whole process (every bot and game share its 2 workers);
# BOARDROOM_PICTURES=thread|process chooses (default: processes on 2 or more cores).
PAINTER = Painter()
