"""Process-wide settings of the bot's process (``boardroom run``): its event loop and its
garbage collector.

**The event loop** (:func:`event_loop`) is uvloop's where it is installed (a dependency
everywhere but Windows), else asyncio's own; ``BOARDROOM_LOOP=asyncio`` keeps asyncio's.
Under the 200-game load (``benchmarks/bench_load.py``) the bot is CPU-bound on one core
(its threads share the GIL), and with uvloop's loop, timers, self-pipe and sockets in C
an action costs about 7 % less CPU than with asyncio's in Python (1.77 -> 1.64 ms, the
medians of 3 alternated runs). The engine, the database thread and the picture workers
do not change with it.

**The garbage collector.**

Python's cyclic garbage collector stops every thread while it walks the container
objects of the generations it collects. Left to itself it starts in the middle of
whatever allocates (an action, or the database thread, which then holds the event loop
behind the GIL), and under load its young generation is not young: its counter is the
allocations *minus* the frees, so a bot that replaces each game's state with a new one
at every move (as many frees as allocations) lets the young generation grow to every
game's state before it runs. The 200-game load (``benchmarks/bench_load.py``) saw young
collections of 90,000 objects, 40-70 ms each: the longest stalls of the event loop.

So :func:`tune_gc` freezes what start-up left alive (modules, data tables, fonts: never
walked again), and :class:`Collector` runs the collector from the event loop, between
two callbacks, on a clock:

* every ``EVERY_S``, the young and middle generations: what survived since the last
  pass, a few milliseconds of work under the heaviest load. A survivor is walked once
  and then left to the old generation, where reference counting frees it (a game's
  state, replaced at its next move);
* the old generation (a full pass over the whole heap) when it has doubled since the
  last full pass and holds more than ``FULL_FLOOR`` objects, and at least every
  ``FULL_AT_LEAST_S``. The old generation grows only with what stays: more games kept
  in memory, a backlog of posts, or garbage cycles, which are what a full pass is for.
  The floor is above what a busy bot holds: 200 games moving as fast as they can, with
  thousands of posts waiting for Discord, peaked at 96,000 objects (``bench_load.py``);
  a full pass of those takes 30-80 ms on 2 busy cores, so it comes every 10 minutes,
  not whenever the backlog swells. ``bench_load.py`` times one under its load
  (``saturated_full_gc_ms``).

Automatic collections are off while it runs (:meth:`Collector.start`) and on again when
it stops.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger(__name__)

EVERY_S = 0.1
FULL_CHECK_EVERY = 100  # passes: every 10 s (counting the old generation walks it)
FULL_GROWTH = 2.0
FULL_FLOOR = 250_000  # objects
FULL_AT_LEAST_S = 600.0
SLOW_PASS_S = 0.1  # a pass longer than this is logged


LOOP_ENV = "BOARDROOM_LOOP"


@contextmanager
def event_loop() -> Iterator[str]:
    """The ``asyncio.run`` calls inside (discord.py's ``Client.run`` among them) run on the
    bot's event loop: uvloop's where it is installed, unless ``BOARDROOM_LOOP=asyncio``;
    asyncio's own otherwise. Yields the loop's name ("uvloop" or "asyncio"); the event
    loop policy is restored on the way out."""
    policy = None
    if os.environ.get(LOOP_ENV, "").strip().lower() != "asyncio":
        try:
            import uvloop
        except ImportError:  # (Windows; or not installed)
            pass
        else:
            policy = uvloop.EventLoopPolicy()
    if policy is None:
        yield "asyncio"
        return
    before = asyncio.get_event_loop_policy()
    asyncio.set_event_loop_policy(policy)
    try:
        yield "uvloop"
    finally:
        asyncio.set_event_loop_policy(before)


def tune_gc() -> None:
    """Collect once and freeze what is alive now: never walked again."""
    gc.collect()
    gc.freeze()


class Collector:
    """The garbage collector, run from the event loop on a clock (module docstring)."""

    def __init__(
        self,
        *,
        every: float = EVERY_S,
        full_check_every: int = FULL_CHECK_EVERY,
        full_growth: float = FULL_GROWTH,
        full_floor: int = FULL_FLOOR,
        full_at_least: float = FULL_AT_LEAST_S,
        clock: Callable[[], float] = time.monotonic,
        collector: Any = gc,
    ) -> None:
        self.every = every
        self.full_check_every = max(1, full_check_every)
        self.full_growth = full_growth
        self.full_floor = full_floor
        self.full_at_least = full_at_least
        self.clock = clock
        self.gc = collector
        self.passes = 0
        self.longest = 0.0  # the longest pass so far, in seconds
        self._old_after_full = len(collector.get_objects(2))
        self._full_at = clock()
        self._task: asyncio.Task[None] | None = None

    def step(self) -> int:
        """One pass; returns the oldest generation it collected."""
        self.passes += 1
        generation = 1
        if self.passes % self.full_check_every == 0 and self._full_due():
            generation = 2
        t = time.perf_counter()
        self.gc.collect(generation)
        took = time.perf_counter() - t
        self.longest = max(self.longest, took)
        if generation == 2:
            self._old_after_full = len(self.gc.get_objects(2))
            self._full_at = self.clock()
        if took > SLOW_PASS_S:
            log.warning("garbage collection of generation %d took %.0f ms", generation, took * 1000)
        return generation

    def _full_due(self) -> bool:
        if self.clock() - self._full_at >= self.full_at_least:
            return True
        old = len(self.gc.get_objects(2))
        return old > self.full_floor and old > self._old_after_full * self.full_growth

    def start(self) -> None:
        """Automatic collections off; passes on the running loop from now on."""
        if self._task is None:
            self.gc.disable()
            self._task = asyncio.get_running_loop().create_task(self._run(), name="boardroom-gc")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                self.step()
            except Exception:  # never let the collector's clock stop
                log.exception("garbage collection failed")

    def stop(self) -> None:
        """Stop the passes; automatic collections on again."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.gc.enable()
