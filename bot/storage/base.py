"""The backend interface: what the SQL of every concern (games, outbox, reminders,
players) needs from a database, and the core of :class:`bot.storage.Tx` built on it.

A backend gives a :class:`Link` (one connection's trips) and a :class:`Dialect` (the
few SQL fragments that differ). The statements are written once, with ``?`` marks, in
the SQL both SQLite and PostgreSQL read; the PostgreSQL link turns the marks into its
own (``bot.storage.postgres``). Where the two must differ the SQL asks the dialect.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.storage.rows import out_of_range

# a queued statement: (sql, args, many) -- ``many``: args is a list of rows (executemany)
Stmt = tuple[str, Any, bool]
Query = tuple[str, tuple[Any, ...]]


class Dialect:
    """The SQL fragments that differ between backends (one subclass per backend, in its
    own module). The base is the SQL both read."""

    name = "sql"
    begin = "BEGIN"  # what opens a write transaction

    # what takes a game's lock until the transaction ends (None: the transaction holds the
    # whole database already, as SQLite's BEGIN IMMEDIATE does)
    game_lock: str | None = None
    # a read that locks the rows it reads until the transaction ends (SQLite: its write
    # transaction holds the whole database already)
    for_update = ""

    def outbox_rows_insert(self, rows: int) -> str | None:
        """One statement that writes ``rows`` outbox rows of a batch with their nonces
        (``br<id>``), its arguments ``(game_id, batch, created_at)`` then each row's
        ``(kind, target, payload, ordered, next_try_at)``; None: an INSERT of each row,
        then an UPDATE of their nonces (``bot.storage.outbox``)."""
        return None

    def indexed_by(self, index: str) -> str:
        """A table's index hint (SQLite: ``INDEXED BY``; elsewhere nothing)."""
        return ""

    def json_number(self, column: str, key: str) -> str:
        """The number at ``$.key`` of the JSON text in ``column``."""
        raise NotImplementedError

    def contains(self, haystack: str, needle: str) -> str:
        """Whether the text ``haystack`` contains ``needle`` (SQL expressions)."""
        raise NotImplementedError


def upsert(table: str, cols: Sequence[str], key: Sequence[str], *, ignore: bool = False) -> str:
    """``INSERT ... ON CONFLICT (key) DO UPDATE`` of every column but the key's: what
    SQLite's ``INSERT OR REPLACE`` did for these tables (none has children or triggers),
    in the SQL both backends read. ``ignore``: ``DO NOTHING`` (``INSERT OR IGNORE``)."""
    rest = [] if ignore else [c for c in cols if c not in key]
    sets = ", ".join(f"{c} = excluded.{c}" for c in rest)
    return (
        f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
        f" ON CONFLICT ({', '.join(key)}) DO " + (f"UPDATE SET {sets}" if rest else "NOTHING")
    )


class Link(Protocol):
    """One backend connection's trips, as the :class:`TxCore` uses them."""

    conn: Any
    dialect: Dialect

    async def run(self, batch: list[Stmt], queries: list[Query]) -> list[list[Any]]:
        """The queued statements in order, then each query's rows: one trip."""
        ...

    async def execute(self, sql: str, args: Any, many: bool = False) -> None:
        """One statement now (outside a transaction's queue)."""
        ...

    async def rowcount(self, sql: str, args: tuple[Any, ...]) -> int:
        """One statement now; how many rows it changed."""
        ...

    async def insert_id(self, sql: str, args: tuple[Any, ...]) -> int:
        """One ``INSERT`` of a table whose key is ``id``; the new row's id."""
        ...


