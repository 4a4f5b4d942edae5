"""Smartphone Inc.: rules behind the mutants that survived the rule tests (issue 23,
tests/MUTANTS.md "Survivors"). Each test builds the position where the rule decides
the outcome; the expectations are worked out by hand from the rulebooks (000, the base
game; 002, Update 1.1) and the data, and written out. The survivors found equivalent
are in tests/mutants_equivalent.txt with the reason."""

from __future__ import annotations

import copy

import pytest
from si_support import PLAN, act, act_here, new_game, outcome, reveal_with
from test_su_technologies import with_tech

from engine import IllegalAction
from engine.smartphone_inc import (
    decisions,
    directives,
    flow,
    new_technologies,
    pads,
    planning,
    scoring,
)
from engine.smartphone_inc.game import GAME

# --- SI-RES-02: Progress markers are placed, never taken away (research.py validate_place) ---


@pytest.mark.rule("SI-RES-02")
def test_a_negative_number_of_progress_markers_is_refused_SI_RES_02():
    """SI-RES-02: "each player places their Progress markers on Technologies, split as
    they wish". p1 has 3 markers; 2 on GPS and -1 on NFC add up to 1 (within the 3),
    but -1 takes a marker off a Technology: refused, and nothing changes. A split with 0
    on one Technology is no placement there and is accepted."""
    state = reveal_with(new_game(3), {"p1": outcome(research=3)})
    assert state["phase"] == "research" and GAME.pending(state)["p1"]["markers"] == 3
    before = copy.deepcopy(state["players"]["p1"])
    with pytest.raises(IllegalAction):
        act(state, "p1", {"type": "research", "place": {"gps": 2, "nfc": -1}})
    assert state["players"]["p1"] == before and state["players"]["p1"]["research"] == {}
    state = act(state, "p1", {"type": "research", "place": {"gps": 0, "nfc": 2}})
    assert state["players"]["p1"]["research"] == {"nfc": 2}
    assert GAME.pending(state)["p1"]["markers"] == 1  # 3 - 2: the turn goes on


# --- SU-DIR-02: a goal met is offered at once, also right after Steve takes another -------


@pytest.mark.rule("SU-DIR-02")
def test_after_steve_takes_a_directive_the_next_one_met_is_offered_at_once_SU_DIR_02():
    """SU-DIR-02 (DATA.md: goals are checked at every step of the automatic phases and a
    company that meets one is asked at once). At the first check of round 1 (Phase 2,
    before the prices are set) Steve meets Directive 14 (2 Technologies: GPS and NFC)
    and p1 meets Directive 16 (1 Patent: GPS's). Steve takes 14; p1 is asked for 16 at
    the same check, still in Phase 2 and before Phase 3 makes its Goods."""
    state = new_game(3, steve_seat=True, directives=True)
    state["directives"]["cards"] = [{"number": n, "holder": None, "round": None, "flipped": False} for n in (14, 16)]
    state["players"]["steve"]["techs"] = ["gps", "nfc"]
    p1 = state["players"]["p1"]
    p1["techs"], p1["patents"] = ["gps"], ["gps"]
    state["techs"]["gps"]["patent"] = "p1"
    goods = p1["goods"]
    state = reveal_with(state, {})
    assert {c["number"]: c["holder"] for c in state["directives"]["cards"]} == {14: "steve", 16: None}
    assert state["phase"] == "prices"
    assert GAME.pending(state) == {"p1": directives.prompt(state, "p1", {"number": 16})}
    assert GAME.pending(state)["p1"]["number"] == 16 and state["players"]["p1"]["goods"] == goods
    state = act(state, "p1", {"type": "directive", "take": True})
    assert {c["number"]: c["holder"] for c in state["directives"]["cards"]} == {14: "steve", 16: "p1"}


# --- SU-TEC-11: the last Mini-upgrade is taken at once --------------------------------------


