"""The gestures of a decision at the table, before and after the decisions went on the
board (issue 35), measured in headless Chromium at 400 px: the page's lists (``?list``
in its address: the drawing of each game's own module, as before) against the board.
Prints the figures (run with ``-s``)::

    pytest -s -p no:cacheprovider tests/test_table_gestures.py

An Age of Automaton turn (a main action on an automaton, then End the turn) and a
Mobile Markets product (its Feature card into a slot, then build); a Smartphone Inc.
plan is laid on the same planner both ways (tests/test_table_decide.py counts it)."""

from __future__ import annotations

from typing import Any

from tests.board_driver import Count, decide, ready
from tests.fake_discord import FakeDiscord
from tests.table_seat import play_until, seated
from tests.table_support import Page, needs_chromium
from tests.test_discord_e2e import fake

__all__ = ["fake"]

pytestmark = needs_chromium


async def _press_n(page: Any, n: int) -> int:
    """A numbered list's choice, then its Confirm: the list's two presses."""
    await page.click(f'#decision [data-n="{n}"]')
    await page.click("#decision #confirm")
    return 2


async def between(p: Page) -> dict[str, Any]:
    """The decisions a main action brings before the turn goes on (a column for the
    Equipment, the dice of a Prospect): the first choice each, not counted in the turn."""
    for _ in range(10):
        t = await ready(p)
        if {"type": "end"} in [a["action"] for a in t["actions"]]:
            return t
        await p.page.wait_for_function("() => window.boardroom.table.actions.length > 0")
        t = await ready(p)
        await decide(p, t["actions"][0]["action"], Count())
    raise AssertionError("the turn did not come back to its end")


@needs_chromium
async def test_an_age_of_automaton_turn_before_and_after(fake: FakeDiscord, tmp_path: Any) -> None:
    async with seated(fake, tmp_path, "aoa.db", "age-of-automaton", "bot", "turn", lists=True) as seat:
        bot, gid, p = seat.bot, seat.gid, seat.p
        page = p.page
        # before: the automaton's button, the action's button, Confirm; End the turn, Confirm
        t = await ready(p)
        main = next(a for a in t["actions"] if a["action"]["type"] == "main" and "worker" in a["action"])
        await page.click(f'#workers [data-worker="{main["action"]["worker"]}"]')
        before = 1 + await _press_n(page, main["n"])
        await p.wait_version_past(t["version"])
        t = await between(p)
        end = next(a for a in t["actions"] if a["action"] == {"type": "end"})
        before += await _press_n(page, end["n"])
        await p.wait_version_past(t["version"])
        # after: on the board, at ann's next turn
        await play_until(bot, gid, seat.ann, "ann", "turn")
        assert not p.errors, p.errors
        p = await seat.open()
        count = Count()
        t = await ready(p)
        main = next(a["action"] for a in t["actions"] if a["action"]["type"] == "main" and "worker" in a["action"])
        assert await decide(p, main, count) == "board"
        await between(p)
        await decide(p, {"type": "end"}, count)
        assert not p.errors, p.errors
    print(f"\nAge of Automaton, one turn (a main action, End the turn): before {before} gestures, after {count.total}")
    assert count.total == 4 < before == 5


async def _product(fake: FakeDiscord, tmp_path: Any, db: str, lists: bool) -> int:
    async with seated(fake, tmp_path, db, "mobile-markets", "steve", "product", lists=lists) as seat:
        bot, gid, p = seat.bot, seat.gid, seat.p
        feature = seat.prompt["features"][0]
        page = p.page
        t = await ready(p)
        if lists:  # before: the card dragged into its slot, Build product, Yes
            card, slot = page.locator(f'#hand [data-feature="{feature}"]'), page.locator('[data-slot="1"]')
            await card.scroll_into_view_if_needed()
            cb, sb = await card.bounding_box(), await slot.bounding_box()
            assert cb is not None and sb is not None
            await page.mouse.move(cb["x"] + 20, cb["y"] + 15)
            await page.mouse.down()
            await page.mouse.move(sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2, steps=6)
            await page.mouse.up()
            await page.wait_for_selector(f'[data-slot="1"] [data-feature="{feature}"]')
            await page.click("#build")
            await page.click("#confirm")
            n = 3
        else:  # after: the card dragged into its slot on the own area, ✓
            count = Count()
            await decide(p, {"type": "product", "slots": {"1": feature}}, count)
            n = count.total
        await p.wait_version_past(t["version"])
        assert not p.errors, p.errors
        async with bot.storage.read() as q:
            rows = await q.actions(gid, after=t["version"], upto=t["version"] + 1)
        assert rows[0].action == {"type": "product", "slots": {"1": feature}}
    return n


@needs_chromium
async def test_a_mobile_markets_product_before_and_after(fake: FakeDiscord, tmp_path: Any) -> None:
    before = await _product(fake, tmp_path, "before.db", True)
    after = await _product(fake, tmp_path, "after.db", False)
    print(f"\nMobile Markets, a product of 1 Feature card: before {before} gestures, after {after} "
          "(each further card: one drag more either way)")
    assert after == 2 < before == 3
