"""Reminders: pure policy functions plus an APScheduler 3.x wrapper.

Policy (pure, no clock, no I/O)::

    first_nudge_due(settings, since_at, quiet)   -> when to nudge a seat that became pending
    next_nudge_due(settings, sent_at, quiet)     -> when to nudge again after a nudge was sent
    takeover_due(settings, since_at)             -> when the AI takes the seat over, or None
    quiet_until(now, quiet)                      -> end of the quiet window containing now, or None
    decide(kind, due_at, now, quiet)             -> Decision: "send" now or "wait" until a time

Quiet hours are the player's (all games): a local "HH:MM"-"HH:MM" window in an
IANA time zone; it may wrap midnight. A nudge never goes out inside it: its due
time moves to the end of the window. A takeover is a deadline and ignores quiet
hours (it notifies the channel, not the player's DMs).

Scheduler (:class:`ReminderScheduler`): one APScheduler date job, armed for the
earliest due reminder row of the database (the rows are the record; waiting
reminders cost no memory and no start-up work beyond one indexed query).
Overdue policy: a reminder that became due while the bot was down fires once,
at start-up (the timer runs at ``max(due_at, now)``; the next repeat is counted
from the moment it was actually sent, so missed intervals never pile up).
``sent_at`` is written only after the injected ``send`` callback returned.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, Protocol

from bot.claims import SWEEP_S, ClaimLost, Claims
from bot.records import Outcome
from bot.settings import QuietHours, Settings, parse_hhmm, zone
from bot.storage import Storage

__all__ = [
    "HOUR", "Decision", "Nudge", "QuietHours", "ReminderHost", "ReminderScheduler", "Settings", "decide",
    "first_nudge_due", "next_nudge_due", "outside_quiet", "parse_hhmm", "quiet_until", "takeover_due", "zone",
]

log = logging.getLogger(__name__)

HOUR = 3600.0
UNRECORDED = 4096  # nudges sent but not recorded (a claim lost meanwhile) remembered, at most


def quiet_until(now: float, quiet: QuietHours | None) -> float | None:
    """If ``now`` is inside the quiet window, the epoch time it ends; else None."""
    if quiet is None:
        return None
    start, end = parse_hhmm(quiet.start), parse_hhmm(quiet.end)
    if start == end:
        return None
    tz = zone(quiet.tz)
    local = datetime.fromtimestamp(now, tz)
    minute = local.hour * 60 + local.minute
    if start < end:
        inside = start <= minute < end
    else:  # wraps midnight
        inside = minute >= start or minute < end
    if not inside:
        return None
    day = local.date()
    if start > end and minute >= start:  # the window ends tomorrow
        day = day + timedelta(days=1)
    end_local = datetime(day.year, day.month, day.day, end // 60, end % 60, tzinfo=tz)
    return max(end_local.timestamp(), now)


def outside_quiet(at: float, quiet: QuietHours | None) -> float:
    """``at``, or the end of the quiet window ``at`` falls in."""
    until = quiet_until(at, quiet)
    return at if until is None else until


def first_nudge_due(settings: Settings, since_at: float, quiet: QuietHours | None) -> float:
    return outside_quiet(since_at + settings.remind_after_hours * HOUR, quiet)


def next_nudge_due(settings: Settings, sent_at: float, quiet: QuietHours | None) -> float:
    return outside_quiet(sent_at + settings.repeat_hours * HOUR, quiet)


def takeover_due(settings: Settings, since_at: float) -> float | None:
    return since_at + settings.takeover_after_hours * HOUR if settings.takeover else None


@dataclass(frozen=True)
class Decision:
    action: Literal["send", "wait"]
    at: float  # when to send (now) or when to look again


def decide(
    kind: str, due_at: float, now: float, quiet: QuietHours | None
) -> Decision:
    """What to do when a reminder row is looked at ``now``."""
    if now < due_at:
        return Decision("wait", due_at)
    if kind == "nudge":
        until = quiet_until(now, quiet)
        if until is not None:
            return Decision("wait", until)
    return Decision("send", now)


# --- the scheduler -----------------------------------------------------------------


@dataclass(frozen=True)
class Nudge:
    """What the send callback receives. kind "nudge": remind ``user_id``;
    kind "takeover": the AI took the seat over, ``outcome`` says what to post."""

    kind: Literal["nudge", "takeover"]
    game_id: int
    seat: str
    user_id: int | None
    since_at: float
    count: int  # nudges sent before this one
    channel_id: int | None
    outcome: Outcome | None = None


SendCallback = Callable[[Nudge], Awaitable[Any]]


class ReminderHost(Protocol):
    """What the scheduler needs of the application layer (:class:`bot.app.App` is one):
    its storage and clock, its change listeners, and the AI takeover. Declared here so
    that this module does not import the app (the app imports the policy above)."""

    storage: Storage
    clock: Callable[[], float]
    listeners: list[Callable[[int], Awaitable[None]]]

    async def take_over(
        self, game_id: int, seat: str, *, waiting_since: int | None = ..., due_at: float | None = ...
    ) -> Outcome | None:
        """The AI plays ``seat`` from now on, if the seat still waits as it did
        (``waiting_since``) and the row is still due (``due_at``): only what the timer
        passes is declared here; the app's call takes more."""
        ...


