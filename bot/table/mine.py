"""A seat's own area as SVG for the table (``GET /api/mine.svg``): drawn from that seat's
own view from the engine (``App.view(game, seat)``, never the state) by the same code as
its private picture in Discord (render.svg.mine), kept per seat and view (its digest, the
version left out: bot.table.board.view_digest)."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any

from bot.app import App
from bot.games import table_parts
from bot.records import GameInfo
from bot.table.board import view_digest
from render import svg

KEEP = 32  # areas kept (game id, seat, view)

_AREAS: OrderedDict[tuple[int, str, str, str], str] = OrderedDict()


async def mine_svg(app: App, info: GameInfo, seat: str, draft: Any = None) -> str:
    """The SVG document of ``seat``'s own area in ``info``'s game as it is now; with
    ``draft`` (the page's half-built decision) where the game draws one (its table
    hook ``mine_draft(prompt, draft)`` says what of it is drawn: Smartphone Inc.'s plan
    being laid), else as the view alone draws it."""
    view = info.drawn(await app.view(info.id, seat))  # (the players by name)
    hooks, _script = table_parts(info.game)
    shaped = getattr(hooks, "mine_draft", None)
    drawn = shaped(view.get("prompt"), draft) if shaped is not None and draft is not None else None
    key = (info.id, seat, view_digest(view), json.dumps(drawn, sort_keys=True))
    got = _AREAS.get(key)
    if got is None:
        got = await asyncio.to_thread(svg.mine, info.game, view, drawn)
        _AREAS[key] = got
        while len(_AREAS) > KEEP:
            _AREAS.popitem(last=False)
    return got

