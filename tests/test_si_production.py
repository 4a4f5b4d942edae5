"""Smartphone Inc. Phases 2-4: Set Prices, Production, Improve Production, and the
Priority Rule."""

from __future__ import annotations

import pytest
from si_support import act, new_game, outcome, pass_turns, reveal_with

from engine import IllegalAction
from engine.smartphone_inc import technologies
from engine.smartphone_inc.game import GAME


def test_prices_reset_to_5_each_round_SI_PRICE_01():
    """SI-PRICE-01: every price is 5 at the start of each round."""
    state = reveal_with(new_game(3), {"p1": outcome(down=2), "p2": outcome(up=1)}, "improve")
    assert state["players"]["p1"]["price"] == 3
    state = pass_turns(state, "planning")
    assert state["round"] == 2
    assert all(state["players"][s]["price"] == 5 for s in state["seats"])


def test_two_price_down_gives_price_3_SI_PRICE_02():
    """SI-PRICE-02 (ex): 2 active Price Down -> price 3; each Price Up +1."""
    state = reveal_with(new_game(3), {"p1": outcome(down=2), "p2": outcome(up=2, down=1), "p3": outcome()}, "improve")
    assert [state["players"][s]["price"] for s in ("p1", "p2", "p3")] == [3, 6, 5]


# Pad A side 0 (filled diamond), as printed:      Pad B side 0:
#   (0,0) Production  (1,0) Research  (2,0) Up        Down    Logistics  Production
#   (0,1) Logistics   (1,1) Improve   (2,1) open      Improve Research   Down
# p1: B0 on top at x=1 covers (1,0) (2,0) (1,1) (2,1) = 4 cells; S-green (Production,
# Research) over (0,1)-(1,1). Visible Production: A (0,0), B's third cell at (3,0), and
# S-green's half: 3. 4 covered + 3 Production = 7 (the rulebook's example). S-blue
# (Production, Logistics) placed the same way does the same for p2.
def plan_7(starting: str = "S-green") -> dict:
    return {
        "bottom": {"pad": "A", "side": 0},
        "top": {"side": 0, "rot": 0, "x": 1, "y": 0},
        "improvements": [{"id": starting, "x": 0, "y": 1, "rot": 0, "layer": "over"}],
    }


