""":class:`Tx` (the SQL of every concern, on one backend link) and :class:`Storage` (one
process's access to its database: one lock, transactions, the one-call reads). The
backends subclass :class:`Storage`: ``bot.storage.sqlite`` and ``bot.storage.postgres``;
:meth:`Storage.open` picks one by the target (a path, or a ``postgresql://`` URL)."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar

from bot.settings import QuietHours, Settings
from bot.storage.base import Link
from bot.storage.errors import DatabaseDown, LeaseHeld, StorageUnavailable
from bot.storage.games import GamesSql
from bot.storage.leases import LeasesSql
from bot.storage.outbox import OutboxSql
from bot.storage.players import PlayersSql
from bot.storage.reminders import RemindersSql
from bot.storage.rows import GameRow, ReminderRow, SeatRow, WaitingRow

log = logging.getLogger("boardroom.storage")

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


async def open_when_up(
    path: str | os.PathLike[str],
    wait_s: float,
    *,
    opener: Callable[[str | os.PathLike[str]], Awaitable[Storage]] | None = None,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    max_delay: float = 5.0,
) -> Storage:
    """:meth:`Storage.open`, tried again while the database is down (:class:`DatabaseDown`:
    a server restarting, or started after the bot), 1 s, 2 s, 4 s, then ``max_delay``
    apart, for ``wait_s`` seconds at most; one log line a try. A wrong URL, password or
    database name fails at once: waiting would not mend it."""
    opener = opener or Storage.open
    give_up = clock() + wait_s
    delay = 1.0
    while True:
        try:
            return await opener(path)
        except DatabaseDown as exc:
            left = give_up - clock()
            if left <= 0:
                raise
            pause = min(delay, left)
            log.warning("%s; trying again in %.0f s", exc, pause)
            await sleep(pause)
            delay = min(delay * 2, max_delay)


def backend_of(target: str | os.PathLike[str]) -> str:
    """``postgresql`` for a PostgreSQL URL, else ``sqlite`` (a path, ``:memory:``, ``file:``)."""
    return "postgresql" if str(target).startswith(POSTGRES_SCHEMES) else "sqlite"


class Tx(GamesSql, OutboxSql, RemindersSql, PlayersSql, LeasesSql):
    """The SQL of games and actions, the outbox, reminders and deadlines, players and
    settings, and leases, on one backend's link (:class:`bot.storage.base.TxCore`)."""


class Storage:
    """One process's storage: a backend connection; every access under one asyncio.Lock
    (with a single shared connection, a reader in another coroutine would otherwise see
    a writer's uncommitted rows)."""

    backends: ClassVar[dict[str, type[Storage]]] = {}  # filled by each backend's module
    # several processes may share the database (PostgreSQL); else the lease refuses a second
    shared = False
    # a read that fails because the database is down raises StorageUnavailable (as a write)
    unavailable_on_read = True
    # SQLite's background checkpoints (bot.storage.sqlite): every second after writes, and a
    # WAL longer than this (16 MiB of 4 KiB pages) is made to start over
    CHECKPOINT_SECONDS = 1.0
    WAL_RESTART_PAGES = 4096

    def __init__(self, link: Link, path: str) -> None:
        self.link = link
        self.path = path
        self._lock = asyncio.Lock()
        self._tx = Tx(link)
        self._unavailable_logged = False  # one clear log line per outage, not one per move
        self._commits = 0  # committed write transactions

    @property
    def conn(self) -> Any:
        return self.link.conn

    @property
    def backend(self) -> str:
        return self.link.dialect.name

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
        """Open the database at ``path`` (a SQLite path or a ``postgresql://`` URL) and
        apply the missing migrations (or, without ``run_migrations``, refuse a database
        that lacks some)."""
        impl = cls if cls is not Storage else cls.backends[backend_of(path)]
        return await impl.open(
            path, migrations_dir=migrations_dir, busy_timeout_ms=busy_timeout_ms,
            run_migrations=run_migrations, clock=clock,
        )

    async def close(self) -> None:
        raise NotImplementedError

    # -- what a backend adds --------------------------------------------------------------

    def start_checkpoints(self, every: float | None = None) -> bool:
        """Background WAL checkpoints (SQLite only): False where there are none."""
        return False

    async def stop_checkpoints(self) -> None:
        return None

    async def _ready(self) -> None:
        """Before each use, under the lock: a live connection (a backend that reconnects)."""

    def _is_unavailable(self, exc: BaseException) -> bool:
        """Whether ``exc`` means "cannot write now" (not a bug)."""
        return False

    def _unavailable_hint(self) -> str:
        return "moves are refused until this is fixed"

    async def _rollback(self) -> None:
        raise NotImplementedError

    def _after_error(self, exc: BaseException) -> None:
        """After a failed transaction (a backend drops a broken connection here)."""

    # -- caches' epochs -------------------------------------------------------------------

    def outbox_epoch(self, game_id: int) -> tuple[int, int, int]:
        """What changed in the game's pending outbox rows through this storage (counted
        when the write is made, before it commits): ``(rewrites of every game, rewrites
        of this game, new rows of this game)``. A rewrite is any change but new rows and
        :meth:`Tx.mark_outbox` (a batch dropped and written again, rows released or made
        due). While the first two have not changed, the rows read before and those with
        greater ids are all the game's pending rows."""
        epochs = self._tx.outbox_epochs
        return epochs.get(None, 0), epochs.get(game_id, 0), self._tx.outbox_appends.get(game_id, 0)

    def game_epoch(self, game_id: int) -> int:
        """A number that changes whenever the game's row, seats or settings are written
        through this storage (the one writer: the bot holds the lease)."""
        return self._tx.epochs.get(game_id, 0)

    # -- access ---------------------------------------------------------------------------

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        async with self._lock:
            try:
                await self._ready()
                yield self._tx
            except BaseException as exc:
                self._after_error(exc)
                if self.unavailable_on_read and self._is_unavailable(exc):
                    raise StorageUnavailable(exc) from exc
                raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """A write transaction: BEGIN (SQLite: IMMEDIATE), COMMIT on success, ROLLBACK on
        error.

        Cancellation-safe: the statements run one after another in the order they were
        queued, and a statement queued by a task that is then cancelled still runs. So on
        any error (a cancelled task included, also while BEGIN or COMMIT was still
        queued) a ROLLBACK is sent behind them; it is a no-op if nothing is open. The
        connection is never left inside a transaction for the next writer."""
        async with self._lock:
            tx = self._tx
            try:
                await self._ready()
                # BEGIN goes with the first statements (queued), COMMIT with the last ones
                tx._end_ahead()
                tx._queued = [(self.link.dialect.begin, (), False)]
                yield tx
                tx._queued.append(("COMMIT", (), False))
                await tx._flush()
                tx._queued = None
                tx._end_ahead()
                self._commits += 1
            except BaseException as exc:
                tx._queued = None  # statements never sent: nothing to undo
                tx._end_ahead()
                await asyncio.shield(self._rollback())
                self._after_error(exc)
                if self._is_unavailable(exc):
                    if not self._unavailable_logged:
                        log.error(
                            "the database %s cannot take writes (%s); %s",
                            self.path, exc, self._unavailable_hint(),
                        )
                        self._unavailable_logged = True
                    raise StorageUnavailable(exc) from exc
                raise
            else:
                self._unavailable_logged = False

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


