"""Achievements are offered when met (issue 11; rules version 2, see
engine/age_of_automaton/versions.py). AA-ACH-01: "At any time during the game, players
can place their own Achievement tokens on any Achievement cards for which they meet the
requirements and gain the benefits IMMEDIATELY"; the first ones to fulfil a card also
get 1 credit or 1 resource of any colour. Claiming is the player's decision: offered in
the prompt and the legal actions, a free action in one's turn or Donation, asked for
before the final scoring; games of rules version 1 keep the automatic claim."""

from __future__ import annotations

import pytest

from engine.age_of_automaton import achievements, data, flow
from engine.age_of_automaton.bot import choose
from engine.age_of_automaton.game import GAME
from engine.errors import IllegalAction
from engine.jsonstate import dumps
from engine.versions import edition, setup_as
from tests.aoa_support import NAMES, answer_all, drafted, new_game

FIRST_MACHINE = "H11"  # 1 Equipment card → 1 VP
FACTORY = "H31"  # 4 automatons on the Technology track → 4 VP


def _board(**cards: list[str]) -> dict[str, list[str]]:
    return {FIRST_MACHINE: [], "H21": [], FACTORY: [], "H41": [], **cards}


def _give_equipment(s: dict, seat: str) -> None:
    s["players"][seat]["equipment"] = [{"id": "E01", "column": 0}]


def game_met(*seats: str) -> dict:
    """Emily's first turn; ``seats`` meet First Machine (recorded as the engine does
    whenever it stops for a decision)."""
    s = drafted(3, 1)
    s["achievements"] = _board()
    for seat in seats:
        _give_equipment(s, seat)
    achievements.check(s)
    return s


def claims(s: dict, seat: str) -> list[dict]:
    return [a for a in GAME.legal_actions(s, seat) if a["type"] == "achievement"]


def test_a_met_achievement_is_offered_not_claimed_AA_ACH_01():
    s = game_met("Emily")
    assert s["rules"] == 4  # offered since rules version 2; asked before the Audit since 3
    assert s["achievements"][FIRST_MACHINE] == [] and s["players"]["Emily"]["achievements"] == []
    assert s["offers"]["Emily"] == [FIRST_MACHINE] and s["firsts"][FIRST_MACHINE] == ["Emily"]
    assert claims(s, "Emily") == [{"type": "achievement", "card": FIRST_MACHINE}]
    # the prompt says it, and the label says what it gives
    prompt = GAME.pending(s)["Emily"]
    assert "You meet the Achievement First Machine: claim it." in prompt["text"]
    assert prompt["achievements"] == [FIRST_MACHINE]
    label = GAME.label(s, "Emily", claims(s, "Emily")[0])
    assert label == "Claim Achievement First Machine (1 VP; first: +1 credit or resource)"
    view = GAME.view(s, "Emily")
    assert {"action": claims(s, "Emily")[0], "label": label} in view["choices"]
    assert GAME.view(s, None)["players"]["Emily"]["achievements_offered"] == [FIRST_MACHINE]
    # offered once: checking again neither repeats the offer nor the log line
    before = dumps(s)
    achievements.check(s)
    assert dumps(s) == before


def test_claiming_gives_the_benefit_and_the_first_bonus_at_once_AA_ACH_01():
    s = game_met("Emily")
    vp = s["players"]["Emily"]["vp"]
    credits = s["players"]["Emily"]["credits"]
    s = GAME.apply(s, "Emily", {"type": "achievement", "card": FIRST_MACHINE})
    assert s["achievements"][FIRST_MACHINE] == ["Emily"] and s["players"]["Emily"]["achievements"] == [FIRST_MACHINE]
    assert s["offers"]["Emily"] == []
    assert s["players"]["Emily"]["vp"] == vp + 1
    assert any("claims the Achievement First Machine" in line for line in s["log"])
    # the first's bonus: 1 credit or any 1 resource, the player's choice
    (ask,) = s["asks"]
    assert ask["kind"] == "pick" and sorted(ask["of"]) == sorted([*data.COLOURS, "credits"]) and ask["n"] == 1
    s = GAME.apply(s, "Emily", {"type": "pick", "take": {"credits": 1}})
    assert s["players"]["Emily"]["credits"] == credits + 1
    assert GAME.pending(s)["Emily"]["type"] == "turn"  # still Emily's turn (a free action)
    assert claims(s, "Emily") == []


