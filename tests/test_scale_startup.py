"""Start-up proportional to the work owed (issue 9): one query finds the games that owe
an AI move (``games.ai_owed``, written with every commit), only those are loaded, and
idle games hold no memory (locks, cache)."""

from __future__ import annotations

import asyncio
import gc
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fakegame import FakeClock, lobby, new_app

from bot.app import App
from bot.storage import Storage, connect, default_migrations_dir, migrate, migration_files
from tests.app_support import storage_fixture

storage = storage_fixture("app.db")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def owed(storage: Storage) -> list[int]:
    async with storage.read() as q:
        return await q.games_owing_ai()


async def flag(storage: Storage, game_id: int) -> int:
    async with storage.read() as q:
        async with q.conn.execute("SELECT ai_owed FROM games WHERE id = ?", (game_id,)) as cur:
            return int((await cur.fetchone())[0])


def crash_before_ai(app: App) -> None:
    async def no_ai(*args: object) -> None:
        return None

    app._run_ai = no_ai  # type: ignore[method-assign]  # "crash" between the commit and the AI


def spy_loads(app: App) -> list[int]:
    loaded: list[int] = []
    real = app._load

    async def load(info: Any) -> Any:
        loaded.append(info.id)
        return await real(info)

    app._load = load  # type: ignore[method-assign]
    return loaded


async def test_start_up_loads_only_the_games_that_owe_an_ai_move(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock)
    humans = [await lobby(app, humans=2, channel=10 + i) for i in range(3)]
    for info in humans:
        await app.start(info.id, 1, seed=1)
    caught_up = await lobby(app, humans=1, bots=1, channel=20)
    await app.start(caught_up.id, 1, seed=2)
    out = await app.act(caught_up.id, 1, None, {"pick": 1}, 1)
    await app.act(caught_up.id, 1, None, {"take": 1}, out.version)  # the bot answers at once
    late = await lobby(app, humans=1, bots=1, channel=21)
    await app.start(late.id, 1, seed=3)
    out = await app.act(late.id, 1, None, {"pick": 2}, 1)
    crash_before_ai(app)
    await app.act(late.id, 1, None, {"take": 2}, out.version)  # committed; the bot's answer is lost

    assert await owed(storage) == [late.id]
    fresh = await new_app(storage, clock)
    loaded = spy_loads(fresh)
    outs = await fresh.advance_all()
    assert [o.game_id for o in outs] == [late.id]
    assert outs[0].applied and {(a.seat, a.actor) for a in outs[0].applied} == {("bot1", "bot")}
    assert set(loaded) == {late.id}  # nobody else's state was read
    assert await owed(storage) == []  # the AI's own commit cleared the flag
    assert await fresh.advance_all() == []


async def test_owed_games_advance_side_by_side_and_one_failure_stops_none(
    storage: Storage, clock: FakeClock
) -> None:
    """Seven games owe the AI a move; start-up advances a few at a time
    (``CATCH_UP_AT_ONCE``): every game is caught up once, the outcomes come in the
    owed order, and a game whose catch-up fails leaves the others be (and its flag)."""
    from bot.app import turns

    app = await new_app(storage, clock)
    games = []
    for i in range(7):
        info = await lobby(app, humans=1, bots=1, channel=40 + i)
        await app.start(info.id, 1, seed=10 + i)
        out = await app.act(info.id, 1, None, {"pick": 1}, 1)
        crash = await new_app(storage, clock)
        crash_before_ai(crash)
        await crash.act(info.id, 1, None, {"take": 1}, out.version)
        games.append(info.id)
    assert await owed(storage) == games
    fresh = await new_app(storage, clock)
    broken = games[2]
    real, running, most = fresh.run_ai, [0], [0]

    async def run_ai(game_id: int) -> Any:
        running[0] += 1
        most[0] = max(most[0], running[0])
        try:
            await asyncio.sleep(0.01)  # a database round trip: the next game starts meanwhile
            if game_id == broken:
                raise RuntimeError("a game that cannot be advanced")
            return await real(game_id)
        finally:
            running[0] -= 1

    fresh.run_ai = run_ai  # type: ignore[method-assign]
    outs = await fresh.advance_all()
    assert [o.game_id for o in outs] == [g for g in games if g != broken]
    assert all(o.applied and {a.actor for a in o.applied} == {"bot"} for o in outs)
    assert most[0] == min(turns.CATCH_UP_AT_ONCE, len(games)) > 1
    assert await owed(storage) == [broken]


