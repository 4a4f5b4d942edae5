"""The delivery outbox (issue 8 §1): what an action must tell Discord is stored as rows
(:class:`bot.storage.OutboxRow`, migration 0004) and sent from here, in order per game.

Nothing here imports ``discord``: a :class:`Sender` (``bot.posting.DiscordSender``)
does the sending and turns Discord's answers into the exceptions below. The
:class:`Deliverer`

* sends each game's pending rows in order (a row marked ``ordered=False``, a notice,
  never holds up the rows after it) and marks each delivered with its message id;
* retries a failed send (429 and 5xx once discord.py gave up, a dropped connection)
  with a growing back-off, honouring ``retry_after``; rows survive a restart, and a
  send repeated after a crash between it and its "delivered" mark carries the same
  nonce (Discord's ``enforce_nonce`` answers with the first message);
* paces every channel to at most ``pace`` writes per ``per`` seconds: a burst waits,
  and while it waits the consecutive posts of a game are merged into one message
  (never dropped); of several edits of one message only the newest is sent, and an
  edit that would show a reader nothing new is not sent (:class:`Shown`: the same
  content, but relative times moved by at most :data:`TIME_SLACK` and lines that may
  linger dropped; issue 37);
* an edit marked ``settle`` (the status message after a turn inside a phase, or a
  player's first change in their planner: nothing is posted with it) is written due a
  little later (:data:`bot.app.core.STATUS_SETTLE`) and unordered: a newer edit of the
  same message written meanwhile replaces it and goes out when the older one was due
  (a busy game still sees its status within that time); an edit sent drops the older
  edits of its message still waiting (issue 9: about 2 channel writes per phase while
  the players play quickly);
* on "cannot post" (50013 Missing Permissions, 10003 the channel is gone) marks the
  game blocked, has the players and the host told once (by DM), and keeps trying
  every ``blocked_retry`` seconds (or at once after ``/game move``): the rows are
  delivered once it is fixed, nothing is dropped;
* rows of kind ``hold`` (log lines of a turn inside a phase) are not sent: the next post
  with ``held`` set shows them (one post per phase) and releases them;
* a periodic :meth:`sweep` (every ``sweep_every`` s) restarts any game with pending
  rows and runs the ``on_sweep`` hooks (the bot lets AI seats owed a move catch up).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot import jsontext
from bot.claims import SWEEP_S, ClaimLost, claims_for
from bot.storage import OutboxRow, Storage

log = logging.getLogger("boardroom.delivery")

CONTENT_LIMIT = 2000
MERGE_RESERVE = 300  # room kept in a merged post for the note about closed DMs
MAX_PICTURES = 10
MAX_EMBEDS = 10
KEEP_DELIVERED = 7 * 86400.0  # seconds a delivered row is kept (to look into)
LAST_EDITS = 4096  # messages whose last edited content is remembered (to skip a repeat)
UNRECORDED = 4096  # rows sent but not recorded (a claim lost meanwhile) remembered, at most
MARK_GATHER_S = 0.01  # how long a "delivered" mark waits for others to share its transaction
# a game's sender reads all its pending rows again at least this often: a safety net, for
# a change the storage does not count (``Storage.outbox_epoch``; e.g. another process)
REREAD_S = 60.0


class DeliveryError(Exception):
    """A send that did not go through (raised by a :class:`Sender`)."""


class Retry(DeliveryError):
    """Try again later (429, 5xx, network): ``after`` seconds at least, if Discord said."""

    def __init__(self, why: str, after: float | None = None) -> None:
        super().__init__(why)
        self.after = after


class Blocked(DeliveryError):
    """The bot cannot write in the game's place (``code`` 50013 or 10003)."""

    def __init__(self, code: int) -> None:
        super().__init__(f"cannot post ({code})")
        self.code = code


class Gone(DeliveryError):
    """The message an edit was for is gone (10008) or never existed: nothing to do."""


class DmClosed(DeliveryError):
    """The user does not take DMs from the bot (50007)."""


class Refused(DeliveryError):
    """Discord refused the payload itself (400): sending it again cannot help."""


