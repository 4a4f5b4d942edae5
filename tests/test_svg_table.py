"""The table's whole board (``GET /api/board.svg``, issue 35): the public board as SVG,
the same for every caller (never a seat's private view), behind the same checks as
``/api/table``; the page shows it in a frame of its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.app import App
from render import svg
from tests.discord_support import running
from tests.fake_discord import FakeDiscord
from tests.table_seat import play_until, started
from tests.table_support import Page, browser, needs_chromium
from tests.test_discord_e2e import fake
from tests.test_table_browser import table_config
from tests.test_table_server import CHANNEL, Client, table_of, world

__all__ = ["fake", "world"]  # (the fixtures of the table's tests)

STATIC = Path(__file__).resolve().parent.parent / "bot" / "table" / "static"


async def board_of(c: Client, game: Any) -> tuple[int, Any, Any]:
    return await c.call("GET", f"/api/board.svg?game={game}")


async def test_every_caller_gets_the_public_board_and_no_seats_view(world: dict[str, Any]) -> None:
    app: App = world["app"]
    game = world["game"]
    ann_table = await table_of(world["ann"])
    plan = next(a["action"] for a in ann_table["actions"] if a["action"]["type"] == "plan")
    status, out, _ = await world["ann"].call("POST", "/api/act", {"game": game, "action": plan, "version": ann_table["version"]})
    assert status == 200 and out["status"] == "applied", out
    public = svg.board("smartphone-inc", await app.view(game, None))
    got = {}
    for who in ("ann", "bob", "carl"):
        status, text, headers = await board_of(world[who], game)
        assert status == 200, text
        assert headers["Content-Type"].startswith("image/svg+xml")
        assert "Content-Security-Policy" in headers and headers["Cache-Control"] == "no-store"
        got[who] = text
    assert got["ann"] == got["bob"] == got["carl"] == public
    assert "<text" in public and 'data-id="' in public


async def test_the_board_has_the_tables_checks(world: dict[str, Any]) -> None:
    status, data, _ = await board_of(world["anon"], world["game"])
    assert status == 401 and "sign in" in data["error"]
    status, data, _ = await board_of(world["bob"], 999_999)
    assert status == 404 and data["error"]
    status, data, _ = await board_of(world["bob"], "twelve")
    assert status == 400 and data["error"] == "That is not a game number."
    status, text, _ = await world["bob"].call("GET", f"/api/board.svg?channel={CHANNEL}")  # as /api/table finds it
    assert status == 200 and text.startswith("<svg")


async def test_a_game_in_its_lobby_has_no_board_yet(world: dict[str, Any]) -> None:
    app: App = world["app"]
    ann = world["users"]["ann"]
    lobby = await app.create_game("mobile-markets", channel_id=CHANNEL + 1, host_id=int(ann["id"]), host_name="ann")
    status, data, _ = await board_of(world["ann"], lobby.id)
    assert status == 409 and "not started" in data["error"]


@needs_chromium
async def test_at_400_px_the_board_opens_readable_and_pans_in_its_frame(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    ann = fake.add_member("ann")
    async with running(fake, str(tmp_path / "aoa.db"), renderer=None, table=table_config(fake)) as bot:
        gid = await started(fake, bot, "age-of-automaton", ann, "bot")
        await play_until(bot, gid, ann, "ann", "turn")
        port = bot.get_cog("Table").server.port
        async with browser() as b:
            p = Page(await b.new_page(viewport={"width": 400, "height": 800}))
            await p.open(f"http://127.0.0.1:{port}/#code={fake.oauth_code(ann)}&game={gid}")
            page = p.page
            await page.wait_for_selector("#whole-board text")
            assert await page.evaluate("document.documentElement.scrollWidth") <= 400
            least = await page.evaluate(
                "Number(document.querySelector('.board-box').dataset.scale)"
                " * Math.min(...[...document.querySelectorAll('#whole-board text')].map((t) => Number(t.getAttribute('font-size'))))"
            )
            assert least >= 12
            before = await page.evaluate("document.querySelector('.board-pan').style.transform")
            await page.locator("#board-frame").scroll_into_view_if_needed()  # (below the fold at 800 px)
            box = await page.locator("#board-frame").bounding_box()
            assert box is not None
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2  # inside the frame
            await page.mouse.move(cx, cy)
            await page.mouse.down()
            await page.mouse.move(cx - 100, cy - 40, steps=5)
            await page.mouse.up()
            assert await page.evaluate("document.querySelector('.board-pan').style.transform") != before
            assert await page.evaluate("document.documentElement.scrollWidth") <= 400
            assert not p.errors, p.errors


def test_the_page_shows_the_board_in_a_frame_that_pans_and_zooms() -> None:
    js = (STATIC / "table.js").read_text("utf-8")
    css = (STATIC / "table.css").read_text("utf-8")
    assert "api/board.svg?game=" in js and "function tapBoard" in js and "const MIN_TEXT = 12" in js
    assert ".board-frame {" in css and "overflow:hidden" in css.split(".board-frame {")[1].split("}")[0]