async def test_a_flag_with_nothing_owed_is_cleared_at_start_up(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock)
    info = await lobby(app, humans=2)
    await app.start(info.id, 1, seed=1)
    assert await flag(storage, info.id) == 0
    async with storage.transaction() as tx:
        await tx.update_game(info.id, clock(), ai_owed=1)  # as migration 0004 does for old games
    fresh = await new_app(storage, clock)
    assert await fresh.advance_all() == []
    assert await flag(storage, info.id) == 0 and await owed(storage) == []


async def test_a_takeover_interrupted_before_the_ai_moved_is_caught_up(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock)
    info = await lobby(app, humans=2)
    await app.start(info.id, 1, seed=1)
    crash_before_ai(app)
    await app.take_over(info.id, "bob")
    assert await owed(storage) == [info.id]
    outs = await (await new_app(storage, clock)).advance_all()
    assert [(a.seat, a.actor) for o in outs for a in o.applied] == [("bob", "takeover")]


async def test_paused_games_are_caught_up_once_resumed(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock)
    info = await lobby(app, humans=1, bots=1)
    await app.start(info.id, 1, seed=4)
    out = await app.act(info.id, 1, None, {"pick": 3}, 1)
    crash_before_ai(app)
    await app.act(info.id, 1, None, {"take": 0}, out.version)
    fresh = await new_app(storage, clock)
    await fresh.pause(info.id, 1)
    assert await owed(storage) == []  # a paused game owes nothing now ...
    assert await flag(storage, info.id) == 1  # ... but keeps its flag
    out = await fresh.resume(info.id, 1)
    assert out.applied and {a.seat for a in out.applied} == {"bot1"}
    assert await flag(storage, info.id) == 0


async def test_a_finished_game_owes_nothing(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock)
    info = await lobby(app, humans=1, bots=1)
    out = await app.start(info.id, 1, seed=5)
    while not out.over:
        p = await app.prompt(info.id, "ann")
        move = {"pick": 1} if p["kind"] == "pick" else {"take": 0}
        out = await app.act(info.id, 1, "ann", move, out.version)
    assert (await app.info(info.id)).status == "finished"
    assert await flag(storage, info.id) == 0


async def test_migration_flags_live_games_with_app_played_seats(tmp_path: Path) -> None:
    """Before 0004 nothing recorded an owed move: every active or paused game with a
    rule bot or a taken-over seat is flagged (start-up then looks once)."""
    files = migration_files()
    mine = next(m.version for m in files if m.name == "ai_owed")
    conn = await connect(tmp_path / "m.db")
    try:
        await migrate(conn, default_migrations_dir(), target=mine - 1)
        rows = {  # id: (status, seats as (seat, user_id, ai_kind, ai_takeover))
            1: ("active", [("a", 1, None, 0), ("b", None, "bot", 0)]),
            2: ("active", [("a", 1, None, 0), ("b", 2, None, 0)]),
            3: ("active", [("a", 1, None, 0), ("b", 2, None, 1)]),
            4: ("paused", [("a", 1, None, 0), ("b", None, "random", 0)]),
            5: ("finished", [("a", 1, None, 0), ("b", None, "bot", 0)]),
            6: ("active", [("a", 1, None, 0), ("s", None, "steve", 0)]),
        }
        for gid, (status, seats) in rows.items():
            await conn.execute(
                "INSERT INTO games (id, game, channel_id, host_id, status, created_at, updated_at)"
                " VALUES (?, 'fake', ?, 1, ?, 0, 0)",
                (gid, gid, status),
            )
            for pos, (seat, uid, kind, takeover) in enumerate(seats):
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, position, user_id, ai_kind, display_name, ai_takeover)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (gid, seat, pos, uid, kind, seat, takeover),
                )
        await migrate(conn, default_migrations_dir())
        async with conn.execute("SELECT id, ai_owed FROM games ORDER BY id") as cur:
            assert dict(await cur.fetchall()) == {1: 1, 2: 0, 3: 1, 4: 1, 5: 0, 6: 0}
        with pytest.raises(sqlite3.IntegrityError):
            await conn.execute("UPDATE games SET ai_owed = 2 WHERE id = 1")
    finally:
        await conn.close()


