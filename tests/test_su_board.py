"""Smartphone Inc. Update 1.1, 2-3 player board: the pieces the base engine already
has (SU-BRD-03 the 3-space Improvement Block, also on the big board; SU-BRD-04 mixed
Buyers in the selling rules). The board's own map and start picks are not built yet."""

from __future__ import annotations

from si_support import new_game, pass_turns, reveal_with

from engine.smartphone_inc import selling, technologies
from engine.smartphone_inc.data import REGIONS


def test_three_improvements_a_round_SU_BRD_03():
    """SU-BRD-03: with the 3-space Block, 3 Improvements are available each round."""
    state = new_game(3, block_size=3)
    assert len(state["block"]) == 3 and len(state["pile"]) == 24
    state = reveal_with(state, {}, "improve")
    state = pass_turns(state, "planning")
    assert state["round"] == 2 and len(state["block"]) == 3 and len(state["pile"]) == 21


def test_mixed_buyer_either_demand_one_goods_left_to_right_SU_BRD_04():
    """SU-BRD-04: a mixed Buyer buys if either demand is met; still 1 Goods per Buyer;
    left to right, not skipped when either demand is met."""
    state = new_game(5)
    mixed = {"price": 3, "tech": "gps"}
    state["players"]["p2"]["price"] = 5
    assert not selling.willing(state, "p2", mixed)  # neither
    state["players"]["p2"]["price"] = 3
    assert selling.willing(state, "p2", mixed)  # the price
    state["players"]["p2"]["price"] = 6
    technologies.gain(state, "p2", "gps")
    assert selling.willing(state, "p2", mixed)  # the Technology
    state["players"]["p2"]["price"] = 3
    assert selling.willing(state, "p2", mixed)  # both: still one Buyer
    # a region whose first Buyer is mixed: it is served first, once
    saved = REGIONS["north-africa"]["buyers"]
    try:
        REGIONS["north-africa"]["buyers"] = [mixed, {"price": 4}, {"tech": "nfc"}, {"price": 2}]
        state["players"]["p2"]["goods"] = 3
        state["regions"]["north-africa"]["sold"] = [None] * 4
        assert selling.free_willing(state, "p2", "north-africa") == [0, 1]
        assert selling.place(state, "p2", "north-africa", 3) == 2
        assert state["regions"]["north-africa"]["sold"] == ["p2", "p2", None, None]
    finally:
        REGIONS["north-africa"]["buyers"] = saved
