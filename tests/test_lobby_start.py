"""A Start that fails after the game's thread was made (the thread is made from the lobby
card before the start writes its first posts): the lobby stays where its card is, in the
channel, and the next Start runs the game in the thread already hanging on the card
(Discord allows one thread per message). Played through the fake Discord."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_support import running
from tests.fake_discord import FakeDiscord, message_text
from tests.test_discord_e2e import fake, new_game
from tests.test_words import assert_plain_words

__all__ = ["fake"]  # the fixture


def fail_the_first_real_setup(monkeypatch: pytest.MonkeyPatch, engine: Any) -> list[int]:
    """The engine refuses the first start with its secret seed (the lobby's dry run, seed 0,
    passes), as a setup that fails for one seed would: the start fails after the thread."""
    real = engine.setup
    seeds: list[int] = []

    def setup(players: list[str], seed: int, options: dict[str, Any]) -> Any:
        if seed != 0:
            seeds.append(seed)
            if len(seeds) == 1:
                raise ValueError("the deck ran out while dealing")
        return real(players, seed, options)

    monkeypatch.setattr(engine, "setup", setup)
    return seeds


async def test_a_failed_start_keeps_the_lobby_in_the_channel_and_a_retry_runs_in_the_thread(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.allow_threads()
    ann, bob, cy = fake.add_member("ann"), fake.add_member("bob"), fake.add_member("cy")
    async with running(fake, str(tmp_path / "retry.db"), renderer=None) as bot:
        seeds = fail_the_first_real_setup(monkeypatch, bot.app.engine("smartphone-inc"))
        lobby = await new_game(fake, ann, [bob])
        ix = await fake.click(ann, lobby, "Start")
        assert "cannot start" in ix.all_text() and "deck ran out" in ix.all_text(), ix.all_text()
        assert seeds and len(fake.threads) == 1  # the thread was made before the start failed
        info = await bot.app.info(1)
        assert info.status == "lobby"
        assert info.place_id == int(fake.channel_id)  # the lobby is where its card is
        # the channel still has its lobby: a newcomer joins there with the slash command
        ix = await fake.slash(cy, "game join")
        assert "You joined game #1" in ix.all_text(), ix.all_text()
        await fake.idle()
        card = next(m for m in fake.public_messages() if m["id"] == lobby["id"])
        assert f"<@{cy['id']}>" in message_text(card), message_text(card)
        # the host tries again: the game runs in the one thread on the card
        ix = await fake.click(ann, lobby, "Start")
        assert "cannot start" not in ix.all_text()
        thread = fake.threads[0]
        assert len(fake.threads) == 1 and thread["id"] == lobby["id"]
        await fake.wait_for(
            lambda: any("Plans sealed 0/3" in message_text(m) for m in fake.public_messages(thread["id"])),
            what="the status message in the thread",
        )
        await fake.idle()
        assert [m["id"] for m in fake.public_messages()] == [lobby["id"]]  # the channel keeps only the card
        info = await bot.app.info(1)
        assert info.status == "active" and info.place_id == int(thread["id"])
    assert_plain_words(fake)


async def test_a_failed_slash_start_can_be_retried_with_the_slash_command_in_the_channel(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake.allow_threads()
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "retry2.db"), renderer=None) as bot:
        fail_the_first_real_setup(monkeypatch, bot.app.engine("smartphone-inc"))
        lobby = await new_game(fake, ann, [bob])
        ix = await fake.slash(ann, "game start")
        assert "cannot start" in ix.all_text(), ix.all_text()
        ix = await fake.slash(ann, "game start")  # in the channel, where the card is
        assert "Game #1 started." in ix.all_text(), ix.all_text()
        assert len(fake.threads) == 1
        info = await bot.app.info(1)
        assert info.status == "active" and info.place_id == int(lobby["id"])
