""""Confirm and end the turn" is an option of a main action, not a second action (issue 22).

Rules version 4 lets a main action carry ``"end": true``: once the action and its
questions are resolved, the turn ends by itself. ``legal_actions`` lists each main
action once (the AI, the random player, the action counts and the views see one
Funding, not two); the turn prompt says ``"can_end": true``; ``apply`` checks the field.
Games of rules 1-3 have no such field (the upgrade policy)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import IllegalAction
from engine.age_of_automaton.game import GAME
from tests.aoa_support import active, answer_all, drafted, play

FUNDING = {"type": "main", "action": "funding"}


def _key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def test_each_main_action_is_listed_once_without_end() -> None:
    state = drafted(2, seed=4)
    seat = active(state)
    acts = GAME.legal_actions(state, seat)
    mains = [a for a in acts if a["type"] == "main"]
    assert mains and FUNDING in mains
    assert not [a for a in acts if "end" in a]
    assert len({_key(a) for a in acts}) == len(acts)  # no action twice
    assert GAME.view(state, seat)["prompt"]["can_end"] is True


def test_a_main_action_with_end_ends_the_turn_once_resolved() -> None:
    state = drafted(2, seed=4)
    seat = active(state)
    credits = state["players"][seat]["credits"]
    after = play(state, {**FUNDING, "end": True})
    assert after["players"][seat]["credits"] > credits  # Funding resolved
    assert active(after) != seat  # and the turn passed by itself
    plain = play(state, FUNDING)
    assert active(plain) == seat  # without it the turn goes on (free actions, End the turn)
    assert {"type": "end"} in GAME.legal_actions(plain, seat)


def test_end_waits_for_the_questions_of_the_action() -> None:
    # a Prospect asks about the dice (and maybe a bonus): the turn ends only after them
    state = drafted(2, seed=4)
    seat = active(state)
    state = play(state, {"type": "main", "action": "prospect", "worker": 1, "track": "asteroid", "end": True})
    assert state["asks"] and state["asks"][0]["seat"] == seat
    assert active(state) == seat
    state = answer_all(state, seat)
    assert active(state) != seat


def test_end_must_be_true_or_false() -> None:
    state = drafted(2, seed=4)
    seat = active(state)
    with pytest.raises(IllegalAction, match="true"):
        GAME.apply(state, seat, {**FUNDING, "end": "yes"})


def test_rules_3_games_have_no_end_option() -> None:
    state = drafted(2, seed=4, rules=3)
    seat = active(state)
    assert "can_end" not in GAME.view(state, seat)["prompt"]
    assert not [a for a in GAME.legal_actions(state, seat) if "end" in a]
    with pytest.raises(IllegalAction, match="rules version"):
        GAME.apply(state, seat, {**FUNDING, "end": True})


def test_the_presenter_offers_confirm_and_end_only_where_the_engine_takes_it() -> None:
    from bot.choices import ActionPath
    from bot.games.age_of_automaton.presenter import AgeOfAutomaton

    presenter = AgeOfAutomaton()
    for rules, offered in ((None, True), (3, False)):
        state = drafted(2, seed=4, rules=rules)
        seat = active(state)
        view = GAME.view(state, seat)
        acts = GAME.legal_actions(state, seat)
        i = acts.index(FUNDING)
        step = presenter.action_step(view["prompt"], acts, ActionPath().then(f"={i}"), presenter.action_words(view))
        assert step.action == FUNDING
        assert step.finish == ({**FUNDING, "end": True} if offered else None)
        if offered:  # pressing it works
            assert active(GAME.apply(state, seat, step.finish)) != seat
