"""Smartphone Inc. Phase 6: Logistics, Wi-Fi, NFC, Li-Ion, and Retailers."""

from __future__ import annotations

import pytest
from si_support import act, act_here, new_game, outcome, revealed_at

from engine import IllegalAction
from engine.smartphone_inc import control, flow, logistics, scoring, technologies
from engine.smartphone_inc.data import REGIONS
from engine.smartphone_inc.game import GAME


def at_logistics(state, outcomes):
    return revealed_at(state, outcomes, "logistics")


def test_logistics_symbols_give_markers_SI_LOG_01():
    """SI-LOG-01: one Progress marker per active Logistics symbol."""
    state = at_logistics(new_game(5), {"p2": outcome(logistics=2)})
    assert GAME.pending(state)["p2"]["markers"] == 2


def test_north_africa_links_victor_example_SI_LOG_02():
    """SI-LOG-02 (ex): Victor, only in North Africa, may expand to Europe, China,
    Emirates and South America, and nowhere else."""
    assert sorted(REGIONS["north-africa"]["links"]) == ["china", "emirates", "europe", "south-america"]
    state = at_logistics(new_game(5), {"p2": outcome(logistics=2)})  # p2 = blue, North Africa
    assert sorted(GAME.pending(state)["p2"]["needed"]) == ["china", "emirates", "europe", "south-america"]
    with pytest.raises(IllegalAction, match="not linked"):
        act(state, "p2", {"type": "logistics", "place": [["usa", 1]]})


def test_unused_markers_lost_SI_LOG_03():
    """SI-LOG-03: markers not placed disappear."""
    state = at_logistics(new_game(5), {"p2": outcome(logistics=3)})
    state = act(state, "p2", {"type": "logistics", "place": [["europe", 1]]})
    assert state["players"]["p2"]["logistics"] == {"europe": 1}
    assert GAME.pending(state)["p2"]["markers"] == 2  # region by region: the turn goes on
    state = act(state, "p2", {"type": "logistics", "place": []})  # stop
    assert any("loses 2 unused" in x for x in GAME.events(state))
    assert state["players"]["p2"]["logistics"] == {"europe": 1}


def test_office_on_leftmost_empty_space_SI_LOG_04_SI_LOG_07():
    """SI-LOG-04/07: markers equal to the cost -> Office on the leftmost empty space,
    markers back; bigger regions cost more."""
    assert REGIONS["emirates"]["cost"] < REGIONS["north-africa"]["cost"] < REGIONS["europe"]["cost"]
    state = at_logistics(new_game(5), {"p2": outcome(logistics=3), "p1": outcome(logistics=3, up=1)})
    state = act(state, "p2", {"type": "logistics", "place": [["south-america", 3]]})
    assert state["regions"]["south-america"]["offices"] == ["p1", "p2"]
    assert "south-america" not in state["players"]["p2"]["logistics"]


def test_full_region_takes_no_office_SI_LOG_05():
    """SI-LOG-05: no empty space, no more Offices (nor markers) there."""
    state = new_game(5)
    state["regions"]["emirates"]["offices"] = ["p1", "p3"]
    state = at_logistics(state, {"p2": outcome(logistics=2)})
    assert "emirates" not in GAME.pending(state)["p2"]["needed"]
    with pytest.raises(IllegalAction, match="no empty Office space"):
        act(state, "p2", {"type": "logistics", "place": [["emirates", 2]]})


def test_one_office_per_region_SI_LOG_06():
    """SI-LOG-06: one Office per company per region (without Wi-Fi or a Retailer bonus)."""
    state = new_game(5)
    state["regions"]["europe"]["offices"] = ["p2"]
    state = at_logistics(state, {"p2": outcome(logistics=4)})
    assert "europe" not in GAME.pending(state)["p2"]["needed"]
    with pytest.raises(IllegalAction, match="already have an Office"):
        act(state, "p2", {"type": "logistics", "place": [["europe", 1]]})


def test_new_office_extends_reach_within_the_turn():
    state = at_logistics(new_game(5), {"p2": outcome(logistics=4)})
    state = act(state, "p2", {"type": "logistics", "place": [["emirates", 2], ["rsa", 2]]})
    assert "p2" in state["regions"]["emirates"]["offices"] and "p2" in state["regions"]["rsa"]["offices"]


def test_wifi_second_office_SI_TECH_05():
    """SI-TECH-05: Wi-Fi (side 0): each Phase 6, may add a second Office where you have
    one; never a third, never on a Retailer."""
    state = new_game(3)  # Europe and RSA carry Retailers
    technologies.gain(state, "p2", "wi-fi")
    state["regions"]["rsa"]["offices"] = ["p2"]
    state = at_logistics(state, {"p2": outcome()})
    prompt = GAME.pending(state)["p2"]
    assert prompt["type"] == "wifi" and "north-africa" in prompt["regions"] and "rsa" not in prompt["regions"]
    state2 = act(state, "p2", {"type": "wifi", "region": "north-africa"})
    assert state2["regions"]["north-africa"]["offices"] == ["p2", "p2"]
    assert "north-africa" not in logistics.second_office_choices(state2, "p2")
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "wifi", "region": "rsa"})
    state3 = act(state, "p2", {"type": "wifi", "region": None})
    assert state3["regions"]["north-africa"]["offices"] == ["p2"]


def test_nfc_sells_up_to_three_in_phase_6_SI_TECH_09():
    """SI-TECH-09: NFC (side 0): in Phase 6 sell 0-3 Goods at your price, scored at once,
    and not placed in a region: Phase 8 scores only the Goods on the board (and control)."""
    state = new_game(3)
    technologies.gain(state, "p1", "nfc")
    state = at_logistics(state, {"p1": outcome(covered=4, down=1)})
    prompt = GAME.pending(state)["p1"]
    assert prompt == {"type": "nfc", "max": 3, "price": 4}
    with pytest.raises(IllegalAction):
        act(state, "p1", {"type": "nfc", "sell": 4})
    before = state["players"]["p1"]["vp"]
    state = act_here(state, "p1", {"type": "nfc", "sell": 3})
    p = state["players"]["p1"]
    assert p["nfc_sold"] == 3 and p["vp"] == before + 3 * 4  # scored at once
    assert p["goods"] == 1  # 4 made, 3 sold through NFC
    assert all(reg["sold"].count("p1") == 0 for reg in state["regions"].values())  # not placed
    flow.run(state, "vp")
    assert state["phase"] == "vp" and state["round"] == 1
    on_board = sum(reg["sold"].count("p1") for reg in state["regions"].values())
    assert on_board <= 1
    ctrl = sum(control.control_vp(state, r).get("p1", 0) for r in state["regions"])
    scoring.receive_vp(state)
    assert state["players"]["p1"]["vp"] == before + 12 + on_board * 4 + ctrl  # NFC Goods not again


def test_li_ion_price_symbols_count_as_logistics_SI_TECH_11():
    """SI-TECH-11: Li-Ion (side 0): Price symbols also count as Logistics in Phase 6."""
    state = new_game(5)
    technologies.gain(state, "p2", "li-ion")
    state = at_logistics(state, {"p2": outcome(logistics=1, up=1, down=1)})
    assert GAME.pending(state)["p2"]["markers"] == 3
    assert logistics.markers(state, "p1") == 0
