"""Smartphone Inc. Retailers and their bonuses (SI-RET-01..09)."""

from __future__ import annotations

import pytest
from si_support import act, act_here, new_game, outcome, pass_turns, reveal_with

from engine import IllegalAction
from engine.smartphone_inc import selling
from engine.smartphone_inc.common import tech_cost
from engine.smartphone_inc.game import GAME
from engine.smartphone_inc.scoring import final_scores, retailer_vp


def game_with_retailer(rid: str, retailer: str, side: int, offices=None, logistics_p2: int = 3, **outs):
    state = new_game(5)
    state["regions"][rid]["retailer"] = {"id": retailer, "side": side}
    if offices is not None:
        state["regions"][rid]["offices"] = offices
    outcomes = {"p2": outcome(logistics=logistics_p2)}
    outcomes.update(outs)
    state = reveal_with(state, outcomes)
    assert state["phase"] == "logistics"
    return state


def test_no_selling_where_a_retailer_stands_SI_RET_01():
    """SI-RET-01: Goods cannot be sold in a region covered by a Retailer."""
    state = new_game(3)
    rid = next(r for r, reg in state["regions"].items() if reg["retailer"])
    state["regions"][rid]["offices"].append("p1")
    state["players"]["p1"]["goods"] = 3
    assert selling.free_willing(state, "p1", rid) == []
    assert rid not in selling.capacities(state, "p1")[0]


def test_offices_on_retailer_spaces_left_to_right_SI_RET_02():
    """SI-RET-02: Offices go on the Retailer's spaces left to right; earlier = more VP."""
    state = game_with_retailer("emirates", "R5", 0, offices=["p4"], logistics_p2=2)  # VP [3, 1]
    state = act(state, "p2", {"type": "logistics", "place": [["emirates", 2]]})
    assert state["regions"]["emirates"]["offices"] == ["p4", "p2"]
    assert retailer_vp(state, "p4") == 3 and retailer_vp(state, "p2") == 1
    rows = {r["seat"]: r for r in final_scores(state)["scores"]}
    assert rows["p4"]["retailer_vp"] == 3


def test_bonus_offered_and_may_be_declined_SI_RET_03():
    """SI-RET-03: the one-time bonus on placing an Office; it may be declined; some have none."""
    state = game_with_retailer("emirates", "R4", 0, logistics_p2=2)  # goods 1
    state = act(state, "p2", {"type": "logistics", "place": [["emirates", 2]]})
    prompt = GAME.pending(state)["p2"]
    assert prompt["type"] == "retailer_bonus" and prompt["bonus"] == {"kind": "goods", "n": 1}
    goods = state["players"]["p2"]["goods"]
    declined = act_here(state, "p2", {"type": "retailer_bonus", "use": False})
    assert declined["players"]["p2"]["goods"] == goods
    none = game_with_retailer("emirates", "R5", 0, logistics_p2=2)  # no bonus
    none = act(none, "p2", {"type": "logistics", "place": [["emirates", 2]]})
    assert GAME.pending(none).get("p2", {}).get("type") != "retailer_bonus"


def test_never_two_offices_of_a_colour_on_a_retailer_SI_RET_04():
    """SI-RET-04: no second Office of a colour on a Retailer (the X space)."""
    state = game_with_retailer("emirates", "R3", 0, offices=["p2"], logistics_p2=2)
    assert "emirates" not in GAME.pending(state)["p2"]["needed"]
    from engine.smartphone_inc.logistics import second_office_choices

    assert "emirates" not in second_office_choices(state, "p2")


def test_goods_bonus_SI_RET_05():
    """SI-RET-05: produce the Goods shown."""
    state = game_with_retailer("emirates", "R4", 0, logistics_p2=2)
    state = act(state, "p2", {"type": "logistics", "place": [["emirates", 2]]})
    goods = state["players"]["p2"]["goods"]
    state = act_here(state, "p2", {"type": "retailer_bonus", "use": True})
    assert state["players"]["p2"]["goods"] == goods + 1


