"""The PostgreSQL backend (psycopg 3 and psycopg-pool; issue 37): its dialect, its link,
its migrations and the storage that several processes may share.

Why psycopg 3 and not asyncpg (docs/scaling.md says more): the storage queues a
transaction's writes and sends them together with the next read (issue 25), and
psycopg's pipeline mode sends such a mixed batch of statements, each with its own
parameters, in one round trip, as the SQLite link sends them in one trip to its thread;
asyncpg pipelines only one statement's ``executemany``. psycopg also keeps the DB-API's
row counts and ``%s`` marks (the statements are written once, with ``?`` marks, for
both), and its pool (psycopg-pool) reconnects with backoff by itself.

The statements are the same as SQLite's (``bot.storage.base``); this module only turns
their ``?`` marks into ``%s`` and SQLite's types in the migrations into PostgreSQL's
(:func:`ddl`). A migration whose SQL must differ has a ``NNNN_name.postgresql.sql``.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import os
import re
import time
import weakref
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
from psycopg import generators, pq
from psycopg._queries import _query2pg_nocache
from psycopg.adapt import PyFormat, Transformer
from psycopg.waiting import Ready, Wait
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from psycopg_pool.base import AttemptWithBackoff

from bot.storage.base import Dialect, Query, Stmt
from bot.storage.core import Storage
from bot.storage.errors import DatabaseDown, StorageError
from bot.storage.migrations import check_newest, check_script, migration_files

log = logging.getLogger("boardroom.storage")

# what a connection costs to wait for before a move is refused as "database down"
CONNECT_TIMEOUT_S = 10.0
# the longest wait between two attempts to reconnect (1 s, 2 s, 4 s, then this): the
# pool's own backoff doubles without end, so after an outage of an hour the moves would
# wait many minutes more once the server is back
RECONNECT_MAX_DELAY_S = 5.0


class PgDialect(Dialect):
    name = "postgresql"
    begin = "BEGIN"  # READ COMMITTED; a game's actions are kept apart by its lock and (game, seq)
    # several processes: one action of a game at a time, whichever process gets it (the
    # other waits, then finds its seq taken: the version check, and decides anew)
    game_lock = "SELECT pg_advisory_xact_lock(?)"
    for_update = " FOR UPDATE"

    def outbox_rows_insert(self, rows: int) -> str | None:
        # (issue 37: a batch of n rows was n INSERTs and an UPDATE of their nonces, the
        # UPDATE ~40 us of the server's time, each statement ~15 us besides its rows.)
        # Each row's id is drawn from the table's identity sequence in the rows' order
        # (nextval, a volatile function, is computed after the ORDER BY), and its nonce
        # is made of it at once
        return _outbox_rows_insert(rows)

    def json_number(self, column: str, key: str) -> str:
        return f"(({column})::jsonb ->> '{key}')::numeric"

    def contains(self, haystack: str, needle: str) -> str:
        return f"strpos({haystack}, {needle}) > 0"


POSTGRES = PgDialect()


@functools.lru_cache(maxsize=64)
def _outbox_rows_insert(rows: int) -> str:
    values = ", ".join(f"({n}, ?, ?, ?, ?::bigint, ?::double precision)" for n in range(rows))
    return (
        "INSERT INTO outbox (id, game_id, batch, kind, target, payload, nonce, ordered, next_try_at, created_at)"
        " SELECT r.id, ?, ?, r.kind, r.target, r.payload, 'br' || r.id, r.ordered, r.next_try_at, ?"
        " FROM (SELECT nextval('outbox_id_seq') AS id, v.* FROM"
        f" (VALUES {values}) AS v (n, kind, target, payload, ordered, next_try_at) ORDER BY v.n) AS r"
    )

_MARK = re.compile(r"'(?:[^']|'')*'|\?|%")


@functools.lru_cache(maxsize=4096)
def marks(sql: str) -> str:
    """``?`` marks as psycopg's ``%s`` (a literal ``%`` doubled; quoted text kept)."""
    return _MARK.sub(lambda m: "%s" if m.group() == "?" else "%%" if m.group() == "%" else m.group(), sql)


def _args(args: Any) -> Any:
    """SQLite stores a bool as 0/1 in an INTEGER column; PostgreSQL needs the number."""
    if isinstance(args, tuple) and any(isinstance(a, bool) for a in args):
        return tuple(int(a) if isinstance(a, bool) else a for a in args)
    return args


