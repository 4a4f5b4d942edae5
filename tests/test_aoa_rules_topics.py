"""``/rules`` says the Achievements rule of the game's own rules version
(engine/age_of_automaton/versions.py): games of rules version 1 claim Achievements
automatically, games of version 2 offer them, games of version 3 also ask for them before
each Audit; with no game in the channel the current rule and the older ones are said.
AA-ACH-01."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.age_of_automaton.presenter import AgeOfAutomaton
from bot.games.age_of_automaton.rules import topics
from engine.age_of_automaton import setup as aoa_setup
from tests.app_support import fake_fixture
from tests.discord_support import running
from tests.fake_discord import FakeDiscord

P = AgeOfAutomaton()
OFFERED = "it is offered to you"
AUTOMATIC = "claimed for you automatically"
BEFORE_AUDIT = "before each Audit"


def test_each_rules_version_says_its_own_achievements_rule_AA_ACH_01() -> None:
    one, two = P.rules_text("tracks", "action", 1), P.rules_text("tracks", "action", 2)
    assert AUTOMATIC in one and OFFERED not in one and "Claim Achievement" not in one
    assert OFFERED in two and AUTOMATIC not in two and "Claim Achievement" in two
    three = P.rules_text("tracks", "action", 3)
    assert OFFERED in three and AUTOMATIC not in three and BEFORE_AUDIT in three and BEFORE_AUDIT not in two
    # without a game: the current rule, and what older games do
    both = P.rules_text("tracks")
    assert OFFERED in both and "Games started before rules version 2 claim them for you automatically" in both
    assert BEFORE_AUDIT in both and "games started before rules version 3 ask only before the final scoring" in both
    # the other topics do not depend on the version, and each stays within a Discord message
    for topic in P.rules_topics():
        if topic != "tracks":
            assert topics(1)[topic] == topics(2)[topic] == topics(3)[topic] == topics(None)[topic]
        for rules in (None, 1, 2, 3):
            assert len(P.rules_text(topic, None, rules)) < 2000
    assert P.rules_topics() == list(topics(1)) == list(topics(None))


fake = fake_fixture()


async def _rules_in_a_game(fake: FakeDiscord, db: str) -> str:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, db):
        ix = await fake.slash(ann, "game new", {"game": "age-of-automaton"})
        lobby = ix.original
        ix = await fake.slash(bob, "rules", {"topic": "tracks"})  # in the lobby: no rules version yet
        assert OFFERED in ix.all_text() and "Games started before rules version 2" in ix.all_text()
        await fake.click(bob, lobby, "Join")
        await fake.click(ann, lobby, "Start")
        ix = await fake.slash(bob, "rules", {"topic": "tracks"})
        return ix.all_text()


async def test_rules_in_a_channel_follow_the_games_rules_version_AA_ACH_01(fake: FakeDiscord, tmp_path: Any) -> None:
    said = await _rules_in_a_game(fake, str(tmp_path / "aoa2.db"))
    assert OFFERED in said and AUTOMATIC not in said and "Games started before" not in said
    assert BEFORE_AUDIT in said


async def test_rules_of_a_rules_1_game_say_the_automatic_claim_AA_ACH_01(
    fake: FakeDiscord, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game started while rules version 1 was current (set up as it was then)."""
    monkeypatch.setattr(aoa_setup, "RULES", 1)
    said = await _rules_in_a_game(fake, str(tmp_path / "aoa1.db"))
    assert AUTOMATIC in said and OFFERED not in said and "Games started before" not in said
