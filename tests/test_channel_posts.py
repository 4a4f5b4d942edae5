"""Channel posts, writes and mentions per phase in a whole game through the fake Discord
(issue 7 "The channel", issue 8 §1 pacing). Targets: at most one post per phase plus the
round results, each player mentioned at most once per phase, never more than 5 writes
per 5 s in the game's channel."""

from __future__ import annotations

import asyncio
import json
import re
from collections import defaultdict
from typing import Any

from bot.app.core import STATUS_SETTLE
from tests.discord_support import PACED, running
from tests.fake_discord import FakeDiscord
from tests.test_discord_e2e import build_plan, fake, new_game, play_turns, public_with, seal

__all__ = ["fake"]  # the fixture

HEADER = re.compile(r"\*\*Round (\d+) · ([^*]+)\*\*|\*\*Game over\*\*|\*\*Round (\d+) results\*\*")


def channel_tally(fake: FakeDiscord, channel: str) -> dict[str, dict[str, Any]]:
    """Per phase (named by the header of the post that opened it): the successful writes
    to ``channel`` (posts and edits; a post as a public follow-up of a click there too, issue
    37), the posts, and the mentions per user in posts (an edit does not notify). A write
    belongs to the phase of the newest header before it."""
    out: dict[str, dict[str, Any]] = {}
    phase = "lobby"
    for r in fake.requests:
        if not (r.method in ("POST", "PATCH") and 200 <= r.status < 300):
            continue
        if not fake.posted_in(r, channel) and not re.fullmatch(rf"/channels/{channel}/messages(/\d+)?", r.path):
            continue
        content = (r.json or {}).get("content") or ""
        if r.method == "POST":
            m = HEADER.search(content)
            if m:
                phase = m.group(0).strip("*")
        t = out.setdefault(phase, {"writes": 0, "posts": 0, "mentions": defaultdict(int)})
        t["writes"] += 1
        if r.method == "POST":
            t["posts"] += 1
            for uid in set(re.findall(r"<@(\d+)>", content)):
                t["mentions"][uid] += len(re.findall(rf"<@{uid}>", content))
    return out


# The bot's pace and status settle, both five times quicker: the same writes in a fifth of
# the time (the bot: 5 writes per 5 s, status edits 30 s apart; issue 38).
SCALE = 5.0


async def test_posts_and_mentions_per_phase_in_a_whole_game(fake: FakeDiscord, tmp_path: Any, capsys: Any) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    pace = {"status_settle": STATUS_SETTLE / SCALE, "per": PACED["per"] / SCALE}
    async with running(fake, str(tmp_path / "tally.db"), renderer=None, delivery=pace) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")

        def planner_for(u: dict, rnd: int) -> dict[str, Any] | None:
            from tests.fake_discord import message_text

            return next((m for m in reversed(fake.dm_messages(u)) if f"round {rnd} (game" in message_text(m)), None)

        for rnd in range(1, 6):
            since = len(fake.public_messages())
            for u in (ann, bob):
                msg = await fake.wait_for(lambda u=u, rnd=rnd: planner_for(u, rnd), what=f"a round {rnd} planner")
                msg = await build_plan(fake, u, msg)
                await seal(fake, u, msg)  # Seal, then the one confirmation
            until = f"Round {rnd + 1} · Planning" if rnd < 5 else "Game over"
            await play_turns(fake, [ann, bob], until=until, since=since)
        await public_with(fake, "Game over")
        await fake.idle()
        assert (await bot.app.info(1)).status == "finished"
    tally = channel_tally(fake, fake.channel_id)
    rows = {k: {"writes": v["writes"], "posts": v["posts"], "mentions": dict(v["mentions"])} for k, v in tally.items()}
    window = fake.writes_per_window(fake.channel_id, pace["per"])
    with capsys.disabled():
        print("\nCHANNEL TALLY " + json.dumps({"phases": rows, "window": window}))
    results = {k: v for k, v in rows.items() if k.endswith(" results")}
    rows = {k: v for k, v in rows.items() if k not in results}
    assert len(rows) == 5 * 4 + 1  # every phase of 5 rounds, and the end
    # one "Round N results" post per round (the round's own, not a phase's), nothing else in it
    assert sorted(results) == [f"Round {n} results" for n in range(1, 6)], results
    assert all(t["posts"] == 1 and t["writes"] <= 2 and not t["mentions"] for t in results.values()), results
    status_posts = sum("Plans sealed 0/2" in ((r.json or {}).get("content") or "") for r in fake.requests if r.method == "POST")
    assert status_posts == 1  # the one status message, edited in place from then on
    for phase, t in rows.items():
        assert t["posts"] <= 1 + (phase == "Round 1 · Planning"), (phase, t)  # + the status message
        # issue 9: the phase's post and one status edit (the status post at the start)
        assert t["writes"] <= 2, (phase, t)
        assert all(n <= 1 for n in t["mentions"].values()), (phase, t)
    assert window <= 5


