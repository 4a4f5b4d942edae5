"""Age of Automaton: special actions, the Reliability track and free actions
(AA-SPC-*, AA-REL-*, AA-FREE-*, AA-ACT-04 with Overtime)."""

from __future__ import annotations

import pytest

from engine.age_of_automaton import data, flow, reliability, special
from engine.age_of_automaton.actions import prospect
from engine.age_of_automaton.game import GAME
from engine.errors import IllegalAction
from tests.aoa_support import answer_all, drafted


def game():
    s = drafted(3, 1)
    assert s["turn"]["seat"] == "Emily"
    return s


def me(s):
    return s["players"]["Emily"]


@pytest.mark.parametrize("name,credits", [("overtime", 2), ("overbuilt", 3), ("overclock", 2)])
def test_each_special_costs_one_reliability_and_credits_AA_SPC_01(name, credits):
    s = game()
    p = me(s)
    p["credits"] = 10
    if name == "overtime":
        s = GAME.apply(s, "Emily", {"type": "main", "action": "funding"})
        p = me(s)
        p["credits"] = 10
    action = {"type": "special", "name": name}
    if name == "overclock":
        action["level"] = 1
    s2 = GAME.apply(s, "Emily", action) if name != "overtime" else None
    if name == "overtime":
        # Overtime is played right before a main action: not after this turn's main action
        with pytest.raises(IllegalAction):
            GAME.apply(s, "Emily", action)
        s = game()
        s["players"]["Emily"]["markers"] = ["prospect"]
        s["players"]["Emily"]["credits"] = 10
        s2 = GAME.apply(s, "Emily", action)
    q = s2["players"]["Emily"]
    assert q["reliability"] == 1 and reliability.value(q) == 7
    assert q["credits"] == 10 - credits


def test_overtime_second_action_same_column_prospect_blocks_funding_AA_SPC_02_AA_ACT_04():
    """Example: if Prospect is played this round, Funding cannot be, unless Overtime."""
    s = game()
    p = me(s)
    p["markers"] = ["prospect"]
    p["credits"] = 5
    assert flow.main_blocked(s, "Emily", "funding") is not None
    assert not [o for o in flow.options(s, "Emily") if o.get("action") in ("funding", "prospect")]
    s = GAME.apply(s, "Emily", {"type": "special", "name": "overtime"})
    # right before the main action: nothing else in between, and only a used column
    assert {o["type"] for o in flow.options(s, "Emily")} == {"main"}
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "contract", "card": data.STARTERS[0]})
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "main", "action": "purchasing"})
    assert {"type": "main", "action": "funding"} in flow.options(s, "Emily")
    assert not [o for o in flow.options(s, "Emily") if o.get("action") == "prospect"]  # once per round
    s = GAME.apply(s, "Emily", {"type": "main", "action": "funding"})
    assert s["players"]["Emily"]["markers"] == ["prospect", "funding"]
    assert s["turn"]["overtime"] is False


def test_overbuilt_adds_level_i_AA_SPC_03():
    s = game()
    me(s)["credits"] = 5
    s = GAME.apply(s, "Emily", {"type": "special", "name": "overbuilt"})
    assert me(s)["tech"] == [2, 0, 0, 1] and me(s)["unbuilt"] == 3


def test_overclock_one_level_AA_SPC_04():
    s = game()
    me(s)["credits"] = 5
    s = GAME.apply(s, "Emily", {"type": "special", "name": "overclock", "level": 1})
    assert me(s)["tech"] == [0, 1, 0, 1]
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "special", "name": "overclock", "level": 4})