def test_first_is_who_fulfils_first_not_who_claims_first_AA_ACH_01():
    """Emily and Tyler meet the card at the same moment: both are first, whoever claims
    when; Ann meeting it later gets the benefit without the bonus."""
    s = game_met("Emily", "Tyler")
    assert s["firsts"][FIRST_MACHINE] == ["Emily", "Tyler"]
    _give_equipment(s, "Ann")
    achievements.check(s)
    assert s["offers"]["Ann"] == [FIRST_MACHINE] and s["firsts"][FIRST_MACHINE] == ["Emily", "Tyler"]
    assert "first: +1 credit or resource" in GAME.label(s, "Emily", {"type": "achievement", "card": FIRST_MACHINE})
    assert achievements.first(s, "Tyler", FIRST_MACHINE) and not achievements.first(s, "Ann", FIRST_MACHINE)
    assert GAME.label(s, "Ann", {"type": "achievement", "card": FIRST_MACHINE}) == "Claim Achievement First Machine (1 VP)"
    # Ann claims (in her turn) before Tyler: no bonus for her, Tyler keeps his
    s["turn"]["seat"] = "Ann"
    s = GAME.apply(s, "Ann", {"type": "achievement", "card": FIRST_MACHINE})
    assert not s["asks"] and s["achievements"][FIRST_MACHINE] == ["Ann"]
    s["turn"]["seat"] = "Tyler"
    s = GAME.apply(s, "Tyler", {"type": "achievement", "card": FIRST_MACHINE})
    assert s["asks"][0]["kind"] == "pick" and "first to achieve First Machine" in s["asks"][0]["why"]


def test_an_offer_stays_when_the_requirement_stops_holding_AA_ACH_01():
    """Factory: 4 automatons on the Technology track; placing one on an action leaves 3,
    but the player met it and could have claimed it then, so it stays offered."""
    s = drafted(3, 1)
    s["achievements"] = _board()
    p = s["players"]["Emily"]
    p["tech"] = [2, 0, 0, 2]
    p["unbuilt"] = 2
    achievements.check(s)
    assert s["offers"]["Emily"] == [FACTORY]
    main = next(a for a in GAME.legal_actions(s, "Emily") if a["type"] == "main" and "worker" in a)
    s = answer_all(GAME.apply(s, "Emily", main), "Emily", {"dice": {"type": "dice", "overdrive": False}})
    assert achievements.stat(s["players"]["Emily"], "built") < 4
    assert s["offers"]["Emily"] == [FACTORY] and {"type": "achievement", "card": FACTORY} in claims(s, "Emily")
    s = GAME.apply(s, "Emily", {"type": "achievement", "card": FACTORY})
    assert "Emily" in s["achievements"][FACTORY]


def test_claims_only_in_ones_own_decision_and_only_offered_cards():
    s = game_met("Emily", "Tyler")
    before = dumps(s)
    with pytest.raises(IllegalAction, match="nothing to decide"):
        GAME.apply(s, "Tyler", {"type": "achievement", "card": FIRST_MACHINE})
    assert claims(s, "Tyler") == []
    with pytest.raises(IllegalAction, match="do not meet Factory"):
        GAME.apply(s, "Emily", {"type": "achievement", "card": FACTORY})
    with pytest.raises(IllegalAction, match="Achievements on the board"):
        GAME.apply(s, "Emily", {"type": "achievement", "card": "nope"})
    assert dumps(s) == before
    s = GAME.apply(s, "Emily", {"type": "achievement", "card": FIRST_MACHINE})
    s = answer_all(s, "Emily")
    with pytest.raises(IllegalAction, match="meet no unclaimed Achievement"):
        GAME.apply(s, "Emily", {"type": "achievement", "card": FIRST_MACHINE})


