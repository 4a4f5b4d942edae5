"""The live table in a real browser for the other two games, through the fake Discord at
400 px wide: a Mobile Markets product built by dragging a Feature card into a slot of the
seat's own area (the engine's net profit per sale shown before building), and an Age of
Automaton turn taken by tapping an automaton in one's own area and then its place on the
board (tests/test_table_decide.py plays whole rounds so). The moves before the decision
are played as from Discord (``App.act``); the decision itself from the table."""

from __future__ import annotations

from typing import Any

from engine.mobile_markets.preview import preview_from_view
from tests.board_driver import drag_place, ready, tap_place
from tests.fake_discord import FakeDiscord
from tests.table_seat import seated
from tests.table_support import needs_chromium
from tests.test_discord_e2e import fake

__all__ = ["fake"]

pytestmark = needs_chromium


@needs_chromium
async def test_a_mobile_markets_product_is_built_by_dragging_a_feature_card(fake: FakeDiscord, tmp_path: Any) -> None:
    async with seated(fake, tmp_path, "mm.db", "mobile-markets", "steve", "product") as seat:
        bot, gid, p = seat.bot, seat.gid, seat.p
        feature = seat.prompt["features"][0]
        page = p.page
        t = await ready(p)
        version = t["version"]
        # the Feature card dragged from the hand into slot 3, both in the seat's own area
        await drag_place(p, feature, "slot:3")
        await p.settled()
        # the engine's own numbers for this product, shown live before building
        view = await bot.app.view(gid, "ann")
        expected = preview_from_view(view, {"type": "product", "slots": {"3": feature}})
        await page.wait_for_function(
            f"() => document.querySelector('#preview') && document.querySelector('#preview').textContent.includes('Net profit per sale {expected['net']} (manufacturing cost {expected['cost']})')"
        )
        assert await page.evaluate("document.documentElement.scrollWidth") <= 400
        await p.assert_plain_words()
        await page.click("#choices button")
        await p.wait_version_past(version)
        assert not p.errors, p.errors
        async with bot.storage.read() as q:
            rows = await q.actions(gid, after=version, upto=version + 1)
        assert rows[0].seat == "ann" and rows[0].action == {"type": "product", "slots": {"3": feature}}


@needs_chromium
async def test_an_age_of_automaton_turn_is_taken_by_tapping_an_automaton_then_a_space(fake: FakeDiscord, tmp_path: Any) -> None:
    async with seated(fake, tmp_path, "aoa.db", "age-of-automaton", "bot", "turn") as seat:
        bot, gid, p = seat.bot, seat.gid, seat.p
        legal = await bot.app.legal_actions(gid, "ann")
        mains = [a for a in legal if a.get("type") == "main" and "worker" in a]
        assert mains
        page = p.page
        t = await ready(p)
        version = t["version"]
        chosen = mains[-1]
        place = chosen.get("track") or chosen["card"]
        await tap_place(p, f"worker-{chosen['worker']}")  # an automaton in her own area
        await p.settled()
        await tap_place(p, place)  # then its place on the board
        await p.settled()
        target = legal.index(chosen)
        label = next(a["label"] for a in t["actions"] if a["n"] == target + 1)
        button = page.locator(f'#choices [data-n="{target + 1}"]')
        assert label in await button.inner_text()  # what it costs and gives, before it is sent
        await p.assert_plain_words()
        await button.click()
        await p.wait_version_past(version)
        assert not p.errors, p.errors
        async with bot.storage.read() as q:
            rows = await q.actions(gid, after=version, upto=version + 1)
        assert rows[0].seat == "ann" and rows[0].action == legal[target]
