"""A seat's own area as SVG for the table (``GET /api/mine.svg``): drawn from that seat's
own view from the engine (``App.view(game, seat)``, never the state) by the same code as
its private picture in Discord (render.svg.mine), kept per game version and seat."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from typing import Any

from bot.app import App
from bot.games import table_parts
from bot.records import GameInfo
from render import svg

KEEP = 32  # areas kept (game id, version, seat)

_AREAS: OrderedDict[tuple[int, int, str, str, str], str] = OrderedDict()


async def mine_svg(app: App, info: GameInfo, seat: str, draft: Any = None) -> str:
    """The SVG document of ``seat``'s own area in ``info``'s game as it is now; with
    ``draft`` (the page's half-built decision) where the game draws one (its table
    hook ``mine_draft(prompt, draft)`` says what of it is drawn: Smartphone Inc.'s plan
    being laid), else as the view alone draws it."""
    view = await app.view(info.id, seat)
    hooks, _script = table_parts(info.game)
    shaped = getattr(hooks, "mine_draft", None)
    drawn = shaped(view.get("prompt"), draft) if shaped is not None and draft is not None else None
    key = (info.id, int(view.get("version", info.version)), seat, _digest(view), json.dumps(drawn, sort_keys=True))
    got = _AREAS.get(key)
    if got is None:
        got = await asyncio.to_thread(svg.mine, info.game, view, drawn)
        _AREAS[key] = got
        while len(_AREAS) > KEEP:
            _AREAS.popitem(last=False)
    return got


def _digest(view: dict[str, object]) -> str:
    """The view's fingerprint: a kept drawing is reused only for the very same view (a
    game id and version name one view per database, not per process)."""
    return hashlib.sha256(json.dumps(view, sort_keys=True, default=str).encode()).hexdigest()
