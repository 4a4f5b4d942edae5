"""Issue 20 §4: a damaged action row (bad JSON in the database, or JSON that is not the
move that was made) gives players a polite "this game's record is damaged" message, and
the game is left paused; never a raw JSONDecodeError."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakegame import FakeClock

from bot.app import App
from bot.errors import expected_message
from bot.storage import DamagedRecord, Storage
from engine import get_game
from engine.ai import choose

GAMES = ("smartphone-inc", "mobile-markets", "age-of-automaton")


@pytest.mark.parametrize("damage", ["{bad json", '{"type": "no such move"}', "[1, 2]"])
@pytest.mark.parametrize("name", GAMES)
async def test_a_damaged_action_row_pauses_the_game_with_a_polite_message(
    tmp_path: Path, name: str, damage: str
) -> None:
    storage = await Storage.open(tmp_path / "d.db")
    try:
        app = App(storage, clock=FakeClock())
        info = await app.create_game(name, channel_id=9, host_id=1, host_name="Ann")
        await app.join(info.id, 2, "Bob")
        await app.start(info.id, 1, seed=7)
        for _ in range(2):  # two moves: the record has rows after the opening snapshot
            state = await app.state(info.id)
            seat = sorted(get_game(name).pending(state))[0]
            uid = (await app.info(info.id)).seat_named(seat).user_id
            out = await app.act(info.id, uid, seat, choose(name, state, seat, "random"), int(state["version"]))
            assert out.status == "applied"
        version = (await app.info(info.id)).version
        async with storage.transaction() as tx:  # the damage, done by hand
            await tx.conn.execute("DROP TRIGGER actions_append_only")
            await tx.conn.execute("UPDATE actions SET action = ? WHERE game_id = ? AND seq = 1", (damage, info.id))
            await tx.conn.execute("DELETE FROM snapshots WHERE game_id = ? AND version > 0", (info.id,))
        fresh = App(storage, clock=FakeClock())  # (a restart: nothing cached)
        state = None
        with pytest.raises(DamagedRecord) as err:
            state = await fresh.state(info.id)
        assert state is None
        text = expected_message(err.value)  # what the Discord error handler shows
        assert text is not None and "record is damaged" in text and "paused" in text
        assert "Expecting" not in text and "seq" not in text
        after = await fresh.info(info.id)
        assert after.status == "paused" and after.version == version
        assert await fresh.deadlines(info.id) == []  # no reminder or takeover runs on it
        # a move on it: the same polite refusal, and the game stays paused
        with pytest.raises(DamagedRecord):
            await fresh.act(info.id, 1, None, {"type": "end"}, version)
        assert (await fresh.info(info.id)).status == "paused"
        # resuming does not bring it back to life
        with pytest.raises(DamagedRecord):
            await fresh.resume(info.id, 1)
        assert (await fresh.info(info.id)).status == "paused"
    finally:
        await storage.close()
