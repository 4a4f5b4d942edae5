"""The PostgreSQL link's one trip (issue 37: ``bot.storage.postgres.pipeline_trip``):
a batch of statements and queries sent together, each statement prepared on the server
once per connection and per parameter types, the first error raised after every result
is read, and the connection usable again after it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import psycopg
import pytest

from bot.storage import Storage
from bot.storage.postgres import PREPARED, ROWS_AT_ONCE, PgLink, rows_together
from tests.pg_support import fresh_database

pytestmark = pytest.mark.postgres


@pytest.fixture
async def link() -> AsyncIterator[PgLink]:
    async with fresh_database() as url:
        conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
        await conn.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, x DOUBLE PRECISION, s TEXT)")
        out = PgLink()
        out.conn = conn
        try:
            yield out
        finally:
            await conn.close()


async def waits_on_a_lock(other: psycopg.AsyncConnection[Any], pid: int) -> None:
    """Wait (seen from ``other``) until the server process ``pid`` waits on a lock."""
    for _ in range(500):
        cur = await other.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,))
        if (await cur.fetchone() or [None])[0] == "Lock":
            return
        await asyncio.sleep(0.01)
    pytest.fail("the trip never reached the lock")


async def test_a_batch_and_its_queries_in_one_trip_whatever_the_values(link: PgLink) -> None:
    """One statement with values psycopg sends as different types (a small int, a big
    one, a float, NULL): each kind is prepared apart, and every row comes back as given."""
    insert = "INSERT INTO t (id, x, s) VALUES (?, ?, ?)"
    rows = await link.run(
        [("BEGIN", (), False), (insert, [(1, 1.5, "a"), (2**40, 2, None), (3, None, "it's 100%")], True)],
        [("SELECT id, x, s FROM t WHERE id >= ? ORDER BY id", (0,)), ("SELECT count(*) FROM t WHERE id = ?", (2**40,))],
    )
    await link.run([("COMMIT", (), False)], [])
    assert rows == [[(1, 1.5, "a"), (3, None, "it's 100%"), (2**40, 2.0, None)], [(1,)]]
    # the statements were prepared on the server once for each set of types, and are reused
    assert link.conn is not None
    names = dict(PREPARED[link.conn].names)
    assert len(names) >= 2
    again = await link.run([], [("SELECT id, x, s FROM t WHERE id >= ? ORDER BY id", (2,))])
    assert again == [[(3, None, "it's 100%"), (2**40, 2.0, None)]]
    assert PREPARED[link.conn].names == names  # nothing new prepared
    cur = await link.conn.execute("SELECT count(*) FROM pg_prepared_statements WHERE name LIKE '\\_br\\_%'")
    assert (await cur.fetchone() or [0])[0] == len(names)


async def test_an_error_in_the_middle_is_raised_and_nothing_after_it_runs(link: PgLink) -> None:
    """A unique key refused in the middle of a trip: its own error class (the app's
    "another process logged it first"), the statements after it not run, the transaction
    rolled back, and the next trip works on the same connection."""
    await link.run([("INSERT INTO t (id) VALUES (?)", (1,), False)], [])
    with pytest.raises(psycopg.IntegrityError):
        await link.run(
            [("BEGIN", (), False), ("INSERT INTO t (id) VALUES (?)", (2,), False),
             ("INSERT INTO t (id) VALUES (?)", (1,), False), ("INSERT INTO t (id) VALUES (?)", (3,), False)],
            [("SELECT count(*) FROM t", ())],
        )
    await link.run([("ROLLBACK", (), False)], [])
    assert await link.run([], [("SELECT id FROM t ORDER BY id", ()), ("SELECT 1", ())]) == [[(1,)], [(1,)]]


async def test_a_rolled_back_transaction_keeps_the_statements_prepared_for_the_next() -> None:
    """A transaction rolled back by the bot (an error in its own code) after statements
    ran many times: psycopg, seeing a ROLLBACK, would deallocate every statement the
    connection prepared (``DEALLOCATE ALL``), the link's as well, and the next trip
    would fail ("prepared statement does not exist")."""
    async with fresh_database() as url:
        storage = await Storage.open(url)
        try:
            for n in range(8):  # lone statements and batches, each run enough to be prepared
                async with storage.transaction() as tx:
                    await tx.insert_game("fake", {}, guild_id=1, channel_id=100 + n, thread_id=None, host_id=1, at=0)
                assert (await storage.game_row(n + 1)) is not None
            with pytest.raises(RuntimeError):
                async with storage.transaction() as tx:
                    await tx.game_row(1)
                    raise RuntimeError("the bot's own error")
            for n in range(3):
                async with storage.transaction() as tx:
                    await tx.insert_game("fake", {}, guild_id=1, channel_id=200 + n, thread_id=None, host_id=1, at=0)
                    assert (await tx.game_row(1)) is not None
        finally:
            await storage.close()


async def test_a_caller_cancelled_while_the_server_works_leaves_the_trip_to_end_first(link: PgLink) -> None:
    """A move cancelled while its trip waits on the server (here: on a game's lock that
    another connection holds): the caller is let go at once, the trip's results are
    still read to their end, and the connection's next statement (the transaction's
    ROLLBACK) waits until then; after it nothing of the trip is left and the connection
    works as before."""
    assert link.conn is not None
    pid = link.conn.info.backend_pid
    async with await psycopg.AsyncConnection.connect(link.conn.info.dsn, autocommit=True) as other:
        await other.execute("SELECT pg_advisory_lock(42)")
        trip = asyncio.create_task(link.run(
            [("BEGIN", (), False), ("INSERT INTO t (id) VALUES (?)", (1,), False)],
            [("SELECT pg_advisory_xact_lock(?)", (42,)), ("SELECT count(*) FROM t", ())],
        ))
        await waits_on_a_lock(other, pid)
        trip.cancel()
        with pytest.raises(asyncio.CancelledError):
            await trip
        rollback = asyncio.create_task(link.conn.execute("ROLLBACK"))
        await asyncio.sleep(0.2)
        assert not rollback.done()  # the trip's answer is not in yet: the ROLLBACK waits
        cur = await other.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", (pid,))
        assert (await cur.fetchone() or [None])[0] == "Lock"  # (not asked to cancel it)
        await other.execute("SELECT pg_advisory_unlock(42)")
        await rollback
    assert await link.run([], [("SELECT count(*) FROM t", ()), ("SELECT 1", ())]) == [[(0,)], [(1,)]]
    await link.run([("INSERT INTO t (id) VALUES (?)", (1,), False)], [])
    assert await link.run([], [("SELECT id FROM t", ())]) == [[(1,)]]


async def test_a_statement_given_the_wrong_number_of_values_is_refused_before_it_is_sent(link: PgLink) -> None:
    """The link's own conversion of a statement (``converted``): one value too many or
    too few is psycopg's ProgrammingError, raised before anything is sent, so the trip's
    other statements do not run and the connection works on."""
    for sql, values in (("SELECT ? + 1", (1, 2)), ("SELECT ? + ?", (1,))):
        with pytest.raises(psycopg.ProgrammingError, match="placeholder"):
            await link.run([("INSERT INTO t (id) VALUES (?)", (5,), False)], [(sql, values)])
    assert await link.run([], [("SELECT count(*) FROM t", ()), ("SELECT ? || ?", ("100", "%"))]) == [[(0,)], [("100%",)]]


async def test_one_row_inserts_in_a_row_go_as_one_statement_with_the_same_outcome(link: PgLink) -> None:
    """INSERTs of one row each with the same text, one after another in a trip, are sent
    as one INSERT of their rows (``rows_together``; issue 37), in their order, except
    where two upserts would update one row (one statement may not: they stay apart, and
    the later one wins as before); a key taken fails the trip as the one INSERT would."""
    insert = "INSERT INTO t (id, x, s) VALUES (?, ?, ?)"
    upsert = "INSERT INTO t (id, x, s) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET x = excluded.x, s = excluded.s"
    batch = [(insert, (1, 1.0, "a")), (insert, (2, 2.0, "b")), (insert, (3, 3.0, "c")),
             (upsert, (1, 10.0, "a2")), (upsert, (4, 4.0, "d")), (upsert, (1, 11.0, "a3")), (upsert, (5, True, "e"))]
    sent = rows_together(batch)
    assert [sql.count("%s") // 3 for sql, _args in sent] == [3, 2, 2]  # the second upsert of id 1: apart
    assert sent[2][1] == (1, 11.0, "a3", 5, 1, "e")
    rows = await link.run([(sql, args, False) for sql, args in batch], [("SELECT id, x, s FROM t ORDER BY id", ())])
    assert rows == [[(1, 11.0, "a3"), (2, 2.0, "b"), (3, 3.0, "c"), (4, 4.0, "d"), (5, 1.0, "e")]]
    many = [(insert, (10 + i, float(i), str(i))) for i in range(ROWS_AT_ONCE + 3)]
    assert [sql.count("%s") // 3 for sql, _args in rows_together(many)] == [ROWS_AT_ONCE, 3]
    await link.run([(sql, args, False) for sql, args in many], [])
    assert await link.run([], [("SELECT array_agg(id ORDER BY id) FROM t WHERE id >= 10", ())]) == [
        [([10 + i for i in range(ROWS_AT_ONCE + 3)],)]]
    with pytest.raises(psycopg.IntegrityError):  # id 2 is taken: the trip fails, nothing of it stays
        await link.run([("BEGIN", (), False), (insert, (30, 0.0, "x"), False), (insert, (2, 0.0, "y"), False),
                        (insert, (31, 0.0, "z"), False)], [("SELECT 1", ())])
    await link.run([("ROLLBACK", (), False)], [])
    assert await link.run([], [("SELECT count(*) FROM t WHERE id >= 30", ())]) == [[(0,)]]
    # statements of other shapes are sent as they are, one by one
    other = [("UPDATE t SET x = ? WHERE id = ?", (0.5, 1)), ("UPDATE t SET x = ? WHERE id = ?", (0.5, 2)),
             ("INSERT INTO t (id, x, s) VALUES (?, ?, 'lit')", (40, 1.0)), ("INSERT INTO t (id, x, s) VALUES (?, ?, 'lit')", (41, 1.0))]
    assert len(rows_together(other)) == 4


async def test_closing_the_storage_waits_for_a_cancelled_callers_trip() -> None:
    """A read cancelled while the server works on it, then the storage closed: the close
    waits until the trip's answer is read, and gives the pool back a connection that is
    not in the middle of a pipeline."""
    async with fresh_database() as url:
        storage = await Storage.open(url)
        pid = storage.conn.info.backend_pid
        async with await psycopg.AsyncConnection.connect(storage.conn.info.dsn, autocommit=True) as other:
            await other.execute("SELECT pg_advisory_lock(42)")

            async def read() -> None:
                async with storage.read() as q:
                    await q._all("SELECT pg_advisory_xact_lock(?)", (42,))

            task = asyncio.create_task(read())
            await waits_on_a_lock(other, pid)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            closing = asyncio.create_task(storage.close())
            await asyncio.sleep(0.2)
            assert not closing.done()  # the trip's answer is not in yet
            await other.execute("SELECT pg_advisory_unlock(42)")
            await closing
