"""A seat's own area as SVG for the table (``GET /api/mine.svg``): drawn from that seat's
own view from the engine (``App.view(game, seat)``, never the state) by the same code as
its private picture in Discord (render.svg.mine), kept per game version and seat."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict

from bot.app import App
from bot.records import GameInfo
from render import svg

KEEP = 32  # areas kept (game id, version, seat)

_AREAS: OrderedDict[tuple[int, int, str, str], str] = OrderedDict()


async def mine_svg(app: App, info: GameInfo, seat: str) -> str:
    """The SVG document of ``seat``'s own area in ``info``'s game as it is now."""
    view = info.drawn(await app.view(info.id, seat))  # (the players by name)
    key = (info.id, int(view.get("version", info.version)), seat, _digest(view))
    got = _AREAS.get(key)
    if got is None:
        got = await asyncio.to_thread(svg.mine, info.game, view)
        _AREAS[key] = got
        while len(_AREAS) > KEEP:
            _AREAS.popitem(last=False)
    return got


def _digest(view: dict[str, object]) -> str:
    """The view's fingerprint: a kept drawing is reused only for the very same view (a
    game id and version name one view per database, not per process)."""
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest()
