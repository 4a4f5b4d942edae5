"""What the table keeps so that a move's round trip draws little (issue 35): a board or
own area is drawn once per view (its digest, the version left out: a view that comes
back is not drawn again, a changed one always is), and a pasted picture is PNG-encoded
once per content (render.svg.png_uri), never once per object (a picture changed in
place gets its new pixels)."""

from __future__ import annotations

import base64
import io
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.app import App
from bot.storage import Storage
from bot.table import board as table_board
from bot.table import mine as table_mine
from render import svg


async def _game(tmp_path: Path) -> tuple[App, Storage, int, str, dict[str, Any]]:
    storage = await Storage.open(tmp_path / "cache.db")
    app = App(storage, clock=time.time)
    info = await app.create_game("smartphone-inc", channel_id=-5, host_id=1, host_name="Ann")
    await app.join(info.id, 2, "Bob")
    await app.start(info.id, 1, seed=11)
    info = await app.info(info.id)
    seat = info.seats[0].seat
    plan = next(a for a in await app.legal_actions(info.id, seat) if a["type"] == "plan")
    return app, storage, info.id, seat, plan


async def test_a_view_that_comes_back_is_not_drawn_again_a_changed_one_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, storage, gid, seat, plan = await _game(tmp_path)
    drawn: list[tuple[str, int]] = []
    board, mine = svg.board, svg.mine
    monkeypatch.setattr(svg, "board", lambda game, view: drawn.append(("board", view["version"])) or board(game, view))
    monkeypatch.setattr(svg, "mine", lambda game, view, draft=None: drawn.append(("mine", view["version"])) or mine(game, view, draft))
    try:
        seen: dict[int, tuple[str, str]] = {}
        for i, action in enumerate([None, plan, {"type": "unseal"}, plan, {"type": "unseal"}]):
            info = await app.info(gid)
            if action is not None:
                out = await app.act(gid, 1, seat, action, info.version)
                assert out.status == "applied", out
                info = await app.info(gid)
            seen[i] = (await table_board.board_svg(app, info), await table_mine.mine_svg(app, info, seat))
            # what is served is the drawing of the view as it is now, whoever drew it
            assert seen[i] == (board("smartphone-inc", info.drawn(await app.view(gid, None))),
                               mine("smartphone-inc", info.drawn(await app.view(gid, seat))))
        assert seen[0][0] != seen[1][0] and seen[1] != seen[2]  # (the seal shows: each change drawn)
        assert seen[2] == seen[0]  # (unsealed, the board and the area are the opening ones again)
        assert seen[3] == seen[1] and seen[4] == seen[2]
        # each different view drawn once (the opening one, the sealed one): the same views
        # at versions 2, 3 and 4 are kept ones
        assert [v for kind, v in drawn if kind == "board"] == [0, 1]
        assert [v for kind, v in drawn if kind == "mine"] == [0, 1]
    finally:
        await storage.close()


def _pixels(uri: str) -> bytes:
    return Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))).convert("RGBA").tobytes()


def test_a_picture_is_encoded_once_per_content() -> None:
    im = Image.new("RGBA", (9, 7), (10, 20, 30, 255))
    first = svg.png_uri(im)
    assert svg.png_uri(Image.new("RGBA", (9, 7), (10, 20, 30, 255))) is first  # (the same pixels: kept)
    im.putpixel((3, 3), (200, 0, 0, 255))  # changed in place: the same object, new pixels
    changed = svg.png_uri(im)
    assert changed != first and _pixels(changed) == im.tobytes()
    assert _pixels(first) == Image.new("RGBA", (9, 7), (10, 20, 30, 255)).tobytes()
