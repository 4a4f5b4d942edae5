"""The by-hand planner's top-Pad options (issue 22): 6 of 13 read "Top Pad lengthwise on
A1–C2, turned 0°, covers N" and two were identical. Each option now differs in words from
every other, and leads with what it yields."""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from si_support import new_game  # noqa: E402

from bot.games.smartphone_inc import planner  # noqa: E402
from engine.smartphone_inc.game import GAME  # noqa: E402


def _place_options(seed: int) -> list[list[planner.Choice]]:
    state = new_game(2, seed=seed)
    view = GAME.view(state, "p1")
    ctx = planner.PlanContext.from_prompt(view["prompt"], view, "p1")
    out = []
    for hand in (c for c in planner.step_choices(planner.Draft(step="start"), ctx) if c.value.startswith("hand:")):
        d = planner.choose(planner.Draft(step="start"), ctx, hand.value)
        out.append([c for c in planner.step_choices(d, ctx) if not c.value.startswith("@")])
    return out


def test_every_top_pad_option_reads_unlike_every_other_and_leads_with_its_yield() -> None:
    lists = [opts for seed in (1, 2, 3) for opts in _place_options(seed)]
    assert lists and all(lists)
    for opts in lists:
        labels = [c.label for c in opts]
        assert len(set(labels)) == len(labels), labels
        for c in opts:
            assert re.match(r"\d+\. price ", c.label), c.label  # its number in the picture, then what it yields
            assert " · on " in c.label and len(c.label) <= 100, c.label
            assert c.description.startswith("Top Pad ") and len(c.description) <= 100, c.description
            assert "cell(s)" not in c.description


def test_the_picture_of_a_placing_step_draws_every_option_by_its_number() -> None:
    """The picture showed option 1 only while the player chose among 13: the preview now
    carries every option of the page, numbered as the list numbers them, each with the
    cells of the top Pad it puts down (and the first one large)."""
    from bot.games.smartphone_inc.presenter import PLANNER
    from engine.smartphone_inc import pads

    state = new_game(2, seed=3)
    view = GAME.view(state, "p1")
    ctx = planner.PlanContext.from_prompt(view["prompt"], view, "p1")
    hand = next(c for c in planner.step_choices(planner.Draft(step="start"), ctx) if c.value.startswith("hand:"))
    d = planner.choose(planner.Draft(step="start"), ctx, hand.value)
    listed = [c for c in planner.step_choices(d, ctx) if not c.value.startswith("@")]
    plan = PLANNER.preview(d, ctx)
    assert plan is not None
    shown = plan["options"]
    assert [o["n"] for o in shown] == list(range(1, len(listed) + 1))
    for o, c in zip(shown, listed, strict=True):
        rot, x, y = (int(v) for v in c.value.split(","))
        assert (o["plan"]["top"]["rot"], o["plan"]["top"]["x"], o["plan"]["top"]["y"]) == (rot, x, y)
        assert sorted(map(tuple, o["highlight"])) == sorted(pads.top_pad_positions(rot, x, y))
    assert len({str(o["plan"]["top"]) for o in shown}) == len(shown)  # each its own place
