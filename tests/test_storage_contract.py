"""The storage contract on both backends (issue 37): every storage behaviour, crash and
retry, one suite, run on SQLite and on PostgreSQL (the ``postgres`` marker: the database
of ``BOARDROOM_TEST_DB``, a schema of its own per test).

The behaviours of tests/test_storage.py are written here without SQLite's own error
classes; the crash-and-retry tests of tests/test_outbox_rows.py and the two-process
races of tests/test_two_apps.py are imported as they are and run with this module's
``storage`` and ``two`` fixtures, once per backend. Last, what only the two backends
together can show: a game exported from PostgreSQL is byte-identical to the same game
on SQLite, and ``boardroom migrate --from x.db --to postgresql://...`` copies it."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot import cli
from bot.app import App
from bot.storage import INTEGRITY_ERRORS, Storage, StorageUnavailable
from bot.storage.outbox import OUTBOX_ROWS_AT_ONCE
from tests.fakegame import FakeClock, lobby, new_app
from tests.pg_support import fresh_database, pg_test_url
from tests.test_outbox_rows import (  # noqa: F401 (collected here, on both backends)
    test_a_crash_right_after_the_commit_keeps_the_actions_own_rows,
    test_a_status_post_still_on_its_way_is_edited_after_it_never_posted_twice,
    test_dm_every_turn_is_a_players_choice_default_off,
    test_rows_are_written_with_the_action_and_due_once_the_chain_ends,
)
from tests.test_two_apps import (  # noqa: F401
    logged,
    test_a_move_logged_first_by_another_process_is_decided_again,
    test_a_move_that_keeps_losing_the_race_is_told_to_try_again,
    test_an_ai_answer_another_process_gave_first_is_not_given_twice,
    test_two_apps_moving_at_once_log_every_move_once,
)

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@contextlib.asynccontextmanager
async def database(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    if backend == "sqlite":
        yield str(tmp_path / "contract.db")
    else:
        async with fresh_database() as url:
            yield url


@pytest.fixture(params=BACKENDS)
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with database(request.param, tmp_path) as target:
        yield target


@pytest.fixture
async def storage(db: str) -> AsyncIterator[Storage]:
    s = await Storage.open(db)
    yield s
    await s.close()


@pytest.fixture
async def two(db: str) -> AsyncIterator[tuple[App, App]]:
    """Two processes' storages on one database (their own connections)."""
    a, b = await Storage.open(db), await Storage.open(db)
    try:
        yield await new_app(a), await new_app(b)
    finally:
        await a.close()
        await b.close()


async def add_game(tx: Any, channel: int = 5, thread: int | None = None, host: int = 1) -> int:
    return int(await tx.insert_game("fake", {}, guild_id=1, channel_id=channel, thread_id=thread, host_id=host, at=0))


async def test_the_backend_is_the_one_asked_for(storage: Storage, db: str) -> None:
    assert storage.backend == ("postgresql" if db.startswith("postgresql://") else "sqlite")


async def test_transaction_rolls_back_on_error(storage: Storage) -> None:
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            await add_game(tx)
            raise RuntimeError("boom")
    async with storage.read() as q:
        assert await q.live_game_at(5) is None
    async with storage.transaction() as tx:  # the connection is clean: the next BEGIN works
        await add_game(tx)


@pytest.mark.parametrize("yields_before_cancel", [0, 1, 2, 4, 7])
async def test_a_cancelled_writer_never_leaves_a_transaction_open(storage: Storage, yields_before_cancel: int) -> None:
    async def writer() -> None:
        async with storage.transaction() as tx:
            await add_game(tx)

    task = asyncio.create_task(writer())
    for _ in range(yields_before_cancel):
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    async with storage.transaction() as tx:
        await add_game(tx, channel=6)
    async with storage.read() as q:
        assert await q.live_game_at(6) is not None
        assert len(await q.games_with_status("lobby")) in (1, 2)  # the cancelled one whole or absent