async def test_the_owed_query_reads_only_flagged_rows(storage: Storage) -> None:
    """The partial index holds only the flagged games: the query never walks the others."""
    async with storage.read() as q:
        async with q.conn.execute(
            "EXPLAIN QUERY PLAN SELECT id FROM games INDEXED BY games_ai_owed"
            " WHERE ai_owed = 1 AND status = 'active' ORDER BY id"
        ) as cur:
            plan = " ".join(str(r[-1]) for r in await cur.fetchall())
        assert "games_ai_owed" in plan and "games_status" not in plan
        async with q.conn.execute("SELECT sql FROM sqlite_master WHERE name = 'games_ai_owed'") as cur:
            (sql,) = await cur.fetchone()
    assert "WHERE ai_owed = 1 AND status = 'active'" in sql


async def test_idle_games_hold_no_lock(storage: Storage, clock: FakeClock) -> None:
    app = await new_app(storage, clock)
    games = [await lobby(app, humans=2, channel=30 + i) for i in range(5)]
    for info in games:
        await app.start(info.id, 1, seed=1)
        await app.act(info.id, 1, None, {"pick": 1}, 0)
    gc.collect()
    assert len(app._locks) == 0
    lock = app.lock(games[0].id)
    async with lock:
        assert app.lock(games[0].id) is lock  # held: everyone gets the same lock
    del lock
    assert len(app._locks) == 0


async def test_checkpoints_run_beside_the_writes_not_in_a_commit(tmp_path: Path) -> None:
    """The write connection never checkpoints (a COMMIT must not copy the WAL: that one
    move would wait); the background checkpointer copies the WAL after writes."""
    s = await Storage.open(tmp_path / "c.db")
    try:
        assert s.start_checkpoints(every=0.01)
        app = await new_app(s, FakeClock())
        info = await lobby(app, humans=2)
        await app.start(info.id, 1, seed=1)
        async with s.read() as q:
            async with q.conn.execute("PRAGMA wal_autocheckpoint") as cur:
                assert (await cur.fetchone())[0] == 0  # a COMMIT never copies the WAL
        # (up to a minute: a loaded machine ran the checkpointer's thread late, once in 10 runs)
        deadline = time.monotonic() + 60.0
        while time.monotonic() < deadline:
            await asyncio.sleep(0.01)
            done = s.last_checkpoint
            if done is not None and done[1] > 0 and done[1] == done[2]:
                break
        assert done is not None and done[1] > 0 and done[1] == done[2]  # all WAL pages copied
    finally:
        await s.close()
    assert not (tmp_path / "c.db-wal").exists() or (tmp_path / "c.db-wal").stat().st_size == 0
    again = await Storage.open(tmp_path / "c.db")  # closed cleanly: the game is there
    try:
        assert (await again.game_row(info.id)) is not None
    finally:
        await again.close()


