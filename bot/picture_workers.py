"""The painter's worker processes, each answering on its own pipe (issue 25).

:class:`bot.pictures.Painter` used to hand its pictures to a
``concurrent.futures.ProcessPoolExecutor``. That executor moves every job through a
queue-feeder thread and every answer through a manager thread, and each hand-off
between them and the event loop wakes a thread that must take the GIL back from the
loop: 0.4-0.9 ms of the bot's CPU per picture, more than the rest of posting it.

Here each worker is a plain child process (``python -c``, never a fork of the bot's
process, as the forkserver was not either) with two pipes of its own:

* the bot writes a job to the worker's pipe (non-blocking: a large job is finished by
  the event loop as the worker reads it) only when that worker is idle, so a worker
  has at most one job;
* the worker answers on its other pipe, which the event loop reads without blocking
  (``loop.add_reader``) until the whole answer is in. No thread of the bot's process
  takes part.

Each frame is an 8-byte length and a pickle. A job is ``(fn, blob)``, ``blob`` the
pickled arguments (the painter pickles them to learn whether they can go at all); the
answer is ``(True, result)`` or ``(False, exception)``. The first frame a worker reads
is the bot's import path and what to run before the first job (the painter's warm-up).

A worker that dies (killed, out of memory) closes its answer pipe: its job fails with
:class:`WorkerDied` and the worker is started again for the next job. A worker ends by
itself when the bot's end of its job pipe closes, which happens when the bot dies
however it dies, and it also watches the bot's process (:func:`bot.pictures.watch_bot`)
in case it is busy drawing then.

The workers are children of the bot's process: code in that process that collects any
child with ``os.wait()`` would collect them too (mutmut does: ``scripts/mutants.py``
runs its tests with the pictures in threads). The bot itself waits only for its own.

No ``discord`` import here.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HEADER = struct.Struct("!Q")
READ_CHUNK = 1 << 16  # a pipe holds 64 KiB; a larger buffer is allocated (mmap) and faulted in on every read
ROOT = str(Path(__file__).resolve().parent.parent)  # where ``bot`` is importable from


class WorkerDied(RuntimeError):
    """The worker process ended before it answered."""


class WorkersUnavailable(RuntimeError):
    """Worker processes cannot be started here (no fork, a sandbox, no memory)."""


def _frame(obj: Any) -> bytes:
    blob = pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(blob)) + blob


class Worker:
    """One child process and its two pipes; runs one job at a time (see the module)."""

    def __init__(self, setup: tuple[str, tuple[Any, ...]]) -> None:
        job_r, self.job_w = os.pipe()
        self.answer_r, answer_w = os.pipe()
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", f"import sys; sys.path.insert(0, {ROOT!r}); "
                 "from bot.picture_workers import serve; serve()", str(job_r), str(answer_w)],
                pass_fds=(job_r, answer_w), stdin=subprocess.DEVNULL, close_fds=True,
            )
        except BaseException:
            for fd in (self.job_w, self.answer_r):
                os.close(fd)
            raise
        finally:
            os.close(job_r)
            os.close(answer_w)
        # the first frame: this process's import path (the worker imports what the bot's
        # pickles name, tests' helpers included) and what to run before the first job;
        # small (the pipe holds 64 KiB), so written at once
        try:
            _write_all(self.job_w, _frame((list(sys.path), setup)))
        except OSError:  # it died at once
            self.close()
            raise
        os.set_blocking(self.job_w, False)
        os.set_blocking(self.answer_r, False)
        self.busy = False
        self.dead = False

    @property
    def pid(self) -> int:
        return self.process.pid

    async def run(self, fn: Callable[..., Any], blob: bytes) -> Any:
        """``fn(*pickle.loads(blob))`` in the worker; raises what it raised, or
        :class:`WorkerDied`."""
        loop = asyncio.get_running_loop()
        self.busy = True
        answer: asyncio.Future[Any] = loop.create_future()
        data = bytearray(_frame((fn, blob)))
        got = bytearray()

        def readable() -> None:
            try:
                chunk = os.read(self.answer_r, READ_CHUNK)
            except BlockingIOError:
                return
            except OSError as exc:
                chunk, error = b"", exc
            else:
                error = None
            if not chunk:
                loop.remove_reader(self.answer_r)
                self.dead = True
                if not answer.done():
                    answer.set_exception(WorkerDied(f"the picture worker ended ({error or 'no answer'})"))
                return
            got.extend(chunk)
            if len(got) >= HEADER.size:
                (size,) = HEADER.unpack_from(got)
                if len(got) >= HEADER.size + size:
                    loop.remove_reader(self.answer_r)
                    if not answer.done():
                        try:
                            answer.set_result(pickle.loads(memoryview(got)[HEADER.size:HEADER.size + size]))
                        except Exception as exc:  # noqa: BLE001 - an answer that does not unpickle
                            answer.set_exception(exc)

        def writable() -> None:
            try:
                n = os.write(self.job_w, data)
            except BlockingIOError:
                return
            except OSError as exc:  # the worker is gone (EPIPE)
                loop.remove_writer(self.job_w)
                self.dead = True
                if not answer.done():
                    answer.set_exception(WorkerDied(f"the picture worker ended ({exc})"))
                return
            del data[:n]
            if not data:
                loop.remove_writer(self.job_w)

        loop.add_reader(self.answer_r, readable)
        try:
            writable()
            if data and not answer.done():
                loop.add_writer(self.job_w, writable)
            ok, value = await answer
        finally:
            loop.remove_reader(self.answer_r)
            loop.remove_writer(self.job_w)
            self.busy = False
            if not answer.done() or answer.cancelled():
                self.dead = True  # a wait cancelled mid-job: out of step with its pipes
        if not ok:
            raise value
        return value

    def close(self) -> None:
        """End the worker: its job pipe closes (it exits when it next reads), and it is
        told to end now."""
        self.dead = True
        for fd in (self.job_w, self.answer_r):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            self.process.terminate()

    def reap(self) -> bool:
        """True once the process has ended (its exit status collected)."""
        return self.process.poll() is not None


class WorkerPool:
    """``size`` workers started when first needed; jobs wait for an idle one, in order."""

    def __init__(self, size: int, setup: tuple[str, tuple[Any, ...]]) -> None:
        self.size = max(1, size)
        self.setup = setup  # "module:function", args: run in each worker before its first job
        self.workers: list[Worker] = []
        self._waiting: collections.deque[asyncio.Future[Worker]] = collections.deque()
        self._ended: list[Worker] = []  # closed workers whose exit status is not collected yet
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closed = False
        self.failures = 0  # workers that died in a row without answering (reset by an answer)

    def pids(self) -> list[int]:
        return [w.pid for w in self.workers if not w.dead]

    def start(self) -> None:
        """Every worker started now (each runs ``setup`` as it starts); raises
        :class:`WorkersUnavailable` where processes cannot start."""
        self._reap()
        for w in [w for w in self.workers if w.dead]:
            self._retire(w)
        while len(self.workers) < self.size:
            try:
                self.workers.append(Worker(self.setup))
            except (OSError, ValueError, subprocess.SubprocessError) as exc:
                raise WorkersUnavailable(str(exc) or type(exc).__name__) from exc

    def _reap(self) -> None:
        self._ended = [w for w in self._ended if not w.reap()]

    def _retire(self, worker: Worker) -> None:
        worker.close()
        if worker in self.workers:
            self.workers.remove(worker)
        self._ended.append(worker)

    async def _idle(self) -> Worker:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            # another event loop (a test's, a new bot's): jobs of the old one are gone
            self._loop = loop
            for fut in self._waiting:
                fut.cancel()
            self._waiting.clear()
            for w in list(self.workers):
                if w.busy:
                    self._retire(w)
        if len(self.workers) < self.size or any(w.dead for w in self.workers):
            self.start()
        for w in self.workers:
            if not w.busy:
                w.busy = True  # taken: no other job can be given it before it runs
                return w
        fut: asyncio.Future[Worker] = loop.create_future()
        self._waiting.append(fut)
        try:
            return await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # handed a worker just as it was cancelled
                self._release(fut.result())
            raise

    def _release(self, worker: Worker) -> None:
        if worker.dead:
            self._retire(worker)
            return
        while self._waiting:
            fut = self._waiting.popleft()
            if not fut.done():
                worker.busy = True
                fut.set_result(worker)
                return
        worker.busy = False

    async def run(self, fn: Callable[..., Any], blob: bytes) -> Any:
        """``fn(*pickle.loads(blob))`` in the next idle worker."""
        if self.closed:
            raise RuntimeError("the picture workers are closed")
        worker = await self._idle()
        try:
            value = await worker.run(fn, blob)
        except WorkerDied:
            self.failures += 1
            raise
        else:
            self.failures = 0
            return value
        finally:
            if worker in self.workers:
                self._release(worker)

    def close(self) -> None:
        self.closed = True
        for fut in self._waiting:
            fut.cancel()
        self._waiting.clear()
        for w in list(self.workers):
            self._retire(w)
        self.workers = []


def _read_exact(fd: int, size: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < size:
        chunk = os.read(fd, size - len(buf))
        if not chunk:
            return None
        buf.extend(chunk)
    return bytes(buf)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def serve() -> None:
    """A worker's life: the set-up frame, then one job after another until the bot's end
    of the job pipe closes."""
    import signal

    # Ctrl+C in the bot's terminal reaches its whole process group: the bot ends, and the
    # worker with it when its job pipe closes, without a traceback of its own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    job_r, answer_w = int(sys.argv[1]), int(sys.argv[2])

    def frame() -> Any:
        head = _read_exact(job_r, HEADER.size)
        if head is None:
            os._exit(0)
        body = _read_exact(job_r, HEADER.unpack(head)[0])
        if body is None:
            os._exit(0)
        return pickle.loads(body)

    path, (target, args) = frame()
    sys.path[:] = list(path) + [p for p in sys.path if p not in path]  # the bot's first
    module, _, name = target.partition(":")
    import importlib

    getattr(importlib.import_module(module), name)(*args)
    while True:
        fn, blob = frame()
        try:
            answer: tuple[bool, Any] = (True, fn(*pickle.loads(blob)))
        except BaseException as exc:  # noqa: BLE001 - sent back to the bot, which raises it
            answer = (False, exc)
        try:
            data = _frame(answer)
        except Exception as exc:  # noqa: BLE001 - a result or an exception that does not pickle
            data = _frame((False, RuntimeError(f"the worker's answer could not be sent: {exc!r}")))
        _write_all(answer_w, data)
