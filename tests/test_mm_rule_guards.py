"""Mobile Markets rules that mutation testing found unguarded (tests/MUTANTS.md): each
in a position where the rule decides, the expected values written out."""

from __future__ import annotations

import pytest
from test_mm_sales import company, put_market, sales_state
from test_mm_steve import solo, stack

from engine.errors import IllegalAction
from engine.mobile_markets import flow, sales
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
