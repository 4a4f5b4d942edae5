"""Age of Automaton: Relationship, Technology and Reputation tracks, Achievements and the
end-game scoring (AA-RLT-01, AA-TEC-*, AA-REP-*, AA-ACH-01, AA-END-*)."""

from __future__ import annotations

import pytest

from engine.age_of_automaton import (
    achievements,
    data,
    effects,
    relationships,
    reputation,
    scoring,
    technology,
)
from engine.age_of_automaton.game import GAME
from tests.aoa_support import answer_all, drafted


def game():
    return drafted(2, 1)


def test_relationship_one_space_per_logo_end_ignored_AA_RLT_01():
    s = game()
    p = s["players"]["Emily"]
    relationships.improve(s, "Emily", ["green", "green", "orange"])
    assert p["rel"] == {"green": 2, "blue": 0, "orange": 1}
    p["rel"]["blue"] = 5
    relationships.improve(s, "Emily", ["blue"])
    assert p["rel"]["blue"] == 5 and relationships.value(p, "blue") == 3
    # only Prospect, R&D and Sale move them: every effect with "rel" comes from those
    for group in (data.EQUIPMENT, data.SPECIALISTS, data.SPONSORSHIP, data.ACHIEVEMENTS):
        for item in group.values():
            for atoms in (item.get("ability"), item.get("gain")):
                assert not any("rel" in a for a in atoms or [])


def test_build_automatons_at_level_usable_at_once_AA_TEC_01():
    s = game()
    p = s["players"]["Emily"]
    technology.build(s, "Emily", 2)
    assert p["tech"] == [1, 1, 0, 1] and p["unbuilt"] == 3
    effects.queue(s, "Emily", [{"build": 3}])
    from engine.age_of_automaton import flow

    flow.run(s)
    assert p["tech"] == [1, 1, 1, 1]
    s = answer_all(s, "Emily")  # an Achievement met by the new automaton may ask first
    assert {o.get("worker") for o in flow.options(s, "Emily") if o.get("action") == "prospect"} == {1, 2, 3, 4}


def test_upgrade_one_worker_not_split_capped_AA_TEC_02():
    s = game()
    p = s["players"]["Emily"]
    p["tech"] = [1, 0, 1, 0]
    effects.queue(s, "Emily", [{"upgrade": 2}])
    from engine.age_of_automaton import flow

    flow.run(s)
    a = s["asks"][0]
    assert a["kind"] == "upgrade" and a["levels"] == [1, 3]
    s = GAME.apply(s, "Emily", {"type": "upgrade", "level": 3})  # III + 2 = IV, one arrow lost
    assert s["players"]["Emily"]["tech"] == [1, 0, 0, 1]
    technology.upgrade(s, "Emily", 1, 2)
    assert s["players"]["Emily"]["tech"] == [0, 0, 1, 1]


def test_reputation_and_engineers_tyler_space_6_AA_REP_01():
    p = game()["players"]["Tyler"]
    p["rep"] = 6
    assert reputation.engineers(p) == 2
    engineers = data.BOARD["reputation"]["engineers"]
    assert engineers == sorted(engineers)


def test_vp_token_taken_on_space_AA_REP_02():
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["rep"] = 4
    reputation.gain(s, "Emily")
    assert p["vp"] == 2 and s["vp_tokens"]["5"] == [1]
    q = s["players"]["Tyler"]
    q["rep"] = 4
    reputation.gain(s, "Tyler")
    assert q["vp"] == 1 and s["vp_tokens"]["5"] == []
    r = s["players"]["Ann"]
    r["rep"] = 4
    reputation.gain(s, "Ann")
    assert r["vp"] == 0


def test_rules_1_achievement_claimed_when_met_first_bonus_AA_ACH_01():
    """Games started under rules version 1 keep the automatic claim (versions.py); rules 2
    (offered, claimed by the player) is tested in test_aoa_achievements.py."""
    s = drafted(3, 1, rules=1)
    assert s["rules"] == 1 and "offers" not in s
    card = next(c for c in s["achievements"] if data.ACHIEVEMENTS[c]["level"] == 1)
    need = data.ACHIEVEMENTS[card]["need"]
    for seat in ("Emily", "Tyler"):
        p = s["players"][seat]
        for k, n in need.items():
            if k == "equipment":
                p["equipment"] = [{"id": f"E0{i + 1}", "column": 0} for i in range(n)]
            elif k == "rnd":
                p["rnd"] = ["D01", "D02"][:n]
            elif k == "reputation":
                p["rep"] = n
    assert achievements.check(s)
    assert s["achievements"][card] == ["Emily", "Tyler"]
    bonus = [a for seat, a in s["queue"] if "first to achieve" in a.get("why", "")]
    assert len(bonus) == 2  # both met it first, at the same moment
    assert not achievements.check(s)
    # a later player meeting it gets the benefit but no first bonus
    s["queue"] = []
    p = s["players"]["Ann"]
    p["equipment"] = [{"id": f"E0{i + 1}", "column": 0} for i in range(3)]
    p["rnd"] = ["D01", "D02"]
    p["rep"] = 3
    achievements.check(s)
    assert "Ann" in s["achievements"][card]
    assert not any("first to achieve" in a.get("why", "") for seat, a in s["queue"])


