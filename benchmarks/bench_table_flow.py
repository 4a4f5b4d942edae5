"""The live table's board in a real browser (issue 35): its first paint, and an action's
round trip from the tap to the board redrawn.

Run: ``.venv/bin/python benchmarks/bench_table_flow.py [--runs N] [--quick]`` (needs
Debian's ``chromium``; Playwright for Python drives it; ``--quick``: 3 first paints per
game and 10 round trips, what ``make bench`` runs).

Seeded local games on the table's own server (:class:`bot.table.server.TableServer` and
:class:`bot.app.App`, as ``boardroom table``; a database in a temporary folder), a phone's
window (400 × 800). The page is timed by itself: a script run before the page's own
notes when a new whole board (``#whole-board``, the SVG of ``/api/board.svg``) is in the
page, at the next animation frame (its paint). Printed (the last line, one JSON object):

- ``<game>_board_first_paint_ms``: from the navigation's start to the board painted, the
  slowest of ``--runs`` fresh tabs (sign-in, ``/api/table``, ``/api/board.svg`` and the
  drawing), for each game (``si``, ``mm``, ``aoa``); goal ≤ 1 s;
- ``si_board_round_trip_p95_ms``: from the confirmation's click (in the page) to the
  board of the new version painted, the 95th percentile of ``2 × --runs`` seals and
  unseals of a Smartphone Inc. plan by a player of a two-player game (the move through
  ``App.act``, the seat's table and the new public board fetched and drawn); goal ≤ 150 ms;
  ``si_board_round_trip_median_ms`` beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.app import App  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.table.config import TableConfig  # noqa: E402
from bot.table.server import TableServer  # noqa: E402
from tests.phone_support import local_table  # noqa: E402
from tests.table_support import Page, browser, chromium_path  # noqa: E402

PHONE = {"width": 400, "height": 800}
SHORT = {"smartphone-inc": "si", "mobile-markets": "mm", "age-of-automaton": "aoa"}

# run before the page's own script: the time each new whole board is painted
WATCH = """
window.__boards = [];
new MutationObserver(() => {
  const b = document.getElementById('whole-board');
  if (b && b !== window.__board) {
    window.__board = b;
    requestAnimationFrame(() => window.__boards.push(performance.now()));
  }
}).observe(document, { childList: true, subtree: true });
"""


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def first_paints(b: Any, game: str, runs: int) -> list[float]:
    out = []
    async with local_table(game, None, players=2, seed=3) as table:
        for _ in range(runs):
            ctx = await b.new_context(viewport=PHONE)
            await ctx.add_init_script(WATCH)
            page = await ctx.new_page()
            await page.goto(table.link())
            await page.wait_for_function("() => window.__boards.length > 0", timeout=15_000)
            out.append(float(await page.evaluate("window.__boards[0]")))
            await ctx.close()
    return out


async def lay(p: Page) -> None:
    await p.laying()
    await p.drag_to_cell((await p.tray())[0], 1, 1)
    await p.page.wait_for_function("() => /Price \\d/.test(document.querySelector('#preview').textContent)")


async def round_trips(b: Any, trips: int) -> list[float]:
    """Seal and unseal a plan, ``trips`` times in all: each from the click to the board."""
    out = []
    # two players (no AI): the other one never seals, so the plan is sealed and unsealed
    # again and again in the same Planning
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "trips.db")
        app = App(storage, clock=time.time)
        info = await app.create_game("smartphone-inc", channel_id=-77, host_id=1, host_name="Ann")
        await app.join(info.id, 2, "Bob")
        await app.start(info.id, 1, seed=11)
        code = secrets.token_urlsafe(12)
        server = TableServer(app, TableConfig(port=0, local_code=code, local_user=(1, "Ann")))
        port = await server.start()
        try:
            out = await _trips(b, f"http://127.0.0.1:{port}/#code={code}&game={info.id}", trips)
        finally:
            await server.stop()
            await storage.close()
    return out


async def _trips(b: Any, link: str, trips: int) -> list[float]:
    out = []
    ctx = await b.new_context(viewport=PHONE)
    await ctx.add_init_script(WATCH)
    p = Page(await ctx.new_page())
    await p.open(link)
    await p.page.wait_for_function("() => window.__boards.length > 0")
    await lay(p)
    for i in range(trips):
        sealing = i % 2 == 0
        if sealing:
            await p.page.wait_for_selector("#seal:not([disabled])")
            await p.page.click("#seal")
            await p.page.wait_for_selector("#confirm")
        else:
            await p.page.wait_for_selector("#unseal")
        await p.page.wait_for_function("() => !window.boardroom.draftOwed")  # (a plan laid is saved first)
        await p.settled()
        seen = int(await p.page.evaluate("window.__boards.length"))
        started = float(await p.page.evaluate(
            "(id) => { const t = performance.now(); document.querySelector(id).click(); return t; }",
            "#confirm" if sealing else "#unseal",
        ))
        await p.page.wait_for_function(f"() => window.__boards.length > {seen}", timeout=10_000)
        out.append(float(await p.page.evaluate(f"window.__boards[{seen}]")) - started)
        if not sealing:  # the unsealed plan is laid again (a fresh draft)
            await lay(p)
    await ctx.close()
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="3 first paints per game, 10 round trips")
    args = parser.parse_args()
    runs = 3 if args.quick else max(1, args.runs)
    trips = 10 if args.quick else 2 * runs
    if chromium_path() is None:
        print(json.dumps({"table_browser_missing": 1}))
        return
    figures: dict[str, Any] = {}
    async with browser() as b:
        for game, short in SHORT.items():
            paints = await first_paints(b, game, runs)
            figures[f"{short}_board_first_paint_ms"] = round(max(paints), 1)
            figures[f"{short}_board_first_paint_median_ms"] = round(statistics.median(paints), 1)
        trip = await round_trips(b, trips)
        figures["si_board_round_trip_p95_ms"] = round(p95(trip), 1)
        figures["si_board_round_trip_median_ms"] = round(statistics.median(trip), 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    asyncio.run(main())
