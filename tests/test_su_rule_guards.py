"""Update 1.1 New Technologies: five rules that no test guarded (issue 23), each in a
position where the rule decides the outcome, with the expectation written out from the
rulebook (002, "New Technologies Module") and the board data (regions.json).

North Africa's Buyers: 4, Gamepad, 3, NFC. China's: 5, 3, 4G, 4, Li-Ion.
p2 (blue) starts with its Office in North Africa."""

from __future__ import annotations

import pytest
from si_support import act, act_here, new_game, outcome, reveal_with
from test_su_technologies import with_tech

from engine import IllegalAction
from engine.smartphone_inc import new_technologies, scoring, selling
from engine.smartphone_inc.game import GAME


def test_one_marketing_token_a_round_even_with_another_region_open_SU_TEC_07():
    """SU-TEC-07: "Once per round ... place your Marketing Token". p2 has Offices in two
    regions, so after its first Token the region rule still leaves China open: only the
    once-a-round rule closes it."""
    state = with_tech(new_game(3, technologies="overproduction"), "p2", "world-nfc")
    state["regions"]["china"]["offices"].append("p2")
    state = reveal_with(state, {"p2": outcome(research=2, down=1)})
    prompt = GAME.pending(state)["p2"]
    # leftmost and rightmost empty Buyer of each region with p2's Office
    assert prompt["token"] == [["china", 0], ["china", 4], ["north-africa", 0], ["north-africa", 3]]
    state = act_here(state, "p2", {"type": "research", "place": {}, "token": ["north-africa", 3]})
    assert state["turn"]["left"] == 1  # p2 still has a Research marker to spend
    assert "token" not in GAME.pending(state)["p2"]
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "research", "place": {}, "token": ["china", 0]})
    assert new_technologies.token_places(state, "p2") == []
    state["round"] = 2  # the next round: China again, North Africa no more (a Token of p2's)
    assert new_technologies.token_places(state, "p2") == [["china", 0], ["china", 4]]


def test_gamepad_ceo_sells_to_a_buyer_under_another_companys_token_SU_TEC_03_SU_TEC_07():
    """SU-TEC-07: only the Token's owner may sell to that Buyer, "Exception - a CEO
    Technology that lets you sell to all Buyers" (SU-TEC-03)."""
    state = with_tech(new_game(3, technologies="overproduction"), "p2", "ceo-gamepad")
    state["phase"] = "selling"
    state["players"]["p2"]["price"] = 9  # no price Buyer would buy at 9
    state["marketing"] = {"north-africa": {"0": "p1"}}  # p1's Token on Buyer 1 (the 4)
    assert selling.free_willing(state, "p2", "north-africa") == [0, 1, 2, 3]
    # without the CEO there, p2 sells only to the Gamepad Buyer, and never to p1's
    state["ceo"]["p2"] = "china"
    assert selling.free_willing(state, "p2", "north-africa") == [1]
    state["marketing"] = {"north-africa": {"1": "p1"}}
    assert selling.free_willing(state, "p2", "north-africa") == []


def test_the_ceo_needs_the_companys_office_in_its_region_SU_TEC_02_SU_TEC_03():
    """SU-TEC-02/03: the CEO's power works "in a region with your Office marker and
    CEO": a CEO in China, where p2 has no Office, does nothing there."""
    state = with_tech(new_game(3, technologies="overproduction"), "p2", "ceo-gamepad")
    state["phase"] = "selling"
    state["players"]["p2"]["price"] = 9
    state["ceo"]["p2"] = "china"
    assert new_technologies.ceo_region(state, "p2") is None
    assert selling.free_willing(state, "p2", "china") == []  # 9 is too dear; no 4G, no Li-Ion
    state["regions"]["china"]["offices"].append("p2")
    assert new_technologies.ceo_region(state, "p2") == "china"
    assert selling.free_willing(state, "p2", "china") == [0, 1, 2, 3, 4]
    # the Wi-Fi CEO: no sale at the end of Logistics in China without an Office there
    state = with_tech(new_game(3, technologies="first-add-on-game"), "p2", "ceo-wi-fi")
    state["phase"] = "logistics"
    p2 = state["players"]["p2"]
    p2["price"], p2["goods"] = 3, 4
    state["ceo"]["p2"] = "china"
    assert selling.ceo_sell_prompt(state, "p2") is None
    state["regions"]["china"]["offices"].append("p2")
    # China at 3: the 5, the 3 and the 4 buy; 4G and Li-Ion do not
    assert selling.ceo_sell_prompt(state, "p2") == {"type": "ceo_sell", "region": "china", "max": 3, "price": 3}


