"""Smartphone Inc.'s plan laid on the board (issue 35), in a real browser (headless
Chromium, Playwright) at 400 px wide: the top Pad and two Improvements dragged from the
tray of the seat's own area onto the cells of its grid (which carry the engine's
coordinates), Seal, Yes: 5 gestures. The plan stored is the one the same player builds
through Discord's planner (its selects, in a second run from the same seed), and the
game goes on alike."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.app.replay import state_after
from engine import IllegalAction
from engine.smartphone_inc import pads
from render.smartphone_inc import theme
from tests.discord_support import running
from tests.fake_discord import FakeDiscord, iter_components, message_text
from tests.phone_support import local_table
from tests.table_seat import started
from tests.table_support import Page, browser, needs_chromium
from tests.test_discord_e2e import fake
from tests.test_table_browser import table_config

__all__ = ["fake"]

pytestmark = needs_chromium

TOP_AT = (1, 0)  # the top Pad's box, turned 0°: over the bottom Pad's right two thirds


async def to_two_improvements(bot: Any, gid: int, ann: dict[str, Any], moves: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """ann's decisions up to a plan owning two Improvements: the rule bot's (``moves``
    None), else ``moves`` again (the first run's, as Discord's buttons would send them);
    the moves made."""
    from engine import ai

    made: list[dict[str, Any]] = []
    for _ in range(600):
        prompt = await bot.app.prompt(gid, "ann")
        if prompt is None:  # (the AI seat's turn: it answers by itself)
            await asyncio.sleep(0.05)
            continue
        if moves is None and prompt["type"] == "plan" and len(prompt["improvements"]) >= 2:
            return made
        if moves is not None and len(made) == len(moves):
            assert prompt["type"] == "plan", prompt
            return made
        state = await bot.app.state(gid)
        action = ai.choose("smartphone-inc", state, "ann", "greedy") if moves is None else moves[len(made)]
        out = await bot.app.act(gid, int(ann["id"]), "ann", action, int(state["version"]))
        assert out.status == "applied", out
        made.append(action)
    raise AssertionError("ann never planned with two Improvements")


def spots(owned: list[str]) -> list[tuple[str, int, int]]:
    """Where the two Improvements go, on top, unturned: the first cells (row by row) the
    engine takes them at, with the top Pad at TOP_AT (the engine's word, not the page's)."""
    plan: dict[str, Any] = {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": TOP_AT[0], "y": TOP_AT[1]}, "improvements": []}
    out = []
    for imp in owned[:2]:
        for y in range(-1, 3):
            for x in range(-1, 4):
                trial = {**plan, "improvements": [*plan["improvements"], {"id": imp, "x": x, "y": y, "rot": 0, "layer": "over"}]}
                try:
                    pads.validate_plan(trial, owned, False)
                except IllegalAction:
                    continue
                plan = trial
                out.append((imp, x, y))
                break
            else:
                continue
            break
    assert len(out) == 2, out
    return out


async def on_the_board(p: Page, owned: list[str]) -> int:
    """Lay the plan by gestures on the own area, seal it: the gestures made."""
    gestures = 0
    await p.laying()
    tray = await p.tray()
    assert tray[0] == "B" and set(tray[1:]) == set(owned), tray  # the top Pad, then each Improvement
    await p.drag_to_cell("B", *TOP_AT)
    gestures += 1
    # drawn where it was dropped: each of its cells (the top Pad's colour) on the place
    # whose engine coordinates it now has
    under = await p.page.evaluate(
        """(fill) => { const svg = document.getElementById('mine-board');
            const cells = [...svg.querySelectorAll('[data-kind="cell"]')].map((c) => [c.getAttribute('data-id'), c.getBoundingClientRect()]);
            return [...svg.querySelectorAll(`rect[fill="${fill}"]`)].map((r) => { const b = r.getBoundingClientRect();
                const x = b.x + b.width / 2, y = b.y + b.height / 2;
                const c = cells.find(([, k]) => x >= k.left && x < k.right && y >= k.top && y < k.bottom);
                return c ? c[0] : null; }); }""",
        theme.PAD_TOP,
    )
    x0, y0 = TOP_AT
    assert sorted(under) == sorted(f"cell:{x},{y}" for x in range(x0, x0 + 3) for y in range(y0, y0 + 2)), under
    for imp, x, y in spots(owned):
        await p.drag_to_cell(imp, x, y)
        gestures += 1
    assert await p.tray() == []
    await p.page.wait_for_function("() => /Price \\d/.test(document.querySelector('#preview').textContent)")
    await p.assert_plain_words()
    v = await p.version()
    await p.page.click("#seal")
    await p.page.click("#confirm")
    gestures += 2
    await p.wait_version_past(v)
    return gestures


async def through_discord(fake: FakeDiscord, ann: dict[str, Any], rnd: int, owned: list[str]) -> None:
    """The same plan through ann's planner DM: its selects, by hand, then Seal, Yes."""

    def planner() -> dict[str, Any] | None:
        for m in reversed(fake.dm_messages(ann)):
            sel = next((c for c in iter_components(m) if c["type"] == 3), None)
            if sel and f"round {rnd} " in message_text(m) and any(o["value"].startswith("hand:") for o in sel["options"]):
                return m
        return None

    msg = await fake.wait_for(planner, what=f"ann's planner of round {rnd}")
    wanted = ["hand:A0:0", f"0,{TOP_AT[0]},{TOP_AT[1]}"]
    for imp, x, y in spots(owned):
        wanted += [f"+{imp}:0:over", f"{x},{y}"]
    for value in wanted:
        for _ in range(12):  # (the option may lie on a later page, or among "every position")
            sel = next(c for c in iter_components(msg) if c["type"] == 3)
            values = [o["value"] for o in sel["options"]]
            pick = value if value in values else "@every" if "@every" in values else "@next" if "@next" in values else None
            assert pick is not None, (value, values)
            msg = (await fake.click(ann, msg, sel["custom_id"], values=[pick])).original
            if pick == value:
                break
    ix = await fake.click(ann, msg, "Seal")
    await fake.click(ann, ix.original, "Yes, seal")


