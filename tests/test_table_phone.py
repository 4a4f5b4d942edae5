"""The live table on a phone and through a game, in Chromium (issue 35): at 400 × 800 no
text under 12 px (the board's SVG text as drawn, at the scale it opens with), every
control at least 40 px high, the page never scrolls sideways, the board's frame above
the fold; a half-built plan survives a reload and a switch to a desktop; the reveal
after the last plan; the replay's every line with names and its board at each step;
errors in words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.phone_support import local_table, measure
from tests.table_support import Page, browser, needs_chromium

pytestmark = needs_chromium

PHONE = {"width": 400, "height": 800}
HAND = {"smartphone-inc": "plan", "mobile-markets": "product", "age-of-automaton": "turn"}


def check_phone(m: dict[str, Any], where: str) -> None:
    size, what = m["smallest"][0]
    assert size >= 12 - 0.01, f"{where}: text of {size:.1f} px: {what}"
    height, control = m["lowest"][0]
    assert height >= 40 - 0.01, f"{where}: a control {height:.0f} px high: {control}"
    assert m["sideways"] <= 0, f"{where}: the page scrolls {m['sideways']} px sideways"


@pytest.mark.parametrize("game", sorted(HAND))
async def test_on_a_phone_text_is_readable_controls_are_large_and_the_board_is_above_the_fold(game: str) -> None:
    async with local_table(game, HAND[game]) as table, browser() as b:
        p = Page(await b.new_page(viewport=PHONE))
        await p.open(table.link())
        await p.page.wait_for_selector("body[data-board]")
        m = await measure(p.page)
        check_phone(m, f"{game}, its decision")
        assert m["svgTexts"] > 20  # the board's own text was measured
        assert m["frameTop"] is not None and m["frameTop"] + 200 <= PHONE["height"], m["frameTop"]
        # the board zooms inside its frame; the page still does not scroll sideways
        before = float(await p.page.get_attribute(".board-box", "data-scale") or 0)
        await p.page.click("#board-zoom-in")
        assert float(await p.page.get_attribute(".board-box", "data-scale") or 0) > before
        assert (await measure(p.page))["sideways"] <= 0
        await p.page.click("#board-readable")
        # the replay at a phone's width too
        await p.page.click("#replay-open")
        await p.page.wait_for_selector("#replay-board svg")
        check_phone(await measure(p.page), f"{game}, the replay")
        await p.assert_plain_words()
        said = await p.page.inner_text("body")
        assert not re.search(r"\byou \(you\)", said, re.I), "a seat called you (you)"
        chips = await p.page.locator(".chip").all_inner_texts()
        assert chips and not [c for c in chips if c.strip().lower() in ("card", "")], chips  # each chip names its thing
        assert not p.errors, p.errors


async def _laid(p: Page) -> str:
    """Lay the top Pad on the bottom one by hand; the preview's text once it is in."""
    await p.laying()
    await p.drag_to_cell((await p.tray())[0], 1, 0)
    await p.page.wait_for_function("() => /Price \\d/.test(document.querySelector('#preview').textContent)")
    return await p.page.inner_text("#preview")


async def test_a_half_built_plan_survives_a_reload_and_a_switch_to_a_desktop() -> None:
    async with local_table("smartphone-inc", "plan") as table, browser() as b:
        phone = await b.new_context(viewport=PHONE)
        p = Page(await phone.new_page())
        await p.open(table.link())
        shown = await _laid(p)
        await p.page.click("#flip-bottom")  # a second change, kept too
        await p.page.wait_for_function("(old) => /Price \\d/.test(document.querySelector('#preview').textContent) && document.querySelector('#preview').textContent !== old", arg=shown)
        shown = await p.page.inner_text("#preview")
        # (the page saves a draft 0.3 s after the last change)
        await p.page.wait_for_function("() => !window.boardroom.draftOwed && document.body.dataset.busy === '0'")
        await p.page.reload()
        await p.page.wait_for_selector("body[data-ready]")
        await p.page.wait_for_function("() => /Price \\d/.test((document.querySelector('#preview') || {}).textContent || '')")
        assert await p.page.inner_text("#preview") == shown
        desk = await b.new_context(viewport={"width": 1280, "height": 800})
        d = Page(await desk.new_page())
        await d.open(table.link())
        await d.page.wait_for_function("() => /Price \\d/.test((document.querySelector('#preview') || {}).textContent || '')")
        assert await d.page.inner_text("#preview") == shown
        # sealed: the draft is spent; unsealed, the planner starts afresh
        v = await d.version()
        await d.page.click("#seal")
        await d.page.click("#confirm")
        await d.wait_version_past(v)
        assert (await table.app.view(table.game_id, "you"))["players"]["you"]["sealed"] or (await table.app.view(table.game_id, "you"))["phase"] != "planning"
        async with table.app.storage.read() as q:
            assert await q._all("SELECT seat FROM table_drafts") == []
        assert not p.errors and not d.errors, (p.errors, d.errors)


