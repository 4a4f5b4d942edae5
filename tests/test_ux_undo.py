"""Undo (BGA's rule) and unseal through the application layer, on Smartphone Inc.:
each restores exactly the earlier state, the log keeps the move taken back (marked by an
undo row), replay and exports skip it, and it is refused once another seat moved or
chance was used (issue 7, "Turns" and "Confirming")."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.app import App, replay_export
from bot.records import Conflict
from bot.storage import Storage
from engine.smartphone_inc.game import GAME
from tests.app_support import TickingClock, storage_fixture

storage = storage_fixture("undo.db")


async def _started(app: App) -> int:
    info = await app.create_game("smartphone-inc", channel_id=5, host_id=1, host_name="Ann", guild_id=1)
    await app.join(info.id, 2, "Bob")
    await app.start(info.id, 1, seed=11)
    return info.id


def _same_but_version(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return GAME.dump({**a, "version": 0}) == GAME.dump({**b, "version": 0})


async def _plan_both(app: App, gid: int) -> None:
    for uid, seat in ((1, "ann"), (2, "bob")):
        info = await app.info(gid)
        action = GAME.legal_actions(await app.state(gid), seat)[0]
        out = await app.act(gid, uid, seat, action, info.version)
        assert out.status == "applied", out.message


async def test_unseal_restores_the_state_and_replays(storage: Storage) -> None:
    app = App(storage, clock=TickingClock())
    gid = await _started(app)
    before = json.loads(GAME.dump(await app.state(gid)))
    info = await app.info(gid)
    plan = GAME.legal_actions(await app.state(gid), "ann")[0]
    assert (await app.act(gid, 1, "ann", plan, info.version)).status == "applied"
    out = await app.act(gid, 1, "ann", {"type": "unseal"}, 0)
    assert out.status == "applied"
    after = await app.state(gid)
    assert (after["players"], after["rng"], after["pile"]) == (before["players"], before["rng"], before["pile"])
    assert "ann" in {h.seat for h in await app.holdups(gid)}  # waited for again
    fresh = App(storage, clock=TickingClock())  # replayed from the log
    assert GAME.dump(await fresh.state(gid)) == GAME.dump(after)


async def test_undo_restores_exactly_the_earlier_state_and_the_log_keeps_it(storage: Storage) -> None:
    app = App(storage, clock=TickingClock())
    gid = await _started(app)
    await _plan_both(app, gid)
    undone = 0
    for _ in range(80):
        state = await app.state(gid)
        if GAME.is_over(state) or state["round"] > 1:
            break
        seat, _prompt = next(iter(GAME.pending(state).items()))
        uid = 1 if seat == "ann" else 2
        info = await app.info(gid)
        action = GAME.legal_actions(state, seat)[0]
        out = await app.act(gid, uid, seat, action, info.version)
        assert out.status == "applied", out.message
        after = await app.state(gid)
        same_phase = (after["round"], after["phase"]) == (state["round"], state["phase"])
        alone = all(a.seat == seat for a in out.applied)
        if alone and same_phase and GAME.undoable(state, after, seat):
            undo = await app.undo(gid, uid, seat)
            back = await app.state(gid)
            assert _same_but_version(back, state)  # byte-identical but for the action counter
            assert back["version"] == after["version"] + 1
            assert any("took back" in e for e in undo.events)
            with pytest.raises(Conflict):
                await app.undo(gid, uid, seat)  # nothing more to take back
            undone += 1
            # play it again (the game goes on)
            info = await app.info(gid)
            assert (await app.act(gid, uid, seat, action, info.version)).status == "applied"
        elif not alone or not same_phase:
            with pytest.raises(Conflict):
                await app.undo(gid, uid, seat)
    assert undone >= 1
    export = await app.export(gid, with_seed=True)
    undo_rows = [a for a in export["actions"] if a["action"].get("type") == "undo"]
    assert len(undo_rows) == undone
    for row in undo_rows:  # the move taken back stays in the log, just before its undo row
        assert any(a["seq"] == row["action"]["undoes"] for a in export["actions"])
    replayed = replay_export(export)
    assert replayed["version"] == (await app.state(gid))["version"]
    from bot.cogs.play import history_views

    assert history_views(export, 1)  # /game history replays past the undo rows too
    fresh = App(storage, clock=TickingClock())
    assert GAME.dump(await fresh.state(gid)) == GAME.dump(await app.state(gid))


async def test_a_player_cannot_send_an_undo_row_as_a_move(storage: Storage) -> None:
    app = App(storage, clock=TickingClock())
    gid = await _started(app)
    out = await app.act(gid, 1, "ann", {"type": "undo", "undoes": 1}, (await app.info(gid)).version)
    assert out.status == "illegal"


async def test_an_old_confirm_after_an_undo_is_not_taken_for_already_done(storage: Storage) -> None:
    app = App(storage, clock=TickingClock())
    gid = await _started(app)
    await _plan_both(app, gid)
    for _ in range(80):
        state = await app.state(gid)
        seat = next(iter(GAME.pending(state)))
        uid = 1 if seat == "ann" else 2
        version = (await app.info(gid)).version
        action = GAME.legal_actions(state, seat)[0]
        out = await app.act(gid, uid, seat, action, version)
        after = await app.state(gid)
        if all(a.seat == seat for a in out.applied) and (after["round"], after["phase"]) == (
            state["round"], state["phase"]
        ) and GAME.undoable(state, after, seat):
            await app.undo(gid, uid, seat)
            again = await app.act(gid, uid, seat, action, version)  # the same old prompt
            assert again.status == "stale", again.message  # a fresh prompt, never "already done"
            assert again.prompt is not None
            return
    raise AssertionError("no undoable move found")