def test_progress_bonus_waits_for_phase_5_turn_SI_RET_06():
    """SI-RET-06: 2 Progress markers, may be split; a research so completed waits for the
    company's own Phase 5 turn."""
    state = new_game(5)
    state["players"]["p2"]["research"] = {"gps": tech_cost(state, "p2", "gps") - 1}
    state["regions"]["india"]["retailer"] = {"id": "R2", "side": 0}  # progress 2
    state["regions"]["india"]["offices"] = []
    state["regions"]["emirates"]["offices"] = ["p2"]
    state = reveal_with(state, {"p2": outcome(logistics=3)})
    state = act(state, "p2", {"type": "logistics", "place": [["india", 3]]})
    assert GAME.pending(state)["p2"]["type"] == "retailer_bonus"
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "retailer_bonus", "use": True, "place": {"gps": 1, "nfc": 2}})
    state = act(state, "p2", {"type": "retailer_bonus", "use": True, "place": {"gps": 1, "nfc": 1}})
    assert "gps" not in state["players"]["p2"]["techs"]  # not now: in Phase 5
    state = pass_turns(state, "planning")
    assert "gps" not in state["players"]["p2"]["techs"]
    state = reveal_with(state, {})
    assert "gps" in state["players"]["p2"]["techs"]
    assert state["players"]["p2"]["research"] == {"nfc": 1}


def test_price_bonus_SI_RET_07():
    """SI-RET-07: raise or lower your price by 1."""
    state = game_with_retailer("emirates", "R5", 1, logistics_p2=2)
    state = act(state, "p2", {"type": "logistics", "place": [["emirates", 2]]})
    down = act_here(state, "p2", {"type": "retailer_bonus", "use": True, "delta": -1})
    assert down["players"]["p2"]["price"] == 4
    up = act_here(state, "p2", {"type": "retailer_bonus", "use": True, "delta": 1})
    assert up["players"]["p2"]["price"] == 6
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "retailer_bonus", "use": True, "delta": 2})


def test_second_office_bonus_SI_RET_08():
    """SI-RET-08: a second Office where you have one; never a third, never on a Retailer."""
    state = game_with_retailer("emirates", "R3", 0, logistics_p2=2)
    state = act(state, "p2", {"type": "logistics", "place": [["emirates", 2]]})
    prompt = GAME.pending(state)["p2"]
    assert prompt["regions"] == ["north-africa"]
    state2 = act_here(state, "p2", {"type": "retailer_bonus", "use": True, "region": "north-africa"})
    assert state2["regions"]["north-africa"]["offices"] == ["p2", "p2"]
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "retailer_bonus", "use": True, "region": "emirates"})


def test_move_office_bonus_shifts_left_SI_RET_09():
    """SI-RET-09: move one of your Offices elsewhere (also between Retailers); the Offices
    behind the gap shift left; no Retailer bonus from the move."""
    state = new_game(5)
    state["regions"]["emirates"]["retailer"] = {"id": "R3", "side": 1}  # move office
    state["regions"]["china"]["offices"] = ["p3", "p2", "p1"]
    state["regions"]["rsa"]["retailer"] = {"id": "R4", "side": 0}  # goods bonus
    state = reveal_with(state, {"p2": outcome(logistics=2)})
    state = act(state, "p2", {"type": "logistics", "place": [["emirates", 2]]})
    assert GAME.pending(state)["p2"]["type"] == "retailer_bonus"
    goods = state["players"]["p2"]["goods"]
    state = act_here(state, "p2", {"type": "retailer_bonus", "use": True, "from": "china", "to": "rsa"})
    assert state["regions"]["china"]["offices"] == ["p3", "p1"]
    assert state["regions"]["rsa"]["offices"] == ["p2"]
    assert GAME.pending(state).get("p2", {}).get("type") != "retailer_bonus"
    assert state["players"]["p2"]["goods"] == goods