@pytest.mark.rule("SU-TEC-11")
def test_the_last_mini_upgrade_is_taken_at_once_SU_TEC_11():
    """SU-TEC-11: "take a Mini-upgrade at once". With one Mini-upgrade left (M3) there
    is nothing to choose: p2 gets it without being asked and its Research turn goes on."""
    state = reveal_with(new_game(3, technologies="first-add-on-game"), {"p2": outcome(research=1, down=1)})
    assert state["phase"] == "research" and list(GAME.pending(state)) == ["p2"]
    state["mini_upgrades"] = ["M3"]
    improvements = list(state["players"]["p2"]["improvements"])
    with_tech(state, "p2", "blitz-li-ion")
    flow.run(state)
    assert state["mini_upgrades"] == []
    assert state["players"]["p2"]["improvements"] == [*improvements, "M3"]
    assert state["queue"] == []
    assert GAME.pending(state)["p2"]["type"] == "research"


# --- SU-TEC-10: Blitz Goods go on the Pads once, and only Goods one has --------------------


@pytest.mark.rule("SU-TEC-10")
def test_blitz_goods_are_placed_once_a_round_SU_TEC_10():
    """SU-TEC-10: "after producing, put up to 2 Available Goods on Logistics and/or
    Research symbols of your Pad (one each)". p2 makes 3 Goods and puts 1 on Research;
    it still has 2 Goods and an open Logistics symbol, but its Blitz is over for the
    round: no second Blitz, and its Goods and Blitz stay as they are."""
    state = with_tech(new_game(3, technologies="i-want-some-space"), "p2", "blitz-wi-fi")
    state = reveal_with(state, {"p2": outcome(covered=3, research=1, logistics=1, down=1)})
    assert GAME.pending(state)["p2"] == {"type": "blitz", "goods": 3, "symbols": ["research", "logistics"]}
    state = act(state, "p2", {"type": "blitz", "research": 1, "logistics": 0})
    p2 = state["players"]["p2"]
    assert p2["goods"] == 2 and p2["blitz"] == {"research": 1, "logistics": 0}
    assert new_technologies.blitz_prompt(state, "p2") is None
    with pytest.raises(IllegalAction):
        new_technologies.blitz_act(state, "p2", {"logistics": 1})
    assert p2["goods"] == 2 and p2["blitz"] == {"research": 1, "logistics": 0}
    assert GAME.pending(state)["p2"]["type"] == "research"


@pytest.mark.rule("SU-TEC-10")
def test_blitz_with_no_goods_asks_nothing_SU_TEC_10():
    """SU-TEC-10: the Goods put on the Pads are Available Goods. p2 has Blitz (Wi-Fi) and
    an active Research symbol but makes no Goods (nothing covered, nothing face down):
    it is not asked, its Research turn comes with its 1 marker."""
    state = with_tech(new_game(3, technologies="i-want-some-space"), "p2", "blitz-wi-fi")
    state = reveal_with(state, {"p2": outcome(covered=0, research=1, down=1)})
    assert state["players"]["p2"]["goods"] == 0
    assert new_technologies.blitz_prompt(state, "p2") is None
    assert state["phase"] == "research"
    prompt = GAME.pending(state)["p2"]
    assert prompt["type"] == "research" and prompt["markers"] == 1


# --- the 2-3 player board: a game plays on its own board's regions only -------------------


@pytest.mark.rule("SU-BRD-02")
def test_a_region_of_the_other_board_is_refused_on_the_small_board_SU_BRD_02():
    """The 2-3 player board (SU-BRD-02) is another map: China (a region of the big board)
    is not on it. Logistics markers sent to China are refused like any unknown region,
    and nothing changes."""
    state = new_game(2, board="small")
    while state["phase"] == "start":
        seat = next(iter(GAME.pending(state)))
        state = act(state, seat, GAME.legal_actions(state, seat)[0])
    assert "china" not in state["regions"]
    seat = state["seats"][0]
    state = reveal_with(state, {seat: outcome(logistics=1, down=1)})
    assert state["phase"] == "logistics" and GAME.pending(state)[seat]["type"] == "logistics"
    before = copy.deepcopy(state["players"][seat])
    with pytest.raises(IllegalAction):
        act(state, seat, {"type": "logistics", "place": [["china", 1]]})
    assert state["players"][seat] == before and state["players"][seat]["logistics"] == {}


