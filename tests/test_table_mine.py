"""The seat's own area at the table (``GET /api/mine.svg``, issue 35): drawn from that
seat's view from the engine only. Differentially: one seat's secret changed, every other
seat's area is byte-identical (and the changing seat's own is not); a bystander has no
area. And the decisions on the board (``table.board``) name only legal actions, each
move a place the drawings carry."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

import render
from bot.app import App
from bot.table.decide import board_decisions
from engine import ai, get_game
from engine.mobile_markets import pads
from render import kit, svg
from render.age_of_automaton import board as aoa_board
from tests.render_support import record_texts
from tests.test_svg_board import parse, texts
from tests.test_table_server import Client, table_of, world

__all__ = ["world"]

SEATS = ["ann", "bob", "carl"]


def _until(name: str, kind: str, seat: str = "ann") -> dict[str, Any]:
    """A 3-seat game (seed 7) played by the rule bot until ``seat`` has a ``kind`` prompt."""
    g = get_game(name)
    state = g.setup(players=SEATS, seed=7, options={})
    for _ in range(500):
        pending = g.pending(state)
        if pending.get(seat, {}).get("type") == kind:
            return state
        who = sorted(pending)[0]
        state = g.apply(state, who, ai.choose(name, state, who, "greedy"))
    raise AssertionError(f"no {kind} for {seat}")


# (game, the secret decision, two different answers of ann's to it)
SECRETS = [
    ("smartphone-inc", "plan", 0, 5),
    ("mobile-markets", "plan", 0, 7),
    ("age-of-automaton", "draft", 0, 2),
]


@pytest.mark.parametrize(("name", "kind", "one", "other"), SECRETS)
def test_one_seats_secret_changes_no_other_seats_area(name: str, kind: str, one: int, other: int) -> None:
    g = get_game(name)
    state = _until(name, kind)
    legal = g.legal_actions(state, "ann")
    after = [g.apply(state, "ann", legal[i]) for i in (one, other)]
    areas = [{seat: svg.mine(name, g.view(s, seat)) for seat in SEATS} for s in after]
    assert g.view(after[0], "ann") != g.view(after[1], "ann")  # (her secret differs)
    if kind == "plan":
        assert areas[0]["ann"] != areas[1]["ann"]  # (her sealed plan shows in her own area)
    for seat in ("bob", "carl"):
        assert areas[0][seat] == areas[1][seat], f"{seat}'s area shows ann's secret"
    assert "<text" in areas[0]["bob"]


def test_the_area_is_drawn_from_a_seats_view_only() -> None:
    g = get_game("mobile-markets")
    state = _until("mobile-markets", "plan")
    with pytest.raises(ValueError):
        svg.mine("mobile-markets", g.view(state, None))


def test_every_move_names_a_place_drawn_and_only_legal_actions() -> None:
    """Per game, at a decision on the board: each action's moves name places the board or
    the seat's area carry (data-id), and no action outside the legal ones is offered."""
    cases = [("age-of-automaton", "turn"), ("mobile-markets", "product"), ("smartphone-inc", "research"),
             ("age-of-automaton", "draft"), ("mobile-markets", "technology")]
    for name, kind in cases:
        g = get_game(name)
        state = _until(name, kind)
        view = g.view(state, "ann")
        ids = set(re.findall(r'data-id="([^"]*)"', svg.mine(name, view) + svg.board(name, g.view(state, None))))
        legal = g.legal_actions(state, "ann")
        actions = [{"n": i + 1, "label": "", "action": a} for i, a in enumerate(legal)]
        board = board_decisions(name, view.get("prompt") or g.pending(state)["ann"], view, "ann", actions)
        assert board["moves"], (name, kind)
        for n, moves in board["moves"].items():
            assert 1 <= int(n) <= len(legal)
            assert all(place in ids for m in moves for place in m), (name, kind, legal[int(n) - 1], moves)