async def test_status_edits_inside_a_phase_wait_and_merge_a_phase_change_edits_at_once(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    """Issue 9 "channel traffic": the status message's edits after a turn inside a phase
    (a seal, a first change in a planner) wait ``status_settle`` seconds, and those written
    meanwhile go out as one edit, when the first was due; a phase change edits it at once;
    a waiting edit never overwrites a newer one."""
    import time

    from tests.fake_discord import message_text

    wait = 5.0
    ann, bob, cid = fake.add_member("ann"), fake.add_member("bob"), fake.add_member("cid")
    async with running(fake, str(tmp_path / "settle.db"), renderer=None, delivery={"status_settle": wait, **PACED}):
        lobby = await new_game(fake, ann, [bob, cid])
        await fake.click(ann, lobby, "Start")
        counter = await public_with(fake, "Plans sealed 0/3")

        def patches() -> list[float]:
            path = f"/channels/{fake.channel_id}/messages/{counter['id']}"
            return [r.at for r in fake.requests if r.method == "PATCH" and r.path == path and 200 <= r.status < 300]

        def planner(u: dict) -> dict[str, Any]:
            return next(m for m in reversed(fake.dm_messages(u)) if "round 1 (game" in message_text(m))

        for u in (ann, bob, cid):
            await fake.wait_for(lambda u=u: any("round 1 (game" in message_text(m) for m in fake.dm_messages(u)), what="a planner")
        before = len(patches())
        t0 = time.monotonic()  # ann's first change: a status edit that waits
        for u in (ann, bob):
            await seal(fake, u, await build_plan(fake, u, planner(u)))
        busy = time.monotonic() - t0
        assert busy < wait, f"the machine is too slow for this test ({busy:.1f} s of clicks)"
        assert "Plans sealed 0/3" in message_text(counter)  # nothing sent yet
        await fake.wait_for(lambda: "Plans sealed 2/3" in message_text(counter), timeout=2 * wait, what="2/3")
        sent = patches()[before:]
        assert len(sent) == 1, sent  # four changes (2 first changes, 2 seals), one edit
        assert sent[0] - t0 >= wait * 0.95  # when the first change's edit was due
        await asyncio.sleep(wait * 0.5)
        assert "Plans sealed 2/3" in message_text(counter) and len(patches()) == before + 1  # nothing stale
        t1 = time.monotonic()
        await seal(fake, cid, await build_plan(fake, cid, planner(cid)))
        await public_with(fake, "reveals:")
        await fake.wait_for(lambda: "Plans sealed" not in message_text(counter), timeout=wait, what="the phase's status")
        assert patches()[-1] - t1 < wait  # a phase change: at once


async def test_a_started_game_runs_in_its_own_thread_when_the_bot_may_create_one(fake: FakeDiscord, tmp_path: Any) -> None:
    """Issue 7 "The channel": with Create Public Threads the game moves into a thread
    started from its lobby card; its posts, status message and commands live there."""
    from tests.fake_discord import message_text

    fake.allow_threads()
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "thread.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [bob])
        await fake.click(ann, lobby, "Start")
        await fake.wait_for(lambda: fake.threads, what="the game's thread")
        thread = fake.threads[0]
        assert thread["id"] == lobby["id"] and thread["parent_id"] == fake.channel_id
        assert "game #1" in thread["name"]

        def in_thread(needle: str) -> Any:
            return next((m for m in fake.public_messages(thread["id"]) if needle in message_text(m)), None)

        start = await fake.wait_for(lambda: in_thread("Round 1 · Planning"), what="the first post in the thread")
        assert f"<@{ann['id']}>" in start["content"] and f"<@{bob['id']}>" in start["content"]
        await fake.wait_for(lambda: in_thread("Plans sealed 0/2"), what="the status message in the thread")
        assert [m["id"] for m in fake.public_messages()] == [lobby["id"]]  # the channel keeps only the card
        assert (await bot.app.info(1)).place_id == int(thread["id"])
        ix = await fake.slash(bob, "game status", channel_id=thread["id"])
        assert "Round **1**" in ix.all_text()
        for u in (ann, bob):
            msg = await fake.wait_for(lambda u=u: fake.dm_messages(u), what="a planner DM")
            msg = await build_plan(fake, u, msg[-1])
            await seal(fake, u, msg)
        await fake.wait_for(lambda: in_thread("reveals:"), what="the reveal in the thread")


async def test_without_thread_permission_the_game_stays_in_the_channel(fake: FakeDiscord, tmp_path: Any) -> None:
    from tests.fake_discord import MISSING_PERMISSIONS

    fake.allow_threads()
    rule = fake.fail("POST", "/channels/{c}/messages/{m}/threads", MISSING_PERMISSIONS)
    ann = fake.add_member("ann")
    async with running(fake, str(tmp_path / "nothread.db"), renderer=None) as bot:
        lobby = await new_game(fake, ann, [])
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Round 1 · Planning")
        assert rule.hits and not fake.threads
        assert (await bot.app.info(1)).place_id == int(fake.channel_id)
