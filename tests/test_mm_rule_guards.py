"""Mobile Markets rules that mutation testing found unguarded (tests/MUTANTS.md): each
in a position where the rule decides, the expected values written out."""

from __future__ import annotations

import pytest
from test_mm_sales import company, put_market, sales_state
from test_mm_steve import solo, stack

from engine.errors import IllegalAction
from engine.mobile_markets import displays, flow, market, product, sales, steve_jr
from engine.mobile_markets.game import GAME


def test_steve_jr_sells_in_his_own_sales_turn_MM_SOLO_09():
    """MM-SOLO-09, through the round: in his Sales turn Steve Jr. builds his product and
    sells, before the player's turn. SJ5: price 6, 8K and 2 Stars; the market: a Regular
    8 (R33, bottom) and an 8K-or-8 Complex (C33)."""
    state = solo()
    stack(state, "SJ5")
    state["events"]["revealed"] = ["E3"]
    for col in state["market"]:
        state["market"][col] = []
    sj = state["players"]["steve"]
    sj["price"], sj["goods"], sj["private"] = 6, 3, []
    put_market(state, "C33", "R33")
    flow.enter(state, "sales")
    state["order"] = state["turn"]["order"] = ["steve", "ann"]
    flow.run(state)
    assert sj["product"]["icons"] == ["8k"] and sj["net"] == 6 - 1
    assert sj["sales"] == ["R33", "C33"] and state["market"]["8"] == []
    assert list(GAME.pending(state)) == ["ann"]


def test_progress_tokens_turned_into_goods_are_0_to_those_held_MM_CARD_T2():
    """T2: Progress Tokens become Goods in Sales: a whole number from 0 to the tokens
    held (2 here); -1 would take Goods away."""
    state = sales_state()
    company(state, "p1", 5, features=["F1"], techs=["T2"])
    state["players"]["p1"]["progress"] = 2
    assert sales.parse(state, "p1", {"slots": {}, "tokens": 2}) == ({}, 2)
    assert sales.parse(state, "p1", {"slots": {}, "tokens": 0}) == ({}, 0)
    for bad in (-1, 3, "1", True):
        with pytest.raises(IllegalAction):
            sales.parse(state, "p1", {"slots": {}, "tokens": bad})


def test_t17_feature_cards_cost_one_less_never_below_1_MM_CARD_T17():
    """T17: "Feature cards cost you 1 less (never below 1)": F2 3 -> 2, F1 2 -> 1, F6
    1 -> 1; without T17 the printed costs."""
    state = sales_state()
    company(state, "p1", 5)
    assert [displays.cost(state, "p1", "feature", c) for c in ("F2", "F1", "F6")] == [3, 2, 1]
    state["players"]["p1"]["techs"] = ["T17"]
    assert [displays.cost(state, "p1", "feature", c) for c in ("F2", "F1", "F6")] == [2, 1, 1]


def test_an_empty_display_deck_is_rebuilt_from_its_discard_pile():
    """DATA.md: an empty display deck is rebuilt by shuffling that display's discard
    pile; with both empty nothing is drawn."""
    state = sales_state()
    d = state["displays"]["feature"]
    d["deck"], d["discard"] = [], ["F1", "F2"]
    card = displays.draw(state, "feature")
    assert card in ("F1", "F2") and d["deck"] == [{"F1": "F2", "F2": "F1"}[card]] and d["discard"] == []
    d["deck"], d["discard"] = [], []
    assert displays.draw(state, "feature") is None


def test_e14_regular_customers_consider_the_price_1_lower_MM_CARD_E14():
    """E14: "Regular Customers consider your price 1 lower" (only they)."""
    state = sales_state(event="E14")
    company(state, "p1", 6)
    offer = market.offer(state, "p1", product.evaluate(state, "p1", {}))
    assert offer["price"] == 6 and offer["price_shift"] == {"regular": -1}
    state["events"]["revealed"] = ["E3"]
    assert market.offer(state, "p1", product.evaluate(state, "p1", {}))["price_shift"] == {}


@pytest.mark.parametrize("card,tech_gone", [("SJ1", "T9"), ("SJ3", "T3"), ("SJ2", "T5")])
def test_steve_jr_technology_row_cheapest_expensive_leftmost_MM_SOLO_06(card, tech_gone):
    """MM-SOLO-06: his row names the Technology card he discards (SJ1: the cheapest,
    SJ3: the most expensive, SJ2: the leftmost), then Feature cards from the left.
    The row: T5 (2), T3 (3), T9 (1), T4 (3); Features F13 (2), F19 (3), F6 (1)."""
    state = solo()
    stack(state, card)
    state["events"]["revealed"] = ["E3"]
    state["discounts"] = []
    state["displays"]["technology"]["row"] = ["T5", "T3", "T9", "T4"]
    state["displays"]["feature"]["row"] = ["F13", "F19", "F6"]
    steve_jr.technology(state, "steve")
    tech = [c for c in ["T5", "T3", "T9", "T4"] if c != tech_gone]
    assert state["displays"]["technology"]["row"] == tech
    n = {"SJ1": 1, "SJ3": 1, "SJ2": 2}[card]  # the rows' Feature discards
    assert state["displays"]["feature"]["row"] == ["F13", "F19", "F6"][n:]
