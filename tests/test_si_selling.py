"""Smartphone Inc. Phase 7 Selling, control of regions, Phase 8 and the end of the game."""

from __future__ import annotations

import pytest
from si_support import act, act_here, new_game, outcome, pass_turns, reveal_with

from engine import IllegalAction
from engine.smartphone_inc import control, scoring, selling, technologies
from engine.smartphone_inc.data import REGIONS, TECHS
from engine.smartphone_inc.game import GAME


def test_selling_example_4_goods_price_3_SI_SELL_06():
    """SI-SELL-06 (ex): 4 Goods at price 3 with Gamepad and 4G in one region whose last
    Buyer wants NFC: 3 are sold, 1 is lost."""
    state = new_game(5)
    technologies.gain(state, "p2", "gamepad")
    technologies.gain(state, "p2", "4g")
    assert REGIONS["north-africa"]["buyers"][-1] == {"tech": "nfc"}
    state = reveal_with(state, {"p2": outcome(covered=4, down=2)}, "vp")
    assert state["players"]["p2"]["price"] == 3
    assert state["regions"]["north-africa"]["sold"] == ["p2", "p2", "p2", None]
    assert state["players"]["p2"]["goods"] == 0  # the 4th disappears at the end of the phase


def test_selling_in_priority_order_SI_SELL_01():
    """SI-SELL-01: the lower price sells first and takes the leftmost Buyers."""
    state = new_game(5)
    state["regions"]["north-africa"]["offices"] = ["p2", "p1"]
    state = reveal_with(state, {"p1": outcome(covered=2, down=2), "p2": outcome(covered=2, down=1)})
    assert state["phase"] == "selling" and list(GAME.pending(state)) == ["p1"]
    state = act_here(state, "p1", {"type": "sell", "regions": {"north-africa": 2}})
    assert state["regions"]["north-africa"]["sold"] == ["p1", None, "p1", None]


def test_sell_only_with_office_no_retailer_willing_buyer_SI_SELL_02():
    """SI-SELL-02: an Office, no Retailer, and a willing free Buyer."""
    state = new_game(5)
    state["players"]["p1"]["goods"] = 5
    assert selling.capacities(state, "p1") == ({}, {})  # price 5: no Buyer of South America pays 5
    state["players"]["p1"]["price"] = 3
    assert selling.capacities(state, "p1") == ({"south-america": 2}, {})  # R3, R4; no 4G, no Office elsewhere
    state["regions"]["south-america"]["retailer"] = {"id": "R1", "side": 0}
    assert selling.capacities(state, "p1") == ({}, {})


def test_red_buyer_at_its_price_or_lower_SI_SELL_03():
    """SI-SELL-03: a red Buyer pays at most its price; a lower price is welcome."""
    state = new_game(5)
    buyer = {"price": 4}
    for price, ok in [(3, True), (4, True), (5, False)]:
        state["players"]["p1"]["price"] = price
        assert selling.willing(state, "p1", buyer) is ok


def test_purple_buyer_needs_the_technology_SI_SELL_04():
    """SI-SELL-04: a purple Buyer buys at any price from a company with its Technology."""
    state = new_game(5)
    state["players"]["p1"]["price"] = 9
    assert not selling.willing(state, "p1", {"tech": "gps"})
    technologies.gain(state, "p1", "gps")
    assert selling.willing(state, "p1", {"tech": "gps"})


def test_one_goods_per_buyer_SI_SELL_05():
    """SI-SELL-05: one Goods per Buyer; a bought-from Buyer is no longer free."""
    state = new_game(5)
    state["regions"]["north-africa"]["sold"] = ["p1", None, None, None]
    state["players"]["p2"]["price"] = 3
    assert selling.free_willing(state, "p2", "north-africa") == [2]


def test_cannot_sell_more_than_the_willing_buyers():
    state = new_game(5)
    state["regions"]["north-africa"]["offices"] = ["p2", "p1"]
    state = reveal_with(state, {"p1": outcome(covered=3, down=2), "p2": outcome(covered=4, down=1)})
    assert GAME.pending(state)["p1"]["regions"] == {"north-africa": 2, "south-america": 2}
    with pytest.raises(IllegalAction, match="only 2 Buyer"):
        act(state, "p1", {"type": "sell", "regions": {"north-africa": 3}})
    with pytest.raises(IllegalAction, match="must sell while you can"):
        act(state, "p1", {"type": "sell", "regions": {}})
    # region by region: 2 or 1 in either region
    assert len(GAME.legal_actions(state, "p1")) == 4
    state = act(state, "p1", {"type": "sell", "regions": {"north-africa": 1}})
    assert GAME.pending(state)["p1"]["regions"] == {"north-africa": 1, "south-america": 2}
    state = act(state, "p1", {"type": "sell", "regions": {"north-africa": 1}})
    assert state["round"] == 2  # the last one could only go to South America: sold at once
    assert "p1 sells 1 Goods in South America." in GAME.events(state)


