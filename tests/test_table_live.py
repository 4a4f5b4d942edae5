"""The table's long-polls (bot.table.live): a stopping server answers every waiter at once,
instead of letting its shutdown wait out their long-polls (issue 38: each table test that
stopped its server with a page open waited about 20 s)."""

from __future__ import annotations

import asyncio

from bot.table.live import WAIT, Live


async def _turns(n: int = 20) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def test_close_answers_every_waiter_now_with_the_version_it_has() -> None:
    live = Live()

    async def version() -> int:
        return 7

    waiters = [asyncio.create_task(live.wait(game, 7, version, timeout=WAIT)) for game in (1, 1, 2)]
    await _turns()
    assert live.waiting == 3 and not any(w.done() for w in waiters)  # they wait for a change
    live.close()
    await _turns()  # no time passes: only the event loop's turns
    assert all(w.done() for w in waiters)
    assert [w.result() for w in waiters] == [7, 7, 7]
    assert live.waiting == 0 and live.games == 0
    # a page that asks again while the server stops gets its answer at once too
    late = asyncio.create_task(live.wait(3, 7, version, timeout=WAIT))
    await _turns()
    assert late.done() and late.result() == 7
