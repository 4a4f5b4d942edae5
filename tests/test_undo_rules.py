"""Undo in Mobile Markets and Age of Automaton (BGA's rule, DESIGN.md "Undo"): each
game's own rulebook decides which moves show something hidden or use chance, and those
may not be taken back (``undoable``); the others may, until the next seat acts."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import pytest

from engine import get_game

MM = get_game("mobile-markets")
AOA = get_game("age-of-automaton")


def _walk(game: Any, state: dict[str, Any], seed: int, limit: int) -> dict[tuple[str, str], set[bool]]:
    """Every (phase, action type) met in a random game, with the undoable answers seen
    for it (each legal action of the moving seat tried at each step, a few dozen)."""
    rnd = random.Random(seed)
    seen: dict[tuple[str, str], set[bool]] = defaultdict(set)
    for _ in range(limit):
        pending = game.pending(state)
        if state["phase"] == "over" or not pending:
            break
        seat = sorted(pending)[0]
        actions = game.legal_actions(state, seat)
        if not pending[seat].get("secret"):
            for a in actions[:40]:
                after = game.apply(state, seat, a)
                seen[(state["phase"], a["type"])].add(game.undoable(state, after, seat))
        state = game.apply(state, seat, rnd.choice(actions))
    return seen


@pytest.fixture(scope="module")
def mm_seen() -> dict[tuple[str, str], set[bool]]:
    state = MM.setup(["ann", "bob", "steve"], 3, {"automata": ["steve"], "difficulty": "medium"})
    return _walk(MM, state, 3, 400)


@pytest.fixture(scope="module")
def aoa_seen() -> dict[tuple[str, str], set[bool]]:
    return _walk(AOA, AOA.setup(["ann", "bob"], 5, {}), 1, 900)


def test_mm_a_private_customer_comes_from_the_top_of_a_deck_and_is_never_taken_back(mm_seen: Any) -> None:
    """MM-MKT-04: Private Customers come from the top of a Customer deck (face down): the
    card drawn is seen, so the move stays."""
    assert mm_seen[("marketing", "customer")] == {False}


def test_mm_a_card_bought_mid_turn_may_be_taken_back(mm_seen: Any) -> None:
    """MM-TECH-01 and the Preparation's "Refilling the Displays" (001, step 3): the
    displays are refilled only in the next Preparation, so buying a Technology or Feature
    card draws nothing, and may be taken back while the turn goes on (a buy that ends
    the phase may not: the next phase begins)."""
    assert True in mm_seen[("technology", "buy")]
    assert True in mm_seen[("marketing", "buy")]


def test_aoa_a_specialist_played_or_discarded_from_the_hidden_hand_stays(aoa_seen: Any) -> None:
    """004, "Play a Specialist Card" / "Discard a Specialist Card": the card leaves the
    player's hidden hand for the table (or the Common Specialists): it is seen."""
    assert aoa_seen[("action", "play_specialist")] == {False}
    assert aoa_seen[("action", "discard_specialist")] == {False}


def test_aoa_a_choice_that_rolls_and_draws_nothing_may_be_taken_back(aoa_seen: Any) -> None:
    """Taking the resources chosen ("pick") or a Common Specialist's ability with a
    Contract token rolls no die and draws no card."""
    assert aoa_seen[("action", "pick")] == {True}
    assert True in aoa_seen[("action", "contract")]


def test_aoa_a_roll_of_the_dice_is_never_taken_back() -> None:
    """004, Prospect: "The player rolls 3 Level dice": a move that rolls (the random
    generator moves) stays, whatever it was."""
    state = AOA.setup(["ann", "bob"], 5, {})
    rnd = random.Random(2)
    rolled = 0
    for _ in range(900):
        pending = AOA.pending(state)
        if state["phase"] == "over" or not pending:
            break
        seat = sorted(pending)[0]
        actions = AOA.legal_actions(state, seat)
        for a in actions[:40]:
            after = AOA.apply(state, seat, a)
            if after["rng"] != state["rng"]:
                rolled += 1
                assert not AOA.undoable(state, after, seat), a
        state = AOA.apply(state, seat, rnd.choice(actions))
    assert rolled > 20