async def plan_row(bot: Any, gid: int) -> tuple[int, dict[str, Any], str]:
    """ann's last plan in the game's log: its step, the action stored, and the whole
    engine state right after it (replayed from the log, as the replay does)."""
    async with bot.storage.read() as q:
        rows = await q.actions(gid)
    at = max(i for i, r in enumerate(rows) if r.seat == "ann" and r.action.get("type") == "plan")
    rec = await bot.app.record(gid, "ann")
    game = bot.app.engine("smartphone-inc")
    return at, rows[at].action, game.dump(state_after(game, rec, at))


@needs_chromium
async def test_a_plan_laid_by_gestures_on_the_board_is_the_plan_made_through_discord(fake: FakeDiscord, tmp_path: Any) -> None:
    ann = fake.add_member("ann")
    async with running(fake, str(tmp_path / "t.db"), renderer=None, table=table_config(fake)) as bot:
        gid = await started(fake, bot, "smartphone-inc", ann, "bot")
        before = await to_two_improvements(bot, gid, ann, None)
        prompt = await bot.app.prompt(gid, "ann")
        owned = list(prompt["improvements"])
        rnd = int((await bot.app.view(gid, "ann"))["round"])
        port = bot.get_cog("Table").server.port
        async with browser() as b:
            p = Page(await b.new_page(viewport={"width": 400, "height": 800}))
            await p.open(f"http://127.0.0.1:{port}/#code={fake.oauth_code(ann)}&game={gid}")
            gestures = await on_the_board(p, owned)
            assert not p.errors, p.errors
        at, sent, state = await plan_row(bot, gid)
    print(f"\nSmartphone Inc.: a plan of 2 Pads and 2 Improvements laid on the board in {gestures} gestures "
          "(3 drags, Seal, Yes)")
    assert gestures <= 6
    assert len(sent["plan"]["improvements"]) == 2
    async with running(fake, str(tmp_path / "d.db"), renderer=None) as bot:
        gid2 = await started(fake, bot, "smartphone-inc", ann, "bot")
        await to_two_improvements(bot, gid2, ann, before)
        await through_discord(fake, ann, rnd, owned)
        at2, sent2, state2 = await plan_row(bot, gid2)
    assert pads.validate_plan(sent2["plan"], owned, False) == pads.validate_plan(sent["plan"], owned, False)
    assert at2 == at and state2 == state  # the whole game after it, the same


