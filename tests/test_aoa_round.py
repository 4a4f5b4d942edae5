"""Age of Automaton: the round, Market, Action, Donation, Audit and Clean-up phases
(AA-RND-01, AA-MKT-01, AA-ACT-*, AA-DON-*, AA-AUD-*, AA-CLN-*)."""

from __future__ import annotations

import pytest

from engine.age_of_automaton import audit, cleanup, data, donation, flow
from engine.age_of_automaton.game import GAME
from engine.errors import IllegalAction
from tests.aoa_support import drafted, new_game


def finish_turn(s, seat):
    while s["asks"]:
        s = GAME.apply(s, s["asks"][0]["seat"], GAME.legal_actions(s, s["asks"][0]["seat"])[0])
    return GAME.apply(s, seat, {"type": "end"})


def test_five_rounds_of_five_phases_AA_RND_01():
    s = new_game(2, 3)
    seen = []
    while not GAME.is_over(s):
        seat = sorted(GAME.pending(s))[0]
        acts = GAME.legal_actions(s, seat)
        pick = next((a for a in acts if a["type"] in ("main", "end", "pass")), acts[0])
        s = GAME.apply(s, seat, pick)
        seen += [e for e in GAME.events(s) if "Market phase" in e or "Audit" in e or "Donation phase" in e]
    assert sum("Market phase" in e for e in seen) == 5
    assert sum("Donation phase" in e for e in seen) == 5
    assert sum("rolls the Audit die" in e for e in seen) == 4  # no Audit in round 1
    assert s["round"] == 5 and GAME.result(s)["rounds"] == 5


def test_market_three_resource_dice_AA_MKT_01():
    s = drafted(3, 4)
    assert len(s["market"]) == 3 and all(c in data.COLOURS for c in s["market"])
    assert s["dice"] == {"kind": "resource", "seat": s["order"][0], "faces": s["market"]}
    assert s["market"] == GAME.view(s, None)["market"]
    assert any(f"rolls the Resource dice: {', '.join(s['market'])}" in e for e in GAME.events(s))


def test_turns_in_order_one_main_action_each_AA_ACT_01():
    s = drafted(3, 1)
    assert s["turn"]["seat"] == "Emily"
    s = GAME.apply(s, "Emily", {"type": "main", "action": "funding"})
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "main", "action": "purchasing"})
    # free actions after the main action are still allowed
    s = GAME.apply(s, "Emily", {"type": "contract", "card": data.STARTERS[0]})
    s = finish_turn(s, "Emily")
    assert s["turn"]["seat"] == "Tyler"
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "main", "action": "purchasing"})
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Tyler", {"type": "end"})  # the main action first


def test_unplayable_action_not_offered_AA_ACT_02():
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["res"] = {c: 0 for c in data.COLOURS}
    p["unbuilt"] = 0
    kinds = {o.get("action") for o in flow.options(s, "Emily") if o["type"] == "main"}
    assert "sale" not in kinds and "assembling" not in kinds and "equipment" not in kinds
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Emily", {"type": "main", "action": "assembling"})


def test_three_players_blocked_cards_each_round_AA_ACT_03():
    s = drafted(3, 1)
    b = s["blocked"]
    card = b["now"]
    assert b["discard"] == [card] and len(b["deck"]) == 5
    blocked = {a for a in data.WORKER_ACTIONS if "blocked" in s["spaces"][a]}
    assert blocked == set(data.BLOCKED[card]["actions"])
    assert GAME.view(s, None)["blocked_next"] == b["deck"][0]
    nxt = b["deck"][0]
    s["round"] = 1
    cleanup.run(s)
    assert not any("blocked" in sp for sp in s["spaces"].values())
    flow.start_round(s)
    assert s["blocked"]["now"] == nxt
    assert {a for a in data.WORKER_ACTIONS if "blocked" in s["spaces"][a]} == set(data.BLOCKED[nxt]["actions"])


def test_three_markers_then_four_from_round_4_AA_ACT_05():
    s = drafted(2, 1)
    assert all(p["markers_total"] == 3 for p in s["players"].values())
    for r in (1, 2, 3):
        s["round"] = r
        cleanup.run(s)
    assert s["round"] == 4 and all(p["markers_total"] == 4 for p in s["players"].values())
    p = s["players"]["Emily"]
    p["markers"] = ["prospect", "equipment", "rnd", "sale"]
    s["turn"] = None
    flow.next_turn(s)
    assert s["turn"]["seat"] == "Tyler"


