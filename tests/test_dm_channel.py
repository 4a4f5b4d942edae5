"""Issue 34 §4: a player's first DM opens the DM channel with the user's id at once (one
request, ``POST /users/@me/channels``), without fetching the user first (``GET
/users/{id}``: one more request per player, and a bucket of its own at Discord)."""

from __future__ import annotations

import re
from typing import Any

from tests.discord_support import running
from tests.fake_discord import FakeDiscord


async def test_the_first_dm_of_each_player_opens_its_channel_without_fetching_the_user(tmp_path: Any) -> None:
    async with FakeDiscord() as fake:
        users = [fake.add_member(n) for n in ("ann", "bob")]
        async with running(fake, str(tmp_path / "dm.db"), renderer=None):
            ix = await fake.slash(users[0], "game new", {"game": "age-of-automaton"})
            await fake.click(users[1], ix.original, "Join")
            await fake.click(users[0], ix.original, "Start")
            for u in users:  # the first draft pass, by DM
                await fake.wait_for(lambda u=u: fake.dm_messages(u), 60, what=f"{u['username']}'s draft DM")
            await fake.idle()
        ids = {u["id"] for u in users}
        fetched = [r.path for r in fake.requests if r.method == "GET" and re.fullmatch(r"/users/(\d+)", r.path)
                   and r.path.rsplit("/", 1)[1] in ids]
        opened = [str((r.json or {}).get("recipient_id")) for r in fake.requests
                  if r.method == "POST" and r.path == "/users/@me/channels"]
        assert fetched == [], fetched  # no user fetched before the DM
        assert sorted(opened) == sorted(ids), opened  # each DM channel opened once, with the user's id
        fake.assert_clean()
