"""Smartphone Inc. Update 1.1: the New Technologies module (SU-TEC-01..12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from si_support import act, act_here, new_game, outcome, pass_turns, reveal_with

from engine import IllegalAction
from engine.smartphone_inc import flow, pads, planning, preparation, scoring, selling, technologies
from engine.smartphone_inc.data import HOME, MINI_UPGRADES, NEW_TECHS, RETAILERS, TECH_ORDER
from engine.smartphone_inc.game import GAME

DATA_DIR = Path(__file__).resolve().parent.parent / "engine" / "smartphone_inc" / "data"


def with_tech(state: dict, seat: str, name: str) -> dict:
    """Put New Technology ``name`` on its symbol's space and give it to ``seat``."""
    tech, side = NEW_TECHS[name]
    state["techs"][tech]["side"] = side
    technologies.gain(state, seat, tech)
    return state


def at_a_turn(state: dict, outcomes: dict | None = None) -> dict:
    """Round 1 at p2's first decision (p2 has the lowest price)."""
    outcomes = outcomes or {"p2": outcome(research=1, down=1)}
    return reveal_with(state, outcomes)


# --- SU-TEC-12: choosing the Technologies ------------------------------------------------------


def test_recommended_sets_by_name_SU_TEC_12():
    """SU-TEC-12: the three recommended sets, exactly as listed (base sides included);
    "base" is the default."""
    sets = json.loads((DATA_DIR / "technologies.json").read_text())["sets"]
    for name in ("first-add-on-game", "overproduction", "i-want-some-space"):
        state = new_game(3, technologies=name)
        assert {t: v["side"] for t, v in state["techs"].items()} == sets[name]
        assert state["options"]["technologies"] == name
    names = {
        name: sorted(GAME.view(new_game(3, technologies=name), None)["techs"][t]["name"] for t in TECH_ORDER)
        for name in ("first-add-on-game", "overproduction", "i-want-some-space")
    }
    assert names["first-add-on-game"] == sorted(["GPS", "Wi-Fi CEO", "Gamepad Patent", "Li-Ion Blitz", "NFC", "4G"])
    assert names["overproduction"] == sorted(["GPS Spatial (Goods)", "Wi-Fi", "Gamepad CEO", "Li-Ion Patent", "NFC Marketing", "4G"])
    assert names["i-want-some-space"] == sorted(["GPS Spatial (VP)", "Wi-Fi Blitz", "Gamepad", "Li-Ion", "NFC", "4G World"])
    # the sides of the base Technologies in the sets (the set texts)
    assert sets["first-add-on-game"]["gps"] == 0 and sets["first-add-on-game"]["nfc"] == 1 and sets["first-add-on-game"]["4g"] == 1
    assert sets["overproduction"]["wi-fi"] == 1 and sets["overproduction"]["4g"] == 0
    assert sets["i-want-some-space"]["gamepad"] == 1 and sets["i-want-some-space"]["li-ion"] == 0 and sets["i-want-some-space"]["nfc"] == 0
    base = new_game(3, technologies="base")
    assert all(v["side"] == 0 for v in base["techs"].values()) and "technologies" not in base["options"]


def test_a_custom_mix_of_6_SU_TEC_12():
    """SU-TEC-12: any mix, one Technology per symbol."""
    mix = ["spatial-goods", "ceo-wi-fi", "patent-gamepad", "world-nfc", "blitz-li-ion", "4g:1"]
    state = new_game(2, technologies=mix)
    assert {t: v["side"] for t, v in state["techs"].items()} == {"gps": 3, "wi-fi": 2, "gamepad": 3, "nfc": 2, "li-ion": 3, "4g": 1}
    for bad in (
        mix[:5],
        ["spatial-goods", "spatial-vp", "ceo-wi-fi", "world-nfc", "blitz-li-ion", "4g:1"],
        ["spatial-goods", "ceo-wi-fi", "patent-gamepad", "world-nfc", "blitz-li-ion", "4g:2"],
        ["spatial-goods", "ceo-wi-fi", "patent-gamepad", "world-nfc", "blitz-li-ion", "laser"],
        "all-of-them",
        7,
    ):
        with pytest.raises(IllegalAction):
            new_game(2, technologies=bad)
    with pytest.raises(IllegalAction):
        new_game(2, technologies="overproduction", tech_sides="random")
    assert preparation.technology_sides(mix) == {t: state["techs"][t]["side"] for t in TECH_ORDER}


