"""Fairness and fallbacks (issue 21): the last player of a simultaneous decision is told
even when their DMs are closed, the AI-takeover clock runs from when the decision was
first asked (taking a sealed plan back and sealing again never moves it), "Change my
plan" sends no second planner, and an old "Open my turn" answers in place."""

from __future__ import annotations

from typing import Any

from tests.discord_support import Clock, running
from tests.fake_discord import EPHEMERAL, FakeDiscord, iter_components, message_text
from tests.test_discord_e2e import build_plan, fake, new_game, planner_dm, public_with, seal

__all__ = ["fake"]  # the fixture

H = 3600.0


def live(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in msgs if any(not c.get("disabled") and c.get("custom_id", "").startswith("br:") for c in iter_components(m))]


async def test_the_last_player_with_closed_dms_gets_the_channel_mention(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    fake.close_dms(bob)
    async with running(fake, str(tmp_path / "last.db"), renderer=None):
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        await fake.wait_for(lambda: fake.dm_messages(ann), what="ann's planner")
        await fake.idle()
        msg = await build_plan(fake, ann, planner_dm(fake, ann), outcomes=True)
        await seal(fake, ann, msg)
        told = await public_with(fake, "You are the last one")
        assert f"<@{bob['id']}>" in message_text(told) and "/plan" in message_text(told), message_text(told)


async def test_taking_a_plan_back_never_moves_the_takeover_clock_nor_sends_a_second_planner(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    clock = Clock()
    async with running(fake, str(tmp_path / "clock.db"), renderer=None, clock=clock) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.slash(ann, "game settings", {"takeover_hours": 30.0})
        await fake.click(ann, lobby, "Start")
        await fake.wait_for(lambda: fake.dm_messages(ann), what="ann's planner")
        await fake.idle()
        asked = {d.seat: d.due_at for d in await bot.app.deadlines(1) if d.kind == "takeover"}
        msg = await build_plan(fake, ann, planner_dm(fake, ann), outcomes=True)
        sealed = await seal(fake, ann, msg)
        for _ in range(2):  # unseal and reseal, hours later: ann's own changes
            clock.advance(5 * H)
            dms = len(fake.dm_messages(ann))
            ix = await fake.click(ann, sealed.original, "Change my plan")
            await fake.idle()
            assert len(fake.dm_messages(ann)) == dms, "a second planner DM"
            assert len(live(fake.dm_messages(ann))) == 1
            due = {d.seat: d.due_at for d in await bot.app.deadlines(1) if d.kind == "takeover"}
            assert due["ann"] == asked["ann"], (due, asked)  # not 5 h later
            sealed = await seal(fake, ann, ix.original)  # the same plan, sealed again
            await fake.idle()
            assert len(live(fake.dm_messages(ann))) == 1  # only "Change my plan" is live


async def test_an_old_open_my_turn_answers_in_place_and_sends_no_dm(fake: FakeDiscord, tmp_path: Any) -> None:
    """Planning sealed by both; the round's first turn opened from the channel's post and
    played; the same post's button then says the turn is done, privately; no DM."""
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "open.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        for u in (ann, bob):
            await fake.wait_for(lambda u=u: fake.dm_messages(u), what="a planner")
            await fake.idle()
            await seal(fake, u, await build_plan(fake, u, planner_dm(fake, u), outcomes=True))
        await fake.idle()
        engine = bot.app.engine("smartphone-inc")
        seat = sorted(engine.pending(await bot.app.state(1)))[0]
        user = ann if seat == "ann" else bob
        post = next(m for m in reversed(fake.public_messages()) if any(c.get("label") == "Open my turn" for c in iter_components(m)))
        ix = await fake.click(user, post, "Open my turn")
        turn = ix.followups[-1] if ix.followups else ix.original
        for _ in range(12):  # the turn, to its end
            sel = next((c for c in iter_components(turn) if c["type"] == 3), None)
            if any((c.get("label") or "").startswith("Confirm") for c in iter_components(turn)):
                turn = (await fake.click(user, turn, "Confirm")).original
                if user["username"] not in engine.pending(await bot.app.state(1)):
                    break
            elif sel is not None:
                opts = [o for o in sel["options"] if not o["value"].startswith("@")]
                turn = (await fake.click(user, turn, sel["custom_id"], values=[opts[0]["value"]])).original
        await fake.idle()
        dms = len(fake.dm_messages(user))
        ix = await fake.click(user, post, "Open my turn")
        await fake.idle()
        assert len(fake.dm_messages(user)) == dms  # never a new DM
        assert ix.callback_data.get("flags", 0) & EPHEMERAL or ix.followups and ix.followups[-1]["flags"] & EPHEMERAL
        assert "done" in ix.all_text(), ix.all_text()