class Sender(Protocol):
    async def channel_key(self, row: OutboxRow) -> str | None:
        """The channel a row writes to (for pacing), or None (a DM: not paced here)."""

    async def deliver(self, row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        """Send ``row`` (with ``merged`` posts folded into it); the message id, if any."""

    async def tell_blocked(self, game_id: int, code: int) -> None:
        """Tell the host and the players (DM) that the game cannot post, and how to fix it."""


def picture_calls(payload: dict[str, Any]) -> list[tuple[str, str, str]]:
    """A post's pictures as ``(file name, renderer function, its arguments as JSON
    text)``: the outbox keeps the arguments as text (:func:`bot.storage.outbox_payload`),
    and the picture worker decodes them (:func:`bot.pictures.call_json`); a payload
    built in memory has them as a list."""
    out = []
    for spec in payload.get("pictures") or []:
        if isinstance(spec, str):
            spec = jsontext.loads(spec)
        args = spec.get("args_json")
        if args is None:
            args = jsontext.dumps(list(spec.get("args") or []))
        out.append((str(spec.get("file") or "picture.png"), str(spec.get("fn") or "draw"), args))
    return out


def mergeable(first: dict[str, Any], nxt: dict[str, Any], size: int) -> bool:
    """Whether post payload ``nxt`` can be folded into a post that is ``size`` characters
    long and built from ``first`` onwards (same limits as one Discord message)."""
    if first.get("remember") or nxt.get("remember") or first.get("alone") or nxt.get("alone"):
        return False  # a message the game edits later (or a round's results) stays alone
    if first.get("buttons") and nxt.get("buttons") and first["buttons"] != nxt["buttons"]:
        return False
    return size + 2 + len(nxt.get("content") or "") <= CONTENT_LIMIT - MERGE_RESERVE


def merge_payloads(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    """One post payload from several consecutive ones (content joined, pictures and embeds
    together, the buttons of any)."""
    out: dict[str, Any] = {"content": "\n\n".join(p["content"] for p in payloads if p.get("content"))}
    out["pictures"] = [x for p in payloads for x in p.get("pictures") or []][:MAX_PICTURES]
    out["embeds"] = [x for p in payloads for x in p.get("embeds") or []][:MAX_EMBEDS]
    out["buttons"] = next((p["buttons"] for p in reversed(payloads) if p.get("buttons")), None)
    out["dm_note"] = any(p.get("dm_note") for p in payloads)
    out["held"] = any(p.get("held") for p in payloads)
    return out


# a relative time (``<t:N:R>``, "in 2 days") moved by at most this many seconds reads the same:
# an edit that moves a deadline by so little (a seat's takeover set again by its next step
# of the same turn a moment later) is not sent (issue 37)
TIME_SLACK = 60.0
_REL_TIME = re.compile(r"<t:(-?\d+):R>")


@dataclass(frozen=True)
class Shown:
    """What an edit (or a remembered post) left on screen, as the deliverer compares it:
    the rest of its payload (a number), its lines with their relative times taken out, the
    times of each line, and the lines that may linger (``linger``: they stay true until the
    message is next edited for another reason, e.g. "All plans sealed — revealed below")."""

    rest: int
    lines: tuple[tuple[str, tuple[int, ...]], ...]
    linger: frozenset[str]

    @staticmethod
    def of(payload: dict[str, Any]) -> Shown:
        rest = {k: v for k, v in payload.items() if k not in ("settle", "content", "linger", "remember")}
        lines = tuple(
            (_REL_TIME.sub("<t:R>", line), tuple(int(t) for t in _REL_TIME.findall(line)))
            for line in str(payload.get("content") or "").split("\n")
        )
        linger = frozenset(_REL_TIME.sub("<t:R>", str(x)) for x in payload.get("linger") or [])
        return Shown(hash(jsontext.dumps(rest)), lines, linger)

    def reads_as(self, new: Shown) -> bool:
        """Whether ``new`` would show a reader what this shows already: the same lines, but
        lingering ones it drops and relative times moved by at most :data:`TIME_SLACK`."""
        if new.rest != self.rest:
            return False
        kept = {text for text, _ in new.lines}
        mine = [(text, times) for text, times in self.lines if text in kept or text not in self.linger]
        return len(mine) == len(new.lines) and all(
            a == b and len(ta) == len(tb) and all(abs(x - y) <= TIME_SLACK for x, y in zip(ta, tb, strict=True))
            for (a, ta), (b, tb) in zip(mine, new.lines, strict=True)
        )


def lane(row: OutboxRow) -> str:
    """A row's destination: one user's DMs, or the game's place (posts and edits). Rows of
    one lane go in order; different lanes go side by side."""
    return f"dm:{row.target}" if row.kind == "dm" else "place"


# Discord's global limit: 50 requests a second per bot, interaction answers excepted
GLOBAL_LIMIT = 50.0


class Budget:
    """A fixed share of Discord's global limit for this process (several processes, each
    with its range of shards: docs/scaling.md says why a fixed share and not a budget
    through the database): at most ``rate`` sends a second, in bursts of at most ``rate``."""

    def __init__(
        self, rate: float, clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.rate = rate
        self.clock = clock
        self.sleep = sleep
        self.tokens = rate
        self.at = clock()

    async def take(self) -> None:
        while True:
            now = self.clock()
            self.tokens = min(self.rate, self.tokens + (now - self.at) * self.rate)
            self.at = now
            if self.tokens >= 1 - 1e-9:  # (a float a hair short of a whole token is one)
                self.tokens = max(0.0, self.tokens - 1)
                return
            await self.sleep(max(0.001, (1 - self.tokens) / self.rate))


def global_share(shard_count: int | None, shard_ids: list[int] | None) -> float | None:
    """This process's share of Discord's global limit: its part of the shards (with a
    tenth kept back for retries), or None when it runs every shard (one process: Discord's
    own answers pace it, as before)."""
    if not shard_count or shard_ids is None or len(shard_ids) >= shard_count:
        return None
    return GLOBAL_LIMIT * 0.9 * len(shard_ids) / shard_count


class Deliverer:
    def __init__(
        self,
        storage: Storage,
        sender: Sender,
        *,
        backoff: float = 1.0,
        backoff_cap: float = 60.0,
        blocked_retry: float = 60.0,
        pace: int = 5,
        per: float = 5.0,
        sweep_every: float = 30.0,
        wall: Callable[[], float] = time.time,
        concurrency: int = 16,
        global_rate: float | None = None,
    ) -> None:
        self.storage = storage
        # this process's share of Discord's global limit (None: not paced here)
        self.budget = Budget(global_rate) if global_rate else None
        self.sender = sender
        self.backoff = backoff
        self.backoff_cap = backoff_cap
        self.blocked_retry = blocked_retry
        self.pace = pace
        self.per = per * 1.05  # a margin: Discord counts on its side of the wire
        # several processes on one database (PostgreSQL): a game's outbox is delivered by
        # the process that claims it (bot.claims); a killed one's is taken over at a sweep
        self.claims = claims_for(storage)
        self.sweep_every = min(sweep_every, SWEEP_S) if self.claims is not None else sweep_every
        self.wall = wall  # real time, not the game clock: retries and pacing
        self.on_sweep: list[Callable[[], Awaitable[None]]] = []
        # a "sync" row (written by an older version with each action, until its posts were
        # queued) still pending: the bot posts the current state (a safety net; actions now
        # write their rows in their own transaction)
        self.on_sync: Callable[[int], Awaitable[None]] | None = None
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._writes: dict[str, list[float]] = {}
        # (game, message) -> what the edit last sent shows (the newest LAST_EDITS messages)
        self._last_edit: OrderedDict[tuple[int, str], Shown] = OrderedDict()
        # game -> the claim's fencing token its remembered edits were sent under (several
        # processes: under another token, another process may have edited its messages)
        self._edit_tokens: dict[int, int] = {}
        # rows this process sent but could not record (its claim ran out meanwhile: a pause
        # longer than the claim), row id -> the message's id: if the claim comes back to
        # it, they are recorded, not sent again (a sender that lived on sends once)
        self._unrecorded: OrderedDict[int, int | None] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None
        self._closed = False
        # at most this many sends (and row look-ups) at once over all games: a thousand
        # games with rows after a restart must not queue a thousand queries ahead of each
        # player's action on the one database connection
        self._slots = asyncio.Semaphore(concurrency)
        # games known to have no delivery block (looked up once, or cleared here): a send
        # then needs no look-up (issue 25: one trip to the database thread less per send).
        # Only this deliverer puts a block; /game move only clears one.
        self._unblocked: set[int] = set()
        # games whose pending rows may have changed since their sender read them (a row
        # marked here other than by a clean send): read them all again
        self._dirty: set[int] = set()
        # games kicked since their sender read its rows: new rows may have been written
        # (read the rows after the last one read, unless the storage's ``outbox_epoch``
        # says rows were changed otherwise: then all of them)
        self._grown: set[int] = set()
        # game -> {row id: None (settled here without a send) or its new due time}: what
        # this deliverer wrote to rows its sender knows, applied to them instead of a
        # read of them all (issue 25: a superseded edit of the status message, about one
        # action in three under load, had the game's whole backlog read again)
        self._patches: dict[int, dict[int, float | None]] = {}
        # "delivered" marks waiting for their shared transaction (:meth:`_delivered`)
        self._marks: list[tuple[Callable[[Any], Awaitable[None]], asyncio.Future[None]]] = []
        self._marker: asyncio.Task[None] | None = None

    # -- running ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the periodic sweep (its first pass restarts what a restart left pending)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop(), name="boardroom-delivery")

    async def close(self) -> None:
        self._closed = True
        tasks = [t for t in [self._sweeper, *self._tasks.values(), self._marker] if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t

    def kick(self, game_id: int) -> None:
        """Deliver the game's pending rows now (starts its sender task if none runs)."""
        if self._closed:
            return
        self._grown.add(game_id)
        self._wake.setdefault(game_id, asyncio.Event()).set()
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.get_running_loop().create_task(
                self._drain(game_id), name=f"boardroom-deliver-{game_id}"
            )

    async def sweep(self) -> None:
        """One pass: restart every game with pending rows, then the ``on_sweep`` hooks."""
        async with self.storage.read() as q:
            games = await q.games_with_pending_outbox()
        for gid in games:
            self.kick(gid)
        async with self.storage.transaction() as tx:  # delivered rows are kept a week
            await tx.prune_outbox(self.wall() - KEEP_DELIVERED)
        for hook in list(self.on_sweep):
            try:
                await hook()
            except Exception:
                log.exception("a delivery sweep hook failed")

    async def idle(self) -> None:
        """Wait until no game has a sender task running (tests)."""
        while any(not t.done() for t in self._tasks.values()):
            await asyncio.sleep(0.05)

    async def _sweep_loop(self) -> None:
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the delivery sweep failed")
            await asyncio.sleep(self.sweep_every)

    # -- one game -----------------------------------------------------------------------

    async def _drain(self, game_id: int) -> None:
        """Send the game's pending rows: in order per destination (a lane: the game's
        place, or one user's DMs), the lanes side by side (the planner DMs of a new round
        go out together, while the round's post draws its pictures)."""
        wake = self._wake.setdefault(game_id, asyncio.Event())
        inflight: dict[str, asyncio.Task[None]] = {}
        busy: set[int] = set()  # ids of the rows being sent (still "pending" in the database)
        # The pending rows as last read, less the rows this loop's sends settled since
        # (issue 25: read again only when something else may have changed them: a send
        # that did not settle its rows, a row marked here, a rewrite by the app (the
        # storage's ``outbox_epoch``), or REREAD_S passed; a backlog read again after
        # every send cost its length per row). After a kick only the rows written since
        # (ids greater than ``top``, the greatest read) are read and added.
        known: list[OutboxRow] | None = None
        read_at = 0.0
        top = 0
        epoch = self.storage.outbox_epoch(game_id)
        claim = str(game_id)
        try:
            while not self._closed:
                wake.clear()
                if self.claims is not None:
                    token = await self.claims.hold("outbox", claim)
                    if token is None:
                        return  # another live process delivers this game's rows
                    if self._edit_tokens.get(game_id) != token:  # another process may have edited since
                        self._forget_edits(game_id, token)
                for ln in [ln for ln, t in inflight.items() if t.done()]:
                    task = inflight.pop(ln)
                    if not task.cancelled() and task.exception() is not None:
                        log.error("game %s: a delivery failed", game_id, exc_info=task.exception())
                    settled = getattr(task, "settled", None)
                    if settled is None:
                        self._dirty.add(game_id)
                    elif known is not None:
                        known = [r for r in known if r.id not in settled]
                patch = self._patches.pop(game_id, None)
                if patch and known is not None:
                    known = [
                        r if r.id not in patch else replace(r, next_try_at=patch[r.id])
                        for r in known if r.id not in patch or patch[r.id] is not None
                    ]
                busy = {i for t in inflight.values() for i in getattr(t, "row_ids", ())}
                async with self._slots:
                    full = known is None or game_id in self._dirty or time.monotonic() - read_at >= REREAD_S
                    if full or game_id in self._grown or self.storage.outbox_epoch(game_id) != epoch:
                        self._dirty.discard(game_id)
                        self._grown.discard(game_id)
                        async with self.storage.read() as q:  # (the epoch as of this read: in its lock)
                            full = full or self.storage.outbox_epoch(game_id)[:2] != epoch[:2]
                            epoch = self.storage.outbox_epoch(game_id)
                            if full:
                                read_at = time.monotonic()
                            # (not the held log lines: they go with the next phase post)
                            fresh = await q.pending_outbox(game_id, after=0 if full else top, held=False)
                        top = max([top, *(r.id for r in fresh)])
                        known = fresh if full or known is None else known + fresh
                    rows = [r for r in known if r.id not in busy]
                    if not rows and not inflight:
                        if game_id in self._dirty or game_id in self._grown:  # kicked while it read
                            continue
                        return
                    started, due = await self._start_lanes(game_id, rows, inflight)
                if started:
                    continue
                if not inflight:
                    if due == float("inf"):
                        return  # only rows that wait for nothing that can change (cannot happen)
                    await self._wait(wake, due - self.wall())
                    continue
                waiter = asyncio.ensure_future(wake.wait())
                try:
                    await asyncio.wait(
                        [*inflight.values(), waiter],
                        timeout=max(0.01, min(due - self.wall(), self.backoff_cap)),
                        return_when=asyncio.FIRST_COMPLETED,
                    )
                finally:
                    waiter.cancel()
        finally:
            for t in inflight.values():
                t.cancel()
            if self.claims is not None and not self._closed:
                with contextlib.suppress(Exception):  # (expires by itself otherwise)
                    await self.claims.release("outbox", claim)

    async def _start_lanes(
        self, game_id: int, rows: list[OutboxRow], inflight: dict[str, asyncio.Task[None]]
    ) -> tuple[bool, float]:
        """Start sending the first due row of each idle lane; (whether any started or was
        settled, when the next waiting row is due)."""
        now = self.wall()
        held = set(inflight)  # lanes whose earlier row goes first
        # batches with a DM on its way or pending before the row looked at
        dm_batches = {b for t in inflight.values() for b in getattr(t, "dm_batches", ())}
        due = float("inf")
        started = False
        for i, r in enumerate(rows):
            ln = lane(r)
            if r.kind == "sync":  # a barrier: the state is posted once nothing else is on the way
                if not inflight and not started:
                    await self._resync(game_id, r)
                    return True, due
                break
            if ln in held:
                if r.kind == "dm":
                    dm_batches.add(r.batch)
                self._prepare(r)  # a post's pictures are drawn while the rows before it go
                continue
            ready = r.next_try_at <= now
            waits_dms = r.kind == "post" and bool(r.payload.get("dm_note")) and r.batch in dm_batches
            if ready and not waits_dms:
                later = rows[i + 1 :]
                if r.kind == "edit" and await self._edit_superseded(r, rows[:i], later, now):
                    return True, due
                key = await self._key(r)
                wait = self._pace_wait(key, now=time.monotonic())
                if wait > 0:  # a burst: wait, then send what has gathered, merged
                    due = min(due, now + wait)
                    held.add(ln)
                    self._prepare(r)
                    continue
                merged = self._merge_group(r, later, dm_batches) if r.kind == "post" else []
                if key is not None:  # the write counts for pacing until it is answered (_paced)
                    self._writes.setdefault(key, []).append(math.inf)
                task = asyncio.get_running_loop().create_task(
                    self._paced(key, self._send(game_id, r, merged)), name=f"boardroom-deliver-{game_id}-{r.id}"
                )
                task.row_ids = [x.id for x in [r, *merged]]  # type: ignore[attr-defined]
                task.dm_batches = [r.batch] if r.kind == "dm" else []  # type: ignore[attr-defined]
                inflight[ln] = task
                started = True
                held.add(ln)
            else:
                if not ready:
                    due = min(due, r.next_try_at)
                if waits_dms:
                    self._prepare(r)  # its pictures are drawn while the DMs go out
                if r.ordered or waits_dms:
                    held.add(ln)  # the rows after it in its lane wait for it
            if r.kind == "dm":
                dm_batches.add(r.batch)
        return started, due

    async def _edit_superseded(
        self, row: OutboxRow, earlier: list[OutboxRow], later: list[OutboxRow], now: float
    ) -> bool:
        """Before a due edit goes out: older pending edits of its message are dropped (a
        ``settle`` edit that waits must not overwrite it later); if a newer edit follows,
        this one is dropped instead, and the newest is due now if it only waited to settle;
        if its content is the one last sent, it is dropped too. True: ``row`` is settled
        without a send (look at the rows again)."""
        same = [x for x in earlier if x.kind == "edit" and x.target == row.target]
        newer = [x for x in later if x.kind == "edit" and x.target == row.target]
        shown = self._last_edit.get((row.game_id, row.target))
        repeat = not newer and shown is not None and shown.reads_as(Shown.of(row.payload))
        if not (same or newer or repeat):
            return False
        patch: dict[int, float | None] = {x.id: None for x in same}
        if newer or repeat:
            patch[row.id] = None
        last = newer[-1] if newer else None
        if last is not None and last.payload.get("settle") and last.next_try_at > now:
            patch[last.id] = now  # due when this one was

        async def write(tx: Any) -> None:
            for row_id, due in patch.items():
                if due is None:
                    await tx.mark_outbox(row_id, "delivered")
                else:
                    await tx.mark_outbox(row_id, "pending", next_try_at=due)

        try:
            await self._shared(write)
        except BaseException:
            self._dirty.add(row.game_id)  # what was written is not known: read them all again
            raise
        self._patches.setdefault(row.game_id, {}).update(patch)
        return bool(newer or repeat)

    def _forget_edits(self, game_id: int, token: int) -> None:
        """The game's claim changed hands since its edits were remembered (another process
        may have edited its messages since): remember none of them (issue 37: an edit
        skipped as "already shown" must be so)."""
        for key in [k for k in self._last_edit if k[0] == game_id]:
            del self._last_edit[key]
        self._edit_tokens[game_id] = token
        while len(self._edit_tokens) > LAST_EDITS:
            self._edit_tokens.pop(next(iter(self._edit_tokens)))

    def _edited(self, row: OutboxRow) -> None:
        """Remember what an edit (or a post the game edits later) shows now."""
        key = (row.game_id, row.target if row.kind == "edit" else str(row.payload["remember"]))
        self._last_edit[key] = Shown.of(row.payload)
        self._last_edit.move_to_end(key)
        while len(self._last_edit) > LAST_EDITS:
            self._last_edit.popitem(last=False)

    def _prepare(self, row: OutboxRow) -> None:
        """Let the sender get a waiting post ready (draw its pictures) before its turn."""
        prepare = getattr(self.sender, "prepare", None)
        if prepare is not None and row.kind == "post" and row.payload.get("pictures"):
            try:
                prepare(row)
            except Exception:
                log.exception("game %s: preparing outbox row %s failed", row.game_id, row.id)

    async def _paced(self, key: str | None, send: Awaitable[None]) -> None:
        """Run ``send``; its write counts for the pace from when Discord answered it, not
        from when it left: a write slowed on its way (a busy machine, a picture upload)
        reaches Discord late, and the next window must start after it did."""
        try:
            await send
        finally:
            writes = self._writes.get(key) if key is not None else None
            if writes is not None and math.inf in writes:
                writes.remove(math.inf)
                writes.append(time.monotonic())

    async def _send(self, game_id: int, pick: OutboxRow, merged: list[OutboxRow]) -> None:
        """Send one row (with the posts merged into it) and mark what became of it."""
        try:
            async with self._slots:
                settled = await self._send_now(game_id, pick, merged)
            task = asyncio.current_task()
            if settled is not None and task is not None:
                task.settled = settled  # type: ignore[attr-defined]  # no longer pending: see _drain
        finally:
            self._wake.setdefault(game_id, asyncio.Event()).set()

    async def _send_now(self, game_id: int, pick: OutboxRow, merged: list[OutboxRow]) -> set[int] | None:
        """Send, then mark; the ids of the rows no longer pending, or None if a row is
        still pending in a changed way (to try again later) and must be read again."""
        # the claim renewed before a send when half its time is gone (a send and its record
        # under load outlasted what the drain loop's renewal left); a process paused past
        # its claim that another process took meanwhile sends nothing
        if self.claims is not None and await self.claims.hold("outbox", str(game_id)) is None:
            return None
        try:
            if pick.id in self._unrecorded and all(r.id in self._unrecorded for r in merged):
                message_id = self._unrecorded[pick.id]  # sent already, by this process
            else:
                if self.budget is not None:
                    await self.budget.take()
                message_id = await self.sender.deliver(pick, merged)
        except asyncio.CancelledError:
            raise
        except Gone:
            log.info("game %s: the message of outbox row %s is gone; skipped", game_id, pick.id)
            await self._mark(pick.id, "delivered")
            return {pick.id}
        except DmClosed:
            await self._mark(pick.id, "closed")
            return {pick.id}
        except Refused as exc:
            log.error("game %s: Discord refused outbox row %s (%s); dropped", game_id, pick.id, exc)
            await self._mark(pick.id, "failed")
            return {pick.id}
        except Blocked as exc:
            await self._blocked(game_id, pick, exc.code)
            return None
        except Retry as exc:
            await self._retry(pick, exc.after, str(exc))
            return None
        except Exception as exc:  # a bug or a network error: try again later, say so once
            if pick.attempts == 0:
                log.exception("game %s: delivering outbox row %s failed", game_id, pick.id)
            await self._retry(pick, None, type(exc).__name__)
            return None
        else:
            if pick.kind == "edit" or (pick.kind == "post" and pick.payload.get("remember") and not merged):
                self._edited(pick)
            try:
                await self._delivered(game_id, [pick, *merged], message_id)
            except ClaimLost:  # sent (its nonce keeps it one post), recorded by the new owner
                log.info("game %s: outbox row %s was sent after this process lost its claim", game_id, pick.id)
                for r in [pick, *merged]:
                    self._unrecorded[r.id] = message_id
                while len(self._unrecorded) > UNRECORDED:
                    self._unrecorded.popitem(last=False)
                return None
            for r in [pick, *merged]:
                self._unrecorded.pop(r.id, None)
            return {r.id for r in [pick, *merged]}

    async def _delivered(self, game_id: int, rows: list[OutboxRow], message_id: int | None) -> None:
        """Mark ``rows`` delivered (and release the log lines a phase post showed). A post
        in the game's place that went through clears the game's delivery block; a DM or an
        edit does not (issue 34 §4: a reminder DM delivered while the channel refused
        posts cleared it, and the next refused post told everyone "I cannot post" again)."""
        posted = any(r.kind == "post" for r in rows)

        async def write(tx: Any) -> None:
            if self.claims is not None:  # the fence: a lost claim records nothing
                await self.claims.fence(tx, "outbox", str(game_id))
            for r in rows:
                await tx.mark_outbox(r.id, "delivered", message_id=message_id)
            if any(r.payload.get("held") for r in rows):
                await tx.release_held(game_id, max(r.id for r in rows))
            if posted and game_id not in self._unblocked and await tx.delivery_block(game_id) is not None:
                await tx.clear_delivery_block(game_id)
                log.info("game %s: posting works again", game_id)

        await self._shared(write)
        if posted:
            self._unblocked.add(game_id)

    async def _shared(self, write: Callable[[Any], Awaitable[None]]) -> None:
        """Run ``write(tx)`` in a write transaction shared with the deliverer's other marks
        made meanwhile (issue 25: one transaction per send was most of a row's cost under
        load): the marks gather while the transaction waits for the database, and go in it
        together. Returns once it is committed, as if it were this caller's own; if it
        fails, every caller in it gets the error."""
        done = asyncio.get_running_loop().create_future()
        self._marks.append((write, done))
        if self._marker is None or self._marker.done():
            self._marker = asyncio.get_running_loop().create_task(self._write_marks(), name="boardroom-delivered")
        await done

    async def _write_marks(self) -> None:
        """Commit the waiting marks, each transaction taking all that wait when it starts
        (after ``MARK_GATHER_S``: the sends that end about together share it)."""
        while self._marks:
            await asyncio.sleep(MARK_GATHER_S)
            marks: list[tuple[Callable[[Any], Awaitable[None]], asyncio.Future[None]]] = []
            try:
                async with self.storage.transaction() as tx:
                    marks, self._marks = self._marks, []  # all that gathered while it waited
                    for write, _ in marks:
                        await write(tx)
            except BaseException as exc:
                if not marks:  # it failed before it took them
                    marks, self._marks = self._marks, []
                for _, done in marks:
                    if not done.done():
                        done.set_exception(exc if isinstance(exc, Exception) else RuntimeError("marks cancelled"))
                if not isinstance(exc, Exception):
                    raise
                continue
            for _, done in marks:
                if not done.done():
                    done.set_result(None)

    async def _resync(self, game_id: int, row: OutboxRow) -> None:
        self._dirty.add(game_id)
        if self.on_sync is not None:
            try:
                await self.on_sync(game_id)
            except Exception:
                log.exception("game %s: could not post the state after lost posts", game_id)
                await self._retry(row, None, "resync failed")
                return
        async with self.storage.transaction() as tx:
            await tx.cover_syncs(game_id, int(row.payload.get("version", 0)))
            await tx.mark_outbox(row.id, "delivered")

    def _merge_group(self, pick: OutboxRow, later: list[OutboxRow], dm_batches: set[int]) -> list[OutboxRow]:
        """The pending posts right after ``pick`` that fit into the same message (not one
        that waits for the DMs of its batch)."""
        out: list[OutboxRow] = []
        size = len(pick.payload.get("content") or "")
        pictures = len(pick.payload.get("pictures") or [])
        now = self.wall()
        for r in later:
            if r.kind != "post" or r.next_try_at > now or not mergeable(pick.payload, r.payload, size):
                break
            if r.payload.get("dm_note") and r.batch in dm_batches:
                break
            pictures += len(r.payload.get("pictures") or [])
            if pictures > MAX_PICTURES:
                break
            out.append(r)
            size += 2 + len(r.payload.get("content") or "")
        return out

    async def _key(self, row: OutboxRow) -> str | None:
        try:
            return await self.sender.channel_key(row)
        except Exception:
            return None

    def _pace_wait(self, key: str | None, *, now: float) -> float:
        """Seconds to wait before the next write to ``key`` (0: go)."""
        if key is None:
            return 0.0
        writes = self._writes.setdefault(key, [])
        writes[:] = [t for t in writes if now - t < self.per]
        if len(writes) < self.pace:
            return 0.0
        return min(writes) + self.per - now  # inf while the oldest is on its way

    async def _wait(self, wake: asyncio.Event, seconds: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(wake.wait(), max(0.01, min(seconds, self.backoff_cap)))

    async def _mark(self, row_id: int, state: str) -> None:
        async with self.storage.transaction() as tx:
            await tx.mark_outbox(row_id, state)

    def _delay(self, attempts: int) -> float:
        return float(min(self.backoff_cap, self.backoff * (2 ** max(0, attempts - 1))))

    async def _retry(self, row: OutboxRow, after: float | None, why: str) -> None:
        attempts = row.attempts + 1
        delay = max(after or 0.0, self._delay(attempts))
        log.warning("game %s: outbox row %s not delivered (%s); try %d again in %.1f s", row.game_id, row.id, why, attempts + 1, delay)
        async with self.storage.transaction() as tx:
            await tx.mark_outbox(row.id, "pending", attempts=attempts, next_try_at=self.wall() + delay)

    async def _blocked(self, game_id: int, row: OutboxRow, code: int) -> None:
        self._unblocked.discard(game_id)
        attempts = row.attempts + 1
        async with self.storage.transaction() as tx:
            block = await tx.delivery_block(game_id)
            await tx.put_delivery_block(game_id, code, self.wall())
            await tx.mark_outbox(
                row.id, "pending", attempts=attempts, next_try_at=self.wall() + min(self.blocked_retry, self._delay(attempts))
            )
        if block is None or block[2] is None:
            log.warning("game %s cannot post (%s); the players are told", game_id, code)
            try:
                await self.sender.tell_blocked(game_id, code)
            except Exception:
                log.exception("game %s: could not tell the players that it cannot post", game_id)
                return
            async with self.storage.transaction() as tx:
                await tx.told_delivery_block(game_id, self.wall())
