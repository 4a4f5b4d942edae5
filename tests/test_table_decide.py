"""Decisions on the board (issue 35), in a real browser (headless Chromium, Playwright)
through the fake Discord at 400 px wide: each game's round played by gestures on the
drawn board and the seat's own area (taps, drags; the server says what each means, from
the engine's legal actions), every gesture counted; the same moves sent through the app
(what a click in Discord calls) in a second run give the same game, step for step."""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import render
from engine import ai
from render import kit, svg
from render.age_of_automaton import board as aoa_board
from tests.board_driver import Count, decide, ready, tap_place
from tests.discord_support import running
from tests.fake_discord import FakeDiscord
from tests.render_support import record_texts
from tests.table_seat import seated, started
from tests.table_support import Page, browser, needs_chromium
from tests.test_discord_e2e import fake
from tests.test_table_browser import table_config

__all__ = ["fake"]

pytestmark = needs_chromium

Chooser = Callable[[dict[str, Any], dict[str, Any]], Any]  # an action, or a coroutine function (page, count) -> action
SHOT_AT = {"turn", "product", "research"}  # the decisions a screenshot shows (the last one taken)
# a folder for each round's screenshot (the page before its last press on the board), to
# look at: taken only when this is set (nothing checks them; 7 full-page screenshots cost
# about a second of CPU), e.g. BOARDROOM_TABLE_SHOTS=/tmp/shots
SHOTS = os.environ.get("BOARDROOM_TABLE_SHOTS", "")


def shot(name: str) -> str:
    if not SHOTS:
        return ""
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    return str(Path(SHOTS) / name)


async def mine_turn(p: Page) -> dict[str, Any]:
    """The table once it is this seat's decision (or the game moved past its round)."""
    await p.page.wait_for_function(
        "() => { const t = window.boardroom.table; return t && (t.actions.length > 0 || t.status !== 'active'); }",
        timeout=30_000,
    )
    return await ready(p)


async def play_round(
    fake: FakeDiscord, tmp_path: Any, game: str, ai_kind: str, choose: Chooser, *, shots: str = "", rounds: int = 1
) -> tuple[Count, list[tuple[str, dict[str, Any]]], int, Any]:
    """ann plays the first ``rounds`` at the table by gestures against one AI seat; returns the
    gestures, her moves, the log's last step after her last move and that step's public view."""
    ann = fake.add_member("ann")
    count = Count()
    moves: list[tuple[str, dict[str, Any]]] = []
    async with running(fake, str(tmp_path / "t.db"), renderer=None, table=table_config(fake)) as bot:
        gid = await started(fake, bot, game, ann, ai_kind)
        port = bot.get_cog("Table").server.port
        async with browser() as b:
            p = Page(await b.new_page(viewport={"width": 400, "height": 800}))
            await p.open(f"http://127.0.0.1:{port}/#code={fake.oauth_code(ann)}&game={gid}")
            for _ in range(80):
                t = await mine_turn(p)
                if t["view"].get("round", 1) > rounds or t["status"] != "active":
                    break
                state = await bot.app.state(gid)
                action = choose(t, state)
                if callable(action):  # a decision of the game's own drawing (the planner)
                    action, how = await action(p, count), "planner"
                else:
                    kind = (t["prompt"] or {}).get("type")
                    how = await decide(p, action, count, shot=shots if kind in SHOT_AT else "")
                moves.append((how, action))
            assert moves and not p.errors, p.errors
            await same_facts_as_discord(p, bot, gid, game)
            await phone_rules(p)
            await p.assert_plain_words()
            assert await p.page.evaluate("document.documentElement.scrollWidth") <= 400
        async with bot.storage.read() as q:
            rows = await q.actions(gid)
        last = max(r.seq for r in rows if r.seat == "ann")
        mine = [r.action for r in rows if r.seat == "ann"]
        assert mine == [a for _how, a in moves]  # what the table sent is what was logged
        view, _events, _n = await bot.app.public_view_at(gid, last)
    return count, moves, last, view


