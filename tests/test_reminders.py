"""Reminders: pure policy, and the scheduler with a fake clock and a fake send callback."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import pytest
from fakegame import FakeClock, lobby, new_app

from bot.app import App
from bot.reminders import (
    Decision,
    Nudge,
    QuietHours,
    ReminderScheduler,
    Settings,
    decide,
    first_nudge_due,
    next_nudge_due,
    parse_hhmm,
    quiet_until,
    takeover_due,
)
from bot.storage import Storage
from tests.app_support import storage_fixture

H = 3600.0


def ts(text: str) -> float:
    return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()


# --- policy -----------------------------------------------------------------------------


def test_parse_hhmm() -> None:
    assert parse_hhmm("07:05") == 425
    for bad in ("7", "24:00", "12:60", "ab:cd"):
        with pytest.raises(ValueError):
            parse_hhmm(bad)


def test_quiet_window_that_wraps_midnight() -> None:
    q = QuietHours("22:00", "07:00")
    assert quiet_until(ts("2024-01-10T23:30"), q) == ts("2024-01-11T07:00")
    assert quiet_until(ts("2024-01-11T03:00"), q) == ts("2024-01-11T07:00")
    assert quiet_until(ts("2024-01-11T22:00"), q) == ts("2024-01-12T07:00")
    assert quiet_until(ts("2024-01-11T07:00"), q) is None
    assert quiet_until(ts("2024-01-11T12:00"), q) is None
    assert quiet_until(ts("2024-01-11T12:00"), None) is None


def test_quiet_window_in_a_time_zone() -> None:
    q = QuietHours("13:00", "14:00", "Europe/Paris")  # UTC+1 in January
    assert quiet_until(ts("2024-01-10T12:15"), q) == ts("2024-01-10T13:00")
    assert quiet_until(ts("2024-01-10T13:15"), q) is None
    assert quiet_until(ts("2024-07-10T11:15"), q) == ts("2024-07-10T12:00")  # UTC+2 in summer
    with pytest.raises(ValueError):
        QuietHours("10:00", "10:00").validate()
    with pytest.raises(ValueError, match="time zone"):
        QuietHours("10:00", "11:00", "Nowhere/Else").validate()


def test_due_times() -> None:
    s = Settings(remind_after_hours=12, repeat_hours=6, takeover=True, takeover_after_hours=48)
    since = ts("2024-01-10T12:00")
    assert first_nudge_due(s, since, None) == since + 12 * H
    # due at midnight, inside 22-07 quiet hours -> 07:00
    assert first_nudge_due(s, since, QuietHours("22:00", "07:00")) == ts("2024-01-11T07:00")
    assert next_nudge_due(s, since, None) == since + 6 * H
    assert takeover_due(s, since) == since + 48 * H
    assert takeover_due(Settings(), since) == since + 24 * H  # on by default (issue 7)
    assert takeover_due(Settings(takeover=False), since) is None
    with pytest.raises(ValueError):
        Settings(repeat_hours=0).validate()


def test_decide() -> None:
    q = QuietHours("22:00", "07:00")
    noon, night = ts("2024-01-10T12:00"), ts("2024-01-10T23:00")
    assert decide("nudge", noon + 1, noon, q) == Decision("wait", noon + 1)
    assert decide("nudge", noon, noon, q) == Decision("send", noon)
    assert decide("nudge", night - 5, night, q) == Decision("wait", ts("2024-01-11T07:00"))
    assert decide("takeover", night - 5, night, q) == Decision("send", night)  # a deadline


# --- the scheduler with a fake clock ----------------------------------------------------


storage = storage_fixture("rem.db")


class Sender:
    def __init__(self) -> None:
        self.sent: list[Nudge] = []
        self.fail = False

    async def __call__(self, nudge: Nudge) -> None:
        if self.fail:
            raise ConnectionError("Discord is down")
        self.sent.append(nudge)


@pytest.fixture
async def world(storage: Storage):
    clock = FakeClock(ts("2024-01-10T12:00"))
    app = await new_app(storage, clock)
    send = Sender()
    sched = ReminderScheduler(app, send)
    yield app, clock, send, sched
    sched.shutdown()


async def started(app: App, **settings: object) -> int:
    info = await lobby(app, humans=2)
    if settings:
        await app.update_settings(info.id, 1, **settings)  # type: ignore[arg-type]
    await app.start(info.id, 1, seed=3)
    return info.id


async def test_a_nudge_sent_while_the_claim_ran_out_is_recorded_not_sent_again(world) -> None:
    """Several processes (issue 37, bot.claims): a process paused past its claim while a
    nudge was on its way cannot record it (the fence); when the claim comes back to it, it
    records that nudge instead of sending it again (a loaded machine: two nudges sent twice
    by the same process in the 50-kill test of tests/test_pg_processes.py)."""
    from bot.claims import Claims

    app, clock, send, sched = world
    gid = await started(app, remind_after_hours=12, repeat_hours=6)
    await app.act(gid, 1, None, {"pick": 1}, 0)  # bob holds the game up
    sched.claims = Claims(app.storage, "p1", ttl=1.0, clock=clock)

    async def paused(nudge: Nudge) -> None:
        await send(nudge)
        if len(send.sent) == 1:
            clock.advance(5)  # paused mid-send, past the claim's 1 s

    sched.send = paused
    clock.advance(12 * H)
    assert await sched.run_due() == []  # sent, but the record was fenced off
    clock.advance(2)
    again = await sched.run_due()
    assert [(n.seat, n.count) for n in again] == [("bob", 0)]  # recorded now
    assert [(n.seat, n.count) for n in send.sent] == [("bob", 0)]  # sent once
    row = await app.storage.reminder(gid, "bob", "nudge")
    assert row is not None and row.count == 1
    assert await sched.run_due() == []  # the next one is 6 hours away


async def test_nudges_after_the_delay_then_repeat(world) -> None:
    app, clock, send, sched = world
    gid = await started(app, remind_after_hours=12, repeat_hours=6)
    await app.act(gid, 1, None, {"pick": 1}, 0)  # ann is done; bob holds the game up
    clock.advance(12 * H - 1)
    assert await sched.run_due() == []
    clock.advance(1)
    sent = await sched.run_due()
    assert [(n.kind, n.seat, n.user_id, n.count, n.channel_id) for n in sent] == [
        ("nudge", "bob", 2, 0, 100)
    ]
    row = await app.storage.reminder(gid, "bob", "nudge")
    assert row.sent_at == clock.now and row.count == 1 and row.due_at == clock.now + 6 * H
    assert await sched.run_due() == []
    clock.advance(6 * H)
    assert [n.count for n in await sched.run_due()] == [1]


async def test_sent_only_after_the_callback_succeeded(world) -> None:
    app, clock, send, sched = world
    gid = await started(app, remind_after_hours=1)
    clock.advance(H)
    send.fail = True
    assert await sched.run_due() == []
    rows = await app.storage.reminders_of(gid)
    assert all(r.sent_at is None and r.count == 0 for r in rows)
    send.fail = False
    assert sorted(n.seat for n in await sched.run_due()) == ["ann", "bob"]


async def test_overdue_reminder_fires_once_not_once_per_missed_interval(world) -> None:
    app, clock, send, sched = world
    await started(app, remind_after_hours=1, repeat_hours=1, takeover=False)  # nudges only
    clock.advance(100 * H)  # the bot was down for days
    first = await sched.run_due()
    assert sorted(n.seat for n in first) == ["ann", "bob"]
    assert await sched.run_due() == []
    assert len(send.sent) == 2


async def test_never_during_quiet_hours(world) -> None:
    app, clock, send, sched = world
    await app.set_quiet_hours(2, "22:00", "07:00", "UTC")
    gid = await started(app, remind_after_hours=11)  # due 23:00
    await app.act(gid, 1, None, {"pick": 1}, 0)
    row = await app.storage.reminder(gid, "bob", "nudge")
    assert row.due_at == ts("2024-01-11T07:00")  # moved out of quiet hours already
    # bob sets quiet hours after the row was made: the scheduler still holds the nudge
    await app.set_quiet_hours(2, "20:00", "08:00", "UTC")
    clock.now = ts("2024-01-11T07:00")
    assert await sched.run_due() == []
    assert (await app.storage.reminder(gid, "bob", "nudge")).due_at == ts("2024-01-11T08:00")
    clock.now = ts("2024-01-11T08:00")
    assert [n.seat for n in await sched.run_due()] == ["bob"]


async def test_takeover_after_the_deadline(world) -> None:
    app, clock, send, sched = world
    gid = await started(app, remind_after_hours=2, takeover=True, takeover_after_hours=24)
    await app.act(gid, 1, None, {"pick": 1}, 0)
    clock.advance(24 * H)
    sent = await sched.run_due()
    # the nudge was due long ago: it fires once; the takeover fires too
    kinds = sorted((n.kind, n.seat) for n in sent)
    assert kinds == [("nudge", "bob"), ("takeover", "bob")]
    take = next(n for n in sent if n.kind == "takeover")
    assert take.outcome is not None and take.outcome.status == "takeover"
    assert [a.actor for a in take.outcome.applied] == ["takeover"]
    assert (await app.info(gid)).seat_named("bob").ai_takeover
    assert {r.seat for r in await app.storage.reminders_of(gid)} == {"ann"}


async def test_paused_and_finished_games_are_quiet(world) -> None:
    app, clock, send, sched = world
    gid = await started(app, remind_after_hours=1)
    await app.pause(gid, 1)
    clock.advance(5 * H)
    assert await sched.run_due() == []
    await app.resume(gid, 1)
    assert await sched.run_due() == []  # the wait starts again at resume
    clock.advance(H)
    assert len(await sched.run_due()) == 2


async def test_one_timer_armed_for_the_earliest_row(world) -> None:
    """No job per row: one timer, armed for the earliest due row, moved earlier by an
    action's new rows, and at start-up after downtime armed for now, once."""
    app, clock, send, sched = world
    sched.scheduler.start(paused=True)  # the fake clock is in 2024: keep APScheduler still
    await sched.start()
    assert sched.scheduler.get_jobs() == [] and sched.wake_at is None
    gid = await started(app, remind_after_hours=2)
    jobs = sched.scheduler.get_jobs()
    assert [j.id for j in jobs] == [ReminderScheduler.JOB_ID]
    assert jobs[0].next_run_time.timestamp() == clock.now + 2 * H == sched.wake_at
    assert jobs[0].misfire_grace_time is None
    other = await started_elsewhere(app, remind_after_hours=1)  # an earlier row elsewhere
    assert sched.wake_at == clock.now + H
    await app.act(other, 3, None, {"pick": 1}, 0)
    assert len(sched.scheduler.get_jobs()) == 1
    # start-up after downtime: an overdue row arms the timer for now, once
    clock.advance(10 * H)
    for _ in range(2):
        assert await sched.rebuild() == 1
    jobs = sched.scheduler.get_jobs()
    assert len(jobs) == 1 and jobs[0].next_run_time.timestamp() == clock.now
    # the timer handles every due row and re-arms for the next one
    await sched._wake()
    assert sorted(n.seat for n in send.sent) == ["ann", "bob", "dan"]
    assert sched.wake_at == min(r.due_at for r in await app.storage.all_reminders())
    assert gid != other


