"""Faults of PostgreSQL in the middle of a game (issue 37): the server restarted, or
crashing while a move is in flight. The move of that moment is refused with the
player's sentence ("cannot save right now", nothing recorded), nothing committed is
lost, and the next moves work once the server is back: the pool reconnects by itself,
with a backoff that never grows past a few seconds.

Restarting a server would break the other tests using the database of
``BOARDROOM_TEST_DB``, so these tests start a cluster of their own
(scripts/pg_cluster.sh, as ``make test`` does) on a free port, and stop it after."""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.app import App
from bot.errors import CANNOT_SAVE, expected_message
from bot.storage import DatabaseDown, Storage, StorageError, StorageUnavailable, open_when_up
from bot.storage.postgres import RECONNECT_MAX_DELAY_S, CappedBackoff, PgStorage, connect
from tests.fakegame import FakeClock, lobby, new_app
from tests.pg_support import pg_test_url
from tests.table_support import in_ci
from tests.test_two_apps import logged

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = str(ROOT / "scripts" / "pg_cluster.sh")
CHANNELS = itertools.count(100)  # the tests share one cluster: a game place each


def test_the_pool_reconnects_at_most_a_few_seconds_apart() -> None:
    """psycopg-pool's own backoff doubles without end (after an hour's outage the bot
    would wait many minutes more once the server is back); ours stops growing."""
    attempt = CappedBackoff(timeout=24 * 3600.0)
    delays = []
    for n in range(12):
        attempt.update_delay(now=float(n))
        delays.append(attempt.delay)
    assert 0.9 <= delays[0] <= 1.1 and 1.8 <= delays[1] <= 2.2  # 1 s, 2 s, ... as before
    assert max(delays) == RECONNECT_MAX_DELAY_S == delays[-1]


async def test_a_database_down_at_start_is_waited_for_with_backoff_a_wrong_one_is_not() -> None:
    """``boardroom run`` waits for a database that is down (a server restarting, or
    started after the bot), trying 1 s, 2 s, 4 s, then 5 s apart, for a while; then it
    stops with the same clear line. A wrong password or name stops it at once."""
    now = [0.0]
    slept: list[float] = []
    tries: list[int] = []

    async def sleep(s: float) -> None:
        slept.append(s)
        now[0] += s

    def opener(fails: int, error: type[StorageError]) -> Any:
        async def open_(path: Any) -> Any:
            tries.append(1)
            if len(tries) <= fails:
                raise error(f"cannot connect to PostgreSQL at {path}: connection refused")
            return "storage"
        return open_

    up = await open_when_up("postgresql://x", 60, opener=opener(5, DatabaseDown), sleep=sleep, clock=lambda: now[0])
    assert up == "storage" and slept == [1.0, 2.0, 4.0, 5.0, 5.0]
    tries.clear()
    slept.clear()
    with pytest.raises(DatabaseDown, match="cannot connect to PostgreSQL at postgresql://x"):
        await open_when_up("postgresql://x", 20, opener=opener(99, DatabaseDown), sleep=sleep, clock=lambda: now[0])
    assert sum(slept) == 20 and len(tries) == len(slept) + 1
    tries.clear()
    slept.clear()
    with pytest.raises(StorageError):
        await open_when_up("postgresql://x", 60, opener=opener(99, StorageError), sleep=sleep, clock=lambda: now[0])
    assert len(tries) == 1 and slept == []


async def test_nothing_listening_is_down() -> None:
    with pytest.raises(DatabaseDown, match="cannot connect to PostgreSQL at postgresql://b:\\*\\*\\*@127.0.0.1:1/b"):
        await connect("postgresql://b:secret@127.0.0.1:1/b", timeout=2)


@pytest.mark.postgres
async def test_a_wrong_database_name_is_not_waited_for() -> None:
    missing = pg_test_url().rsplit("/", 1)[0] + "/no_such_database"
    with pytest.raises(StorageError) as caught:
        await connect(missing)
    assert not isinstance(caught.value, DatabaseDown) and "no_such_database" in str(caught.value)


