"""Issue 20 §4: the disk fills up between a player's move and the AI's answer.

The move was committed; only the AI's move after it cannot be saved. The player must
read that the move counts (not "your move was not recorded"), the move's posts go out
now (they were held back for the end of the chain, 300 s), and the AI answers at the
next sweep (``App.advance_all``, which the bot runs with every delivery sweep)."""

from __future__ import annotations

import sqlite3

import pytest
from fakegame import FakeClock, lobby, new_app

from bot.storage import Storage, Tx
from tests.app_support import storage_fixture

storage = storage_fixture("full.db")


async def test_a_disk_full_after_the_move_keeps_the_move_and_leaves_the_ai_to_the_sweep(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    app = await new_app(storage, clock)
    info = await lobby(app, humans=2, bots=1)
    gid = info.id
    await app.start(gid, 1, seed=3)
    # round 1: the secret picks (the bot picked at the start), then the takes in seat
    # order: Ann, Bob, then the bot, which answers Bob's take
    await app.act(gid, 1, None, {"pick": 1}, (await app.info(gid)).version)
    await app.act(gid, 2, None, {"pick": 3}, (await app.info(gid)).version)
    await app.act(gid, 1, None, {"take": 1}, (await app.info(gid)).version)
    before = await app.info(gid)
    assert [h.seat for h in await app.holdups(gid)] == ["bob"]
    real = Tx.append_action

    async def ai_moves_cannot_be_saved(self, game_id, seq, seat, action, actor, at):
        await real(self, game_id, seq, seat, action, actor, at)
        if actor != "player":
            raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Tx, "append_action", ai_moves_cannot_be_saved)
    out = await app.act(gid, 2, None, {"take": 2}, before.version)
    # the move counts, and the player is told so
    assert out.status == "applied" and out.version == before.version + 1
    assert (await app.info(gid)).version == before.version + 1
    async with storage.read() as q:
        logged = await q.actions(gid, after=before.version)
        rows = await q.pending_outbox(gid)
        owed = await q.games_owing_ai()
    assert [(r.seat, r.actor) for r in logged] == [("bob", "player")]
    assert gid in owed  # the AI's answer is owed: the next sweep plays it
    # the move's posts are due now, not held back for 300 s
    # (a status edit waits its settle time, as any does: not the chain's hold)
    settling = [r for r in rows if r.payload.get("settle")]
    others = [r for r in rows if not r.payload.get("settle")]
    assert others and all(r.next_try_at <= app.wall() for r in others), [(r.kind, r.next_try_at) for r in rows]
    assert all(r.next_try_at <= app.wall() + app.status_settle < app.wall() + app.chain_hold for r in settling)
    # space comes back: the sweep lets the AI answer
    monkeypatch.setattr(Tx, "append_action", real)
    done = await app.advance_all()
    assert [o.game_id for o in done] == [gid] and done[0].applied
    assert all(a.actor == "bot" for a in done[0].applied)
    assert (await app.info(gid)).version > before.version + 1
    async with storage.read() as q:
        assert gid not in await q.games_owing_ai()
