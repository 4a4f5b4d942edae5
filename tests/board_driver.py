"""A player at the live table who decides on the board (issue 35): for an action, the
gestures the server says it means (``table.board.moves``: a tap on a place, or a drag of
a piece onto its place), then the ✓ button that names it; an action naming no place
drawn is pressed in its list. Every gesture is counted."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tests.table_support import Page


@dataclass
class Count:
    """Gestures made, by kind, and per decision (prompt type -> list of counts)."""

    taps: int = 0
    drags: int = 0
    presses: int = 0  # listed buttons and ✓ buttons
    per: dict[str, list[int]] = field(default_factory=dict)
    each: list[tuple[str, dict[str, Any], int, str]] = field(default_factory=list)  # (prompt, action, gestures, how)

    @property
    def total(self) -> int:
        return self.taps + self.drags + self.presses


async def ready(p: Page) -> dict[str, Any]:
    """The table once the page drew its version: both drawings in, no request out."""
    page = p.page
    await _wait(p, """() => {
            const t = window.boardroom.table, b = document.body.dataset;
            if (!t || (b.busy || '0') !== '0' || window.boardroom.hold) return false;
            if (t.you && t.status === 'active' && b.mine !== `${t.game_id}/${t.version}/${t.you}`) return false;
            return !!window.boardroom.whole && window.boardroom.whole.key === `${t.game_id}/${t.version}`;
        }""")
    table: dict[str, Any] = await page.evaluate("window.boardroom.table")
    return table


async def _wait(p: Page, condition: str) -> None:
    try:
        await p.page.wait_for_function(condition, timeout=15_000)
    except Exception as exc:
        said = await p.page.evaluate(
            "() => JSON.stringify({busy: document.body.dataset.busy, mine: document.body.dataset.mine, hold: window.boardroom.hold,"
            " whole: window.boardroom.whole && window.boardroom.whole.key, version: window.boardroom.table.version,"
            " status: window.boardroom.table.status, note: document.querySelector('#note').textContent})")
        raise AssertionError(f"the table did not settle: {said}") from exc


async def _center(p: Page, ident: str) -> tuple[float, float]:
    """The middle of the place carrying ``ident`` on screen (the board panned to it if
    it lies there: what a player's own pan does; not counted as a gesture)."""
    await p.page.wait_for_function(  # (a drawing may be coming in again: another seat moved)
        """(id) => ['mine-board', 'whole-board'].some((s) => { const svg = document.getElementById(s);
            return svg && [...svg.querySelectorAll('[data-id]')].some((e) => e.getAttribute('data-id') === id); })""",
        arg=ident, timeout=5_000)
    got = await p.page.evaluate(
        """(id) => {
            const find = (s) => s && [...s.querySelectorAll('[data-id]')].find((e) => e.getAttribute('data-id') === id);
            let e = find(document.getElementById('mine-board'));
            if (e) { e.scrollIntoView({block: 'center', inline: 'center'}); }
            else { e = find(document.getElementById('whole-board')); if (!e) return null;
                   document.getElementById('board-frame').scrollIntoView({block: 'center'}); window.boardroom.reveal(id); }
            const r = e.getBoundingClientRect();
            return [r.x + r.width / 2, r.y + r.height / 2];
        }""",
        ident,
    )
    if got is None:
        ids = await p.page.evaluate("[...document.querySelectorAll('#mine-board [data-id]')].map((e) => e.getAttribute('data-id'))")
        raise AssertionError(f"no place {ident!r} drawn; the own area has {ids}")
    return float(got[0]), float(got[1])


async def tap_place(p: Page, ident: str) -> None:
    x, y = await _center(p, ident)
    await p.page.mouse.click(x, y)


async def drag_place(p: Page, source: str, target: str) -> None:
    page = p.page
    sx, sy = await _center(p, source)
    tx, ty = await _center(p, target)
    got = await page.evaluate(  # both read at once, where the last scroll left them
        """([a, b]) => [a, b].map((id) => {
            const e = ['mine-board', 'whole-board'].map((s) => document.getElementById(s)).filter(Boolean)
                .flatMap((s) => [...s.querySelectorAll('[data-id]')]).find((x) => x.getAttribute('data-id') === id);
            const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })""",
        [source, target],
    )
    (sx, sy), (tx, ty) = got
    assert 0 <= sy <= 800 and 0 <= ty <= 800, (source, target, got)  # (both in sight: one drag)
    await page.mouse.move(sx, sy)
    await page.mouse.down()
    await page.mouse.move((sx + tx) / 2, (sy + ty) / 2, steps=4)
    await page.mouse.move(tx, ty, steps=4)
    await page.mouse.up()


async def same_surface(p: Page, a: str, b: str) -> bool:
    return bool(await p.page.evaluate(
        """([a, b]) => ['mine-board', 'whole-board'].some((s) => {
            const svg = document.getElementById(s); if (!svg) return false;
            const ids = new Set([...svg.querySelectorAll('[data-id]')].map((e) => e.getAttribute('data-id')));
            return ids.has(a) && ids.has(b); })""",
        [a, b],
    ))


async def decide(p: Page, action: dict[str, Any], count: Count, *, drag: bool = True, shot: str = "") -> str:
    """Take ``action`` (one of the table's legal actions) by gestures; returns "board" or
    "list" (how it was taken). ``drag``: a [source, target] move is a drag where both lie
    in one drawing (else tap, then tap: the fallback)."""
    page = p.page
    t = await ready(p)
    n = next(a["n"] for a in t["actions"] if a["action"] == action)
    moves = (t.get("board") or {}).get("moves", {}).get(str(n))
    kind = str((t.get("prompt") or {}).get("type"))
    before = count.total
    if moves and await page.locator(f'#decision [data-n="{n}"]').count() == 0:
        for m in moves:
            if len(m) == 2 and drag and await same_surface(p, m[0], m[1]):
                await drag_place(p, m[0], m[1])
                count.drags += 1
            else:
                for ident in m:
                    await tap_place(p, ident)
                    count.taps += 1
            await p.settled()
        how = "board"
    else:
        summary = page.locator(f'#decision details:not([open]):has([data-n="{n}"]) > summary')
        if await summary.count():
            await summary.click()
            count.presses += 1
        how = "list"
    button = page.locator(f'#decision [data-n="{n}"]')
    if shot and how == "board":  # (the page as the player sees it before the last press)
        await page.evaluate("window.scrollTo(0, 0)")
        await page.screenshot(path=shot, full_page=True)
    assert await button.count() == 1, (json.dumps(action), await page.inner_text("#decision"))
    version = t["version"]
    await button.click()
    count.presses += 1
    if await page.locator("#decision #confirm").count():  # (the table's own list: pick, then confirm)
        await page.click("#decision #confirm")
        count.presses += 1
    try:
        await page.wait_for_function(f"() => window.boardroom.table.version !== {version}", timeout=15_000)
    except Exception as exc:
        raise AssertionError(f"{json.dumps(action)} was not taken: {await page.inner_text('#note')!r}\n"
                             f"{await page.inner_text('#decision')}") from exc
    count.per.setdefault(kind, []).append(count.total - before)
    count.each.append((kind, action, count.total - before, how))
    return how
