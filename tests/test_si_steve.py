"""Steve, the artificial intelligence (SI-STEVE-01..12)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from si_support import new_game, outcome, pass_turns, reveal_with

from engine.smartphone_inc import control, flow, preparation, steve, technologies
from engine.smartphone_inc.data import START_VP, STARTING, TECHS, improvement_name
from engine.smartphone_inc.game import GAME
from engine.smartphone_inc.scoring import final_scores

DATA_DIR = Path(__file__).resolve().parent.parent / "engine" / "smartphone_inc" / "data"


def test_steve_has_no_pads_all_cells_active_SI_STEVE_01():
    """SI-STEVE-01: no Pads or screen; every cell of Steve's Pad is active (his printed
    cells and, in round 1, his starting Improvement); never pending. Counted from the
    component files, then seen through the phases: his price and his Goods."""
    data = json.loads((DATA_DIR / "steve.json").read_text())
    starting = {i["colour"]: i["cells"] for i in json.loads((DATA_DIR / "improvements.json").read_text())["starting"]}
    state = new_game(2, steve_seat=True)  # Steve is blue
    cells = list(data["cells"]) + list(starting["blue"])
    cells += [c for rnd, part in data["round_slots"].items() if rnd != "1" for c in part]
    want = {k: cells.count(k) for k in ("down", "up", "prod", "improve", "research", "logistics")}
    assert state["players"]["steve"]["improvements"] == [] and state["players"]["steve"]["plan"] is None
    assert "steve" not in GAME.pending(state)
    assert steve.plan_outcome(state) == {"active": want, "covered": 0, "face_down": []}
    state = reveal_with(state, {"p1": outcome(up=3)}, "improve")
    st = state["players"]["steve"]
    assert st["price"] == 5 - want["down"] + want["up"]
    assert st["goods"] == want["prod"]  # every Production cell active, no covered-cell Goods
    assert "steve" not in GAME.pending(state)

def test_starting_improvement_on_delayed_space_SI_STEVE_02():
    """SI-STEVE-02: his starting Improvement goes on the Delayed Improvement space."""
    raw = preparation.setup(["p1", "steve"], 1, {"automata": ["steve"]})
    assert raw["steve"]["delayed"] == STARTING["blue"] and raw["steve"]["slots"] == {}


def test_phase_1_progress_marker_and_delayed_improvement_SI_STEVE_03():
    """SI-STEVE-03: Phase 1: 1 Progress marker; the Delayed Improvement onto this round's part."""
    state = new_game(2, steve_seat=True)
    assert state["steve"]["slots"] == {"1": STARTING["blue"]} and state["steve"]["delayed"] is None
    assert state["steve"]["bonus"] == 1
    state = reveal_with(state, {"p1": outcome(improve=1)})
    state = GAME.apply(state, "p1", {"type": "improvement", "id": state["block"][1]})
    state = pass_turns(state, "planning")
    assert state["round"] == 2 and state["steve"]["delayed"] is None
    assert set(state["steve"]["slots"]) == {"1", "2"}


def test_steve_price_from_his_pad_SI_STEVE_04():
    """SI-STEVE-04: Steve's price moves by the Price symbols of his Pad."""
    state = new_game(2, steve_seat=True)
    state["steve"]["slots"]["2"] = "I01"  # down, down
    state = reveal_with(state, {}, "production")
    assert state["players"]["steve"]["price"] == 5 - 1 - 2


def test_steve_production_SI_STEVE_05():
    """SI-STEVE-05: active Production symbols + Goods tokens (no covered cells)."""
    state = new_game(2, steve_seat=True)
    state["players"]["steve"]["tokens"] = 2
    state = reveal_with(state, {}, "improve")
    prod = steve.plan_outcome(state)["active"]["prod"]
    assert state["players"]["steve"]["goods"] == prod + 2


def test_steve_takes_the_top_improvement_SI_STEVE_06():
    """SI-STEVE-06: on his turn Steve takes the top Improvement onto the Delayed space."""
    state = new_game(2, steve_seat=True)
    top = state["block"][0]
    state = reveal_with(state, {"p1": outcome(improve=1, up=2)})
    assert state["steve"]["delayed"] == top and top not in state["block"]
    assert list(GAME.pending(state)) == ["p1"]  # Steve (price 4) went before p1 (price 7)