def test_unsold_goods_lost_SI_SELL_07_and_kept_with_wifi_SI_TECH_06():
    """SI-SELL-07 / SI-TECH-06: unsold Goods are lost, except with Wi-Fi (side 1)."""
    state = new_game(5, tech_sides={"wi-fi": 1})
    technologies.gain(state, "p1", "wi-fi")
    state = reveal_with(state, {"p1": outcome(covered=4, down=2), "p2": outcome(covered=4, down=2)}, "vp")
    assert state["regions"]["south-america"]["sold"].count("p1") == 2  # R3 and R4 at price 3
    assert state["players"]["p1"]["goods"] == 2  # kept for the next round
    assert state["regions"]["north-africa"]["sold"].count("p2") == 2
    assert state["players"]["p2"]["goods"] == 0 and state["players"]["p2"]["supply"] == 16


def test_4g_sells_one_where_no_office_SI_TECH_14():
    """SI-TECH-14: 4G (side 1): 1 Goods in each region without your Office, to a Buyer
    the selling rules allow."""
    state = new_game(5, tech_sides={"4g": 1})
    technologies.gain(state, "p2", "4g")
    state["players"]["p2"]["goods"] = 6
    state["players"]["p2"]["price"] = 3
    main, extra = selling.capacities(state, "p2")
    assert main == {"north-africa": 2}  # R4 and R3; the Gamepad and NFC Buyers are passed over
    assert all(n == 1 for n in extra.values()) and "north-africa" not in extra
    assert "usa" in extra and "china" in extra


def test_control_goes_to_most_goods_rightmost_office_vp_SI_CTRL_01():
    """SI-CTRL-01 (ex): blue sold more than yellow and scores the 2 VP shown above the
    rightmost Office, although that Office is yellow's."""
    state = new_game(5)  # p2 blue, p4 yellow
    state["regions"]["india"]["offices"] = ["p2", "p4"]
    state["regions"]["india"]["sold"] = ["p2", "p4", "p2", None]
    assert REGIONS["india"]["spaces"][1]["vp"] == 2
    assert control.control_vp(state, "india") == {"p2": 2}


def test_no_control_vp_without_a_sale_SI_CTRL_02():
    """SI-CTRL-02: no control VP where a company sold nothing."""
    state = new_game(5)
    state["regions"]["india"]["offices"] = ["p4", "p2"]
    assert control.control_vp(state, "india") == {}
    state["regions"]["india"]["sold"] = [None, "p2", None, None]
    assert control.control_vp(state, "india") == {"p2": 2}


def test_second_place_and_ties_to_the_left_SI_CTRL_03_SI_CTRL_04():
    """SI-CTRL-03/04 (ex): blue, green and red sold the same; blue's Office is leftmost:
    6 VP; green beats red for second place (3 VP)."""
    state = new_game(5)  # p1 green, p2 blue, p5 red
    state["regions"]["china"]["offices"] = ["p2", "p1", "p5"]
    state["regions"]["china"]["sold"] = ["p5", "p1", "p2", None, None]
    space = REGIONS["china"]["spaces"][2]
    assert (space["vp"], space["vp2"]) == (6, 3)
    assert control.control_vp(state, "china") == {"p2": 6, "p1": 3}
    state["regions"]["china"]["offices"] = ["p2", "p1"]
    assert REGIONS["china"]["spaces"][1].get("vp2") is None
    assert control.control_vp(state, "china") == {"p2": 4}


def test_receive_vp_goods_times_price_plus_control_SI_VP_01():
    """SI-VP-01: Goods on the board x price + control VP."""
    state = new_game(5)
    state["phase"] = "vp"
    state["players"]["p2"]["price"] = 3
    state["regions"]["north-africa"]["sold"] = ["p2", "p2", "p2", None]
    before = state["players"]["p2"]["vp"]
    scoring.receive_vp(state)
    assert state["players"]["p2"]["vp"] == before + 3 * 3 + 1  # 1 Office: the first space shows 1 VP


