"""The public board as SVG for the table (``GET /api/board.svg``): drawn from the
engine's public view (seat ``None``: never a seat's private view) by the same code as
the Discord picture (render.svg), once per view and kept for every caller (per app:
two apps in one process, as in the tests, have games of the same ids). A drawing is
kept by the view's digest, its version left out (no picture shows it): a move that
brings back a view seen already (a plan sealed, unsealed and sealed again) is not
drawn again."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from weakref import WeakKeyDictionary

from bot.app import App
from bot.records import GameInfo
from render import svg

KEEP = 16  # boards kept (game id, view): every seat's page asks for the same one

Key = tuple[int, str]  # (game id, the view's digest)


class Kept:
    """One app's boards: drawn ones (the last :data:`KEEP`) and those being drawn."""

    def __init__(self) -> None:
        self.boards: OrderedDict[Key, str] = OrderedDict()
        self.drawing: dict[Key, asyncio.Future[str]] = {}


_KEPT: WeakKeyDictionary[App, Kept] = WeakKeyDictionary()  # per app: game ids are one database's


def kept(app: App) -> Kept:
    got = _KEPT.get(app)
    if got is None:
        got = _KEPT[app] = Kept()
    return got


async def board_svg(app: App, info: GameInfo) -> str:
    """The SVG document of ``info``'s public board as it is now. A board being drawn
    already (the server starts drawing it as a move is made, before the page asks) is
    awaited, not drawn twice."""
    view = info.drawn(await app.view(info.id, None))  # (the players by name)
    key = (info.id, view_digest(view))
    mine = kept(app)
    got = mine.boards.get(key)
    if got is not None:
        return got
    drawing = mine.drawing.get(key)
    if drawing is None:
        drawing = asyncio.ensure_future(asyncio.to_thread(svg.board, info.game, view))
        mine.drawing[key] = drawing
        try:
            got = await asyncio.shield(drawing)
        finally:
            mine.drawing.pop(key, None)
        mine.boards[key] = got
        while len(mine.boards) > KEEP:
            mine.boards.popitem(last=False)
        return got
    return await asyncio.shield(drawing)


def view_digest(view: dict[str, object]) -> str:
    """The view's fingerprint, its version left out (the pictures never show it): a
    kept drawing is reused only for the very same view."""
    rest = {k: v for k, v in view.items() if k != "version"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True, default=str).encode()).hexdigest()
