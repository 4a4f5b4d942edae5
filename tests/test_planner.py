"""The Discord-free planner: plans built step by step, picked from outcomes, and turn actions."""

from __future__ import annotations

import itertools

import pytest

from bot import choices, text
from bot.choices import ActionPath, action_step
from bot.games.smartphone_inc import PRESENTER, planner, words
from bot.games.smartphone_inc.planner import Draft, PlanContext, choose, step_choices
from engine import IllegalAction
from engine.smartphone_inc import decisions, pads

CTX = PlanContext(("S-green", "I07"), False)


def walk(draft: Draft, ctx: PlanContext, pick: int) -> Draft:
    choices = [c for c in step_choices(draft, ctx) if not c.value.startswith("@")]
    assert choices, f"no choices at step {draft.step}"
    return choose(draft, ctx, choices[pick % len(choices)].value)


def test_step_by_step_pads_give_a_valid_plan_for_every_first_choice() -> None:
    for first in range(4):
        d = walk(Draft(), CTX, first)
        assert d.step == "top"
        while d.step != "review":
            d = walk(d, CTX, -1)
        plan = d.plan()
        assert plan is not None
        assert pads.validate_plan(plan, list(CTX.owned), False)
        assert planner.problem(d, CTX) is None
        ev = planner.evaluate(d, CTX)
        assert ev is not None and 1 <= ev["covered"] <= 4


def test_offsets_offered_are_exactly_the_legal_ones() -> None:
    d = Draft(bottom="A", bottom_side=0, top_side=1, rot=0, step="pos")
    offered = {c.value for c in step_choices(d, CTX)}
    legal = {
        f"{p['top']['x']},{p['top']['y']}"
        for p in pads.all_arrangements()
        if p["bottom"] == {"pad": "A", "side": 0} and p["top"]["side"] == 1 and p["top"]["rot"] == 0
    }
    assert offered == legal
    assert len(offered) == 14  # 15 positions of a parallel Pad, minus the one covering all 6 cells


def test_improvement_placement_only_offers_what_the_engine_accepts() -> None:
    d = Draft(bottom="A", bottom_side=0, top_side=1, rot=0, x=1, y=0, step="review")
    d = choose(d, CTX, "@imp")
    d = choose(d, CTX, "I07")
    assert d.step == "imp_rot"
    d = walk(d, CTX, 0)
    d = walk(d, CTX, 0)
    assert d.step == "imp_pos"
    positions = [c for c in step_choices(d, CTX) if not c.value.startswith("@")]
    assert positions
    for c in positions:
        trial = choose(d, CTX, c.value)
        assert trial.step == "review"
        assert planner.problem(trial, CTX) is None, c
        assert trial.improvements[-1].id == "I07"
    # removing it again puts it face down
    placed = choose(d, CTX, positions[0].value)
    back = choose(placed, CTX, "-I07")
    assert back.improvements == ()
    assert "I07" in planner.evaluate(back, CTX)["face_down"]


def test_pick_from_distinct_outcomes() -> None:
    d = planner.goto(Draft(), "price")
    prices = step_choices(d, CTX)
    assert [int(c.value) for c in prices] == sorted(int(c.value) for c in prices)
    d = choose(d, CTX, prices[0].value)
    assert d.step == "goods"
    d = walk(d, CTX, 0)
    assert d.step == "outcome"
    options = [c for c in step_choices(d, CTX) if not c.value.startswith("@")]
    assert 0 < len(options) <= 25
    chosen = choose(d, CTX, options[0].value)
    assert chosen.step == "review"
    ev = planner.evaluate(chosen, CTX)
    assert ev is not None
    assert 5 - ev["active"]["down"] + ev["active"]["up"] == int(prices[0].value)


def test_outcomes_are_deduplicated_by_effect() -> None:
    outs = planner.outcomes(CTX)
    keys = [o[0]["key"] for o in outs]
    assert len(keys) == len(set(keys))
    assert len(outs) <= len(decisions.distinct_outcomes(list(CTX.owned), False))


def test_long_lists_are_paged() -> None:
    items = [choices.Choice(str(i), f"option {i}") for i in range(60)]
    first = choices.page(items, 0)
    assert len(first) <= 25 and first[-1].value == "@next"
    last = choices.page(items, 99)
    assert last[0].value == "@prev"
    seen = set()
    for page in range(3):
        seen |= {c.value for c in choices.page(items, page) if not c.value.startswith("@")}
    assert seen == {str(i) for i in range(60)}


@pytest.mark.parametrize(
    "draft",
    [
        Draft(),
        Draft(bottom="B", bottom_side=1, step="top"),
        Draft(bottom="A", bottom_side=0, top_side=1, rot=3, x=-1, y=-2, step="review"),
        Draft(
            bottom="A",
            bottom_side=1,
            top_side=0,
            rot=2,
            x=1,
            y=1,
            improvements=(planner.Placed("S-green", 0, 0, 1, "under"), planner.Placed("I07", -1, 1, 0, "over")),
            step="imp_pos",
            pick="I12",
            pick_rot=2,
            pick_layer="over",
            price=4,
            goods=7,
            page=2,
        ),
    ],
)
def test_draft_round_trips_through_its_text(draft: Draft) -> None:
    code = draft.encode()
    assert len(code) < 200
    assert Draft.decode(code) == draft


def test_garbage_draft_text_gives_a_fresh_draft() -> None:
    assert Draft.decode("bZ9 r") == Draft()
    assert Draft.decode(None) == Draft()


