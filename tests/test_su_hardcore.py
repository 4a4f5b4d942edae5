"""Smartphone Inc. Update 1.1: Hardcore Mode (SU-HC-01..06, SU-HC-08), an option of the
base game. (SU-HC-07, Directives under Hardcore: tests/test_su_directives.py.)"""

from __future__ import annotations

import pytest
from si_support import PLAN, act_here, new_game, outcome, reveal_with

from engine import IllegalAction
from engine.smartphone_inc import flow, hardcore, technologies
from engine.smartphone_inc.data import START_VP, TECHS
from engine.smartphone_inc.game import GAME
from engine.smartphone_inc.scoring import final_scores

# Bottom Pad A side 0, top Pad B side 1 one step right and down: the top Pad hides the
# bottom's Improve symbol and one open cell.
COVERED_IMPROVE = {"bottom": {"pad": "A", "side": 0}, "top": {"side": 1, "rot": 0, "x": 1, "y": 1}, "improvements": []}


def sealed(n: int, plans: dict[str, dict]) -> dict:
    state = new_game(n, hardcore=True)
    for seat in state["seats"]:
        state = GAME.apply(state, seat, {"type": "plan", "plan": plans.get(seat, PLAN)})
    return state


def test_hardcore_is_an_option():
    assert new_game(3)["options"]["hardcore"] is False
    with pytest.raises(IllegalAction):
        new_game(3, hardcore="yes")


def test_paying_for_the_decision_SU_HC_01_SU_HC_02():
    """SU-HC-01/02: Research 3, Logistics 2, Price Up 1, Production 1, Improve 0, Price
    Down -1 per active icon; each Improve symbol, active or covered, takes 2 off."""
    state = sealed(2, {"p1": COVERED_IMPROVE})
    p1 = state["players"]["p1"]
    # active: prod 2, research 2, up 2, logistics 2, improve 1 (the bottom's is covered)
    assert p1["outcome"]["active"] == {"down": 0, "up": 2, "prod": 2, "improve": 1, "research": 2, "logistics": 2}
    assert hardcore.improve_symbols(state, "p1") == 2
    assert hardcore.decision_cost(state, "p1") == 3 * 2 + 2 * 2 + 1 * 2 + 1 * 2 - 2 * 2  # 10
    # PLAN: prod 2, research 2, logistics 2, improve 2, down 2; 2 Improve symbols
    assert hardcore.decision_cost(state, "p2") == 3 * 2 + 2 * 2 + 2 - 2 - 2 * 2  # 6
    line = f"p1 pays 10 VP (for its decision); {START_VP['green'] - 10} VP."  # green starts on its space
    assert line in state["log"]
    assert state["log"].index(line) > state["log"].index("p1 sets price 7.")


def test_the_payment_is_never_below_zero_SU_HC_02():
    """SU-HC-02: the discount goes down to 0, never below."""
    state = sealed(2, {})
    state["players"]["p1"]["outcome"] = outcome(prod=1, down=1)  # 0 before the discount
    assert hardcore.decision_cost(state, "p1") == 0
    state["players"]["p1"]["outcome"] = outcome(down=3)
    assert hardcore.decision_cost(state, "p1") == 0


def test_decisions_paid_from_the_lowest_price_SU_HC_01():
    state = sealed(3, {"p3": COVERED_IMPROVE})
    lines = [x for x in state["log"] if "for its decision" in x]
    order = [x.split()[0] for x in lines]
    prices = {s: state["players"][s]["price"] for s in state["seats"]}
    assert order == sorted(order, key=lambda s: (prices[s], state["players"][s]["start"]))


def test_production_costs_1_vp_per_goods_SU_HC_03():
    """SU-HC-03: 1 VP per Goods produced."""
    state = new_game(2, hardcore=True)
    start = {s: state["players"][s]["vp"] for s in state["seats"]}
    state = reveal_with(state, {"p1": outcome(covered=3, prod=2), "p2": outcome(covered=1)}, "improve")
    assert state["players"]["p1"]["goods"] == 5 and state["players"]["p1"]["vp"] == start["p1"] - 5
    assert state["players"]["p2"]["vp"] == start["p2"] - 1


def test_patent_vp_at_once_and_not_again_SU_HC_04_SU_HC_08():
    """SU-HC-04/08: a Patent scores when claimed, not again at the end."""
    state = new_game(2, hardcore=True)
    start = state["players"]["p1"]["vp"]
    technologies.gain(state, "p1", "nfc")
    assert state["players"]["p1"]["vp"] == start + TECHS["nfc"]["patent_vp"]
    row = next(r for r in final_scores(state)["scores"] if r["seat"] == "p1")
    assert row["vp"] == start + TECHS["nfc"]["patent_vp"] and row["patent_vp"] == 0