def test_steve_research_targets_SI_STEVE_07():
    """SI-STEVE-07: the Technology he studies; else the cheapest with a Patent; else the
    cheapest he lacks; else he skips."""
    state = new_game(2, steve_seat=True)
    assert steve.research_target(state, "steve") == "gps"  # cheapest (tie with Wi-Fi: board order)
    state["players"]["steve"]["research"] = {"li-ion": 1}
    assert steve.research_target(state, "steve") == "li-ion"
    state["players"]["steve"]["research"] = {}
    state["techs"]["gps"]["patent"] = "p1"
    state["techs"]["wi-fi"]["patent"] = "p1"
    assert steve.research_target(state, "steve") == "gamepad"
    for t in ("gamepad", "nfc", "li-ion", "4g"):
        state["techs"][t]["patent"] = "p1"
    assert steve.research_target(state, "steve") == "gps"
    state["players"]["steve"]["techs"] = list(TECHS)
    assert steve.research_target(state, "steve") is None
    state = reveal_with(new_game(2, steve_seat=True), {}, "logistics")
    assert state["players"]["steve"]["research"] == {"gps": 2}  # 1 Research symbol + 1 marker


def test_steve_logistics_and_marker_SI_STEVE_08_SI_STEVE_09():
    """SI-STEVE-08/09: markers go to the region with his marker; after an Office the marker
    moves to the largest available region, then fewest Offices, then alphabetical."""
    state = new_game(2, steve_seat=True)  # Steve blue, North Africa; China has a Retailer
    assert steve.marker_target(state, "steve") == "china"  # L, 0 Offices, China < Europe
    state = reveal_with(state, {}, "selling")
    assert state["players"]["steve"]["logistics"] == {"china": 3}
    assert state["steve"]["marker"] == "china"
    state["regions"]["europe"]["offices"] = ["p1"]
    state["players"]["steve"]["logistics"] = {"china": 3}
    steve.logistics(state, "steve", 3)
    assert "steve" in state["regions"]["china"]["offices"]
    assert state["steve"]["marker"] == "europe"  # the only large region linked to his Offices
    assert state["players"]["steve"]["logistics"] == {"europe": 2}
    state["regions"]["europe"]["offices"] = ["p1", "x", "y", "z"]  # full: the marker moves on
    steve.logistics(state, "steve", 1)
    # no large region left: medium ones with no other Office (Australia, CIS, India), alphabetical
    assert state["steve"]["marker"] == "australia"
    assert state["players"]["steve"]["logistics"]["australia"] == 1


def test_steve_selling_order_SI_STEVE_10():
    """SI-STEVE-10: 1 Goods where only he has an Office; then round after round in shared
    regions; then as many as possible where he is alone; alphabetical order."""
    state = new_game(3, steve_seat=True)  # p1 green SA, p2 blue NA, Steve black CIS
    state["regions"]["emirates"]["offices"] = ["steve"]
    state["regions"]["china"]["offices"] = ["p1", "steve"]
    state["regions"]["south-america"]["offices"] = ["p1", "steve"]
    st = state["players"]["steve"]
    st["price"], st["goods"], st["supply"] = 2, 5, 13
    steve.sell(state, "steve")
    sold = {r: reg["sold"].count("steve") for r, reg in state["regions"].items() if "steve" in reg["sold"]}
    assert sold == {"cis": 1, "emirates": 1, "china": 2, "south-america": 1}
    st["goods"] = 9
    steve.sell(state, "steve")
    assert state["regions"]["cis"]["sold"] == ["steve", None, "steve", "steve"]  # the GPS Buyer won't
    assert state["regions"]["emirates"]["sold"] == ["steve", None, "steve"]


def test_steve_uses_no_bonuses_but_scores_patents_SI_STEVE_11():
    """SI-STEVE-11: no Technology or Retailer bonuses; Patent VP count."""
    state = new_game(2, steve_seat=True, tech_sides={"gps": 1})
    technologies.gain(state, "steve", "gps")
    assert state["players"]["steve"]["goods"] == 0  # no 5 Goods
    rid = next(r for r, reg in state["regions"].items() if reg["retailer"])
    from engine.smartphone_inc.logistics import found_office

    found_office(state, "steve", rid)
    assert state["queue"] == []
    row = next(r for r in final_scores(state)["scores"] if r["seat"] == "steve")
    assert row["patent_vp"] == TECHS["gps"]["patent_vp"]


