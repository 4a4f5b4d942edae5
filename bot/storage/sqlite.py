"""The SQLite backend (aiosqlite): its dialect, its link (statements run in aiosqlite's
thread, a transaction's queue in one trip), its connection's pragmas and the WAL
checkpoints off the write path.

::

    storage = await Storage.open("boardroom.db")     # WAL, synchronous=NORMAL, foreign_keys=ON,
                                                     # busy timeout, then applies migrations
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.base import Dialect, Query, Stmt
from bot.storage.core import Storage
from bot.storage.errors import StorageError
from bot.storage.migrations import games_by_edition, migrate, migration_files, schema_version

# (the migration runner's functions are this backend's, as bot.storage.postgres has its own)
__all__ = [
    "SQLITE", "SqliteDialect", "SqliteLink", "SqliteStorage", "checkpoint", "connect", "games_by_edition",
    "is_unavailable", "migrate", "migration_files", "schema_version",
]

log = logging.getLogger("boardroom.storage")


class _NoStatementArgs(logging.Filter):
    """aiosqlite logs every call at DEBUG with its SQL parameters, and those hold sealed
    plans and seeds. Keep the line, drop the parameters."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(_bare(a) for a in record.args)
        return True


def _bare(value: Any) -> str:
    """A call or an error named without its arguments: ``execute``, ``OperationalError``."""
    if isinstance(value, BaseException):
        return type(value).__name__
    func = getattr(value, "func", value)  # functools.partial(conn.execute, sql, params)
    return str(getattr(func, "__name__", type(func).__name__))


logging.getLogger("aiosqlite").addFilter(_NoStatementArgs("aiosqlite"))


# sqlite3.OperationalError texts that mean "cannot write now", not a bug.
UNAVAILABLE_MARKERS = (
    "database or disk is full",
    "attempt to write a readonly database",
    "disk i/o error",
    "unable to open database file",
)