# --- the planner's summary of an outcome (planning.summary_for, summary_of_ref) -------------
# The planner groups the outcomes of a decision by (price, Goods, Improve, Research
# markers, Logistics markers); these are the sums of Phases 2-6 for the company's
# Technologies, worked out here by hand. A ref packs an outcome 6 bits a count:
# covered << 42 | face down << 36 | Down << 30 | Up << 24 | Production << 18 |
# Improve << 12 | Research << 6 | Logistics.


def _ref(covered: int, face_down: int, down: int, up: int, prod: int, improve: int, research: int, logistics: int) -> int:
    counts = (covered, face_down, down, up, prod, improve, research, logistics)
    return sum(n << shift for n, shift in zip(counts, (42, 36, 30, 24, 18, 12, 6, 0), strict=True))


def _summaries(state: dict, seat: str, active: dict, covered: int, face_down: int) -> tuple[tuple, tuple, tuple, list]:
    symbols = ("down", "up", "prod", "improve", "research", "logistics")
    # as Planning records it: the Improvements face down by name (the ref: their number)
    out = {"active": {k: active.get(k, 0) for k in symbols}, "covered": covered, "face_down": ["I01", "I02", "I03"][:face_down]}
    ref = _ref(covered, face_down, *(out["active"][k] for k in symbols))
    assert decisions.outcome_of_ref(ref)["active"] == out["active"]  # the packing above is the planner's
    full = planning.yields(state, seat, out)
    key = planning.summary_for(state, seat)(out)
    # as the planner lists outcomes: the face-down Improvements by their number
    assert planning.summary_for(state, seat)({**out, "face_down": face_down}) == key
    assert planning.yields(state, seat, {**out, "face_down": face_down}) == full
    return (
        key,
        planning.summary_of_ref(state, seat)(ref),
        (full["price"], full["goods"], full["improve"], full["research"], full["logistics"]),
        full["goods_parts"],
    )


def _with_techs(state: dict, seat: str, sides: dict[str, int]) -> dict:
    for tech, side in sides.items():
        state["techs"][tech]["side"] = side
    state["players"][seat]["techs"] = list(sides)
    return state


@pytest.mark.rule("SI-PRICE-02", "SI-PROD-01", "SI-PROD-02", "SI-PLAN-11", "SI-TECH-03", "SI-TECH-10", "SI-TECH-11", "SU-TEC-10")
def test_the_planner_summary_with_gps_nfc_li_ion_logistics_and_blitz_SI_TECH_03_SI_TECH_10_SI_TECH_11_SU_TEC_10():
    """p1 has GPS (Improve: 2 Goods), NFC (price +1), Li-Ion (Price symbols count as
    Logistics) and Blitz Wi-Fi with 1 Goods on Research and 1 on Logistics; 2 Goods
    tokens. Outcome: 1 Down, 2 Up, 3 Production, 1 Improve, 2 Research, 1 Logistics,
    4 cells covered, 2 Improvements face down.
    price 5 + 2 - 1 + 1 (NFC) = 7; Goods 3 + 2 tokens + 4 covered + 2 face down + 2 (GPS)
    = 13; Research 2 + 1 (Blitz) = 3; Logistics 1 + 1 (Blitz) + 3 Price symbols = 5."""
    state = _with_techs(new_game(3), "p1", {"gps": 0, "nfc": 1, "li-ion": 0, "wi-fi": 3})
    p1 = state["players"]["p1"]
    p1["tokens"], p1["blitz"] = 2, {"research": 1, "logistics": 1}
    active = {"down": 1, "up": 2, "prod": 3, "improve": 1, "research": 2, "logistics": 1}
    key, ref_key, full, parts = _summaries(state, "p1", active, covered=4, face_down=2)
    assert key == ref_key == full == (7, 13, True, 3, 5)
    assert parts == [["Production", 3], ["Goods tokens", 2], ["covered cells", 4], ["face down", 2], ["GPS", 2]]