class Cluster:
    """A throwaway PostgreSQL cluster of this test's own (scripts/pg_cluster.sh)."""

    def __init__(self, directory: str, port: int, url: str) -> None:
        self.dir, self.port, self.url = directory, port, url
        self.running = True

    def _run(self, *args: str) -> None:
        subprocess.run([SCRIPT, args[0], self.dir, str(self.port), *args[1:]], check=True, capture_output=True)

    def down(self, mode: str = "fast") -> None:
        self._run("down", mode)
        self.running = False

    def up(self) -> None:
        self._run("up")
        self.running = True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    parent = tempfile.mkdtemp(prefix="boardroom-pg-faults.")
    os.chmod(parent, 0o755)  # the postgres user reads its data directory under it
    directory, port = f"{parent}/c", free_port()
    out = subprocess.run([SCRIPT, "start", directory, str(port)], capture_output=True, text=True)
    try:
        if out.returncode != 0:
            reason = f"no PostgreSQL cluster of our own: {out.stderr.strip()[-300:]}"
            if in_ci():
                pytest.fail(reason, pytrace=False)
            pytest.skip(reason)
        url = out.stdout.strip()
        # the throwaway clusters trade durability for speed (synchronous_commit off: a
        # crash loses the last commits, as this test saw); a crash test needs the default
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("ALTER SYSTEM SET synchronous_commit = on")
            admin.execute("SELECT pg_reload_conf()")
        yield Cluster(directory, port, url)
    finally:
        subprocess.run([SCRIPT, "stop", directory, str(port)], capture_output=True)
        shutil.rmtree(parent, ignore_errors=True)


@pytest.fixture
async def played(cluster: Cluster) -> AsyncIterator[tuple[App, int]]:
    """A game of three on the cluster (a channel of its own), its first move made."""
    if not cluster.running:  # (a test before this one failed while it was down)
        await asyncio.to_thread(cluster.up)
    storage = await Storage.open(cluster.url)
    try:
        app = await new_app(storage, FakeClock())
        info = await lobby(app, humans=3, channel=next(CHANNELS))
        await app.start(info.id, 1, seed=3)
        assert (await app.act(info.id, 1, None, {"pick": 1}, 0)).status == "applied"
        yield app, info.id
    finally:
        await storage.close()


async def refused(app: App, game_id: int, user: int, action: dict[str, Any]) -> None:
    with pytest.raises(StorageUnavailable) as caught:
        await app.act(game_id, user, None, action, 0)
    assert expected_message(caught.value) == CANNOT_SAVE  # what the player reads


async def once_back(app: App, game_id: int, user: int, action: dict[str, Any]) -> str:
    """The move made once the server is back (a pool's attempt may still be on its way:
    each try waits up to CONNECT_TIMEOUT_S for a connection; three at most)."""
    for _ in range(2):
        try:
            return (await app.act(game_id, user, None, action, 0)).status
        except StorageUnavailable:
            continue
    return (await app.act(game_id, user, None, action, 0)).status


@pytest.mark.postgres
async def test_a_server_restarted_mid_game_refuses_the_move_of_that_moment_then_plays_on(
    cluster: Cluster, played: tuple[App, int]
) -> None:
    app, game_id = played
    storage = app.storage
    assert isinstance(storage, PgStorage)
    await asyncio.to_thread(cluster.down)
    await refused(app, game_id, 2, {"pick": 2})  # the connection the bot held is gone
    storage.pool.timeout = 1.0  # (while it is down, each move waits this long, then is refused)
    await refused(app, game_id, 2, {"pick": 2})
    await asyncio.to_thread(cluster.up)
    storage.pool.timeout = 10.0
    assert await once_back(app, game_id, 2, {"pick": 2}) == "applied"
    assert (await app.act(game_id, 3, None, {"pick": 3}, 0)).status == "applied"
    assert await logged(app, game_id) == [(1, "ann", {"pick": 1}), (2, "bob", {"pick": 2}), (3, "cid", {"pick": 3})]


