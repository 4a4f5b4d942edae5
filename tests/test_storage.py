"""Storage: migrations, pragmas, transactions, the append-only log."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.storage import (
    MigrationError,
    SchemaTooNew,
    Storage,
    connect,
    default_migrations_dir,
    migrate,
    migration_files,
    schema_version,
)
from tests.app_support import storage_fixture

storage = storage_fixture("t.db")


async def schema_of(path: Path) -> list[tuple[str, str, str]]:
    conn = await connect(path)
    try:
        cur = await conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            " ORDER BY type, name"
        )
        return [tuple(r) for r in await cur.fetchall()]  # type: ignore[misc]
    finally:
        await conn.close()


async def test_pragmas(storage: Storage) -> None:
    async def one(sql: str):
        cur = await storage.conn.execute(sql)
        return (await cur.fetchone())[0]

    assert await one("PRAGMA journal_mode") == "wal"
    assert await one("PRAGMA synchronous") == 1  # NORMAL
    assert await one("PRAGMA foreign_keys") == 1
    assert await one("PRAGMA busy_timeout") == 5000


async def test_migrate_from_empty_is_idempotent(tmp_path: Path) -> None:
    files = migration_files()
    assert [m.version for m in files] == list(range(1, len(files) + 1))
    conn = await connect(tmp_path / "m.db")
    try:
        assert await migrate(conn) == [m.version for m in files]
        assert await schema_version(conn) == files[-1].version
        assert await migrate(conn) == []
        cur = await conn.execute("SELECT version, name FROM schema_version ORDER BY version")
        assert [tuple(r) for r in await cur.fetchall()] == [(m.version, m.name) for m in files]
    finally:
        await conn.close()


def _with_extra(tmp_path: Path, extra: dict[str, str]) -> Path:
    d = tmp_path / "migrations"
    shutil.copytree(default_migrations_dir(), d)
    for name, sql in extra.items():
        (d / name).write_text(sql)
    return d


async def _migrations_from_each_version(tmp_path: Path, directory: Path) -> None:
    files = migration_files(directory)
    fresh = tmp_path / "fresh.db"
    conn = await connect(fresh)
    await migrate(conn, directory)
    await conn.close()
    want = await schema_of(fresh)
    for start in range(0, len(files)):
        path = tmp_path / f"from{start}.db"
        conn = await connect(path)
        try:
            first = await migrate(conn, directory, target=start)
            assert first == list(range(1, start + 1))
            assert await schema_version(conn) == start
            rest = await migrate(conn, directory)
            assert rest == list(range(start + 1, len(files) + 1))
        finally:
            await conn.close()
        assert await schema_of(path) == want


async def test_migrations_from_each_earlier_version(tmp_path: Path) -> None:
    await _migrations_from_each_version(tmp_path, default_migrations_dir())


async def test_migrations_from_each_earlier_version_with_a_later_file(tmp_path: Path) -> None:
    n = len(migration_files()) + 1
    d = _with_extra(tmp_path, {f"{n:04d}_extra.sql": "ALTER TABLE games ADD COLUMN title TEXT;"})
    await _migrations_from_each_version(tmp_path, d)


async def test_a_failing_migration_changes_nothing(tmp_path: Path) -> None:
    n = len(migration_files()) + 1
    d = _with_extra(
        tmp_path,
        {f"{n:04d}_broken.sql": "CREATE TABLE half (x INTEGER);\nTHIS IS NOT SQL;"},
    )
    conn = await connect(tmp_path / "b.db")
    try:
        await migrate(conn, default_migrations_dir())
        with pytest.raises(MigrationError, match="broken"):
            await migrate(conn, d)
        assert await schema_version(conn) == n - 1
        cur = await conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half'")
        assert (await cur.fetchone())[0] == 0
        assert not conn.in_transaction
    finally:
        await conn.close()


async def test_a_migration_may_not_commit_by_itself(tmp_path: Path) -> None:
    n = len(migration_files()) + 1
    d = _with_extra(tmp_path, {f"{n:04d}_commits.sql": "CREATE TABLE t (x);\nCOMMIT;\n"})
    conn = await connect(tmp_path / "c.db")
    try:
        with pytest.raises(MigrationError, match="controls transactions"):
            await migrate(conn, d)
        assert await schema_version(conn) == n - 1  # the earlier files were applied
    finally:
        await conn.close()


async def test_badly_numbered_migrations_are_refused(tmp_path: Path) -> None:
    last = migration_files()[-1].version  # one number skipped after the newest
    d = _with_extra(tmp_path, {f"{last + 2:04d}_gap.sql": "SELECT 1;"})
    with pytest.raises(MigrationError, match="numbered"):
        migration_files(d)


async def test_a_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    s = await Storage.open(path)
    async with s.transaction() as tx:
        await tx.conn.execute("INSERT INTO schema_version VALUES (999, 'future', 0)")
    await s.close()
    with pytest.raises(SchemaTooNew, match="999"):
        await Storage.open(path)


async def test_seat_positions_close_gaps(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
        for i, name in enumerate(["a", "b", "c"]):
            await tx.insert_seat(gid, name, i, 10 + i, None, name)
        await tx.delete_seat(gid, "a")
        seats = await tx.seats(gid)
    assert [(s.seat, s.position) for s in seats] == [("b", 0), ("c", 1)]


async def test_seat_is_human_xor_ai(storage: Storage) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        async with storage.transaction() as tx:
            gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
            await tx.insert_seat(gid, "x", 0, 10, "bot", "x")


async def test_the_outbox_batches_are_found_by_their_index(storage: Storage) -> None:
    """The next batch number and a batch's rows are found by the outbox's batch index
    (migration 0008), not by reading the whole outbox (SQLite's query plan; the rows
    themselves: tests/test_storage_contract.py, on both backends)."""
    for sql in ("SELECT coalesce(max(batch), 0) + 1 FROM outbox", "SELECT count(*) FROM outbox WHERE game_id = 1 AND batch = 2"):
        async with storage.conn.execute("EXPLAIN QUERY PLAN " + sql) as cur:
            plan = " ".join(str(r[-1]) for r in await cur.fetchall())
        assert "outbox_batch" in plan, plan