@pytest.mark.rule("SI-PRICE-02", "SI-TECH-12")
def test_the_planner_summary_with_li_ion_goods_and_the_lowest_price_SI_TECH_12():
    """p1 has Li-Ion (1 Goods per 2 Technologies) and 4 Technologies: 2 Goods with
    nothing active; 5 Price Down take the price to 0, and a price is never below 1;
    3 Price Down take it to 2."""
    state = _with_techs(new_game(3), "p1", {"gps": 1, "nfc": 0, "li-ion": 1, "4g": 0})
    state["players"]["p1"]["tokens"] = 0
    key, ref_key, full, parts = _summaries(state, "p1", {"down": 5}, covered=0, face_down=0)
    assert key == ref_key == full == (1, 2, False, 0, 0)
    assert parts == [["Li-Ion", 2]]
    key, ref_key, full, parts = _summaries(state, "p1", {"down": 3}, covered=0, face_down=0)
    assert key == ref_key == full == (2, 2, False, 0, 0)


@pytest.mark.rule("SU-TEC-05", "SI-PROD-02")
def test_the_planner_summary_with_patent_goods_SU_TEC_05():
    """p1 has Patent benefit Li-Ion (2 Goods per Patent) and 2 Patents, GPS (side 0)
    and NFC (side 0: no price change): 1 covered cell + 4 = 5 Goods at price 5."""
    state = _with_techs(new_game(3), "p1", {"gps": 0, "nfc": 0, "li-ion": 2})
    p1 = state["players"]["p1"]
    p1["tokens"], p1["patents"] = 0, ["gps", "nfc"]
    key, ref_key, full, parts = _summaries(state, "p1", {}, covered=1, face_down=0)
    assert key == ref_key == full == (5, 5, False, 0, 0)
    assert parts == [["covered cells", 1], ["Patents", 4]]


@pytest.mark.rule("SI-STEVE-03", "SI-STEVE-05")
def test_the_planner_summary_of_steve_SI_STEVE_03_SI_STEVE_05():
    """Steve gets 1 Progress marker more (SI-STEVE-03) and makes no Goods from covered
    cells (SI-STEVE-05): 2 Production, 1 Research, 1 Down, 3 covered: price 4, 2 Goods,
    2 Research markers."""
    state = new_game(3, steve_seat=True)
    state["steve"]["bonus"] = 1
    state["players"]["steve"]["tokens"] = 0
    key, ref_key, full, parts = _summaries(state, "steve", {"prod": 2, "research": 1, "down": 1}, covered=3, face_down=0)
    assert key == ref_key == full == (4, 2, False, 2, 0)
    assert parts == [["Production", 2]]


# --- SU-HC-05: interest on savings, 1 per 20 VP rounded up (hardcore.interest) -------------


@pytest.mark.rule("SU-HC-05")
@pytest.mark.parametrize(("vp", "after"), [(21, 23), (41, 44), (42, 45)])
def test_interest_on_savings_just_above_a_multiple_of_20_SU_HC_05(vp, after):
    """SU-HC-05: "above 0 gain 1 per 20 VP (rounded up)". 21 VP: 21/20 rounded up is 2
    (23 VP); 41 and 42 VP: 3 (44, 45). (Per 21 VP it would be 1, 2, 2.)"""
    state = reveal_with(new_game(2, hardcore=True), {"p1": outcome(research=1)})
    assert state["phase"] == "research"
    state["players"]["p1"]["vp"] = vp
    state = act_here(state, "p1", {"type": "research", "place": {"gps": 1}})
    flow.run(state, "logistics")  # the end of p1's Research turn: the interest
    assert state["players"]["p1"]["vp"] == after


