"""The painter's worker processes, each answering on its own pipe (issue 25).

``bot.picture_workers`` replaced ``ProcessPoolExecutor``, whose feeder and manager
threads cost the bot 0.4-0.9 ms of CPU per picture. These tests hold what the pool must
still do: answer in order and in full (a large job, a large answer), raise what a job
raised, survive a worker that dies or a wait that is cancelled, move from one event loop
to the next, and start no thread in the bot's process.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import threading
import time

import pytest

from bot import picture_workers, pictures
from bot.picture_workers import WorkerDied, WorkerPool

SETUP = ("os:getpid", ())  # a set-up that does nothing to speak of


def _pid() -> int:
    return os.getpid()


def _echo(data: bytes) -> bytes:
    return data[::-1]


def _slow_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _timed_pid(seconds: float) -> tuple[int, float, float]:
    start = time.monotonic()  # CLOCK_MONOTONIC: one clock for every process of the machine
    time.sleep(seconds)
    return os.getpid(), start, time.monotonic()


def _fail(text: str) -> None:
    raise ValueError(text)


def _die() -> None:
    os._exit(3)


def _blob(*args: object) -> bytes:
    return pickle.dumps(args)


@pytest.fixture
def pool():
    p = WorkerPool(2, SETUP)
    yield p
    p.close()


def test_a_large_job_and_a_large_answer_arrive_whole(pool: WorkerPool) -> None:
    """5 MiB each way: far more than a pipe holds, so both ends are read and written in
    pieces by the event loop."""
    data = os.urandom(5 * 2**20)

    async def go() -> bytes:
        return await pool.run(_echo, _blob(data))

    assert asyncio.run(go()) == data[::-1]


def test_what_a_job_raises_is_raised_here_and_the_worker_goes_on(pool: WorkerPool) -> None:
    async def go() -> tuple[str, int, int]:
        with pytest.raises(ValueError) as caught:
            await pool.run(_fail, _blob("no picture"))
        first = pool.pids()
        return str(caught.value), await pool.run(_pid, _blob()), len(first)

    text, pid, workers = asyncio.run(go())
    assert text == "no picture"
    assert pid in pool.pids() and workers == 2  # nobody was restarted for a job's error


def test_jobs_wait_for_an_idle_worker_and_no_worker_runs_two(pool: WorkerPool) -> None:
    """6 jobs of 0.3 s on 2 workers: both workers work, each one job at a time (which
    takes how many depends on the machine's load: never two at once)."""

    async def go() -> tuple[list[tuple[int, float, float]], float]:
        start = time.perf_counter()
        jobs = await asyncio.gather(*(pool.run(_timed_pid, _blob(0.3)) for _ in range(6)))
        return list(jobs), time.perf_counter() - start

    jobs, took = asyncio.run(go())
    assert sorted({pid for pid, _s, _e in jobs}) == sorted(pool.pids())
    for pid in pool.pids():
        mine = sorted((s, e) for p, s, e in jobs if p == pid)
        assert all(e <= s2 for (_s, e), (s2, _e2) in zip(mine, mine[1:], strict=False)), mine
    assert took >= 0.85  # 6 jobs of 0.3 s on 2 workers one at a time: at least 3 rounds


def test_a_worker_that_dies_fails_its_job_and_is_replaced(pool: WorkerPool) -> None:
    async def go() -> tuple[list[int], int, list[int]]:
        await pool.run(_pid, _blob())
        before = pool.pids()
        with pytest.raises(WorkerDied):
            await pool.run(_die, _blob())
        pid = await pool.run(_pid, _blob())
        return before, pid, pool.pids()

    before, pid, after = asyncio.run(go())
    assert len(after) == 2 and len(set(after) - set(before)) == 1  # one new worker
    assert pid in after


def test_a_cancelled_wait_retires_its_worker_and_the_next_job_is_answered(pool: WorkerPool) -> None:
    """A job cancelled mid-draw leaves its worker out of step with its pipes (its answer
    would be read as the next job's): that worker is never used again."""

    async def go() -> tuple[list[int], int, list[int]]:
        await asyncio.gather(pool.run(_pid, _blob()), pool.run(_pid, _blob()))
        before = pool.pids()
        task = asyncio.ensure_future(pool.run(_slow_pid, _blob(1.0)))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        answers = await asyncio.gather(*(pool.run(_slow_pid, _blob(0.01)) for _ in range(4)))
        return before, len(set(answers)), pool.pids()

    before, distinct, after = asyncio.run(go())
    assert len(after) == 2 and len(set(after) & set(before)) == 1
    assert distinct <= 2


def test_the_pool_moves_to_a_new_event_loop(pool: WorkerPool) -> None:
    first = asyncio.run(pool.run(_pid, _blob()))
    second = asyncio.run(pool.run(_pid, _blob()))
    assert {first, second} <= set(pool.pids())


def test_a_picture_call_starts_no_thread_in_the_bots_process() -> None:
    """The old executor's feeder and manager threads were the cost (module docstring)."""
    painter = pictures.Painter(mode="process")

    async def go() -> tuple[int, int]:
        await painter.call(_pid)  # the workers start
        threads = threading.active_count()
        await asyncio.gather(*(painter.call(_slow_pid, 0.05) for _ in range(4)))
        return threads, threading.active_count()

    try:
        before, after = asyncio.run(go())
        assert after == before and painter._threads is None
    finally:
        painter.close()


def test_the_painter_draws_in_threads_for_a_job_whose_worker_died(monkeypatch) -> None:
    """The job is done all the same (in a thread here); after workers die in a row
    without answering, the painter works in threads from then on."""
    painter = pictures.Painter(mode="process")
    where: list[int] = []

    async def go() -> None:
        for _ in range(pictures.DIED_IN_A_ROW):
            where.append(await painter.call(_die_in_a_worker))

    try:
        asyncio.run(go())
        assert where == [os.getpid()] * pictures.DIED_IN_A_ROW  # each done here, in a thread
        assert painter.mode == "thread" and painter._processes is None
    finally:
        painter.close()


def _die_in_a_worker() -> int:
    """Kills a worker process; returns this process's id where it is not one."""
    if os.environ.get("BOARDROOM_TEST_MAIN_PID") != str(os.getpid()):
        os._exit(5)
    return os.getpid()


os.environ.setdefault("BOARDROOM_TEST_MAIN_PID", str(os.getpid()))


def test_a_worker_ends_when_the_bots_end_of_its_pipe_closes(pool: WorkerPool) -> None:
    asyncio.run(pool.run(_pid, _blob()))
    workers = list(pool.workers)
    for w in workers:
        os.close(w.job_w)  # what the kernel does when the bot dies
        w.job_w = os.open(os.devnull, os.O_WRONLY)  # so that close() has something to close
    deadline = time.monotonic() + 10
    while not all(w.process.poll() is not None for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(w.process.returncode == 0 for w in workers)


def test_a_worker_that_cannot_start_is_reported_as_unavailable(monkeypatch, pool: WorkerPool) -> None:
    def no_fork(*args: object, **kw: object) -> object:
        raise OSError("fork: Resource temporarily unavailable")

    monkeypatch.setattr(picture_workers.subprocess, "Popen", no_fork)
    with pytest.raises(picture_workers.WorkersUnavailable):
        asyncio.run(pool.run(_pid, _blob()))


def test_the_picture_workers_nice_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``BOARDROOM_PICTURE_NICE`` (0-19) sets how far a worker lowers its priority; unset
    or nonsense, the bot's 19."""
    from bot.pictures import WORKER_NICE, worker_nice

    monkeypatch.setenv("BOARDROOM_PICTURE_NICE", "0")
    assert worker_nice() == 0
    monkeypatch.setenv("BOARDROOM_PICTURE_NICE", "7")
    assert worker_nice() == 7
    for bad in ("", "20", "-1", "high"):
        monkeypatch.setenv("BOARDROOM_PICTURE_NICE", bad)
        assert worker_nice() == WORKER_NICE == 19