def test_back_walks_the_steps_backwards() -> None:
    d = Draft(bottom="A", bottom_side=0, top_side=1, rot=0, x=1, y=0, step="review")
    assert planner.back(d).step == "place"  # the top Pad's turn and place, in one select
    assert planner.back(planner.back(d)).step == "start"
    assert planner.back(Draft(bottom="A", bottom_side=0, top_side=1, step="rot")).step == "top"
    assert planner.goto(Draft(), "review").step == "bottom"  # no review before the Pads are laid


def test_unknown_choice_is_refused() -> None:
    with pytest.raises((IllegalAction, ValueError, IndexError)):
        choose(Draft(step="outcome", price=3, goods=1), CTX, "99999")


# ---------------------------------------------------------------- turn actions


def finish(actions: list[dict], picks: list[int]) -> dict:
    """Walk action_step choosing the picks[i]-th option at each step."""
    path = ActionPath()
    for i in itertools.count():
        step = action_step(actions, path)
        if step.action is not None:
            return step.action
        assert step.choices and len(step.choices) <= 25
        pick = step.choices[picks[i] % len(step.choices)] if i < len(picks) else step.choices[0]
        path = path.then(pick.value)
        assert len(path.encode()) <= 60
    raise AssertionError


def test_short_action_list_is_one_select() -> None:
    actions = [{"type": "improvement", "id": i} for i in ("I01", "I07", "I12")]
    step = action_step(actions, ActionPath(), PRESENTER)
    assert [c.label for c in step.choices][1] == "Take " + words.improvement_label("I07")
    assert finish(actions, [1]) == actions[1]


def test_every_action_of_a_long_list_is_reachable() -> None:
    techs = {"GPS": 3, "WIFI": 3, "GAMEPAD": 2, "NFC": 4, "LIION": 3, "4G": 5}
    actions = []
    for combo in itertools.product(*(range(min(n, 4) + 1) for n in techs.values())):
        if sum(combo) <= 4:
            actions.append({"type": "research", "place": {t: n for t, n in zip(techs, combo, strict=True) if n}})
    assert len(actions) > 25
    reached = set()
    # exhaustively walk the tree
    stack = [ActionPath()]
    while stack:
        path = stack.pop()
        step = action_step(actions, path)
        if step.action is not None:
            reached.add(text.compact_json(step.action))
            continue
        assert 1 < len(step.choices) <= 25
        stack.extend(path.then(c.value) for c in step.choices)
    assert reached == {text.compact_json(a) for a in actions}


def test_stale_path_is_refused() -> None:
    actions = [{"type": "improvement", "id": i} for i in ("I01", "I07")]
    with pytest.raises(IllegalAction):
        action_step(actions, ActionPath(("=9",)))
    assert ActionPath.decode("1.=3").picks == ("1", "=3")
    assert ActionPath.decode("x!").picks == ()


def test_parse_options() -> None:
    assert text.parse_options("tech_sides=random, block_size=3") == {"tech_sides": "random", "block_size": 3}
    assert text.parse_options('{"tech_sides": "up"}') == {"tech_sides": "up"}
    assert text.parse_options(None) == {}
    with pytest.raises(ValueError):
        text.parse_options("nonsense")


def test_rules_topics_and_phase_default() -> None:
    assert "1 to 4" in PRESENTER.rules_text(None, "planning")
    assert "Priority" in PRESENTER.rules_text("overview")
    assert "Unknown topic" in PRESENTER.rules_text("nope")
    assert len(text.HELP) < 2000
    for topic in PRESENTER.rules_topics():
        assert len(PRESENTER.rules_text(topic)) < 2000


def test_log_block_is_cut_to_fit() -> None:
    block = text.log_block([f"line {i} " + "x" * 50 for i in range(200)], limit=1000)
    assert len(block) < 1100 and "more lines (`/game log` shows them all)." in block
    one = text.log_block(["a" * 60, "b" * 60], limit=100)
    assert one.endswith("… and 1 more line (`/game log` shows them all).")  # no "line(s)"


def test_outcome_list_uses_the_engines_yields_for_this_seat() -> None:
    """The planner's labels come from planning.yields: tokens and Technologies count."""
    from engine import get_game
    from engine.smartphone_inc import technologies

    g = get_game("smartphone-inc")
    # rules version 1, as the bare context counts covered cells (version 2 counts fewer
    # under an "under" Improvement: tests/test_plan_enumeration_rules.py)
    state = g.setup(["a", "b"], 1, {"tech_sides": {"nfc": 1}}, rules=1)
    technologies.gain(state, "a", "nfc")  # NFC side 1: +1 price every Phase 2
    state["players"]["a"]["tokens"] = 2
    view = g.view(state, "a")
    plain = planner.PlanContext(("S-green",), False)
    mine = planner.PlanContext(("S-green",), False, view, "a")
    top_plain = {s["key"] for s, _ in planner.outcomes(plain)}
    top_mine = {s["key"] for s, _ in planner.outcomes(mine)}
    assert {(k[0] + 1, k[1] + 2) + k[2:] for k in top_plain} == top_mine
    summary, ref = planner.outcomes(mine)[0]
    plan = planner.plan_of(mine, ref)
    ev = g.view(g.apply(state, "a", {"type": "plan", "plan": plan}), "a")["my_plan_outcome"]
    assert (ev["yields"]["price"], ev["yields"]["goods"]) == (summary["price"], summary["goods"])
