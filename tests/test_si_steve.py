"""Steve, the artificial intelligence (SI-STEVE-01..12)."""

from __future__ import annotations

from si_support import new_game, outcome, pass_turns, reveal_with

from engine.smartphone_inc import preparation, steve, technologies
from engine.smartphone_inc.data import IMPROVEMENTS, STARTING, STEVE_PAD, TECHS
from engine.smartphone_inc.game import GAME
from engine.smartphone_inc.scoring import final_scores


def test_steve_has_no_pads_all_cells_active_SI_STEVE_01():
    """SI-STEVE-01: no Pads or screen; every cell of Steve's Pad is active; never pending."""
    state = new_game(2, steve_seat=True)
    assert state["players"]["steve"]["improvements"] == []
    assert "steve" not in GAME.pending(state)
    cells = steve.pad_symbols(state)
    active = steve.plan_outcome(state)["active"]
    assert sum(active.values()) == sum(1 for c in cells if c)
    assert active["prod"] == STEVE_PAD["cells"].count("prod") + IMPROVEMENTS[STARTING["blue"]].count("prod")


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
    """SI-STEVE-12: Steve takes turns in Priority order and scores VP as normal."""
    state = reveal_with(new_game(3, steve_seat=True), {"p1": outcome(research=1, up=1), "p2": outcome(research=1)})
    assert state["turn"]["order"][0] == "steve"  # price 4
    order = state["turn"]["order"]
    assert order == sorted(order, key=lambda s: (state["players"][s]["price"], state["players"][s]["vp"], state["players"][s]["start"]))
    from engine.simulate import play_game

    final, _, _ = play_game("smartphone-inc", ["a", "b", "steve"], 3, {"automata": ["steve"]})
    rows = {r["seat"]: r for r in GAME.result(final)["scores"]}
    assert rows["steve"]["vp"] == final["players"]["steve"]["vp"] + rows["steve"]["patent_vp"] + rows["steve"]["retailer_vp"]


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
    assert f"steve takes Improvement {top} (Delayed Improvement)." in state["log"]  # the top one
    assert state["steve"]["slots"]["2"] == top  # ... onto round II at the next Planning
    assert st["research"] == {"gps": 2}  # 1 Research + 1 marker on the cheapest with a Patent
    assert st["logistics"] == {"china": 3}  # 3 Logistics in the largest region (China < Europe)
    assert state["steve"]["marker"] == "china"
    assert state["round"] == 2 and state["phase"] == "planning"
    last = state["last_round"]
    # sold 1 in North Africa at 4 (the 3-Buyer and the Technology Buyers won't buy)
    assert "steve sells 1 Goods in North Africa." in state["log"]
    assert last["sold"]["steve"] == 1 and last["control"]["north-africa"] == {"steve": 1}
    assert last["vp"]["steve"] == 1 * 4 + 1 and st["vp"] == 5  # VP as normal
    assert st["goods"] == 0  # the other 3 Goods are lost