async def test_a_failed_send_is_retried_later_without_spinning(world) -> None:
    app, clock, send, sched = world
    sched.scheduler.start(paused=True)
    await sched.start()
    await started(app, remind_after_hours=1)
    clock.advance(H)
    send.fail = True
    await sched._wake()
    assert send.sent == [] and sched.wake_at == clock.now + ReminderScheduler.RETRY_SECONDS
    send.fail = False
    clock.advance(ReminderScheduler.RETRY_SECONDS)
    await sched._wake()
    assert sorted(n.seat for n in send.sent) == ["ann", "bob"]
    assert sched.wake_at is not None and sched.wake_at > clock.now


async def started_elsewhere(app: App, **settings: object) -> int:
    info = await app.create_game("fake", channel_id=200, host_id=3, host_name="Cid")
    await app.join(info.id, 4, "Dan")
    await app.update_settings(info.id, 3, **settings)  # type: ignore[arg-type]
    await app.start(info.id, 3, seed=4)
    return info.id


async def test_a_real_job_fires(storage: Storage) -> None:
    app = await new_app(storage, time.time)
    send = Sender()
    sched = ReminderScheduler(app, send)
    try:
        await sched.start()
        await started(app, remind_after_hours=0.2 / 3600)
        for _ in range(100):
            if len(send.sent) == 2:
                break
            await asyncio.sleep(0.05)
        assert sorted(n.seat for n in send.sent) == ["ann", "bob"]
    finally:
        sched.shutdown()
