"""``boardroom table``: a local game at the table, without Discord.

One human seat (you) and AI seats, in a database of its own, served on 127.0.0.1. The
page signs in with a secret code in the link's fragment (the SDK's mock stands in
for the Discord client); the link is printed on a line of its own.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.app import App
from bot.records import GameInfo
from bot.storage import Storage
from bot.table.config import TableConfig
from bot.table.server import TableServer

LOCAL_USER = (1, "You")
LOCAL_CHANNEL = -424242  # a channel no Discord id can be (negative)


async def local_game(app: App, game: str, players: int, seed: int | None = None, ai: str = "bot") -> GameInfo:
    """A started game: ``players`` seats, the first yours, the others ``ai``; a game
    whose own automaton the presenter offers (Steve Jr.) gets it for a solo game."""
    presenter = app.presenter(game)
    info = await app.create_game(
        game, channel_id=LOCAL_CHANNEL - secrets.randbelow(10**9), host_id=LOCAL_USER[0],
        host_name=LOCAL_USER[1], join=True,
    )
    players = max(players, presenter.min_seats)
    own = [a for a in presenter.automata if a.by_engine]
    while len(info.seats) < players:
        kind = own[0].kind if own and players == 1 + len(own) and len(info.seats) == 1 else ai
        info = await app.add_ai(info.id, LOCAL_USER[0], kind)
    await app.start(info.id, LOCAL_USER[0], seed=seed)
    return await app.info(info.id)


def local_url(port: int, code: str, game_id: int) -> str:
    return f"http://127.0.0.1:{port}/#code={code}&game={game_id}"


async def serve_local(
    game: str, port: int, *, players: int = 2, seed: int | None = None, db: str | Path = ":memory:",
    echo: Callable[[str], None] = print, ready: Callable[[TableServer, GameInfo, str], Any] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve a local game until ``stop`` is set (or forever)."""
    storage = await Storage.open(str(db))
    try:
        app = App(storage, clock=time.time)
        info = await local_game(app, game, players, seed)
        code = secrets.token_urlsafe(24)
        server = TableServer(app, TableConfig(port=port, host="127.0.0.1", local_code=code, local_user=LOCAL_USER))
        bound = await server.start()
        try:
            echo(f"{app.presenter(game).title} #{info.id} at the table; open this link in a browser:")
            url = local_url(bound, code, info.id)
            echo(url)
            if ready is not None:
                ready(server, info, url)
            await (stop or asyncio.Event()).wait()
        finally:
            await server.stop()
    finally:
        await storage.close()
