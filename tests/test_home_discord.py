"""The player's home through the fake Discord (issue 36): /games on two servers, in a
server and in a DM, its "Open my turn" button; /profile and /leaderboard."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from fakegame import GAME, _presenter, fake_ai

from tests.discord_support import Clock, running
from tests.fake_discord import FakeDiscord, message_text
from tests.test_discord_e2e import fake

__all__ = ["fake"]  # the fixture

OTHER_GUILD = 4242  # a second server the bot shares with the player (stored games only)


def dm_channel(fake: FakeDiscord, user: dict[str, Any]) -> str:
    """The user's DM channel with the bot (as the fake opens one)."""
    if user["id"] not in fake.dm_channels:
        cid = fake.new_id()
        fake.channels[cid] = {"id": cid, "type": 1, "recipients": [user], "last_message_id": None, "_user_id": user["id"]}
        fake.messages[cid] = []
        fake.dm_channels[user["id"]] = cid
    return fake.dm_channels[user["id"]]


def bot_kwargs(clock: Clock) -> dict[str, Any]:
    return {"renderer": None, "clock": clock, "games": {"fake": GAME}, "presenters": {"fake": _presenter()},
            "ai_choose": fake_ai}


async def game(bot: Any, users: list[dict[str, Any]], *, guild: int, channel: int) -> int:
    app = bot.app
    ids = [int(u["id"]) for u in users]
    info = await app.create_game("fake", guild_id=guild, channel_id=channel, host_id=ids[0],
                                 host_name=users[0]["username"].title(), options={"rounds": 1})
    for u in users[1:]:
        await app.join(info.id, int(u["id"]), u["username"].title())
    await app.start(info.id, ids[0], seed=1)
    return info.id


def reply(ix: Any) -> dict[str, Any]:
    msgs = ix.messages()
    assert msgs, ix.all_text()
    return msgs[-1]


async def test_games_on_two_servers_in_a_server_and_in_a_dm(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob, cid = fake.add_member("ann"), fake.add_member("bob"), fake.add_member("cid")
    clock = Clock()
    async with running(fake, str(tmp_path / "home.db"), **bot_kwargs(clock)) as bot:
        here = await game(bot, [ann, bob], guild=int(fake.guild_id), channel=int(fake.channel_id))
        there = await game(bot, [bob, cid], guild=OTHER_GUILD, channel=777)
        theirs = await game(bot, [ann, cid], guild=OTHER_GUILD, channel=778)  # not Bob's
        await bot.app.act(here, int(bob["id"]), None, {"pick": 2}, (await bot.app.info(here)).version)

        ix = await fake.slash(bob, "games")
        msg = reply(ix)
        assert msg.get("flags", 0) & 64  # ephemeral
        text = message_text(msg)
        assert f"#{there} Fake Game" in text and f"#{here} Fake Game" in text
        assert f"#{theirs} " not in text
        assert text.index(f"#{there} ") < text.index("Running") < text.index(f"#{here} ")  # waiting on Bob first
        assert "Boardroom test guild" in text and "another server" in text
        assert f"https://discord.com/channels/{OTHER_GUILD}/777" in text
        assert f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}" in text
        assert "waiting for Ann" in text and "your move" in text
        labels = [c.get("label") for row in msg.get("components", []) for c in row.get("components", [])]
        assert labels == [f"Open my turn: #{there}"]  # only the game that waits on him

        opened = await fake.click(bob, msg, f"Open my turn: #{there}")
        assert not opened.failed and "no seat" not in opened.all_text()
        assert "nothing to decide" not in opened.all_text()

        dm = dm_channel(fake, bob)
        ix = await fake.slash(bob, "games", channel_id=dm)
        text = message_text(reply(ix))
        assert f"#{there} Fake Game" in text and f"#{here} Fake Game" in text and f"#{theirs} " not in text

        nobody = fake.add_member("dee")
        ix = await fake.slash(nobody, "games")
        assert "not in any game" in ix.all_text()


