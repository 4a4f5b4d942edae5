"""The game's status message and phase post never show a past time as the next deadline.

The reminder scheduler moves a seat's next reminder each time it sends one, without
editing the status message (no extra channel write); so what the status message shows
must not move: the AI takeover time (fixed when the seat's turn began) and the reminders'
rule ("a reminder after 4 h of waiting, then every 12 h"), never the next reminder's
moving time. Played through the fake Discord with a settable clock."""

from __future__ import annotations

import re
from typing import Any

from tests.discord_support import Clock, running
from tests.fake_discord import FakeDiscord, message_text
from tests.test_discord_e2e import fake, new_game, public_with

__all__ = ["fake"]  # the fixture

STAMP = re.compile(r"<t:(\d+):R>")
H = 3600.0


def stamps(message: dict[str, Any]) -> list[int]:
    return [int(s) for s in STAMP.findall(message_text(message))]


async def test_status_shows_no_past_reminder_after_a_reminder_is_sent(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    clock = Clock()
    async with running(fake, str(tmp_path / "status.db"), renderer=None, clock=clock) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.slash(ann, "game settings", {"remind_hours": 1.0, "repeat_hours": 6.0, "takeover_hours": 30.0})
        await fake.click(ann, lobby, "Start")
        status = await public_with(fake, "Plans sealed 0/2")
        opening = await public_with(fake, "Round 1 · Planning")
        due = {(d.seat, d.kind): int(d.due_at) for d in await bot.app.deadlines(1)}
        for seat, name in (("ann", "Ann"), ("bob", "Bob")):  # the deadline that does not move
            assert f"{name}: AI takes over <t:{due[(seat, 'takeover')]}:R>" in message_text(status)
        assert "🔔 A reminder after 1 h of waiting, then every 6 h." in message_text(status)
        assert f"AI takes over <t:{due[('ann', 'takeover')]}:R>" in message_text(opening)

        before = len(fake.dm_messages(ann))
        clock.advance(1 * H + 60)
        await bot.reminders.run_due()  # (or the scheduler's own timer, racing it: either sends)
        await fake.wait_for(lambda: len(fake.dm_messages(ann)) > before, what="ann's reminder")
        await fake.idle()
        moved = {(d.seat, d.kind): int(d.due_at) for d in await bot.app.deadlines(1)}
        assert moved[("ann", "nudge")] > due[("ann", "nudge")]  # the next reminder moved...
        for message in (status, opening):  # ...and nothing on screen shows a past time as the next one
            assert stamps(message) and min(stamps(message)) > clock.now, message_text(message)

        clock.advance(7 * H)  # a second reminder, then the takeover time still ahead
        await bot.reminders.run_due()
        await fake.idle()
        for message in (status, opening):
            assert min(stamps(message)) > clock.now, message_text(message)


async def test_without_takeover_the_status_says_there_is_no_deadline(fake: FakeDiscord, tmp_path: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    clock = Clock()
    async with running(fake, str(tmp_path / "status.db"), renderer=None, clock=clock) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.slash(ann, "game settings", {"takeover": False, "remind_hours": 2.0, "repeat_hours": 12.0})
        await fake.click(ann, lobby, "Start")
        status = await public_with(fake, "Plans sealed 0/2")
        opening = await public_with(fake, "Round 1 · Planning")
        clock.advance(3 * H)
        await bot.reminders.run_due()
        await fake.idle()
        for message in (status, opening):
            assert not [s for s in stamps(message) if s <= clock.now], message_text(message)
        assert "No deadline (AI takeover is off); a reminder after 2 h of waiting, then every 12 h." in message_text(status)
        assert "AI takes over" not in message_text(status)
