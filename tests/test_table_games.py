"""The live table in a real browser for the other two games, through the fake Discord at
400 px wide: a Mobile Markets product built by dragging a Feature card into a slot
(the engine's net profit per sale shown before building), and an Age of Automaton turn
taken by tapping an automaton and then an action space. The moves before the decision
are played as from Discord (``App.act``); the decision itself from the table."""

from __future__ import annotations

from typing import Any

from engine import ai
from tests.discord_support import running
from tests.fake_discord import FakeDiscord
from tests.table_support import Page, browser, needs_chromium
from tests.test_discord_e2e import fake
from tests.test_table_browser import table_config

__all__ = ["fake"]

pytestmark = needs_chromium


async def play_until(bot: Any, gid: int, user: dict[str, Any], seat: str, kind: str) -> dict[str, Any]:
    """Play ``seat``'s decisions with the rule bot (as clicks in Discord would) until its
    prompt is a ``kind``; the AI seats answer by themselves."""
    for _ in range(200):
        prompt = await bot.app.prompt(gid, seat)
        if prompt is not None and prompt.get("type") == kind:
            return prompt
        if prompt is None:
            raise AssertionError(f"{seat} has nothing to decide before a {kind}")
        state = await bot.app.state(gid)
        action = ai.choose((await bot.app.info(gid)).game, state, seat, "greedy")
        out = await bot.app.act(gid, int(user["id"]), seat, action, int(state["version"]))
        assert out.status == "applied", out
    raise AssertionError(f"no {kind} decision came")


async def started(fake: FakeDiscord, bot: Any, game: str, ann: dict[str, Any], ai_kind: str) -> int:
    ix = await fake.slash(ann, "game new", {"game": game})
    lobby = ix.original
    info = await bot.app.game_in_channel(int(fake.channel_id))
    await bot.app.add_ai(info.id, int(ann["id"]), ai_kind)
    await fake.click(ann, lobby, "Start")
    return int(info.id)


@needs_chromium
async def test_a_mobile_markets_product_is_built_by_dragging_a_feature_card(fake: FakeDiscord, tmp_path: Any) -> None:
    ann = fake.add_member("ann")
    async with running(fake, str(tmp_path / "mm.db"), renderer=None, table=table_config(fake)) as bot:
        gid = await started(fake, bot, "mobile-markets", ann, "steve")
        prompt = await play_until(bot, gid, ann, "ann", "product")
        feature = prompt["features"][0]
        port = bot.get_cog("Table").server.port
        async with browser() as b:
            p = Page(await b.new_page(viewport={"width": 400, "height": 800}))
            await p.open(f"http://127.0.0.1:{port}/#code={fake.oauth_code(ann)}&game={gid}")
            page = p.page
            await page.wait_for_selector("#slots")
            version = await p.version()
            card = page.locator(f'#hand [data-feature="{feature}"]')
            slot = page.locator('[data-slot="3"]')
            await card.wait_for(state="visible")  # drawn once the page has the seat's view
            await slot.wait_for(state="visible")
            # (the board comes first on a phone: the product's slots and hand are scrolled to)
            await page.locator("#slots").evaluate("e => e.scrollIntoView({block: 'start'})")
            cb, sb = await card.bounding_box(), await slot.bounding_box()
            assert cb is not None and sb is not None
            await page.mouse.move(cb["x"] + 20, cb["y"] + 15)
            await page.mouse.down()
            await page.mouse.move(sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2, steps=6)
            await page.mouse.up()
            await page.wait_for_selector(f'[data-slot="3"] [data-feature="{feature}"]')
            # the engine's own numbers for this product, shown live before building
            view = await bot.app.view(gid, "ann")
            from engine.mobile_markets.preview import preview_from_view

            expected = preview_from_view(view, {"type": "product", "slots": {"3": feature}})
            await page.wait_for_function(
                f"() => document.querySelector('#preview').textContent.includes('Net profit per sale {expected['net']} (manufacturing cost {expected['cost']})')"
            )
            assert await page.evaluate("document.documentElement.scrollWidth") <= 400
            await p.assert_plain_words()
            await page.click("#build")
            await page.click("#confirm")
            await p.wait_version_past(version)
            assert not p.errors, p.errors
        async with bot.storage.read() as q:
            rows = await q.actions(gid, after=version, upto=version + 1)
        assert rows[0].seat == "ann" and rows[0].action == {"type": "product", "slots": {"3": feature}}


@needs_chromium
async def test_an_age_of_automaton_turn_is_taken_by_tapping_an_automaton_then_a_space(fake: FakeDiscord, tmp_path: Any) -> None:
    ann = fake.add_member("ann")
    async with running(fake, str(tmp_path / "aoa.db"), renderer=None, table=table_config(fake)) as bot:
        gid = await started(fake, bot, "age-of-automaton", ann, "bot")
        await play_until(bot, gid, ann, "ann", "turn")
        legal = await bot.app.legal_actions(gid, "ann")
        mains = [a for a in legal if a.get("type") == "main" and "worker" in a]
        assert mains
        port = bot.get_cog("Table").server.port
        async with browser() as b:
            p = Page(await b.new_page(viewport={"width": 400, "height": 800}))
            await p.open(f"http://127.0.0.1:{port}/#code={fake.oauth_code(ann)}&game={gid}")
            page = p.page
            await page.wait_for_selector("#workers")
            version = await p.version()
            worker = mains[-1]["worker"]
            await page.click(f'#workers [data-worker="{worker}"]')
            target = next(i for i, a in enumerate(legal) if a == next(m for m in mains if m["worker"] == worker))
            button = page.locator(f'[data-space] [data-n="{target + 1}"]')
            label = await button.inner_text()
            await button.click()
            assert label in await page.inner_text(".confirm")
            await p.assert_plain_words()
            await page.click("#confirm")
            await p.wait_version_past(version)
            assert not p.errors, p.errors
        async with bot.storage.read() as q:
            rows = await q.actions(gid, after=version, upto=version + 1)
        assert rows[0].seat == "ann" and rows[0].action == legal[target]
