"""The live table in a real browser (headless Chromium, Playwright), through the fake
Discord: two players open the table (one signed in by the SDK's mock with a code the
fake's OAuth issued, one through the fake's launch flow: "Open the table" answered
with LAUNCH_ACTIVITY), both plan a Smartphone Inc. round by dragging their Pads and
Improvements, one at 400 × 800 and one at 1280 × 800, and seal; round 2 the other way
round. The reveal shows on
both tables and in the Discord thread, and no answer the table gave one player held
the other's plan before the reveal."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.table.config import TableConfig
from engine import ai
from tests.board_driver import Count, decide
from tests.discord_support import running
from tests.fake_discord import HANG, FakeDiscord, iter_components, message_text
from tests.table_support import Page, browser, needs_chromium, table_answers
from tests.test_discord_e2e import fake, public_with

__all__ = ["fake"]

pytestmark = needs_chromium


def table_config(fake: FakeDiscord) -> TableConfig:
    return TableConfig(port=0, client_id=fake.application_id, client_secret=fake.client_secret)


def with_table_button(fake: FakeDiscord) -> dict[str, Any] | None:
    for channel in list(fake.messages):
        for m in reversed(fake.channel_messages(channel)):
            if any(c.get("label") == "Open the table" for c in iter_components(m)):
                return m
    return None


def everything_posted(fake: FakeDiscord) -> str:
    """The text of every public message, in every channel and thread."""
    return "\n".join(message_text(m) for ch in list(fake.messages) for m in fake.channel_messages(ch))


async def plan_by_hand(p: Page) -> dict[str, Any]:
    """Lay the top Pad over the bottom one's right half and the starting Improvement on
    top of the bottom Pad's first row, by dragging; seal with one confirmation. Returns
    the plan the page sent."""
    page = p.page
    await p.laying()
    await p.drag_to_cell((await p.tray())[0], 1, 1)
    await page.wait_for_function("() => document.querySelector('#preview') && /Price|cover/.test(document.querySelector('#preview').textContent)")
    await p.drag_to_cell((await p.tray())[0], 0, 0)
    await page.wait_for_function("() => /Price \\d/.test(document.querySelector('#preview').textContent)")
    await p.assert_plain_words()
    await page.click("#seal")
    sent: dict[str, Any] = {}

    def on_request(req: Any) -> None:
        if req.url.endswith("/api/act"):
            sent.update(json.loads(req.post_data))

    page.on("request", on_request)
    await page.click("#confirm")
    await page.wait_for_function(
        "() => document.querySelector('#unseal') || !document.querySelector('#stage').innerText.includes('Planning')",
        timeout=5_000,
    )
    return sent


@needs_chromium
async def test_two_players_plan_a_round_by_dragging_and_the_reveal_reaches_both_tables_and_the_thread(
    fake: FakeDiscord, tmp_path: Any
) -> None:
    ann, bob = fake.add_member("ann"), fake.add_member("bob")
    async with running(fake, str(tmp_path / "table.db"), renderer=None, table=table_config(fake)) as bot:
        port = bot.get_cog("Table").server.port
        ix = await fake.slash(ann, "game new", {"game": "smartphone-inc"})
        lobby = ix.original
        await fake.click(bob, lobby, "Join")
        await fake.click(ann, lobby, "Start")
        await public_with(fake, "Plans sealed 0/2")
        status = await fake.wait_for(lambda: with_table_button(fake), what="the status message's Open the table")
        # bob: through the launch flow (the button answers LAUNCH_ACTIVITY; the client authorizes)
        launched = await fake.click(bob, status, "Open the table")
        assert launched.callback_type == 12
        launch = fake.launches[-1]
        assert launch["user_id"] == bob["id"]
        # ann: the SDK's mock, with a code the fake's OAuth gave her
        ann_code = fake.oauth_code(ann)
        base = f"http://127.0.0.1:{port}/"
        async with browser() as b:
            pa = Page(await b.new_page(viewport={"width": 400, "height": 800}))
            pb = Page(await b.new_page(viewport={"width": 1280, "height": 800}))
            await pa.open(f"{base}#code={ann_code}&channel={status['channel_id']}")
            await pb.open(f"{base}#code={launch['code']}&channel={launch['channel_id']}")
            assert await pa.page.inner_text("#stage") == "Round 1/5 · Planning · You: Ann"
            assert "You: Bob" in await pb.page.inner_text("#stage")
            # the page is no wider than the phone: nothing to scroll sideways
            assert await pa.page.evaluate("document.documentElement.scrollWidth") <= 400

            ann_plan = await plan_by_hand(pa)
            assert ann_plan["action"]["type"] == "plan"
            seat_a = next(s.seat for s in (await bot.app.info(1)).seats if s.user_id == int(ann["id"]))
            seat_b = next(s.seat for s in (await bot.app.info(1)).seats if s.user_id == int(bob["id"]))
            # bob's table shows ann sealed at once (a second, with slack for a loaded machine), without her plan
            await pb.page.wait_for_function("() => document.body.innerText.includes('Ann 🔒')", timeout=3_000)
            before_reveal = table_answers(pb)
            assert before_reveal
            for t in before_reveal:
                theirs = t["view"]["players"][seat_a]
                assert theirs["plan"] is None and theirs.get("outcome") is None, theirs
            # nor anywhere else in what bob's tab got (his own options list every plan, so
            # they are left out; the rest is the seat's view, the facts and the answers)
            plan_text = json.dumps(ann_plan["action"]["plan"]["top"])
            for _url, answer in pb.answers:
                rest = {k: v for k, v in answer.items() if k != "actions"} if isinstance(answer, dict) else answer
                if isinstance(rest, dict) and isinstance(rest.get("table"), dict):
                    rest = {**rest, "table": {k: v for k, v in rest["table"].items() if k != "actions"}}
                assert plan_text not in json.dumps(rest)

            bob_plan = await plan_by_hand(pb)
            # the reveal: both tables move on, each shows the other's plan now
            try:
                await fake.wait_for(lambda: "revealed below" in everything_posted(fake), HANG, what="the reveal in the thread")
            except AssertionError:
                print(everything_posted(fake)[-3000:])
                print(await bot.app.view(1, None))
                raise
            for p, other in ((pa, seat_b), (pb, seat_a)):
                await p.page.wait_for_function("() => !document.querySelector('#stage').innerText.includes('Planning')", timeout=3_000)
                # the page may draw an answer before this side has read it (Playwright's
                # response handler reads the body on its own time): wait a little for it
                for _ in range(100):
                    if any(t["view"]["players"][other]["plan"] is not None for t in table_answers(p)):
                        break
                    await asyncio.sleep(0.05)
                assert table_answers(p)[-1]["view"]["players"][other]["plan"] is not None
            assert (await bot.app.view(1, None))["players"][seat_a]["plan"]["top"] == ann_plan["action"]["plan"]["top"]
            assert (await bot.app.view(1, None))["players"][seat_b]["plan"]["top"] == bob_plan["action"]["plan"]["top"]
            # the game goes on at the table: ann takes an Improvement (Phase 4), then Undo
            # takes it back as in Discord (nothing hidden was revealed, no chance used)
            assert (await bot.app.view(1, None))["pending"] == [seat_a]  # seed 7: ann picks first
            before = await bot.app.view(1, seat_a)
            v0 = await pa.version()
            pick = (await bot.app.legal_actions(1, seat_a))[0]
            assert await decide(pa, pick, Count()) == "board"  # a tap on the Improvement on the board, ✓
            await pa.wait_version_past(v0)
            assert (await bot.app.view(1, seat_a))["players"][seat_a]["improvements"] != before["players"][seat_a]["improvements"]
            await pa.page.click("#undo")
            await pa.wait_version_past(v0 + 1)
            after = await bot.app.view(1, seat_a)
            assert after["players"][seat_a]["improvements"] == before["players"][seat_a]["improvements"]
            assert after["pending"] == [seat_a]
            # tapping a thing shows its details: a Technology's both sides
            await pa.page.click("#board .chip >> text=GPS")
            detail = await pa.page.inner_text("#detail-text")
            assert "Face up: Phase 3" in detail and "Face down: Produce 5 Goods" in detail, detail
            await pa.page.click("#detail-close")
            # the replay: the public board one step back, from the slider's buttons
            # (bob's tab first has the undo: his replay counts the moves up to it)
            await pb.wait_version_past(v0 + 1)
            last = await pb.version()
            await pb.page.click("#replay-open")
            await pb.page.wait_for_selector("#replay-step")
            await pb.page.click("#replay-back")
            await pb.page.wait_for_function(f"() => document.querySelector('#replay h2').textContent.includes('move {last - 1} of {last}')")
            # round 2: the rest of round 1 is played as from Discord, then each plans again
            # by dragging at the other width (ann at 1280, bob at 400)
            for _ in range(300):
                pending = (await bot.app.view(1, None))["pending"]
                if sorted(pending) == sorted([seat_a, seat_b]) and (await bot.app.view(1, None))["round"] == 2:
                    break
                seat = pending[0]
                user = ann if seat == seat_a else bob
                state = await bot.app.state(1)
                await bot.app.act(1, int(user["id"]), seat, ai.choose("smartphone-inc", state, seat, "greedy"), int(state["version"]))
            await pa.page.set_viewport_size({"width": 1280, "height": 800})
            await pb.page.set_viewport_size({"width": 400, "height": 800})
            await pb.page.click("#replay-close")
            for p in (pa, pb):
                await p.page.wait_for_function("() => document.querySelector('#stage').innerText.startsWith('Round 2/5 · Planning')", timeout=5_000)
            await plan_by_hand(pa)
            await plan_by_hand(pb)
            for p in (pa, pb):
                await p.page.wait_for_function("() => !document.querySelector('#stage').innerText.includes('Planning')", timeout=5_000)
            # the thread's post follows the tables: it waits for its picture and the pacing
            await fake.wait_for(lambda: "All 2 plans sealed" in everything_posted(fake), HANG, what="the round-2 reveal")
            await pa.assert_plain_words()
            await pb.assert_plain_words()
            assert not pa.errors and not pb.errors, (pa.errors, pb.errors)
        assert "All 2 plans sealed" in everything_posted(fake)
        # the planner's DM had the button too while it was live (a prompt), beside the status
        # message's; a decision that is over keeps no controls (issue 21: one live prompt)
        dm = f"/channels/{fake.dm_channels[ann['id']]}/messages"
        planner = [r for r in fake.requests if r.path.startswith(dm) and r.method in ("POST", "PATCH")
                   and any(c.get("label") == "Open the table" for c in iter_components(r.json or {}))]
        assert planner


async def test_the_activitys_entry_point_command_survives_the_bots_command_sync(fake: FakeDiscord, tmp_path: Any) -> None:
    """Enabling Activities gives the app a "Launch" Entry Point command (type 4); Discord
    refuses a bulk overwrite that leaves it out, so the bot's sync keeps it."""
    fake.commands = [{"id": fake.new_id(), "type": 4, "name": "launch", "description": "", "handler": 2,
                      "integration_types": [0, 1], "contexts": [0, 1, 2], "application_id": fake.application_id}]
    async with running(fake, str(tmp_path / "entry.db"), renderer=None, table=table_config(fake)):
        synced = [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
        assert synced and synced[-1].status == 200, synced
        assert any(c.get("type") == 4 and c["name"] == "launch" and c["handler"] == 2 for c in fake.commands)
        assert any(c["name"] == "table" for c in fake.commands)  # /table launches it too
