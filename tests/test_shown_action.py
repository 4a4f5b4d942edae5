"""The engine's rule for how a logged action may be shown (``shown_action``, issue 20 §1):
a sealed plan is hidden from the others until the reveal (SI-PLAN, MM-PLAN-01: secret and
simultaneous, revealed together); an Age of Automaton drafted Specialist is hidden until
it is played (AA-SET-10: the draft is secret; AA-FREE-01: a Specialist is played face
up); the seat itself always sees its own; after the game is over everything may be shown."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get_game

HIDDEN_PLAN = {"type": "plan", "hidden": True}


def _play(name: str, seed: int, until: Any, limit: int = 5000) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
    """Random legal moves of ann and bob until ``until(state)``: the log as (before, seat, action)."""
    game = get_game(name)
    state = game.setup(["ann", "bob"], seed, {})
    rng = random.Random(seed)
    log = []
    for _ in range(limit):
        if until(state) or game.is_over(state):
            break
        seat = sorted(game.pending(state))[0]
        action = rng.choice(game.legal_actions(state, seat))
        log.append((state, seat, action))
        state = game.apply(state, seat, action)
    log.append((state, "", {}))
    return log


@pytest.mark.parametrize("name", ["smartphone-inc", "mobile-markets"])
def test_a_sealed_plan_is_hidden_from_the_others_until_the_reveal(name: str) -> None:
    game = get_game(name)
    state = game.setup(["ann", "bob"], 3, {})
    plan = game.legal_actions(state, "ann")[0]
    sealed = game.apply(state, "ann", plan)
    assert game.shown_action(state, "ann", plan, sealed, "bob") == HIDDEN_PLAN
    assert game.shown_action(state, "ann", plan, sealed, None) == HIDDEN_PLAN
    assert game.shown_action(state, "ann", plan, sealed, "ann") == plan  # her own
    revealed = game.apply(sealed, "bob", game.legal_actions(sealed, "bob")[0])  # the last plan: the reveal
    assert revealed["phase"] != "planning"
    assert game.shown_action(state, "ann", plan, revealed, "bob") == plan
    assert game.shown_action(state, "ann", plan, revealed, None) == plan
    # a move that answers no secret prompt is shown as it is
    seat = sorted(game.pending(revealed))[0]
    move = game.legal_actions(revealed, seat)[0]
    after = game.apply(revealed, seat, move)
    assert game.shown_action(revealed, seat, move, after, None) == move


def test_a_drafted_specialist_is_hidden_until_it_is_played() -> None:
    game = get_game("age-of-automaton")

    def ann_played(state: dict[str, Any]) -> bool:
        return bool(state["players"]["ann"]["played"])

    for seed in range(11, 40):  # a game where the first Specialist Ann plays is one she picked
        log = _play("age-of-automaton", seed, ann_played)
        final = log[-1][0]
        drafts = [(b, a) for b, s, a in log if s == "ann" and a.get("type") == "draft"]
        if ann_played(final) and final["players"]["ann"]["played"][0] in [a["card"] for _b, a in drafts]:
            break
    else:
        raise AssertionError("no game where Ann plays a Specialist she picked")
    card = final["players"]["ann"]["played"][0]
    assert len(drafts) == 3  # keep 1 of 4, 1 of 3, 1 of 2 (the last card is taken, no choice)
    before_play = next(b for b, s, a in log if s == "ann" and a == {"type": "play_specialist", "card": card})
    for before, action in drafts:
        shown_then = game.shown_action(before, "ann", action, before_play, "bob")
        shown_now = game.shown_action(before, "ann", action, final, "bob")
        assert game.shown_action(before, "ann", action, before_play, "ann") == action
        if action["card"] == card:
            assert shown_then == {"type": "draft", "hidden": True}  # still in her hand
            assert shown_now == action  # played face up: public
        elif action["card"] in final["players"]["ann"]["hand"]:
            assert shown_now == {"type": "draft", "hidden": True}
            assert game.shown_action(before, "ann", action, final, None) == {"type": "draft", "hidden": True}


def test_after_the_game_is_over_everything_may_be_shown() -> None:
    game = get_game("age-of-automaton")
    log = _play("age-of-automaton", 5, lambda s: False)
    final = log[-1][0]
    assert game.is_over(final)
    drafts = [(b, s, a) for b, s, a in log if a.get("type") == "draft"]
    assert drafts
    assert all(game.shown_action(b, s, a, final, None) == a for b, s, a in drafts)
