"""Issue 34 §4: two bare ``App`` processes on one database (without the bot's lease) race
for a game's next log row. The one that loses (the log's unique (game, seq) refuses its
row: ``sqlite3.IntegrityError``) reads the game again and decides the move anew, as one
process decides a move that waited for the game's lock; a move that keeps losing is told
"The game changed while you moved — try again."; an AI answer another process already
gave is not given twice. Each App here has its own connection to the file, as a
process would."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from fakegame import lobby, new_app

from bot.app import App
from bot.app.core import RACED, Raced
from bot.storage import Storage


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[tuple[App, App]]:
    db = tmp_path / "shared.db"
    a, b = await Storage.open(db), await Storage.open(db)
    try:
        yield await new_app(a), await new_app(b)
    finally:
        await a.close()
        await b.close()


async def logged(app: App, game_id: int) -> list[tuple[int, str, Any]]:
    async with app.storage.read() as q:
        return [(r.seq, r.seat, r.action) for r in await q.actions(game_id)]


def before_each_transaction(monkeypatch: pytest.MonkeyPatch, app: App, first: Callable[[int], Any]) -> None:
    """``await first(n)`` before the ``n``-th (from 1) write transaction of ``app``: what
    another process does just before this one writes."""
    real = app.storage.transaction
    count = 0

    @contextlib.asynccontextmanager
    async def transaction() -> AsyncIterator[Any]:
        nonlocal count
        count += 1
        await first(count)
        async with real() as tx:
            yield tx

    monkeypatch.setattr(app.storage, "transaction", transaction)


async def test_a_move_logged_first_by_another_process_is_decided_again(two: tuple[App, App]) -> None:
    one, other = two
    info = await lobby(one, humans=3)
    await one.start(info.id, 1, seed=1)
    assert (await other.info(info.id)).version == 0  # the other process has read the game
    assert (await other.state(info.id))["version"] == 0
    assert (await one.act(info.id, 1, None, {"pick": 1}, 0)).status == "applied"
    # bob's prompt (version 0) still stands there: only ann moved
    out = await other.act(info.id, 2, None, {"pick": 2}, 0)
    assert (out.status, out.version, [a.seat for a in out.applied]) == ("applied", 2, ["bob"])
    assert await logged(one, info.id) == [(1, "ann", {"pick": 1}), (2, "bob", {"pick": 2})]
    # ann's click again, in the other process: already done, not logged twice
    assert (await other.act(info.id, 1, None, {"pick": 1}, 0)).status == "already"
    assert (await one.act(info.id, 3, None, {"pick": 3}, 0)).status == "applied"
    assert [row[0] for row in await logged(other, info.id)] == [1, 2, 3]


async def test_a_move_that_keeps_losing_the_race_is_told_to_try_again(
    two: tuple[App, App], monkeypatch: pytest.MonkeyPatch
) -> None:
    one, other = two
    info = await lobby(one, humans=4)
    await one.start(info.id, 1, seed=1)
    await other.info(info.id)
    rivals = {1: (1, {"pick": 1}), 2: (2, {"pick": 2}), 3: (3, {"pick": 3})}  # ann, bob, cid, one per try

    async def rival(n: int) -> None:
        if n in rivals:
            user, action = rivals[n]
            assert (await one.act(info.id, user, None, action, 0)).status == "applied"

    before_each_transaction(monkeypatch, other, rival)
    with pytest.raises(Raced) as raised:
        await other.act(info.id, 4, None, {"pick": 2}, 0)
    assert str(raised.value) == RACED == "The game changed while you moved — try again."
    assert [row[1] for row in await logged(one, info.id)] == ["ann", "bob", "cid"]  # nothing of dee's
    # dee tries again (the same prompt: it still stands) and it counts, once
    out = await other.act(info.id, 4, None, {"pick": 2}, 0)
    assert (out.status, out.version) == ("applied", 4)
    assert await logged(one, info.id) == [
        (1, "ann", {"pick": 1}), (2, "bob", {"pick": 2}), (3, "cid", {"pick": 3}), (4, "dee", {"pick": 2}),
    ]


async def test_an_ai_answer_another_process_gave_first_is_not_given_twice(
    two: tuple[App, App], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's move counts; the AI seat's answer to it, given first by the other process,
    is that process's: this one stops its chain of AI moves there."""
    one, other = two
    info = await lobby(one, humans=1, bots=1)
    await one.start(info.id, 1, seed=1)  # the AI seat picks (seq 1)
    assert (await one.act(info.id, 1, None, {"pick": 1}, 1)).status == "applied"  # seq 2: take phase, ann first

    async def rival(n: int) -> None:
        if n == 2:  # just before this process logs the AI seat's take
            await other.run_ai(info.id)

    before_each_transaction(monkeypatch, one, rival)
    out = await one.act(info.id, 1, None, {"take": 2}, 2)
    assert (out.status, [a.seat for a in out.applied], out.version) == ("applied", ["ann"], 3)
    rows = await logged(other, info.id)
    ai_seat = rows[0][1]
    assert [(seq, seat) for seq, seat, _a in rows] == [(1, ai_seat), (2, "ann"), (3, "ann"), (4, ai_seat), (5, ai_seat)]
    assert (await one.state(info.id))["version"] == 5  # read again from the database


async def test_two_apps_moving_at_once_log_every_move_once(two: tuple[App, App]) -> None:
    """Both processes take the seats' moves at the same time, a whole game long."""
    one, other = two
    info = await lobby(one, humans=3)
    await one.start(info.id, 1, seed=7)
    apps = {1: one, 2: other, 3: one}
    for _round in range(2):
        shown = len(await logged(one, info.id))  # the version each player's prompt showed
        picks = await asyncio.gather(*(apps[u].act(info.id, u, None, {"pick": u}, shown) for u in (1, 2, 3)))
        assert all(o.status == "applied" for o in picks), [(o.status, o.message) for o in picks]
        for u in (1, 2, 3):  # the take phase goes in seat order, each in the other process
            shown = len(await logged(one, info.id))
            out = await (one if u % 2 else other).act(info.id, u, None, {"take": 1}, shown)
            assert out.status == "applied", out.message
    rows = await logged(one, info.id)
    assert [r[0] for r in rows] == list(range(1, 13)) and (await one.info(info.id)).status == "finished"
