"""SQLite storage through aiosqlite: migrations, one connection, explicit transactions.

::

    storage = await Storage.open("boardroom.db")     # WAL, synchronous=NORMAL, foreign_keys=ON,
                                                     # busy timeout, then applies migrations
    async with storage.transaction() as tx:          # asyncio.Lock + BEGIN IMMEDIATE ... COMMIT
        await tx.append_action(game_id, seq, seat, action, actor, at)
    async with storage.read() as q:                  # same lock, no transaction
        row = await q.game_row(game_id)
    await storage.close()                            # always (an open connection hangs exit)

All access goes through one lock: with a single shared connection, a reader in
another coroutine would otherwise see a writer's uncommitted rows.

Migrations are ``migrations/NNNN_name.sql``; each missing one is applied in its
own transaction together with its ``schema_version`` row. A database whose
version is newer than the newest file is refused (:class:`SchemaTooNew`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot import jsontext
from bot.settings import QuietHours, Settings

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

MIGRATION_RE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
# The runner wraps each file in its own transaction; a file must not manage one itself.
TX_CONTROL_RE = re.compile(
    r"^\s*(COMMIT\b|ROLLBACK\b|END\s+TRANSACTION\b|BEGIN\s*;"
    r"|BEGIN\s+(TRANSACTION|IMMEDIATE|DEFERRED|EXCLUSIVE)\b)",
    re.IGNORECASE | re.MULTILINE,
)
LIVE = ("lobby", "active", "paused")
# SQLite INTEGER is a signed 64-bit number: a larger id cannot name a row.
SQL_INT_MIN, SQL_INT_MAX = -(2**63), 2**63 - 1
# sqlite3.OperationalError texts that mean "cannot write now", not a bug.
UNAVAILABLE_MARKERS = (
    "database or disk is full",
    "attempt to write a readonly database",
    "disk i/o error",
    "unable to open database file",
)


def out_of_range(args: Iterable[Any]) -> bool:
    """Whether a query argument is an integer SQLite cannot hold (so no row matches it)."""
    return any(
        isinstance(a, int) and not isinstance(a, bool) and not SQL_INT_MIN <= a <= SQL_INT_MAX
        for a in args
    )


def is_unavailable(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and any(
        m in str(exc).lower() for m in UNAVAILABLE_MARKERS
    )


def snapshot_checksum(game_id: int, version: int, state: str) -> str:
    """What a snapshot must hash to: the state text together with the log sequence it
    stands for (so a snapshot edited, or moved to another version, is not trusted)."""
    digest = hashlib.sha256(f"{int(game_id)}:{int(version)}:".encode())
    digest.update(state.encode("utf-8"))
    return digest.hexdigest()


class StorageError(RuntimeError):
    pass


class StorageUnavailable(StorageError):
    """The database cannot take writes now (disk full, read-only, I/O error). Nothing
    was recorded; writes work again once the operator fixes the cause."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(f"the database cannot save right now: {cause}")
        self.cause = cause


class DamagedRecord(StorageError):
    """A row of a game's record that cannot be read (bad JSON written by hand or a
    damaged file). The message is for players; the app pauses the game."""

    def __init__(self, game_id: int, seq: int) -> None:
        super().__init__(
            f"This game's record is damaged (move {seq} cannot be read), so the game is paused."
            " An operator can restore the database from a backup."
        )
        self.game_id = game_id
        self.seq = seq


def _action_row(r: Any) -> ActionRow:
    try:
        action = jsontext.loads(r[3])
    except (TypeError, ValueError):
        raise DamagedRecord(int(r[0]), int(r[1])) from None
    if not isinstance(action, dict):
        raise DamagedRecord(int(r[0]), int(r[1]))
    return ActionRow(r[0], r[1], r[2], action, r[4], r[5])


class LeaseHeld(StorageError):
    """Another live boardroom process uses this database."""


class SchemaTooNew(StorageError):
    """The database was written by a newer boardroom: refuse to touch it."""


class MigrationError(StorageError):
    pass


def default_migrations_dir() -> Path:
    env = os.environ.get("BOARDROOM_MIGRATIONS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "migrations"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path


def migration_files(directory: Path | None = None) -> list[Migration]:
    directory = directory or default_migrations_dir()
    if not directory.is_dir():
        raise MigrationError(f"migrations directory {directory} not found")
    found: list[Migration] = []
    for path in sorted(directory.iterdir()):
        m = MIGRATION_RE.match(path.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), path))
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations in {directory} must be numbered 0001, 0002, ...: {versions}")
    return found


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'"
    ) as cur:
        if await cur.fetchone() is None:
            return 0
    async with conn.execute("SELECT coalesce(max(version), 0) FROM schema_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(
    conn: aiosqlite.Connection,
    directory: Path | None = None,
    *,
    target: int | None = None,
    clock: Callable[[], float] = time.time,
) -> list[int]:
    """Apply the missing migrations (up to ``target``); return the versions applied."""
    files = migration_files(directory)
    newest = files[-1].version if files else 0
    current = await schema_version(conn)
    if current > newest:
        raise SchemaTooNew(
            f"the database is at schema version {current} but this boardroom knows only "
            f"up to {newest}; upgrade boardroom (or use a backup) instead of downgrading"
        )
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    applied: list[int] = []
    for m in files:
        if m.version <= current or (target is not None and m.version > target):
            continue
        sql = m.path.read_text(encoding="utf-8")
        if TX_CONTROL_RE.search(sql):
            raise MigrationError(
                f"migration {m.path.name} controls transactions itself; the runner does that"
            )
        try:
            await conn.executescript("BEGIN IMMEDIATE;\n" + sql)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (m.version, m.name, clock()),
            )
            await conn.execute("COMMIT")
        except Exception as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise MigrationError(f"migration {m.path.name} failed: {exc}") from exc
        applied.append(m.version)
    return applied


async def games_by_edition(conn: aiosqlite.Connection) -> list[tuple[str, int | None, str | None, str, int]]:
    """(game, rules version, generator kind, status, how many games), for the operator:
    which rules the games in the database run under (``boardroom migrate``)."""
    async with conn.execute(
        "SELECT game, rules, rng, status, count(*) FROM games"
        " GROUP BY game, rules, rng, status ORDER BY game, rules, rng, status"
    ) as cur:
        return [(str(g), r, k, str(st), int(n)) for g, r, k, st, n in await cur.fetchall()]


# --- rows ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    options: dict[str, Any]
    seed: int | None
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    status: str
    version: int
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    rules: int | None = None  # the rules version it started under (None: in the lobby)
    rng: str | None = None  # the random generator kind it draws from (None: in the lobby)

    @property
    def place_id(self) -> int:
        """Where the game is played: its thread, else its channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: str
    position: int
    user_id: int | None
    ai_kind: str | None
    display_name: str
    ai_takeover: bool


@dataclass(frozen=True)
class DraftRow:
    """A seat's half-built secret decision and the planner message showing it."""

    decision: str
    draft: str
    channel_id: int | None
    message_id: int | None


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    seat: str
    action: dict[str, Any]
    actor: str
    created_at: float


@dataclass(frozen=True)
class WaitingRow:
    game_id: int
    seat: str
    since_version: int
    since_at: float


@dataclass(frozen=True)
class ReminderRow:
    game_id: int
    seat: str
    kind: str
    due_at: float
    sent_at: float | None
    count: int


# a ReminderRow's columns, in its order, from the reminders (as ``r``)
REMINDER_ROWS = "SELECT r.game_id, r.seat, r.kind, r.due_at, r.sent_at, r.count FROM reminders r"


@dataclass(frozen=True)
class OutboxRow:
    """One thing to tell Discord (migration 0004; :mod:`bot.delivery`)."""

    id: int
    game_id: int
    batch: int
    kind: str  # post | edit | dm
    target: str  # post: "place"; edit: a remembered message kind; dm: a user id
    payload: dict[str, Any]
    nonce: str
    ordered: bool
    state: str  # pending | delivered | closed | failed
    message_id: int | None
    attempts: int
    next_try_at: float
    created_at: float


_OUTBOX_COLS = (
    "id, game_id, batch, kind, target, payload, nonce, ordered, state, message_id,"
    " attempts, next_try_at, created_at"
)