# --- SI-VP-02 with SU-TEC-04: second Goods go back to their owner's supply too ------------


@pytest.mark.rule("SI-VP-02", "SU-TEC-04")
def test_second_goods_return_to_their_owners_supply_at_the_end_of_the_round_SI_VP_02_SU_TEC_04():
    """SI-VP-02: "after Phase 8 Goods leave the board"; SU-TEC-04 (Patent benefit
    Gamepad) puts a second Goods of the same company on a Buyer it sold to (common.py
    goods_on). India: p2 on the first Buyer with a second Goods, p1 on the second, p1
    on the third with a second Goods: 2 Goods of p2 there, 3 of p1. Supplies 13 (p1)
    and 14 (p2) both become 16, and India's Buyers are free."""
    state = new_game(3)
    p1, p2 = state["players"]["p1"], state["players"]["p2"]
    state["regions"]["india"]["sold"] = ["p2", "p1", "p1", None]
    state["seconds"] = {"india": [0, 2]}
    p1["supply"], p2["supply"] = 13, 14
    scoring.reset_round(state)
    assert (p1["supply"], p2["supply"]) == (16, 16)
    assert state["regions"]["india"]["sold"] == [None, None, None, None]
    assert state["seconds"] == {}


# --- SI-STEVE-06 with an empty Block: Steve's Goods tokens add up (steve.improve) ---------


@pytest.mark.rule("SI-STEVE-06", "SI-STEVE-05")
def test_steve_takes_a_goods_token_more_when_the_block_is_empty_SI_STEVE_06():
    """SI-STEVE-06: Steve takes the top Improvement of the Block; with the Block empty he
    takes a Goods token instead (DATA.md, "Empty Improvement Block"), one more than he
    has: 2 Goods tokens become 3, and his Delayed Improvement space is unchanged."""
    state = new_game(3, steve_seat=True)
    state["block"] = []
    state["players"]["steve"]["tokens"] = 2
    delayed = state["steve"]["delayed"]
    state = reveal_with(state, {}, "research")
    assert state["players"]["steve"]["tokens"] == 3
    assert state["steve"]["delayed"] == delayed


# --- SI-TECH-13: 4G's Improvement beyond the Pads' edges counts at the reveal -------------


@pytest.mark.rule("SI-TECH-13", "SI-PLAN-06", "SI-PLAN-07")
def test_an_improvement_beyond_the_edge_with_4g_counts_at_the_reveal_SI_TECH_13():
    """SI-TECH-13: "Improvements may extend beyond the Pads' edges in Phase 1" with 4G
    (side 0). p1's decision (tests/test_pads.py's REF, A0 under B1 at 1,1) has active
    2 Price Up, 2 Production, 1 Improve, 2 Research, 2 Logistics; I07 at (3,0)-(3,1),
    half off the Pads, shows Price Up on both cells and covers a Logistics symbol of the
    top Pad: 4 Price Up and 1 Logistics at the reveal."""
    state = new_game(2)
    p1 = state["players"]["p1"]
    p1["techs"] = ["4g"]
    assert state["techs"]["4g"]["side"] == 0
    p1["improvements"] = [*p1["improvements"], "I07"]
    plan = pads.parse_plan("A0/B1 r0 @1,1 | I07 3,0 r1 over")
    state = act(state, "p1", {"type": "plan", "plan": plan})
    state = act(state, "p2", {"type": "plan", "plan": PLAN})  # the last plan: the reveal
    assert state["phase"] != "planning"
    assert state["players"]["p1"]["outcome"]["active"] == {
        "down": 0, "up": 4, "prod": 2, "improve": 1, "research": 2, "logistics": 1
    }