def test_claim_during_donation_and_the_donation_limit_is_shown_AA_ACH_01_AA_DON_01():
    s = drafted(2, 1)
    while s["phase"] != "donation":
        seat = next(iter(GAME.pending(s)))
        s = GAME.apply(s, seat, choose(s, seat))
    donor = s["donors"][0]
    s["achievements"] = _board()
    _give_equipment(s, donor)
    s["players"][donor]["achievements"] = []
    achievements.check(s)
    prompt = GAME.pending(s)[donor]
    limit = prompt["limit"]
    assert f"Donate up to {limit} resources and/or credits" in prompt["text"]
    assert "claim it" in prompt["text"]
    view = GAME.view(s, donor)
    assert [c["label"] for c in view["choices"]] == [
        "Claim Achievement First Machine (1 VP; first: +1 credit or resource)"
    ]
    s = GAME.apply(s, donor, {"type": "achievement", "card": FIRST_MACHINE})
    s = answer_all(s, donor)
    assert s["phase"] == "donation" and s["donors"][0] == donor  # the Donation is still to make
    assert all(a["type"] == "donate" for a in GAME.legal_actions(s, donor))


def test_before_the_final_scoring_each_player_is_asked_to_claim_what_is_left_AA_ACH_01():
    s = drafted(2, 1)
    s["achievements"] = _board()
    s.update(round=5, phase="cleanup", turn=None)
    for seat in ("Emily", "Tyler"):
        _give_equipment(s, seat)
    flow.run(s)
    assert s["phase"] == "cleanup" and s["offers"] == {"Emily": [FIRST_MACHINE], "Tyler": [FIRST_MACHINE]}
    prompt = GAME.pending(s)
    assert list(prompt) == ["Emily"] and prompt["Emily"]["type"] == "achievement"
    assert prompt["Emily"]["text"] == "Before the final scoring, claim the Achievement you met: First Machine."
    assert GAME.legal_actions(s, "Emily") == [{"type": "achievement", "card": FIRST_MACHINE}]  # no "no"
    s = answer_all(GAME.apply(s, "Emily", {"type": "achievement", "card": FIRST_MACHINE}), "Emily")
    assert list(GAME.pending(s)) == ["Tyler"]
    s = answer_all(GAME.apply(s, "Tyler", {"type": "achievement", "card": FIRST_MACHINE}), "Tyler")
    assert s["phase"] == "over"
    for r in s["result"]["scores"]:
        assert r["breakdown"]["relationships"] >= 0
    assert s["achievements"][FIRST_MACHINE] == ["Emily", "Tyler"]


def test_the_rule_following_bot_always_claims_at_once():
    s = game_met("Emily")
    assert choose(s, "Emily") == {"type": "achievement", "card": FIRST_MACHINE}


def test_a_game_of_rules_version_1_keeps_the_automatic_claim_AA_ACH_01():
    """A game started before rules version 2 is set up (to replay its log) under rules 1
    and claims by itself, as it did."""
    old = setup_as(GAME, NAMES[:3], 1, {}, rules=1, rng=edition(new_game(3, 1))[1])
    assert edition(old)[0] == 1 and "offers" not in old
    assert GAME.load(GAME.dump(old)) == old
    while old["phase"] == "draft":
        for seat in sorted(GAME.pending(old)):
            old = GAME.apply(old, seat, GAME.legal_actions(old, seat)[0])
    old["achievements"] = _board()
    _give_equipment(old, "Emily")
    flow.run(old)
    assert old["achievements"][FIRST_MACHINE] == ["Emily"]
    assert not any(a["type"] == "achievement" for a in GAME.legal_actions(old, "Emily"))
    with pytest.raises(IllegalAction):
        GAME.apply(old, "Emily", {"type": "achievement", "card": FIRST_MACHINE})
    with pytest.raises(IllegalAction, match="rules versions 1, 2, 3, 4"):
        GAME.setup(NAMES[:2], 1, {}, rules=5)