# an INSERT of one row, as the statements of bot.storage write them (upsert() among
# them): its VALUES group, and the columns of its ON CONFLICT key if any
_ONE_ROW = re.compile(
    r"(INSERT INTO \w+ \(([^()]*)\) VALUES )(\((?:\?, )*\?\))"
    r"( ON CONFLICT \(([^()]*)\) DO (?:NOTHING|UPDATE SET [^;]*))?"
)
ROWS_AT_ONCE = 16  # the most rows of a statement made of several (its sizes: a few)


@functools.lru_cache(maxsize=1024)
def _one_row(sql: str) -> tuple[str, str, str, tuple[int, ...] | None] | None:
    """An INSERT of one row: the text before its VALUES group, the group, the text after,
    and the places of its conflict key's values (None: no ON CONFLICT); else None."""
    m = _ONE_ROW.fullmatch(sql)
    if m is None:
        return None
    if m.group(4) is None:
        return m.group(1), m.group(3), "", None
    cols = [c.strip() for c in m.group(2).split(",")]
    key = [c.strip() for c in m.group(5).split(",")]
    if len(cols) != m.group(3).count("?") or not all(k in cols for k in key):
        return None
    return m.group(1), m.group(3), m.group(4), tuple(cols.index(k) for k in key)


@functools.lru_cache(maxsize=1024)
def _rows_sql(sql: str, rows: int) -> str:
    head, group, tail, _key = _one_row(sql)  # type: ignore[misc]
    return marks(head + ", ".join([group] * rows) + tail)


def rows_together(statements: list[tuple[str, tuple[Any, ...]]]) -> list[tuple[str, Any]]:
    """The statements of a trip, in psycopg's marks, the INSERTs of one row each that
    follow one another with the same text written as one INSERT of their rows (issue 37:
    each statement cost the server ~15 us besides its rows), as long as their ON CONFLICT
    keys differ (one statement may not update a row twice), at most ROWS_AT_ONCE rows.
    The rows go in the same order, each with its own values: the same rows, the same
    errors (a key taken, a reference missing: the statement fails, as the one of its
    rows would have)."""
    out: list[tuple[str, Any]] = []
    i = 0
    while i < len(statements):
        sql, args = statements[i]
        j = i + 1
        shape = _one_row(sql)
        if shape is not None:
            key = shape[3]
            keys = {tuple(args[k] for k in key)} if key is not None else None
            while j < len(statements) and j - i < ROWS_AT_ONCE and statements[j][0] == sql:
                if keys is not None:
                    k = tuple(statements[j][1][c] for c in key)
                    if k in keys:
                        break
                    keys.add(k)
                j += 1
        if j - i == 1:
            out.append((marks(sql), _args(args) or None))
        else:
            out.append((_rows_sql(sql, j - i), _args(tuple(a for _s, row in statements[i:j] for a in row))))
        i = j
    return out


_DDL = [
    # a table's own id, numbered by the database (SQLite: the rowid alias)
    (re.compile(r"(?m)^(\s*)id(\s+)INTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?"),
     r"\1id\2BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),  # Discord ids and times in 64 bits, as SQLite's
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),  # a float of 64 bits, as SQLite's
    (re.compile(r"\)\s*WITHOUT\s+ROWID"), ")"),
]


def ddl(sql: str) -> str:
    """A migration written for both backends, in PostgreSQL's types."""
    for pattern, repl in _DDL:
        sql = pattern.sub(repl, sql)
    return sql