async def same_facts_as_discord(p: Page, bot: Any, gid: int, game: str) -> None:
    """The board and the own area the page shows, and the Discord pictures of the same
    views (the channel's public picture, the seat's private one): every text of a picture
    is text of the page's drawing, and the page's board is the public view's (its ids)."""
    for _ in range(50):
        t = await ready(p)
        public, own = await bot.app.view(gid, None), await bot.app.view(gid, "ann")
        if int(public["version"]) == t["version"]:
            break
        await asyncio.sleep(0.1)
    assert int(public["version"]) == t["version"]
    info = await bot.app.info(gid)  # (both media name the players: GameInfo.drawn)
    public, own = info.drawn(public), info.drawn(own)
    for surface, view in (("whole-board", public), ("mine-board", own)):
        shown = Counter(await p.page.evaluate(
            f"[...document.getElementById('{surface}').querySelectorAll('text')].map((x) => x.textContent)"))
        with pytest.MonkeyPatch.context() as mp:
            aoa_board._prospect_grid.cache_clear()
            aoa_board._track_strip.cache_clear()
            mp.setattr(kit, "_HEIGHTS", {})
            drawn = record_texts(mp)
            render.draw(game, view)
        in_png = Counter(s for s in drawn if s)
        assert len(in_png) > 20 and not in_png - shown, (surface, list(in_png - shown)[:10])
        ids = set(await p.page.evaluate(
            f"[...document.getElementById('{surface}').querySelectorAll('[data-id]')].map((x) => x.getAttribute('data-id'))"))
        drawn_ids = set(re.findall(r'data-id="([^"]*)"', svg.board(game, view) if surface == "whole-board" else svg.mine(game, view)))
        assert ids == drawn_ids and (ids or surface == "mine-board"), surface


async def phone_rules(p: Page) -> None:
    """At 400 px: every control of the decision and the own area at least 40 px high, no
    text of the own area under 12 px at the scale it opens with (the board's:
    tests/test_svg_table.py)."""
    low = await p.page.evaluate(
        """() => [...document.querySelectorAll('#decision :is(button, summary, input, select), #mine :is(button, summary)')]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect().height])
            .filter(([, h]) => h < 40)""")
    assert not low, low
    least = await p.page.evaluate(
        """() => { const s = document.getElementById('mine-board');
            const k = Number(s.getAttribute('width')) / s.viewBox.baseVal.width;
            return k * Math.min(...[...s.querySelectorAll('text[font-size]')].map((t) => Number(t.getAttribute('font-size')))); }""")
    assert least >= 12, least


async def same_through_the_app(fake: FakeDiscord, tmp_path: Any, game: str, ai_kind: str,
                               moves: list[tuple[str, dict[str, Any]]], last: int) -> Any:
    """The same moves of ann sent through the app (what Discord's buttons call), in a new
    run from the same seed: the public view at the same step."""
    ann = next(u for u in fake.users.values() if u.get("username") == "ann")
    async with running(fake, str(tmp_path / "app.db"), renderer=None) as bot:
        gid = await started(fake, bot, game, ann, ai_kind)
        for _how, action in moves:
            for _ in range(600):  # (the AI seat answers by itself, as in the first run)
                if await bot.app.prompt(gid, "ann") is not None:
                    break
                await asyncio.sleep(0.05)
            state = await bot.app.state(gid)
            out = await bot.app.act(gid, int(ann["id"]), "ann", action, int(state["version"]))
            assert out.status == "applied", out
        view, _events, _n = await bot.app.public_view_at(gid, last)
    return view


def aoa_choice(t: dict[str, Any], state: dict[str, Any]) -> Any:
    """A turn's main action on the board (a worker to a card of a row), then the end of
    the turn; any other decision as the rule bot takes it."""
    legal = [a["action"] for a in t["actions"]]
    on_board = {a["n"] for a in t["actions"] if str(a["n"]) in t["board"]["moves"]}
    if (t["prompt"] or {}).get("type") == "turn":
        mains = [a["action"] for a in t["actions"] if a["n"] in on_board and a["action"]["type"] == "main" and "card" in a["action"]]
        if mains and not t["prompt"].get("main_done"):
            return mains[0]
        if {"type": "end"} in legal:
            return {"type": "end"}
    return ai.choose("age-of-automaton", state, "ann", "greedy")