def test_second_goods_only_for_a_technology_whose_patent_is_held_SU_TEC_04():
    """SU-TEC-04: "2 Goods to each Buyer who wants a Technology you have the Patent for":
    owning the Technology (NFC, no Patent) is not enough; a Patent held (later NFC's)
    is, "not only this Technology"."""
    state = with_tech(new_game(3, technologies="first-add-on-game"), "p2", "patent-gamepad")
    p2 = state["players"]["p2"]
    assert p2["patents"] == ["gamepad"]
    p2["techs"].append("nfc")  # the Technology, not its Patent
    state["phase"] = "selling"
    state["regions"]["north-africa"]["sold"] = [None, "p2", None, "p2"]  # Gamepad and NFC Buyers
    assert new_technologies.second_places(state, "p2") == {"north-africa": [1]}
    p2["patents"].append("nfc")
    assert new_technologies.second_places(state, "p2") == {"north-africa": [1, 3]}


def test_spatial_goods_only_for_regions_controlled_in_first_place_SU_TEC_09():
    """SU-TEC-09: "You don't produce these if you are in second place for control - only
    if you are the first." p2 is first in North Africa and second in China: 1 Goods."""
    state = with_tech(new_game(5, technologies="overproduction"), "p2", "spatial-goods")
    state["phase"] = "vp"
    state["regions"]["north-africa"]["sold"] = ["p2", None, None, None]
    china = state["regions"]["china"]
    china["offices"] += ["p1", "p2"]
    china["sold"] = ["p1", "p1", None, "p2", None]  # p1 2 Goods, p2 1: p2 second
    p2 = state["players"]["p2"]
    goods, supply = p2["goods"], p2["supply"]
    scoring.receive_vp(state)
    assert p2["goods"] == goods + 1 and p2["supply"] == supply - 1


def test_spatial_goods_not_for_a_second_place_that_pays_vp_SU_TEC_09():
    """SU-TEC-09 where second place pays (issue 34 §4): the test above puts p2 second in
    China with 2 Offices there, where second place pays nothing, so an engine counting
    every region that pays p2 control VP still gave 1 Goods. With 3 Offices in China
    second place pays 3 VP (regions.json: China's third space, 6 VP / 3 VP): p2 is first
    in North Africa (its Office alone, 1 VP) and second in China. 1 Goods, not 2."""
    state = with_tech(new_game(5, technologies="overproduction"), "p2", "spatial-goods")
    state["phase"] = "vp"
    state["regions"]["north-africa"]["sold"] = ["p2", None, None, None]
    china = state["regions"]["china"]
    china["offices"] += ["p1", "p2", "p3"]
    china["sold"] = ["p1", "p1", None, "p2", None]  # p1 2 Goods, p2 1: p2 second
    p2 = state["players"]["p2"]
    goods, supply = p2["goods"], p2["supply"]
    scoring.receive_vp(state)
    assert state["last_round"]["control"] == {"china": {"p1": 6, "p2": 3}, "north-africa": {"p2": 1}}
    assert p2["goods"] == goods + 1 and p2["supply"] == supply - 1
    assert any("p2 produces 1 Goods for the next round" in line for line in state["log"])


# --- found by mutation testing (tests/MUTANTS.md) -----------------------------------------------


def test_gamepad_discount_in_every_research_cost_SI_TECH_07_SI_RES_06():
    """SI-RES-06: a Technology costs its printed Progress markers, +1 while nobody holds
    its Patent; SI-TECH-07 (Gamepad side 0): 1 less for its owner. Printed: GPS 4,
    Wi-Fi 4, Gamepad 5, NFC 5, Li-Ion 6, 4G 5."""
    from engine.smartphone_inc import common, technologies

    state = new_game(3)
    technologies.gain(state, "p1", "gamepad")  # p1 now holds the Gamepad Patent
    assert common.tech_costs(state, "p2") == {"gps": 5, "wi-fi": 5, "gamepad": 5, "nfc": 6, "li-ion": 7, "4g": 6}
    assert common.tech_costs(state, "p1") == {"gps": 4, "wi-fi": 4, "gamepad": 4, "nfc": 5, "li-ion": 6, "4g": 5}


def test_the_wi_fi_ceo_sells_at_most_what_its_region_buys_SU_TEC_02():
    """SU-TEC-02: the CEO's sale is limited to the Buyers who would buy (2 here)."""
    state = with_tech(new_game(3, technologies="first-add-on-game"), "p2", "ceo-wi-fi")
    state = reveal_with(state, {"p2": outcome(covered=4, down=2)})  # price 3, 4 Goods
    assert GAME.pending(state)["p2"]["max"] == 2
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "ceo_sell", "sell": 3})


def test_second_goods_may_use_the_last_goods_SU_TEC_04():
    """SU-TEC-04: a company with exactly 1 Goods left may sell it as a second Goods."""
    state = with_tech(new_game(3, technologies="first-add-on-game"), "p2", "patent-gamepad")
    state = reveal_with(state, {"p2": outcome(covered=4)})  # the Gamepad Buyer bought
    state["players"]["p2"]["goods"] = 1
    state = act_here(state, "p2", {"type": "second_sell", "regions": {"north-africa": 1}})
    assert state["seconds"] == {"north-africa": [1]} and state["players"]["p2"]["goods"] == 0
