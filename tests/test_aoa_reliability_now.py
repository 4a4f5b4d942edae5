"""The Reliability Track's benefits arrive at once (issue 22; rules version 4).

Rulebook, Reliability Track: "Whenever a player loses ONE reliability, move the player's
Reliability token ONE space to the left. If the token is moved on a space containing
benefits, the player gains those benefits IMMEDIATELY." (AA-REL-01)

The printed benefits are reconstructed (DATA.md, ``board.json`` ``reliability``): the
space 0 gives 2 credits. Overdrive costs 1 reliability and 1 credit, each further
lowering of the same roll 1 credit (AA-SPC-05); a Prospect space may need credits
(AA-PRO-02). Games started under rules 1-3 keep queueing the benefit (the upgrade
policy: a game keeps its rules version)."""

from __future__ import annotations

from typing import Any

from engine.age_of_automaton.data import BOARD, TRACKS
from engine.age_of_automaton.game import GAME
from tests.aoa_support import active, drafted, play

REL = BOARD["reliability"]
AT_1 = REL["values"].index(1)  # the space whose next loss reaches 0 (2 credits)


def _prospect(rules: int | None, credits: int, faces: list[int]) -> tuple[dict[str, Any], str]:
    """The first player's Prospect with a Level I automaton on the green asteroid track,
    standing on space 3 (the next space needs 2 credits), reliability 1, ``credits`` held,
    the Level dice showing ``faces``."""
    state = drafted(2, seed=4, rules=rules)
    seat = active(state)
    p = state["players"][seat]
    p["reliability"], p["credits"], p["prospect"]["asteroid"] = AT_1, credits, 3
    assert TRACKS["asteroid"]["spaces"][4]["req"] == {"credits": 2}
    assert REL["benefits"]["0"] == [{"credits": 2}]
    state = play(state, {"type": "main", "action": "prospect", "worker": 1, "track": "asteroid"})
    assert state["asks"][0]["kind"] == "dice"
    state["dice"]["faces"] = list(faces)
    return state, seat


def test_overdrive_credits_pay_the_prospect_space_at_once_AA_REL_01_AA_PRO_02() -> None:
    # 1 credit: Overdrive takes it; the marker reaches 0 and gives 2 credits IMMEDIATELY,
    # which pay the next Prospect space (2 credits) of the one pass the lowered dice give
    state, seat = _prospect(None, 1, [2, 6, 6])
    state = GAME.apply(state, seat, {"type": "dice", "overdrive": True})
    p = state["players"][seat]
    assert REL["values"][p["reliability"]] == 0
    assert p["credits"] == 2  # 1 - 1 + 2, before the Prospect is resolved
    assert state["dice"]["faces"] == [1, 5, 5]
    state = GAME.apply(state, seat, {"type": "dice", "overdrive": False})
    p = state["players"][seat]
    assert p["prospect"]["asteroid"] == 4  # moved onto the space that needs 2 credits
    assert p["credits"] == 0


def test_a_second_lowering_paid_by_those_credits_is_allowed_AA_REL_01_AA_SPC_05() -> None:
    state, seat = _prospect(None, 1, [3, 6, 6])
    state = GAME.apply(state, seat, {"type": "dice", "overdrive": True})  # 0 credits + 2
    assert {"type": "dice", "overdrive": True} in GAME.legal_actions(state, seat)
    state = GAME.apply(state, seat, {"type": "dice", "overdrive": True})  # 1 credit
    assert state["dice"]["faces"] == [1, 4, 4]
    assert state["players"][seat]["credits"] == 1


def test_overclock_at_reliability_1_with_0_credits_is_paid_by_the_space_it_reaches_AA_REL_01() -> None:
    """DATA.md's reading: the marker's move gives the 2 credits that Overclock then pays
    ("loses ONE reliability ... and pays TWO credits")."""
    state = drafted(2, seed=4)
    seat = active(state)
    p = state["players"][seat]
    p["reliability"], p["credits"] = AT_1, 0
    tech = list(p["tech"])
    low = min(i + 1 for i, n in enumerate(tech) if n and i < 3)
    action = {"type": "special", "name": "overclock", "level": low}
    assert action in GAME.legal_actions(state, seat)
    state = GAME.apply(state, seat, action)
    p = state["players"][seat]
    assert REL["values"][p["reliability"]] == 0 and p["credits"] == 0
    assert p["tech"][low - 1] == tech[low - 1] - 1 and p["tech"][low] == tech[low] + 1


def test_games_of_rules_3_keep_the_benefit_behind_the_open_question() -> None:
    """A game started under rules version 3 keeps its rules: the credits come after the
    Prospect, the marker stops at the space it cannot pay, and Overclock at reliability 1
    with 0 credits is refused."""
    state, seat = _prospect(3, 1, [2, 6, 6])
    state = GAME.apply(state, seat, {"type": "dice", "overdrive": True})
    assert state["players"][seat]["credits"] == 0
    state = GAME.apply(state, seat, {"type": "dice", "overdrive": False})
    p = state["players"][seat]
    assert p["prospect"]["asteroid"] == 3 and p["credits"] == 0  # stopped: 2 credits needed
    state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])  # the Prospect bonus
    assert state["players"][seat]["credits"] == 2  # the Reliability credits, only now
    old = drafted(2, seed=4, rules=3)
    seat = active(old)
    old["players"][seat]["reliability"], old["players"][seat]["credits"] = AT_1, 0
    assert not any(a.get("name") == "overclock" for a in GAME.legal_actions(old, seat))
