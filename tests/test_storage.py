"""Storage: migrations, pragmas, transactions, the append-only log."""

from __future__ import annotations

import asyncio
import contextlib
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


async def test_transaction_rolls_back_on_error(storage: Storage) -> None:
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
            raise RuntimeError("boom")
    async with storage.read() as q:
        assert await q.live_game_at(5) is None
    assert not storage.conn.in_transaction


@pytest.mark.parametrize("yields_before_cancel", range(0, 8))
async def test_a_cancelled_writer_never_leaves_a_transaction_open(
    storage: Storage, yields_before_cancel: int
) -> None:
    """A task cancelled at any point of a transaction (while BEGIN, a statement or
    COMMIT is still queued in aiosqlite's worker) leaves the connection clean: the next
    writer's BEGIN works, and the cancelled insert is either whole or absent."""

    async def writer() -> None:
        async with storage.transaction() as tx:
            await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)

    task = asyncio.create_task(writer())
    for _ in range(yields_before_cancel):
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    async with storage.transaction() as tx:  # "cannot start a transaction within a transaction" before
        await tx.insert_game("fake", {}, guild_id=1, channel_id=6, thread_id=None, host_id=1, at=0)
    async with storage.read() as q:
        assert await q.live_game_at(6) is not None
        assert len(await q.games_with_status("lobby")) in (1, 2)
    assert not storage.conn.in_transaction


async def test_readers_never_see_uncommitted_rows(storage: Storage) -> None:
    started = asyncio.Event()
    seen: list[object] = []

    async def writer() -> None:
        with pytest.raises(RuntimeError):
            async with storage.transaction() as tx:
                await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
                started.set()
                await asyncio.sleep(0.05)
                raise RuntimeError("crash before commit")

    async def reader() -> None:
        await started.wait()
        async with storage.read() as q:
            seen.append(await q.live_game_at(5))

    await asyncio.gather(writer(), reader())
    assert seen == [None]


async def test_concurrent_transactions_are_serialized(storage: Storage) -> None:
    async def add(channel: int) -> None:
        async with storage.transaction() as tx:
            await tx.insert_game("fake", {}, guild_id=1, channel_id=channel, thread_id=None, host_id=1, at=0)
            await asyncio.sleep(0.001)

    await asyncio.gather(*(add(c) for c in range(20)))
    async with storage.read() as q:
        assert len(await q.games_with_status("lobby")) == 20


async def test_action_log_is_append_only_and_unique(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
        await tx.insert_seat(gid, "ann", 0, 1, None, "Ann")
        await tx.append_action(gid, 1, "ann", {"pick": 1}, "player", 0)
    with pytest.raises(sqlite3.IntegrityError):
        async with storage.transaction() as tx:
            await tx.append_action(gid, 1, "ann", {"pick": 2}, "player", 0)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        async with storage.transaction() as tx:
            await tx.conn.execute("UPDATE actions SET action = '{}' WHERE game_id = ?", (gid,))
    async with storage.read() as q:
        rows = await q.actions(gid)
    assert [(r.seq, r.action) for r in rows] == [(1, {"pick": 1})]


async def test_one_live_game_per_place(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
        # a game in a thread of the same channel is another place
        await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=6, host_id=1, at=0)
    with pytest.raises(sqlite3.IntegrityError):
        async with storage.transaction() as tx:
            await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=2, at=0)
    async with storage.transaction() as tx:
        await tx.update_game(gid, 1, status="finished")
        await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=2, at=0)


async def test_snapshots_and_pruning(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
        for v in (0, 10, 20, 30):
            await tx.put_snapshot(gid, v, f"state{v}", 0)
        await tx.prune_snapshots(gid, 2)
    async with storage.read() as q:
        assert await q.latest_snapshot(gid, 100) == (30, "state30")
        assert await q.latest_snapshot(gid, 25) == (20, "state20")
        assert await q.latest_snapshot(gid, 15) is None


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


async def test_reminders_cascade_with_waiting(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
        await tx.update_game(gid, 0, status="active")
        await tx.insert_seat(gid, "ann", 0, 1, None, "Ann")
        await tx.put_waiting(gid, "ann", 0, 100.0)
        await tx.put_reminder(gid, "ann", "nudge", 200.0)
    assert [r.due_at for r in await storage.all_reminders()] == [200.0]
    assert await storage.mark_reminder_sent(gid, "ann", "nudge", 201.0, 300.0)
    r = await storage.reminder(gid, "ann", "nudge")
    assert r is not None and (r.sent_at, r.count, r.due_at) == (201.0, 1, 300.0)
    async with storage.transaction() as tx:
        await tx.delete_waiting(gid, "ann")
    assert await storage.all_reminders() == []


async def test_a_batch_of_outbox_rows_is_written_in_order_with_its_nonces(storage: Storage) -> None:
    """``put_outbox_rows`` (two statements per batch) writes what ``put_outbox`` writes
    row by row: the rows in order, each with the nonce ``br<id>``; the next batch number
    and a batch's rows are found by the outbox's batch index (migration 0008), not by
    reading the whole outbox."""
    async with storage.transaction() as tx:
        gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=5, thread_id=None, host_id=1, at=0)
        one = await tx.next_outbox_batch()
        await tx.put_outbox(gid, one, "post", "place", {"content": "first"}, ordered=True, at=1)
        two = await tx.next_outbox_batch()
        rows = [("post", "place", {"content": "a"}, True), ("dm", "7", {"content": "b"}, False),
                ("edit", "status", {"content": "c"}, True)]
        await tx.put_outbox_rows(gid, two, rows, at=2, not_before=9)
        assert await tx.next_outbox_batch() == two + 1 == one + 2
    async with storage.read() as q:
        got = await q.pending_outbox(gid)
    assert [(r.batch, r.kind, r.target, r.payload["content"], r.ordered) for r in got] == [
        (one, "post", "place", "first", True), (two, "post", "place", "a", True),
        (two, "dm", "7", "b", False), (two, "edit", "status", "c", True),
    ]
    assert [r.nonce for r in got] == [f"br{r.id}" for r in got]
    assert [r.next_try_at for r in got[1:]] == [9, 9, 9]
    for sql in ("SELECT coalesce(max(batch), 0) + 1 FROM outbox", "SELECT count(*) FROM outbox WHERE game_id = 1 AND batch = 2"):
        async with storage.conn.execute("EXPLAIN QUERY PLAN " + sql) as cur:
            plan = " ".join(str(r[-1]) for r in await cur.fetchall())
        assert "outbox_batch" in plan, plan
