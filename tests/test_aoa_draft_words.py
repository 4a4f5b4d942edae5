"""Age of Automaton's words a player met (issue 34 §4): the draft told each player to
"pass the other 3 to the player on your left" without saying who that is (the engine
passes a hand to the next seat), and the first select of a turn offered "Special actions
(1 options)"."""

from __future__ import annotations

from typing import Any

import pytest

from bot.choices import PLAIN, ActionPath
from bot.games.age_of_automaton import turns
from tests.discord_support import running
from tests.fake_discord import HANG, FakeDiscord, iter_components, message_text


@pytest.fixture
async def fake() -> Any:
    async with FakeDiscord() as f:
        yield f
        f.assert_clean()


async def test_the_draft_names_the_player_the_specialists_go_to(fake: FakeDiscord, tmp_path: Any) -> None:
    users = [fake.add_member(n) for n in ("ann lee", "bob ray", "cy bo")]  # shown as Ann Lee, Bob Ray, Cy Bo
    async with running(fake, str(tmp_path / "aoa.db")):
        ix = await fake.slash(users[0], "game new", {"game": "age-of-automaton"})
        await fake.click(users[1], ix.original, "Join")
        await fake.click(users[2], ix.original, "Join")
        await fake.click(users[0], ix.original, "Start")
        # seats in the order they joined; each passes to the next (the last to the first)
        for u, left in zip(users, ("Bob Ray", "Cy Bo", "Ann Lee"), strict=True):
            msg = await fake.wait_for(
                lambda u=u: next((m for m in fake.dm_messages(u) if "Draft pass 1 of 3" in message_text(m)), None),
                HANG, what=f"the draft DM of {u['username']}",  # (a guard against a DM that never comes:
                # the first DM waits for the bot's cold start and its first pictures, slow on busy cores)
            )
            said = message_text(msg)
            assert f"{left}, on your left, gets the other 3: keep one." in said, said
            assert "player on your left" not in said, said
            select = next(c for c in iter_components(msg) if c.get("type") == 3)
            assert select["placeholder"] == f"{left}, on your left, gets the other 3: keep one."


def test_a_group_of_one_says_one_option() -> None:
    actions = [{"type": "main", "action": "funding", "worker": 0}, {"type": "special", "action": "x"}, {"type": "end"}]
    labels = [c.label for c in turns.turn_step(actions, ActionPath(), PLAIN).choices]
    assert "Special actions (1 option) ▸" in labels, labels
    actions.append({"type": "special", "action": "y"})
    labels = [c.label for c in turns.turn_step(actions, ActionPath(), PLAIN).choices]
    assert "Special actions (2 options) ▸" in labels, labels
