"""Mobile Markets component data: counts, sources, the Pads' geometry, the rulebook's
own cards (MM-SET-03, MM-PLAN-02, MM-PLAN-03)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from mm_support import PLAN_EX1, PLAN_EX2

from engine import IllegalAction
from engine.mobile_markets import effects, pads
from engine.mobile_markets.data import (
    CAMPAIGNS,
    CUSTOMERS,
    EVENTS,
    FEATURE_CARDS,
    PADS,
    SETUP,
    STARTING_FEATURES,
    STARTING_TECHS,
    STEVE_CARDS,
    TECHS,
)

DATA = Path(__file__).resolve().parent.parent / "engine" / "mobile_markets" / "data"


def test_every_item_has_a_source_and_data_md_lists_the_files():
    for path in DATA.glob("*.json"):
        obj = json.loads(path.read_text())
        items = [v for v in obj.values() if isinstance(v, list)]
        for group in items:
            for item in group:
                assert item["source"] in ("rulebook", "reconstructed"), (path.name, item)
    text = (DATA.parent / "DATA.md").read_text()
    for path in DATA.glob("*.json"):
        assert path.name in text


def test_counts_MM_SET_03():
    """MM-SET-03: 108 Customers, 36 of each type, prices 2-8; Regular ones have no needs."""
    kinds = Counter(c["type"] for c in CUSTOMERS.values())
    assert kinds == {"variety": 36, "regular": 36, "complex": 36}
    assert {c["price"] for c in CUSTOMERS.values()} == set(range(2, 9))
    assert all(not c["needs"] and not c["stars"] for c in CUSTOMERS.values() if c["type"] == "regular")
    assert all(c["needs"] or c["stars"] for c in CUSTOMERS.values() if c["type"] != "regular")
    assert (len(EVENTS), len(TECHS), len(STARTING_TECHS), len(FEATURE_CARDS), len(STARTING_FEATURES), len(CAMPAIGNS), len(STEVE_CARDS)) == (
        15, 30, 6, 30, 5, 30, 16,
    )
    assert sorted(EVENTS) == sorted(f"E{i}" for i in range(1, 16))
    assert sorted(STARTING_TECHS) == [f"TS{i}" for i in range(1, 7)]
    assert [STARTING_TECHS[f"TS{i}"]["initiative"] for i in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert sorted(SETUP) == ["1", "2", "3", "4"]


def test_rulebook_customer_examples_are_in_the_deck():
    """The Complex Customer at 7 wanting 8K / 5G, and the Variety-seeking one at 3 who
    buys at any price with Multi-Camera and 3 Stars (MM-SALE-06, MM-SALE-07)."""
    assert any(c["type"] == "complex" and c["price"] == 7 and c["needs"] == [["8k"], ["5g"]] and not c["stars"] for c in CUSTOMERS.values())
    assert any(c["type"] == "variety" and c["price"] == 3 and c["needs"] == [["camera"]] and c["stars"] == 3 for c in CUSTOMERS.values())


def test_pads_have_two_sides_of_five_cells_with_one_or_two_symbols_MM_PLAN_03():
    """MM-PLAN-03: each Pad side has 5 cells; a cell holds one or two symbols."""
    assert sorted(PADS) == ["A", "B"]
    for sides in PADS.values():
        assert len(sides) == 2
        for side in sides:
            assert len(side) == 5 and all(1 <= len(cell) <= 2 for cell in side)
    assert any(len(cell) == 2 for sides in PADS.values() for side in sides for cell in side)


def test_pad_geometry_MM_PLAN_02():
    """MM-PLAN-02: one Pad on the other, at least 1 lower square covered and 1 visible,
    whole squares only: along (1-4 cells at an end) or across (one cell)."""
    shapes = pads.cover_shapes()
    assert len(shapes) == 11
    assert all(1 <= len(s) <= 4 for s in shapes)
    assert (0, 1, 2) in shapes and (3, 4) in shapes and (2,) in shapes
    assert len(pads.arrangements()) == 88
    for bad in ([], [0, 1, 2, 3, 4], [1, 3], [1, 2], [0, 2, 4]):
        with pytest.raises(IllegalAction):
            pads.validate({**PLAN_EX1, "cover": bad})
    for o in map(pads.evaluate, pads.arrangements()):
        assert 1 <= o["covered"] <= 4 and o["visible"] == 10 - o["covered"]


def test_planning_examples_MM_PLAN_05():
    """MM-PLAN-05 (ex 1): +1 price, 3 Technology, 2 Marketing, 2 Goods, 2 covered;
    (ex 2): no price change, 3 Technology, 1 Marketing, 3 Goods, 2 covered."""
    ex1 = pads.evaluate(PLAN_EX1)
    assert (ex1["up"] - ex1["down"], ex1["tech"], ex1["mkt"], ex1["prod"], ex1["covered"]) == (1, 3, 2, 2, 2)
    assert pads.goods(ex1) == 4
    ex2 = pads.evaluate(PLAN_EX2)
    assert (ex2["up"] - ex2["down"], ex2["tech"], ex2["mkt"], ex2["prod"], ex2["covered"]) == (0, 3, 1, 3, 2)
    assert pads.goods(ex2) == 5


def test_prices_2_and_8_are_reachable_by_pads():
    changes = {o["up"] - o["down"] for o in map(pads.evaluate, pads.arrangements())}
    assert min(changes) <= -3 and max(changes) >= 3


def test_effect_vocabulary_is_known_to_the_interpreter():
    effects.validate_vocabulary()
    slots = {t: TECHS[t].get("slot") for t in ("T3", "T4", "T9")}
    assert slots == {"T3": "free", "T4": "double", "T9": "plain"}


def test_distinct_plan_effects_for_a_planner():
    choices = pads.distinct()
    keys = {(c["price"], c["tech"], c["mkt"], c["goods"]) for c in choices}
    assert len(keys) == len(choices) > 20
    for c in choices:
        o = pads.evaluate(c["plan"])
        assert (o["up"] - o["down"], o["tech"], o["mkt"], pads.goods(o)) == (c["price"], c["tech"], c["mkt"], c["goods"])