def _outbox(row: Iterable[Any]) -> OutboxRow:
    r = list(row)
    r[5] = jsontext.loads(r[5])
    r[7] = bool(r[7])
    return OutboxRow(*r)


@dataclass(frozen=True)
class MessageRef:
    game_id: int
    kind: str
    channel_id: int
    message_id: int


dumps = jsontext.dumps  # canonical JSON text (bot.jsontext)


def outbox_payload(payload: dict[str, Any]) -> str:
    """An outbox row's payload as stored: a post's picture arguments kept as JSON text
    (``{"file", "fn", "args_json"}``, issue 25). A picture's arguments are a whole view;
    the deliverer reads a paced game's pending rows again and keeps them, and a view
    decoded is thousands of objects for the garbage collector to walk (the longest
    event-loop stalls under load). As text it is one string, handed as it is to the
    picture worker, which decodes it (:func:`bot.delivery.picture_calls`)."""
    pictures = payload.get("pictures")
    if pictures:
        payload = {**payload, "pictures": [_stored_picture(p) for p in pictures]}
    return dumps(payload)


def _stored_picture(spec: Any) -> dict[str, Any]:
    if isinstance(spec, str):
        spec = jsontext.loads(spec)
    if "args_json" in spec:
        return dict(spec)
    return {"file": spec.get("file"), "fn": spec.get("fn"), "args_json": dumps(list(spec.get("args") or []))}


_GAME_COLS = (
    "id, game, options, seed, guild_id, channel_id, thread_id, host_id, status, version,"
    " result, created_at, updated_at, rules, rng"
)


def _game(row: Iterable[Any] | None) -> GameRow | None:
    if row is None:
        return None
    r = list(row)
    r[2] = jsontext.loads(r[2])
    r[3] = int(r[3]) if r[3] is not None else None  # TEXT since 0002: seeds of 128 bits
    r[10] = jsontext.loads(r[10]) if r[10] is not None else None
    return GameRow(*r)


def _seat(row: Iterable[Any]) -> SeatRow:
    r = list(row)
    r[6] = bool(r[6])
    return SeatRow(*r)


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
_SPENT = "'{}'"

_SETTINGS_SQL = (
    "SELECT remind_after_hours, repeat_hours, takeover, takeover_after_hours FROM game_settings WHERE game_id = ?"
)


def _settings(row: Any) -> Settings:
    if row is None:
        return Settings()
    return Settings(float(row[0]), float(row[1]), bool(row[2]), float(row[3]))