def test_overdrive_emily_ii_iv_v_to_i_ii_iii_AA_SPC_05():
    """Example: Level II worker, dice II, IV, V; Overdrive (one reliability, 2 credits: the
    dice lowered twice) -> I, II, III: she moves two spaces up."""
    s = game()
    p = me(s)
    p["tech"] = [0, 1, 0, 1]
    p["credits"] = 5
    s = GAME.apply(s, "Emily", {"type": "main", "action": "prospect", "worker": 2, "track": "moon"})
    s["dice"]["faces"] = [2, 4, 5]
    prompt = GAME.pending(s)["Emily"]
    assert prompt["passes"] == 1 and prompt["overdrive"]["passes_after"] == 1
    assert prompt["overdrive"]["credits"] == 1 and prompt["overdrive"]["reliability"] == 1
    assert "pay 1 credit + 1 Reliability to lower all dice by 1 → 1 pass" in prompt["text"]
    s = GAME.apply(s, "Emily", {"type": "dice", "overdrive": True})
    assert s["dice"]["faces"] == [1, 3, 4]
    prompt = GAME.pending(s)["Emily"]
    # lowering the same roll again costs one more credit, no more reliability
    assert prompt["overdrive"] == {"allowed": True, "credits": 1, "reliability": 0,
                                   "dice_after": [1, 2, 3], "passes_after": 2}
    assert "pay 1 credit to lower all dice by 1 → 2 passes" in prompt["text"]
    s = GAME.apply(s, "Emily", {"type": "dice", "overdrive": True})
    assert s["dice"]["faces"] == [1, 2, 3]
    assert prospect.passes(s["dice"]["faces"], 2) == 2
    assert me(s)["reliability"] == 1 and me(s)["credits"] == 3  # one reliability, 2 credits
    s = GAME.apply(s, "Emily", {"type": "dice", "overdrive": False})
    assert me(s)["prospect"]["moon"] == 2  # white moon space 2 needs 2 credits: paid
    assert me(s)["credits"] == 1
    # Overdrive is not a special action to play outside the dice
    with pytest.raises(IllegalAction):
        special.play(s, "Emily", {"name": "overdrive"})


# Overbuilt (3 credits, builds a Level I automaton: tech [1, 0, 0, 1] -> [2, 0, 0, 1]) from
# each space of the Reliability track (values 8..-1; DATA.md: benefits on 6, 4, 2 and 0):
# (marker index before, credits after from 20, resources after, tech after)
RELIABILITY_STEPS = [
    (0, 17, {"red": 1, "blue": 1, "yellow": 1}, [2, 0, 0, 1]),  # 8 -> 7: nothing
    (1, 18, {"red": 1, "blue": 1, "yellow": 1}, [2, 0, 0, 1]),  # 7 -> 6: +1 credit
    (2, 17, {"red": 1, "blue": 1, "yellow": 1}, [2, 0, 0, 1]),  # 6 -> 5: nothing
    (3, 17, {"red": 1, "blue": 2, "yellow": 1}, [2, 0, 0, 1]),  # 5 -> 4: 1 resource of any colour (blue)
    (4, 17, {"red": 1, "blue": 1, "yellow": 1}, [2, 0, 0, 1]),  # 4 -> 3: nothing
    (5, 17, {"red": 1, "blue": 1, "yellow": 1}, [1, 1, 0, 1]),  # 3 -> 2: upgrade one automaton
    (6, 17, {"red": 1, "blue": 1, "yellow": 1}, [2, 0, 0, 1]),  # 2 -> 1: nothing
    (7, 19, {"red": 1, "blue": 1, "yellow": 1}, [2, 0, 0, 1]),  # 1 -> 0: +2 credits
    (8, 15, {"red": 1, "blue": 1, "yellow": 1}, [2, 0, 0, 1]),  # 0 -> -1: 2 more credits, nothing
]


@pytest.mark.parametrize("index,credits,res,tech", RELIABILITY_STEPS)
def test_reliability_benefits_and_no_gain_AA_REL_01(index, credits, res, tech):
    """AA-REL-01: each special action moves the marker one space down, never up; the
    benefits of the space reached are gained (every space of the track checked)."""
    s = game()
    p = me(s)
    p["credits"] = 20
    p["reliability"] = index
    s = GAME.apply(s, "Emily", {"type": "special", "name": "overbuilt"})
    s = answer_all(s, "Emily", {"pick": {"type": "pick", "take": {"blue": 1}}})
    q = me(s)
    assert q["reliability"] == index + 1  # one space down; nothing moves it back up
    assert (q["credits"], q["res"], q["tech"]) == (credits, res, tech)


def test_reliability_cannot_go_lower_than_its_last_space_AA_REL_01_AA_REL_02():
    s = game()
    p = me(s)
    p["credits"] = 20
    p["reliability"] = 9  # -1, the last space
    s = GAME.apply(s, "Emily", {"type": "special", "name": "overbuilt"})
    q = me(s)
    assert q["reliability"] == 9 and q["credits"] == 15
    vals = data.BOARD["reliability"]["values"]
    assert vals == [8, 7, 6, 5, 4, 3, 2, 1, 0, -1]


def test_below_zero_surcharge_AA_REL_02():
    s = game()
    p = me(s)
    p["credits"] = 20
    p["reliability"] = data.BOARD["reliability"]["values"].index(0)
    assert special.cost(p, "overclock") == 4
    s = GAME.apply(s, "Emily", {"type": "special", "name": "overclock", "level": 1})
    q = me(s)
    assert reliability.value(q) == -1 and q["credits"] == 16
    # later: the marker cannot move, each loss still costs 2 more
    s = GAME.apply(s, "Emily", {"type": "special", "name": "overbuilt"})
    q = me(s)
    assert reliability.value(q) == -1 and q["credits"] == 11
    q["credits"] = 4
    assert {"type": "special", "name": "overbuilt"} not in flow.options(s, "Emily")


