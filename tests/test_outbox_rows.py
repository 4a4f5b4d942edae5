"""Issue 8 §1: what an action tells Discord is written as outbox rows by the application
layer, in the action's own transaction (bot/app/compose.py, Core._write_rows), and the
AI moves that follow rewrite them: never lost by a crash right after a commit, never
doubled by the chain. No Discord here: the rows themselves are checked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.storage import OutboxRow, Storage
from bot.text import with_player_names
from tests.app_support import storage_fixture
from tests.fakegame import GAME, FakeClock, lobby, new_app

storage = storage_fixture("rows.db")


async def rows_of(storage: Storage, gid: int) -> list[OutboxRow]:
    async with storage.read() as q:
        return [r for r in await q.outbox_rows(gid) if r.state == "pending"]


def lines_in(rows: list[OutboxRow]) -> str:
    return "\n".join(json.dumps(r.payload) for r in rows)


async def test_rows_are_written_with_the_action_and_due_once_the_chain_ends(storage: Storage) -> None:
    app = await new_app(storage, FakeClock())
    info = await lobby(app, humans=1, bots=1)
    await app.start(info.id, 1, seed=3)  # the bot's pick follows at once, in its own commit
    rows = await rows_of(storage, info.id)
    assert rows and all(r.next_try_at == 0 for r in rows)  # the chain ended: all due
    assert len({r.batch for r in rows}) == 1  # the start and the bot's pick: one outcome, rewritten
    assert sum(r.payload.get("remember") == "status" for r in rows) == 1
    assert sum(r.kind == "post" and bool(r.payload.get("held")) for r in rows) == 1  # one post for the phase
    out = await app.act(info.id, 1, None, {"pick": 3}, (await app.info(info.id)).version)
    assert out.status == "applied"
    after = [r for r in await rows_of(storage, info.id) if r.batch == out.batch]
    assert after and all(r.next_try_at == 0 for r in after)
    text = lines_in(after)
    for line in with_player_names(out.events, await app.info(info.id)):  # the reveal's lines, once
        assert text.count(json.dumps(line)[1:-1]) == 1, line


async def test_a_crash_right_after_the_commit_keeps_the_actions_own_rows(storage: Storage) -> None:
    """The player's move is committed, then the process dies before the AI answers: the
    rows written in the move's transaction hold its log line; at the next start they are
    due, and the AI's catch-up adds its own rows: nothing lost, nothing doubled."""
    clock = FakeClock()
    app = await new_app(storage, clock)
    info = await lobby(app, humans=1, bots=1)
    gid = info.id
    await app.start(gid, 1, seed=3)
    await app.act(gid, 1, None, {"pick": 1}, (await app.info(gid)).version)  # the reveal: ann takes first
    calls = 0

    def dying_ai(game: str, state: Any, seat: str, kind: str) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        raise RuntimeError("the process died after the commit")

    app.ai_choose = dying_ai
    version = (await app.info(gid)).version
    with pytest.raises(RuntimeError):
        await app.act(gid, 1, None, {"take": 2}, version)
    assert calls == 1 and (await app.info(gid)).version == version + 1  # the move counts
    [line] = with_player_names([x for x in GAME.events(await app.state(gid)) if x], await app.info(gid))
    held = [r for r in await rows_of(storage, gid) if line in lines_in([r])]
    assert len(held) == 1 and held[0].kind == "hold"  # a turn inside the phase: held for its post
    held_back = [r for r in await rows_of(storage, gid) if r.batch == held[0].batch]
    assert all(r.next_try_at > 0 for r in held_back)  # waiting for the chain's end, which never came

    async with storage.transaction() as tx:  # the next process starts
        assert await tx.release_held_batches() == len(held_back)
    fresh = await new_app(storage, clock)
    outs = await fresh.advance_all()
    assert outs[0].applied[0].seat == "bot1"  # its take (then its pick of round 2)
    pending = await rows_of(storage, gid)
    assert all(r.next_try_at == 0 for r in pending)
    text = lines_in(pending)
    assert text.count(line) == 1  # the crashed move's line, once
    for extra in with_player_names(outs[0].events, await app.info(gid)):
        assert text.count(json.dumps(extra)[1:-1]) == 1, extra


@pytest.mark.parametrize("every_turn", [True, False])
async def test_dm_every_turn_is_a_players_choice_default_off(storage: Storage, every_turn: bool) -> None:
    """Issue 7 "DMs": with the choice on, the player whose turn a new phase brings gets a
    DM (with a link to the game's place) besides the phase post's mention; off (the
    default), the phase post's mention only."""
    app = await new_app(storage, FakeClock())
    info = await lobby(app, humans=2)
    gid = info.id
    if every_turn:
        await app.set_dm_every_turn(gid, 1, True)
    assert await app.dm_every_turn(gid, 1) is every_turn and not await app.dm_every_turn(gid, 2)
    await app.start(gid, 1, seed=3)
    await app.act(gid, 2, None, {"pick": 2}, (await app.info(gid)).version)
    out = await app.act(gid, 1, None, {"pick": 1}, (await app.info(gid)).version)  # the reveal: ann moves first
    assert out.phase_changed and out.mentions == [1]
    rows = [r for r in await rows_of(storage, gid) if r.batch == out.batch]
    turn_dms = [r for r in rows if r.kind == "dm" and "Your move in game" in (r.payload.get("content") or "")]
    assert any(r.kind == "post" and "<@1>" in r.payload.get("content", "") for r in rows)  # the mention
    if every_turn:
        assert [r.target for r in turn_dms] == ["1"] and "<#100>" in turn_dms[0].payload["content"]
        assert "fallback" not in turn_dms[0].payload  # the phase post mentions them already
    else:
        assert turn_dms == []
    with pytest.raises(Exception, match="no seat"):
        await app.set_dm_every_turn(gid, 99, True)


async def test_a_status_post_still_on_its_way_is_edited_after_it_never_posted_twice(storage: Storage) -> None:
    """The game's status message is posted at the start; before it is delivered, the AI
    seats catch up (the sweep, or a restart): their move edits that status, in order after
    its post (an edit waits in the game's lane behind the post: bot/delivery.py); a
    second status message would leave the first one stale for ever."""
    app = await new_app(storage, FakeClock())
    info = await lobby(app, humans=1, bots=1)
    await app.start(info.id, 1, seed=3, run_ai=False)  # the bot's pick is owed
    caught_up = await app.advance_all()  # the sweep lets it move
    assert caught_up and all(o.applied for o in caught_up)
    rows = await rows_of(storage, info.id)
    status_posts = [r for r in rows if r.kind == "post" and r.payload.get("remember") == "status"]
    assert len(status_posts) == 1
    edits = [r for r in rows if r.kind == "edit" and r.target == "status"]
    assert edits and all(r.id > status_posts[0].id for r in edits)