class ReminderScheduler:
    """One APScheduler job, the timer, armed for the earliest due reminder row.

    The rows in SQLite are the record; nothing per row is kept in memory, so waiting
    reminders cost nothing and start-up reads one number (the earliest due time). When
    the timer fires, every due row is handled (oldest first, in batches) and the timer
    is armed again for the next one. After an action the app calls :meth:`sync_game`,
    which reads only that game's earliest row and arms the timer earlier if needed.

    ``start()`` must run inside the event loop (discord.py: in ``setup_hook``).
    ``fire(game_id, seat, kind)`` handles one row; tests call it directly, or
    ``run_due()`` to handle everything due by the (fake) clock.
    """

    JOB_ID = "reminders:next"
    BATCH = 200  # rows handled per query while catching up
    RETRY_SECONDS = 5 * 60.0  # a row whose sending failed is looked at again after this

    def __init__(
        self,
        app: ReminderHost,
        send: SendCallback,
        *,
        clock: Callable[[], float] | None = None,
        scheduler: Any | None = None,
    ) -> None:
        self.app = app
        self.send = send
        self.clock = clock or app.clock or time.time
        if scheduler is None:
            from apscheduler.schedulers.asyncio import AsyncIOScheduler

            scheduler = AsyncIOScheduler(timezone=UTC)
        self.scheduler = scheduler
        self._fire_lock = asyncio.Lock()
        self.wake_at: float | None = None  # when the timer fires next (None: nothing due)
        self._failed: dict[tuple[int, str, str], float] = {}  # row -> retry not before
        # several processes on one database (PostgreSQL): a row is fired by the process
        # that claims it (bot.claims); one claimed by another is looked at again once its
        # claim would have expired (a killed process's rows are taken over then)
        storage = app.storage
        self.claims = Claims(storage) if getattr(storage, "shared", False) else None
        # nudges this process sent but could not record (its claim ran out meanwhile: a
        # pause longer than the claim): if the claim comes back to it with the same row, it
        # records the nudge, not sends it again
        self._unrecorded: set[tuple[int, str, str, int]] = set()
        app.listeners.append(self.sync_game)

    async def start(self) -> int:
        """Start the scheduler and arm the timer; returns the number of timers (0 or 1)."""
        if not self.scheduler.running:
            self.scheduler.start()
        if self.claims is not None:  # rows written by other processes (or left by a killed one)
            self.scheduler.add_job(
                self._wake, "interval", seconds=SWEEP_S, id="reminders:sweep", replace_existing=True, coalesce=True,
            )
        return await self.rebuild()

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        if self.sync_game in self.app.listeners:
            self.app.listeners.remove(self.sync_game)

    async def rebuild(self) -> int:
        """Arm the timer for the earliest due row of a live game (start-up, one query)."""
        self.wake_at = None
        earliest = await self.app.storage.earliest_reminder()
        if earliest is not None:
            self._arm(earliest)
        elif self.scheduler.get_job(self.JOB_ID) is not None:
            self.scheduler.remove_job(self.JOB_ID)
        return int(self.wake_at is not None)

    async def sync_game(self, game_id: int) -> None:
        """One game's reminder rows changed (App listener): arm the timer earlier if that
        game now has an earlier row. Rows that went away need nothing: a timer that
        finds nothing due simply arms itself for the next row."""
        earliest = await self.app.storage.earliest_reminder(game_id)
        if earliest is not None and (self.wake_at is None or earliest < self.wake_at):
            self._arm(earliest)

    def _arm(self, due_at: float) -> None:
        run_at = max(due_at, self.clock())  # overdue: fire once, now
        self.wake_at = run_at
        self.scheduler.add_job(
            self._wake,
            "date",
            run_date=datetime.fromtimestamp(run_at, UTC),
            id=self.JOB_ID,
            replace_existing=True,
            misfire_grace_time=None,  # never drop a late reminder
            coalesce=True,
        )

    async def _wake(self) -> None:
        self.wake_at = None
        try:
            await self.run_due(hold_failed=True)
        finally:
            # every row due now was handled; what is still due failed (retry later)
            now = self.clock()
            self._failed = {k: t for k, t in self._failed.items() if t > now}  # the rest: gone
            nxt = await self.app.storage.earliest_reminder(after=now)
            candidates = [t for t in (nxt, *self._failed.values()) if t is not None]
            if candidates and (self.wake_at is None or min(candidates) < self.wake_at):
                self._arm(min(candidates))

    async def run_due(self, *, hold_failed: bool = False) -> list[Nudge]:
        """Handle every reminder due by ``clock()``, oldest first (the timer, tests, and a
        manual catch-up). With ``hold_failed`` (the timer), a row whose sending failed
        waits RETRY_SECONDS before it is tried again."""
        now = self.clock()
        sent: list[Nudge] = []
        seen: set[tuple[int, str, str]] = set()
        while True:
            rows = [
                r for r in await self.app.storage.due_reminders(now, self.BATCH + len(seen))
                if (r.game_id, r.seat, r.kind) not in seen
            ]
            if not rows:
                return sent
            for r in rows:
                key = (r.game_id, r.seat, r.kind)
                seen.add(key)
                if hold_failed and self._failed.get(key, 0.0) > now:
                    continue
                n = await self.fire(r.game_id, r.seat, r.kind)
                if n is not None:
                    sent.append(n)

    async def fire(self, game_id: int, seat: str, kind: str) -> Nudge | None:
        """Look at one reminder row now: send, reschedule, or drop it."""
        key = (game_id, seat, kind)
        claim = f"{game_id}:{seat}:{kind}"
        async with self._fire_lock:
            try:
                if self.claims is not None and await self.claims.hold("reminder", claim) is None:
                    self._failed[key] = self.clock() + self.claims.ttl
                    return None
                try:
                    nudge = await self._fire(game_id, seat, kind)
                finally:
                    if self.claims is not None:
                        await self.claims.release("reminder", claim)
            except ClaimLost:  # sent, not recorded: recorded when the claim comes back
                log.info("reminder %s/%s/%s: sent after this process lost its claim", game_id, seat, kind)
                self._failed[key] = self.clock() + (self.claims.ttl if self.claims is not None else 0.0)
                return None
            except Exception:
                log.exception("reminder %s/%s/%s failed", game_id, seat, kind)
                # Leave the row unsent; look again later rather than never.
                self._failed[key] = self.clock() + self.RETRY_SECONDS
                return None
            self._failed.pop(key, None)
            return nudge

    async def _fire(self, game_id: int, seat: str, kind: str) -> Nudge | None:
        storage = self.app.storage
        row = await storage.reminder(game_id, seat, kind)
        if row is None:
            return None  # the seat acted meanwhile
        game = await storage.game_row(game_id)
        if game is None or game.status != "active":
            return None  # paused/finished: resume() recreates the rows
        now = self.clock()
        holder = await storage.seat(game_id, seat)
        if holder is None:
            return None
        quiet = await storage.quiet_hours(holder.user_id) if holder.user_id else None
        decision = decide(kind, row.due_at, now, quiet)
        if decision.action == "wait":
            await storage.reschedule_reminder(game_id, seat, kind, decision.at)
            return None
        waiting = await storage.waiting_of(game_id)
        wait = next((w for w in waiting if w.seat == seat), None)
        if wait is None:
            return None  # the seat acted meanwhile
        since = wait.since_at
        place = game.thread_id or game.channel_id
        if kind == "takeover":
            # re-checked under the game's lock: the player may be moving right now
            # (this row's due time and this wait: a move that leaves the player to move
            # again starts a new wait, whose row this job has not read)
            outcome = await self.app.take_over(
                game_id, seat, waiting_since=wait.since_version, due_at=row.due_at
            )
            if outcome is None:
                return None
            nudge = Nudge("takeover", game_id, seat, holder.user_id, since, row.count, place, outcome)
            await self.send(nudge)
            return nudge
        nudge = Nudge("nudge", game_id, seat, holder.user_id, since, row.count, place)
        claim, memo = f"{game_id}:{seat}:{kind}", (game_id, seat, kind, row.count)
        if memo not in self._unrecorded:
            # (the claim renewed before the send when half its time went on the reads above)
            if self.claims is not None and await self.claims.hold("reminder", claim) is None:
                return None
            await self.send(nudge)  # raises -> not marked sent, retried later
        settings = await storage.settings(game_id)
        sent_at = self.clock()
        next_due = next_nudge_due(settings, sent_at, quiet)
        if self.claims is None:
            await storage.mark_reminder_sent(game_id, seat, kind, sent_at, next_due)
            return nudge
        try:
            async with storage.transaction() as tx:  # the fence: a lost claim records nothing
                await self.claims.fence(tx, "reminder", claim)
                await tx.mark_reminder_sent(game_id, seat, kind, sent_at, next_due)
        except ClaimLost:
            if len(self._unrecorded) >= UNRECORDED:
                self._unrecorded.clear()
            self._unrecorded.add(memo)
            raise
        self._unrecorded.discard(memo)
        return nudge