def test_next_round_reset_SI_VP_02():
    """SI-VP-02: Goods leave the board, prices reset to 5, the round advances."""
    state = new_game(5)
    state = reveal_with(state, {"p2": outcome(covered=3, down=2)}, "vp")
    assert state["regions"]["north-africa"]["sold"] == ["p2", None, "p2", None]
    state = pass_turns(state, "planning")
    assert state["round"] == 2
    assert all(s is None for reg in state["regions"].values() for s in reg["sold"])
    assert state["players"]["p2"]["price"] == 5 and state["players"]["p2"]["supply"] == 18


def play_to_end(state, kind="random"):
    from engine.ai import choose

    while not GAME.is_over(state):
        seat = sorted(GAME.pending(state))[0]
        state = GAME.apply(state, seat, choose("smartphone-inc", state, seat, kind))
    return state


def test_game_ends_after_round_5_phase_8_SI_END_01():
    """SI-END-01: the game ends right after Phase 8 of round 5."""
    state = play_to_end(new_game(3))
    assert state["round"] == 5 and state["phase"] == "over"
    assert GAME.pending(state) == {}
    with pytest.raises(IllegalAction):
        GAME.apply(state, "p1", {"type": "plan"})


def test_final_vp_adds_patents_and_retailers_SI_END_02():
    """SI-END-02: final VP = VP scored + Patents + Retailer VP."""
    state = new_game(3)
    technologies.gain(state, "p1", "nfc")
    rid = next(r for r, reg in state["regions"].items() if reg["retailer"])
    state["regions"][rid]["offices"] = ["p1"]
    state["players"]["p1"]["vp"] = 10
    row = next(r for r in scoring.final_scores(state)["scores"] if r["seat"] == "p1")
    ret = state["regions"][rid]["retailer"]
    from engine.smartphone_inc.data import RETAILERS

    first = RETAILERS[ret["id"]]["sides"][ret["side"]]["vp"][0]
    assert row["vp"] == 10 + TECHS["nfc"]["patent_vp"] + first


def test_ties_most_technologies_then_patents_then_shared_SI_END_03():
    """SI-END-03: ties broken by most Technologies, then most Patents, else shared.
    The Technology count decides before the Patents: p1 (3 Technologies, no Patent)
    beats p2 (2 Technologies, 1 Patent) on equal totals; equal Technologies, the
    Patent decides; equal both, the victory is shared."""
    state = new_game(3)
    for s in state["seats"]:
        state["players"][s]["vp"] = 20
    patent = TECHS["wi-fi"]["patent_vp"]
    state["players"]["p1"]["techs"] = ["gps", "nfc", "4g"]
    state["players"]["p2"]["techs"] = ["gps", "wi-fi"]
    state["players"]["p2"]["patents"] = ["wi-fi"]
    state["players"]["p1"]["vp"] = 20 + patent  # equal totals with p2's Patent
    res = scoring.final_scores(state)
    assert [r["vp"] for r in res["scores"][:2]] == [20 + patent, 20 + patent]
    assert res["winners"] == ["p1"]
    assert [r["seat"] for r in res["scores"]] == ["p1", "p2", "p3"]
    # equal Technologies: the Patent decides
    state["players"]["p1"]["techs"] = ["gps", "nfc"]
    res = scoring.final_scores(state)
    assert res["winners"] == ["p2"]
    assert [(r["seat"], r["rank"]) for r in res["scores"]] == [("p2", 1), ("p1", 2), ("p3", 3)]
    # equal Technologies and Patents: shared
    state["players"]["p2"]["patents"] = []
    state["players"]["p2"]["vp"] = 20 + patent
    res = scoring.final_scores(state)
    assert sorted(res["winners"]) == ["p1", "p2"]
    assert [r["rank"] for r in res["scores"]] == [1, 1, 3]


def test_sellable_at_counts_willing_free_buyers_in_office_regions_SI_SELL_03():
    """The planner's estimate (issue 7): SI-SELL-03 Buyers willing at a price, only where
    the company has an Office; a view gives the same figure as the state."""
    from engine.smartphone_inc.game import GAME
    from engine.smartphone_inc.selling import sellable_at

    state = new_game(2)
    seat = "p1"
    offices = [r for r, reg in state["regions"].items() if seat in reg["offices"]]
    assert offices
    by_hand = 0
    for rid in offices:
        reg = state["regions"][rid]
        if reg["retailer"] is None:
            by_hand += sum(1 for i, b in enumerate(REGIONS[rid]["buyers"]) if reg["sold"][i] is None and b.get("price", 0) >= 5)
    assert sellable_at(state, seat, 5) == by_hand
    assert sellable_at(GAME.view(state, seat), seat, 5) == by_hand
    assert sellable_at(state, seat, 1) >= sellable_at(state, seat, 5) >= sellable_at(state, seat, 9)
