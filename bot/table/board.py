"""The public board as SVG for the table (``GET /api/board.svg``): drawn from the
engine's public view (seat ``None``: never a seat's private view) by the same code as
the Discord picture (render.svg), once per game version and kept for every caller."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.app import App
from bot.records import GameInfo
from render import svg

KEEP = 16  # boards kept (game id, version): every seat's page asks for the same one

_BOARDS: OrderedDict[tuple[int, int], str] = OrderedDict()
_DRAWING: dict[tuple[int, int], asyncio.Future[str]] = {}  # boards being drawn: one drawing each


async def board_svg(app: App, info: GameInfo) -> str:
    """The SVG document of ``info``'s public board as it is now. A board being drawn
    already (the server starts drawing it as a move is made, before the page asks) is
    awaited, not drawn twice."""
    view = await app.view(info.id, None)
    key = (info.id, int(view.get("version", info.version)))
    got = _BOARDS.get(key)
    if got is not None:
        return got
    drawing = _DRAWING.get(key)
    if drawing is None:
        drawing = asyncio.ensure_future(asyncio.to_thread(svg.board, info.game, view))
        _DRAWING[key] = drawing
        try:
            got = await asyncio.shield(drawing)
        finally:
            _DRAWING.pop(key, None)
        _BOARDS[key] = got
        while len(_BOARDS) > KEEP:
            _BOARDS.popitem(last=False)
        return got
    return await asyncio.shield(drawing)
