"""A seat's own area as SVG for the table (``GET /api/mine.svg``): drawn from that seat's
own view from the engine (``App.view(game, seat)``, never the state) by the same code as
its private picture in Discord (render.svg.mine), kept per seat and view (its digest, the
version left out: bot.table.board.view_digest)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.app import App
from bot.records import GameInfo
from bot.table.board import view_digest
from render import svg

KEEP = 32  # areas kept (game id, seat, view)

_AREAS: OrderedDict[tuple[int, str, str], str] = OrderedDict()


async def mine_svg(app: App, info: GameInfo, seat: str) -> str:
    """The SVG document of ``seat``'s own area in ``info``'s game as it is now."""
    view = info.drawn(await app.view(info.id, seat))  # (the players by name)
    key = (info.id, seat, view_digest(view))
    got = _AREAS.get(key)
    if got is None:
        got = await asyncio.to_thread(svg.mine, info.game, view)
        _AREAS[key] = got
        while len(_AREAS) > KEEP:
            _AREAS.popitem(last=False)
    return got

