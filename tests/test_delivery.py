"""The delivery outbox without Discord (bot/delivery.py, issue 8 §1): order per game,
retries honouring retry_after, notices that hold up nothing, pacing by delaying and
merging, coalesced edits, "cannot post" told once and delivered once fixed, resuming
after a restart, and the same nonce on a send repeated after a crash."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.delivery import Blocked, Deliverer, DmClosed, Gone, Retry
from bot.storage import OutboxRow, Storage


class FakeSender:
    """Records what it was asked to send; ``faults`` maps a content to exceptions to raise."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, str, str, list[int], str]] = []  # (time, kind, content, row ids, nonce)
        self.faults: dict[str, list[Exception]] = {}
        self.told: list[tuple[int, int]] = []
        self.ids = iter(range(1000, 10_000))

    async def channel_key(self, row: OutboxRow) -> str | None:
        return None if row.kind == "dm" else "chan"

    async def deliver(self, row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        content = "\n\n".join(r.payload.get("content", "") for r in [row, *merged])
        queue = self.faults.get(row.payload.get("content", ""))
        if queue:
            raise queue.pop(0)
        self.sent.append((time.monotonic(), row.kind, content, [r.id for r in [row, *merged]], row.nonce))
        return next(self.ids)

    async def tell_blocked(self, game_id: int, code: int) -> None:
        self.told.append((game_id, code))

    def contents(self) -> list[str]:
        return [c for _t, _k, c, _ids, _n in self.sent]


@pytest.fixture
async def storage(tmp_path: Any) -> AsyncIterator[Storage]:
    s = await Storage.open(tmp_path / "outbox.db")
    async with s.transaction() as tx:
        for gid in (1, 2):
            await tx.insert_game("fake", {}, guild_id=None, channel_id=100 + gid, thread_id=None, host_id=1, at=0.0)
    yield s
    await s.close()


async def queue(storage: Storage, game_id: int, *rows: tuple[str, str, dict[str, Any], bool]) -> None:
    async with storage.transaction() as tx:
        batch = await tx.next_outbox_batch()
        for kind, target, payload, ordered in rows:
            await tx.put_outbox(game_id, batch, kind, target, payload, ordered=ordered, at=time.time())


def post(content: str, ordered: bool = True, **kw: Any) -> tuple[str, str, dict[str, Any], bool]:
    return ("post", "place", {"content": content, **kw}, ordered)


async def settle(d: Deliverer, timeout: float = 10.0) -> None:
    await asyncio.wait_for(d.idle(), timeout)


def make(storage: Storage, sender: FakeSender, **kw: Any) -> Deliverer:
    kw.setdefault("backoff", 0.05)
    kw.setdefault("backoff_cap", 0.2)
    kw.setdefault("blocked_retry", 0.2)
    return Deliverer(storage, sender, **kw)


async def states(storage: Storage, game_id: int) -> list[str]:
    async with storage.read() as q:
        return [r.state for r in await q.outbox_rows(game_id)]


async def test_rows_are_sent_in_order_and_marked_with_their_message_id(storage: Storage) -> None:
    sender = FakeSender()
    d = make(storage, sender)
    await queue(storage, 1, post("one", remember="status"), ("edit", "status", {"content": "two"}, True), post("three", remember="x"))
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["one", "two", "three"]
    async with storage.read() as q:
        rows = await q.outbox_rows(1)
    assert [r.state for r in rows] == ["delivered"] * 3 and all(r.message_id for r in rows)
    await d.close()


async def test_a_retry_waits_retry_after_and_holds_up_later_rows(storage: Storage) -> None:
    sender = FakeSender()
    sender.faults["one"] = [Retry("429", after=0.3), Retry("500")]
    d = make(storage, sender)
    await queue(storage, 1, post("one", remember="a"), post("two", remember="b"))
    start = time.monotonic()
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["one", "two"]  # in order, nothing lost, nothing doubled
    assert sender.sent[0][0] - start >= 0.3
    async with storage.read() as q:
        assert (await q.outbox_rows(1))[0].attempts == 2
    await d.close()


async def test_a_failing_notice_holds_up_nothing_and_is_retried(storage: Storage) -> None:
    sender = FakeSender()
    sender.faults["notice"] = [Retry("500"), Retry("500"), Retry("500")]
    d = make(storage, sender)
    await queue(storage, 1, post("notice", ordered=False, remember="n"), post("reveal", remember="r"))
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["reveal", "notice"]
    await d.close()


async def test_a_burst_is_paced_and_merged_never_dropped(storage: Storage) -> None:
    """12 posts at once in one channel: at most 5 writes per 5 s (here 5 per 0.5 s),
    the waiting posts merged into fewer messages, every line delivered once."""
    sender = FakeSender()
    d = make(storage, sender, pace=5, per=0.5)
    for i in range(5):
        await queue(storage, 1, post(f"early {i}", remember=f"e{i}"))  # alone: never merged
    await queue(storage, 1, *[post(f"line <{i}>") for i in range(12)])
    d.kick(1)
    await settle(d)
    times = [t for t, *_ in sender.sent]
    for i in range(len(times) - 5):
        assert times[i + 5] - times[i] >= 0.5
    text = "\n\n".join(sender.contents())
    assert all(text.count(f"line <{i}>") == 1 for i in range(12))
    assert len(sender.sent) < 5 + 12  # merged
    assert set(await states(storage, 1)) == {"delivered"}
    await d.close()


class LateSender(FakeSender):
    """The first write reaches "Discord" ``lag`` seconds after it left (a busy machine, an
    upload), the others at once: ``sent`` records the arrival."""

    def __init__(self, lag: float) -> None:
        super().__init__()
        self.lag = lag

    async def deliver(self, row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        if not self.sent:
            await asyncio.sleep(self.lag)
        return await super().deliver(row, merged)


async def test_the_pace_counts_a_write_from_its_arrival_not_its_start(storage: Storage) -> None:
    """A write that takes longer than the pace's window to arrive: Discord counts it when
    it arrives, so the window of the writes after it starts then. Counted from its start,
    the sixth write left as soon as the fifth was answered: six arrived at once."""
    sender = LateSender(lag=0.3)
    d = make(storage, sender, pace=5, per=0.2)
    await queue(storage, 1, *[post(f"alone {i}", remember=f"a{i}") for i in range(8)])  # never merged
    d.kick(1)
    await settle(d)
    times = [t for t, *_ in sender.sent]
    assert len(times) == 8
    for i in range(len(times) - 5):
        assert times[i + 5] - times[i] >= 0.2, times
    await d.close()


async def test_only_the_newest_of_several_edits_is_sent(storage: Storage) -> None:
    sender = FakeSender()
    sender.faults["first"] = [Retry("500")]
    d = make(storage, sender)
    await queue(storage, 1, post("first", remember="s"))
    await queue(storage, 1, *[("edit", "s", {"content": f"sealed {i}/3"}, True) for i in range(3)])
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["first", "sealed 2/3"]
    await d.close()


async def test_cannot_post_is_told_once_and_delivered_once_fixed(storage: Storage) -> None:
    sender = FakeSender()
    sender.faults["reveal"] = [Blocked(50013)] * 4
    d = make(storage, sender)
    await queue(storage, 1, post("reveal", remember="r"), post("prompt", remember="p"))
    d.kick(1)
    await settle(d)
    assert sender.told == [(1, 50013)]  # told once, not at every retry
    assert sender.contents() == ["reveal", "prompt"]
    async with storage.read() as q:
        assert await q.delivery_block(1) is None  # cleared once a post went through
    await d.close()


async def test_a_dm_delivered_while_the_channel_refuses_posts_keeps_the_block(storage: Storage) -> None:
    """Issue 34 §4: a DM (a reminder) that goes through while the game's channel refuses
    posts does not clear the game's blocked mark: the next refused post does not tell
    everyone "I cannot post" again. The mark goes when a post goes through."""
    sender = FakeSender()
    sender.faults["reveal"] = [Blocked(50013)] * 8
    d = make(storage, sender, blocked_retry=0.1, backoff=0.1, backoff_cap=0.1)
    await queue(storage, 1, post("reveal"))
    d.kick(1)
    for _ in range(200):
        if sender.told:
            break
        await asyncio.sleep(0.01)
    assert sender.told == [(1, 50013)]
    await queue(storage, 1, ("dm", "7", {"content": "reminder"}, False))
    d.kick(1)
    for _ in range(200):
        if "reminder" in sender.contents():
            break
        await asyncio.sleep(0.01)
    assert "reminder" in sender.contents() and "reveal" not in sender.contents()
    async with storage.read() as q:
        assert await q.delivery_block(1) is not None  # a DM is not a post in the channel
    await settle(d)  # the post is refused a few more times, then goes through
    assert sender.contents() == ["reminder", "reveal"]
    assert sender.told == [(1, 50013)]  # told once
    async with storage.read() as q:
        assert await q.delivery_block(1) is None  # cleared by the post that went through
    await d.close()


async def test_a_gone_message_or_closed_dm_does_not_stop_the_game(storage: Storage) -> None:
    sender = FakeSender()
    sender.faults["counter"] = [Gone("10008")]
    sender.faults["planner"] = [DmClosed("50007")]
    d = make(storage, sender)
    await queue(
        storage, 1, ("edit", "sealed", {"content": "counter"}, True), ("dm", "7", {"content": "planner"}, True), post("reveal")
    )
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["reveal"]
    assert await states(storage, 1) == ["delivered", "closed", "delivered"]
    async with storage.read() as q:
        batch = (await q.outbox_rows(1))[1].batch
        assert await q.closed_dms_in_batch(batch) == [7]
    await d.close()


async def test_games_are_independent(storage: Storage) -> None:
    sender = FakeSender()
    sender.faults["stuck"] = [Retry("500")] * 50
    d = make(storage, sender)
    await queue(storage, 1, post("stuck"))
    await queue(storage, 2, post("other game"))
    d.kick(1)
    d.kick(2)
    await asyncio.sleep(0.5)
    assert sender.contents() == ["other game"]
    await d.close()


async def test_a_restart_resumes_pending_rows_with_the_same_nonce(storage: Storage) -> None:
    """A process that sent a post and died before marking it: the next one sends the row
    again with the same nonce (Discord's enforce_nonce then answers with the first message);
    the sweep at start-up finds the pending rows by itself."""
    first = FakeSender()
    d1 = make(storage, first)
    await queue(storage, 1, post("reveal", remember="r"), post("prompt", remember="p"))
    rows = None
    async with storage.read() as q:
        rows = await q.pending_outbox(1)
    # the crash: the first row went out, its "delivered" mark never did
    await first.deliver(rows[0], [])
    await d1.close()
    second = FakeSender()
    d2 = make(storage, second, sweep_every=0.1)
    d2.start()
    await asyncio.sleep(0.2)
    await settle(d2)
    assert second.contents() == ["reveal", "prompt"]
    assert second.sent[0][4] == first.sent[0][4] == rows[0].nonce
    assert await states(storage, 1) == ["delivered", "delivered"]
    await d2.close()


async def test_the_sweep_forgets_old_delivered_rows_only(storage: Storage) -> None:
    sender = FakeSender()
    sender.faults["stuck"] = [Retry("500")] * 50
    d = make(storage, sender)
    await queue(storage, 1, post("done"))
    d.kick(1)
    await settle(d)
    await queue(storage, 1, post("stuck"))
    async with storage.transaction() as tx:
        await tx.conn.execute("UPDATE outbox SET created_at = 0")
    await d.sweep()
    async with storage.read() as q:
        assert [r.payload["content"] for r in await q.outbox_rows(1)] == ["stuck"]
    await d.close()


class SlowSender(FakeSender):
    """A FakeSender whose sends take ``delay`` seconds; records when each began and ended."""

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay
        self.spans: list[tuple[str, float, float]] = []
        self.prepared: list[int] = []

    def prepare(self, row: OutboxRow) -> None:
        self.prepared.append(row.id)

    async def deliver(self, row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        start = time.monotonic()
        await asyncio.sleep(self.delay)
        out = await super().deliver(row, merged)
        self.spans.append((row.payload.get("content", ""), start, time.monotonic()))
        return out


def dm(user: int, content: str) -> tuple[str, str, dict[str, Any], bool]:
    return ("dm", str(user), {"content": content}, True)


async def test_dms_to_different_users_go_together_in_order_per_user(storage: Storage) -> None:
    """The planner DMs of a new round go out side by side; each user's DMs and the
    channel's posts keep their order; the round's post that lists closed DMs (dm_note)
    goes only after its batch's DMs, its pictures prepared meanwhile."""
    sender = SlowSender(0.2)
    sender.faults["u2-a"] = [DmClosed("50007")]
    d = make(storage, sender)
    await queue(
        storage, 1,
        dm(1, "u1-a"), dm(2, "u2-a"), dm(3, "u3-a"),
        post("results", alone=True),
        post("phase", dm_note=True, pictures=[{"file": "b.png"}]),
        dm(1, "u1-b"),
        ("edit", "status", {"content": "status"}, True),
    )
    start = time.monotonic()
    d.kick(1)
    await settle(d)
    took = time.monotonic() - start
    spans = {c: (a, b) for c, a, b in sender.spans}
    assert sorted(spans) == sorted(["u1-a", "u3-a", "results", "phase", "u1-b", "status"])  # nothing lost
    assert len(sender.sent) == 6  # nothing doubled
    assert spans["u1-a"][1] <= spans["u1-b"][0]  # one user's DMs in order
    assert spans["results"][1] <= spans["phase"][0] <= spans["status"][0]  # the channel's in order
    assert spans["phase"][0] >= max(spans["u1-a"][1], spans["u3-a"][1])  # after its batch's DMs
    assert spans["results"][0] < spans["u3-a"][1]  # side by side with the DMs
    assert took < 0.2 * 6  # not one after another
    async with storage.read() as q:
        rows = await q.outbox_rows(1)
    assert sorted(r.state for r in rows) == ["closed"] + ["delivered"] * 6
    assert rows[4].id in sender.prepared
    await d.close()


async def test_lanes_under_faults_lose_and_double_nothing(storage: Storage) -> None:
    sender = SlowSender(0.02)
    sender.faults["u1-a"] = [Retry("500"), Retry("429", after=0.1)]
    sender.faults["p1"] = [Retry("502")]
    d = make(storage, sender)
    await queue(storage, 1, dm(1, "u1-a"), dm(2, "u2-a"), post("p1", remember="a"), dm(1, "u1-b"), post("p2", remember="b"))
    d.kick(1)
    await settle(d)
    assert [c for c in sender.contents() if c.startswith("u1")] == ["u1-a", "u1-b"]
    assert [c for c in sender.contents() if c.startswith("p")] == ["p1", "p2"]
    assert sorted(sender.contents()) == ["p1", "p2", "u1-a", "u1-b", "u2-a"]
    assert await states(storage, 1) == ["delivered"] * 5
    await d.close()


# --- the status message's settling edits (issue 9: channel writes per phase) -----------


async def queue_settling(storage: Storage, game_id: int, content: str, settle: float) -> None:
    """An edit of the status message after a turn inside a phase, as the app writes it."""
    from bot.app.compose import status_edit

    async with storage.transaction() as tx:
        await tx.put_outbox_rows(game_id, await tx.next_outbox_batch(), [status_edit(content)], at=time.time(), settle=settle)


async def test_a_settling_edit_waits_holds_up_nothing_and_newer_ones_replace_it_when_it_was_due(storage: Storage) -> None:
    sender = FakeSender()
    d = make(storage, sender)
    start = time.monotonic()
    await queue_settling(storage, 1, "sealed 1/3", 0.6)
    await queue(storage, 1, post("a notice", remember="n"))
    d.kick(1)
    await asyncio.sleep(0.3)
    assert sender.contents() == ["a notice"]  # the edit waits and holds up nothing
    await queue_settling(storage, 1, "sealed 2/3", 0.6)  # due 0.3 s after the first one
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["a notice", "sealed 2/3"]  # one edit, the newest
    waited = sender.sent[-1][0] - start
    assert 0.55 <= waited < 0.85, waited  # when the first was due, not 0.6 s after the second
    assert await states(storage, 1) == ["delivered"] * 3
    await d.close()


async def test_an_edit_sent_at_once_drops_the_older_settling_edit(storage: Storage) -> None:
    """A phase change edits the status at once: the older settling edit must not overwrite
    it when it comes due."""
    sender = FakeSender()
    d = make(storage, sender)
    await queue_settling(storage, 1, "sealed 1/2", 0.3)
    await queue(storage, 1, post("Round 2 · Planning"), ("edit", "status", {"content": "Round 2"}, True))
    d.kick(1)
    await settle(d)
    await asyncio.sleep(0.4)
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["Round 2 · Planning", "Round 2"]
    assert await states(storage, 1) == ["delivered"] * 3
    await d.close()


async def test_an_edit_that_repeats_the_last_content_is_not_sent(storage: Storage) -> None:
    sender = FakeSender()
    d = make(storage, sender)
    await queue(storage, 1, ("edit", "status", {"content": "waiting for Bob"}, True))
    d.kick(1)
    await settle(d)
    await queue_settling(storage, 1, "waiting for Bob", 0.0)  # e.g. Bob's second step
    await queue(storage, 2, ("edit", "status", {"content": "waiting for Bob"}, True))  # another game's
    d.kick(1)
    d.kick(2)
    await settle(d)
    assert sender.contents() == ["waiting for Bob", "waiting for Bob"]  # game 1 once, game 2 once
    assert await states(storage, 1) == ["delivered"] * 2
    await queue_settling(storage, 1, "waiting for Ann", 0.0)
    d.kick(1)
    await settle(d)
    assert sender.contents()[-1] == "waiting for Ann"
    await d.close()


async def test_an_edit_that_reads_the_same_is_not_sent(storage: Storage) -> None:
    """Issue 37: an edit is not sent when a reader would see nothing new: a relative time
    moved by at most a minute (a seat's takeover set again by its next step a moment
    later), or only a line that stays true until the next change ("revealed below")
    dropped; a real change is sent, and is compared with what is on screen."""
    sender = FakeSender()
    d = make(storage, sender)
    shown = "▶️ Bob to move.\n⏳ Bob: AI takes over <t:100000:R>."
    await queue(storage, 1, ("edit", "status", {"content": "🔓 All plans sealed — revealed below.\n" + shown,
                                                 "linger": ["🔓 All plans sealed — revealed below."]}, True))
    d.kick(1)
    await settle(d)
    for content in (shown, shown.replace("100000", "100060"), shown.replace("100000", "99940")):
        await queue_settling(storage, 1, content, 0.0)
        d.kick(1)
        await settle(d)
    assert len(sender.sent) == 1, sender.contents()
    assert await states(storage, 1) == ["delivered"] * 4
    # a time moved by more than a minute from the one on screen (not from the last row) is sent
    await queue_settling(storage, 1, shown.replace("100000", "100061"), 0.0)
    d.kick(1)
    await settle(d)
    assert sender.contents()[1:] == [shown.replace("100000", "100061")]
    # a line dropped that may not linger is sent; so is another mover
    for content in (shown.replace("100000", "100061").split("\n")[0], "▶️ Ann to move."):
        await queue_settling(storage, 1, content, 0.0)
        d.kick(1)
        await settle(d)
    assert sender.contents()[2:] == ["▶️ Bob to move.", "▶️ Ann to move."]
    await d.close()


async def test_a_remembered_post_counts_as_what_its_message_shows(storage: Storage) -> None:
    """The status message's first content is its post: an edit that repeats it is not sent."""
    sender = FakeSender()
    d = make(storage, sender)
    await queue(storage, 1, post("🔒 Plans sealed 0/2", remember="status"))
    d.kick(1)
    await settle(d)
    await queue_settling(storage, 1, "🔒 Plans sealed 0/2", 0.0)
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["🔒 Plans sealed 0/2"]
    await queue_settling(storage, 1, "🔒 Plans sealed 1/2", 0.0)
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["🔒 Plans sealed 0/2", "🔒 Plans sealed 1/2"]
    await d.close()


class HandedClaims:
    """A game's outbox claim (bot.claims, several processes on one database) whose fencing
    token the test moves on: as when another process held it meanwhile."""

    def __init__(self) -> None:
        self.token = 1

    async def hold(self, kind: str, key: str) -> int | None:
        return self.token

    def valid(self, kind: str, key: str) -> bool:
        return True

    async def fence(self, tx: Any, kind: str, key: str) -> None:
        return None

    async def release(self, kind: str, key: str) -> None:
        return None


async def test_after_another_process_held_the_claim_an_edit_is_sent_even_if_it_reads_the_same(storage: Storage) -> None:
    """What this process sent last may not be on screen any more: another process may
    have edited the message while it held the game's claim."""
    sender = FakeSender()
    d = make(storage, sender)
    d.claims = HandedClaims()  # type: ignore[assignment]
    for _ in range(2):
        await queue_settling(storage, 1, "waiting for Bob", 0.0)
        d.kick(1)
        await settle(d)
    assert sender.contents() == ["waiting for Bob"]
    d.claims.token = 2  # type: ignore[attr-defined]
    await queue_settling(storage, 1, "waiting for Bob", 0.0)
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["waiting for Bob", "waiting for Bob"]
    await d.close()


# -- the cost of a row (issue 25) ---------------------------------------------------------


class CountingReads:
    """Counts the deliverer's reads of a game's pending rows (``Tx.pending_outbox``)."""

    def __init__(self, monkeypatch: Any) -> None:
        from bot.storage import Tx

        self.n = 0
        real = Tx.pending_outbox

        async def counted(tx: Any, *a: Any, **kw: Any) -> Any:
            self.n += 1
            return await real(tx, *a, **kw)

        monkeypatch.setattr(Tx, "pending_outbox", counted)


async def test_sends_that_end_together_share_one_transaction(storage):
    """Twelve DMs to twelve players (lanes side by side) end in the same turn of the
    loop: their "delivered" marks are one transaction, not twelve. Every row is still
    marked delivered, with its message id."""
    sender = FakeSender()
    await queue(storage, 1, *[("dm", str(100 + u), {"content": f"dm {u}"}, True) for u in range(12)])
    d = make(storage, sender)
    before = storage._commits
    d.kick(1)
    await settle(d)
    assert sorted(sender.contents()) == sorted(f"dm {u}" for u in range(12))
    assert await states(storage, 1) == ["delivered"] * 12
    async with storage.read() as q:
        assert all(r.message_id for r in await q.outbox_rows(1))
    assert storage._commits - before <= 2  # one transaction per send before: 12
    await d.close()


async def test_a_backlog_is_read_once_not_after_every_send(storage, monkeypatch):
    """Forty DMs to one player go one after another (one lane): the sender reads the
    game's pending rows a few times, not once per send (a backlog read again after every
    send cost its length per row)."""
    reads = CountingReads(monkeypatch)
    sender = FakeSender()
    await queue(storage, 1, *[("dm", "7", {"content": f"dm {i}"}, True) for i in range(40)])
    d = make(storage, sender)
    d.kick(1)
    await settle(d)
    assert sender.contents() == [f"dm {i}" for i in range(40)]  # in order, each once
    assert await states(storage, 1) == ["delivered"] * 40
    assert reads.n <= 3, reads.n  # 41 before
    await d.close()


async def test_rows_written_while_a_backlog_goes_out_are_sent_after_a_kick(storage):
    """The sender does not read after every send any more: rows queued meanwhile go out
    once the game is kicked (as the bot kicks after every action), in order."""
    sender = FakeSender()
    slow = asyncio.Event()

    async def deliver(row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        if row.payload.get("content") == "dm 0":
            await slow.wait()
        return await FakeSender.deliver(sender, row, merged)

    sender.deliver = deliver  # type: ignore[method-assign]
    await queue(storage, 1, *[("dm", "7", {"content": f"dm {i}"}, True) for i in range(3)])
    d = make(storage, sender)
    d.kick(1)
    await asyncio.sleep(0.05)
    await queue(storage, 1, ("dm", "7", {"content": "late"}, True))
    d.kick(1)
    slow.set()
    await settle(d)
    assert sender.contents() == ["dm 0", "dm 1", "dm 2", "late"]
    await d.close()


class ReadsByKind:
    """Records each read of a game's pending rows: all of them (0) or those after an id."""

    def __init__(self, monkeypatch: Any) -> None:
        from bot.storage import Tx

        self.after: list[int] = []
        real = Tx.pending_outbox

        async def spied(tx: Any, game_id: int, **kw: Any) -> Any:
            self.after.append(kw.get("after", 0))
            return await real(tx, game_id, **kw)

        monkeypatch.setattr(Tx, "pending_outbox", spied)


def _gated(sender: FakeSender, content: str) -> asyncio.Event:
    """Holds the send of ``content`` until the event is set."""
    gate = asyncio.Event()

    async def deliver(row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        if row.payload.get("content") == content:
            await gate.wait()
        return await FakeSender.deliver(sender, row, merged)

    sender.deliver = deliver  # type: ignore[method-assign]
    return gate


async def test_after_a_kick_only_the_new_rows_are_read(storage, monkeypatch):
    """Issue 25: the backlog is not read again for the rows an action adds: the sender
    reads the rows after the last it read, and sends them in order after the backlog."""
    reads = ReadsByKind(monkeypatch)
    sender = FakeSender()
    gate = _gated(sender, "dm 0")
    await queue(storage, 1, *[("dm", "7", {"content": f"dm {i}"}, True) for i in range(5)])
    d = make(storage, sender)
    d.kick(1)
    await asyncio.sleep(0.05)
    async with storage.read() as q:
        last = max(r.id for r in await q.outbox_rows(1))
    for n in range(3):
        await queue(storage, 1, ("dm", "7", {"content": f"late {n}"}, True))
        d.kick(1)
        await asyncio.sleep(0.02)
    gate.set()
    await settle(d)
    assert sender.contents() == [*(f"dm {i}" for i in range(5)), "late 0", "late 1", "late 2"]
    assert reads.after[0] == 0  # the first read: every pending row
    assert reads.after[1:] and all(a >= last for a in reads.after[1:]), reads.after
    assert await states(storage, 1) == ["delivered"] * 8
    await d.close()


async def test_rows_written_without_a_kick_are_still_found(storage, monkeypatch):
    """New rows are counted by the storage: the sender's next look finds them without a
    kick (it reads the new rows only)."""
    reads = ReadsByKind(monkeypatch)
    sender = FakeSender()
    gate = _gated(sender, "dm 0")
    await queue(storage, 1, ("dm", "7", {"content": "dm 0"}, True))
    d = make(storage, sender)
    d.kick(1)
    await asyncio.sleep(0.05)
    await queue(storage, 1, ("dm", "7", {"content": "unkicked"}, True))
    gate.set()
    await settle(d)
    assert sender.contents() == ["dm 0", "unkicked"]
    assert reads.after[-1] > 0
    await d.close()


async def test_a_batch_rewritten_meanwhile_is_read_again_whole(storage, monkeypatch):
    """A chain of moves drops its batch and writes it again (``drop_outbox_batch``): the
    sender, which knew the dropped rows, reads every pending row again and never sends a
    dropped one."""
    reads = ReadsByKind(monkeypatch)
    sender = FakeSender()
    gate = _gated(sender, "first")
    await queue(storage, 1, post("first"))
    async with storage.transaction() as tx:
        batch = await tx.next_outbox_batch()
        # held back for the end of the chain, as the app writes it (not merged meanwhile)
        await tx.put_outbox_rows(1, batch, [post("old draft")], at=time.time(), not_before=time.time() + 30)
    d = make(storage, sender)
    d.kick(1)
    await asyncio.sleep(0.05)  # the sender knows "first" and "old draft"
    async with storage.transaction() as tx:
        assert await tx.drop_outbox_batch(1, batch) == 0
        await tx.put_outbox_rows(1, batch, [post("new draft")], at=time.time())
    d.kick(1)
    gate.set()
    await settle(d)
    assert sender.contents() == ["first", "new draft"]
    assert reads.after.count(0) >= 2, reads.after  # read whole again after the rewrite
    await d.close()


async def test_a_superseded_edit_is_settled_without_reading_the_backlog_again(storage, monkeypatch):
    """An older edit of the status message, dropped for a newer one, is taken out of the
    rows the sender knows: no read of every pending row for it (issue 25: one action in
    three under load had the whole backlog read again), and only the newer edit is sent."""
    reads = ReadsByKind(monkeypatch)
    sender = FakeSender()
    await queue(storage, 1, ("edit", "status", {"content": "waiting for Ann"}, True))
    await queue(storage, 1, ("edit", "status", {"content": "waiting for Bob"}, True))
    d = make(storage, sender)
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["waiting for Bob"]
    assert await states(storage, 1) == ["delivered"] * 2
    assert reads.after == [0], reads.after
    await d.close()


async def test_a_row_sent_while_the_claim_ran_out_is_recorded_not_sent_again(storage: Storage) -> None:
    """Several processes (issue 37, bot.claims): a process paused past its claim while a
    post was on its way cannot record it (the fence); when the claim comes back to it, it
    records the post it sent instead of sending it again (under load, one process sent 16
    rows twice in the 50-kill test of tests/test_pg_processes.py)."""
    from bot.claims import Claims

    now = [1000.0]

    class PausedSender(FakeSender):
        async def deliver(self, row: OutboxRow, merged: list[OutboxRow]) -> int | None:
            got = await super().deliver(row, merged)
            if len(self.sent) == 1:
                now[0] += 5.0  # paused mid-send, past the claim's 1 s
            return got

    sender = PausedSender()
    d = make(storage, sender)
    d.claims = Claims(storage, "p1", ttl=1.0, clock=lambda: now[0])
    await queue(storage, 1, post("one", remember="a"), post("two", remember="b"))
    d.kick(1)
    await settle(d)
    assert sender.contents() == ["one", "two"]
    async with storage.read() as q:
        rows = await q.outbox_rows(1)
    assert [r.state for r in rows] == ["delivered", "delivered"]
    assert rows[0].message_id == 1000  # the first send's message, recorded on the claim's return
    await d.close()