def test_donation_tyler_2_plus_2_AA_DON_01():
    """Example: Tyler advanced 2 of 4 Prospect tracks: he may donate 4; he donates 2
    resources and 1 credit and moves 3 spaces."""
    s = drafted(2, 1)
    p = s["players"]["Tyler"]
    p["prospect"]["asteroid"] = 3
    p["prospect"]["moon"] = 1
    assert donation.limit(p) == 4
    s["phase"] = "donation"
    s["turn"] = None
    s["donors"] = list(reversed(s["order"]))
    assert s["donors"] == ["Tyler", "Emily"]
    prompt = GAME.pending(s)["Tyler"]
    assert prompt["type"] == "donate" and prompt["limit"] == 4
    p["res"] = {"red": 3, "blue": 3, "yellow": 3}
    p["credits"] = 5
    with pytest.raises(IllegalAction):
        GAME.apply(s, "Tyler", {"type": "donate", "give": {"red": 3, "credits": 2}})
    s = GAME.apply(s, "Tyler", {"type": "donate", "give": {"red": 1, "blue": 1, "credits": 1}})
    q = s["players"]["Tyler"]
    assert q["donation"] == 3 and q["credits"] == 4 and q["res"] == {"red": 2, "blue": 2, "yellow": 3}
    assert GAME.pending(s)["Emily"]["limit"] == 2
    assert max(sum(a["give"].values()) for a in GAME.legal_actions(s, "Emily")) == 2


def test_donation_reputation_icons_AA_DON_02():
    s = drafted(2, 1)
    p = s["players"]["Emily"]
    first = data.BOARD["donation"]["reputation_spaces"][0]
    p["donation"] = first - 1
    donation.move(s, "Emily", 1)
    assert p["rep"] == 1
    p["donation"] = first - 1
    donation.move(s, "Emily", 1, megaphones=False)  # a Donation-icon ability: no reputation
    assert p["rep"] == 1


def test_audit_roll_move_resolve_AA_AUD_01():
    s = drafted(3, 1)
    s["audit"]["cards"] = ["A1", "A2", "B1", "B2"]
    audit.run(s, roll=1)
    assert s["audit"]["pos"] == 1 and s["audit"]["flipped"] == [False] * 4
    for seat in s["seats"]:
        s["players"][seat]["credits"] = 10
        s["players"][seat]["res"] = {"red": 0, "blue": 0, "yellow": 0}
    audit.run(s, roll=3)  # passes the first trigger (2) and stops on 4
    assert s["audit"]["flipped"] == [True, False, False, False]
    assert s["audit"]["pos"] == 4
    assert all(p["audit_tokens"] == 0 for p in s["players"].values())
    assert s["dice"]["kind"] == "audit" and s["dice"]["faces"] == [3]
    assert any("rolls the Audit die: 3" in e for e in s["log"])
    assert GAME.view(s, None)["dice"] == {"kind": "audit", "seat": s["order"][0], "faces": [3]}


def test_audit_marker_on_trigger_goes_to_rightmost_AA_AUD_02():
    s = drafted(3, 1)
    audit.run(s, roll=2)  # stops on the first card's trigger
    assert s["audit"]["flipped"][0] and s["audit"]["pos"] == 3
    audit.run(s, roll=2)  # 5: the second card's trigger
    assert s["audit"]["flipped"][1] and s["audit"]["pos"] == 6


def test_audit_emily_2_credits_against_4_AA_AUD_03():
    """Example: the card requires at least 4 credits; Emily has 2: one -3 VP token."""
    s = drafted(3, 1)
    s["audit"]["cards"][0] = "A1"
    assert data.AUDITS["A1"] == {**data.AUDITS["A1"], "type": "credits", "n": 4}
    s["players"]["Emily"]["credits"] = 2
    s["players"]["Tyler"]["credits"] = 4
    audit.run(s, roll=2)
    assert s["players"]["Emily"]["audit_tokens"] == 1 and s["players"]["Tyler"]["audit_tokens"] == 0
    assert any("Emily fails the Audit" in e for e in s["log"])


@pytest.mark.parametrize("card,ok,fail", [
    ("A2", {"res": {"red": 3, "blue": 0, "yellow": 0}}, {"res": {"red": 2, "blue": 0, "yellow": 0}}),
    ("A3", {"equipment": [{"id": "E01", "column": 0}]}, {"equipment": []}),
    ("B3", {"rnd": ["D01", "D02"]}, {"rnd": ["D01"]}),
    ("B4", {"prospect": {"asteroid": 1, "ringed": 1, "red": 1, "moon": 0}},
     {"prospect": {"asteroid": 2, "ringed": 1, "red": 0, "moon": 0}}),
    ("B5", {"tech": [0, 2, 0, 0]}, {"tech": [0, 1, 3, 0]}),
])
def test_audit_requirement_types_AA_AUD_03(card, ok, fail):
    s = drafted(2, 1)
    s["players"]["Emily"].update(ok)
    s["players"]["Tyler"].update(fail)
    assert audit.meets(s, "Emily", card) and not audit.meets(s, "Tyler", card)


