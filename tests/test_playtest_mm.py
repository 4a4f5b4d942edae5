"""Playtest of Mobile Markets as a newcomer on a phone: what was found by playing whole
games through the fake Discord (each fix with its test here), and the whole-game
playthroughs that check what a player relies on (tests at the end of the file)."""

from __future__ import annotations

from typing import Any

import pytest

from bot import games
from engine import get_game
from tests.test_mm_bot import played_states
from tests.test_words import internal_ids

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


def test_the_product_builder_opens_fresh_after_the_rounds_plan(states: list[dict[str, Any]]) -> None:
    """Both secret decisions of a round share one draft row (its key is the round): the
    product builder read the plan's draft "p3.c55" as "placing card 55", and opened
    with the placeholder "Which slot?" over a list of cards to place."""
    plan_b = P.secret_builder({"type": "plan"})
    plan_view = G.view(states[0], "ann")
    plan_ctx = plan_b.context(plan_view["prompt"], plan_view, "ann")
    s, seat = next((s, seat) for s in states for seat, p in G.pending(s).items() if p["type"] == "product")
    view = G.view(s, seat)
    b = P.secret_builder(view["prompt"])
    ctx = b.context(view["prompt"], view, seat)
    for i, choice in enumerate(plan_ctx.choices):
        plan_code = plan_b.encode(plan_b.step(plan_b.step(plan_b.decode(None), plan_ctx, "select", f"p{choice['price']}"), plan_ctx, "select", f"c{i}"))
        d = b.decode(plan_code)
        assert d == b.decode(None), plan_code
        assert b.placeholder(d) == "Place a Feature card (or sell as it is)"
    # a product draft still reads back as itself
    d = b.step(b.decode(None), ctx, "select", "c0")
    assert b.decode(b.encode(d)) == d and b.placeholder(d) == "Which slot?"


def test_each_card_to_buy_shows_its_cost_and_effect_in_the_select(states: list[dict[str, Any]]) -> None:
    """Two Feature cards with the same icons and different costs both read "buy Feature
    (Flexible Display)", and a Technology or Marketing card showed its name only: the
    option now says what it costs and what it does (MM-TECH, MM-MKT)."""
    from engine.mobile_markets.data import CARDS

    seen = {"technology": 0, "marketing": 0, "effect": 0}
    for s in states:
        for seat, prompt in G.pending(s).items():
            if prompt["type"] not in ("technology", "marketing"):
                continue
            view = G.view(s, seat)
            said = P.action_words(view)
            costs = {o["card"]: o for o in view["prompt"].get("offers") or []}
            for a in G.legal_actions(s, seat):
                label = said.describe_action(a)
                assert len(label) <= 100 and not internal_ids([label]), label
                if a["type"] == "buy":
                    o = costs[a["card"]]
                    assert f" · cost {o['cost']}{' (discounted)' if o['discount'] else ''}" in label, label
                    text_ = CARDS[a["card"]].get("text")
                    if a["card"][0] in "TM" and text_:
                        assert " — " + text_[:40] in label, label
                        seen["effect"] += 1
                    seen[prompt["type"]] += 1
    assert all(seen.values()), seen
