"""Several boardroom processes on one PostgreSQL database (issue 37), as real processes
(tests/pg_worker.py) on the database of ``BOARDROOM_TEST_DB``:

- two processes act on one game at once, 1,000 times (a game each): every move is
  logged once (the game's lock in the action's transaction, then the version check);
- one of two processes is killed (SIGKILL) mid-work, 25 times over: its outbox rows and
  reminders are taken over by the other (claims with expiry), none is lost, and none is
  sent twice but the one a killed process may have sent in its last moment, before it
  could record it (a post's nonce makes Discord keep one: ``enforce_nonce``).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from bot.storage import Storage
from tests.fakegame import FakeClock, lobby, new_app
from tests.pg_support import fresh_database

pytestmark = pytest.mark.postgres
ROOT = Path(__file__).resolve().parents[1]
TTL = 2.0  # the claims' time in these tests (BOARDROOM_CLAIM_TTL): a kill costs 2 s; a live process
# paused longer than this (a machine loaded 6 times over its cores) loses its claim, and
# the next owner sends its last post again (Discord keeps one: the nonce)
DEADLINE_S = 240.0  # a guard against a process that never finishes, not a measure


def spawn(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["BOARDROOM_CLAIM_TTL"] = str(TTL)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.pg_worker", *args], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )


async def test_two_processes_acting_on_one_game_at_once_log_it_once() -> None:
    async with fresh_database() as url:
        storage = await Storage.open(url)
        try:
            app = await new_app(storage, FakeClock())
            ids = []
            for n in range(1000):
                info = await lobby(app, humans=2, channel=10_000 + n)
                await app.start(info.id, 1, seed=n)
                ids.append(info.id)
        finally:
            await storage.close()
        start_at = time.time() + 4.0  # after both processes have started
        procs = [spawn("act", url, name, ",".join(map(str, ids)), str(start_at)) for name in ("a", "b")]
        try:
            outs = [json.loads(p.communicate(timeout=DEADLINE_S)[0].strip().splitlines()[-1]) for p in procs]
        finally:
            for p in procs:
                p.kill()
        async with await psycopg.AsyncConnection.connect(url) as conn:
            cur = await conn.execute("SELECT game_id, count(*), min(seat) FROM actions GROUP BY game_id")
            logged = {gid: (n, seat) for gid, n, seat in await cur.fetchall()}
    doubled = sum(n - 1 for n, _seat in logged.values())
    assert doubled == 0 and logged == {gid: (1, "ann") for gid in ids}
    for gid in ids:  # each game: one process applied the move, the other was refused
        got = sorted(out[str(gid)] for out in outs)
        assert got[1] == "applied" and got[0] in ("already", "Raced"), (gid, got)


async def add_work(url: str, n: int, now: float) -> None:
    """A game with 6 DMs to send (two players' lanes) and a reminder due for each seat."""
    storage = await Storage.open(url)
    try:
        async with storage.transaction() as tx:
            gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=20_000 + n, thread_id=None, host_id=1, at=now)
            await tx.update_game(gid, now, status="active")
            for i, seat in enumerate(("ann", "bob")):
                await tx.insert_seat(gid, seat, i, 100 + i, None, seat)
                await tx.put_waiting(gid, seat, 0, now)
                await tx.put_reminder(gid, seat, "nudge", now - 1)
            batch = await tx.next_outbox_batch()
            rows = [("dm", str(100 + i % 2), {"content": f"{n}/{i}"}, True) for i in range(6)]
            await tx.put_outbox_rows(gid, batch, rows, at=now)
    finally:
        await storage.close()


async def test_a_killed_process_work_is_taken_over_nothing_lost_nothing_doubled() -> None:
    kills = 25
    rng = random.Random(37)
    async with fresh_database() as url:
        await (await Storage.open(url)).close()  # the schema
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute("CREATE TABLE attempts (nonce TEXT NOT NULL, by TEXT NOT NULL, at DOUBLE PRECISION)")
        procs: dict[str, subprocess.Popen[str]] = {}
        killed: set[str] = set()
        try:
            for name in ("p0", "p1"):
                procs[name] = spawn("serve", url, name)
            deadline = time.monotonic() + DEADLINE_S
            for k in range(kills):
                await add_work(url, k, time.time())
                await asyncio.sleep(rng.uniform(0.1, 0.6))  # mid-work
                victim = rng.choice(sorted(procs))
                procs[victim].send_signal(signal.SIGKILL)
                procs[victim].wait()
                killed.add(victim)
                del procs[victim]
                procs[f"p{k + 2}"] = spawn("serve", url, f"p{k + 2}")
                assert time.monotonic() < deadline, "the kills took too long (a hung process?)"
            rows = reminders = -1
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                while time.monotonic() < deadline:
                    cur = await conn.execute("SELECT count(*) FROM outbox WHERE state != 'delivered'")
                    rows = (await cur.fetchone() or [0])[0]
                    cur = await conn.execute("SELECT count(*) FROM reminders WHERE count = 0")
                    reminders = (await cur.fetchone() or [0])[0]
                    if rows == 0 and reminders == 0:
                        break
                    await asyncio.sleep(0.2)
                cur = await conn.execute("SELECT nonce, by FROM attempts ORDER BY at")
                attempts: list[tuple[str, str]] = list(await cur.fetchall())
                cur = await conn.execute("SELECT count(*) FROM outbox")
                total = (await cur.fetchone() or [0])[0]
        finally:
            for p in procs.values():
                p.kill()
                p.wait()
    assert (rows, reminders) == (0, 0), "lost: outbox rows or reminders never done"
    first: dict[str, str] = {}
    doubled = []
    for nonce, by in attempts:
        if nonce in first and first[nonce] not in killed:
            doubled.append((nonce, first[nonce], by))  # sent again though its sender lived on
        first.setdefault(nonce, by)
    assert doubled == []
    assert total == 6 * kills and len(first) == total + 2 * kills  # every row and every nudge sent
    resent = len(attempts) - len(first)
    assert resent <= 2 * 2 * kills  # at most what a killed process had in flight (2 lanes, 2 nudges)
