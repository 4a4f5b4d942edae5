"""A game's posts in its place as follow-ups of the newest click there (issue 37: an
interaction's answers do not count against the bot's global limit of 50 requests a
second): while that click's token lives (15 minutes) the phase posts go through it, public
like any post; the status message (edited later) stays the bot's own post, and once the
token is too old the posts go through the channel again, with their nonce."""

from __future__ import annotations

import itertools
import re
from types import SimpleNamespace
from typing import Any

import discord

from bot import prompts as board
from bot.cogs.play import Play
from tests.app_support import fake_fixture
from tests.discord_support import running
from tests.fake_discord import UNKNOWN_WEBHOOK, FakeDiscord, iter_components, message_text
from tests.test_discord_e2e import build_plan, new_game, planner_dm, public_with, seal

fake = fake_fixture()


def made_by(fake: FakeDiscord, msg: dict[str, Any]) -> Any:
    """The request that created ``msg``."""
    return next(r for r in fake.requests if r.method == "POST" and isinstance(r.response, dict)
                and str(r.response.get("id")) == str(msg["id"]))


async def test_phase_posts_go_as_follow_ups_of_the_newest_click_while_its_token_lives(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "g.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [bob])
        start = await fake.click(ann, lobby, "Start")
        opening = await public_with(fake, "Round 1 · Planning")
        status = await public_with(fake, "Plans sealed 0/2")
        place = str(opening["channel_id"])
        # the phase's post: a follow-up of the Start click (its webhook), public, with its mentions
        sent = made_by(fake, opening)
        assert sent.path == f"/webhooks/{fake.application_id}/{start.token}", sent
        assert not opening.get("_ephemeral_for") and not int(opening.get("flags") or 0) & 64
        assert f"<@{ann['id']}>" in message_text(opening) and f"<@{bob['id']}>" in message_text(opening)
        assert not [r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{place}/messages"
                    and "Round 1" in str((r.json or {}).get("content"))]
        # the status message is the bot's own post (edited through the channel later)
        assert made_by(fake, status).path == f"/channels/{place}/messages"

        # the Start click's token is too old now: the reveal's post goes through the channel
        play = bot.get_cog("Play")
        real = play._clock
        play._clock = lambda: real() + board.TOKEN_LIFE + 1
        await seal(fake, ann, await build_plan(fake, ann, planner_dm(fake, ann), outcomes=True))
        await seal(fake, bob, await build_plan(fake, bob, planner_dm(fake, bob), outcomes=True))
        reveal = await public_with(fake, "sealed a plan (2/2)")
        sent = made_by(fake, reveal)
        assert sent.path == f"/channels/{place}/messages", sent
        assert sent.json.get("enforce_nonce") is True and re.fullmatch(r"br\d+", str(sent.json.get("nonce"))), sent.json


async def test_a_follow_up_refused_is_posted_through_the_channel_once(fake: FakeDiscord, tmp_path: Any) -> None:
    """A token Discord no longer takes (it expired early, the interaction is unknown): the
    post goes through the channel, once, with its nonce."""
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "g.db"), renderer=None) as bot:
        assert bot is not None
        lobby = await new_game(fake, ann, [bob])
        rule = fake.fail("POST", f"/webhooks/{fake.application_id}/{{token}}", UNKNOWN_WEBHOOK,
                         when=lambda r: "Round 1" in str((r.json or {}).get("content")))
        await fake.click(ann, lobby, "Start")
        opening = await public_with(fake, "Round 1 · Planning")
        await fake.idle()
        assert len(rule.hits) == 1
        assert made_by(fake, opening).path == f"/channels/{opening['channel_id']}/messages"
        assert sum("Round 1 · Planning" in message_text(m) for m in fake.public_messages()) == 1


def click(channel_id: int, guild_id: int | None, answered: Any, *, done: bool = True) -> Any:
    return SimpleNamespace(
        type=discord.InteractionType.component, id=next(ids), guild_id=guild_id, channel_id=channel_id,
        user=SimpleNamespace(id=7), response=SimpleNamespace(is_done=lambda: done, type=answered),
    )


ids = itertools.count(1)


