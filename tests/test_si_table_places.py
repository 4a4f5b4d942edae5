"""Where the live table lets a Smartphone Inc. piece go (bot.games.smartphone_inc.table):
every place it lists is one the engine takes, and every place the engine takes is
listed; a plan sent to be drawn is checked for its shape before anything is drawn."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot.games.smartphone_inc import table
from engine import IllegalAction, ai, get_game
from engine.smartphone_inc import pads
from render.smartphone_inc import laying

GAME = get_game("smartphone-inc")


@pytest.fixture(scope="module")
def planning() -> tuple[dict[str, Any], dict[str, Any]]:
    """ann's view and plan prompt in a seeded game, owning two Improvements."""
    state = GAME.setup(["ann", "bob"], 3)
    for _ in range(600):
        pending = GAME.pending(state)
        p = pending.get("ann")
        if p and p["type"] == "plan" and len(p["improvements"]) >= 2:
            return GAME.view(state, "ann"), p
        seat = sorted(pending)[0]
        state = GAME.apply(state, seat, ai.choose("smartphone-inc", state, seat, "greedy"))
    raise AssertionError("no plan with two Improvements")


def legal(plan: dict[str, Any], owned: list[str]) -> bool:
    try:
        pads.validate_plan(plan, owned, False)
    except IllegalAction:
        return False
    return True


def test_the_top_pads_places_are_the_engines(planning: tuple[dict[str, Any], dict[str, Any]]) -> None:
    view, prompt = planning
    draft = table.lay_draft(prompt, laying.default_draft())
    assert draft is not None
    listed = {tuple(e) for e in table.places(prompt, view, "ann", draft)["top"]}
    engine = {
        (a["top"]["side"], a["top"]["rot"], a["top"]["x"], a["top"]["y"])
        for a in pads.all_arrangements()
        if a["bottom"] == {"pad": "A", "side": 0}
    }
    assert listed == engine and len(engine) == 120


def test_an_improvements_places_are_every_one_the_engine_takes(planning: tuple[dict[str, Any], dict[str, Any]]) -> None:
    view, prompt = planning
    owned = list(prompt["improvements"])
    base = {"bottom": {"pad": "B", "side": 1}, "top": {"side": 0, "rot": 1, "x": 1, "y": -1}, "improvements": []}
    draft = table.lay_draft(prompt, base)
    assert draft is not None
    got = table.places(prompt, view, "ann", draft)
    for imp in owned:
        listed = {tuple(e) for e in got[imp]}
        engine = {
            (x, y, rot, layer)
            for x, y, rot, layer in itertools.product(range(-4, 6), range(-4, 6), range(4), pads.LAYERS)
            if legal({**base, "improvements": [{"id": imp, "x": x, "y": y, "rot": rot, "layer": layer}]}, owned)
        }
        assert listed == engine and engine, imp
    # the cells the top Pad shows (its letter), none of the bottom Pad's
    assert set(got["occupied"].values()) == {"A"} and len(got["occupied"]) == 6


@pytest.mark.parametrize(
    "raw",
    [
        None,
        [],
        {"bottom": {"pad": "C", "side": 0}, "top": {"side": 0, "rot": 0, "x": 1, "y": 1}},
        {"bottom": {"pad": "A", "side": 2}, "top": {"side": 0, "rot": 0, "x": 1, "y": 1}},
        {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 9, "x": 1, "y": 1}},
        {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": 10**9, "y": 1}},
        {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": True, "y": 1}},
        {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": 1, "y": 1}, "improvements": [{"id": "I99", "x": 0, "y": 0, "rot": 0}]},
        {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": None, "y": None}, "improvements": [{"id": "S-green", "x": 0, "y": 0, "rot": 0}]},
    ],
)
def test_a_plan_sent_to_be_drawn_of_the_wrong_shape_is_not_drawn(raw: Any, planning: tuple[dict[str, Any], dict[str, Any]]) -> None:
    _view, prompt = planning
    assert table.lay_draft(prompt, raw) is None
    assert table.lay_draft({"type": "research"}, laying.default_draft()) is None  # (no plan to lay)
