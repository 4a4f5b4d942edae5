"""Age of Automaton rules that the surviving mutants of the sampled mutation run
(tests/MUTANTS.md, "Survivors") showed unguarded: each in a position where the rule
decides, the expected values worked out by hand from the rulebook and written out.
Each test was seen failing against its mutant, applied by hand."""

from __future__ import annotations

from engine.age_of_automaton import achievements, effects
from engine.age_of_automaton.actions import prospect
from engine.age_of_automaton.game import GAME
from tests.aoa_support import active, drafted, play


def test_turn_order_skips_a_passed_player_forwards_AA_ACT_01():
    """AA-ACT-01: players take turns in turn order. Emily, Tyler, Ann; Tyler has passed:
    after Emily's turn it is Ann's (the next in order), not Emily's again."""
    s = drafted(3, 1)
    assert s["order"] == ["Emily", "Tyler", "Ann"] and active(s) == "Emily"
    s["players"]["Tyler"]["passed"] = True
    s = play(s, {"type": "main", "action": "funding", "end": True})
    assert s["turn"]["seat"] == "Ann" and active(s) == "Ann"
    assert len(s["players"]["Emily"]["markers"]) == 1 and s["players"]["Ann"]["markers"] == []


def test_extra_action_needs_no_free_worker_space_AA_EQP_02():
    """AA-EQP-02: the extra action is played at once with another worker from the
    Technology track placed on the Equipment card, not on a worker space. Emily (workers
    I and IV) takes the Forge (extra: Prospect) with her Level IV worker while all four
    Prospect spaces are taken: her Level I worker may still prospect on each of the four
    tracks, and doing so leaves the Prospect spaces as they were."""
    s = drafted(3, 1)
    full = [["Tyler", 1], ["Ann", 2], ["Tyler", 1], ["Ann", 4]]
    s["spaces"]["prospect"] = [list(x) for x in full]
    s = play(s, {"type": "main", "action": "equipment", "worker": 4, "card": "E05"})
    assert s["asks"] == [{"seat": "Emily", "kind": "extra", "action": "prospect", "card": "E05"}]
    extras = [a for a in GAME.legal_actions(s, "Emily") if a["type"] == "extra"]
    assert extras == [
        {"type": "extra", "worker": 1, "track": "asteroid"},
        {"type": "extra", "worker": 1, "track": "ringed"},
        {"type": "extra", "worker": 1, "track": "red"},
        {"type": "extra", "worker": 1, "track": "moon"},
        {"type": "extra", "skip": True},
    ]
    s = play(s, {"type": "extra", "worker": 1, "track": "moon"})
    assert s["spaces"]["prospect"] == full
    assert s["players"]["Emily"]["tech"] == [0, 0, 0, 0] and s["dice"]["level"] == 1


def test_prospect_bonus_any_mix_of_the_track_colours_AA_PRO_05():
    """AA-PRO-05: the green asteroid track's bonus is red and/or yellow tokens, as many as
    the worker's level. A Level II worker: the three ways to take 2 are offered, 2 red,
    1 red + 1 yellow, 2 yellow; Emily takes 1 and 1 (1 red, 1 blue, 1 yellow before)."""
    s = drafted(3, 1)
    effects.execute(s, "Emily", {"pick": 2, "of": ["red", "yellow"], "why": "Prospect bonus"})
    assert [a["take"] for a in GAME.legal_actions(s, "Emily")] == [
        {"red": 2},
        {"red": 1, "yellow": 1},
        {"yellow": 2},
    ]
    s = play(s, {"type": "pick", "take": {"red": 1, "yellow": 1}}, "Emily")
    assert s["players"]["Emily"]["res"] == {"red": 2, "blue": 1, "yellow": 2}


def test_unmet_requirement_stops_the_move_and_the_rest_is_lost_AA_PRO_02():
    """AA-PRO-02: 3 passes on the green asteroid track with 0 credits: space 1 (no
    requirement) is entered, space 2 needs 1 credit: the marker stops at 1 and the other
    2 passes are lost; move() says it moved 1 space."""
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["credits"] = 0
    assert prospect.move(s, "Emily", "asteroid", 1, 3) == 1
    assert p["prospect"]["asteroid"] == 1 and p["credits"] == 0


def test_extra_prospect_bonus_before_the_card_is_tucked_AA_EQP_02_AA_PRO_05():
    """AA-EQP-02 (rulebook, Equipment steps 5-7): the extra action is resolved like a
    main action, its bonus included (step 5.2), before the column is chosen for the card
    (step 6). Emily takes the Forge (extra: Prospect) with her Level IV worker and
    prospects on the white moon with her Level I worker, with no credit for Overdrive:
    first she picks the moon's bonus (1 token of any colour), then she chooses the
    column; the Equipment bonus (4 VP) comes after the column."""
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["credits"] = 0
    s = play(s, {"type": "main", "action": "equipment", "worker": 4, "card": "E05"})
    s = play(s, {"type": "extra", "worker": 1, "track": "moon"})
    assert s["asks"][0] == {
        "seat": "Emily",
        "kind": "pick",
        "n": 1,
        "of": ["red", "blue", "yellow"],
        "why": "Prospect bonus",
    }
    s = play(s, {"type": "pick", "take": {"blue": 1}})
    p = s["players"]["Emily"]
    assert p["res"] == {"red": 0, "blue": 1, "yellow": 0} and p["vp"] == 0
    assert s["asks"][0]["kind"] == "column"
    s = play(s, {"type": "column", "column": 0})
    assert s["players"]["Emily"]["vp"] == 4


def test_rules_1_automatic_claim_marks_the_card_AA_ACH_01():
    """AA-ACH-01, rules version 1 (the engine claims every card met at once): Emily, with
    one Equipment card, meets First Machine (H11, 1 Equipment card): her marker is on the
    card and the card is among hers."""
    s = drafted(3, 1, rules=1)
    p = s["players"]["Emily"]
    p["equipment"] = [{"id": "E10", "column": 0}]
    assert achievements.check(s) is True
    assert s["achievements"]["H11"] == ["Emily"]
    assert p["achievements"] == ["H11"]
