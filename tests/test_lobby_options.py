"""The lobby card shows every option in words: colours and player names, never the
internal seat ids the host may have typed (a seat's id is made from its player's name:
"Ann Lee" sits in seat "annlee"). Played through the fake Discord."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.games import find
from tests.discord_support import running
from tests.fake_discord import FakeDiscord, message_text
from tests.test_discord_e2e import fake, public_with
from tests.test_words import assert_plain_words

SI = find("smartphone-inc")
__all__ = ["fake"]  # the fixture


def options_field(card: dict[str, Any]) -> str:
    fields = card["embeds"][0].get("fields") or []
    return next((f["value"] for f in fields if f["name"] == "Options"), "")


async def si_lobby(fake: FakeDiscord, host: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The lobby card of a new Smartphone Inc. game opened by ``host`` with ``options``
    typed as JSON in /game new."""
    ix = await fake.slash(host, "game new", {"game": "smartphone-inc", "options": json.dumps(options)})
    return ix.original  # type: ignore[no-any-return]


async def test_the_colours_option_shows_colours_and_player_names(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann lee"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "colours.db"), renderer=None) as bot:
        lobby = await si_lobby(fake, ann, {"colours": {"annlee": "red", "bob": "blue"}, "tech_sides": "random"})
        shown = options_field(lobby)
        assert "Company colours: Red for Ann Lee, Blue for a player who has not joined yet" in shown, shown
        assert "annlee" not in message_text(lobby) and "bob" not in shown.lower()
        await fake.click(bob, lobby, "Join")
        shown = options_field(lobby)
        assert "Company colours: Red for Ann Lee, Blue for Bob" in shown, shown
        assert "annlee" not in message_text(lobby) and "bob blue" not in shown.lower()
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Plans sealed 0/2")
        view = await bot.app.view(1, None)
        assert {s: p["colour"] for s, p in view["players"].items()} == {"annlee": "red", "bob": "blue"}
    assert_plain_words(fake)


async def test_the_host_may_name_the_players_as_they_are_shown(fake: FakeDiscord, tmp_path: Any) -> None:
    """The host types the players' names ("Ann Lee"), not seat ids; colours in any case."""
    ann, bob = fake.add_member("ann lee"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "names.db"), renderer=None) as bot:
        lobby = await si_lobby(fake, ann, {"colours": {"Ann Lee": "Yellow", "Bob": "green"}})
        await fake.click(bob, lobby, "Join")
        assert "Company colours: Yellow for Ann Lee, Green for Bob" in options_field(lobby)
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Plans sealed 0/2")
        view = await bot.app.view(1, None)
        assert {s: p["colour"] for s, p in view["players"].items()} == {"annlee": "yellow", "bob": "green"}


@pytest.mark.parametrize(
    ("colours", "says"),
    [
        ({"ann": "pink"}, "green, blue, black, yellow or red"),
        ({"ann": "red", "bob": "red"}, "a different colour"),
        ({"Ann": "red", "ann": "blue"}, "twice"),
        (["red"], "player's name"),
    ],
)
def test_wrong_colours_are_refused_in_words(colours: Any, says: str) -> None:
    with pytest.raises(ValueError, match=says) as err:
        SI.parse_options(json.dumps({"colours": colours}))
    assert "{" not in str(err.value)


def test_every_option_of_every_game_echoes_no_seat_id() -> None:
    """Each game's options in words, with seats whose ids differ from their names."""
    names = {"annlee": "Ann Lee", "bob2": "Bob"}
    for game, typed in (
        ("smartphone-inc", {"colours": {"annlee": "red", "bob2": "blue"}, "tech_sides": "random", "hardcore": True}),
        ("mobile-markets", {"difficulty": "hard"}),
        ("age-of-automaton", {"limited_common_specialists": True}),
    ):
        presenter = find(game)
        assert presenter is not None
        shown = " ".join(presenter.options_in_words(presenter.check_options(typed), names))
        assert "annlee" not in shown and "bob2" not in shown, shown


async def test_a_sweep_during_the_thread_creation_posts_in_the_thread(fake: FakeDiscord, tmp_path: Any) -> None:
    """A delivery sweep landing between the game's start and its thread's creation (made
    slow here) must not post the game's first rows in the channel: the thread is made
    before the start writes them."""
    import asyncio

    fake.allow_threads()
    slow = fake.slow("POST", "/channels/{c}/messages/{m}/threads", 1.0)
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "race.db"), renderer=None) as bot:
        ix = await fake.slash(ann, "game new", {"game": "smartphone-inc"})
        lobby = ix.original
        await fake.click(bob, lobby, "Join")
        click = asyncio.create_task(fake.click(ann, lobby, "Start"))
        await fake.wait_for(lambda: slow.hits, what="the thread being made")
        for _ in range(8):  # sweeps while Discord makes the thread
            await bot.delivery.sweep()
            await asyncio.sleep(0.1)
        await click
        await fake.wait_for(lambda: fake.threads, what="the game's thread")
        thread = fake.threads[0]
        await fake.wait_for(
            lambda: any("Plans sealed 0/2" in message_text(m) for m in fake.public_messages(thread["id"])),
            what="the status message in the thread",
        )
        await fake.idle()
        assert [m["id"] for m in fake.public_messages()] == [lobby["id"]]  # the channel keeps only the card
        assert (await bot.app.info(1)).place_id == int(thread["id"])


async def test_colours_for_someone_not_seated_say_who_and_who_is_seated(fake: FakeDiscord, tmp_path: Any) -> None:
    """The host gave a colour to Carl, who never joined: Start names Carl and the seated
    players in words (not the engine's "colours gives every seat a different colour"),
    makes no thread, and the lobby stays open."""
    fake.allow_threads()
    ann, bob = fake.add_member("ann lee"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "unknown.db"), renderer=None) as bot:
        lobby = await si_lobby(fake, ann, {"colours": {"Ann Lee": "red", "Carl": "blue"}})
        await fake.click(bob, lobby, "Join")
        ix = await fake.click(ann, lobby, "Start")
        said = "\n".join(message_text(m) for m in ix.followups)
        assert "every seat" not in said and "cannot start" not in said, said
        assert "give a colour to Carl, who is not in this game, and none to Bob" in said, said
        assert "The seated players are Ann Lee and Bob." in said, said
        assert not fake.threads and (await bot.app.info(1)).status == "lobby"
        # the slash command says the same
        ix = await fake.slash(ann, "game start")
        assert said in ix.all_text(), ix.all_text()
    assert_plain_words(fake)


async def test_a_seated_player_without_a_colour_is_named(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob, cy = fake.add_member("ann"), fake.add_member("bob"), fake.add_member("cy")
    async with running(fake, str(tmp_path / "missing.db"), renderer=None) as bot:
        lobby = await si_lobby(fake, ann, {"colours": {"Ann": "red", "Bob": "blue"}})
        await fake.click(bob, lobby, "Join")
        await fake.click(cy, lobby, "Join")
        ix = await fake.click(ann, lobby, "Start")
        said = "\n".join(message_text(m) for m in ix.followups)
        assert "Company colours give no colour to Cy" in said and "every seat" not in said, said
        assert (await bot.app.info(1)).status == "lobby"