async def test_profile_hidden_and_leaderboard_refusals(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    clock = Clock()
    async with running(fake, str(tmp_path / "home.db"), **bot_kwargs(clock)) as bot:
        gid = await game(bot, [ann, bob], guild=int(fake.guild_id), channel=int(fake.channel_id))
        app = bot.app
        for user, action in ((ann, {"pick": 3}), (bob, {"pick": 1}), (ann, {"take": 2}), (bob, {"take": 0})):
            await app.act(gid, int(user["id"]), None, action, (await app.info(gid)).version)
        assert (await app.info(gid)).status == "finished"

        ix = await fake.slash(bob, "profile", {"user": ann})
        text = ix.all_text()
        assert "Fake Game" in text and "played 1, finished 1, won 1" in text and "rating" in text

        ix = await fake.slash(bob, "leaderboard", {"game": "fake"})
        assert "Nobody here has finished 3 rated games" in ix.all_text()

        ix = await fake.slash(ann, "profile", {"hidden": True})
        assert "hidden now" in ix.all_text()
        ix = await fake.slash(bob, "profile", {"user": ann})
        assert "keeps their profile hidden" in ix.all_text() and "played" not in ix.all_text()


async def test_away_frozen_and_played_by_the_ai_then_told_by_dm(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    clock = Clock()
    async with running(fake, str(tmp_path / "home.db"), **bot_kwargs(clock)) as bot:
        app = bot.app
        frozen = await game(bot, [ann, bob], guild=int(fake.guild_id), channel=int(fake.channel_id))
        by_ai = await game(bot, [ann, bob], guild=OTHER_GUILD, channel=777)
        ix = await fake.slash(ann, "game settings", {"vacation": "ai", "vacation_days": 5}, channel_id=fake.channel_id)
        assert "Vacation policy saved" in ix.all_text() and "the AI plays for the away player, for at most 5 days" in ix.all_text()
        await app.set_vacation_policy(frozen, int(ann["id"]), policy="freeze")  # (back: the other game is elsewhere)
        await app.set_vacation_policy(by_ai, int(ann["id"]), policy="ai")

        ix = await fake.slash(bob, "away", {"days": 31})
        assert "30" in ix.all_text() and await app.away_until(int(bob["id"])) is None  # refused, nothing changed
        ix = await fake.slash(bob, "away", {"days": 3})
        text = ix.all_text()
        assert "You are away until" in text
        assert f"#{frozen} Fake Game: your deadlines are frozen" in text and f"#{by_ai} Fake Game: the AI plays for you" in text
        assert (await app.info(by_ai)).seat_of(int(bob["id"])).ai_takeover

        ix = await fake.slash(ann, "game status", channel_id=fake.channel_id)
        assert "away until <t:" in ix.all_text()
        ix = await fake.slash(bob, "games")
        assert message_text(reply(ix)).count("away until <t:") == 2

        clock.advance(3 * 86400 + 1)
        await bot.get_cog("Home").tick()
        dm = await fake.wait_for(lambda: [m for m in fake.dm_messages(bob) if "Welcome back" in message_text(m)], what="the DM")
        assert f"#{by_ai} Fake Game" in message_text(dm[-1]) and "by the AI for you" in message_text(dm[-1])
        assert not (await app.info(by_ai)).seat_of(int(bob["id"])).ai_takeover


async def test_a_substitute_accepted_mid_game(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob, cid = fake.add_member("ann"), fake.add_member("bob"), fake.add_member("cid")
    stranger = fake._make_user("zed")  # not a member of the server
    clock = Clock()
    async with running(fake, str(tmp_path / "home.db"), **bot_kwargs(clock)) as bot:
        app = bot.app
        gid = await game(bot, [ann, bob], guild=int(fake.guild_id), channel=int(fake.channel_id))
        for user, action in ((ann, {"pick": 3}), (bob, {"pick": 1}), (ann, {"take": 2})):
            await app.act(gid, int(user["id"]), None, action, (await app.info(gid)).version)
        assert await app.prompt(gid, "bob") is not None  # Bob is awaited, and idle

        for who, words in ((fake.bot_user, "is a bot"), (bob, "already plays"), (stranger, "not a member")):
            ix = await fake.slash(ann, "game sub", {"user": who, "seat": "bob"})
            assert words in ix.all_text(), ix.all_text()
        ix = await fake.slash(cid, "game sub", {"user": cid, "seat": "bob"})  # not the host, not his seat
        assert "already plays" in ix.all_text() or "Only the host" in ix.all_text()
        assert (await app.info(gid)).seat_named("bob").user_id == int(bob["id"])  # nothing changed

        ix = await fake.slash(ann, "game sub", {"user": cid, "seat": "bob"})
        offer = ix.original
        assert offer is not None and "you are offered **Bob**'s seat" in message_text(offer)
        no = await fake.click(bob, offer, "Take the seat")
        assert "offered to someone else" in no.all_text()
        yes = await fake.click(cid, offer, "Take the seat")
        assert "The seat is yours" in yes.all_text() and "your move" in yes.all_text()
        info = await app.info(gid)
        assert info.seat_named("bob").user_id == int(cid["id"]) and info.seat_of(int(bob["id"])) is None
        await fake.wait_for(lambda: any("Cid plays Bob's seat from round 1" in message_text(m)
                                        for m in fake.public_messages()), what="the log line")
        again = await fake.click(cid, offer, "Take the seat") if offer.get("components") else None
        assert again is None or "out of date" in again.all_text() or "already" in again.all_text()

        await app.act(gid, int(cid["id"]), None, {"take": 0}, info.version)
        assert (await app.info(gid)).status == "finished"
        [bobs] = await app.profile(int(bob["id"]), int(bob["id"]))
        [cids] = await app.profile(int(cid["id"]), int(cid["id"]))
        assert (bobs.played, bobs.finished, bobs.rated) == (1, 0, 0)  # his part: one move, no result
        assert (cids.played, cids.finished, cids.rated) == (1, 1, 1)  # the result is the finisher's
        assert bobs.deadlines_met == 1.0 and cids.deadlines_met == 1.0


async def test_the_digest_at_its_hour_through_the_outbox(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    clock = Clock()
    async with running(fake, str(tmp_path / "home.db"), **bot_kwargs(clock)) as bot:
        gid = await game(bot, [ann, bob], guild=int(fake.guild_id), channel=int(fake.channel_id))
        ix = await fake.slash(bob, "games", {"notify": "digest", "digest_hour": 9, "timezone": "Asia/Tokyo"})
        assert "one DM a day at 09:00 (Asia/Tokyo)" in ix.all_text()
        ix = await fake.slash(bob, "games", {"timezone": "Mars/Olympus"})
        assert "unknown time zone" in ix.all_text()
        local = datetime.fromtimestamp(clock(), ZoneInfo("Asia/Tokyo"))
        nine = local.replace(hour=9, minute=0, second=0, microsecond=0)
        due = nine.timestamp() if nine > local else nine.timestamp() + 86400
        home = bot.get_cog("Home")
        clock.now = due - 30
        await home.tick()
        clock.now = due + 30
        await home.tick()
        dms = await fake.wait_for(
            lambda: [m for m in fake.dm_messages(bob) if "daily digest" in message_text(m)], what="the digest")
        assert len(dms) == 1 and f"#{gid} Fake Game" in message_text(dms[0])


async def test_the_vacation_policy_is_chosen_at_game_new(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "home.db"), **bot_kwargs(Clock())) as bot:
        ix = await fake.slash(ann, "game new", {"game": "fake", "vacation": "none", "vacation_days": 3})
        assert not ix.failed and "game #1" in message_text(ix.original)
        assert await bot.app.vacation_policy(1) == ("none", 3)
        ix = await fake.slash(bob, "game settings", {"vacation": "ai"})  # not the host: refused, nothing changed
        assert "Only the host" in ix.all_text()
        assert await bot.app.vacation_policy(1) == ("none", 3)