def test_each_new_technology_has_its_cost_and_patent():
    """Costs and Patent VP of the New Technologies (reconstructed) are the ones paid."""
    state = new_game(3, technologies="overproduction")
    view = GAME.view(state, "p1")
    for tech in TECH_ORDER:
        t = view["techs"][tech]
        assert view["players"]["p1"]["costs"][tech] == t["cost"] + 1  # the Patent is still free
    state = with_tech(state, "p1", "patent-li-ion")
    row = next(r for r in scoring.final_scores(state)["scores"] if r["seat"] == "p1")
    assert row["patent_vp"] == view["techs"]["li-ion"]["patent_vp"]


# --- CEO (SU-TEC-01..03) ----------------------------------------------------------------------


def test_ceos_start_in_the_starting_regions_SU_TEC_01():
    """SU-TEC-01: with a CEO Technology in play, each CEO starts in its starting region."""
    state = new_game(3, technologies="first-add-on-game")
    assert state["ceo"] == {s: HOME[state["players"][s]["colour"]] for s in state["seats"]}
    assert GAME.view(state, None)["ceo"] == state["ceo"]
    assert "ceo" not in new_game(3, technologies="i-want-some-space")  # no CEO Technology
    assert "ceo" not in new_game(3)


def test_one_logistics_marker_moves_the_ceo_anywhere_SU_TEC_01():
    """SU-TEC-01: 1 Progress marker in Logistics moves the CEO to any region."""
    state = new_game(3, technologies="first-add-on-game")
    state = reveal_with(state, {"p2": outcome(logistics=2, down=1)})
    prompt = GAME.pending(state)["p2"]
    assert prompt["type"] == "logistics" and prompt["ceo"] == "north-africa" and prompt["markers"] == 2
    assert {"type": "logistics", "place": [], "ceo": "usa"} in GAME.legal_actions(state, "p2")
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "logistics", "place": [], "ceo": "north-africa"})  # already there
    state = act_here(state, "p2", {"type": "logistics", "place": [], "ceo": "usa"})  # far away: any region
    assert state["ceo"]["p2"] == "usa" and state["turn"]["left"] == 1
    assert "p2 moves its CEO to USA." in state["log"]


def test_ceo_sells_at_the_end_of_the_logistics_turn_SU_TEC_02():
    """SU-TEC-02: Wi-Fi CEO: at the end of the Logistics turn, sell in the region with
    your Office and CEO (left to right, to Buyers who would buy)."""
    state = with_tech(new_game(3, technologies="first-add-on-game"), "p2", "ceo-wi-fi")
    state = reveal_with(state, {"p2": outcome(covered=4, down=2)})  # price 3, 4 Goods
    prompt = GAME.pending(state)["p2"]
    assert prompt == {"type": "ceo_sell", "region": "north-africa", "max": 2, "price": 3}  # the 4 and the 3
    state = act_here(state, "p2", {"type": "ceo_sell", "sell": 2})
    assert state["regions"]["north-africa"]["sold"] == ["p2", None, "p2", None]
    assert state["players"]["p2"]["goods"] == 2
    # the CEO elsewhere (no Office there): nothing to sell
    state = with_tech(new_game(3, technologies="first-add-on-game"), "p2", "ceo-wi-fi")
    state["ceo"]["p2"] = "china"
    state = reveal_with(state, {"p2": outcome(covered=4, down=2)}, "selling")
    assert all(s is None for s in state["regions"]["north-africa"]["sold"])