class TxCore:
    """SQL on the shared connection; obtained from Storage.read()/transaction().

    Inside a write transaction the statements whose answer nobody reads (INSERT,
    UPDATE, DELETE without a row count or id) are queued, not sent one by one: they go
    to the database together, in order, at the next read of the transaction or with its
    COMMIT (issue 25: each trip to the database cost more than the statement). A read
    sees every write queued before it (the queue runs first), so the order of
    statements is the code's; an error in a queued write surfaces at that read or at
    COMMIT, inside the transaction, which is then rolled back as before."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.sql: Dialect = link.dialect
        self._queued: list[Stmt] | None = None  # None: outside a transaction
        # game id -> a number that changes whenever its row, seats or settings are written
        # (counted when the write is made, before it commits): a copy of a game's row read
        # at one number is current while the number has not changed (``Storage.game_epoch``)
        self.epochs: dict[int, int] = {}
        # game id (None: every game) -> a number that changes whenever the game's pending
        # outbox rows are changed other than by new rows or the deliverer's own marks
        # (``Storage.outbox_epoch``): rows read at one number, and the rows written since
        # (ids only grow), are the pending rows while it has not changed
        self.outbox_epochs: dict[int | None, int] = {}
        self.outbox_appends: dict[int, int] = {}  # game id -> a number that new rows change
        # reads sent ahead (:meth:`_read_ahead`): queries waiting to ride with the next read
        # of the transaction, and the rows of those that went, each with the number of
        # statements written before it was read (``_written``: the transaction's writes
        # since the first read ahead; None: none asked for)
        self._ahead_queued: dict[Any, list[Query]] = {}
        self._ahead_rows: dict[Any, tuple[list[list[Any]], int]] = {}
        self._written: list[Stmt] | None = None
        self._asked_ahead: dict[int, dict[str, str]] = {}  # (GamesSql.first_asked_ahead)

    @property
    def conn(self) -> Any:
        """The backend's own connection (tests and tools reach past the queue with it)."""
        return self.link.conn

    def _touch(self, game_id: int) -> None:
        self.epochs[game_id] = self.epochs.get(game_id, 0) + 1

    def _rewrite_outbox(self, game_id: int | None) -> None:
        self.outbox_epochs[game_id] = self.outbox_epochs.get(game_id, 0) + 1

    def _append_outbox(self, game_id: int) -> None:
        self.outbox_appends[game_id] = self.outbox_appends.get(game_id, 0) + 1

    def _end_ahead(self) -> None:
        """Forget the reads sent ahead (the transaction ended)."""
        self._ahead_queued.clear()
        self._ahead_rows.clear()
        self._asked_ahead.clear()
        self._written = None

    def _read_ahead(self, key: Any, queries: list[Query]) -> None:
        """Send ``queries`` with the next read of this transaction instead of a trip of
        their own later (issue 37: each trip is a round trip to PostgreSQL). Their rows
        are what the database held at that read; :meth:`_taken` gives them back with
        the statements written since, for the caller to judge whether they still hold."""
        if self._queued is None:
            return  # (outside a transaction there is no "next read" to join)
        self._ahead_queued[key] = queries
        if self._written is None:
            self._written = []

    def _taken(self, key: Any) -> tuple[list[list[Any]], list[Stmt]] | None:
        """The rows of ``key``'s queries read ahead, and every statement written in the
        transaction after them, once (None: not read ahead, or read already)."""
        self._ahead_queued.pop(key, None)
        got = self._ahead_rows.pop(key, None)
        if got is None or self._written is None:
            return None
        rows, at = got
        return rows, self._written[at:]

    def _taken_unless(self, key: Any, tables: tuple[str, ...]) -> list[list[Any]] | None:
        """The rows of ``key``'s queries read ahead, if no statement written since names
        any of ``tables`` (else None: the caller reads them anew)."""
        got = self._taken(key)
        if got is None or any(t in sql for sql, _args, _many in got[1] for t in tables):
            return None
        return got[0]

    def _log(self, stmt: Stmt) -> None:
        if self._written is not None:
            self._written.append(stmt)

    async def _flush(self) -> None:
        """Send the queued statements to the database (one trip), if any."""
        if self._queued:
            batch, self._queued = self._queued, []
            await self.link.run(batch, [])

    async def _write(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        """A statement whose answer is not read: queued in a transaction, else run now."""
        if self._queued is not None:
            self._queued.append((sql, args, False))
            self._log((sql, args, False))
        else:
            await self.link.execute(sql, args)

    async def _write_many(self, sql: str, rows: list[Any]) -> None:
        if self._queued is not None:
            self._queued.append((sql, rows, True))
            self._log((sql, rows, True))
        else:
            await self.link.execute(sql, rows, True)

    async def _rowcount(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """A statement's count of changed rows (the queue first)."""
        await self._flush()
        self._log((sql, args, False))
        return await self.link.rowcount(sql, args)

    async def _insert_id(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        """An ``INSERT``'s new id (the queue first)."""
        await self._flush()
        self._log((sql, args, False))
        return await self.link.insert_id(sql, args)

    async def _fetch(self, *queries: Query) -> list[list[Any]]:
        """Each query's rows, the queued writes run first: all in one trip to the
        database. A query whose arguments the database cannot hold (an id out of range)
        names no row."""
        batch = self._queued or []
        if self._queued:
            self._queued = []
        sent = [(i, q) for i, q in enumerate(queries) if not out_of_range(q[1])]
        if not sent and not batch:
            return [[] for _ in queries]
        ahead = {k: qs for k, qs in self._ahead_queued.items() if not any(out_of_range(q[1]) for q in qs)}
        self._ahead_queued = {}
        extra = [q for qs in ahead.values() for q in qs]
        rows = await self.link.run(batch, [q for _, q in sent] + extra)
        if ahead:
            written = len(self._written or [])
            at = len(sent)
            for key, qs in ahead.items():
                self._ahead_rows[key] = (rows[at:at + len(qs)], written)
                at += len(qs)
        out: list[list[Any]] = [[] for _ in queries]
        for (i, _), r in zip(sent, rows[:len(sent)], strict=True):
            out[i] = r
        return out

    async def _one(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        """The first row of a query that names at most one (a key, an aggregate), or None.
        One trip to the database, with the writes queued before it (issue 9: a round end
        made ~600 of them; issue 25: the trips were the cost of an action)."""
        if out_of_range(args):  # an id the database cannot hold names no row
            return None
        [rows] = await self._fetch((sql, args))
        return next(iter(rows), None)

    async def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        if out_of_range(args):
            return []
        [rows] = await self._fetch((sql, args))
        return list(rows)