@needs_chromium
async def test_age_of_automaton_a_round_by_taps_on_the_board(fake: FakeDiscord, tmp_path: Any) -> None:
    count, moves, last, view = await play_round(fake, tmp_path, "age-of-automaton", "bot", aoa_choice,
                                                shots=shot("aoa.png"))
    # a turn: its decisions from the first to "end" (other prompts between, as dice, apart)
    turns: list[list[tuple[str, int, str]]] = [[]]
    for kind, action, n, how in count.each:
        if kind == "turn":
            turns[-1].append((action["type"], n, how))
            if action["type"] == "end":
                turns.append([])
    turns = [t for t in turns if t]
    print(f"\nAge of Automaton: {len(moves)} decisions, {count.total} gestures ({count.taps} taps, {count.drags} drags, "
          f"{count.presses} presses); turns (decision, gestures, how): {turns}")
    assert any(how == "board" for how, _a in moves)
    # a turn of one main action on the board: tap an automaton, tap its place, ✓ (its cost
    # and gain in the label), End the turn: 4 gestures
    simple = [t for t in turns if [x[0] for x in t] == ["main", "end"] and t[0][2] == "board"]
    assert simple and all(sum(x[1] for x in t) == 4 for t in simple), turns
    assert await same_through_the_app(fake, tmp_path, "age-of-automaton", "bot", moves, last) == view


async def plan_on_the_planner(p: Page, count: Count) -> dict[str, Any]:
    """Smartphone Inc.'s plan on the planner (the seat's own board): the top Pad dragged
    onto the bottom one, each Improvement dragged on, Seal, Yes: the action sent."""
    t = await ready(p)
    page = p.page
    sent: dict[str, Any] = {}

    def on_request(req: Any) -> None:
        if req.url.endswith("/api/act"):
            sent.update(json.loads(req.post_data))

    before = count.total
    await p.laying()
    await p.drag_to_cell((await p.tray())[0], 1, 1)
    count.drags += 1
    for i, imp in enumerate((t["facts"].get("improvements") or [])[:2]):
        await p.drag_to_cell(imp["id"], i, 0)
        count.drags += 1
    await page.wait_for_function("() => /Price \\d/.test(document.querySelector('#preview').textContent)")
    page.on("request", on_request)
    await page.click("#seal")
    await page.click("#confirm")
    count.presses += 2
    await page.wait_for_function(f"() => window.boardroom.table.version !== {t['version']}", timeout=15_000)
    page.remove_listener("request", on_request)
    count.per.setdefault("plan", []).append(count.total - before)
    count.each.append(("plan", sent["action"], count.total - before, "planner"))
    return dict(sent["action"])


def si_choice(t: dict[str, Any], state: dict[str, Any]) -> Any:
    if (t["prompt"] or {}).get("type") == "plan":
        return plan_on_the_planner
    return ai.choose("smartphone-inc", state, "ann", "greedy")


@needs_chromium
async def test_smartphone_inc_a_round_on_the_planner_and_the_map(fake: FakeDiscord, tmp_path: Any) -> None:
    count, moves, last, view = await play_round(fake, tmp_path, "smartphone-inc", "bot", si_choice,
                                                shots=shot("si.png"), rounds=2)
    print(f"\nSmartphone Inc.: {len(moves)} decisions, {count.total} gestures ({count.taps} taps, {count.drags} drags, "
          f"{count.presses} presses); each (decision, gestures, how): {[(k, n, h) for k, _a, n, h in count.each]}")
    plans = [(a, n) for k, a, n, _h in count.each if k == "plan"]
    # a plan: the top Pad and each Improvement dragged, Seal, Yes: at most 6 with 2 Improvements
    assert plans and all(n == 1 + len(a["plan"]["improvements"]) + 2 <= 6 for a, n in plans), plans
    assert any(len(a["plan"]["improvements"]) == 2 for a, _n in plans), plans  # (round 2: the one picked in round 1 too)
    on_board = [(k, n) for k, _a, n, h in count.each if h == "board"]
    assert on_board, count.each  # research, logistics, a sale: a tap on the map or a track, then ✓
    assert await same_through_the_app(fake, tmp_path, "smartphone-inc", "bot", moves, last) == view