def test_ceo_ignores_buyer_requirements_in_phase_7_SU_TEC_03():
    """SU-TEC-03: Gamepad CEO: in the region with your Office and CEO, sell to any Buyer
    nobody bought from this round, still left to right; only in Phase 7."""
    state = with_tech(new_game(3, technologies="overproduction"), "p2", "ceo-gamepad")
    state["players"]["p2"]["price"] = 9
    state["phase"] = "selling"
    state["regions"]["north-africa"]["sold"][0] = "p1"  # already bought from
    assert selling.free_willing(state, "p2", "north-africa") == [1, 2, 3]
    state["ceo"]["p2"] = "china"  # no Office there: the usual rule at home
    assert selling.free_willing(state, "p2", "north-africa") == [1]  # the Gamepad Buyer
    state["ceo"]["p2"] = "north-africa"
    state["phase"] = "logistics"
    assert selling.free_willing(state, "p2", "north-africa") == [1]


# --- Patent benefit (SU-TEC-04/05) ------------------------------------------------------------


def test_a_second_goods_to_a_buyer_of_a_patented_technology_SU_TEC_04():
    """SU-TEC-04: Gamepad Patent: a second Goods on each Buyer (you sold to) that wants a
    Technology whose Patent you hold; optional; it counts for control and VP."""
    state = with_tech(new_game(3, technologies="first-add-on-game"), "p2", "patent-gamepad")  # + its Patent
    state = reveal_with(state, {"p2": outcome(covered=4)})  # price 5: only the Gamepad Buyer buys
    prompt = GAME.pending(state)["p2"]
    assert state["regions"]["north-africa"]["sold"] == [None, "p2", None, None]
    assert prompt == {"type": "second_sell", "goods": 3, "regions": {"north-africa": 1}}
    assert {"type": "second_sell", "regions": {}} in GAME.legal_actions(state, "p2")  # may decline
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "second_sell", "regions": {"north-africa": 2}})
    state = act_here(state, "p2", {"type": "second_sell", "regions": {"north-africa": 1}})
    assert state["seconds"] == {"north-africa": [1]} and state["players"]["p2"]["goods"] == 2
    from engine.smartphone_inc import control

    state["regions"]["north-africa"]["offices"].append("p1")
    state["regions"]["north-africa"]["sold"][0] = "p1"
    state["regions"]["north-africa"]["sold"][2] = "p1"  # p1 2 Goods, p2 2: p2's Office is further left
    assert control.ranking(state, "north-africa") == ["p2", "p1"]
    flow.run(state, "vp")
    before = state["players"]["p2"]["vp"]
    ctrl = control.control_vp(state, "north-africa")["p2"]
    scoring.receive_vp(state)
    assert state["last_round"]["sold"]["p2"] == 2 and state["players"]["p2"]["vp"] == before + 2 * 5 + ctrl


def test_patent_goods_at_once_and_every_round_SU_TEC_05():
    """SU-TEC-05: 2 Goods per Patent at once when gained, and every round in Phase 3."""
    state = new_game(3, technologies="overproduction")
    p2 = state["players"]["p2"]
    p2["patents"] = ["gps", "wi-fi"]
    state = with_tech(state, "p2", "patent-li-ion")  # its own Patent too: 3
    assert p2["patents"] == ["gps", "wi-fi", "li-ion"] and p2["goods"] == 6
    assert "p2 produces 6 Goods at once (2 per Patent)." in state["log"]
    y = planning.yields(state, "p2", outcome(covered=1))
    assert ["Patents", 6] in y["goods_parts"] and y["goods"] == 1 + 6
    state = reveal_with(state, {"p2": outcome(covered=1)}, "improve")
    assert state["players"]["p2"]["goods"] == 6 + 7


# --- World changing (SU-TEC-06/07) --------------------------------------------------------------