async def handled(play: Play, ix: Any) -> None:
    """A click as the bot goes through it: it comes in, its handler answers it."""
    await play.on_interaction(ix)
    play.answered(ix)


async def test_only_an_answered_click_whose_follow_up_is_a_new_public_message_carries_posts() -> None:
    """Not a click answered by "thinking" (its first follow-up takes the place of its
    loading message, ephemeral if that was), nor by a modal, nor one not answered yet, nor
    a click in a DM or in another channel."""
    play = Play(SimpleNamespace())  # type: ignore[arg-type]
    kinds = discord.InteractionResponseType
    for answered in (kinds.channel_message, kinds.deferred_message_update, kinds.message_update):
        ix = click(5, 1, answered)
        await handled(play, ix)
        assert play.place_interaction(5) is ix
        assert play.place_interaction(6) is None
    for answered in (kinds.deferred_channel_message, kinds.modal):
        await handled(play, click(5, 1, answered))
        assert play.place_interaction(5) is None, answered
    await handled(play, click(5, 1, kinds.channel_message, done=False))
    assert play.place_interaction(5) is None
    await handled(play, click(9, None, kinds.channel_message))  # a DM click
    assert play.place_interaction(9) is None


async def test_a_click_carries_posts_only_once_its_own_answer_is_sent() -> None:
    """While a click's handler runs (the move applied, the prompt not yet edited into the
    next step) a post through its token would reach Discord before that answer; the newest
    click whose answer is sent carries it instead (or none: through the channel)."""
    play = Play(SimpleNamespace())  # type: ignore[arg-type]
    kinds = discord.InteractionResponseType
    first, second = click(5, 1, kinds.deferred_message_update), click(5, 1, kinds.deferred_message_update)
    await play.on_interaction(first)
    assert play.place_interaction(5) is None  # deferred, its answer on the way
    play.answered(first)
    assert play.place_interaction(5) is first
    await play.on_interaction(second)
    assert play.place_interaction(5) is first  # not the one being answered
    play.answered(second)
    assert play.place_interaction(5) is second
    # the same for a DM click and the DMs to its user
    dm = click(9, None, kinds.deferred_message_update)
    await play.on_interaction(dm)
    assert play.dm_interaction(7, 9) is None
    play.answered(dm)
    assert play.dm_interaction(7, 9) is dm


async def test_a_post_sent_while_a_click_is_answered_does_not_go_ahead_of_its_answer(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: Any
) -> None:
    """Under load the deliverer may send a move's rows before the handler of the click that
    made it has edited its prompt (the rows are in the outbox once the move is applied; a
    delivery already running takes them). Such a post must not go through that click's
    token: Discord would show it before the click's answer, and a player taking it for the
    answer would use the prompt still showing the step before ("Already done: you moved
    since this message" in Age of Automaton's whole games, the reason ee7c6b6 was taken
    back). Here the Start click's answer waits until the deliverer has sent the opening
    post: it goes as a follow-up of the last click answered in the channel (bob's Join)."""
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "g.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [bob])
        join = next(ix for ix in fake.interactions.values() if ix.user["id"] == bob["id"])
        real = discord.Interaction.edit_original_response
        order: list[str] = []

        async def after_the_deliverer(self: discord.Interaction[Any], **kw: Any) -> Any:
            bot.get_cog("Play").kick(1)  # the deliverer is quicker than this handler
            await public_with(fake, "Round 1 · Planning")
            order.append("answer")
            return await real(self, **kw)

        monkeypatch.setattr(discord.Interaction, "edit_original_response", after_the_deliverer)
        start = await fake.click(ann, lobby, "Start")
        opening = await public_with(fake, "Round 1 · Planning")
        monkeypatch.setattr(discord.Interaction, "edit_original_response", real)
        await fake.idle()
        assert order == ["answer"]  # (the answer did wait for the post)
        sent = made_by(fake, opening)
        assert sent.path != f"/webhooks/{fake.application_id}/{start.token}", "a post ahead of the Start click's answer"
        assert sent.path == f"/webhooks/{fake.application_id}/{join.token}", sent  # still an interaction answer
        assert not [c for c in iter_components(lobby) if c.get("label") == "Start"]  # the answer landed
