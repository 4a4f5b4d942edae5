"""Playtest of Mobile Markets as a newcomer on a phone: what was found by playing whole
games through the fake Discord (each fix with its test here), and the whole-game
playthroughs that check what a player relies on (tests at the end of the file)."""

from __future__ import annotations

from typing import Any

import pytest

from bot import games
from engine import get_game
from tests.test_mm_bot import played_states

G = get_game("mobile-markets")
P = games.presenter("mobile-markets")


@pytest.fixture(scope="module")
def states() -> list[dict[str, Any]]:
    return played_states(["ann", "bob", "steve"], 8, {"automata": ["steve"], "difficulty": "medium"})


def test_the_price_step_of_the_planner_counts_one_plan_in_the_singular(states: list[dict[str, Any]]) -> None:
    """The price +3 row of round 1 read "1 plans: up to …"."""
    view = G.view(states[0], "ann")
    b = P.secret_builder(view["prompt"])
    ctx = b.context(view["prompt"], view, "ann")
    descs = [c.description for c in b.choices(b.decode(None), ctx)]
    assert any(d.startswith("1 plan:") for d in descs), descs
    assert not any(d.startswith("1 plans") for d in descs)
