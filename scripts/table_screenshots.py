"""Screenshots of the live table at phone width (400 px), one per game, for docs/.

    .venv/bin/python scripts/table_screenshots.py            # writes docs/table/<game>.png

Each is a seeded local game (the table's own server and App, as ``boardroom table``)
brought to its by-hand decision: Smartphone Inc.'s planner with the top Pad and the
starting Improvement laid (the live preview showing), a Mobile Markets product with a
Feature in a slot, an Age of Automaton turn with an automaton tapped. Needs Debian's
chromium. Look at them before committing.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.app import App  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.table.config import TableConfig  # noqa: E402
from bot.table.local import LOCAL_USER, local_game  # noqa: E402
from bot.table.server import TableServer  # noqa: E402
from engine import ai, get_game  # noqa: E402
from tests.table_support import Page, browser  # noqa: E402

DOCS = ROOT / "docs" / "table"  # not docs/*.png: those are scripts/docs_pictures.py's, byte for byte


async def advance(app: App, gid: int, kind: str) -> None:
    """Play the human seat with the rule bot until its prompt is a ``kind``."""
    info = await app.info(gid)
    seat = info.seat_of(LOCAL_USER[0]).seat  # type: ignore[union-attr]
    for _ in range(500):
        prompt = await app.prompt(gid, seat)
        if prompt and prompt.get("type") == kind:
            return
        state = await app.state(gid)
        if seat not in get_game(info.game).pending(state):
            raise RuntimeError("the human seat has nothing to decide")
        await app.act(gid, LOCAL_USER[0], seat, ai.choose(info.game, state, seat, "greedy"), int(state["version"]))
    raise RuntimeError(f"no {kind} decision came")


async def shoot(game: str, kind: str, players: int, seed: int) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "t.db")
        app = App(storage, clock=time.time)
        try:
            info = await local_game(app, game, players, seed)
            await advance(app, info.id, kind)
            code = secrets.token_urlsafe(12)
            server = TableServer(app, TableConfig(port=0, local_code=code, local_user=LOCAL_USER))
            port = await server.start()
            try:
                async with browser() as b:
                    p = Page(await b.new_page(viewport={"width": 400, "height": 800}))
                    await p.open(f"http://127.0.0.1:{port}/#code={code}&game={info.id}")
                    page = p.page
                    if game == "smartphone-inc":
                        await p.drag_to_cell('#planner g[data-kind="top"]', 1, 1)
                        await p.drag_to_cell('#planner g[data-kind="imp"]', 0, 0)
                    elif game == "mobile-markets":
                        card = page.locator("#hand [data-feature]").first
                        slot = page.locator("[data-slot]").first
                        cb, sb = await card.bounding_box(), await slot.bounding_box()
                        await page.mouse.move(cb["x"] + 20, cb["y"] + 15)
                        await page.mouse.down()
                        await page.mouse.move(sb["x"] + sb["width"] / 2, sb["y"] + sb["height"] / 2, steps=6)
                        await page.mouse.up()
                        await p.settled()
                    else:
                        await page.locator("#workers button").first.click()
                        await page.locator("[data-space] button").first.click()
                    out = DOCS / f"{game}.png"
                    await page.screenshot(path=str(out))  # what a phone shows (400 × 800)
            finally:
                await server.stop()
        finally:
            await storage.close()
    return out


async def main() -> None:
    for game, kind, players, seed in (
        ("smartphone-inc", "plan", 2, 3),
        ("mobile-markets", "product", 2, 3),
        ("age-of-automaton", "turn", 2, 3),
    ):
        print(await shoot(game, kind, players, seed))


if __name__ == "__main__":
    asyncio.run(main())