def safe_url(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return parts._replace(netloc=netloc).geturl()


class CappedBackoff(AttemptWithBackoff):
    """psycopg-pool's backoff between attempts to reconnect, at most
    :data:`RECONNECT_MAX_DELAY_S` apart."""

    def update_delay(self, now: float) -> None:
        super().update_delay(now)
        self.delay = min(self.delay, RECONNECT_MAX_DELAY_S)


class PgPool(AsyncConnectionPool[Any]):
    """The pool, reconnecting with :class:`CappedBackoff` after the server went away (a
    restart, a failover): the moves work again within seconds of its return."""

    async def _add_connection(self, attempt: AttemptWithBackoff | None, growing: bool = False) -> None:
        await super()._add_connection(attempt or CappedBackoff(timeout=self.reconnect_timeout), growing)


class PgLink:
    """One pooled psycopg connection's trips: a batch of statements and queries sent
    together in pipeline mode (one round trip: :func:`pipeline_trip`)."""

    dialect = POSTGRES

    def __init__(self) -> None:
        self.conn: psycopg.AsyncConnection[Any] | None = None

    def _conn(self) -> psycopg.AsyncConnection[Any]:
        if self.conn is None:
            raise psycopg.OperationalError("no connection to the database")
        return self.conn

    async def run(self, batch: list[Stmt], queries: list[Query]) -> list[list[Any]]:
        conn = self._conn()
        statements = rows_together(
            [(sql, tuple(a)) for sql, args, many in batch for a in (args if many else [args])]
        ) + [(marks(sql), _args(args) or None) for sql, args in queries]
        rows = await pipeline_trip(conn, statements)
        return rows[len(rows) - len(queries):] if queries else []

    async def execute(self, sql: str, args: Any, many: bool = False) -> None:
        conn = self._conn()
        if many:
            async with conn.cursor() as cur:
                await cur.executemany(marks(sql), [_args(tuple(a)) for a in args])
        else:
            await conn.execute(marks(sql), _args(args) or None)

    async def rowcount(self, sql: str, args: tuple[Any, ...]) -> int:
        cur = await self._conn().execute(marks(sql), _args(args) or None)
        return max(cur.rowcount, 0)

    async def insert_id(self, sql: str, args: tuple[Any, ...]) -> int:
        cur = await self._conn().execute(marks(sql) + " RETURNING id", _args(args) or None)
        row = await cur.fetchone()
        return int(row[0]) if row else 0


async def pipeline_trip(
    conn: psycopg.AsyncConnection[Any], statements: list[tuple[str, Any]]
) -> list[list[Any]]:
    """The statements sent together in pipeline mode, with one Sync, and each one's rows
    (a statement without rows: an empty list); the first error raised once every result
    is read. One round trip, one flush (issue 37: psycopg's own pipeline flushes and
    waits on the event loop after each statement, which cost more client CPU than the
    statements; this is its documented sequence of libpq calls, without those waits).

    Once sent, the trip runs to its end even if the caller is cancelled (the statements
    of a transaction's queue run in order; its ROLLBACK follows them: Storage.transaction):
    a cancelled wait hands the rest of the results to a task of its own, which keeps the
    connection's lock until they are read (the ROLLBACK, psycopg's, waits for it). (Not
    a task for every trip, nor psycopg's own wait, which on a cancel asks the server to
    cancel the statements: issue 37, a trip's client CPU.)"""
    pgconn = conn.pgconn
    await conn.lock.acquire()  # (the connection's own lock, as psycopg's calls take it)
    handed_over = False
    try:
        tx = Transformer(conn)
        sent = [converted(tx, sql, args) for sql, args in statements]
        prepared = PREPARED.get(conn)
        if prepared is None:
            prepared = PREPARED[conn] = Prepared()
        order: list[tuple[tuple[bytes, Any], bytes] | None] = []  # a prepare, or None: a statement
        preparing: dict[tuple[bytes, Any], bytes] = {}  # prepared in this trip (a row of many, again)
        pgconn.enter_pipeline_mode()
        for query, params, types, formats in sent:
            key = (query, types)
            name = prepared.names.get(key) or preparing.get(key)
            if name is None and len(prepared.names) + len(preparing) < MAX_PREPARED:
                name = preparing[key] = f"_br_{next(prepared.count)}".encode()
                pgconn.send_prepare(name, query, param_types=types)
                order.append((key, name))
            if name is None:
                pgconn.send_query_params(query, params, param_formats=formats, param_types=types)
            else:
                pgconn.send_query_prepared(name, params, param_formats=formats)
            order.append(None)
        pgconn.pipeline_sync()
        answer = Answer(pgconn, len(order) + 1)
        try:
            fetched = await answer.wait()
        except asyncio.CancelledError:
            task = asyncio.get_running_loop().create_task(_read_to_the_end(conn, answer, order, prepared))
            _READING.add(task)
            task.add_done_callback(_READING.discard)
            handed_over = True
            raise
        results, error = _results(fetched, order, prepared)
    finally:
        if not handed_over:
            _leave_pipeline(pgconn)
            conn.lock.release()
    if error is not None:
        raise psycopg.errors.error_from_result(error, encoding=conn.info.encoding)
    out: list[list[Any]] = []
    for rs in results:
        res = rs[-1] if rs else None
        if res is None:
            out.append([])
        elif res.status == pq.ExecStatus.PIPELINE_ABORTED:
            raise psycopg.errors.PipelineAborted("pipeline aborted")
        elif res.status == pq.ExecStatus.TUPLES_OK:
            tx.set_pgresult(res)
            out.append(tx.load_rows(0, res.ntuples, tuple))
        else:
            out.append([])
    return out


# a statement's text in PostgreSQL's marks ($1, $2, ...) and its parameters' formats,
# by its text in psycopg's (%s): psycopg's own conversion (PostgresQuery) parses and
# checks more on each call, ~2.6 us of a statement's client CPU (issue 37)
_CONVERTED: dict[str, tuple[bytes, list[PyFormat]]] = {}
_CONVERTED_MAX = 4096


def converted(tx: Transformer, sql: str, args: Any) -> tuple[bytes, Any, tuple[int, ...], Any]:
    """A statement as pipeline_trip sends it: its text, its parameters dumped, their
    types and formats (``args`` None: no parameters, the text as it is, as psycopg)."""
    if args is None:
        return sql.encode(tx.encoding), None, (), None
    got = _CONVERTED.get(sql)
    if got is None:
        if len(_CONVERTED) >= _CONVERTED_MAX:
            _CONVERTED.clear()
        query, formats, order, _parts = _query2pg_nocache(sql.encode(tx.encoding), tx.encoding)
        if order is not None:
            raise psycopg.ProgrammingError("named placeholders are not used here")
        got = _CONVERTED[sql] = (query, formats)
    query, formats = got
    if len(args) != len(formats):
        raise psycopg.ProgrammingError(
            f"the query has {len(formats)} placeholders but {len(args)} parameters were passed"
        )
    params = tx.dump_sequence(args, formats)
    return query, params, tuple(tx.types or ()), tx.formats


def _results(
    fetched: list[list[pq.abc.PGresult]],
    order: list[tuple[tuple[bytes, Any], bytes] | None],
    prepared: Prepared,
) -> tuple[list[list[pq.abc.PGresult]], pq.abc.PGresult | None]:
    """Each statement's results (not the prepares'), and the first statement the server
    refused; the statements prepared in the trip recorded (one refused, or not run after
    an error, is made again). The Sync's result last: checked."""
    *steps, sync = fetched
    error: pq.abc.PGresult | None = None
    results = []
    for step, rs in zip(order, steps, strict=True):
        if error is None and rs and rs[-1].status == pq.ExecStatus.FATAL_ERROR:
            error = rs[-1]
        if step is None:
            results.append(rs)
        elif rs and rs[-1].status == pq.ExecStatus.COMMAND_OK:
            prepared.names[step[0]] = step[1]
    if not sync or sync[0].status != pq.ExecStatus.PIPELINE_SYNC:
        raise psycopg.OperationalError("the pipeline lost its place")
    return results, error


def _leave_pipeline(pgconn: pq.abc.PGconn) -> None:
    if pgconn.status == pq.ConnStatus.OK and pgconn.pipeline_status != pq.PipelineStatus.OFF:
        try:
            pgconn.exit_pipeline_mode()
        except psycopg.OperationalError:
            pass  # (results left unread: the error raised says why)


# the trips whose caller was cancelled, read to their end (a reference kept meanwhile)
_READING: set[asyncio.Task[None]] = set()


async def _read_to_the_end(
    conn: psycopg.AsyncConnection[Any],
    answer: Answer,
    order: list[tuple[tuple[bytes, Any], bytes] | None],
    prepared: Prepared,
) -> None:
    """A cancelled caller's trip: its results read, then the connection's lock given
    back (the transaction's ROLLBACK comes next; an error here is its business)."""
    try:
        _results(await answer.wait(), order, prepared)
    except Exception:  # noqa: BLE001 (a failed statement, a lost connection: the ROLLBACK's business)
        pass
    finally:
        _leave_pipeline(conn.pgconn)
        conn.lock.release()


class Answer:
    """A trip's results, read with psycopg's generators (:func:`exchange`) in as few
    waits of the event loop as the server's answer takes (one, mostly): each wait one
    future and the socket watched meanwhile (psycopg's ``wait_async`` adds a timer and
    a poll to each). A wait cancelled is taken up again where it was."""

    def __init__(self, pgconn: pq.abc.PGconn, count: int) -> None:
        self.gen = exchange(pgconn, count)
        self.fileno = pgconn.socket
        self.state: int | None = None  # what the generator waits for (None: not started)

    async def wait(self) -> list[list[pq.abc.PGresult]]:
        loop = asyncio.get_running_loop()
        try:
            if self.state is None:
                self.state = next(self.gen)
            while True:
                self.state = self.gen.send(await _ready(loop, self.fileno, self.state))
        except StopIteration as ex:
            return ex.value  # type: ignore[no-any-return]
        except OSError as ex:  # (as psycopg's wait says it)
            raise psycopg.OperationalError("connection socket closed") from ex


async def _ready(loop: asyncio.AbstractEventLoop, fileno: int, state: int) -> int:
    """The socket's readiness for what the generator waits for (``Wait.R``, ``W``, ``RW``)."""
    fut: asyncio.Future[int] = loop.create_future()

    def wake(ready: int) -> None:
        if not fut.done():
            fut.set_result(ready)

    reader, writer = state & Wait.R, state & Wait.W
    if reader:
        loop.add_reader(fileno, wake, Ready.R)
    if writer:
        loop.add_writer(fileno, wake, Ready.W)
    try:
        return await fut
    finally:
        if reader:
            loop.remove_reader(fileno)
        if writer:
            loop.remove_writer(fileno)


def exchange(pgconn: pq.abc.PGconn, count: int) -> Generator[Any, Any, list[list[pq.abc.PGresult]]]:
    """psycopg's generators: the queued statements sent, then ``count`` results read
    (each statement's, then the Sync's), all in one wait of the connection."""
    yield from generators.send(pgconn)
    out = []
    for _ in range(count):
        out.append((yield from generators.fetch_many(pgconn)))
    return out


# each connection's statements prepared on the server by pipeline_trip: (query, types)
# -> name (a new connection, after a lost one, has none yet)
class Prepared:
    def __init__(self) -> None:
        self.names: dict[tuple[bytes, Any], bytes] = {}
        self.count = itertools.count()


PREPARED: weakref.WeakKeyDictionary[Any, Prepared] = weakref.WeakKeyDictionary()
MAX_PREPARED = 400  # statements built from lists (``IN (?, ?, ...)``) are many: not all kept


def is_unavailable(exc: BaseException) -> bool:
    """The database cannot be reached (down, a lost connection, a failover), not a bug."""
    if isinstance(exc, psycopg.errors.ReadOnlySqlTransaction | psycopg.errors.AdminShutdown):
        return True  # a standby after a failover, a server shutting down
    return isinstance(exc, PoolTimeout | psycopg.OperationalError) and not isinstance(exc, psycopg.errors.QueryCanceled)


async def schema_version(conn: psycopg.AsyncConnection[Any]) -> int:
    cur = await conn.execute("SELECT to_regclass('schema_version') IS NOT NULL")
    row = await cur.fetchone()
    if not row or not row[0]:
        return 0
    cur = await conn.execute("SELECT coalesce(max(version), 0) FROM schema_version")
    row = await cur.fetchone()
    return int(row[0]) if row else 0


# one migration runner at a time per database (two processes started together)
MIGRATION_LOCK = 0x626F617264  # "board"


async def migrate(
    conn: psycopg.AsyncConnection[Any],
    directory: Path | None = None,
    *,
    target: int | None = None,
    clock: Callable[[], float] = time.time,
) -> list[int]:
    """Apply the missing migrations (up to ``target``) on PostgreSQL; the versions applied."""
    files = migration_files(directory)
    await conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        current = await schema_version(conn)
        check_newest(current, files)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
        )
        applied: list[int] = []
        for m in files:
            if m.version <= current or (target is not None and m.version > target):
                continue
            sql = m.sql(POSTGRES.name)
            check_script(m, sql)
            try:
                async with conn.transaction():
                    await conn.execute(ddl(sql).encode())  # (bytes: no % marks to read)
                    await conn.execute(
                        "INSERT INTO schema_version (version, name, applied_at) VALUES (%s, %s, %s)",
                        (m.version, m.name, clock()),
                    )
            except psycopg.Error as exc:
                raise StorageError(f"migration {m.path.name} failed on PostgreSQL: {exc}") from exc
            applied.append(m.version)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))