async def test_readers_never_see_uncommitted_rows(storage: Storage) -> None:
    started = asyncio.Event()
    seen: list[object] = []

    async def writer() -> None:
        with pytest.raises(RuntimeError):
            async with storage.transaction() as tx:
                await add_game(tx)
                await tx.games_with_status("lobby")  # the insert is sent
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
            await add_game(tx, channel=channel)
            await asyncio.sleep(0.001)

    await asyncio.gather(*(add(c) for c in range(20)))
    async with storage.read() as q:
        assert len(await q.games_with_status("lobby")) == 20


async def test_action_log_is_append_only_and_unique(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await add_game(tx)
        await tx.insert_seat(gid, "ann", 0, 1, None, "Ann")
        await tx.append_action(gid, 1, "ann", {"pick": 1}, "player", 0)
    with pytest.raises(INTEGRITY_ERRORS):
        async with storage.transaction() as tx:
            await tx.append_action(gid, 1, "ann", {"pick": 2}, "player", 0)
    with pytest.raises(Exception, match="append-only"):
        async with storage.transaction() as tx:
            await tx._write("UPDATE actions SET action = '{}' WHERE game_id = ?", (gid,))
    async with storage.read() as q:
        rows = await q.actions(gid)
    assert [(r.seq, r.action) for r in rows] == [(1, {"pick": 1})]


async def test_one_live_game_per_place(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await add_game(tx)
        await add_game(tx, thread=6)  # a thread of the same channel is another place
    with pytest.raises(INTEGRITY_ERRORS):
        async with storage.transaction() as tx:
            await add_game(tx, host=2)
    async with storage.transaction() as tx:
        await tx.update_game(gid, 1, status="finished")
        await add_game(tx, host=2)


async def test_snapshots_and_pruning(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await add_game(tx)
        for v in (0, 10, 20, 30):
            await tx.put_snapshot(gid, v, f"state{v}", 0)
        await tx.put_snapshot(gid, 30, "state30", 0)  # written again: replaced, not doubled
        await tx.prune_snapshots(gid, 2)
    async with storage.read() as q:
        assert await q.latest_snapshot(gid, 100) == (30, "state30")
        assert await q.latest_snapshot(gid, 25) == (20, "state20")
        assert await q.latest_snapshot(gid, 15) is None


async def test_seat_positions_close_gaps_and_a_seat_is_human_xor_ai(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await add_game(tx)
        for i, name in enumerate(["a", "b", "c"]):
            await tx.insert_seat(gid, name, i, 10 + i, None, name)
        await tx.delete_seat(gid, "a")
        seats = await tx.seats(gid)
    assert [(s.seat, s.position) for s in seats] == [("b", 0), ("c", 1)]
    with pytest.raises(INTEGRITY_ERRORS):
        async with storage.transaction() as tx:
            await tx.insert_seat(gid, "x", 2, 10, "bot", "x")


async def test_reminders_cascade_with_waiting(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await add_game(tx)
        await tx.update_game(gid, 0, status="active")
        await tx.insert_seat(gid, "ann", 0, 1, None, "Ann")
        await tx.put_waiting(gid, "ann", 0, 100.0)
        await tx.put_reminder(gid, "ann", "nudge", 200.0)
    assert [r.due_at for r in await storage.all_reminders()] == [200.0]
    assert await storage.due_reminders(250.0, 10) != [] and await storage.earliest_reminder() == 200.0
    assert await storage.mark_reminder_sent(gid, "ann", "nudge", 201.0, 300.0)
    r = await storage.reminder(gid, "ann", "nudge")
    assert r is not None and (r.sent_at, r.count, r.due_at) == (201.0, 1, 300.0)
    async with storage.transaction() as tx:
        await tx.delete_waiting(gid, "ann")
    assert await storage.all_reminders() == []


async def test_what_composing_reads_is_read_ahead_with_the_actions_first_read(storage: Storage) -> None:
    """An action reads what composing its posts needs with its first read, one trip fewer
    (issue 37: each trip is a round trip to PostgreSQL); the waits and reminders it writes
    in between are taken into account, and a write the read ahead cannot account for
    (the outbox, a reminder deleted by kind) makes it read again."""
    async with storage.transaction() as tx:
        gid = await add_game(tx)
        await tx.update_game(gid, 0, status="active")
        for i, name in enumerate(["ann", "bob", "cid"]):
            await tx.insert_seat(gid, name, i, 10 + i, None, name)
        for name in ("ann", "bob"):
            await tx.put_waiting(gid, name, 0, 100.0)
            await tx.put_reminder(gid, name, "nudge", 200.0 if name == "ann" else 150.0)
        await tx.put_reminder(gid, "ann", "takeover", 900.0)
        await tx.put_outbox_rows(gid, 4, [("post", "place", {"content": "x"}, True)], at=0)
    assert await storage.mark_reminder_sent(gid, "ann", "nudge", 201.0, 300.0)  # sent once
    trips = counting_trips(storage)
    async with storage.transaction() as tx:
        tx.compose_reads_ahead(gid)
        assert [w.seat for w in await tx.waiting_of(gid)] == ["ann", "bob"]  # the first read
        await tx.delete_waiting(gid, "bob")  # its reminder goes with it
        await tx.put_waiting(gid, "cid", 1, 400.0, absent=True)
        await tx.put_reminder(gid, "cid", "nudge", 250.0)
        await tx.put_reminder(gid, "ann", "nudge", 350.0)  # put again: sent once, still
        before = len(trips)
        has_status, reminders, every, batch = await tx.compose_reads(gid)
        assert len(trips) == before  # no trip of its own
    assert (has_status, every, batch) == (False, set(), 5)
    assert [(r.seat, r.kind, r.due_at, r.sent_at, r.count) for r in reminders] == [
        ("cid", "nudge", 250.0, None, 0), ("ann", "nudge", 350.0, 201.0, 1), ("ann", "takeover", 900.0, None, 0),
    ]
    async with storage.transaction() as tx:  # what the database holds now: the same
        assert (await tx.compose_reads(gid))[1] == reminders
    async with storage.transaction() as tx:
        tx.compose_reads_ahead(gid)
        await tx.waiting_of(gid)
        await tx.put_outbox_rows(gid, 5, [("post", "place", {"content": "y"}, True)], at=0)
        before = len(trips)
        assert (await tx.compose_reads(gid))[3] == 6  # the next batch: read again
        assert len(trips) == before + 1
    async with storage.transaction() as tx:
        tx.compose_reads_ahead(gid)
        await tx.waiting_of(gid)
        await tx.delete_reminders(gid, "takeover")
        before = len(trips)
        reminders = (await tx.compose_reads(gid))[1]  # read again
        assert len(trips) == before + 1
    assert [(r.seat, r.kind) for r in reminders] == [("cid", "nudge"), ("ann", "nudge")]


async def test_an_action_is_two_trips_to_the_database_on_an_older_prompt_too(storage: Storage) -> None:
    """A move is two trips (issue 37: each a round trip to PostgreSQL): its log row with
    what it reads, then the rest with its COMMIT. A move on an older prompt (the others
    moved since: a simultaneous decision) is judged with the first of them, under the
    game's lock; one already made is refused there, nothing written."""
    app = await new_app(storage, FakeClock())
    info = await lobby(app, humans=3)
    await app.start(info.id, 1, seed=2)
    prompt = (await app.info(info.id)).version
    trips = counting_trips(storage)
    for user in (1, 2, 3):  # each on the prompt of the round's start
        before = len(trips)
        assert (await app.act(info.id, user, None, {"pick": user}, prompt)).status == "applied"
        assert len(trips) - before == 2, user
    again = await app.act(info.id, 2, None, {"pick": 2}, prompt)  # a double click, late
    assert again.status == "already"
    assert await logged(app, info.id) == [(1, "ann", {"pick": 1}), (2, "bob", {"pick": 2}), (3, "cid", {"pick": 3})]
    for user in (1, 2, 3):  # the last ends the round: a secret pick asked of every seat anew
        before = len(trips)
        out = await app.act(info.id, user, None, {"take": 1}, (await app.info(info.id)).version)
        assert out.status == "applied" and len(trips) - before == 2, user
    assert out.round_changed
    async with storage.read() as q:
        assert await q.round_start(info.id) == (2, {})  # (kept at the round's end: its start read ahead)


def counting_trips(storage: Storage) -> list[str]:
    """Each trip of ``storage``'s link to its database (a batch with its reads, one
    statement, a row count, a new id), counted: a list that grows."""
    trips: list[str] = []

    def counted(name: str, call: Any) -> Any:
        async def trip(*args: Any, **kw: Any) -> Any:
            trips.append(name)
            return await call(*args, **kw)
        return trip

    for name in ("run", "execute", "rowcount", "insert_id"):
        setattr(storage.link, name, counted(name, getattr(storage.link, name)))
    return trips


async def test_a_batch_of_outbox_rows_is_written_in_order_with_its_nonces(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await add_game(tx)
        one = await tx.next_outbox_batch()
        first = await tx.put_outbox(gid, one, "post", "place", {"content": "first"}, ordered=True, at=1)
        two = await tx.next_outbox_batch()
        rows = [("post", "place", {"content": "a"}, True), ("dm", "7", {"content": "b"}, False),
                ("edit", "status", {"content": "c"}, True), ("sync", "place", {"version": 3}, True)]
        await tx.put_outbox_rows(gid, two, rows, at=2, not_before=9)
        assert await tx.next_outbox_batch() == two + 1 == one + 2
        await tx.cover_syncs(gid, 3)  # the sync marker of version 3 is done
    async with storage.read() as q:
        got = await q.pending_outbox(gid)
    assert [(r.batch, r.kind, r.target, r.payload["content"], r.ordered) for r in got] == [
        (one, "post", "place", "first", True), (two, "post", "place", "a", True),
        (two, "dm", "7", "b", False), (two, "edit", "status", "c", True),
    ]
    assert got[0].id == first and [r.nonce for r in got] == [f"br{r.id}" for r in got]
    assert [r.next_try_at for r in got[1:]] == [9, 9, 9]
    async with storage.transaction() as tx:
        assert await tx.release_held_batches() == 3
        await tx.mark_outbox(first, "delivered", message_id=99)
        assert [r.id for r in await tx.pending_outbox(gid)] == [r.id for r in got[1:]]


async def test_a_long_batch_of_outbox_rows_keeps_its_order_nonces_and_times(storage: Storage) -> None:
    """A batch longer than one statement's rows where the backend writes several rows in
    one (PostgreSQL: ``OUTBOX_ROWS_AT_ONCE``), beside another game's batch written in the
    same transaction: every row in the order given, ids growing, each nonce its own id's,
    each row's kind, target, payload, order flag and due time its own."""
    n = OUTBOX_ROWS_AT_ONCE * 2 + 3
    rows = [("dm" if i % 3 else "post", str(100 + i), {"content": f'row {i} "quoted" \\ %s ?', **(
        {"settle": True} if i % 5 == 0 else {})}, i % 2 == 0) for i in range(n)]
    async with storage.transaction() as tx:
        gid, other = await add_game(tx), await add_game(tx, channel=6)
        batch = await tx.next_outbox_batch()
        await tx.put_outbox_rows(gid, batch, rows, at=10, not_before=11, settle=4)
        await tx.put_outbox_rows(other, batch + 1, rows[:2], at=20)
    async with storage.read() as q:
        got, theirs = await q.pending_outbox(gid), await q.pending_outbox(other)
    assert [(r.game_id, r.batch, r.kind, r.target, r.payload, r.ordered) for r in got] == [
        (gid, batch, k, t, p, o) for k, t, p, o in rows]
    assert [r.next_try_at for r in got] == [14 if i % 5 == 0 else 11 for i in range(n)]
    assert [r.created_at for r in got] == [10] * n
    ids = [r.id for r in got]
    assert ids == sorted(ids) and len(set(ids)) == n
    assert [r.nonce for r in got + theirs] == [f"br{r.id}" for r in got + theirs]
    assert [(r.batch, r.target) for r in theirs] == [(batch + 1, "100"), (batch + 1, "101")]
    assert min(r.id for r in theirs) > max(ids)


async def test_notices_ratings_and_vacations(storage: Storage) -> None:
    async with storage.transaction() as tx:
        gid = await add_game(tx)
        await tx.insert_seat(gid, "ann", 0, 1, None, "Ann")
        assert await tx.tell_once(gid, "ann", "last:round 1") and not await tx.tell_once(gid, "ann", "last:round 1")
        assert await tx.first_asked(gid, "ann", "round 1", 5.0) == 5.0
        assert await tx.first_asked(gid, "ann", "round 1", 9.0) == 5.0
        assert await tx.mark_rated(gid, 1.0) and not await tx.mark_rated(gid, 2.0)
        await tx.put_rating(1, "fake", 25.0, 8.0)
        await tx.put_rating(1, "fake", 26.0, 7.0)
        await tx.put_away(1, 0.0, 10.0, "{}")
        await tx.put_away(1, 0.0, 20.0, "{}")
        await tx.put_stage(gid, 1, "pick")
        await tx.put_user_home(1, hidden=True, notify="dm")
        assert await tx.ratings("fake") == {1: (26.0, 7.0, 2)}
        assert await tx.away_of([1]) == {1: (0.0, 20.0, "{}")}
        assert await tx.user_home(1) == (True, "dm", None, None)
        assert await tx.hidden_users([1, 2]) == {1}


@pytest.mark.postgres
async def test_a_whole_game_exports_byte_identical_on_both_backends(tmp_path: Path) -> None:
    """The same seed and actions give the same export and replay on SQLite and PostgreSQL."""
    exports = []
    for backend in ("sqlite", "postgres"):
        async with database(backend, tmp_path) as target:
            storage = await Storage.open(target)
            try:
                app = await new_app(storage, FakeClock())
                info = await lobby(app, humans=2, bots=1)
                await app.start(info.id, 1, seed=11)
                for u, action in ((1, {"pick": 1}), (2, {"pick": 2})):
                    await app.act(info.id, u, None, action, (await app.info(info.id)).version)
                exports.append(json.dumps(await app.export(info.id, with_seed=True), sort_keys=True))
            finally:
                await storage.close()
    assert exports[0] == exports[1] and '"seq": 3' in exports[0]


@pytest.mark.postgres
async def test_migrate_copies_a_sqlite_database_into_postgresql(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "boardroom.db"
    storage = await Storage.open(source)
    app = await new_app(storage, FakeClock())
    info = await lobby(app, humans=2, bots=1)
    await app.start(info.id, 1, seed=5)
    await app.act(info.id, 1, None, {"pick": 1}, (await app.info(info.id)).version)
    before = json.dumps(await app.export(info.id, with_seed=True), sort_keys=True)
    await storage.close()
    async with fresh_database() as url:
        assert await asyncio.to_thread(cli.main, ["migrate", "--from", str(source), "--to", url]) == 0
        assert "1 game(s)" in capsys.readouterr().out
        copied = await Storage.open(url)
        try:
            moved = await new_app(copied, FakeClock())
            assert json.dumps(await moved.export(info.id, with_seed=True), sort_keys=True) == before
            # the copy goes on: the next game gets the next id, and a move is logged
            other = await lobby(moved, humans=2, channel=200)
            assert other.id == info.id + 1
            out = await moved.act(info.id, 2, None, {"pick": 2}, (await moved.info(info.id)).version)
            assert out.status == "applied"
        finally:
            await copied.close()
        # a second copy into the database that now holds games is refused, nothing changed
        assert await asyncio.to_thread(cli.main, ["migrate", "--from", str(source), "--to", url]) == 1
        assert "holds 2 game(s) already" in capsys.readouterr().err


async def test_a_double_click_hitting_two_processes_is_applied_once(two: tuple[App, App]) -> None:
    """The same click reaches two processes at once, many times over (a game each): one
    applies it, the other answers "already" (or, having lost the race, is told to try
    again); the log holds it once. On PostgreSQL the game's lock (pg_advisory_xact_lock)
    makes the second wait for the first, then the version check refuses the double."""
    one, other = two
    doubled = 0
    for n in range(40):
        info = await lobby(one, humans=2, channel=1000 + n)
        await one.start(info.id, 1, seed=n)
        await other.info(info.id)  # both processes know the game
        outs = await asyncio.gather(
            one.act(info.id, 1, None, {"pick": 1}, 0), other.act(info.id, 1, None, {"pick": 1}, 0),
            return_exceptions=True,
        )
        statuses = sorted(o.status if not isinstance(o, BaseException) else type(o).__name__ for o in outs)
        assert statuses in (["already", "applied"], ["Raced", "applied"]), statuses
        rows = await logged(one, info.id)
        doubled += len(rows) - 1
        assert [(seq, seat) for seq, seat, _a in rows] == [(1, "ann")]
    assert doubled == 0


@pytest.mark.postgres
def test_a_wrong_url_or_a_database_that_is_down_gets_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    """No stack trace, no password: the command stops with one line that names the
    database (its password hidden) and why."""
    down = "postgresql://boardroom:s3cret@127.0.0.1:1/boardroom"  # nothing listens on port 1
    assert cli.main(["migrate", "--db", down]) == 1
    err = capsys.readouterr().err
    assert "cannot connect to PostgreSQL at postgresql://boardroom:***@127.0.0.1:1/boardroom" in err
    assert "s3cret" not in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert cli.main(["export", "--db", down, "1"]) == 1
    assert "s3cret" not in capsys.readouterr().err
    missing = pg_test_url().rsplit("/", 1)[0] + "/no_such_database"
    assert cli.main(["migrate", "--db", missing]) == 1
    err = capsys.readouterr().err
    assert "cannot connect to PostgreSQL" in err and "no_such_database" in err


@pytest.mark.postgres
async def test_a_connection_lost_mid_game_refuses_that_move_and_loses_nothing() -> None:
    """The server ends the bot's connection (a restart, a failover): the move of that
    moment is refused as "cannot save right now" (nothing half-written), the next one
    goes through on a new connection, and the log holds every move once."""
    async with fresh_database() as url:
        storage = await Storage.open(url)
        try:
            app = await new_app(storage, FakeClock())
            info = await lobby(app, humans=3)
            await app.start(info.id, 1, seed=3)
            assert (await app.act(info.id, 1, None, {"pick": 1}, 0)).status == "applied"
            cur = await storage.conn.execute("SELECT pg_backend_pid()")
            pid = (await cur.fetchone())[0]
            async with await psycopg.AsyncConnection.connect(pg_test_url(), autocommit=True) as admin:
                await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            with pytest.raises(StorageUnavailable, match="cannot save right now"):
                await app.act(info.id, 2, None, {"pick": 2}, 0)
            out = await app.act(info.id, 2, None, {"pick": 2}, 0)  # tried again: a new connection
            assert out.status == "applied"
            assert await logged(app, info.id) == [(1, "ann", {"pick": 1}), (2, "bob", {"pick": 2})]
        finally:
            await storage.close()