async def test_the_wal_starts_over_under_a_steady_stream_of_writes(tmp_path: Path, monkeypatch) -> None:
    """Writes with no pause between them: a commit always lands while the background
    checkpoint copies, so SQLite never found the WAL all copied when a write began, and
    never started it over (bench_scale: 150 MB, every page read slower). A WAL past
    ``WAL_RESTART_PAGES`` is copied once more with the writer held: it starts over."""
    monkeypatch.setattr(Storage, "WAL_RESTART_PAGES", 100)
    s = await Storage.open(tmp_path / "w.db")
    try:
        async with s.transaction() as tx:
            await tx.conn.execute("CREATE TABLE scratch (id INTEGER PRIMARY KEY, blob BLOB)")
        assert s.start_checkpoints(every=0.01)
        seen: list[int] = []
        for _ in range(1500):  # about 2 pages a write: 3,000 pages in all
            async with s.transaction() as tx:
                await tx.conn.execute("INSERT INTO scratch (blob) VALUES (?)", (bytes(6000),))
            if s.last_checkpoint is not None:
                seen.append(s.last_checkpoint[1])
        assert s.wal_restarts > 0
        # not growing with the writes: without the restart the WAL only grows (past 1,500
        # pages from the midpoint on); with it, the second half finds it small again at
        # least once. (Not its largest size there: a loaded machine runs the checkpointer
        # late, and the WAL grows meanwhile; 1,077 pages seen once, at load 12.)
        assert len(seen) > 100 and min(seen[len(seen) // 2:]) < 1000
    finally:
        await s.close()


async def test_no_checkpointer_for_a_database_in_memory() -> None:
    s = await Storage.open(":memory:")
    try:
        assert s.start_checkpoints() is False
    finally:
        await s.close()


async def test_the_earliest_reminder_walks_due_order_not_every_game(storage: Storage) -> None:
    """The timer's queries read the rows in due order up to the first of an active game
    (SQLite would otherwise visit every active game: 0.45 s with 50,000 games)."""
    async with storage.transaction() as tx:
        for gid, status, due in ((1, "finished", 50.0), (2, "active", 300.0), (3, "active", 100.0), (4, "abandoned", 10.0)):
            await tx.conn.execute(
                "INSERT INTO games (id, game, channel_id, host_id, status, created_at, updated_at)"
                " VALUES (?, 'fake', ?, 1, ?, 0, 0)",
                (gid, gid, status),
            )
            await tx.conn.execute(
                "INSERT INTO seats (game_id, seat, position, user_id, display_name) VALUES (?, 'a', 0, 1, 'A')", (gid,)
            )
            await tx.put_waiting(gid, "a", 0, 0.0)
            await tx.put_reminder(gid, "a", "nudge", due)
    assert await storage.earliest_reminder() == 100.0
    assert await storage.earliest_reminder(after=100.0) == 300.0
    assert await storage.earliest_reminder(after=300.0) is None
    assert await storage.earliest_reminder(2) == 300.0
    assert [(r.game_id, r.due_at) for r in await storage.due_reminders(1000.0, 10)] == [(3, 100.0), (2, 300.0)]
    assert [r.game_id for r in await storage.due_reminders(1000.0, 1)] == [3]
    seen: list[str] = []  # the statements the storage really runs, values filled in
    await storage.conn.set_trace_callback(seen.append)
    await storage.earliest_reminder()
    await storage.earliest_reminder(after=5.0)
    await storage.due_reminders(1000.0, 10)
    await storage.conn.set_trace_callback(None)
    assert len(seen) == 3
    async with storage.read() as q:
        for sql in seen:
            async with q.conn.execute("EXPLAIN QUERY PLAN " + sql) as cur:
                plan = " ".join(str(r[-1]) for r in await cur.fetchall())
            # the rows in due order; each one's game looked up by its id, no walk, no sort
            assert "USING INDEX reminders_due" in plan or "USING COVERING INDEX reminders_due" in plan, plan
            assert "rowid=?" in plan and "(status=?)" not in plan and "TEMP B-TREE" not in plan, plan