class Tx:
    """SQL on the shared connection; obtained from Storage.read()/transaction().

    Inside a write transaction the statements whose answer nobody reads (INSERT,
    UPDATE, DELETE without a row count or id) are queued, not sent one by one: they go
    to the database thread together, in order, at the next read of the transaction or
    with its COMMIT (issue 25: each trip to the thread cost more than the statement).
    A read sees every write queued before it (the queue runs first), so the order of
    statements is the code's; an error in a queued write surfaces at that read or at
    COMMIT, inside the transaction, which is then rolled back as before."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._queued: list[tuple[str, Any, bool]] | None = None  # None: outside a transaction
        # game id -> a number that changes whenever its row, seats or settings are written
        # (counted when the write is made, before it commits): a copy of a game's row read
        # at one number is current while the number has not changed (``Storage.game_epoch``)
        self.epochs: dict[int, int] = {}
        # game id (None: every game) -> a number that changes whenever the game's pending
        # outbox rows are changed other than by new rows or the deliverer's own marks
        # (``Storage.outbox_epoch``): rows read at one number, and the rows written since
        # (ids only grow: AUTOINCREMENT), are the pending rows while it has not changed
        self.outbox_epochs: dict[int | None, int] = {}
        self.outbox_appends: dict[int, int] = {}  # game id -> a number that new rows change

    def _touch(self, game_id: int) -> None:
        self.epochs[game_id] = self.epochs.get(game_id, 0) + 1

    def _rewrite_outbox(self, game_id: int | None) -> None:
        self.outbox_epochs[game_id] = self.outbox_epochs.get(game_id, 0) + 1

    def _append_outbox(self, game_id: int) -> None:
        self.outbox_appends[game_id] = self.outbox_appends.get(game_id, 0) + 1

    async def _flush(self) -> None:
        """Send the queued statements to the database thread (one trip), if any."""
        if self._queued:
            batch, self._queued = self._queued, []
            await self.conn._execute(_run_batch, self.conn._conn, batch)

    async def _write(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        """A statement whose answer is not read: queued in a transaction, else run now."""
        if self._queued is not None:
            self._queued.append((sql, args, False))
        else:
            await self.conn.execute(sql, args)

    async def _write_many(self, sql: str, rows: list[Any]) -> None:
        if self._queued is not None:
            self._queued.append((sql, rows, True))
        else:
            await self.conn.executemany(sql, rows)

    async def _cursor(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        """A statement whose cursor is read (``lastrowid``, ``rowcount``): the queue first."""
        await self._flush()
        return await self.conn.execute(sql, args)

    async def _fetch(self, *queries: tuple[str, tuple[Any, ...]]) -> list[list[Any]]:
        """Each query's rows, the queued writes run first: all in one trip to the
        database thread (execute, fetch and close there). A query whose arguments
        SQLite cannot hold (an id out of range) names no row."""
        batch = self._queued or []
        if self._queued:
            self._queued = []
        sent = [(i, q) for i, q in enumerate(queries) if not out_of_range(q[1])]
        if not sent and not batch:
            return [[] for _ in queries]
        rows = await self.conn._execute(_run_and_fetch, self.conn._conn, batch, [q for _, q in sent])
        out: list[list[Any]] = [[] for _ in queries]
        for (i, _), r in zip(sent, rows, strict=True):
            out[i] = r
        return out

    async def _one(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        """The first row of a query that names at most one (a key, an aggregate), or None.
        One trip to the database thread, with the writes queued before it (issue 9: a
        round end made ~600 of them; issue 25: the trips were the cost of an action)."""
        if out_of_range(args):  # an id SQLite cannot hold names no row
            return None
        [rows] = await self._fetch((sql, args))
        return next(iter(rows), None)

    async def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        if out_of_range(args):
            return []
        [rows] = await self._fetch((sql, args))
        return list(rows)

    # games
    async def insert_game(
        self,
        game: str,
        options: dict[str, Any],
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        host_id: int,
        at: float,
    ) -> int:
        cur = await self._cursor(
            "INSERT INTO games (game, options, guild_id, channel_id, thread_id, host_id,"
            " status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', ?, ?)",
            (game, dumps(options), guild_id, channel_id, thread_id, host_id, at, at),
        )
        game_id = cur.lastrowid
        if game_id is None:
            raise StorageError("INSERT INTO games returned no id")
        await self.put_settings(game_id, Settings())  # today's defaults (the column defaults are 0001's)
        return int(game_id)

    async def game_row(self, game_id: int) -> GameRow | None:
        return _game(await self._one(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)))

    async def live_game_at(self, place_id: int) -> GameRow | None:
        return _game(
            await self._one(
                f"SELECT {_GAME_COLS} FROM games WHERE coalesce(thread_id, channel_id) = ?"
                " AND status IN ('lobby', 'active', 'paused')",
                (place_id,),
            )
        )

    async def latest_game_at(self, place_id: int) -> GameRow | None:
        """The newest game of a channel or thread, whatever its status."""
        return _game(
            await self._one(
                f"SELECT {_GAME_COLS} FROM games WHERE coalesce(thread_id, channel_id) = ? OR channel_id = ?"
                " ORDER BY id DESC LIMIT 1",
                (place_id, place_id),
            )
        )

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        marks = ",".join("?" * len(statuses))
        rows = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [g for g in map(_game, rows) if g is not None]

    async def games_owing_ai(self) -> list[int]:
        """Ids of the active games whose committed state may wait for an app-played
        seat (``games.ai_owed``, migration 0004): one indexed query, whatever the number
        of games."""
        rows = await self._all(
            "SELECT id FROM games INDEXED BY games_ai_owed"
            " WHERE ai_owed = 1 AND status = 'active' ORDER BY id"
        )
        return [int(r[0]) for r in rows]

    async def clear_ai_owed(self, game_id: int, version: int) -> None:
        """Nothing is owed at ``version`` (a later commit wrote its own flag)."""
        await self._write(
            "UPDATE games SET ai_owed = 0 WHERE id = ? AND version = ?", (game_id, version)
        )

    async def games_of_user(self, user_id: int) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE status IN ('lobby', 'active', 'paused')"
            " AND id IN (SELECT game_id FROM seats WHERE user_id = ?) ORDER BY id",
            (user_id,),
        )
        return [g for g in map(_game, rows) if g is not None]

    async def update_game(self, game_id: int, at: float, **fields: Any) -> None:
        allowed = {
            "options", "seed", "status", "version", "result", "channel_id", "thread_id", "host_id", "rules", "rng",
            "ai_owed",
        }
        if not fields or set(fields) - allowed:
            raise ValueError(f"bad game fields {sorted(fields)}")
        if fields.get("seed") is not None:
            fields["seed"] = str(int(fields["seed"]))  # decimal TEXT: more than 64 bits
        values = [dumps(v) if k in ("options", "result") and v is not None else v for k, v in fields.items()]
        sets = ", ".join(f"{k} = ?" for k in fields)
        self._touch(game_id)
        await self._write(
            f"UPDATE games SET {sets}, updated_at = ? WHERE id = ?", (*values, at, game_id)
        )

    async def game_with_seats(self, game_id: int) -> tuple[GameRow | None, list[SeatRow], Settings]:
        """A game's row, its seats and its settings: one trip (what every action reads first)."""
        g, seats, sets = await self._fetch(
            (f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)),
            ("SELECT game_id, seat, position, user_id, ai_kind, display_name, ai_takeover"
             " FROM seats WHERE game_id = ? ORDER BY position", (game_id,)),
            (_SETTINGS_SQL, (game_id,)),
        )
        return _game(g[0] if g else None), [_seat(r) for r in seats], _settings(sets[0] if sets else None)

    # seats
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT game_id, seat, position, user_id, ai_kind, display_name, ai_takeover"
            " FROM seats WHERE game_id = ? ORDER BY position",
            (game_id,),
        )
        return [_seat(r) for r in rows]

    async def seat(self, game_id: int, seat: str) -> SeatRow | None:
        row = await self._one(
            "SELECT game_id, seat, position, user_id, ai_kind, display_name, ai_takeover"
            " FROM seats WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return _seat(row) if row else None

    async def insert_seat(
        self, game_id: int, seat: str, position: int, user_id: int | None,
        ai_kind: str | None, display_name: str,
    ) -> None:
        self._touch(game_id)
        await self._write(
            "INSERT INTO seats (game_id, seat, position, user_id, ai_kind, display_name)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seat, position, user_id, ai_kind, display_name),
        )

    async def delete_seat(self, game_id: int, seat: str) -> None:
        self._touch(game_id)
        await self._write("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
        # close the gap in positions (two steps: UNIQUE(game_id, position))
        rows = await self._all(
            "SELECT seat FROM seats WHERE game_id = ? ORDER BY position", (game_id,)
        )
        await self._write(
            "UPDATE seats SET position = -position - 1 WHERE game_id = ?", (game_id,)
        )
        for pos, (name,) in enumerate(rows):
            await self._write(
                "UPDATE seats SET position = ? WHERE game_id = ? AND seat = ?", (pos, game_id, name)
            )

    async def set_takeover(self, game_id: int, seat: str, on: bool) -> None:
        self._touch(game_id)
        await self._write(
            "UPDATE seats SET ai_takeover = ? WHERE game_id = ? AND seat = ?",
            (int(on), game_id, seat),
        )

    # action log
    async def append_action(
        self, game_id: int, seq: int, seat: str, action: Any, actor: str, at: float
    ) -> None:
        await self._write(
            "INSERT INTO actions (game_id, seq, seat, action, actor, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, seat, dumps(action), actor, at),
        )

    async def actions(self, game_id: int, after: int = 0, upto: int | None = None) -> list[ActionRow]:
        rows = await self._all(
            "SELECT game_id, seq, seat, action, actor, created_at FROM actions"
            " WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            (game_id, after, upto if upto is not None else 2**62),
        )
        return [_action_row(r) for r in rows]

    # snapshots
    async def put_snapshot(self, game_id: int, version: int, state: str, at: float) -> None:
        await self._write(
            "INSERT OR REPLACE INTO snapshots (game_id, version, state, created_at, checksum)"
            " VALUES (?, ?, ?, ?, ?)",
            (game_id, version, state, at, snapshot_checksum(game_id, version, state)),
        )

    async def latest_snapshot(self, game_id: int, upto: int) -> tuple[int, str] | None:
        """The newest snapshot at or before ``upto`` whose checksum holds. One that does
        not (edited or damaged) is skipped with a warning: the log is the record, so the
        caller rebuilds from an older snapshot or from the start."""
        rows = await self._all(
            "SELECT version, state, checksum FROM snapshots WHERE game_id = ? AND version <= ?"
            " ORDER BY version DESC",
            (game_id, upto),
        )
        for version, state, checksum in rows:
            if checksum == snapshot_checksum(game_id, version, state):
                return int(version), str(state)
            if checksum is None:  # written before migration 0003: not trusted, not alarming
                log.info("game %s: snapshot %s has no checksum; rebuilding from the log", game_id, version)
                continue
            log.warning(
                "game %s: snapshot of version %s fails its checksum; rebuilding from the log",
                game_id, version,
            )
        return None

    async def prune_snapshots(self, game_id: int, keep: int) -> None:
        await self._write(
            "DELETE FROM snapshots WHERE game_id = ? AND version NOT IN"
            " (SELECT version FROM snapshots WHERE game_id = ? ORDER BY version DESC LIMIT ?)",
            (game_id, game_id, keep),
        )

    # planner drafts (the half-built secret decision of a seat)
    async def draft(self, game_id: int, seat: str) -> DraftRow | None:
        row = await self._one(
            "SELECT decision, draft, channel_id, message_id FROM drafts WHERE game_id = ? AND seat = ?",
            (game_id, seat),
        )
        return DraftRow(str(row[0]), str(row[1]), row[2], row[3]) if row else None

    async def drafts(self, game_id: int) -> dict[str, DraftRow]:
        """Every seat's draft row of the game: one query."""
        rows = await self._all(
            "SELECT seat, decision, draft, channel_id, message_id FROM drafts WHERE game_id = ?", (game_id,)
        )
        return {str(r[0]): DraftRow(str(r[1]), str(r[2]), r[3], r[4]) for r in rows}

    async def put_draft(
        self, game_id: int, seat: str, decision: str, draft: str,
        channel_id: int | None, message_id: int | None, at: float,
    ) -> None:
        await self._write(
            "INSERT INTO drafts (game_id, seat, decision, draft, channel_id, message_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
            " decision = excluded.decision, draft = excluded.draft,"
            " channel_id = COALESCE(excluded.channel_id, drafts.channel_id),"
            " message_id = COALESCE(excluded.message_id, drafts.message_id),"
            " updated_at = excluded.updated_at",
            (game_id, seat, decision, draft, channel_id, message_id, at),
        )

    async def put_draft_message(
        self, game_id: int, seat: str, decision: str, fresh: str, channel_id: int, message_id: int, at: float,
    ) -> None:
        """Record the planner message showing the seat's draft of ``decision``, in one
        statement: the draft itself is kept (``fresh`` only where there is none of this
        decision), so a click saved meanwhile is never written over."""
        await self._write(
            "INSERT INTO drafts (game_id, seat, decision, draft, channel_id, message_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET"
            " draft = CASE WHEN drafts.decision = excluded.decision THEN drafts.draft ELSE excluded.draft END,"
            " decision = excluded.decision, channel_id = excluded.channel_id,"
            " message_id = excluded.message_id, updated_at = excluded.updated_at",
            (game_id, seat, decision, fresh, channel_id, message_id, at),
        )

    async def delete_draft(self, game_id: int, seat: str) -> None:
        await self._write("DELETE FROM drafts WHERE game_id = ? AND seat = ?", (game_id, seat))

    # messages
    async def put_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, at: float
    ) -> None:
        await self._write(
            "INSERT INTO messages (game_id, kind, channel_id, message_id, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id,"
            " updated_at = excluded.updated_at",
            (game_id, kind, channel_id, message_id, at),
        )

    async def message(self, game_id: int, kind: str) -> MessageRef | None:
        row = await self._one(
            "SELECT game_id, kind, channel_id, message_id FROM messages"
            " WHERE game_id = ? AND kind = ?",
            (game_id, kind),
        )
        return MessageRef(*row) if row else None

    async def game_of_message(self, message_id: int) -> int | None:
        row = await self._one("SELECT game_id FROM messages WHERE message_id = ?", (message_id,))
        return int(row[0]) if row else None

    # the delivery outbox (0004)
    async def put_outbox(
        self,
        game_id: int,
        batch: int,
        kind: str,
        target: str,
        payload: dict[str, Any],
        *,
        ordered: bool,
        at: float,
        not_before: float = 0.0,
    ) -> int:
        self._append_outbox(game_id)
        cur = await self._cursor(
            "INSERT INTO outbox (game_id, batch, kind, target, payload, nonce, ordered, next_try_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
            (game_id, batch, kind, target, outbox_payload(payload), int(ordered), not_before, at),
        )
        row_id = int(cur.lastrowid or 0)
        await cur.close()
        # the nonce Discord dedups a repeated send by (at most 25 characters)
        await self._write("UPDATE outbox SET nonce = ? WHERE id = ?", (f"br{row_id}", row_id))
        return row_id

    async def put_outbox_rows(
        self,
        game_id: int,
        batch: int,
        rows: list[tuple[str, str, dict[str, Any], bool]],
        *,
        at: float,
        not_before: float = 0.0,
        settle: float = 0.0,
    ) -> None:
        """The ``(kind, target, payload, ordered)`` rows of one batch, in order, as
        :meth:`put_outbox` writes them one by one (nonce ``br<id>``), in two statements.
        A row whose payload says ``settle`` is due ``settle`` seconds after ``at`` at the
        earliest (:mod:`bot.delivery`)."""
        if not rows:
            return
        self._append_outbox(game_id)
        await self._write_many(
            "INSERT INTO outbox (game_id, batch, kind, target, payload, nonce, ordered, next_try_at, created_at)"
            " VALUES (?, ?, ?, ?, ?, '', ?, ?, ?)",
            [(game_id, batch, kind, target, outbox_payload(payload), int(ordered),
              max(not_before, at + settle) if payload.get("settle") else not_before, at)
             for kind, target, payload, ordered in rows],
        )
        await self._write(
            "UPDATE outbox SET nonce = 'br' || id WHERE batch = ? AND nonce = ''", (batch,)
        )

    async def compose_reads(
        self, game_id: int, rewritten: int | None = None
    ) -> tuple[bool, list[ReminderRow], set[str], int]:
        """What composing an action's posts reads, in one trip: whether the game has its
        status message (posted, or its post waiting in the outbox in another batch than
        ``rewritten``, the one being composed again: an edit then waits behind it), its
        reminder rows (by due time), the seats that asked for a DM every turn and the next
        outbox batch number."""
        status, rem, every, batch = await self._fetch(
            # (CASE, not OR: SQLite works out both sides of an OR, and the second reads the
            # payloads of the game's pending posts, a backlog under load)
            ("SELECT CASE WHEN EXISTS (SELECT 1 FROM messages WHERE game_id = ? AND kind = 'status') THEN 1"
             " ELSE EXISTS (SELECT 1 FROM outbox WHERE game_id = ? AND state = 'pending' AND kind = 'post'"
             " AND batch != ? AND instr(payload, ?) > 0) END",
             (game_id, game_id, -1 if rewritten is None else rewritten, dumps({"remember": "status"})[1:-1])),
            (f"{REMINDER_ROWS} WHERE r.game_id = ? ORDER BY r.due_at", (game_id,)),
            ("SELECT seat FROM seat_prefs WHERE game_id = ? AND dm_every_turn = 1", (game_id,)),
            ("SELECT coalesce(max(batch), 0) + 1 FROM outbox", ()),
        )
        return (
            bool(status[0][0]),
            [ReminderRow(*r) for r in rem],
            {str(r[0]) for r in every},
            int(batch[0][0]),
        )

    async def next_outbox_batch(self) -> int:
        row = await self._one("SELECT coalesce(max(batch), 0) + 1 FROM outbox")
        return int(row[0])

    async def pending_outbox(self, game_id: int, *, after: int = 0, held: bool = True) -> list[OutboxRow]:
        """The game's pending rows in order (``after``: only those with a greater id, the
        rows written since the caller's last read; ``held=False``: not the log lines held
        for the next phase post, rows of kind 'hold')."""
        but_held = "" if held else " AND kind != 'hold'"
        rows = await self._all(
            f"SELECT {_OUTBOX_COLS} FROM outbox WHERE game_id = ? AND state = 'pending' AND id > ?{but_held}"
            " ORDER BY id",
            (game_id, after),
        )
        return [_outbox(r) for r in rows]

    async def outbox_rows(self, game_id: int) -> list[OutboxRow]:
        rows = await self._all(f"SELECT {_OUTBOX_COLS} FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        return [_outbox(r) for r in rows]

    async def games_with_pending_outbox(self) -> list[int]:
        rows = await self._all(
            "SELECT DISTINCT game_id FROM outbox WHERE state = 'pending' AND kind != 'hold' ORDER BY game_id"
        )
        return [int(r[0]) for r in rows]

    async def cover_syncs(self, game_id: int, version: int) -> None:
        """The posts of everything up to ``version`` are queued: its 'sync' markers are done."""
        self._rewrite_outbox(game_id)
        await self._write(
            f"UPDATE outbox SET state = 'delivered', payload = {_SPENT}"
            " WHERE game_id = ? AND kind = 'sync' AND state = 'pending'"
            " AND json_extract(payload, '$.version') <= ?",
            (game_id, version),
        )

    async def held_lines(self, game_id: int, before_id: int) -> list[str]:
        """The log lines held back for the next phase post (rows of kind 'hold')."""
        rows = await self._all(
            "SELECT payload FROM outbox WHERE game_id = ? AND kind = 'hold' AND state = 'pending' AND id < ?"
            " ORDER BY id",
            (game_id, before_id),
        )
        return [line for (p,) in rows for line in jsontext.loads(p).get("lines", [])]

    async def release_held(self, game_id: int, before_id: int) -> None:
        """The 'hold' rows before ``before_id`` are done (posted with the phase post).
        Not an outbox rewrite for the deliverer: it never keeps 'hold' rows."""
        await self._write(
            f"UPDATE outbox SET state = 'delivered', payload = {_SPENT}"
            " WHERE game_id = ? AND kind = 'hold' AND state = 'pending' AND id < ?",
            (game_id, before_id),
        )

    async def closed_dms_in_batch(self, batch: int) -> list[int]:
        rows = await self._all(
            "SELECT target FROM outbox WHERE batch = ? AND kind = 'dm' AND state = 'closed' ORDER BY id", (batch,)
        )
        return [int(r[0]) for r in rows]

    async def mark_outbox(
        self,
        row_id: int,
        state: str,
        *,
        message_id: int | None = None,
        attempts: int | None = None,
        next_try_at: float | None = None,
    ) -> None:
        """A row's new state. A delivered row keeps its ids and times but not its payload
        (nothing reads it again; issue 25: the delivered rows of a finished game were
        nine tenths of its bytes)."""
        await self._write(
            "UPDATE outbox SET state = ?, message_id = coalesce(?, message_id),"
            " attempts = coalesce(?, attempts), next_try_at = coalesce(?, next_try_at),"
            f" payload = CASE WHEN ? = 'delivered' THEN {_SPENT} ELSE payload END WHERE id = ?",
            (state, message_id, attempts, next_try_at, state, row_id),
        )

    async def prune_outbox(self, before: float) -> None:
        """Forget delivered rows older than ``before`` (pending ones are kept)."""
        await self._write(
            "DELETE FROM outbox WHERE state IN ('delivered', 'failed') AND created_at < ?", (before,)
        )

    async def drop_outbox_batch(self, game_id: int, batch: int) -> int:
        """Delete a batch's rows that nothing has touched yet (pending, never tried): an
        outcome's rows are rewritten at each commit of its chain. Returns how many of
        the batch's rows were touched already (delivered, or tried) and so were kept."""
        self._rewrite_outbox(game_id)
        await self._write(
            "DELETE FROM outbox WHERE game_id = ? AND batch = ? AND state = 'pending' AND attempts = 0",
            (game_id, batch),
        )
        row = await self._one("SELECT count(*) FROM outbox WHERE game_id = ? AND batch = ?", (game_id, batch))
        return int(row[0]) if row else 0

    async def release_batch(self, game_id: int, batch: int) -> None:
        """The rows of one batch held back for the end of a chain are due now (the chain
        ended early: its AI moves could not be saved)."""
        self._rewrite_outbox(game_id)
        await self._write(
            "UPDATE outbox SET next_try_at = 0 WHERE game_id = ? AND batch = ? AND state = 'pending'"
            " AND attempts = 0 AND next_try_at > 0",
            (game_id, batch),
        )

    async def release_held_batches(self) -> int:
        """At start-up (no chain of AI moves runs yet): the rows a dead process held back
        for the end of its chain are due now."""
        self._rewrite_outbox(None)
        cur = await self._cursor(
            "UPDATE outbox SET next_try_at = 0 WHERE state = 'pending' AND attempts = 0 AND next_try_at > 0"
        )
        return int(cur.rowcount or 0)

    # round results, notices told once, a seat's preferences (0007)
    async def round_start(self, game_id: int) -> tuple[int, dict[str, int]] | None:
        row = await self._one("SELECT round, scores FROM round_starts WHERE game_id = ?", (game_id,))
        return (int(row[0]), {str(k): int(v) for k, v in jsontext.loads(row[1]).items()}) if row else None

    async def put_round_start(self, game_id: int, round_no: int, scores: dict[str, int]) -> None:
        await self._write(
            "INSERT INTO round_starts (game_id, round, scores) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET round = excluded.round, scores = excluded.scores",
            (game_id, round_no, dumps(scores)),
        )

    async def tell_once(self, game_id: int, seat: str, what: str) -> bool:
        """True the first time ``what`` is told to ``seat`` (then recorded), else False."""
        cur = await self._cursor(
            "INSERT OR IGNORE INTO told (game_id, seat, what) VALUES (?, ?, ?)", (game_id, seat, what)
        )
        return bool(cur.rowcount)

    async def first_asked(self, game_id: int, seat: str, decision: str, now: float) -> float:
        """When ``decision`` was first asked of ``seat`` (recorded now, the first time):
        a row of ``told`` named ``<decision>@<time>``."""
        rows = await self._all(
            "SELECT what FROM told WHERE game_id = ? AND seat = ? AND substr(what, 1, ?) = ?",
            (game_id, seat, len(decision) + 1, decision + "@"),
        )
        for (what,) in rows:
            try:
                return float(str(what)[len(decision) + 1:])
            except ValueError:
                continue
        await self._write(
            "INSERT OR IGNORE INTO told (game_id, seat, what) VALUES (?, ?, ?)", (game_id, seat, f"{decision}@{now!r}")
        )
        return now

    async def dm_every_turn(self, game_id: int) -> set[str]:
        """The seats of the game whose players asked for a DM at every turn."""
        rows = await self._all("SELECT seat FROM seat_prefs WHERE game_id = ? AND dm_every_turn = 1", (game_id,))
        return {str(r[0]) for r in rows}

    async def put_dm_every_turn(self, game_id: int, seat: str, on: bool) -> None:
        await self._write(
            "INSERT INTO seat_prefs (game_id, seat, dm_every_turn) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET dm_every_turn = excluded.dm_every_turn",
            (game_id, seat, int(bool(on))),
        )

    async def retry_outbox_now(self, game_id: int) -> None:
        self._rewrite_outbox(game_id)
        await self._write("UPDATE outbox SET next_try_at = 0 WHERE game_id = ? AND state = 'pending'", (game_id,))

    async def delivery_block(self, game_id: int) -> tuple[int, float, float | None] | None:
        row = await self._one("SELECT code, since, told_at FROM delivery_blocks WHERE game_id = ?", (game_id,))
        return (int(row[0]), float(row[1]), row[2]) if row else None

    async def put_delivery_block(self, game_id: int, code: int, at: float) -> None:
        await self._write(
            "INSERT INTO delivery_blocks (game_id, code, since) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET code = excluded.code",
            (game_id, code, at),
        )

    async def told_delivery_block(self, game_id: int, at: float) -> None:
        await self._write("UPDATE delivery_blocks SET told_at = ? WHERE game_id = ?", (at, game_id))

    async def clear_delivery_block(self, game_id: int) -> None:
        await self._write("DELETE FROM delivery_blocks WHERE game_id = ?", (game_id,))

    # waiting seats and reminders
    async def waiting_of(self, game_id: int) -> list[WaitingRow]:
        rows = await self._all(
            "SELECT game_id, seat, since_version, since_at FROM waiting WHERE game_id = ?"
            " ORDER BY seat",
            (game_id,),
        )
        return [WaitingRow(*r) for r in rows]

    async def put_waiting(
        self, game_id: int, seat: str, since_version: int, since_at: float, *, absent: bool = False
    ) -> None:
        """The seat's wait, anew. ``absent``: the caller knows it has no row (read or
        deleted in this transaction), so none is deleted first."""
        if not absent:  # the old row goes, and its reminders with it (ON DELETE CASCADE)
            await self._write("DELETE FROM waiting WHERE game_id = ? AND seat = ?", (game_id, seat))
        await self._write(
            "INSERT INTO waiting (game_id, seat, since_version, since_at) VALUES (?, ?, ?, ?)",
            (game_id, seat, since_version, since_at),
        )

    async def delete_waiting(self, game_id: int, seat: str | None = None) -> None:
        await self._delete_of_game("waiting", game_id, "seat", seat)

    async def put_reminder(self, game_id: int, seat: str, kind: str, due_at: float) -> None:
        await self._write(
            "INSERT INTO reminders (game_id, seat, kind, due_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at",
            (game_id, seat, kind, due_at),
        )

    async def delete_reminders(self, game_id: int, kind: str | None = None) -> None:
        await self._delete_of_game("reminders", game_id, "kind", kind)

    async def _delete_of_game(self, table: str, game_id: int, column: str, value: str | None) -> None:
        """The game's rows of ``table``; only those whose ``column`` is ``value`` unless None.
        (``table`` and ``column`` are this module's names, never a caller's text.)"""
        if value is None:
            await self._write(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
        else:
            await self._write(f"DELETE FROM {table} WHERE game_id = ? AND {column} = ?", (game_id, value))

    async def takeover_wait(self, game_id: int, seat: str) -> tuple[WaitingRow, float] | None:
        """The seat's wait and the due time of its takeover deadline, in one read (None:
        the seat is not waited for, or its wait has no takeover deadline). A new wait
        replaces its reminder rows (ON DELETE CASCADE), so the pair is always one wait's."""
        row = await self._one(
            "SELECT w.game_id, w.seat, w.since_version, w.since_at, r.due_at FROM waiting w"
            " JOIN reminders r ON r.game_id = w.game_id AND r.seat = w.seat AND r.kind = 'takeover'"
            " WHERE w.game_id = ? AND w.seat = ?",
            (game_id, seat),
        )
        return (WaitingRow(*row[:4]), float(row[4])) if row else None

    async def reminder(self, game_id: int, seat: str, kind: str) -> ReminderRow | None:
        rows = await self._reminder_rows(" WHERE r.game_id = ? AND r.seat = ? AND r.kind = ?", (game_id, seat, kind))
        return rows[0] if rows else None

    async def reminders_of(self, game_id: int) -> list[ReminderRow]:
        return await self._reminder_rows(" WHERE r.game_id = ? ORDER BY r.due_at", (game_id,))

    async def all_reminders(self) -> list[ReminderRow]:
        """Reminder rows of active games, soonest first."""
        return await self._reminder_rows(
            " JOIN games g ON g.id = r.game_id WHERE g.status = 'active' ORDER BY r.due_at"
        )

    async def _reminder_rows(self, rest: str, args: tuple[Any, ...] = ()) -> list[ReminderRow]:
        """The reminder rows (``r``) that ``rest`` of the query joins, picks and orders."""
        return [ReminderRow(*r) for r in await self._all(REMINDER_ROWS + rest, args)]

    async def earliest_reminder(self, game_id: int | None = None, after: float | None = None) -> float | None:
        """The earliest due time of a reminder row of an active game (of one game; later
        than ``after``).

        Without ``game_id`` the rows are walked in due order (``reminders_due``) up to the
        first of an active game: left to itself SQLite visits every active game instead
        (about 0.45 s with 50,000 games, the storage lock held)."""
        args: list[Any] = []
        if game_id is not None:
            sql = (
                "SELECT min(r.due_at) FROM reminders r JOIN games g ON g.id = r.game_id"
                " WHERE g.status = 'active' AND r.game_id = ?"
            )
            args.append(game_id)
        else:
            sql = (
                "SELECT r.due_at FROM reminders r INDEXED BY reminders_due"
                " JOIN games g ON g.id = r.game_id WHERE g.status = 'active'"
            )
        if after is not None:
            sql += " AND r.due_at > ?"
            args.append(after)
        if game_id is None:
            sql += " ORDER BY r.due_at LIMIT 1"
        row = await self._one(sql, tuple(args))
        return float(row[0]) if row and row[0] is not None else None

    async def due_reminders(self, now: float, limit: int) -> list[ReminderRow]:
        """Reminder rows of active games due by ``now``, oldest first."""
        return await self._reminder_rows(
            " INDEXED BY reminders_due"  # in due order, never a walk over every active game
            " JOIN games g ON g.id = r.game_id WHERE r.due_at <= ? AND g.status = 'active'"
            " ORDER BY r.due_at LIMIT ?",
            (now, limit),
        )

    async def reschedule_reminder(self, game_id: int, seat: str, kind: str, due_at: float) -> None:
        await self._write(
            "UPDATE reminders SET due_at = ? WHERE game_id = ? AND seat = ? AND kind = ?",
            (due_at, game_id, seat, kind),
        )

    async def mark_reminder_sent(
        self, game_id: int, seat: str, kind: str, sent_at: float, next_due: float
    ) -> bool:
        cur = await self._cursor(
            "UPDATE reminders SET sent_at = ?, count = count + 1, due_at = ?"
            " WHERE game_id = ? AND seat = ? AND kind = ?",
            (sent_at, next_due, game_id, seat, kind),
        )
        return cur.rowcount > 0

    # the process lease
    async def take_lease(self, owner: str, now: float, ttl: float) -> str | None:
        """Take (or renew) the lease on this database for ``owner``. Returns None when
        taken, else the live holder's name (its heartbeat is younger than ``ttl``)."""
        row = await self._one("SELECT owner, heartbeat_at FROM lease WHERE id = 1")
        if row is not None and row[0] != owner and now - float(row[1]) < ttl:
            return str(row[0])
        await self._write(
            "INSERT INTO lease (id, owner, heartbeat_at) VALUES (1, ?, ?) ON CONFLICT (id)"
            " DO UPDATE SET owner = excluded.owner, heartbeat_at = excluded.heartbeat_at",
            (owner, now),
        )
        return None

    async def release_lease(self, owner: str) -> None:
        await self._write("DELETE FROM lease WHERE id = 1 AND owner = ?", (owner,))

    # settings
    async def settings(self, game_id: int) -> Settings:
        return _settings(await self._one(_SETTINGS_SQL, (game_id,)))

    async def put_settings(self, game_id: int, s: Settings) -> None:
        self._touch(game_id)
        await self._write(
            "INSERT INTO game_settings (game_id, remind_after_hours, repeat_hours, takeover,"
            " takeover_after_hours) VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " remind_after_hours = excluded.remind_after_hours,"
            " repeat_hours = excluded.repeat_hours, takeover = excluded.takeover,"
            " takeover_after_hours = excluded.takeover_after_hours",
            (game_id, s.remind_after_hours, s.repeat_hours, int(s.takeover), s.takeover_after_hours),
        )

    async def quiet_hours(self, user_id: int | None) -> QuietHours | None:
        if user_id is None:
            return None
        return (await self.quiet_hours_of([user_id])).get(user_id)

    async def quiet_hours_of(self, user_ids: Iterable[int | None]) -> dict[int, QuietHours]:
        """The quiet hours of each of these users that has them: one query."""
        query = _quiet_query(user_ids)
        return _quiet_hours(await self._all(*query)) if query else {}

    async def waiting_and_quiet_hours(
        self, game_id: int, user_ids: Iterable[int | None]
    ) -> tuple[list[WaitingRow], dict[int, QuietHours]]:
        """:meth:`waiting_of` and :meth:`quiet_hours_of` in one trip (an action reads both:
        who was waited for, and the quiet hours of those it may wait for now)."""
        query = _quiet_query(user_ids)
        waiting, quiet = await self._fetch(
            ("SELECT game_id, seat, since_version, since_at FROM waiting WHERE game_id = ? ORDER BY seat", (game_id,)),
            query or ("SELECT 1 WHERE 0", ()),
        )
        return [WaitingRow(*r) for r in waiting], _quiet_hours(quiet)

    async def put_quiet_hours(self, user_id: int, quiet: QuietHours | None) -> None:
        start, end, tz = (quiet.start, quiet.end, quiet.tz) if quiet else (None, None, "UTC")
        await self._write(
            "INSERT INTO user_settings (user_id, quiet_start, quiet_end, tz) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start,"
            " quiet_end = excluded.quiet_end, tz = excluded.tz",
            (user_id, start, end, tz),
        )


    # the player's home (issue 36; bot.app.home): /games, ratings, vacations, substitutes
    async def home_rows(self, user_id: int, since: float) -> list[list[Any]]:
        """The games ``user_id`` sits in (live, or finished since ``since``) by the index
        ``seats_user_game``, then their seats, waiting seats, reminders, stages and
        vacation policies: one trip."""
        games = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE id IN (SELECT game_id FROM seats INDEXED BY"
            " seats_user_game WHERE user_id = ?) AND (status IN ('lobby', 'active', 'paused')"
            " OR (status = 'finished' AND updated_at >= ?)) ORDER BY id",
            (user_id, since),
        )
        ids = tuple(int(r[0]) for r in games)
        marks = ",".join("?" * len(ids)) or "NULL"
        rest = await self._fetch(*(
            (f"SELECT {cols} FROM {table} WHERE game_id IN ({marks})", ids) for table, cols in (
                ("seats", "game_id, seat, position, user_id, ai_kind, display_name, ai_takeover"),
                ("waiting", "game_id, seat, since_version, since_at"),
                ("reminders", "game_id, seat, kind, due_at"),
                ("game_stage", "game_id, round, phase"),
                ("game_vacation", "game_id, policy, cap_days"),
            )
        ))
        return [games, *rest]

    async def put_stage(self, game_id: int, round_: Any, phase: Any) -> None:
        await self._write(
            "INSERT OR REPLACE INTO game_stage (game_id, round, phase) VALUES (?, ?, ?)",
            (game_id, None if round_ is None else str(round_), None if phase is None else str(phase)),
        )

    async def seat_turns(self, game_ids: Iterable[int]) -> list[Any]:
        """(game_id, seat, actor, seq, seconds since the move before) of every log row."""
        ids = tuple(game_ids)
        return await self._all(
            "SELECT game_id, seat, actor, seq, created_at - lag(created_at) OVER (PARTITION BY game_id ORDER BY seq)"
            f" FROM actions WHERE game_id IN ({','.join('?' * len(ids)) or 'NULL'}) ORDER BY game_id, seq",
            ids,
        )

    async def seat_history(self, game_ids: Iterable[int]) -> list[Any]:
        """(game_id, seat, from_seq, user_id, from_round) of these games, in order."""
        ids = tuple(game_ids)
        return await self._all(
            "SELECT game_id, seat, from_seq, user_id, from_round FROM seat_history WHERE game_id IN"
            f" ({','.join('?' * len(ids)) or 'NULL'}) ORDER BY game_id, seat, from_seq",
            ids,
        )

    async def put_seat_holder(self, game_id: int, seat: str, from_seq: int, user_id: int, from_round: Any) -> None:
        await self._write(
            "INSERT OR REPLACE INTO seat_history (game_id, seat, from_seq, user_id, from_round) VALUES (?, ?, ?, ?, ?)",
            (game_id, seat, from_seq, user_id, None if from_round is None else str(from_round)),
        )

    async def set_seat_user(self, game_id: int, seat: str, user_id: int, display_name: str) -> None:
        self._touch(game_id)
        await self._write(
            "UPDATE seats SET user_id = ?, display_name = ?, ai_kind = NULL, ai_takeover = 0"
            " WHERE game_id = ? AND seat = ?",
            (user_id, display_name, game_id, seat),
        )

    async def profile_games(self, user_id: int) -> list[GameRow]:
        """Every started game ``user_id`` sits in or sat in (a seat they gave up)."""
        rows = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE status != 'lobby' AND id IN (SELECT game_id FROM seats"
            " WHERE user_id = ? UNION SELECT game_id FROM seat_history WHERE user_id = ?) ORDER BY id",
            (user_id, user_id),
        )
        return [g for g in map(_game, rows) if g is not None]

    async def ratings(self, game: str, user_ids: Iterable[int] | None = None) -> dict[int, tuple[float, float, int]]:
        """{user: (mu, sigma, rated games)} of one game (of these users, or everyone's)."""
        ids = tuple(user_ids) if user_ids is not None else None
        where = "" if ids is None else f" AND user_id IN ({','.join('?' * len(ids)) or 'NULL'})"
        rows = await self._all(f"SELECT user_id, mu, sigma, rated FROM ratings WHERE game = ?{where}", (game, *(ids or ())))
        return {int(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def guild_players(self, guild_id: int) -> set[int]:
        """Everyone who sat in a game of this server (its members the bot knows without
        the privileged member list)."""
        rows = await self._all(
            "SELECT s.user_id FROM seats s JOIN games g ON g.id = s.game_id WHERE g.guild_id = ? AND s.user_id IS NOT NULL"
            " UNION SELECT h.user_id FROM seat_history h JOIN games g ON g.id = h.game_id WHERE g.guild_id = ?",
            (guild_id, guild_id),
        )
        return {int(r[0]) for r in rows}

    async def ratings_of_user(self, user_id: int) -> dict[str, tuple[float, float, int]]:
        rows = await self._all("SELECT game, mu, sigma, rated FROM ratings WHERE user_id = ?", (user_id,))
        return {str(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def put_rating(self, user_id: int, game: str, mu: float, sigma: float) -> None:
        await self._write(
            "INSERT INTO ratings (user_id, game, mu, sigma, rated) VALUES (?, ?, ?, ?, 1) ON CONFLICT"
            " (user_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rated = rated + 1",
            (user_id, game, mu, sigma),
        )

    async def mark_rated(self, game_id: int, at: float) -> bool:
        """Count a finished game once: False if it was counted already."""
        cur = await self._cursor("INSERT OR IGNORE INTO rated_games (game_id, rated_at) VALUES (?, ?)", (game_id, at))
        return bool(cur.rowcount)

    async def home_todo(self, what: str, *, done: bool = False) -> bool:
        """Whether ``what`` is still to do (and, with ``done``, mark it done)."""
        row = await self._one("SELECT 1 FROM home_todo WHERE what = ?", (what,))
        if done:
            await self._write("DELETE FROM home_todo WHERE what = ?", (what,))
        return row is not None

    async def user_home(self, user_id: int) -> tuple[bool, str | None, int | None, float | None]:
        """(hidden, notify, digest hour, next digest) of a player (defaults if never set)."""
        row = await self._one("SELECT hidden, notify, digest_hour, digest_next FROM user_home WHERE user_id = ?", (user_id,))
        return (bool(row[0]), row[1], row[2], row[3]) if row else (False, None, None, None)

    async def put_user_home(self, user_id: int, **fields: Any) -> None:
        if not fields or set(fields) - {"hidden", "notify", "digest_hour", "digest_next"}:
            raise ValueError(f"bad home fields {sorted(fields)}")
        cols = ", ".join(fields)
        sets = ", ".join(f"{k} = excluded.{k}" for k in fields)
        await self._write(
            f"INSERT INTO user_home (user_id, {cols}) VALUES (?{', ?' * len(fields)})"
            f" ON CONFLICT (user_id) DO UPDATE SET {sets}",
            (user_id, *fields.values()),
        )

    async def notify_prefs(self) -> dict[int, str]:
        """{user: notify} of the players who chose how they are told of a turn."""
        rows = await self._all("SELECT user_id, notify FROM user_home WHERE notify IS NOT NULL")
        return {int(r[0]): str(r[1]) for r in rows}

    async def put_tz(self, user_id: int, tz: str) -> None:
        await self._write(
            "INSERT INTO user_settings (user_id, tz) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET tz = excluded.tz",
            (user_id, tz),
        )

    async def user_tz(self, user_id: int) -> str:
        row = await self._one("SELECT tz FROM user_settings WHERE user_id = ?", (user_id,))
        return str(row[0]) if row else "UTC"

    async def put_digest_next(self, rows: list[tuple[float, int]]) -> None:
        await self._write_many("UPDATE user_home SET digest_next = ? WHERE user_id = ?", rows)

    async def hidden_users(self, user_ids: Iterable[int]) -> set[int]:
        ids = tuple(user_ids)
        rows = await self._all(
            f"SELECT user_id FROM user_home WHERE hidden = 1 AND user_id IN ({','.join('?' * len(ids)) or 'NULL'})", ids
        )
        return {int(r[0]) for r in rows}

    async def due_digests(self, now: float, limit: int) -> list[Any]:
        """(user_id, digest_hour, tz) of the players whose daily digest is due."""
        return await self._all(
            "SELECT h.user_id, h.digest_hour, coalesce(u.tz, 'UTC') FROM user_home h INDEXED BY user_home_digest"
            " LEFT JOIN user_settings u ON u.user_id = h.user_id"
            " WHERE h.notify = 'digest' AND h.digest_next <= ? ORDER BY h.digest_next LIMIT ?",
            (now, limit),
        )

    async def waiting_games_of(self, user_ids: Iterable[int]) -> list[Any]:
        """(user_id, game_id, game, guild_id, channel_id, thread_id, since_at) of every
        active game waiting on one of these players (the digest)."""
        ids = tuple(user_ids)
        return await self._all(
            "SELECT s.user_id, g.id, g.game, g.guild_id, g.channel_id, g.thread_id, w.since_at"
            " FROM seats s INDEXED BY seats_user_game JOIN waiting w ON w.game_id = s.game_id AND w.seat = s.seat"
            " JOIN games g ON g.id = s.game_id"
            f" WHERE s.user_id IN ({','.join('?' * len(ids)) or 'NULL'}) AND g.status = 'active'"
            " ORDER BY s.user_id, w.since_at",
            ids,
        )

    async def vacation(self, game_id: int) -> tuple[str, int]:
        row = await self._one("SELECT policy, cap_days FROM game_vacation WHERE game_id = ?", (game_id,))
        return (str(row[0]), int(row[1])) if row else ("freeze", 14)

    async def put_vacation(self, game_id: int, policy: str, cap_days: int) -> None:
        await self._write(
            "INSERT OR REPLACE INTO game_vacation (game_id, policy, cap_days) VALUES (?, ?, ?)", (game_id, policy, cap_days)
        )

    async def away_of(self, user_ids: Iterable[int]) -> dict[int, tuple[float, float, str]]:
        """{user: (since, until, versions JSON)} of these players on vacation."""
        ids = tuple(user_ids)
        rows = await self._all(
            f"SELECT user_id, since, until, since_at FROM away WHERE user_id IN ({','.join('?' * len(ids)) or 'NULL'})", ids
        )
        return {int(r[0]): (float(r[1]), float(r[2]), str(r[3])) for r in rows}

    async def put_away(self, user_id: int, since: float, until: float, since_at: str) -> None:
        await self._write("INSERT OR REPLACE INTO away (user_id, since, until, since_at) VALUES (?, ?, ?, ?)",
                          (user_id, since, until, since_at))

    async def away_seats(self, user_id: int | None = None, due: float | None = None) -> list[Any]:
        """(user_id, game_id, seat, mode, ends_at): of one player, or those ending by ``due``."""
        if user_id is not None:
            return await self._all("SELECT user_id, game_id, seat, mode, ends_at FROM away_seats WHERE user_id = ?", (user_id,))
        return await self._all(
            "SELECT user_id, game_id, seat, mode, ends_at FROM away_seats WHERE ends_at <= ? ORDER BY ends_at", (due,)
        )

    async def put_away_seat(self, user_id: int, game_id: int, seat: str, mode: str, ends_at: float) -> None:
        await self._write(
            "INSERT OR REPLACE INTO away_seats (user_id, game_id, seat, mode, ends_at) VALUES (?, ?, ?, ?, ?)",
            (user_id, game_id, seat, mode, ends_at),
        )

    async def end_away(self, user_id: int, game_id: int | None = None) -> None:
        """The vacation over in one game (or everywhere: then the vacation row goes too)."""
        if game_id is None:
            await self._write("DELETE FROM away_seats WHERE user_id = ?", (user_id,))
            await self._write("DELETE FROM away WHERE user_id = ?", (user_id,))
        else:
            await self._write("DELETE FROM away_seats WHERE user_id = ? AND game_id = ?", (user_id, game_id))

    async def log_away(self, user_id: int, game_id: int, seat: str, from_seq: int, to_seq: int) -> None:
        await self._write(
            "INSERT OR REPLACE INTO away_log (user_id, game_id, seat, from_seq, to_seq) VALUES (?, ?, ?, ?, ?)",
            (user_id, game_id, seat, from_seq, to_seq),
        )

    async def away_log(self, user_id: int) -> list[Any]:
        """(game_id, seat, from_seq, to_seq) of a player's past vacations."""
        return await self._all("SELECT game_id, seat, from_seq, to_seq FROM away_log WHERE user_id = ?", (user_id,))

    async def away_over(self, now: float) -> list[int]:
        """The players whose vacation's time is up."""
        return [int(r[0]) for r in await self._all("SELECT user_id FROM away WHERE until <= ?", (now,))]

    async def away_in_game(self, game_id: int) -> dict[str, float]:
        """{seat: when its player's vacation ends in this game}."""
        rows = await self._all("SELECT seat, ends_at FROM away_seats WHERE game_id = ?", (game_id,))
        return {str(r[0]): float(r[1]) for r in rows}


def _quiet_query(user_ids: Iterable[int | None]) -> tuple[str, tuple[Any, ...]] | None:
    ids = sorted({u for u in user_ids if u is not None and not out_of_range((u,))})
    if not ids:
        return None
    return (
        f"SELECT user_id, quiet_start, quiet_end, tz FROM user_settings WHERE user_id IN ({','.join('?' * len(ids))})",
        tuple(ids),
    )


def _quiet_hours(rows: Iterable[Any]) -> dict[int, QuietHours]:
    return {int(r[0]): QuietHours(r[1], r[2], r[3]) for r in rows if r[1] is not None and r[2] is not None}


class Storage:
    """One long-lived aiosqlite connection; every access under one asyncio.Lock."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._tx = Tx(conn)
        self._unavailable_logged = False  # one clear log line per outage, not one per move
        self._checkpoints: asyncio.Task[None] | None = None
        self._commits = 0  # committed write transactions (the checkpointer looks at it)
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
    ) -> Storage:
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

    # -- checkpoints off the write path ------------------------------------------------

    CHECKPOINT_SECONDS = 1.0
    WAL_RESTART_PAGES = 4096  # a WAL longer than this (16 MiB of 4 KiB pages) is made to start over

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

    def outbox_epoch(self, game_id: int) -> tuple[int, int, int]:
        """What changed in the game's pending outbox rows through this storage (counted
        when the write is made, before it commits): ``(rewrites of every game, rewrites
        of this game, new rows of this game)``. A rewrite is any change but new rows and
        :meth:`Tx.mark_outbox` (a batch dropped and written again, rows released or made
        due). While the first two have not changed, the rows read before and those with
        greater ids (AUTOINCREMENT) are all the game's pending rows."""
        epochs = self._tx.outbox_epochs
        return epochs.get(None, 0), epochs.get(game_id, 0), self._tx.outbox_appends.get(game_id, 0)

    def game_epoch(self, game_id: int) -> int:
        """A number that changes whenever the game's row, seats or settings are written
        through this storage (the one writer: the bot holds the lease)."""
        return self._tx.epochs.get(game_id, 0)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        async with self._lock:
            yield self._tx

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """A write transaction: BEGIN IMMEDIATE, COMMIT on success, ROLLBACK on error.

        Cancellation-safe: aiosqlite runs statements one after another in its worker
        thread, in the order they were queued, and a statement queued by a task that is
        then cancelled still runs. So on any error (a cancelled task included, also
        while BEGIN or COMMIT was still queued) a ROLLBACK is queued behind them; it is
        a no-op if nothing is open. The connection is never left inside a transaction
        for the next writer."""
        async with self._lock:
            tx = self._tx
            try:
                # BEGIN goes with the first statements (queued), COMMIT with the last ones
                tx._queued = [("BEGIN IMMEDIATE", (), False)]
                yield tx
                tx._queued.append(("COMMIT", (), False))
                await tx._flush()
                tx._queued = None
                self._commits += 1
            except BaseException as exc:
                tx._queued = None  # statements never sent: nothing to undo
                await asyncio.shield(self._rollback())
                if is_unavailable(exc):
                    if not self._unavailable_logged:
                        log.error(
                            "the database %s cannot take writes (%s); moves are refused until"
                            " this is fixed (free disk space, make the file writable)",
                            self.path, exc,
                        )
                        self._unavailable_logged = True
                    raise StorageUnavailable(exc) from exc
                raise
            else:
                self._unavailable_logged = False

    async def _rollback(self) -> None:
        try:
            await self.conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:  # nothing open (BEGIN failed, COMMIT ran)
            if "no transaction is active" not in str(exc) and not is_unavailable(exc):
                raise

    async def take_lease(self, owner: str, ttl: float, clock: Callable[[], float] = time.time) -> None:
        """Hold this database for ``owner``, or raise :class:`LeaseHeld` while another
        live process (heartbeat younger than ``ttl`` seconds) holds it. Renew it more
        often than ``ttl``; an expired lease (a crashed process) is taken over."""
        async with self.transaction() as tx:
            holder = await tx.take_lease(owner, clock(), ttl)
        if holder is not None:
            raise LeaseHeld(
                f"another boardroom process ({holder}) is using {self.path}; stop it first"
                f" (its lease expires {ttl:.0f} s after its last heartbeat)"
            )

    async def release_lease(self, owner: str) -> None:
        async with self.transaction() as tx:
            await tx.release_lease(owner)

    # one-call reads/writes (each takes the lock itself)
    async def game_row(self, game_id: int) -> GameRow | None:
        async with self.read() as q:
            return await q.game_row(game_id)

    async def seat(self, game_id: int, seat: str) -> SeatRow | None:
        async with self.read() as q:
            return await q.seat(game_id, seat)

    async def settings(self, game_id: int) -> Settings:
        async with self.read() as q:
            return await q.settings(game_id)

    async def quiet_hours(self, user_id: int | None) -> QuietHours | None:
        async with self.read() as q:
            return await q.quiet_hours(user_id)

    async def waiting_of(self, game_id: int) -> list[WaitingRow]:
        async with self.read() as q:
            return await q.waiting_of(game_id)

    async def reminder(self, game_id: int, seat: str, kind: str) -> ReminderRow | None:
        async with self.read() as q:
            return await q.reminder(game_id, seat, kind)

    async def reminders_of(self, game_id: int) -> list[ReminderRow]:
        async with self.read() as q:
            return await q.reminders_of(game_id)

    async def all_reminders(self) -> list[ReminderRow]:
        async with self.read() as q:
            return await q.all_reminders()

    async def earliest_reminder(self, game_id: int | None = None, after: float | None = None) -> float | None:
        async with self.read() as q:
            return await q.earliest_reminder(game_id, after)

    async def due_reminders(self, now: float, limit: int) -> list[ReminderRow]:
        async with self.read() as q:
            return await q.due_reminders(now, limit)

    async def reschedule_reminder(self, game_id: int, seat: str, kind: str, due_at: float) -> None:
        async with self.transaction() as tx:
            await tx.reschedule_reminder(game_id, seat, kind, due_at)

    async def mark_reminder_sent(
        self, game_id: int, seat: str, kind: str, sent_at: float, next_due: float
    ) -> bool:
        async with self.transaction() as tx:
            return await tx.mark_reminder_sent(game_id, seat, kind, sent_at, next_due)


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
