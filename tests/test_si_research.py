"""Smartphone Inc. Phase 5: Research Technology, Patents and Technology bonuses."""

from __future__ import annotations

import pytest
from si_support import act, act_here, new_game, outcome, pass_turns, reveal_with, revealed_at

from engine import IllegalAction
from engine.smartphone_inc import technologies
from engine.smartphone_inc.common import tech_cost
from engine.smartphone_inc.data import TECHS
from engine.smartphone_inc.game import GAME


def at_research(state, outcomes):
    return revealed_at(state, outcomes, "research")


def test_research_symbols_give_progress_markers_SI_RES_01():
    """SI-RES-01: one Progress marker per active Research symbol."""
    state = at_research(new_game(3), {"p1": outcome(research=3)})
    assert GAME.pending(state) == {"p1": GAME.pending(state)["p1"]}
    assert GAME.pending(state)["p1"]["markers"] == 3


def test_markers_split_and_unspent_lost_SI_RES_02():
    """SI-RES-02: in priority order, markers split as wished; unspent ones are lost."""
    state = at_research(new_game(3), {"p1": outcome(research=3), "p2": outcome(research=2, down=1)})
    assert list(GAME.pending(state)) == ["p2"]
    state = act(state, "p2", {"type": "research", "place": {"gps": 1}})
    assert state["players"]["p2"]["research"] == {"gps": 1}
    assert GAME.pending(state)["p2"]["markers"] == 1  # Technology by Technology: the turn goes on
    state = act(state, "p2", {"type": "research", "place": {}})  # stop
    assert any("loses 1 unspent" in line for line in GAME.events(state))
    state = act(state, "p1", {"type": "research", "place": {"gps": 1, "nfc": 2}})  # a split at once
    assert state["players"]["p1"]["research"] == {"gps": 1, "nfc": 2}
    assert state["phase"] != "research"  # all 3 spent: p1's turn and the phase are over
    with pytest.raises(IllegalAction):
        act(at_research(new_game(3), {"p1": outcome(research=3)}), "p1", {"type": "research", "place": {"gps": 4}})


def test_research_complete_returns_markers_and_places_office_SI_RES_03():
    """SI-RES-03: markers equal to the cost: researched, markers back, Office on the card."""
    state = at_research(new_game(3), {"p1": outcome(research=5)})
    cost = tech_cost(state, "p1", "gps")
    assert cost == TECHS["gps"]["cost"] + 1
    state = act(state, "p1", {"type": "research", "place": {"gps": cost}})
    p = state["players"]["p1"]
    assert "gps" in p["techs"] and "gps" not in p["research"]
    assert GAME.view(state, None)["players"]["p1"]["techs"] == ["gps"]


def test_research_carries_over_4g_example_SI_RES_04():
    """SI-RES-04 (ex): 3 Research, 4G costs 6: 3 placed now, finished next round."""
    state = at_research(new_game(3), {"p1": outcome(research=3)})
    assert tech_cost(state, "p1", "4g") == 6
    state = act(state, "p1", {"type": "research", "place": {"4g": 3}})
    assert state["players"]["p1"]["research"] == {"4g": 3} and "4g" not in state["players"]["p1"]["techs"]
    state = pass_turns(state, "planning")
    assert state["players"]["p1"]["research"] == {"4g": 3}
    state = at_research(state, {"p1": outcome(research=3)})
    assert GAME.pending(state)["p1"]["needed"]["4g"] == 3
    state = act(state, "p1", {"type": "research", "place": {"4g": 3}})
    assert "4g" in state["players"]["p1"]["techs"] and state["techs"]["4g"]["patent"] == "p1"


def test_first_to_research_takes_patent_SI_RES_05_SI_RES_06():
    """SI-RES-05/06: the first takes the Patent; cost +1 before, card cost after."""
    state = at_research(new_game(3), {"p1": outcome(research=5), "p2": outcome(research=1, up=1)})
    card = TECHS["gps"]["cost"]
    assert tech_cost(state, "p2", "gps") == card + 1
    state = act(state, "p1", {"type": "research", "place": {"gps": card + 1}})
    assert state["players"]["p1"]["patents"] == ["gps"] and state["techs"]["gps"]["patent"] == "p1"
    assert tech_cost(state, "p2", "gps") == card


