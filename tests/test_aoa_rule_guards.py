"""Age of Automaton rules that mutation testing found unguarded (tests/MUTANTS.md): each
in a position where the rule decides, the expected values written out."""

from __future__ import annotations

from engine.age_of_automaton import audit, common
from tests.aoa_support import drafted


def test_a_second_failed_audit_is_a_second_token_AA_AUD_03():
    """Each failed Audit card gives one more -3 VP token: Emily (2 credits) fails A1
    (4 credits) twice: 2 tokens."""
    s = drafted(3, 1)
    s["audit"]["cards"][0] = s["audit"]["cards"][1] = "A1"
    s["players"]["Emily"]["credits"] = 2
    audit.resolve(s, 0)
    audit.resolve(s, 1)
    assert s["players"]["Emily"]["audit_tokens"] == 2


def test_ten_resources_are_kept_eleven_ask_for_one_discard_AA_SET_12():
    """AA-SET-12: at most 10 resource tokens; reaching exactly 10 asks nothing, 11 asks
    to discard 1."""
    s = drafted(3, 1)
    p = s["players"]["Emily"]
    p["res"] = {"red": 3, "blue": 3, "yellow": 3}
    common.gain_res(s, "Emily", {"red": 1})
    assert p["res"]["red"] == 4 and s["asks"] == []
    common.gain_res(s, "Emily", {"blue": 1})
    assert s["asks"][0] == {"seat": "Emily", "kind": "discard", "n": 1}


def test_overdrive_needs_one_level_die_above_I_AA_SPC_05():
    """AA-SPC-05: Overdrive lowers every Level die by 1, never below I: it is offered
    while one die shows II or more (II, I, I -> I, I, I) and not at I, I, I."""
    from engine.age_of_automaton import special

    s = drafted(3, 1)
    s["players"]["Emily"]["credits"] = 10
    s["dice"] = {"kind": "level", "seat": "Emily", "faces": [2, 1, 1], "rolled": [2, 1, 1], "level": 1}
    assert special.can_overdrive(s, "Emily")
    special.overdrive(s, "Emily")
    assert s["dice"]["faces"] == [1, 1, 1]
    assert not special.can_overdrive(s, "Emily")