@pytest.mark.parametrize(("vp", "after"), [(-15, -17), (-10, -11), (-1, -2), (0, 0), (1, 2), (20, 21), (25, 27)])
def test_interest_after_research_SU_HC_05(vp, after):
    """SU-HC-05: below 0 pay 1 per 10 of debt (rounded up); above 0 earn 1 per 20 (rounded up)."""
    state = new_game(2, hardcore=True)
    state = reveal_with(state, {"p1": outcome(research=1)})
    assert state["phase"] == "research"
    state["players"]["p1"]["vp"] = vp
    state = act_here(state, "p1", {"type": "research", "place": {"gps": 1}})
    flow.run(state, "logistics")
    assert state["players"]["p1"]["vp"] == after


def test_retailer_vp_when_placed_and_lost_when_moved_SU_HC_06():
    """SU-HC-06: Retailer VP when the Office is placed; lost if it moves away."""
    state = new_game(5, hardcore=True)
    state["regions"]["emirates"]["retailer"] = {"id": "R5", "side": 0}  # VP 3, 1; no bonus
    state["regions"]["rsa"]["retailer"] = {"id": "R3", "side": 1}  # VP 2, 2, 1; move an Office
    state = reveal_with(state, {"p2": outcome(logistics=2)})
    vp = state["players"]["p2"]["vp"]
    state = act_here(state, "p2", {"type": "logistics", "place": [["emirates", 2]]})
    assert state["players"]["p2"]["vp"] == vp + 3
    from engine.smartphone_inc.retailers import move_office

    move_office(state, "p2", "emirates", "china")
    assert state["players"]["p2"]["vp"] == vp
    assert final_scores(state)["scores"][0]["retailer_vp"] == 0  # SU-HC-08: never counted again


def test_vp_may_go_negative_and_the_highest_wins_SU_HC_08():
    """SU-HC-08: VP may be negative; the highest score wins."""
    from engine.simulate import play_game

    final, _, _ = play_game("smartphone-inc", ["a", "b", "c"], 4, {"hardcore": True}, "random")
    res = GAME.result(final)
    assert any(r["vp"] < 0 for r in res["scores"])
    best = max(r["vp"] for r in res["scores"])
    assert all(r["vp"] == best for r in res["scores"] if r["rank"] == 1)
    for r in res["scores"]:
        assert r["vp"] == final["players"][r["seat"]]["vp"]  # nothing added at the end


def test_a_shifted_office_pays_back_what_it_was_paid_SU_HC_06():
    """SU-HC-06 (the issue's case): in Australia (spaces 3, 2, 1) A's Office sits first and
    B's second, so B was paid 2. A moves away: A loses its 3, B shifts onto the 3 space
    and gains nothing (it was not placed there). B moves away later: B loses its 2, so
    holding the space cost B nothing overall. An Office moved onto a Retailer is paid
    for the space it lands on, and that is what it pays back."""
    from engine.smartphone_inc.logistics import found_office
    from engine.smartphone_inc.retailers import move_office

    state = new_game(3, hardcore=True)
    state["regions"]["australia"]["retailer"] = {"id": "R2", "side": 1}  # VP 3, 2, 1
    state["regions"]["australia"]["offices"] = []
    vp = {s: state["players"][s]["vp"] for s in state["seats"]}
    found_office(state, "p1", "australia", bonus=False)
    found_office(state, "p2", "australia", bonus=False)
    assert state["players"]["p1"]["vp"] == vp["p1"] + 3
    assert state["players"]["p2"]["vp"] == vp["p2"] + 2
    move_office(state, "p1", "australia", "china")  # A leaves with a Retailer bonus
    assert state["regions"]["australia"]["offices"] == ["p2"]  # B shifted left
    assert state["players"]["p1"]["vp"] == vp["p1"]
    assert state["players"]["p2"]["vp"] == vp["p2"] + 2  # the shift gains nothing
    move_office(state, "p2", "australia", "china")  # B leaves later
    assert state["players"]["p2"]["vp"] == vp["p2"]  # loses the 2 it was paid, not 3
    # moving onto a Retailer: paid for the space reached, and exactly that comes back
    state["regions"]["europe"]["offices"] = ["p3"]
    state["regions"]["europe"]["retailer"] = {"id": "R6", "side": 0}  # VP 4, 3, 2, 1
    move_office(state, "p2", "china", "europe")
    assert state["players"]["p2"]["vp"] == vp["p2"] + 3
    move_office(state, "p3", "europe", "china")  # p2 shifts onto the 4 space
    assert state["players"]["p2"]["vp"] == vp["p2"] + 3
    move_office(state, "p2", "europe", "china")
    assert state["players"]["p2"]["vp"] == vp["p2"]
