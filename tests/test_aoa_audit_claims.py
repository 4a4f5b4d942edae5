"""Achievements are claimed before the Audit (rules version 3, see
engine/age_of_automaton/versions.py). AA-ACH-01: players claim an Achievement "at any
time" they meet it and gain its benefits "IMMEDIATELY"; AA-AUD-03: a player failing the
Audit's requirement takes a -3 VP token. An Achievement met in the Donation phase (here
Benefactor, by one's own donation) is asked for before the Audit resolves, so its
first-fulfilment bonus of 1 credit counts in that Audit; under rules version 2 it is not
(the player could claim only in a later turn), and the Audit is failed."""

from __future__ import annotations

import re

import pytest

from engine.age_of_automaton import data
from engine.age_of_automaton.bot import choose
from engine.age_of_automaton.game import GAME
from tests.aoa_support import drafted
from tests.test_words import ID_PATTERNS

BENEFACTOR = "H33"  # 8 Donation spaces → 4 VP
FOUR_CREDITS = "A1"  # the rulebook's example Audit: at least 4 credits


def donation_before_audit(rules: int) -> dict:
    """Round 2, Emily the last to donate: her Donation marker on 7, 3 credits and 1 red
    resource; Benefactor on the board, nobody has met it; the next Audit card (sure to
    resolve whatever the roll) asks for 4 credits."""
    s = drafted(3, 1, rules=rules)
    assert data.ACHIEVEMENTS[BENEFACTOR]["need"] == {"donation": 8}
    assert data.AUDITS[FOUR_CREDITS]["type"] == "credits" and data.AUDITS[FOUR_CREDITS]["n"] == 4
    s["round"], s["phase"], s["turn"], s["donors"] = 2, "donation", None, ["Emily"]
    s["achievements"] = {"H11": [], "H21": [], BENEFACTOR: [], "H41": []}
    s["audit"]["cards"][0], s["audit"]["pos"] = FOUR_CREDITS, 1
    p = s["players"]["Emily"]
    p["donation"], p["credits"], p["res"] = 7, 3, {c: 0 for c in data.COLOURS}
    p["res"]["red"] = 1
    for seat in ("Tyler", "Ann"):
        s["players"][seat]["credits"] = 10
    return s


def test_a_card_met_in_donation_is_claimed_before_the_audit_and_counts_AA_ACH_01_AA_AUD_03():
    s = donation_before_audit(3)
    assert s["rules"] == 3
    s = GAME.apply(s, "Emily", {"type": "donate", "give": {"red": 1}})
    # Benefactor is met by the donation; before the Audit resolves Emily is asked to claim it
    assert s["players"]["Emily"]["donation"] == 8 and s["offers"]["Emily"] == [BENEFACTOR]
    assert s["phase"] == "audit" and s["players"]["Emily"]["audit_tokens"] == 0
    assert not any("Audit phase:" in line for line in s["log"])
    prompt = GAME.pending(s)["Emily"]
    assert prompt["type"] == "achievement" and prompt["before"] == "audit"
    assert prompt["text"] == "Before the Audit, claim the Achievement you met: Benefactor."
    (claim,) = GAME.legal_actions(s, "Emily")
    assert claim == {"type": "achievement", "card": BENEFACTOR}
    assert choose(s, "Emily") == claim  # the built-in AI claims
    s = GAME.apply(s, "Emily", claim)
    assert s["players"]["Emily"]["achievements"] == [BENEFACTOR]
    # the first to fulfil it: 1 credit or any 1 resource; she takes the credit
    assert s["asks"][0]["kind"] == "pick" and s["asks"][0]["seat"] == "Emily"
    assert s["phase"] == "audit" and not any("Audit phase:" in line for line in s["log"])
    s = GAME.apply(s, "Emily", {"type": "pick", "take": {"credits": 1}})
    # ... and passes the Audit with 4 credits (no -3 VP token)
    assert "Emily passes the Audit." in s["log"]
    assert s["players"]["Emily"]["audit_tokens"] == 0


def test_under_rules_2_the_card_met_in_donation_waits_and_the_audit_fails_AA_ACH_01_AA_AUD_03():
    s = donation_before_audit(2)
    s = GAME.apply(s, "Emily", {"type": "donate", "give": {"red": 1}})
    assert "Emily fails the Audit and takes a -3 VP token." in s["log"]
    assert s["players"]["Emily"]["audit_tokens"] == 1
    assert s["players"]["Emily"]["achievements"] == [] and s["offers"]["Emily"] == [BENEFACTOR]


def test_no_question_before_the_audit_when_nothing_is_offered_AA_ACH_01():
    s = donation_before_audit(3)
    s = GAME.apply(s, "Emily", {"type": "donate", "give": {}})
    assert s["offers"]["Emily"] == [] and "Emily fails the Audit and takes a -3 VP token." in s["log"]
    assert not any("Before the Audit" in str(a) for a in s["asks"])


def test_no_question_in_round_1_without_an_audit_AA_ACH_01():
    s = donation_before_audit(3)
    s["round"] = 1
    s = GAME.apply(s, "Emily", {"type": "donate", "give": {"red": 1}})
    assert "No Audit in the first round." in s["log"]
    assert s["offers"]["Emily"] == [BENEFACTOR]  # claimed later, in her turn
    assert not (s["asks"] and s["asks"][0]["kind"] == "achievement" and s["asks"][0].get("before") == "audit")


def test_the_question_and_its_answers_in_words_carry_no_internal_id_AA_ACH_01():
    from bot.games.age_of_automaton.presenter import AgeOfAutomaton

    s = donation_before_audit(3)
    s = GAME.apply(s, "Emily", {"type": "donate", "give": {"red": 1}})
    texts = [GAME.pending(s)["Emily"]["text"]]
    texts += [GAME.label(s, "Emily", a) for a in GAME.legal_actions(s, "Emily")]
    presenter = AgeOfAutomaton()
    texts += [presenter.rules_text("tracks", "audit", 3)]
    for text in texts:
        for name, pattern in ID_PATTERNS.items():
            assert not re.search(pattern, text), (name, text)
    assert "Claim Achievement Benefactor" in texts[1]


@pytest.mark.parametrize("rules", [2, 3])
def test_the_asks_before_the_final_scoring_stay_as_they_were_AA_ACH_01(rules: int):
    """The final ask keeps its shape (no ``before`` key), whatever the version."""
    s = donation_before_audit(rules)
    s["round"] = 5
    s["audit"]["flipped"] = [True] * 4  # nothing left to audit
    s = GAME.apply(s, "Emily", {"type": "donate", "give": {"red": 1}})
    if rules == 3:
        s = GAME.apply(s, "Emily", {"type": "achievement", "card": BENEFACTOR})
        assert s["players"]["Emily"]["achievements"] == [BENEFACTOR]
    else:
        (ask,) = s["asks"]
        assert ask == {"seat": "Emily", "kind": "achievement"}
        assert GAME.pending(s)["Emily"]["text"] == "Before the final scoring, claim the Achievement you met: Benefactor."
