"""``/game log`` and ``/game history`` (issue 7, "The channel"): the log as text, one
round at a time, and a round's pictures and log, both answered privately, within
Discord's limits, with player names as everywhere else and nothing hidden."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from bot.cogs.play import log_messages
from bot.records import SeatInfo
from bot.text import with_player_names
from tests.app_support import fake_fixture
from tests.discord_support import SpyRenderer, running
from tests.fake_discord import EPHEMERAL, FakeDiscord, message_text
from tests.test_words import assert_plain_words

# the first post of a game comes after the bot's cold start (the board drawn, the first
# pictures): a guard against a post that never comes, not a measure of speed (its 15 s
# ran out once on 2 busy cores)
FIRST_POST = 60.0


fake = fake_fixture(FakeDiscord.assert_no_unknown)


def private(ix: Any, user: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages that answered ``ix``: each one ephemeral, for ``user`` alone."""
    msgs = list({m["id"]: m for m in ix.messages()}.values())  # the first follow-up replaces "thinking"
    assert msgs, ix.all_text()
    for m in msgs:
        assert m["flags"] & EPHEMERAL, message_text(m)
        assert m.get("_ephemeral_for") == user["id"]
        assert len(m.get("content") or "") <= 2000
    return msgs


async def test_game_log_and_history_answer_privately_with_names_and_no_secret(fake: FakeDiscord, tmp_path: Any) -> None:
    from tests.test_discord_e2e import build_plan, new_game, play_turns, public_with, seal

    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "log.db"), renderer=SpyRenderer()):
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Plans sealed 0/2", FIRST_POST)
        ix = await fake.slash(bob, "game log")  # round 1, nothing revealed yet
        assert "Log of round 1" in private(ix, bob)[0]["content"]
        assert "reveals" not in ix.all_text()
        for u in (ann, bob):
            msg = await fake.wait_for(lambda u=u: fake.dm_messages(u), what="a planner DM")
            await seal(fake, u, await build_plan(fake, u, msg[-1], outcomes=True))
        await play_turns(fake, [ann, bob], until="Round 2 · Planning")
        # round 2: ann seals, bob does not; ann's plan stays hers
        msg = await fake.wait_for(lambda: fake.dm_messages(ann)[1:] or None, what="ann's round 2 planner")
        await seal(fake, ann, await build_plan(fake, ann, msg[-1], outcomes=True))
        await public_with(fake, "Plans sealed 1/2")
        public_before = len(fake.public_messages())

        ix = await fake.slash(bob, "game log")  # the current round by default
        text = "\n".join(message_text(m) for m in private(ix, bob))
        assert "Log of round 2" in text and "reveals" not in text
        assert "Ann sealed a plan (1/2)." in text  # that she sealed is public (the status says so); not what

        ix = await fake.slash(bob, "game log", {"round": 1})
        text = "\n".join(message_text(m) for m in private(ix, bob))
        assert "Log of round 1" in text
        assert re.search(r"^• Ann reveals: ", text, re.M) and re.search(r"^• Bob reveals: ", text, re.M)
        assert not re.search(r"\b(?:ann|bob)\b", text)  # seat ids: the players' names instead
        assert "Round 1: Phase 8, Receive VP." in text  # the whole round, to its scoring

        ix = await fake.slash(bob, "game log", {"round": 4})
        assert "Round 4 has not been played yet." in private(ix, bob)[0]["content"]

        ix = await fake.slash(bob, "game history", {"round": 1})
        (msg,) = private(ix, bob)
        assert "Round 1" in msg["content"] and msg["_files"] and "Ann reveals" in msg["content"]

        rounds = await fake.autocomplete(bob, "game log", {"round": ""}, "round")
        assert [c["value"] for c in rounds] == [1, 2]
        assert len(fake.public_messages()) == public_before  # nothing posted in the channel
    assert_plain_words(fake)


def test_a_long_log_is_split_within_discords_limit() -> None:
    lines = [f"ann places {i % 4 + 1} Progress marker(s) towards North Africa ({i}/4)." for i in range(400)]
    msgs = log_messages("**Log of round 3** of game #1", lines)
    assert len(msgs) == 5 and all(len(m) <= 1900 for m in msgs)
    assert msgs[0].startswith("**Log of round 3**")
    shown = sum(m.count("\n• ") + m.startswith("• ") for m in msgs)
    assert msgs[-1].endswith(f"… and {400 - shown} more line(s): `/game export` has the whole game.")
    assert [line for m in msgs for line in m.split("\n") if line.startswith("• ")] == [f"• {x}" for x in lines[:shown]]
    # a short log: one message, every line
    one = log_messages("head", lines[:3])
    assert one == ["head\n" + "\n".join(f"• {x}" for x in lines[:3])]
    # an absurdly long line is clipped, never over the limit
    assert all(len(m) <= 1900 for m in log_messages("head", ["x" * 5000, "y"]))


def test_seats_are_called_by_their_players_names() -> None:
    seats = (
        SeatInfo("annlee", 0, 1, None, "Ann Lee", False),
        SeatInfo("bo", 1, 2, None, "Bo", False),
        SeatInfo("steve", 2, None, "steve", "Steve", False),
    )
    info: Any = SimpleNamespace(seats=seats)  # what it reads of a GameInfo
    lines = [
        "annlee sells 2 Goods in China.",
        "Priority: steve, bo, annlee.",
        "bo sets price 4.",
        "steve takes Improvement (Price Up + Logistics) (Delayed Improvement).",
        "Game over. annlee wins.",
        "annlee2 and boat stay.",  # other words are left alone
    ]
    assert with_player_names(lines, info) == [
        "Ann Lee sells 2 Goods in China.",
        "Priority: Steve, bo, Ann Lee.",  # a 1-2 letter id only at a line's start
        "Bo sets price 4.",
        "Steve takes Improvement (Price Up + Logistics) (Delayed Improvement).",
        "Game over. Ann Lee wins.",
        "annlee2 and boat stay.",
    ]


async def test_a_round_the_game_does_not_have_is_refused_by_its_number(fake: FakeDiscord, tmp_path: Any) -> None:
    """Issue 34 §4: "Which round" accepts what the game has (5 rounds here), and a
    round past its last is told as such, not as "not played yet"."""
    from tests.test_discord_e2e import new_game, public_with

    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "rounds.db"), renderer=SpyRenderer()):
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Plans sealed 0/2", FIRST_POST)
        for command in ("game history", "game log"):
            for n in (6, 50):
                ix = await fake.slash(bob, command, {"round": n})
                (msg,) = private(ix, bob)
                assert msg["content"] == "This game has 5 rounds: choose a round from 1 to 5.", (command, n)
            ix = await fake.slash(bob, command, {"round": 5})  # its last round: accepted, to come
            assert "Round 5 has not been played yet." in private(ix, bob)[0]["content"]
        help_of = {  # the option's description no longer promises a range it does not keep
            sub["name"]: opt.get("description", "")
            for c in fake.commands if c["name"] == "game"
            for sub in c.get("options", []) for opt in sub.get("options", []) if opt["name"] == "round"
        }
        assert set(help_of) == {"history", "log"} and all("1-5" not in d for d in help_of.values()), help_of
