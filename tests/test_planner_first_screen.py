"""The planner's first screen groups the outcomes by ``planning.summary_for`` and builds
the full ``planning.yields`` of one outcome per group only: every figure must be what
the full yields of every outcome give (issue 9: first screen <= 100 ms cold)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.smartphone_inc import planner
from engine import get_game
from engine.smartphone_inc.planning import summary_for, yields_for


def _table(techs: dict[str, int], *, rules: int = 2, tokens: int = 0, patents: int = 0,
           blitz: dict[str, int] | None = None) -> dict[str, Any]:
    g = get_game("smartphone-inc")
    state = g.setup(["a", "b"], 3, {}, rules=rules)
    p = state["players"]["a"]
    for tech, side in techs.items():
        state["techs"][tech]["side"] = side
        p["techs"].append(tech)
    p["tokens"] = tokens
    p["patents"] = [f"t{i}" for i in range(patents)]
    if blitz:
        p["blitz"] = blitz
    return state


CASES = [
    ((), False, _table({})),
    (("S-green", "I03"), False, _table({"gps": 0, "nfc": 1, "li-ion": 0}, tokens=2)),
    (("S-green", "I03", "I12"), True, _table({"li-ion": 1, "gps": 0}, rules=1, blitz={"logistics": 1, "research": 2})),
    (("S-green", "M1"), False, _table({"li-ion": 2}, patents=2)),
    (("I12", "M2", "M3"), True, _table({"nfc": 1}, tokens=1)),
]


@pytest.mark.parametrize(("owned", "has_4g", "table"), CASES)
def test_summary_for_is_the_key_of_the_full_yields(owned: tuple[str, ...], has_4g: bool, table: dict) -> None:
    ctx = planner.PlanContext(owned, has_4g, table, "a")
    items = planner._outcomes(ctx.owned, ctx.has_4g, planner._literal(ctx))
    full, key = yields_for(table, "a"), summary_for(table, "a")
    assert len(items) > 0
    for item in items:
        assert key(item) == planner._summary_key(full(item))


@pytest.mark.parametrize(("owned", "has_4g", "table"), CASES)
def test_first_screen_shows_the_best_of_the_full_outcome_list(
    owned: tuple[str, ...], has_4g: bool, table: dict
) -> None:
    ctx = planner.PlanContext(owned, has_4g, table, "a")
    # the outcome list as it was built before: the full yields of every outcome
    items = planner._outcomes(ctx.owned, ctx.has_4g, planner._literal(ctx))
    full = yields_for(table, "a")
    seen: set[Any] = set()
    every = []
    for item in items:
        y = full(item)
        if planner._summary_key(y) not in seen:
            seen.add(planner._summary_key(y))
            every.append((planner._summary(y), item["ref"]))
    every.sort(key=lambda o: (o[0]["price"], -o[0]["goods"], o[0]["rank"]))
    assert planner.outcomes(ctx) == every
    bests = planner.first_screen_bests(ctx)
    for goal, _title in planner.GOALS:
        want = planner.goal_decisions(ctx, goal, 1, every)
        assert bests.get(goal) == (want[0] if want else None)
    assert "improve" in bests or not any(s["improve"] for s, _ in every)