async def test_the_reveal_then_the_replay_with_every_line_names_and_the_board_at_each_step() -> None:
    async with local_table("smartphone-inc", "plan", players=3) as table, browser() as b:
        p = Page(await b.new_page(viewport=PHONE))
        await p.open(table.link())
        assert await p.page.inner_text("#stage") == "Round 1/5 · Planning · Your seat"
        await _laid(p)
        v = await p.version()
        await p.page.click("#seal")
        await p.page.click("#confirm")
        await p.wait_version_past(v)
        # the last plan in: every plan revealed, then the next decision
        await p.page.wait_for_selector("#reveal:not([hidden]) .reveal-lines li", timeout=10_000)
        revealed = await p.page.locator("#reveal .reveal-lines li").all_inner_texts()
        assert sum("reveals" in line for line in revealed) == 3, revealed
        assert not any(re.search(r"\b(bot\d|you)\b", line) for line in revealed), revealed  # names, not seat ids
        await p.page.click("#reveal-next")
        assert await p.page.is_hidden("#reveal")
        # the replay: the slider to the first move; the board of that step, and every line
        await p.page.click("#replay-open")
        await p.page.wait_for_selector("#replay-board svg")
        last = int(await p.page.get_attribute("#replay-step", "max") or 0)
        assert last >= 3
        await p.page.fill("#replay-step", "1")
        await p.page.wait_for_function("() => document.body.dataset.replayStep === '1'")
        await p.settled()
        status, data = await _api(table, p, f"api/replay?game={table.game_id}&step=1")
        lines = await p.page.locator("#replay-log li").all_inner_texts()
        assert status == 200 and lines == data["lines"]
        assert "move 1 of" in await p.page.inner_text("#replay-title")
        assert await p.page.locator("#replay-log li.new").count() == data["added"]
        await p.page.click("#replay-next")
        await p.page.wait_for_function("() => document.body.dataset.replayStep === '2'")
        await p.page.fill("#replay-step", str(last))
        await p.page.wait_for_function(f"() => document.body.dataset.replayStep === '{last}'")
        said = "\n".join(await p.page.locator("#replay-log li").all_inner_texts())
        assert len(said.splitlines()) > 6  # every line, not the last six
        assert not re.search(r"\b(bot\d|you)\b", said), said
        check_phone(await measure(p.page), "the replay after the reveal")
        assert not p.errors, p.errors


async def _api(table: Any, p: Page, path: str) -> tuple[int, Any]:
    out = await p.page.evaluate(
        """async (path) => {
            const r = await fetch(path, { headers: { Authorization: 'Bearer ' + window.boardroom.session } });
            return [r.status, await r.json()];
        }""",
        path,
    )
    return int(out[0]), out[1]


async def test_errors_are_told_in_words_never_a_code_or_an_empty_page() -> None:
    async with local_table("age-of-automaton", None) as table, browser() as b:
        p = Page(await b.new_page(viewport=PHONE))
        await p.page.goto(table.link().replace(f"game={table.game_id}", "game=987654"))
        await p.page.wait_for_selector("body[data-ready]")
        said = await p.page.inner_text("#note")
        assert len(said.split()) >= 4 and not re.search(r"\b[45]\d\d\b", said), said
        # a table that went away: the page says so in words
        p2 = Page(await b.new_page(viewport=PHONE))
        await p2.open(table.link())
        await table.server.stop()
        await p2.page.click("#replay-open")
        await p2.page.wait_for_function("() => document.querySelector('#note').className === 'bad'")
        said = await p2.page.inner_text("#note")
        assert "cannot be reached" in said and not re.search(r"\b[45]\d\d\b", said), said