def is_unavailable(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and any(
        m in str(exc).lower() for m in UNAVAILABLE_MARKERS
    )




def _run_batch(db: sqlite3.Connection, batch: list[tuple[str, Any, bool]]) -> None:
    """Run queued statements in order, in aiosqlite's thread (one trip); the first
    error stops the batch and is raised (the transaction is then rolled back)."""
    for sql, args, many in batch:
        if many:
            db.executemany(sql, args)
        else:
            db.execute(sql, args)


def _run_and_fetch(
    db: sqlite3.Connection, batch: list[tuple[str, Any, bool]], queries: list[tuple[str, tuple[Any, ...]]]
) -> list[list[Any]]:
    """The queued statements, then each query's rows: one trip to the database thread."""
    _run_batch(db, batch)
    out = []
    for sql, args in queries:
        cur = db.execute(sql, args)
        try:
            out.append(cur.fetchall())
        finally:
            cur.close()
    return out


# what a delivered outbox row keeps of its payload: nothing (its kind, target, batch,
# message id and times stay)

class SqliteDialect(Dialect):
    name = "sqlite"
    begin = "BEGIN IMMEDIATE"  # the write lock at once: no deadlock between two writers

    def indexed_by(self, index: str) -> str:
        return f" INDEXED BY {index}"

    def json_number(self, column: str, key: str) -> str:
        return f"json_extract({column}, '$.{key}')"

    def contains(self, haystack: str, needle: str) -> str:
        return f"instr({haystack}, {needle}) > 0"


SQLITE = SqliteDialect()


class SqliteLink:
    """One aiosqlite connection's trips: a batch of statements and queries run together
    in its thread (:func:`_run_and_fetch`)."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def run(self, batch: list[Stmt], queries: list[Query]) -> list[list[Any]]:
        if not queries:
            await self.conn._execute(_run_batch, self.conn._conn, batch)
            return []
        return await self.conn._execute(_run_and_fetch, self.conn._conn, batch, queries)

    async def execute(self, sql: str, args: Any, many: bool = False) -> None:
        if many:
            await self.conn.executemany(sql, args)
        else:
            await self.conn.execute(sql, args)

    async def rowcount(self, sql: str, args: tuple[Any, ...]) -> int:
        cur = await self.conn.execute(sql, args)
        try:
            return int(cur.rowcount or 0)
        finally:
            await cur.close()

    async def insert_id(self, sql: str, args: tuple[Any, ...]) -> int:
        cur = await self.conn.execute(sql, args)
        try:
            return int(cur.lastrowid or 0)
        finally:
            await cur.close()


class SqliteStorage(Storage):
    """One long-lived aiosqlite connection; every access under one asyncio.Lock."""

    unavailable_on_read = False

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__(SqliteLink(conn), path)
        self._checkpoints: asyncio.Task[None] | None = None
        self.last_checkpoint: tuple[int, int, int] | None = None  # (busy, WAL pages, copied)
        self.wal_restarts = 0  # checkpoints run with the writer held, so that the WAL starts over

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = 5000,
        run_migrations: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> SqliteStorage:
        conn = await connect(path, busy_timeout_ms=busy_timeout_ms)
        try:
            if run_migrations:
                await migrate(conn, migrations_dir, clock=clock)
            else:
                files = migration_files(migrations_dir)
                have = await schema_version(conn)
                if have != (files[-1].version if files else 0):
                    raise StorageError(f"database at schema {have}; run `boardroom migrate`")
        except BaseException:
            await conn.close()
            raise
        return cls(conn, str(path))

    async def close(self) -> None:
        await self.stop_checkpoints()
        async with self._lock:
            await self.conn.close()

    def _is_unavailable(self, exc: BaseException) -> bool:
        return is_unavailable(exc)

    def _unavailable_hint(self) -> str:
        return "moves are refused until this is fixed (free disk space, make the file writable)"

    async def _rollback(self) -> None:
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:  # nothing open (BEGIN failed, COMMIT ran)
            if "no transaction is active" not in str(exc) and not is_unavailable(exc):
                raise

    # -- checkpoints off the write path ------------------------------------------------

    def start_checkpoints(self, every: float | None = None) -> bool:
        """Copy the WAL into the database in the background instead of inside a COMMIT.

        SQLite's automatic checkpoint runs in the COMMIT that crosses 1,000 WAL pages and
        copies every page changed since the last one (with an fsync): with thousands of
        games those pages are scattered and that one move waits 100-250 ms, so a move's
        p99 grew with the number of games (issue 9). Here the write connection never
        checkpoints; a task runs a PASSIVE checkpoint on its own connection in a worker
        thread every ``every`` seconds after writes (a PASSIVE checkpoint never blocks the
        writer or the readers). Returns False (nothing started) for an in-memory database.
        Stopped by :meth:`close` (SQLite checkpoints the rest when the database closes)."""
        if self._checkpoints is not None or self.path == ":memory:" or self.path.startswith("file:"):
            return self._checkpoints is not None
        self._checkpoints = asyncio.get_running_loop().create_task(
            self._checkpoint_loop(self.CHECKPOINT_SECONDS if every is None else every),
            name="boardroom-checkpoints",
        )
        return True

    async def stop_checkpoints(self) -> None:
        task, self._checkpoints = self._checkpoints, None
        if task is not None:
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass

    async def _checkpoint_loop(self, every: float) -> None:
        async with self._lock:
            await self.conn.execute("PRAGMA wal_autocheckpoint = 0")
        side = await asyncio.to_thread(sqlite3.connect, self.path, check_same_thread=False)
        busy = threading.Lock()  # the side connection is closed only after a running checkpoint

        def run() -> tuple[int, int, int]:
            with busy:
                return checkpoint(side)

        def close() -> None:
            with busy:
                side.close()

        try:
            side.execute("PRAGMA busy_timeout = 5000")
            seen = self._commits
            while True:
                await asyncio.sleep(every)
                if self._commits == seen:
                    continue
                seen = self._commits
                try:
                    self.last_checkpoint = await asyncio.to_thread(run)
                    if self.last_checkpoint[1] > self.WAL_RESTART_PAGES:
                        # Under a steady stream of writes a commit always lands while the
                        # checkpoint copies, so the WAL is never all copied when the next
                        # write begins, and SQLite starts it over only then: it grew to
                        # 150 MB in bench_scale, and every page read searched its index.
                        # One more pass with no transaction running (the storage's lock
                        # held: moves wait for it, the event loop does not) copies the
                        # last frames; the next write starts the WAL over.
                        async with self._lock:
                            self.last_checkpoint = await asyncio.to_thread(run)
                        self.wal_restarts += 1
                except sqlite3.Error as exc:  # a busy or full disk: the next round tries again
                    log.warning("background checkpoint failed: %s", exc)
        finally:
            try:
                async with self._lock:  # the write connection checkpoints by itself again
                    await self.conn.execute("PRAGMA wal_autocheckpoint = 1000")
            except Exception:  # closing anyway
                pass
            await asyncio.to_thread(close)


def checkpoint(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """A PASSIVE WAL checkpoint on ``conn``: (busy, WAL pages, pages copied)."""
    row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return int(row[0]), int(row[1]), int(row[2])


async def connect(path: str | os.PathLike[str], *, busy_timeout_ms: int = 5000) -> aiosqlite.Connection:
    """Open a connection in autocommit mode with the pragmas every connection needs."""
    text = str(path)
    if text != ":memory:" and not text.startswith("file:"):
        parent = Path(text).expanduser().resolve().parent
        if not parent.is_dir():
            raise StorageError(f"cannot create the database {text}: {parent} is not a directory")
    conn = await aiosqlite.connect(text, isolation_level=None)
    try:
        for pragma in (
            "journal_mode = WAL",
            "synchronous = NORMAL",
            "foreign_keys = ON",
            f"busy_timeout = {int(busy_timeout_ms)}",
        ):
            async with conn.execute(f"PRAGMA {pragma}") as cur:
                await cur.fetchall()
    except BaseException:
        await conn.close()
        raise
    return conn

Storage.backends["sqlite"] = SqliteStorage
