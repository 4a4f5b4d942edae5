"""A boardroom process for the tests of several processes on one PostgreSQL database
(tests/test_pg_processes.py), started as ``python -m tests.pg_worker MODE URL NAME``:

- ``serve``: the bot's background work without Discord: the outbox deliverer and the
  reminder scheduler, with a sender that records each send in the table ``attempts``
  (nonce, process name) after a short wait (Discord's answer); runs until killed (at
  most ``LIMIT_S`` seconds).
- ``act GAME_IDS START_AT``: from the time ``START_AT`` on, player 1's pick in each of
  these games (the test game of tests/fakegame.py) at version 0, one after another, as
  fast as it can; prints one JSON line {game id: status}.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import psycopg

from bot.delivery import Deliverer
from bot.reminders import Nudge, ReminderScheduler
from bot.storage import OutboxRow, Storage
from tests.fakegame import new_app

LIMIT_S = 300.0
SEND_S = 0.01


class RecordingSender:
    def __init__(self, conn: psycopg.AsyncConnection[Any], name: str) -> None:
        self.conn = conn
        self.name = name

    async def channel_key(self, row: OutboxRow) -> str | None:
        return None  # not paced (a DM's way): the test's rows go as fast as they can

    async def deliver(self, row: OutboxRow, merged: list[OutboxRow]) -> int | None:
        await asyncio.sleep(SEND_S)
        for r in [row, *merged]:
            await self.conn.execute(
                "INSERT INTO attempts (nonce, by, at) VALUES (%s, %s, %s)", (r.nonce, self.name, time.time())
            )
        return row.id

    async def tell_blocked(self, game_id: int, code: int) -> None:
        return None


async def serve(url: str, name: str) -> None:
    storage = await Storage.open(url)
    conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
    app = await new_app(storage, time.time)
    sender = RecordingSender(conn, name)

    async def nudge(n: Nudge) -> None:
        await asyncio.sleep(SEND_S)
        await conn.execute(
            "INSERT INTO attempts (nonce, by, at) VALUES (%s, %s, %s)",
            (f"nudge:{n.game_id}:{n.seat}:{n.count}", name, time.time()),
        )

    deliverer = Deliverer(storage, sender)
    reminders = ReminderScheduler(app, nudge)
    deliverer.start()
    await reminders.start()
    print("ready", flush=True)
    await asyncio.sleep(LIMIT_S)


async def act(url: str, game_ids: list[int], start_at: float) -> None:
    storage = await Storage.open(url)
    app = await new_app(storage, time.time)
    await asyncio.sleep(max(0.0, start_at - time.time()))  # both processes at once
    out: dict[int, str] = {}
    for gid in game_ids:
        try:
            out[gid] = (await app.act(gid, 1, None, {"pick": 1}, 0)).status
        except Exception as exc:  # the loser of a race: told to try again
            out[gid] = type(exc).__name__
    await storage.close()
    print(json.dumps(out), flush=True)


def main(argv: list[str]) -> None:
    mode, url, name = argv[:3]
    if mode == "serve":
        asyncio.run(serve(url, name))
    else:
        asyncio.run(act(url, [int(x) for x in argv[3].split(",")], float(argv[4])))


if __name__ == "__main__":
    main(sys.argv[1:])
