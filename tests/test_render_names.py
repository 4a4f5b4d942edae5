"""No internal id in the pictures: Improvements ("I16"), Mini-upgrades ("M1") and
starting Improvements ("S-green") are shown by their tiles' symbols, the word "Mini" on
a Mini-upgrade's open half, and captions such as "Starting", "Mini-upgrade" or a place
in a list ("No. 2"), never by the engine's ids (players never see those in text)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from render_support import record_texts

import render
from engine import get_game
from engine.smartphone_inc.data import IMPROVEMENTS
from tests.test_render_update import planning_with_a_mini_upgrade

GAME = "smartphone-inc"
REF = Path(__file__).resolve().parent / "reference"
ID = re.compile(r"\b(I\d\d|M\d|S-[a-z]+)\b")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return record_texts(monkeypatch)


def test_the_pattern_finds_every_id() -> None:
    assert all(ID.search(f"take {imp} now") for imp in IMPROVEMENTS)


@pytest.mark.parametrize(
    "name", ["board-round3", "board-end-5p", "private-planning", "private-sell", "plan-preview", "compact-improvement"]
)
def test_reference_pictures_name_no_improvement_by_id(name: str, drawn: list[str]) -> None:
    """The Improvement Block, Steve's delayed Improvement, the Improvement lists, the plan
    preview and the choice of an Improvement (private and compact pictures)."""
    case = json.loads((REF / f"{name}.json").read_text("utf-8"))
    if "plan" in case:
        render.draw_plan(GAME, case["view"], case["plan"])
    else:
        render.draw(GAME, case["view"])
        if case["view"].get("prompt"):
            render.draw_compact(GAME, case["view"])
    assert drawn, "nothing recorded"
    assert [s for s in drawn if ID.search(s)] == []


def test_mini_upgrades_are_named_by_words(drawn: list[str]) -> None:
    """A seat that owns a Mini-upgrade: its private picture and its plan preview."""
    from engine.smartphone_inc.data import MINI_UPGRADES

    g = get_game(GAME)
    state, seat = planning_with_a_mini_upgrade()
    view = g.view(state, seat)
    render.draw(GAME, view)
    plans = [a for a in g.legal_actions(state, seat) if a["type"] == "plan"]
    with_mini = next(a for a in plans if any(i["id"] in MINI_UPGRADES for i in a["plan"]["improvements"]))
    render.draw_plan(GAME, view, with_mini["plan"])
    assert "Mini" in drawn and "Mini-upgrade" in drawn
    assert [s for s in drawn if ID.search(s)] == []