async def games_by_edition(conn: psycopg.AsyncConnection[Any]) -> list[tuple[str, int | None, str | None, str, int]]:
    cur = await conn.execute(
        "SELECT game, rules, rng, status, count(*) FROM games"
        " GROUP BY game, rules, rng, status ORDER BY game, rules, rng, status"
    )
    return [(str(g), r, k, str(st), int(n)) for g, r, k, st, n in await cur.fetchall()]


async def connect(url: str, *, timeout: float = CONNECT_TIMEOUT_S) -> psycopg.AsyncConnection[Any]:
    """One connection (autocommit), or a clear :class:`StorageError` (a wrong URL or
    password, a database that is down)."""
    try:
        return await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=max(1, int(timeout)))
    except (psycopg.Error, ValueError) as exc:
        error = DatabaseDown if is_down(exc) else StorageError
        raise error(f"cannot connect to PostgreSQL at {safe_url(url)}: {_first_line(exc)}") from None


# what the server (or no server) says when trying again later may work
_DOWN = ("connection refused", "timeout expired", "starting up", "shutting down", "recovery mode",
         "server closed the connection", "no such file or directory", "could not translate host name")


def is_down(exc: BaseException) -> bool:
    """A failed connection that trying again may mend (a server down, restarting or not
    reachable yet), not a wrong password, user or database name."""
    if not isinstance(exc, psycopg.OperationalError):
        return False
    text = str(exc).lower()
    return any(d in text for d in _DOWN) and "authentication" not in text and "does not exist" not in text


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


