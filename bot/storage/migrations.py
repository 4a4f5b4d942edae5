"""The numbered migrations, one set for both backends: ``migrations/NNNN_name.sql`` is
the SQL both read (SQLite's types, which the PostgreSQL dialect maps to its own:
``bot.storage.postgres``), and ``NNNN_name.postgresql.sql`` beside it replaces it on
PostgreSQL where the SQL must differ (a trigger). Each missing migration is applied in
its own transaction together with its ``schema_version`` row. A database whose version
is newer than the newest file is refused (:class:`SchemaTooNew`).

This module runs them on SQLite; ``bot.storage.postgres`` on PostgreSQL."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.storage.errors import MigrationError, SchemaTooNew

MIGRATION_RE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
# The runner wraps each file in its own transaction; a file must not manage one itself.
TX_CONTROL_RE = re.compile(
    r"^\s*(COMMIT\b|ROLLBACK\b|END\s+TRANSACTION\b|BEGIN\s*;"
    r"|BEGIN\s+(TRANSACTION|IMMEDIATE|DEFERRED|EXCLUSIVE)\b)",
    re.IGNORECASE | re.MULTILINE,
)



def default_migrations_dir() -> Path:
    env = os.environ.get("BOARDROOM_MIGRATIONS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "migrations"


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    path: Path

    def sql(self, dialect: str = "sqlite") -> str:
        """The migration's SQL for a backend: its ``.<dialect>.sql`` file where it has one."""
        own = self.path.with_name(f"{self.path.stem}.{dialect}.sql")
        return (own if own.is_file() else self.path).read_text(encoding="utf-8")


def check_newest(current: int, files: list[Migration]) -> None:
    newest = files[-1].version if files else 0
    if current > newest:
        raise SchemaTooNew(
            f"the database is at schema version {current} but this boardroom knows only "
            f"up to {newest}; upgrade boardroom (or use a backup) instead of downgrading"
        )


def check_script(m: Migration, sql: str) -> None:
    if TX_CONTROL_RE.search(sql):
        raise MigrationError(
            f"migration {m.path.name} controls transactions itself; the runner does that"
        )


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
    current = await schema_version(conn)
    check_newest(current, files)
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
    )
    applied: list[int] = []
    for m in files:
        if m.version <= current or (target is not None and m.version > target):
            continue
        sql = m.sql("sqlite")
        check_script(m, sql)
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