def test_play_specialist_needs_resources_not_paid_AA_FREE_01():
    s = game()
    p = me(s)
    card = p["hand"][0]
    need = data.SPECIALISTS[card]["requirement"]
    p["res"] = {c: 0 for c in data.COLOURS}
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "play_specialist", "card": card})
    p["res"] = {c: need.get(c, 0) for c in data.COLOURS}
    s = GAME.apply(s, "Emily", {"type": "play_specialist", "card": card})
    assert me(s)["played"] == [card] and me(s)["res"] == {c: need.get(c, 0) for c in data.COLOURS}


def test_specialist_once_per_round_refreshed_AA_FREE_02():
    """AA-FREE-02: a played Specialist's ability once per round (the card is rotated),
    ready again after Clean-up. Chemist Clara (P03): 1 blue resource and 1 credit."""
    s = game()
    p = me(s)
    p["hand"].remove("P03")
    p["played"] = ["P03"]
    res, credits = dict(p["res"]), p["credits"]
    s = GAME.apply(s, "Emily", {"type": "use_specialist", "card": "P03"})
    s = answer_all(s, "Emily")
    q = me(s)
    assert q["res"] == dict(res, blue=res["blue"] + 1) and q["credits"] == credits + 1
    assert q["rotated"] == ["P03"]
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "use_specialist", "card": "P03"})
    from engine.age_of_automaton import cleanup

    cleanup.run(s)
    q = s["players"]["Emily"]
    assert q["rotated"] == []
    res, credits = dict(q["res"]), q["credits"]
    assert s["round"] == 2 and s["turn"]["seat"] == "Emily"
    s = GAME.apply(s, "Emily", {"type": "use_specialist", "card": "P03"})
    s = answer_all(s, "Emily")
    q = s["players"]["Emily"]
    assert q["res"] == dict(res, blue=res["blue"] + 1) and q["credits"] == credits + 1


def test_discard_specialist_resources_and_free_special_AA_FREE_03():
    s = game()
    p = me(s)
    p["credits"] = 0
    card = p["hand"][0]
    got = data.SPECIALISTS[card]["discard"]
    res = dict(p["res"])
    s = GAME.apply(s, "Emily", {"type": "discard_specialist", "card": card, "special": "overclock", "level": 1})
    q = me(s)
    assert card in s["commons"] and card not in q["hand"]
    assert q["tech"] == [0, 1, 0, 1] and q["reliability"] == 1 and q["credits"] == 0
    assert all(q["res"][c] == res[c] + got.get(c, 0) for c in data.COLOURS)
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "discard_specialist", "card": q["hand"][0], "special": "overdrive"})


def test_contract_once_per_player_per_round_six_tokens_AA_FREE_04():
    s = game()
    starter = data.STARTERS[0]
    credits = me(s)["credits"]
    s = GAME.apply(s, "Emily", {"type": "contract", "card": starter})
    assert me(s)["contracts"] == 5 and me(s)["credits"] == credits + 1
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "contract", "card": starter})
    me(s)["contracts"] = 0
    assert not [o for o in flow.options(s, "Emily") if o["type"] == "contract"]
    from engine.age_of_automaton import cleanup

    cleanup.run(s)
    assert s["contracts_on"][starter] == [] and me(s)["contracts"] == 0  # used tokens leave the game


def test_limited_common_specialists_variant_AA_FREE_05():
    s = drafted(3, 1, limited_common_specialists=True)
    hand = list(me(s)["hand"])
    commons = len(s["commons"])
    s = GAME.apply(s, "Emily", {"type": "discard_specialist", "card": hand[0], "special": None})
    s = GAME.apply(s, "Emily", {"type": "discard_specialist", "card": hand[1], "special": None})
    assert s["commons"][-1] == hand[0] and len(s["commons"]) == commons + 1
    assert hand[1] in s["removed"]
    # without the variant both join the Common area
    s = drafted(3, 1)
    hand = list(me(s)["hand"])
    s = GAME.apply(s, "Emily", {"type": "discard_specialist", "card": hand[0], "special": None})
    s = GAME.apply(s, "Emily", {"type": "discard_specialist", "card": hand[1], "special": None})
    assert s["commons"][-2:] == hand[:2]
