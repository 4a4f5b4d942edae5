"""Screenshots of the live table at phone width (400 × 800), one per game, for docs/
and the README (``make docs-pictures`` runs this after scripts/docs_pictures.py).

    .venv/bin/python scripts/table_screenshots.py            # writes docs/table/<game>.png

Each is a seeded local game (the table's own server and App, as ``boardroom table``;
:func:`tests.phone_support.local_table`) brought to its by-hand decision, then shown as
a phone shows it first: the board's frame at the top, the decision below it. Smartphone
Inc. has its top Pad laid on the bottom one on the grid of the own area (shown there,
below the decision), Mobile Markets a
Feature in a product's slot, Age of Automaton an automaton tapped. Needs Debian's
chromium. Look at them before committing.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.board_driver import drag_place, ready, same_surface, tap_place  # noqa: E402
from tests.phone_support import local_table  # noqa: E402
from tests.table_support import Page, browser  # noqa: E402

DOCS = ROOT / "docs" / "table"  # not docs/*.png: those are scripts/docs_pictures.py's, byte for byte
GAMES = (("smartphone-inc", "plan", 2, 3), ("mobile-markets", "product", 2, 3), ("age-of-automaton", "turn", 2, 3))


async def lay_on_the_board(p: Page) -> None:
    """The gestures of the first legal action that has some on the board (a Feature card
    dragged into a slot, a worker then an action space), the last press left out: the
    page as the player sees it before confirming."""
    t = await ready(p)
    moves = (t.get("board") or {}).get("moves", {})
    for a in t["actions"]:
        steps = moves.get(str(a["n"]))
        if not steps:
            continue
        for m in steps:
            if len(m) == 2 and await same_surface(p, m[0], m[1]):
                await drag_place(p, m[0], m[1])
            else:
                for ident in m:
                    await tap_place(p, ident)
            await p.settled()
        return
    raise AssertionError("no decision on the board")


async def shoot(game: str, kind: str, players: int, seed: int, out_dir: Path = DOCS) -> Path:
    async with local_table(game, kind, players=players, seed=seed) as table, browser() as b:
        p = Page(await b.new_page(viewport={"width": 400, "height": 800}))
        await p.open(table.link())
        page = p.page
        await page.wait_for_selector("body[data-board]")
        if game == "smartphone-inc":
            await p.drag_to_cell((await p.tray())[0], 1, 0)
            await page.wait_for_function("() => /Price \\d/.test(document.querySelector('#preview').textContent)")
        else:  # the first legal decision laid on the board by its gestures, not yet confirmed
            await lay_on_the_board(p)
        await p.settled()
        await page.evaluate("window.getSelection().removeAllRanges(); window.scrollTo(0, 0)")
        if game == "smartphone-inc":  # (the plan is laid on the own area's grid, below the decision: shown there)
            await page.evaluate("""() => { const c = document.querySelector('#mine-board [data-id="cell:1,-1"]');
                const f = document.getElementById('mine-frame');
                c.scrollIntoView({block: 'start'}); f.scrollTop -= 96; f.scrollIntoView({block: 'start'}); window.scrollBy(0, -250); }""")
        out = out_dir / f"{game}.png"
        await page.screenshot(path=str(out))  # what a phone shows first (400 × 800)
        assert not p.errors, p.errors
    return out


async def main() -> None:
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS
    out_dir.mkdir(parents=True, exist_ok=True)
    for game, kind, players, seed in GAMES:
        print(await shoot(game, kind, players, seed, out_dir))


if __name__ == "__main__":
    asyncio.run(main())