@pytest.mark.postgres
async def test_a_server_crashing_while_a_move_is_in_flight_loses_nothing_committed(
    cluster: Cluster, played: tuple[App, int]
) -> None:
    """The server dies (immediate stop: a crash, a failover) after the move's first trip
    (its transaction open, the game locked, its log row sent) and before its COMMIT: the
    move is refused, none of it is kept; the move before it is kept, and the same move
    made again once the server is back is logged once."""
    app, game_id = played
    tx = app.storage._tx
    real = tx.waiting_and_quiet_hours
    crashed = []

    async def crash_after(*args: Any) -> Any:
        out = await real(*args)  # the first trip of the move: BEGIN, the lock, its row
        if not crashed:
            crashed.append(True)
            await asyncio.to_thread(cluster.down, "immediate")
        return out

    tx.waiting_and_quiet_hours = crash_after  # type: ignore[method-assign]
    await refused(app, game_id, 2, {"pick": 2})
    assert crashed
    await asyncio.to_thread(cluster.up)
    async with await psycopg.AsyncConnection.connect(cluster.url, autocommit=True) as admin:
        cur = await admin.execute("SELECT seq, seat FROM actions WHERE game_id = %s ORDER BY seq", (game_id,))
        assert await cur.fetchall() == [(1, "ann")]  # committed: kept; in flight: nothing
    assert await once_back(app, game_id, 2, {"pick": 2}) == "applied"
    assert await once_back(app, game_id, 2, {"pick": 2}) == "already"  # a second click
    assert await logged(app, game_id) == [(1, "ann", {"pick": 1}), (2, "bob", {"pick": 2})]


async def set_read_only(url: str, on: bool, app: App | None = None) -> None:
    """Every new transaction of the cluster read-only (or not again): what the bot meets
    when a failover leaves it on a server that is not the primary (a standby refuses a
    write with the same error, SQLSTATE 25006). A session open already takes it (a
    reload) only after the next statement it reads: an idle server process reloads at the
    top of its loop, and the statement it was waiting for already began its transaction
    with the old setting (the bot's move was written at load 6, once in 9 runs). So the
    bot's session, given ``app``, reads once first."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
        await admin.execute(f"ALTER SYSTEM SET default_transaction_read_only = {'on' if on else 'off'}")
        await admin.execute("SELECT pg_reload_conf()")
        for _ in range(100):  # the reload is a signal: until this session sees it
            cur = await admin.execute("SHOW default_transaction_read_only")
            if (await cur.fetchone() or [""])[0] == ("on" if on else "off"):
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the server did not take the setting")
    if app is not None:
        async with app.storage.read() as q:
            await q._all("SELECT 1", ())


async def written(url: str, game_id: int) -> tuple[Any, ...]:
    """What the database holds of the game: its log, its version, its outbox and waits."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
        out = []
        for sql in (
            "SELECT seq, seat FROM actions WHERE game_id = %s ORDER BY seq",
            "SELECT version FROM games WHERE id = %s",
            "SELECT id, kind FROM outbox WHERE game_id = %s ORDER BY id",
            "SELECT seat, since_version FROM waiting WHERE game_id = %s ORDER BY seat",
        ):
            cur = await admin.execute(sql, (game_id,))
            out.append(await cur.fetchall())
        return tuple(out)


@pytest.mark.postgres
async def test_a_database_turned_read_only_mid_game_refuses_the_move_then_plays_on(
    cluster: Cluster, played: tuple[App, int]
) -> None:
    """A failover that leaves the bot on a read-only server: the move of that moment is
    refused with the player's sentence ("not recorded, try again"), none of it written,
    and so is the next try while it lasts; once the server takes writes again (the
    standby promoted), the move made again is logged once, and a second click is
    "already done"."""
    app, game_id = played
    before = await written(cluster.url, game_id)
    await set_read_only(cluster.url, True, app)
    try:
        await refused(app, game_id, 2, {"pick": 2})
        await refused(app, game_id, 3, {"pick": 3})  # a fresh connection: read-only too
        assert await written(cluster.url, game_id) == before
    finally:
        await set_read_only(cluster.url, False)
    assert (await app.act(game_id, 2, None, {"pick": 2}, 0)).status == "applied"
    assert (await app.act(game_id, 2, None, {"pick": 2}, 0)).status == "already"  # a second click
    assert (await app.act(game_id, 3, None, {"pick": 3}, 0)).status == "applied"
    assert await logged(app, game_id) == [(1, "ann", {"pick": 1}), (2, "bob", {"pick": 2}), (3, "cid", {"pick": 3})]


