"""The public board as SVG for the table (``GET /api/board.svg``): drawn from the
engine's public view (seat ``None``: never a seat's private view) by the same code as
the Discord picture (render.svg), once per game version (and view) and kept for every caller."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict

from bot.app import App
from bot.records import GameInfo
from render import svg

KEEP = 16  # boards kept (game id, version): every seat's page asks for the same one

_BOARDS: OrderedDict[tuple[int, int, str], str] = OrderedDict()


async def board_svg(app: App, info: GameInfo) -> str:
    """The SVG document of ``info``'s public board as it is now."""
    view = await app.view(info.id, None)
    key = (info.id, int(view.get("version", info.version)), _digest(view))
    got = _BOARDS.get(key)
    if got is None:
        got = await asyncio.to_thread(svg.board, info.game, view)
        _BOARDS[key] = got
        while len(_BOARDS) > KEEP:
            _BOARDS.popitem(last=False)
    return got


def _digest(view: dict[str, object]) -> str:
    """The view's fingerprint: a kept drawing is reused only for the very same view (a
    game id and version name one view per database, not per process)."""
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest()