def test_gamepad_patent_race_example_SI_RES_07():
    """SI-RES-07 (ex): red and green research Gamepad; green finishes first and takes the
    Patent; red, on her turn, completes at the lower cost without the Patent."""
    state = new_game(5)  # p1 green ... p5 red
    green, red = "p1", "p5"
    cost = tech_cost(state, green, "gamepad")
    state["players"][green]["research"]["gamepad"] = cost - 1
    state["players"][red]["research"]["gamepad"] = cost - 1
    state = at_research(state, {green: outcome(research=1)})
    assert list(GAME.pending(state)) == [green]
    state = act(state, green, {"type": "research", "place": {"gamepad": 1}})
    assert state["techs"]["gamepad"]["patent"] == green
    assert "gamepad" in state["players"][red]["techs"]  # on her own turn, with no new marker
    assert state["players"][red]["patents"] == []
    lines = GAME.events(state)
    assert lines.index(next(x for x in lines if x.startswith("p1 researched Gamepad"))) < lines.index(
        next(x for x in lines if x.startswith("p5 researched Gamepad"))
    )


def test_cannot_research_twice_SI_RES_08():
    """SI-RES-08: a Technology already researched takes no more markers."""
    state = new_game(3)
    technologies.gain(state, "p1", "gps")
    state = at_research(state, {"p1": outcome(research=2)})
    assert "gps" not in GAME.pending(state)["p1"]["needed"]
    with pytest.raises(IllegalAction, match="already have GPS"):
        act(state, "p1", {"type": "research", "place": {"gps": 1}})


def test_immediate_bonuses_are_used_at_once_SI_TECH_01_SI_TECH_02_SI_TECH_04():
    """SI-TECH-01/02/04: GPS (side 1) gives 5 Goods at once, once; no choice is offered."""
    state = at_research(new_game(3, tech_sides={"gps": 1}), {"p1": outcome(research=5)})
    goods = state["players"]["p1"]["goods"]
    now = act_here(state, "p1", {"type": "research", "place": {"gps": 5}})
    assert now["players"]["p1"]["goods"] == goods + 5
    assert any("produces 5 Goods at once" in x for x in now["log"])
    assert "p1" not in GAME.pending(now)  # nothing was offered
    state = act(state, "p1", {"type": "research", "place": {"gps": 5}})
    state = pass_turns(state, "planning")
    state = reveal_with(state, {"p1": outcome(covered=1)}, "improve")
    p1 = state["players"]["p1"]
    assert p1["goods"] == 1 + p1["tokens"]  # round 2: the covered cell + tokens, no second 5
    assert not any("GPS" in x for x in state["log"])


def test_gamepad_discount_SI_TECH_07():
    """SI-TECH-07: Gamepad (side 0): every Technology costs its owner 1 less."""
    state = new_game(3)
    before = tech_cost(state, "p1", "nfc")
    technologies.gain(state, "p1", "gamepad")
    assert tech_cost(state, "p1", "nfc") == before - 1
    assert tech_cost(state, "p2", "nfc") == before


def test_gamepad_small_region_office_SI_TECH_08():
    """SI-TECH-08: Gamepad (side 1): an Office in a small region at once (choice of region);
    a Retailer's bonus there applies as normal."""
    state = at_research(new_game(3, tech_sides={"gamepad": 1}), {"p1": outcome(research=6)})
    state = act(state, "p1", {"type": "research", "place": {"gamepad": 6}})
    prompt = GAME.pending(state)["p1"]
    assert prompt["type"] == "gamepad_office"
    assert set(prompt["regions"]) == {"canada", "caribbean", "emirates", "rsa"}
    assert state["regions"]["rsa"]["retailer"] is not None  # 3 players: RSA has a Retailer
    state = act(state, "p1", {"type": "gamepad_office", "region": "rsa"})
    assert state["regions"]["rsa"]["offices"] == ["p1"]
    nxt = GAME.pending(state).get("p1")
    from engine.smartphone_inc.retailers import bonus_of

    if bonus_of(state, "rsa")["kind"] != "none":
        assert nxt["type"] == "retailer_bonus"