def test_mobile_markets_plans_are_grouped_each_result_once() -> None:
    g = get_game("mobile-markets")
    state = _until("mobile-markets", "plan")
    legal = g.legal_actions(state, "ann")
    actions = [{"n": i + 1, "label": "", "action": a} for i, a in enumerate(legal)]
    groups = board_decisions("mobile-markets", g.pending(state)["ann"], g.view(state, "ann"), "ann", actions)["groups"]
    shown = [tuple(v) for v in groups.values() if v]
    assert len(legal) == 88 and len(groups) == 88
    assert len(shown) == len(set(shown)) == len(pads.distinct()) < 88  # every different result once
    assert {h for h, _label in shown} == {h for h, _label in shown if h.startswith("Price ")}


async def test_the_table_serves_the_callers_own_area_and_none_to_a_bystander(world: dict[str, Any]) -> None:
    app: App = world["app"]
    game = world["game"]
    for who in ("ann", "bob"):
        c: Client = world[who]
        status, text, headers = await c.call("GET", f"/api/mine.svg?game={game}")
        assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
        seat = (await table_of(c))["you"]
        assert text == svg.mine("smartphone-inc", (await app.info(game)).drawn(await app.view(game, seat)))
    status, data, _ = await world["carl"].call("GET", f"/api/mine.svg?game={game}")
    assert status == 403 and "no seat" in data["error"]
    status, data, _ = await world["anon"].call("GET", f"/api/mine.svg?game={game}")
    assert status == 401


@pytest.mark.parametrize(("name", "kind"), [("smartphone-inc", "research"), ("mobile-markets", "product"),
                                            ("age-of-automaton", "turn")])
def test_the_own_area_shows_the_facts_of_the_discord_picture(name: str, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's area at the table and its private picture in Discord (render.draw of the
    same view): every text of the picture is SVG text of the area (the area may add the
    product's slots), on the texts, not the pixels."""
    view = get_game(name).view(_until(name, kind), "ann")
    aoa_board._prospect_grid.cache_clear()  # (kept sub-pictures draw their texts again)
    aoa_board._track_strip.cache_clear()
    monkeypatch.setattr(kit, "_HEIGHTS", {})  # (a first guess too short would draw each text twice)
    drawn = record_texts(monkeypatch)
    render.draw(name, view)
    monkeypatch.undo()
    in_png = Counter(s for s in drawn if s)
    assert len(in_png) > 20
    area = svg.mine(name, view)
    in_svg = Counter(texts(parse(area)))
    missing = in_png - in_svg
    assert not missing, f"texts of the Discord picture not in the table's area: {list(missing)[:10]}"


async def test_a_draft_that_is_not_one_draws_the_area_alone_and_opens_nothing(world: dict[str, Any]) -> None:
    """``/api/mine.svg?draft=`` as an attacker sends it (issue 35): not JSON, not an object,
    past the size cap, or nested deep, it is left out: the seat's area as its view alone
    draws it, never an error page; a bystander with a draft gets no area either."""
    from urllib.parse import quote

    app: App = world["app"]
    game = world["game"]
    c: Client = world["ann"]
    seat = (await table_of(c))["you"]
    alone = svg.mine("smartphone-inc", (await app.info(game)).drawn(await app.view(game, seat)))
    for bad in ("not json", "[1, 2]", '"top"', "{" * 2000, '{"a": ' * 200 + "1" + "}" * 200,
                '{"top": "' + "x" * 5000 + '"}'):
        status, text, _ = await c.call("GET", f"/api/mine.svg?game={game}&draft={quote(bad)}")
        assert status == 200 and text == alone, bad[:40]
    status, data, _ = await world["carl"].call("GET", f"/api/mine.svg?game={game}&draft={quote('{}')}")
    assert status == 403 and "no seat" in data["error"]
    # past the server's request line (8 KiB): refused before any handler, with no trace
    status, data, _ = await c.call("GET", f"/api/mine.svg?game={game}&draft={quote('{' * 5000)}")
    assert status == 400 and "Traceback" not in str(data)