PLAN_7 = plan_7()
# B0 on top at x=2, y=1 covers only the open cell (2,1); visible Production: A (0,0)
# and B's third cell at (4,1); the starting Improvement lies face down: 1 + 2 + 1 = 4.
PLAN_4 = {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": 2, "y": 1}, "improvements": []}


def planned(state, plans):
    """Seal real plans (the Pad geometry runs) and play to the first decision after them."""
    for seat, plan in plans.items():
        assert GAME.pending(state)[seat]["type"] == "plan"
        state = act(state, seat, {"type": "plan", "plan": plan})
    return state


def test_production_symbols_and_covered_cells_SI_PROD_01_SI_PROD_02_SI_PROD_03():
    """SI-PROD-01/02/03 (ex): each active Production symbol and each bottom cell covered by
    the other Pad makes 1 Goods, into Available Goods: 4 covered + 3 Production = 7."""
    state = planned(new_game(3), {"p1": PLAN_7, "p2": PLAN_4, "p3": PLAN_4})
    assert state["phase"] == "improve"
    assert state["players"]["p1"]["outcome"]["covered"] == 4
    assert state["players"]["p1"]["outcome"]["active"]["prod"] == 3
    assert state["players"]["p1"]["goods"] == 7
    assert state["players"]["p1"]["supply"] == 18 - 7
    assert state["players"]["p2"]["goods"] == 4 and state["players"]["p3"]["goods"] == 4

def test_face_down_improvements_and_goods_tokens_produce_SI_PLAN_10_SI_PLAN_11():
    """SI-PLAN-10/11: each face-down Improvement and each Goods token produces 1 Goods."""
    state = new_game(3)
    state["players"]["p1"]["tokens"] = 2
    state = reveal_with(state, {"p1": outcome(covered=2, face_down=("S-green",))}, "improve")
    assert state["players"]["p1"]["goods"] == 2 + 1 + 2


def test_production_is_exactly_what_can_be_made_SI_PROD_04():
    """SI-PROD-04 (FAQ): a company produces exactly what its decision makes: nobody is
    asked anything between the plans and Phase 4, and only the supply limits it."""
    state = new_game(3)
    state["players"]["p2"]["supply"] = 3
    state = planned(state, {"p1": PLAN_7, "p2": plan_7("S-blue"), "p3": PLAN_4})
    assert state["phase"] == "improve"  # Phases 2 and 3 ran with no decision
    assert all(p["type"] == "improvement" for p in GAME.pending(state).values())
    assert state["players"]["p1"]["goods"] == 7  # not fewer
    assert state["players"]["p2"]["goods"] == 3 and state["players"]["p2"]["supply"] == 0
    assert state["players"]["p3"]["goods"] == 4

def test_priority_lowest_price_first_SI_PRIO_01():
    """SI-PRIO-01: from Phase 4 on, lowest price acts first."""
    state = reveal_with(new_game(3), {"p1": outcome(up=1), "p2": outcome(), "p3": outcome(down=1)}, "improve")
    assert state["turn"]["order"] == ["p3", "p2", "p1"]


def test_priority_equal_price_lower_vp_first_SI_PRIO_02():
    """SI-PRIO-02: equal prices, the lower VP goes first."""
    state = new_game(3)
    state["players"]["p1"]["vp"] = 10
    state["players"]["p2"]["vp"] = 4
    state = reveal_with(state, {}, "improve")
    assert state["turn"]["order"] == ["p3", "p2", "p1"]


def test_priority_equal_price_and_vp_starting_position_SI_PRIO_03():
    """SI-PRIO-03 (FAQ): equal price and VP: the starting position on the scoreboard."""
    state = reveal_with(new_game(3, colours={"p1": "yellow", "p2": "green", "p3": "black"}), {}, "improve")
    assert state["turn"]["order"] == ["p2", "p3", "p1"]


def test_priority_rechecked_each_phase_SI_PRIO_04():
    """SI-PRIO-04: a price changed during the round changes the next phase's order."""
    state = reveal_with(new_game(3), {}, "improve")
    assert state["phase"] == "improve" and state["turn"]["order"] == ["p1", "p2", "p3"]
    state["players"]["p3"]["price"] = 4  # e.g. a Retailer's price bonus
    state = pass_turns(state, "research")
    assert state["turn"]["order"] == ["p3", "p1", "p2"]


def test_active_improve_symbol_takes_an_improvement_SI_IMP_01():
    """SI-IMP-01: in priority order, an active Improve Production symbol takes one of choice."""
    state = reveal_with(new_game(3), {"p1": outcome(improve=1), "p2": outcome(improve=1, down=1)})
    assert state["phase"] == "improve"
    assert list(GAME.pending(state)) == ["p2"]  # lower price first
    block = list(state["block"])
    choice = block[3]
    state = act(state, "p2", {"type": "improvement", "id": choice})
    assert choice in state["players"]["p2"]["improvements"] and choice not in state["block"]
    assert list(GAME.pending(state)) == ["p1"]
    with pytest.raises(IllegalAction):
        act(state, "p1", {"type": "improvement", "id": choice})


def test_inactive_improve_symbol_takes_goods_token_SI_IMP_02():
    """SI-IMP-02: without an active Improve Production symbol, a Goods token instead."""
    state = reveal_with(new_game(3), {"p1": outcome(improve=1, up=1)})
    assert state["phase"] == "improve" and list(GAME.pending(state)) == ["p1"]
    assert state["players"]["p2"]["tokens"] == 1 and state["players"]["p3"]["tokens"] == 1
    assert state["players"]["p1"]["tokens"] == 0


def test_new_improvement_and_token_usable_next_round_SI_IMP_03():
    """SI-IMP-03: what Phase 4 gives is used from the next round on."""
    state = reveal_with(new_game(3), {"p1": outcome(improve=1, up=1)})
    pick = state["block"][0]
    assert state["players"]["p2"]["tokens"] == 1
    assert state["players"]["p2"]["goods"] == 1  # the new token produced nothing this round
    state = act(state, "p1", {"type": "improvement", "id": pick})
    state = pass_turns(state, "planning")
    assert pick in GAME.pending(state)["p1"]["improvements"]
    state = reveal_with(state, {}, "improve")
    assert state["players"]["p2"]["goods"] == 2  # 1 covered + 1 token


def test_block_renewed_after_phase_8_SI_IMP_04():
    """SI-IMP-04: Block leftovers leave the game; 5 new ones are revealed."""
    state = reveal_with(new_game(3), {"p1": outcome(improve=1)})
    pick = state["block"][0]
    leftovers = list(state["block"][1:])
    pile_top = list(state["pile"][:5])
    state = act(state, "p1", {"type": "improvement", "id": pick})
    state = pass_turns(state, "planning")
    assert state["block"] == pile_top
    assert not set(leftovers) & set(state["block"] + state["pile"])


def test_gps_improve_symbol_gives_two_goods_SI_TECH_03():
    """SI-TECH-03: GPS (side 0): each active Improve Production symbol makes 2 Goods."""
    state = new_game(3)
    technologies.gain(state, "p1", "gps")
    state = reveal_with(state, {"p1": outcome(covered=1, improve=1), "p2": outcome(covered=1, improve=1)}, "improve")
    assert state["players"]["p1"]["goods"] == 3 and state["players"]["p2"]["goods"] == 1


def test_li_ion_goods_every_phase_3_SI_TECH_12():
    """SI-TECH-12: Li-Ion (side 1): 1 Goods per 2 Technologies, at once and each Phase 3."""
    state = new_game(3, tech_sides={"li-ion": 1})
    technologies.gain(state, "p1", "gps")
    assert state["players"]["p1"]["goods"] == 0
    technologies.gain(state, "p1", "li-ion")
    assert state["players"]["p1"]["goods"] == 1  # 2 Technologies -> 1 Goods at once
    state["players"]["p1"]["goods"] = 0
    state["players"]["p1"]["supply"] = 18
    state = reveal_with(state, {"p1": outcome(covered=1)}, "improve")
    assert state["players"]["p1"]["goods"] == 2


def test_nfc_price_up_now_and_every_round_SI_TECH_10():
    """SI-TECH-10: NFC (side 1): price +1 at once and in every Phase 2."""
    state = reveal_with(new_game(3, tech_sides={"nfc": 1}), {}, "improve")
    technologies.gain(state, "p1", "nfc")
    assert state["players"]["p1"]["price"] == 6
    state = pass_turns(state, "planning")
    assert state["players"]["p1"]["price"] == 5
    state = reveal_with(state, {"p1": outcome(down=1), "p2": outcome(down=1)}, "improve")
    assert state["players"]["p1"]["price"] == 5 and state["players"]["p2"]["price"] == 4


@pytest.mark.parametrize("techs", [[], ["gps"], ["li-ion", "nfc"], ["gps", "li-ion", "nfc", "wi-fi"]])
@pytest.mark.parametrize("sides", [0, 1])
def test_plan_yields_match_what_the_phases_do(techs, sides):
    """planning.yields (shown by the planner and the pictures) equals Phases 2-6."""
    from engine.smartphone_inc import logistics, planning, research

    state = new_game(3, tech_sides={t: sides for t in ("gps", "li-ion", "nfc", "wi-fi")})
    state["players"]["p1"]["tokens"] = 1
    for t in techs:
        state["players"]["p1"]["techs"].append(t)  # owned, without the one-time bonuses
    out = outcome(covered=2, face_down=("S-green",), prod=2, improve=1, up=1, down=2, research=1, logistics=1)
    expected = planning.yields(state, "p1", out)
    state = reveal_with(state, {"p1": out}, "improve")
    p = state["players"]["p1"]
    assert p["goods"] == expected["goods"] and p["price"] == expected["price"]
    assert research.markers(state, "p1") == expected["research"]
    assert logistics.markers(state, "p1") == expected["logistics"]
    view = GAME.view(state, None)
    assert view["players"]["p1"]["yields"] == expected


def test_last_round_result_kept_for_the_next_round():
    state = new_game(5)
    state = reveal_with(state, {"p2": outcome(covered=3, down=2)}, "vp")
    state = pass_turns(state, "planning")
    last = GAME.view(state, None)["last_round"]
    assert last["round"] == 1 and last["sold"]["p2"] == 2
    assert last["vp"]["p2"] == 2 * 3 + 1 and last["control"]["north-africa"] == {"p2": 1}
