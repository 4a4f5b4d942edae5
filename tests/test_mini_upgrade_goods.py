"""Update 1.1: a Mini-upgrade left face down makes no Goods (``new_technologies.face_down_goods``,
applied at the reveal). ``decisions.goods_effects`` lists the outcomes with the face-down
pieces that make Goods, so the planner and the greedy player value each outcome by the
Goods its plan really makes."""

from __future__ import annotations

import copy

import pytest
from si_support import new_game

from engine.smartphone_inc import decisions as D
from engine.smartphone_inc import flow, greedy, pads, planning
from engine.smartphone_inc.game import GAME
from engine.smartphone_inc.new_technologies import face_down_goods

OWNED = ["S-green", "M1", "I03"]


def _goods(active: dict[str, int], covered: int, face_down: int) -> int:
    return int(active.get("prod", 0)) + covered + face_down


@pytest.mark.parametrize(("has_4g", "literal"), [(False, False), (False, True), (True, True)])
def test_every_outcome_gives_the_goods_its_plan_makes(has_4g: bool, literal: bool) -> None:
    outcomes = D.goods_effects(OWNED, has_4g, literal_cover=literal)
    assert len(outcomes) > 100
    mini_face_down = 0
    for o in outcomes:
        plan = D.outcome_plan(OWNED, has_4g, o["ref"], literal_cover=literal)
        ev = pads.evaluate(plan, OWNED, has_4g, literal)
        made = face_down_goods(ev["face_down"])  # as planning.reveal records it
        assert (o["active"], o["covered"]) == ({k: ev["active"].get(k, 0) for k in o["active"]}, ev["covered"])
        assert _goods(o["active"], o["covered"], D.face_down_count(o)) == _goods(ev["active"], ev["covered"], len(made))
        mini_face_down += "M1" in ev["face_down"]
    assert mini_face_down  # the case that matters is there: the Mini-upgrade left face down


def test_the_revealed_outcome_has_the_goods_listed() -> None:
    """Through the game itself: seal some listed plans, reveal, compare the Goods."""
    state = new_game(2, seed=4)
    assert state["phase"] == "planning"
    a, b = state["seats"]
    for seat in (a, b):
        state["players"][seat]["improvements"] = list(OWNED)
    literal = planning.literal_cover(state)
    outcomes = D.goods_effects(OWNED, False, literal_cover=literal)
    picked = [o for o in outcomes if len(o["face_down"]) < len([i for i in OWNED if i not in {
        p["id"] for p in D.outcome_plan(OWNED, False, o["ref"], literal_cover=literal).get("improvements") or []
    }])][:3]
    assert picked, "no outcome leaves the Mini-upgrade face down"
    for o in picked:
        s = copy.deepcopy(state)
        for seat in (a, b):
            plan = D.outcome_plan(OWNED, False, o["ref"], literal_cover=literal)
            s = GAME.apply(s, seat, {"type": "plan", "plan": plan})
        revealed = s["players"][a]["outcome"]
        assert revealed is not None and "M1" not in revealed["face_down"]
        assert planning.yields(s, a, revealed)["goods"] == planning.yields(state, a, o)["goods"]


@pytest.mark.parametrize("owned", [OWNED, ["M1", "M2"]])
def test_greedy_values_the_goods_its_plans_make(owned: list[str]) -> None:
    """The greedy player's pick is the best by the Goods each plan really makes (with two
    Mini-upgrades, counting them face down as Goods picked a plan worth 70.4, not 73)."""
    state = new_game(3, seed=2)
    seat = state["seats"][0]
    p = state["players"][seat]
    p["improvements"] = list(owned)
    for reg in state["regions"].values():  # plenty of buyers: every Good counts
        if seat not in reg["offices"]:
            reg["offices"].append(seat)
    assert flow.pending(state).get(seat, {}).get("type") == "plan"
    score = greedy.plan_scorer(state, seat)
    literal = planning.literal_cover(state)

    def true_score(plan: dict) -> float:
        ev = pads.evaluate(plan, owned, False, literal)
        return score({"active": ev["active"], "covered": ev["covered"], "face_down": face_down_goods(ev["face_down"])})

    every = D.distinct_outcomes(owned, False, with_plans=True, literal_cover=literal)
    best = max(true_score(o["plan"]) for o in every)
    action = greedy.greedy_action(state, seat)
    assert true_score(action["plan"]) == best