def mm_choice(t: dict[str, Any], state: dict[str, Any]) -> Any:
    """The product with the most Feature cards; any other decision as the rule bot takes it."""
    if (t["prompt"] or {}).get("type") == "product":
        return max((a["action"] for a in t["actions"]), key=lambda a: len(a.get("slots") or {}))
    return ai.choose("mobile-markets", state, "ann", "greedy")


@needs_chromium
async def test_mobile_markets_a_round_with_the_product_dragged_together(fake: FakeDiscord, tmp_path: Any) -> None:
    count, moves, last, view = await play_round(fake, tmp_path, "mobile-markets", "steve", mm_choice,
                                                shots=shot("mm.png"))
    print(f"\nMobile Markets: {len(moves)} decisions, {count.total} gestures ({count.taps} taps, {count.drags} drags, "
          f"{count.presses} presses); each (decision, gestures, how): {[(k, n, h) for k, _a, n, h in count.each]}")
    products = [(a, n, h) for k, a, n, h in count.each if k == "product"]
    # a product: each Feature card dragged into its slot, then ✓ (its net profit shown live)
    assert products and all(n == len(a["slots"]) + 1 for a, n, _h in products), products
    assert any(a["slots"] for a, _n, _h in products) and all(h == "board" for a, _n, h in products if a["slots"]), products
    plans = [n for k, _a, n, _h in count.each if k == "plan"]
    assert plans and all(n <= 2 for n in plans), plans  # a group opened, a choice pressed
    assert await same_through_the_app(fake, tmp_path, "mobile-markets", "steve", moves, last) == view


@needs_chromium
async def test_every_drag_has_a_tap_fallback_and_a_keyboard_one(fake: FakeDiscord, tmp_path: Any) -> None:
    """A Mobile Markets product without a drag: the Feature card tapped, then its slot
    pressed from the keyboard (a marked place is a focusable button; Enter taps it); a tap
    on a place where no legal action starts places nothing."""
    async with seated(fake, tmp_path, "mm.db", "mobile-markets", "steve", "product") as seat:
        bot, gid, p = seat.bot, seat.gid, seat.p
        feature = seat.prompt["features"][0]
        page = p.page
        t = await ready(p)
        slot = next(m for m in t["board"]["moves"].values() if m[0][0] == feature)[0][1]
        # a tap on a slot first: no legal action starts there, nothing is placed
        await tap_place(p, slot)
        assert await page.locator("#made").count() == 0
        await tap_place(p, feature)  # the card picked up...
        await p.settled()
        assert await page.evaluate(f"document.querySelector('#mine-board [data-id=\"{slot}\"]').getAttribute('data-gesture')") == "target"
        # ...and put down by the keyboard: the slot is a button Enter presses
        await page.evaluate(f"document.querySelector('#mine-board [data-id=\"{slot}\"]').focus()")
        assert await page.evaluate("document.activeElement.getAttribute('role')") == "button"
        await page.keyboard.press("Enter")
        await p.settled()
        n = next(a["n"] for a in t["actions"] if a["action"] == {"type": "product", "slots": {slot.split(":", 1)[1]: feature}})
        await page.click(f'#choices [data-n="{n}"]')
        await p.wait_version_past(t["version"])
        assert not p.errors, p.errors
        async with bot.storage.read() as q:
            rows = await q.actions(gid, after=t["version"], upto=t["version"] + 1)
        assert rows[0].action == {"type": "product", "slots": {slot.split(":", 1)[1]: feature}}
