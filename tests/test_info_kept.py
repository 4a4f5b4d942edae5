"""``App.info`` keeps the games read last (issue 25: an action and the bot around it read a
game's row, seats and settings several times, one trip to the database thread each).
What it hands out must always be what a fresh read of the database says."""

from __future__ import annotations

from bot.app import App
from engine.ai import choose
from tests.app_support import storage_fixture

GAME = "smartphone-inc"


storage = storage_fixture("info.db")


async def fresh(app: App, game_id: int):
    async with app.storage.read() as q:
        return await app._info_q(q, game_id)


async def started(app: App) -> tuple[int, dict[str, int]]:
    info = await app.create_game(GAME, channel_id=10, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    await app.join(info.id, 3, "Cat")
    await app.start(info.id, 1, seed=5)
    return info.id, {s.seat: s.user_id for s in (await app.info(info.id)).seats}


async def test_the_kept_row_is_the_stored_one_after_every_move(storage):
    """60 moves: after each, what info() gives (mostly without a read) equals a fresh
    read: the version and time each commit wrote, the seats, the settings."""
    app = App(storage)
    gid, users = await started(app)
    reads = 0
    real = app._info_q

    async def counted(q, game_id):
        nonlocal reads
        reads += 1
        return await real(q, game_id)

    app._info_q = counted  # type: ignore[method-assign]
    for _ in range(60):
        state = await app.state(gid)
        seat = sorted(s for s in app.engine(GAME).pending(state) if s in users)[0]
        out = await app.act(gid, users[seat], seat, choose(GAME, state, seat, "random"), int(state["version"]))
        assert out.status == "applied"
        kept = await app.info(gid)
        n = reads
        assert kept == await fresh(app, gid)
        reads = n  # (the fresh read is the test's)
    assert reads == 0  # state() and act() each read the row per move before: 120 reads


async def test_a_write_of_the_seats_or_settings_is_seen_at_once(storage):
    """A seat taken over by the AI, the settings changed, the game paused: the next
    info() says so (the kept copy is dropped by the write itself)."""
    app = App(storage)
    gid, users = await started(app)
    assert not (await app.info(gid)).seat_named("bob").ai_takeover
    await app.take_over(gid, "bob", user_id=1)
    assert (await app.info(gid)).seat_named("bob").ai_takeover
    assert await app.info(gid) == await fresh(app, gid)
    await app.update_settings(gid, 1, remind_after_hours=7.0)
    assert (await app.info(gid)).settings.remind_after_hours == 7.0
    await app.pause(gid, 1)
    assert (await app.info(gid)).status == "paused"
    assert await app.info(gid) == await fresh(app, gid)


async def test_a_write_while_a_read_is_on_its_way_is_not_hidden(storage):
    """A read that began before a write keeps its answer out of the kept copies: the
    write counted first (the number read before the read no longer matches)."""
    app = App(storage)
    gid, _ = await started(app)
    app._infos.clear()
    before = storage.game_epoch(gid)
    async with storage.transaction() as tx:  # a write counted, as another task would make it
        await tx.set_takeover(gid, "cat", True)
    assert storage.game_epoch(gid) != before
    app._keep_info(before, await fresh(app, gid))  # as a read that started before the write
    assert (await app.info(gid)).seat_named("cat").ai_takeover  # read again, not the kept one
