"""Issue 20 §4: a crafted button (a ``custom_id`` the bot never made, e.g.
``br:ab:<game>:<seat>:<version>:-:zzz``) gets a polite private reply, not an empty
one, and changes nothing. Through the fake Discord, the real client."""

from __future__ import annotations

import copy
from typing import Any

from tests.app_support import fake_fixture
from tests.discord_support import running
from tests.fake_discord import EPHEMERAL, FakeDiscord, FakeInteraction
from tests.test_discord_e2e import new_game

fake = fake_fixture()


async def press(
    fake: FakeDiscord, user: dict[str, Any], msg: dict[str, Any], custom_id: str, *, on_message: bool
) -> FakeInteraction:
    """Press a button with ``custom_id`` on ``msg`` (a crafted request). ``on_message``:
    the message says it holds that button (a doctored message), else it does not."""
    u = fake._user_of(user)
    payload = fake._base_interaction(3, u, msg["channel_id"], {"custom_id": custom_id, "component_type": 2})
    payload["message"] = copy.deepcopy(fake.public(msg))
    if on_message:
        button = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
        payload["message"]["components"] = [{"type": 1, "components": [button]}]
    return await fake._send_interaction(payload, u, msg["channel_id"], True, 10)


async def test_crafted_buttons_get_a_polite_private_reply(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "crafted.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        info = (await bot.app.games_with_status("active"))[0]
        gid, ver = info.id, info.version
        crafted = [
            f"br:ab:{gid}:ann:{ver}:-:zzz",  # the issue's: an operation no button has
            f"br:ab:{gid}:ann:{ver}::zzz",
            f"br:pb:{gid}:ann:{ver}:zzz",
            f"br:lobby:{gid}:zzz",
            f"br:ab:{gid + 99}:ann:{ver}:-:confirm",  # no such game
            f"br:zzz:{gid}",  # no such kind of button
            "br:" + "9" * 90,
        ]
        for custom_id in crafted:
            for on_message in (True, False):
                ix = await press(fake, ann, lobby, custom_id, on_message=on_message)
                text = ix.all_text()
                assert ix.callback_data and ix.callback_data["flags"] & EPHEMERAL, (custom_id, ix.callbacks)
                assert text.strip() and "error id" not in text, (custom_id, text)
                assert "zzz" not in text, text
        after = await bot.app.info(gid)
        assert after.version == ver and after.status == "active"
