"""Storage: one API, two backends (SQLite through aiosqlite, the embedded default;
PostgreSQL through psycopg 3, for several processes on one database: issue 37).

::

    storage = await Storage.open("boardroom.db")     # or "postgresql://user:pw@host/name";
                                                     # applies the missing migrations
    async with storage.transaction() as tx:          # asyncio.Lock + BEGIN ... COMMIT
        await tx.append_action(game_id, seq, seat, action, actor, at)
    async with storage.read() as q:                  # same lock, no transaction
        row = await q.game_row(game_id)
    await storage.close()                            # always (an open connection hangs exit)

The package, by concern:

- :mod:`~bot.storage.games`: games and actions (rows, seats, the log, snapshots, drafts,
  messages); :mod:`~bot.storage.outbox`: the delivery outbox;
  :mod:`~bot.storage.reminders`: waiting seats, reminders and deadlines;
  :mod:`~bot.storage.players`: settings, quiet hours, the player's home;
  :mod:`~bot.storage.leases`: the process lease;
- :mod:`~bot.storage.base`: the backend interface (a link, a dialect) and the core of
  :class:`Tx`; :mod:`~bot.storage.core`: :class:`Tx` and :class:`Storage`;
- one module per SQL dialect: :mod:`~bot.storage.sqlite`, :mod:`~bot.storage.postgres`;
- :mod:`~bot.storage.migrations`: the one numbered migration set of both backends;
  :mod:`~bot.storage.rows`, :mod:`~bot.storage.errors`.
"""

from __future__ import annotations

from bot.storage.core import Storage, Tx, backend_of, open_when_up
from bot.storage.errors import (
    INTEGRITY_ERRORS,
    DamagedRecord,
    DatabaseDown,
    LeaseHeld,
    MigrationError,
    SchemaTooNew,
    StorageError,
    StorageUnavailable,
)
from bot.storage.migrations import (
    MIGRATION_RE,
    TX_CONTROL_RE,
    Migration,
    default_migrations_dir,
    games_by_edition,
    migrate,
    migration_files,
    schema_version,
)
from bot.storage.postgres import PgStorage, safe_url
from bot.storage.rows import (
    LIVE,
    REMINDER_ROWS,
    SQL_INT_MAX,
    SQL_INT_MIN,
    ActionRow,
    DraftRow,
    GameRow,
    MessageRef,
    OutboxRow,
    ReminderRow,
    SeatRow,
    WaitingRow,
    dumps,
    out_of_range,
    outbox_payload,
    snapshot_checksum,
)
from bot.storage.sqlite import (
    UNAVAILABLE_MARKERS,
    SqliteStorage,
    checkpoint,
    connect,
    is_unavailable,
)

__all__ = [
    "INTEGRITY_ERRORS",
    "LIVE", "MIGRATION_RE", "REMINDER_ROWS", "SQL_INT_MAX", "SQL_INT_MIN", "TX_CONTROL_RE",
    "UNAVAILABLE_MARKERS", "ActionRow", "DamagedRecord", "DraftRow", "GameRow", "LeaseHeld",
    "MessageRef", "Migration", "MigrationError", "OutboxRow", "PgStorage", "ReminderRow", "SchemaTooNew",
    "SeatRow", "SqliteStorage", "Storage", "StorageError", "StorageUnavailable", "Tx",
    "DatabaseDown", "open_when_up",
    "WaitingRow", "backend_of", "checkpoint", "connect", "default_migrations_dir", "dumps",
    "games_by_edition", "is_unavailable", "migrate", "migration_files", "out_of_range",
    "outbox_payload", "safe_url", "schema_version", "snapshot_checksum",
]