class PgStorage(Storage):
    """A pool of connections to one PostgreSQL database; this process uses one at a time
    (every access under one asyncio.Lock, as on SQLite), taken again from the pool after
    a lost connection. Several processes may share the database (``shared``)."""

    shared = True
    unavailable_on_read = True

    def __init__(self, pool: AsyncConnectionPool[Any], url: str) -> None:
        super().__init__(PgLink(), url)
        self.pool = pool
        self.url = url
        self._dropping: set[asyncio.Task[None]] = set()
        self.path = safe_url(url)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        migrations_dir: Path | None = None,
        busy_timeout_ms: int = 5000,
        run_migrations: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> PgStorage:
        url = str(path)
        conn = await connect(url)  # a clear error at once (wrong URL or password, down)
        try:
            if run_migrations:
                await migrate(conn, migrations_dir, clock=clock)
            else:
                files = migration_files(migrations_dir)
                have = await schema_version(conn)
                if have != (files[-1].version if files else 0):
                    raise StorageError(f"database at schema {have}; run `boardroom migrate`")
        finally:
            await conn.close()
        pool = PgPool(
            # (a trip's statements are prepared on the server at their first run on a
            # connection, by pipeline_trip; psycopg prepares none of its own: seeing a
            # ROLLBACK it would deallocate them all, pipeline_trip's too. A connection
            # whose transaction failed is dropped, see _after_error)
            url, min_size=1, max_size=4, open=False, kwargs={"autocommit": True, "prepare_threshold": None},
            timeout=CONNECT_TIMEOUT_S, reconnect_timeout=24 * 3600.0, name="boardroom",
        )
        await pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        storage = cls(pool, url)
        storage.link.conn = await pool.getconn()
        return storage

    async def close(self) -> None:
        for task in list(self._dropping):
            await task
        async with self._lock:
            if self.link.conn is not None:
                async with self.link.conn.lock:  # (a cancelled caller's trip read to its end)
                    pass
                await self.pool.putconn(self.link.conn)
                self.link.conn = None
            await self.pool.close()

    async def _ready(self) -> None:
        if self.link.conn is None:
            self.link.conn = await self.pool.getconn()  # PoolTimeout: the database is down

    def _after_error(self, exc: BaseException) -> None:
        """A lost connection, or one whose statement failed, is dropped (the pool gives a
        fresh one): after an error inside a pipeline psycopg's record of the statements it
        prepared on the server may be wrong ("prepared statement does not exist")."""
        conn = self.link.conn
        if conn is None or not (conn.broken or conn.closed or isinstance(exc, psycopg.Error)):
            return
        self.link.conn = None
        self._dropping.add(asyncio.get_running_loop().create_task(self._drop(conn)))

    async def _drop(self, conn: psycopg.AsyncConnection[Any]) -> None:
        try:
            if not conn.closed:
                await conn.close()
        finally:
            await self.pool.putconn(conn)  # closed: the pool forgets it and opens another
            self._dropping.discard(asyncio.current_task())  # type: ignore[arg-type]

    def _is_unavailable(self, exc: BaseException) -> bool:
        return is_unavailable(exc)

    def _unavailable_hint(self) -> str:
        return "moves are refused until it answers again (the pool reconnects by itself)"

    async def _rollback(self) -> None:
        conn = self.link.conn
        if conn is None or conn.broken or conn.closed:
            return
        try:
            await conn.execute("ROLLBACK")
        except psycopg.Error:
            pass

    async def take_lease(self, owner: str, ttl: float, clock: Callable[[], float] = time.time) -> None:
        """Several processes share a PostgreSQL database: no process lease to take."""

    async def release_lease(self, owner: str) -> None:
        return None


Storage.backends["postgresql"] = PgStorage