def test_prospect_vp_AA_END_01():
    s = game()
    p = s["players"]["Emily"]
    p["prospect"] = {"asteroid": 2, "ringed": 0, "red": 6, "moon": 1}
    b = scoring.breakdown(s, "Emily")
    t = data.TRACKS
    assert b["prospect"] == t["asteroid"]["spaces"][2]["vp"] + t["red"]["spaces"][6]["vp"] + t["moon"]["spaces"][1]["vp"]


def test_equipment_table_AA_END_02():
    assert [scoring.equipment_vp(n) for n in range(0, 9)] == [0, 1, 2, 3, 5, 7, 9, 9, 9]


def test_rnd_sets_table_duplicates_new_sets_AA_END_03():
    assert [scoring.rnd_vp(data.PARTS[:k]) for k in range(1, 6)] == [2, 5, 8, 12, 16]
    assert scoring.rnd_sets(["head", "head", "arm", "leg"]) == [3, 1]
    assert scoring.rnd_vp(["head", "head", "arm", "leg"]) == 8 + 2


def test_sale_reputation_donation_vp_AA_END_04():
    """AA-END-04: the VP printed on each Sale Order card, and the VP of the space the
    Reputation and Donation markers are on (board.json, written out here)."""
    s = game()
    p = s["players"]["Emily"]
    p["sale"] = ["S01", "S10"]  # 1 VP + 4 VP
    p["rep"] = 12  # Reputation space 12: 11 VP (11: 9, 13: 13)
    p["donation"] = 18  # Donation space 18: 12 VP (17: 11, 19: 13)
    b = scoring.breakdown(s, "Emily")
    assert (b["sale"], b["reputation"], b["donation"]) == (5, 11, 12)
    p["sale"], p["rep"], p["donation"] = [], 0, 0
    b = scoring.breakdown(s, "Emily")
    assert (b["sale"], b["reputation"], b["donation"]) == (0, 0, 0)


def test_relationship_products_9_6_16_AA_END_05():
    """Examples: 3 VP x 3 achievements = 9; 2 VP x 3 Specialists = 6; 4 VP x section 4 = 16."""
    s = game()
    p = s["players"]["Emily"]
    p["rel"] = {"green": 5, "blue": 3, "orange": 5}
    p["achievements"] = ["H11", "H21", "H31"]
    p["played"] = ["P01", "P02", "P03"]
    p["reliability"] = 0
    assert scoring.relationship_vp(p) == {"green": 9, "blue": 6, "orange": 16}


def test_specialists_and_audit_tokens_AA_END_06():
    s = game()
    p = s["players"]["Emily"]
    p["played"] = ["P01", "P17"]
    p["audit_tokens"] = 2
    b = scoring.breakdown(s, "Emily")
    assert b["specialists"] == data.SPECIALISTS["P01"]["vp"] + data.SPECIALISTS["P17"]["vp"]
    assert b["audits"] == -6


def test_automaton_score_ii_ii_iii_is_4_AA_END_07():
    p = game()["players"]["Emily"]
    p["tech"] = [0, 2, 1, 0]
    assert scoring.automaton_vp(p) == 4


def test_leftovers_one_per_three_AA_END_08():
    s = game()
    p = s["players"]["Emily"]
    p["credits"] = 4
    p["res"] = {"red": 2, "blue": 1, "yellow": 1}
    assert scoring.breakdown(s, "Emily")["leftovers"] == 2


@pytest.mark.parametrize("rep,rel,winners", [((5, 3), (8, 8), ["Emily"]), ((4, 4), (7, 8), ["Tyler"]),
                                             ((4, 4), (8, 8), ["Emily", "Tyler"])])
def test_ties_reputation_then_reliability_AA_END_09(rep, rel, winners):
    s = game()
    for seat, r, v in zip(["Emily", "Tyler"], rep, rel, strict=True):
        p = s["players"][seat]
        for k in ("rnd", "sale", "played", "equipment", "achievements"):
            p[k] = []
        p["credits"], p["res"], p["vp"], p["tech"] = 0, {"red": 0, "blue": 0, "yellow": 0}, 10, [0, 0, 0, 0]
        p["rep"] = 0
        p["reliability"] = data.BOARD["reliability"]["values"].index(v)
        p["rep"] = r
    # equalize the reputation VP so only the tie-break differs
    for seat in ("Emily", "Tyler"):
        p = s["players"][seat]
        p["vp"] = 20 - data.BOARD["reputation"]["vp"][p["rep"]] - scoring.breakdown(s, seat)["relationships"]
    res = scoring.final_scores(s)
    assert res["scores"][0]["vp"] == res["scores"][1]["vp"]
    assert res["winners"] == winners
