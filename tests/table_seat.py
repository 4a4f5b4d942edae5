"""A player at the live table, in a game through the fake Discord: the set-up the table's
browser tests share (tests/test_table_games.py, test_table_decide.py,
test_table_gestures.py): the game started with one AI seat, the player's decisions played
by the rule bot up to the kind of decision a test is about, and her page open at 400 px."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from engine import ai
from tests.discord_support import running
from tests.fake_discord import FakeDiscord
from tests.table_support import Page, browser
from tests.test_table_browser import table_config


async def play_until(bot: Any, gid: int, user: dict[str, Any], seat: str, kind: str) -> dict[str, Any]:
    """Play ``seat``'s decisions with the rule bot (as clicks in Discord would) until its
    prompt is a ``kind``; the AI seats answer by themselves."""
    for _ in range(200):
        prompt = await bot.app.prompt(gid, seat)
        if prompt is not None and prompt.get("type") == kind:
            return prompt
        if prompt is None:
            raise AssertionError(f"{seat} has nothing to decide before a {kind}")
        state = await bot.app.state(gid)
        action = ai.choose((await bot.app.info(gid)).game, state, seat, "greedy")
        out = await bot.app.act(gid, int(user["id"]), seat, action, int(state["version"]))
        assert out.status == "applied", out
    raise AssertionError(f"no {kind} decision came")


async def started(fake: FakeDiscord, bot: Any, game: str, ann: dict[str, Any], ai_kind: str) -> int:
    ix = await fake.slash(ann, "game new", {"game": game})
    lobby = ix.original
    info = await bot.app.game_in_channel(int(fake.channel_id))
    await bot.app.add_ai(info.id, int(ann["id"]), ai_kind)
    await fake.click(ann, lobby, "Start")
    return int(info.id)


@dataclass
class Seated:
    fake: FakeDiscord
    bot: Any
    gid: int
    ann: dict[str, Any]
    prompt: dict[str, Any]  # her decision when the page opened
    browser: Any
    p: Page = field(init=False)

    async def open(self, *, lists: bool = False) -> Page:
        """A new page of ann's at the table, at 400 x 800 (``lists``: the old lists, ``?list``)."""
        port = self.bot.get_cog("Table").server.port
        page = Page(await self.browser.new_page(viewport={"width": 400, "height": 800}))
        await page.open(f"http://127.0.0.1:{port}/{'?list' if lists else ''}#code={self.fake.oauth_code(self.ann)}&game={self.gid}")
        return page


@contextlib.asynccontextmanager
async def seated(
    fake: FakeDiscord, tmp_path: Any, db: str, game: str, ai_kind: str, until: str, *, lists: bool = False
) -> AsyncIterator[Seated]:
    """ann against one AI seat of ``ai_kind`` in ``game``, her page open at 400 x 800 once
    her decision is a ``until`` (``lists``: the page's old lists, ``?list``)."""
    ann = next((u for u in fake.users.values() if u.get("username") == "ann"), None) or fake.add_member("ann")
    async with running(fake, str(tmp_path / db), renderer=None, table=table_config(fake)) as bot:
        gid = await started(fake, bot, game, ann, ai_kind)
        prompt = await play_until(bot, gid, ann, "ann", until)
        async with browser() as b:
            seat = Seated(fake, bot, gid, ann, prompt, b)
            seat.p = await seat.open(lists=lists)
            yield seat