@pytest.fixture(params=["read-write", "any"])
def failover(request: pytest.FixtureRequest) -> Iterator[tuple[Cluster, Cluster, str]]:
    """A primary, a hot standby of it (pg_basebackup, streaming) and the bot's URL naming
    both, the primary first: with ``target_session_attrs=read-write`` (what an operator
    writes: a server that is not the primary is refused at connect), or without it (the
    bot may land on the standby, whose writes fail until it is promoted)."""
    parent = tempfile.mkdtemp(prefix="boardroom-pg-failover.")
    os.chmod(parent, 0o755)
    first = free_port()
    second = next(p for p in iter(free_port, None) if p != first)
    try:
        out = subprocess.run([SCRIPT, "start", f"{parent}/p", str(first)], capture_output=True, text=True)
        if out.returncode != 0:
            reason = f"no PostgreSQL cluster of our own: {out.stderr.strip()[-300:]}"
            if in_ci():
                pytest.fail(reason, pytrace=False)
            pytest.skip(reason)
        primary = Cluster(f"{parent}/p", first, out.stdout.strip())
        out = subprocess.run(
            [SCRIPT, "standby", f"{parent}/s", str(second), str(first)], capture_output=True, text=True, check=True
        )
        standby = Cluster(f"{parent}/s", second, out.stdout.strip())
        rest = primary.url.split("@", 1)[1].split("/", 1)[1]
        url = f"{primary.url.split('@')[0]}@127.0.0.1:{first},127.0.0.1:{second}/{rest}"
        if request.param == "read-write":
            url += "?target_session_attrs=read-write"
        yield primary, standby, url
    finally:
        subprocess.run([SCRIPT, "stop", f"{parent}/s", str(second)], capture_output=True)
        subprocess.run([SCRIPT, "stop", f"{parent}/p", str(first)], capture_output=True)
        shutil.rmtree(parent, ignore_errors=True)


@pytest.mark.postgres
async def test_a_failover_to_a_promoted_standby_refuses_the_moves_between_then_plays_on(
    failover: tuple[Cluster, Cluster, str],
) -> None:
    """The primary stops mid-game (a switchover: its last commits streamed to the
    standby); until the standby is promoted each move is refused with the player's
    sentence, none of it written; then the moves go to the new primary, the move made
    before the failover is there, and each move is logged once."""
    primary, standby, url = failover
    storage = await Storage.open(url)
    try:
        assert isinstance(storage, PgStorage)
        app = await new_app(storage, FakeClock())
        info = await lobby(app, humans=3, channel=next(CHANNELS))
        await app.start(info.id, 1, seed=3)
        assert (await app.act(info.id, 1, None, {"pick": 1}, 0)).status == "applied"
        # the standby has replayed every commit before the primary stops (a switchover):
        # without it, a move in the "any" case could read a standby that has not replayed
        # the game yet, and be told there is no such game (2 runs in 12)
        async with await psycopg.AsyncConnection.connect(primary.url, autocommit=True) as admin:
            cur = await admin.execute("SELECT pg_current_wal_lsn()::text")
            lsn = (await cur.fetchone() or [None])[0]
        async with await psycopg.AsyncConnection.connect(standby.url, autocommit=True) as admin:
            for _ in range(3000):  # a wait on it, not a limit
                cur = await admin.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", (lsn,))
                if (await cur.fetchone() or [False])[0]:
                    break
                await asyncio.sleep(0.02)
        await asyncio.to_thread(primary.down)  # fast: the standby has every commit
        storage.pool.timeout = 1.0  # (each move waits this long for a connection, then is refused)
        await refused(app, info.id, 2, {"pick": 2})
        await refused(app, info.id, 2, {"pick": 2})
        async with await psycopg.AsyncConnection.connect(standby.url, autocommit=True) as admin:
            for _ in range(3000):  # what the standby received, replayed (a wait on it, not a limit)
                cur = await admin.execute("SELECT pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn()")
                if (await cur.fetchone() or [False])[0]:
                    break
                await asyncio.sleep(0.02)
            cur = await admin.execute("SELECT seq, seat FROM actions WHERE game_id = %s ORDER BY seq", (info.id,))
            assert await cur.fetchall() == [(1, "ann")]  # nothing of the refused moves
            cur = await admin.execute("SELECT pg_is_in_recovery()")
            assert (await cur.fetchone() or [None])[0] is True  # (still a standby until now)
        await asyncio.to_thread(subprocess.run, [SCRIPT, "promote", standby.dir, str(standby.port)], check=True)
        storage.pool.timeout = 10.0
        assert await once_back(app, info.id, 2, {"pick": 2}) == "applied"
        assert (await app.act(info.id, 2, None, {"pick": 2}, 0)).status == "already"  # a second click
        assert (await app.act(info.id, 3, None, {"pick": 3}, 0)).status == "applied"
        assert await logged(app, info.id) == [(1, "ann", {"pick": 1}), (2, "bob", {"pick": 2}), (3, "cid", {"pick": 3})]
    finally:
        await storage.close()
