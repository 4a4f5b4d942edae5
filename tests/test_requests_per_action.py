"""Discord requests that count against the bot's global limit (issue 37 "Figures": 50 a
second per bot, interaction answers excepted), in whole games through the fake Discord
(tests/request_tally.py; benchmarks/bench_requests.py prints the figures):

- a DM prompt the player last updated with a click is edited (its controls retired, a
  note put on it) through that click's interaction while its token lives, not through
  the DM channel;
- a DM to a player who clicked in their DM in the last 14 minutes is a follow-up of that
  click (and edited through its token later);
- a post in the game's place is a public follow-up of the newest click there while its
  token lives; the status message is not edited when a reader would see nothing new (a
  takeover time moved by a second, "revealed below" dropped);
- and still every seat has one live prompt at every step, and nothing went wrong."""

from __future__ import annotations

import re
from typing import Any

from tests.app_support import fake_fixture
from tests.fake_discord import FakeDiscord, iter_components
from tests.prompt_driver import PROMPT_IDS
from tests.request_tally import play_counted

fake = fake_fixture()


async def test_dm_prompts_are_retired_through_the_clicks_interaction(fake: FakeDiscord, tmp_path: Any) -> None:
    tally = await play_counted(fake, str(tmp_path / "g.db"), "age-of-automaton", seed=1)
    stats = tally.stats
    assert stats is not None and stats.rounds >= 5 and not stats.trouble, stats and stats.trouble[:3]
    assert stats.most_live <= 1 and stats.over_one == 0, stats.examples[:3]
    # before: 25 PATCHes of DMs through their channel in this game (each turn's "Done" DM
    # losing its Undo); now through the interaction of the click that wrote it
    dm_edits = tally.kinds["PATCH /channels/{dm}/messages/{id}"]
    assert dm_edits <= 2, tally.kinds
    webhook_edits = [r for r in tally.answers if r.method == "PATCH" and r.path.endswith("/messages/@original")
                     and r.json is not None and r.json.get("components") == []]
    assert len(webhook_edits) >= 10, len(webhook_edits)
    # what the players see: no DM of a finished game keeps a live control of a decision
    for user_id in fake.dm_channels:
        for msg in fake.dm_messages(user_id):
            live = [c for c in iter_components(msg) if str(c.get("custom_id", "")).startswith(PROMPT_IDS)
                    and not c.get("disabled")]
            assert not live, msg.get("content")


async def test_dms_to_a_player_who_just_clicked_in_their_dm_go_as_follow_ups(fake: FakeDiscord, tmp_path: Any) -> None:
    tally = await play_counted(fake, str(tmp_path / "g.db"), "mobile-markets", seed=1)
    stats = tally.stats
    assert stats is not None and stats.rounds >= 5 and not stats.trouble, stats and stats.trouble[:3]
    assert stats.most_live <= 1 and stats.over_one == 0, stats.examples[:3]
    # before: 25 DMs posted in the DM channels in this game (planners, "your move"); now
    # only the first of each player (no click of theirs yet), the others as follow-ups of
    # the player's newest click in their DM, which arrive there all the same
    assert tally.kinds["POST /channels/{dm}/messages"] <= 2, tally.kinds
    # and a DM sent so is edited (e.g. "you are the last one" put on the planner) through
    # the token of that click too (before: 10 edits through the DM channels, then 5)
    assert tally.kinds["PATCH /channels/{dm}/messages/{id}"] <= 2, tally.kinds
    assert any(r.method == "PATCH" and re.search(r"/webhooks/\d+/[^/]+/messages/\d+$", r.path) for r in tally.answers)
    dm_channels = set(fake.dm_channels.values())
    follow_ups = [r for r in tally.answers if r.method == "POST" and r.path.startswith("/webhooks/")
                  and r.status < 300 and str((r.response or {}).get("channel_id")) in dm_channels]
    assert len(follow_ups) >= 20, len(follow_ups)
    for user_id, channel in fake.dm_channels.items():  # the follow-ups are messages of the DM like the others
        mine = {str(m["id"]) for m in fake.dm_messages(user_id)}
        assert any(str(r.response["id"]) in mine for r in follow_ups if str(r.response["channel_id"]) == channel)
    # the phase posts: follow-ups of the newest click in the channel (before: 27 posts through
    # the channel in this game; now only the status message, which the game edits later)
    assert tally.kinds["POST /channels/{id}/messages"] <= 1, tally.kinds
    posts = [r for r in tally.answers if r.method == "POST" and r.path.startswith("/webhooks/") and r.status < 300
             and str(r.response.get("channel_id")) == str(fake.channel_id) and not int(r.json.get("flags") or 0) & 64]
    assert sum(str(r.json.get("content", "")).startswith("**Round") for r in posts) >= 20
    public = {str(m["id"]) for m in fake.public_messages()}
    assert all(str(r.response["id"]) in public for r in posts)  # public, as a post
    # no edit of the status message a reader would not see (before: 2 moving a takeover time
    # by a second, 2 only dropping "revealed below" in this game)
    status = next(r for r in tally.counted if r.method == "POST" and "Plans sealed" in str(r.json.get("content")))
    shown = status.json["content"]
    edits = [r.json["content"] for r in tally.counted
             if r.method == "PATCH" and r.path.endswith(f"/messages/{status.response['id']}")]
    assert len(edits) >= 30
    for content in edits:
        assert not same_to_a_reader(shown, content), (shown, content)
        shown = content


def same_to_a_reader(old: str, new: str) -> bool:
    """Whether status ``new`` reads as ``old``: the same lines but "revealed below" dropped,
    and each relative time within a minute."""
    kept = [line for line in old.split("\n") if not (line.startswith("🔓") and line not in new.split("\n"))]
    old = "\n".join(kept)
    blank = re.compile(r"<t:\d+:R>")
    times = [(int(a), int(b)) for a, b in zip(re.findall(r"<t:(\d+):R>", old), re.findall(r"<t:(\d+):R>", new), strict=False)]
    return blank.sub("<t>", old) == blank.sub("<t>", new) and all(abs(a - b) <= 60 for a, b in times)
