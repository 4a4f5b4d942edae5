"""Age of Automaton rules that the surviving mutants of the sampled mutation run
(tests/MUTANTS.md, "Survivors") showed unguarded: each in a position where the rule
decides, the expected values worked out by hand from the rulebook and written out.
Each test was seen failing against its mutant, applied by hand."""

from __future__ import annotations

import pytest

from engine.age_of_automaton import achievements, cleanup, effects, relationships
from engine.age_of_automaton.actions import prospect
from engine.age_of_automaton.game import GAME
from engine.errors import IllegalAction
from tests.aoa_support import active, drafted, new_game, play


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


def test_specialist_playable_holding_exactly_its_requirement_AA_FREE_01():
    """AA-FREE-01: a Specialist is played when the player holds the resources shown, which
    are not paid. Smith Jonas (P10) shows 3 red; Emily holds exactly 3 red (no blue, no
    yellow): P10 may be played (her other Specialists, P08 2 blue 1 yellow, P03 2 yellow,
    P16 2 yellow 1 blue, may not); after it her 3 red are still hers."""
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    assert p["hand"] == ["P08", "P03", "P16", "P10"]
    p["res"] = {"red": 3, "blue": 0, "yellow": 0}
    plays = [a for a in GAME.legal_actions(s, "Emily") if a["type"] == "play_specialist"]
    assert plays == [{"type": "play_specialist", "card": "P10"}]
    s = play(s, {"type": "play_specialist", "card": "P10"})
    p = s["players"]["Emily"]
    assert p["played"] == ["P10"] and p["hand"] == ["P08", "P03", "P16"]
    assert p["res"] == {"red": 3, "blue": 0, "yellow": 0}


def test_relationship_reaches_the_last_space_then_stops_AA_RLT_01():
    """AA-RLT-01: moves past the end of a Relationship track are lost. The green/yellow
    track has 6 spaces, 0-5 (values 0, 1, 1, 2, 2, 3): from space 4 one logo moves Emily
    to space 5, the last (worth 3); a second logo is lost (still 5)."""
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["rel"]["green"] = 4
    relationships.improve(s, "Emily", ["green"])
    assert p["rel"] == {"green": 5, "blue": 0, "orange": 0}
    assert relationships.value(p, "green") == 3
    relationships.improve(s, "Emily", ["green"])
    assert p["rel"] == {"green": 5, "blue": 0, "orange": 0}


def test_rules_1_claim_gains_then_the_game_goes_on_AA_ACH_01():
    """AA-ACH-01, rules version 1 (claimed at once by the engine): Emily, with one Equipment
    card, plays Funding (3 credits, no engineer: 3 + 3 = 6); the engine claims First Machine
    (H11: 1 VP) for her and, as the first, asks her for 1 more credit or resource, within
    the same move (the claim's gains are resolved, not left waiting)."""
    s = drafted(3, 1, rules=1)
    s["players"]["Emily"]["equipment"] = [{"id": "E10", "column": 0}]
    s = play(s, {"type": "main", "action": "funding"})
    p = s["players"]["Emily"]
    assert p["achievements"] == ["H11"] and s["achievements"]["H11"] == ["Emily"]
    assert p["credits"] == 6 and p["vp"] == 1
    assert s["asks"] == [
        {
            "seat": "Emily",
            "kind": "pick",
            "n": 1,
            "of": ["red", "blue", "yellow", "credits"],
            "why": "first to achieve First Machine",
        }
    ]
    assert s["queue"] == []


def test_rules_2_player_claims_an_offered_achievement_AA_ACH_01():
    """AA-ACH-01, rules version 2 (the player claims): Emily, with one Equipment card, is
    offered First Machine (H11) in her turn, her prompt lists it, and she claims it: her
    marker on the card, 1 VP, and (the first) 1 credit or resource asked."""
    s = drafted(3, 1, rules=2)
    s["players"]["Emily"]["equipment"] = [{"id": "E10", "column": 0}]
    achievements.check(s)
    assert s["offers"] == {"Emily": ["H11"], "Tyler": [], "Ann": []}
    assert GAME.pending(s)["Emily"]["achievements"] == ["H11"]
    s = play(s, {"type": "achievement", "card": "H11"})
    p = s["players"]["Emily"]
    assert s["achievements"]["H11"] == ["Emily"] and p["achievements"] == ["H11"] and p["vp"] == 1
    assert [a["kind"] for a in s["asks"]] == ["pick"]


def test_donation_ability_reaches_a_reputation_space_without_reputation_AA_DON_02():
    """AA-DON-02: a Donation-icon ability's move gives no reputation. Surveyor Hugo (P08,
    played) moves Emily's Donation marker 1 space: from space 2 to space 3, a reputation
    space (3, 7, 11, 15, 19); her reputation stays 0."""
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["played"], p["donation"] = ["P08"], 2
    s = play(s, {"type": "use_specialist", "card": "P08"})
    p = s["players"]["Emily"]
    assert p["donation"] == 3 and p["rep"] == 0 and p["rotated"] == ["P08"]