# --- SI-PLAN-12: no taking a plan back after the reveal (planning.can_unseal) -------------


@pytest.mark.rule("SI-PLAN-12", "SI-PLAN-01")
def test_a_plan_cannot_be_taken_back_after_the_reveal_SI_PLAN_12():
    """SI-PLAN-12: "a decision cannot be changed after Phase 1". While Planning is open
    p1 may take its sealed plan back; once p2's plan is in, the plans are revealed and
    p1's plan (still recorded) can no longer be taken back: refused as such, in every
    later phase, and nothing changes."""
    state = new_game(2)
    state = act(state, "p1", {"type": "plan", "plan": PLAN})
    assert planning.can_unseal(state, "p1") is True
    assert planning.can_unseal(state, "p2") is False  # nothing sealed
    state = act(state, "p2", {"type": "plan", "plan": PLAN})
    assert state["phase"] != "planning" and state["players"]["p1"]["plan"] is not None
    assert planning.can_unseal(state, "p1") is False and planning.can_unseal(state, "p2") is False
    before = copy.deepcopy(state["players"])
    for seat in ("p1", "p2"):
        with pytest.raises(IllegalAction, match="no sealed plan of yours to take back"):
            act(state, seat, {"type": "unseal"})
    assert state["players"] == before


# --- SU-BRD-02: on the 2-3 player board companies are picked at the table -----------------


@pytest.mark.rule("SU-BRD-02")
def test_colours_cannot_be_given_for_the_small_board_SU_BRD_02():
    """SU-BRD-02: on the 2-3 player board "companies are picked in clockwise order from a
    random first player", at the table. A setup giving each seat its colour beforehand
    is refused there (it is allowed on the big board); without colours the first
    decision of the small board is a company pick."""
    colours = {"p1": "red", "p2": "green"}
    with pytest.raises(IllegalAction, match="picked at the table"):
        GAME.setup(["p1", "p2"], 1, {"board": "small", "colours": colours})
    big = GAME.setup(["p1", "p2"], 1, {"board": "big", "colours": colours})
    assert big["players"]["p1"]["colour"] == "red" and big["players"]["p2"]["colour"] == "green"
    small = GAME.setup(["p1", "p2"], 1, {"board": "small"})
    assert small["phase"] == "start"
    assert [p["type"] for p in GAME.pending(small).values()] == ["company"]


# --- SU-TEC-10: a Blitz symbol left out of the action gets no Goods ------------------------


@pytest.mark.rule("SU-TEC-10")
def test_blitz_puts_goods_only_where_the_action_says_SU_TEC_10():
    """SU-TEC-10: "put up to 2 Available Goods on Logistics and/or Research symbols (one
    each)". p2 makes 3 Goods and has both symbols active; the legal actions name only
    the symbols that get a Goods (game.legal_actions). {"research": 1}: 1 Goods on
    Research, none on Logistics, 2 Goods left. {} (none): 3 Goods left, nothing placed."""
    state = with_tech(new_game(3, technologies="i-want-some-space"), "p2", "blitz-wi-fi")
    state = reveal_with(state, {"p2": outcome(covered=3, research=1, logistics=1, down=1)})
    assert GAME.pending(state)["p2"]["symbols"] == ["research", "logistics"]
    assert {"type": "blitz", "research": 1} in GAME.legal_actions(state, "p2")
    assert {"type": "blitz"} in GAME.legal_actions(state, "p2")
    one = act_here(state, "p2", {"type": "blitz", "research": 1})
    assert one["players"]["p2"]["goods"] == 2
    assert one["players"]["p2"]["blitz"] == {"research": 1, "logistics": 0}
    none = act_here(state, "p2", {"type": "blitz"})
    assert none["players"]["p2"]["goods"] == 3
    assert none["players"]["p2"]["blitz"] == {"research": 0, "logistics": 0}
