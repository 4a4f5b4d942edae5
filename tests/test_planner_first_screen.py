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


def _steve_table() -> dict[str, Any]:
    table = _table({"gps": 0})
    table["players"]["a"]["steve"] = True  # Steve: no Goods from covered cells or face down
    table["steve"] = {"bonus": 1}
    return table


REF_CASES = [
    *CASES,
    (("S-green", "I03", "I12"), False, _table({"nfc": 1, "li-ion": 0}, tokens=1)),  # price up, price as Logistics
    (("S-green", "I03", "I12", "I20"), True, _table({"gps": 0, "li-ion": 2}, patents=3)),
    (("S-green", "I03"), False, _steve_table()),
    (("I01", "I02", "I03", "I04", "I05", "I06"), True, _table({"gps": 0}, rules=1)),
]


@pytest.mark.parametrize(("owned", "has_4g", "table"), REF_CASES)
def test_effect_refs_are_the_refs_of_the_outcomes_and_summary_of_ref_their_key(
    owned: tuple[str, ...], has_4g: bool, table: dict
) -> None:
    """``decisions.effect_refs`` lists the refs of ``goods_effects`` in the same order
    (None with a Mini-upgrade); ``outcome_of_ref`` rebuilds each item; ``summary_of_ref``
    gives the key of the full yields of each (the first screen groups by it)."""
    from engine.smartphone_inc import decisions
    from engine.smartphone_inc.planning import summary_of_ref

    ctx = planner.PlanContext(owned, has_4g, table, "a")
    items = planner._outcomes(ctx.owned, ctx.has_4g, planner._literal(ctx))
    refs = decisions.effect_refs(list(owned), has_4g, literal_cover=planner._literal(ctx))
    if any(i.startswith("M") for i in owned):
        assert refs is None
        return
    assert refs == [item["ref"] for item in items] and refs == sorted(refs)
    full, key = yields_for(table, "a"), summary_of_ref(table, "a")
    for ref, item in zip(refs, items, strict=True):
        assert decisions.outcome_of_ref(ref) == item
        assert key(ref) == planner._summary_key(full(item))


@pytest.mark.parametrize(("owned", "has_4g", "table"), REF_CASES)
def test_the_firsts_by_ref_are_the_firsts_of_the_outcome_list(owned: tuple[str, ...], has_4g: bool, table: dict) -> None:
    ctx = planner.PlanContext(owned, has_4g, table, "a")
    items = planner._outcomes(ctx.owned, ctx.has_4g, planner._literal(ctx))
    want: dict[Any, Any] = {}
    for item, k in zip(items, map(ctx.summary_fn(), items), strict=True):
        want.setdefault(k, item)
    got = planner._firsts(ctx)
    assert list(got.items()) == list(want.items())