def test_discarded_specialist_plays_a_special_action_without_credits_AA_FREE_03():
    """AA-FREE-03: discarding a Specialist plays Overbuild or Overclock without credits
    (Overtime would open nothing before a main action). Emily, with 0 credits and Smith
    Jonas (P10) in hand, workers I and IV (only the Level I one can go up): she may discard
    P10 alone, or with Overbuild, or with Overclock of her Level I worker."""
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["credits"], p["hand"] = 0, ["P10"]
    assert p["tech"] == [1, 0, 0, 1] and p["unbuilt"] == 4
    discards = [a for a in GAME.legal_actions(s, "Emily") if a["type"] == "discard_specialist"]
    assert discards == [
        {"type": "discard_specialist", "card": "P10", "special": None},
        {"type": "discard_specialist", "card": "P10", "special": "overbuilt"},
        {"type": "discard_specialist", "card": "P10", "special": "overclock", "level": 1},
    ]


def test_overtime_refused_before_any_main_action_AA_SPC_02_AA_ACT_02():
    """AA-SPC-02, AA-ACT-02: Overtime allows a second main action in a column already used;
    at the start of Emily's turn no column is used, so Overtime would open nothing and may
    not be chosen: it is refused, her 3 credits and reliability (space 0) untouched."""
    s = drafted(3, 1)
    with pytest.raises(IllegalAction):
        play(s, {"type": "special", "name": "overtime"})
    p = s["players"]["Emily"]
    assert p["credits"] == 3 and p["reliability"] == 0 and s["turn"]["overtime"] is False


def test_draft_prompt_says_it_is_the_draft_AA_SET_10():
    """AA-SET-10: at the start every player is asked to keep 1 of 4 Specialists: the
    prompt's type is "draft" (what tells the player, and the bot, it is the draft)."""
    s = new_game(3, 1)
    prompts = GAME.pending(s)
    assert sorted(prompts) == ["Ann", "Emily", "Tyler"]
    assert {q["type"] for q in prompts.values()} == {"draft"}
    assert len(prompts["Emily"]["hand"]) == 4


def test_dice_prompt_shows_the_level_dice_AA_PRO_01_AA_SPC_05():
    """AA-PRO-01, AA-SPC-05: after the Level dice are rolled the player sees them to choose
    Overdrive or not. Emily prospects with her Level I worker; dice II, IV, V: 0 passes;
    after Overdrive I, III, IV: 1 pass."""
    s = drafted(3, 1)
    s = play(s, {"type": "main", "action": "prospect", "worker": 1, "track": "moon"})
    s["dice"]["faces"] = [2, 4, 5]
    q = GAME.pending(s)["Emily"]
    assert q["type"] == "dice" and q["dice"] == [2, 4, 5] and q["passes"] == 0
    assert q["overdrive"]["dice_after"] == [1, 3, 4] and q["overdrive"]["passes_after"] == 1


def test_donation_prompt_lists_the_achievements_offered_AA_ACH_01_AA_DON_01():
    """AA-ACH-01 ("at any time"), rules 2: in her Donation, Ann (who meets First Machine,
    H11) sees it among the Achievements she may claim."""
    s = drafted(3, 1, rules=2)
    s["phase"], s["turn"], s["donors"] = "donation", None, ["Ann", "Tyler", "Emily"]
    s["players"]["Ann"]["equipment"] = [{"id": "E10", "column": 0}]
    s["offers"]["Ann"] = ["H11"]
    q = GAME.pending(s)["Ann"]
    assert q["type"] == "donate" and q["limit"] == 2 and q["achievements"] == ["H11"]


def test_clean_up_reshuffle_moves_the_random_generator_on_AA_CLN_04():
    """AA-CLN-04: the leftmost Equipment card is discarded and the row refilled, the
    discards reshuffled when the deck is empty. Equipment deck empty, discards E01 and E02:
    E10 is discarded, E01, E02, E10 shuffled, one drawn to the fourth space, two left in
    the deck. The shuffle drew from the game's random generator: its saved state has moved
    on (else the next draw would repeat this shuffle's numbers)."""
    s = drafted(3, 1)
    s["decks"]["equipment"], s["discards"]["equipment"] = [], ["E01", "E02"]
    before = dict(s["rng"])
    cleanup.run(s)
    row, deck = s["rows"]["equipment"], s["decks"]["equipment"]
    assert row[:3] == ["E04", "E12", "E05"] and sorted([row[3], *deck]) == ["E01", "E02", "E10"]
    assert s["discards"]["equipment"] == []
    assert s["rng"]["key"] == before["key"] and s["rng"]["n"] > before["n"]


def test_upgrade_question_says_where_it_comes_from_AA_TEC_02():
    """AA-TEC-02: an upgrade moves one worker; with two workers below IV (I and II) Emily is
    asked which, and the question names its source, Mechanic Dmitri (P04)."""
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["played"], p["tech"] = ["P04"], [1, 1, 0, 1]
    s = play(s, {"type": "use_specialist", "card": "P04"})
    assert s["asks"] == [
        {"seat": "Emily", "kind": "upgrade", "steps": 1, "levels": [1, 2], "why": "Mechanic Dmitri"}
    ]