def test_cleanup_section_four_vp_AA_CLN_01():
    s = drafted(2, 1)
    s["players"]["Tyler"]["reliability"] = 2  # value 6: section 3
    cleanup.run(s)
    assert s["players"]["Emily"]["vp"] == 1 and s["players"]["Tyler"]["vp"] == 0


def test_round_5_skips_rest_of_cleanup_AA_CLN_02():
    s = drafted(2, 1)
    s["round"] = 5
    market = list(s["market"])
    row = list(s["rows"]["rnd"])
    cleanup.run(s)
    assert s["market"] == market and s["rows"]["rnd"] == row and s["round"] == 5


def test_cleanup_returns_market_and_workers_AA_CLN_03():
    s = drafted(3, 1)
    s = GAME.apply(s, "Emily", {"type": "main", "action": "rnd", "worker": 4, "card": s["rows"]["rnd"][0]})
    p = s["players"]["Emily"]
    tech = list(p["tech"])
    assert p["placed"] == 1
    cleanup.run(s)
    assert s["market"] == []
    assert p["placed"] == 0 and p["unbuilt"] == 5 and p["tech"] == tech
    assert all(occ is None for a in data.WORKER_ACTIONS for occ in s["spaces"][a])


def test_cleanup_rows_discard_leftmost_and_reshuffle_AA_CLN_04():
    """AA-CLN-04: in each of the three rows the leftmost card is discarded, the others
    slide left and the deck fills the rightmost space; an empty deck is made of the
    reshuffled discards (the card just discarded among them)."""
    s = drafted(3, 1)
    rows = {k: list(s["rows"][k]) for k in ("equipment", "rnd", "sale")}
    tops = {k: s["decks"][k][0] for k in rows}
    cleanup.run(s)
    for k, row in rows.items():
        assert s["rows"][k] == row[1:] + [tops[k]] and s["discards"][k] == [row[0]]
    # an empty deck and two cards in the discards: the leftmost (row[1]) joins them
    s["decks"]["sale"] = []
    s["discards"]["sale"] = ["S20", "S19"]
    cleanup.run(s)
    new_row = list(s["rows"]["sale"])
    assert new_row[:3] == rows["sale"][2:] + [tops["sale"]]
    assert sorted([new_row[3], *s["decks"]["sale"]]) == sorted(["S20", "S19", rows["sale"][1]])
    assert s["discards"]["sale"] == []
    # an empty deck and no discards: the one card discarded comes straight back
    s["decks"]["sale"] = []
    s["discards"]["sale"] = []
    left = s["rows"]["sale"][0]
    cleanup.run(s)
    assert s["rows"]["sale"] == new_row[1:] + [left] and s["decks"]["sale"] == []


def test_cleanup_sponsorship_refill_and_r3_tiles_AA_CLN_05():
    s = drafted(4, 1)
    s["sponsorship"]["row"] = s["sponsorship"]["row"][:2]
    cleanup.run(s)
    assert len(s["sponsorship"]["row"]) == 5
    assert all(data.SPONSORSHIP[t]["rounds"] == "R1-R2" for t in s["sponsorship"]["row"])
    cleanup.run(s)  # the Clean-up of round 2
    assert all(data.SPONSORSHIP[t]["rounds"] == "R3-R5" for t in s["sponsorship"]["row"])
    assert len(s["sponsorship"]["row"]) == 5
    for _ in range(2):
        cleanup.run(s)
    assert len(s["sponsorship"]["row"]) == 5  # reshuffled discards keep the row full


def test_cleanup_contracts_leave_AA_CLN_06():
    s = drafted(2, 1)
    s = GAME.apply(s, "Emily", {"type": "contract", "card": data.STARTERS[1]})
    while s["asks"]:
        s = GAME.apply(s, "Emily", GAME.legal_actions(s, "Emily")[0])
    assert s["contracts_on"][data.STARTERS[1]] == ["Emily"]
    cleanup.run(s)
    assert s["contracts_on"][data.STARTERS[1]] == [] and s["players"]["Emily"]["contracts"] == 5


def test_turn_order_steps_7_AA_CLN_07():
    assert cleanup.new_order(["A", "B", "C", "D"], [None, None, None, None]) == ["A", "B", "C", "D"]
    assert cleanup.new_order(["A", "B", "C", "D"], ["C", None, None, None]) == ["C", "A", "B", "D"]
    assert cleanup.new_order(["A", "B", "C", "D"], ["D", "B", None, None]) == ["D", "B", "A", "C"]
    # the first player took the second space: somebody else is first
    assert cleanup.new_order(["A", "B", "C"], [None, "A", None]) == ["B", "A", "C"]


def test_round_marker_and_specialists_refreshed_AA_CLN_08():
    s = drafted(2, 1)
    s["players"]["Emily"]["rotated"] = ["P01"]
    cleanup.run(s)
    assert s["round"] == 2 and s["players"]["Emily"]["rotated"] == []