async def tap(p: Page, ident: str) -> None:
    """A tap (a click) on the middle of the own area's place carrying ``ident``."""
    box = await p.page.evaluate(
        """(id) => { const e = [...document.querySelectorAll('#mine-board [data-id]')].find((x) => x.getAttribute('data-id') === id
                && (x.getAttribute('data-lay') === 'piece' || x.getAttribute('data-kind') === 'cell'));
            e.scrollIntoView({block: 'center'}); const rs = [...(e.tagName === 'rect' ? [e] : e.querySelectorAll('rect'))].map((r) => r.getBoundingClientRect());
            const x0 = Math.min(...rs.map((b) => b.left)), y0 = Math.min(...rs.map((b) => b.top));
            const x1 = Math.max(...rs.map((b) => b.right)), y1 = Math.max(...rs.map((b) => b.bottom));
            return [(x0 + x1) / 2, (y0 + y1) / 2]; }""",
        ident,
    )
    await p.page.mouse.click(box[0], box[1])


async def laid(p: Page) -> dict[str, Any]:
    await p.laying()
    out: dict[str, Any] = json.loads(await p.page.evaluate("document.body.dataset.laid"))
    return out


@needs_chromium
async def test_a_piece_tapped_then_a_cell_and_tapped_again_turns_where_the_engine_allows() -> None:
    async with local_table("smartphone-inc", "plan") as table, browser() as b:
        p = Page(await b.new_page(viewport={"width": 400, "height": 800}))
        await p.open(table.link())
        await p.laying()
        await tap(p, "B")
        await p.page.wait_for_selector('#mine-board [data-id="B"].source-picked')
        marked = set(await p.page.evaluate(
            "[...document.querySelectorAll('#mine-board [data-kind=\"cell\"].tappable')].map((e) => e.getAttribute('data-id'))"))
        # the marked places: every top-left cell of the top Pad (side 1, unturned) the engine lists
        engine = {
            f"cell:{a['top']['x']},{a['top']['y']}"
            for a in pads.all_arrangements()
            if a["bottom"] == {"pad": "A", "side": 0} and (a["top"]["side"], a["top"]["rot"]) == (0, 0)
        }
        assert marked == engine and len(engine) == 14, (marked, engine)
        await tap(p, f"cell:{TOP_AT[0]},{TOP_AT[1]}")
        got = await laid(p)
        assert got["top"] == {"side": 0, "rot": 0, "x": TOP_AT[0], "y": TOP_AT[1]}, got
        await tap(p, f"cell:{TOP_AT[0]},{TOP_AT[1]}")  # the piece there, tapped again: turned
        got = await laid(p)
        assert (got["top"]["rot"], got["top"]["x"], got["top"]["y"]) == (1, *TOP_AT), got
        pads.validate_plan({**got, "improvements": []}, [], False)
        await p.page.wait_for_function("() => /Price \\d/.test(document.querySelector('#preview').textContent)")
        # each picture the area pastes (a symbol of a cell) is its own, not the board's of the same name
        foreign = await p.page.evaluate(
            """() => { const s = document.getElementById('mine-board');
                return [...s.querySelectorAll('use')].map((u) => u.getAttribute('href'))
                    .filter((h) => { const e = document.getElementById(h.slice(1)); return !e || !s.contains(e); }); }""")
        assert await p.page.locator("#mine-board use").count() > 10 and not foreign, foreign
        assert not p.errors, p.errors
