"""Rules 4: the Prospect bonus is chosen with "Move with these dice" (issue 22, quick turns).

Rulebook, Prospect (AA-PRO-05): a bonus by track (teal ringed planet: red/blue), as many
tokens as the worker's level. The bonus does not depend on the dice, so the move and the bonus are one answer: the dice
question lists a move per bonus ("take"), and the game goes on exactly as if the player
had moved and then picked. The plain move (then the pick asked) stays accepted. Rules 1-3
games have no such answer (the upgrade policy)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import IllegalAction
from engine.age_of_automaton.game import GAME
from tests.aoa_support import active, drafted, play


def _dice(rules: int | None) -> tuple[dict[str, Any], str]:
    """A Prospect with a Level I automaton on the teal ringed planet (bonus: red or blue),
    the dice asked (the player can Overdrive)."""
    state = drafted(2, seed=4, rules=rules)
    seat = active(state)
    state["players"][seat]["credits"] = 5
    state = play(state, {"type": "main", "action": "prospect", "worker": 1, "track": "ringed"})
    assert state["asks"][0]["kind"] == "dice"
    state["dice"]["faces"] = [1, 4, 6]
    return state, seat


def test_the_dice_question_lists_one_move_per_bonus_AA_PRO_05() -> None:
    state, seat = _dice(None)
    acts = GAME.legal_actions(state, seat)
    assert {"type": "dice", "overdrive": True} in acts
    moves = [a for a in acts if not a["overdrive"]]
    assert [a["take"] for a in moves] == [{"red": 1}, {"blue": 1}]  # Level I: 1 of red, blue


def test_moving_with_the_bonus_is_moving_then_picking() -> None:
    state, seat = _dice(None)
    one = GAME.apply(state, seat, {"type": "dice", "overdrive": False, "take": {"blue": 1}})
    two = GAME.apply(state, seat, {"type": "dice", "overdrive": False})  # still accepted: the pick is asked
    assert two["asks"][0]["kind"] == "pick" and two["asks"][0]["seat"] == seat
    two = GAME.apply(two, seat, {"type": "pick", "take": {"blue": 1}})
    assert not one["asks"] or one["asks"][0]["kind"] != "pick"
    for key in ("players", "asks", "queue", "turn", "phase"):
        assert one[key] == two[key], key
    p, before = one["players"][seat], state["players"][seat]
    assert p["res"]["blue"] == before["res"]["blue"] + 1
    assert p["prospect"]["ringed"] == before["prospect"]["ringed"] + 1  # one die at or below I


@pytest.mark.parametrize(
    "take", [{"yellow": 1}, {"red": 2}, {"red": 1, "blue": 1}, {}],
)
def test_a_wrong_bonus_is_refused(take: dict[str, int]) -> None:
    state, seat = _dice(None)
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, {"type": "dice", "overdrive": False, "take": take})
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, {"type": "dice", "overdrive": True, "take": {"red": 1}})


def test_rules_3_games_move_then_pick() -> None:
    state, seat = _dice(3)
    assert {"type": "dice", "overdrive": False} in GAME.legal_actions(state, seat)
    assert not [a for a in GAME.legal_actions(state, seat) if "take" in a]
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, {"type": "dice", "overdrive": False, "take": {"red": 1}})


def _over_the_limit(rules: int | None) -> tuple[dict[str, Any], str]:
    """The pick of a Prospect bonus (1 of red, blue) with 10 resource tokens held."""
    state, seat = _dice(rules)
    state["players"][seat]["res"] = {"red": 4, "blue": 3, "yellow": 3}
    state = GAME.apply(state, seat, {"type": "dice", "overdrive": False})
    assert state["asks"][0]["kind"] == "pick"
    return state, seat


def test_a_pick_over_the_limit_carries_the_discard_AA_SET_12() -> None:
    # "If a player gains resources exceeding the limit of ten tokens, discard any tokens
    # ... IMMEDIATELY (including the newly gained)": one answer per outcome
    state, seat = _over_the_limit(None)
    acts = GAME.legal_actions(state, seat)
    assert all(a["type"] == "pick" and sum(a["drop"].values()) == 1 for a in acts)
    ends = [tuple(sorted({c: state["players"][seat]["res"][c] + a["take"].get(c, 0) - a["drop"].get(c, 0)
                          for c in ("red", "blue", "yellow")}.items())) for a in acts]
    assert len(ends) == len(set(ends)) == 5  # take red or blue, drop any: 4 swaps and "nothing"
    one = GAME.apply(state, seat, {"type": "pick", "take": {"red": 1}, "drop": {"yellow": 1}})
    two = GAME.apply(state, seat, {"type": "pick", "take": {"red": 1}})
    assert two["asks"][0]["kind"] == "discard"
    two = GAME.apply(two, seat, {"type": "discard", "drop": {"yellow": 1}})
    for key in ("players", "asks", "queue", "turn", "phase"):
        assert one[key] == two[key], key
    assert one["players"][seat]["res"] == {"red": 5, "blue": 3, "yellow": 2}
    with pytest.raises(IllegalAction):  # a discard of the wrong size
        GAME.apply(state, seat, {"type": "pick", "take": {"red": 1}, "drop": {"yellow": 2}})


def test_a_pick_under_the_limit_has_no_discard_and_rules_3_keeps_two_questions() -> None:
    state, seat = _dice(None)
    state = GAME.apply(state, seat, {"type": "dice", "overdrive": False})
    assert not [a for a in GAME.legal_actions(state, seat) if "drop" in a]
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, {"type": "pick", "take": {"red": 1}, "drop": {"red": 1}})
    state, seat = _over_the_limit(3)
    assert not [a for a in GAME.legal_actions(state, seat) if "drop" in a]
    with pytest.raises(IllegalAction):
        GAME.apply(state, seat, {"type": "pick", "take": {"red": 1}, "drop": {"red": 1}})