def test_4g_places_a_retailer_and_moves_the_offices_SU_TEC_06():
    """SU-TEC-06: place an unused Retailer in a region with your Office and none; the
    Offices there move onto it (second Offices go back, the others shift left); the
    placer gains its bonus."""
    state = at_a_turn(new_game(3, technologies="i-want-some-space"))
    state["regions"]["north-africa"]["offices"] = ["p2", "p1", "p2"]
    with_tech(state, "p2", "world-4g")
    prompt = GAME.pending(state)["p2"]
    assert prompt["type"] == "place_retailer"
    used = {reg["retailer"]["id"] for reg in state["regions"].values() if reg["retailer"]}
    m_unused = [r for r in sorted(RETAILERS) if r not in used and RETAILERS[r]["size"] == "M"]
    assert prompt["regions"] == {"north-africa": m_unused}  # p2's only region without a Retailer
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "place_retailer", "region": "china", "retailer": m_unused[0], "side": 0})
    side = next(i for i, s in enumerate(RETAILERS[m_unused[0]]["sides"]) if s["bonus"]["kind"] != "none")
    state = act_here(state, "p2", {"type": "place_retailer", "region": "north-africa", "retailer": m_unused[0], "side": side})
    reg = state["regions"]["north-africa"]
    assert reg["retailer"] == {"id": m_unused[0], "side": side} and reg["offices"] == ["p2", "p1"]
    assert state["queue"][0] == {"seat": "p2", "kind": "retailer_bonus", "region": "north-africa"}
    assert selling.free_willing(state, "p2", "north-africa") == []  # a Retailer region sells nothing


def test_marketing_token_SU_TEC_07():
    """SU-TEC-07: once per round, 1 Research marker puts your Marketing Token on the
    leftmost or rightmost empty Buyer of a region with your Office and no Token of
    yours; only you may sell to that Buyer, whatever it wants."""
    state = with_tech(new_game(3, technologies="overproduction"), "p2", "world-nfc")
    state = reveal_with(state, {"p2": outcome(research=2, down=1)})
    prompt = GAME.pending(state)["p2"]
    assert prompt["type"] == "research" and prompt["token"] == [["north-africa", 0], ["north-africa", 3]]
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "research", "place": {}, "token": ["north-africa", 1]})  # not an end
    state = act_here(state, "p2", {"type": "research", "place": {}, "token": ["north-africa", 3]})
    assert state["marketing"] == {"north-africa": {"3": "p2"}} and state["turn"]["left"] == 1
    assert "token" not in GAME.pending(state)["p2"]  # once per round
    # the NFC Buyer now buys only from p2, who has no NFC
    state["phase"] = "selling"
    state["regions"]["north-africa"]["offices"].append("p1")
    state["players"]["p1"]["techs"].append("nfc")
    state["players"]["p1"]["price"] = state["players"]["p2"]["price"] = 9
    assert 3 not in selling.free_willing(state, "p1", "north-africa")
    assert 3 in selling.free_willing(state, "p2", "north-africa")
    # next round: not again in a region holding a Token of yours
    state["round"] = 2
    state["phase"] = "research"
    from engine.smartphone_inc.new_technologies import token_places

    assert token_places(state, "p2") == []


# --- Spatial benefit (SU-TEC-08/09) ------------------------------------------------------------


def test_spatial_vp_two_per_goods_in_one_region_SU_TEC_08():
    """SU-TEC-08: +2 VP per Goods sold this round in one region (the best)."""
    state = with_tech(new_game(5, technologies="i-want-some-space"), "p2", "spatial-vp")
    state["phase"] = "vp"
    state["players"]["p2"]["price"] = 3
    state["regions"]["north-africa"]["sold"] = ["p2", None, "p2", None]
    state["regions"]["china"]["offices"].append("p2")
    state["regions"]["china"]["sold"][1] = "p2"
    before = state["players"]["p2"]["vp"]
    scoring.receive_vp(state)
    ctrl = 1 + 2  # first place in North Africa (1 Office) and in China
    assert state["players"]["p2"]["vp"] == before + 3 * 3 + ctrl + 2 * 2


def test_spatial_goods_per_region_controlled_kept_SU_TEC_09():
    """SU-TEC-09: 1 Goods per region controlled in first place, kept for the next round."""
    state = with_tech(new_game(5, technologies="overproduction"), "p2", "spatial-goods")
    state = reveal_with(state, {"p2": outcome(covered=2, down=2)}, "vp")
    assert state["regions"]["north-africa"]["sold"].count("p2") == 2 and state["players"]["p2"]["goods"] == 0
    flow.run(state)
    assert state["round"] == 2 and state["players"]["p2"]["goods"] == 1  # kept into round 2
    assert any("p2 produces 1 Goods for the next round" in x for x in state["log"])


