"""Turn options carry the numbers the decision needs (issue 7, "Turns"), read from the
engine's own views before and after each option; the planner's goals and warnings."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from si_support import new_game  # noqa: E402

from bot.games.smartphone_inc import planner  # noqa: E402
from bot.games.smartphone_inc.presenter import PRESENTER  # noqa: E402
from engine.ai import choose  # noqa: E402
from engine.smartphone_inc.game import GAME  # noqa: E402


def _labels_until(kind: str) -> list[str]:
    state = new_game(2, seed=3)
    for _ in range(400):
        pending = GAME.pending(state)
        seat, prompt = next(iter(pending.items()))
        if prompt["type"] == kind:
            before = GAME.view(state, seat)
            return [
                PRESENTER.describe_option(a, before, GAME.view(GAME.apply(state, seat, a), seat), seat)
                for a in GAME.legal_actions(state, seat)
            ]
        state = GAME.apply(state, seat, choose("smartphone-inc", state, seat, "greedy"))
    raise AssertionError(f"no {kind} prompt")


def test_research_options_say_progress_and_cost():
    labels = _labels_until("research")
    assert any(re.search(r"\+\d → \d+/\d+", lab) for lab in labels), labels


def test_logistics_options_say_markers_or_office():
    labels = _labels_until("logistics")
    assert any("→" in lab or "Office" in lab for lab in labels), labels


def test_goals_open_the_planner_with_whole_decisions_and_a_warning():
    state = new_game(2)
    view = GAME.view(state, "p1")
    ctx = planner.PlanContext.from_prompt(view["prompt"], view, "p1")
    start = planner.step_choices(planner.Draft(step="start"), ctx)
    goals = [c for c in start if c.value.startswith("goal:")]
    assert [c.label for c in goals][:2] == ["Most Goods", "Lowest price"]
    d = planner.choose(planner.Draft(step="start"), ctx, "goal:goods")
    options = planner.step_choices(d, ctx)
    assert 0 < len(options) <= 25
    for c in options:
        assert re.match(r"price \d+ · \d+ Goods", c.label), c.label
        assert "you can sell about" in c.description, c.description
    most = options[0]
    goods = int(re.search(r"(\d+) Goods", most.label).group(1))
    price = int(re.search(r"price (\d+)", most.label).group(1))
    can = planner.sellable(ctx, price)
    assert ("⚠️" in most.description) == (goods > can)
    # a picked decision is a legal plan ready to seal
    plan = planner.choose(d, ctx, options[0].value)
    assert plan.step == "review" and planner.problem(plan, ctx) is None


def test_by_hand_two_selects_lay_the_pads_and_two_place_an_improvement():
    state = new_game(2)
    view = GAME.view(state, "p1")
    ctx = planner.PlanContext.from_prompt(view["prompt"], view, "p1")
    d = planner.Draft(step="start")
    hand = next(c for c in planner.step_choices(d, ctx) if c.value.startswith("hand:"))
    d = planner.choose(d, ctx, hand.value)
    place = [c for c in planner.step_choices(d, ctx) if not c.value.startswith("@")]
    assert place and all(re.search(r"on [A-Z]\d–[A-Z]\d", c.label) for c in place)
    d = planner.choose(d, ctx, place[0].value)
    assert d.step == "review" and planner.problem(d, ctx) is None
    orient = [c for c in planner.step_choices(d, ctx) if c.value.startswith("+")]
    assert orient
    d = planner.choose(d, ctx, orient[0].value)
    spots = planner.step_choices(d, ctx)
    assert spots and all(re.match(r"\d+\. On [A-Z]\d and [A-Z]\d", c.label) for c in spots)  # numbered as in the picture
    d = planner.choose(d, ctx, spots[0].value)
    assert d.step == "review" and len(d.improvements) == 1 and planner.problem(d, ctx) is None