def test_steve_follows_priority_and_scores_normally_SI_STEVE_12():
    """SI-STEVE-12: Steve takes turns in Priority order (price, then VP, then the
    starting position) and scores VP as normal."""
    base = new_game(3, steve_seat=True)  # p1 green, p2 blue, steve black
    st = steve.plan_outcome(base)["active"]
    same = {"down": st["down"], "up": st["up"]}  # p1 sets Steve's price
    steve_price = 5 - st["down"] + st["up"]

    def order(vp: dict[str, int], outcomes: dict) -> list[str]:
        state = copy.deepcopy(base)
        for seat, v in vp.items():
            state["players"][seat]["vp"] = v
        state = reveal_with(state, outcomes, "improve")
        assert state["players"]["steve"]["price"] == state["players"]["p1"]["price"] == steve_price
        return state["turn"]["order"]

    # equal price and VP: green (the first starting space) before black (Steve)
    assert order({"p1": 3, "p2": 3, "steve": 3}, {"p1": outcome(**same), "p2": outcome(**{**same, "up": same["up"] + 1})}) == ["p1", "steve", "p2"]
    # equal price, Steve has fewer VP: Steve first
    assert order({"p1": 3, "p2": 0, "steve": 2}, {"p1": outcome(**same), "p2": outcome(**{**same, "up": same["up"] + 1})}) == ["steve", "p1", "p2"]
    # a lower price beats everything
    assert order({"p1": 0, "p2": 9, "steve": 0}, {"p1": outcome(**same), "p2": outcome(**{**same, "down": same["down"] + 1})}) == ["p2", "p1", "steve"]

    # scoring as normal: his Goods on the board at his price, plus control
    state = reveal_with(copy.deepcopy(base), {"p1": outcome(up=2)}, "vp")
    assert state["phase"] == "vp"
    before = state["players"]["steve"]["vp"]
    sold = sum(reg["sold"].count("steve") for reg in state["regions"].values())
    assert sold > 0
    ctrl = sum(control.control_vp(state, r).get("steve", 0) for r in state["regions"])
    flow.run(state)
    assert state["players"]["steve"]["vp"] == before + sold * steve_price + ctrl

def test_steve_rules_summary_one_round():
    """The Steve Rules Summary, bullet by bullet, over round 1 of a game against him
    (SI-STEVE-03..10, -12): Steve is blue, in North Africa, with his Pad's printed cells
    and his starting Improvement (Production + Logistics) on round I."""
    state = new_game(2, steve_seat=True)
    # 1 Progress marker; the Delayed Improvement onto round I
    assert state["steve"]["bonus"] == 1 and state["steve"]["slots"] == {"1": STARTING["blue"]}
    active = steve.plan_outcome(state)["active"]
    assert (active["prod"], active["research"], active["logistics"], active["down"]) == (4, 1, 3, 1)
    top = state["block"][0]
    state = reveal_with(state, {"p1": outcome(up=3)})  # p1 plays last, decides nothing
    st = state["players"]["steve"]
    assert "steve sets price 4." in state["log"]  # Price Down: 5 - 1
    assert "steve produces 4 Goods." in state["log"]  # 4 Production + 0 Goods tokens
    assert f"steve takes {improvement_name(top)} (Delayed Improvement)." in state["log"]  # the top one
    assert state["steve"]["slots"]["2"] == top  # ... onto round II at the next Planning
    assert st["research"] == {"gps": 2}  # 1 Research + 1 marker on the cheapest with a Patent
    assert st["logistics"] == {"china": 3}  # 3 Logistics in the largest region (China < Europe)
    assert state["steve"]["marker"] == "china"
    assert state["round"] == 2 and state["phase"] == "planning"
    last = state["last_round"]
    # sold 1 in North Africa at 4 (the 3-Buyer and the Technology Buyers won't buy)
    assert "steve sells 1 Goods in North Africa." in state["log"]
    assert last["sold"]["steve"] == 1 and last["control"]["north-africa"] == {"steve": 1}
    assert last["vp"]["steve"] == 1 * 4 + 1 and st["vp"] == START_VP["blue"] + 5  # VP as normal
    assert st["goods"] == 0  # the other 3 Goods are lost