# --- Blitz (SU-TEC-10/11) -----------------------------------------------------------------------


def test_blitz_goods_become_progress_markers_SU_TEC_10():
    """SU-TEC-10: after producing, up to 2 Available Goods on a Logistics and a Research
    symbol (1 each): 1 more Progress marker each this round; back at the end."""
    state = with_tech(new_game(3, technologies="i-want-some-space"), "p2", "blitz-wi-fi")
    state = reveal_with(state, {"p2": outcome(covered=3, research=1, logistics=1, down=1)})
    assert GAME.pending(state)["p2"] == {"type": "blitz", "goods": 3, "symbols": ["research", "logistics"]}
    with pytest.raises(IllegalAction):
        act(state, "p2", {"type": "blitz", "research": 2})
    state = act(state, "p2", {"type": "blitz", "research": 1, "logistics": 1})
    p2 = state["players"]["p2"]
    assert p2["goods"] == 1 and p2["blitz"] == {"research": 1, "logistics": 1}
    assert GAME.pending(state)["p2"] == {"type": "research", "markers": 2, "needed": GAME.pending(state)["p2"]["needed"]}
    supply = p2["supply"]
    state = pass_turns(state, "planning")
    assert "blitz" not in state["players"]["p2"] and state["players"]["p2"]["supply"] >= supply + 2
    # no active symbol to put them on: not asked
    state = with_tech(new_game(3, technologies="i-want-some-space"), "p2", "blitz-wi-fi")
    state = reveal_with(state, {"p2": outcome(covered=3, down=1)})
    assert "p2" not in GAME.pending(state) or GAME.pending(state)["p2"]["type"] != "blitz"


def test_mini_upgrade_used_like_an_improvement_SU_TEC_11():
    """SU-TEC-11: take 1 Mini-upgrade at once; in Planning it is placed like an
    Improvement; unused it gives nothing (no face-down Goods)."""
    state = at_a_turn(new_game(3, technologies="first-add-on-game"))
    with_tech(state, "p2", "blitz-li-ion")
    prompt = GAME.pending(state)["p2"]
    assert prompt["type"] == "mini_upgrade" and sorted(prompt["choices"]) == MINI_UPGRADES
    state = act_here(state, "p2", {"type": "mini_upgrade", "id": "M1"})  # Research + open half
    assert "M1" in state["players"]["p2"]["improvements"] and "M1" not in state["mini_upgrades"]
    owned = state["players"]["p2"]["improvements"]
    plan = {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": 2, "y": 1},
            "improvements": [{"id": "M1", "x": 0, "y": 0, "rot": 0, "layer": "over"}]}
    ev = pads.evaluate(plan, owned, False)
    assert ev["active"]["research"] == 2  # M1's Research covers A's Production; B's Research shows
    # unused, it is face down but makes no Goods; the starting Improvement still does
    state = pass_turns(state, "planning")
    bare = {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": 2, "y": 1}, "improvements": []}
    for seat in state["seats"]:
        state = act(state, seat, {"type": "plan", "plan": bare})
    assert state["players"]["p2"]["outcome"]["face_down"] == ["S-blue"]


def test_the_planner_preview_counts_no_goods_for_a_mini_upgrade_SU_TEC_11():
    """The Discord planner's preview of a draft: an unused Mini-upgrade lies face down
    but adds no Goods (the starting Improvement still does)."""
    from bot.games.smartphone_inc.planner import Draft, PlanContext, evaluate

    state = new_game(3, technologies="first-add-on-game")
    state["players"]["p2"]["improvements"].append("M1")
    view = GAME.view(state, "p2")
    ctx = PlanContext.from_prompt(GAME.pending(state)["p2"], view, "p2")
    d = Draft(bottom="A", bottom_side=0, top_side=0, rot=0, x=2, y=1, step="done")
    ev = evaluate(d, ctx)
    assert sorted(ev["face_down"]) == ["M1", "S-blue"]
    assert ev["yields"]["goods"] == 2 + 1 + 1  # 2 Production, 1 covered cell, S-blue
