"""The browser tests' one Chromium per test process (:func:`tests.table_support.browser`):
launched once and shared, each test in browser contexts of its own (closed at the end of
its block), and launched again after it crashed, so that one test's lost browser is not
every later test's failure."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from tests.table_support import NO_OMNIBOX_POPUPS, Browser, _Chromium, browser, needs_chromium

pytestmark = needs_chromium

SITE = "http://127.0.0.1:9/"


async def _browser_pid(b: Browser) -> int:
    session = await b.new_browser_cdp_session()
    info = await session.send("SystemInfo.getProcessInfo")
    await session.detach()
    return int(next(p["id"] for p in info["processInfo"] if p["type"] == "browser"))


async def test_one_chromium_each_block_in_contexts_of_its_own_and_a_crashed_one_is_launched_again() -> None:
    # (a Chromium of this test's own: a killed one takes the CPU its processes used out of
    # any measure of the test process's tree; this one used it in this test only)
    own = _Chromium()
    try:
        async with browser(own) as b:
            ctx = await b.new_context(viewport={"width": 400, "height": 800})
            await ctx.add_cookies([{"name": "seat", "value": "ann", "url": SITE}])
            assert [c["value"] for c in await ctx.cookies(SITE)] == ["ann"]
            pid = await _browser_pid(b)
        async with browser(own) as b:
            assert own.launches == 1 and await _browser_pid(b) == pid  # the same Chromium
            assert b.contexts == []  # the last block's context closed
            ctx = await b.new_context()
            assert await ctx.cookies(SITE) == []  # nothing of it in a new one
            os.kill(pid, signal.SIGKILL)  # a crash
        async with browser(own) as b:  # launched again, and working
            assert own.launches == 2 and await _browser_pid(b) != pid
            page = await b.new_page()
            assert await page.evaluate("1 + 1") == 2
    finally:
        own.close()


async def test_chromium_runs_with_playwrights_disabled_features_and_no_omnibox_popups() -> None:
    """The launch's own ``--disable-features`` (the one Chromium reads: the last) holds
    every feature Playwright's switches disable, and the address bar's popups; a window
    then has no page of the browser's own beside the test's."""
    async with browser() as b:
        argv = Path(f"/proc/{await _browser_pid(b)}/cmdline").read_bytes().decode().split("\0")
        lists = [set(a.split("=", 1)[1].split(",")) for a in argv if a.startswith("--disable-features=")]
        assert len(lists) >= 2 and lists[0] <= lists[-1] and set(NO_OMNIBOX_POPUPS) <= lists[-1], lists
        page = await b.new_page()
        await page.set_content("<p>a page</p>")
        session = await b.new_browser_cdp_session()
        targets = (await session.send("Target.getTargets"))["targetInfos"]
        await session.detach()
        assert [t["type"] for t in targets] == ["page"], targets
