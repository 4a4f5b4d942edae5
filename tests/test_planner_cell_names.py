"""The by-hand planner names cells as the picture labels them (issue 34 §4): its options
said "on A1–C2" from each place's own grid, where A1 was the top-left of that option's
two Pads, so five places of one list were all "A1–C2", and the small grids of the
picture, one per option, had no letters or numbers to find them by. The cells now have
one name in every plan, and each option's small grid is lettered and numbered so."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from si_support import new_game  # noqa: E402

from bot.games.smartphone_inc import planner  # noqa: E402
from bot.games.smartphone_inc.presenter import PLANNER  # noqa: E402
from engine.smartphone_inc import pads  # noqa: E402
from engine.smartphone_inc.game import GAME  # noqa: E402
from render import kit  # noqa: E402
from render.smartphone_inc import draw_plan  # noqa: E402
from render.smartphone_inc.plan_compact import HIGHLIGHT  # noqa: E402

CELLS = re.compile(r"on ([A-Z])(\d+)–([A-Z])(\d+)")


def _place_lists(seed: int) -> list[tuple[dict[str, Any], planner.PlanContext, planner.Draft]]:
    state = new_game(3, seed=seed)
    view = GAME.view(state, "p1")
    ctx = planner.PlanContext.from_prompt(view["prompt"], view, "p1")
    start = planner.Draft(step="start")
    return [
        (view, ctx, planner.choose(start, ctx, c.value))
        for c in planner.step_choices(start, ctx)
        if c.value.startswith("hand:")
    ]


def test_a_name_is_one_place_of_the_top_pad_and_one_place_a_name() -> None:
    """Across every by-hand list, the cells an option names are the same cells of the
    bottom Pad's surroundings wherever they are named, and no two places share a name."""
    named: dict[str, set[tuple[tuple[int, int], ...]]] = {}
    for _view, ctx, d in _place_lists(1):
        for c in planner.step_choices(d, ctx):
            if c.value.startswith("@"):
                continue
            rot, x, y = (int(v) for v in c.value.split(","))
            where = CELLS.search(c.label)
            assert where and where.group(0) in c.description, (c.label, c.description)
            named.setdefault(where.group(0), set()).add(tuple(sorted(pads.top_pad_positions(rot, x, y))))
    assert len(named) > 5
    several = {name: places for name, places in named.items() if len(places) > 1}
    assert not several, several


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str | None]]:
    seen: list[tuple[str, str | None]] = []
    text = kit.Canvas.text

    def recording(self: kit.Canvas, x: float, y: float, s: str, size: int | None = None, bold: bool = False,
                  fill: str | None = None, anchor: str = "la") -> float:
        seen.append((s, fill))
        return text(self, x, y, s, size, bold, fill, anchor)

    monkeypatch.setattr(kit.Canvas, "text", recording)
    return seen


def test_each_options_small_grid_has_the_letters_and_numbers_its_option_names(drawn: list[tuple[str, str | None]]) -> None:
    checked = 0
    for view, ctx, d in _place_lists(2)[:3]:
        listed = {int(c.label.split(".")[0]): c.label for c in planner.step_choices(d, ctx) if not c.value.startswith("@")}
        drawn.clear()
        draw_plan(view, PLANNER.preview(d, ctx))
        texts = [s for s, _fill in drawn]
        after = texts[texts.index("Each option of the list, by its number:") + 1:]
        fills = [f for _s, f in drawn][len(drawn) - len(after):]
        # each small grid: its number (orange), then its column letters and row numbers
        grids: dict[int, list[str]] = {}
        current: list[str] | None = None
        for s, fill in zip(after, fills, strict=True):
            if fill == HIGHLIGHT and s.isdigit():
                current = grids.setdefault(int(s), [])
            elif current is not None:
                current.append(s)
        assert set(grids) == set(listed), (sorted(grids), sorted(listed))
        for n, label in listed.items():
            where = CELLS.search(label)
            assert where, label
            first_col, first_row, last_col, last_row = where.groups()
            labels = grids[n]
            assert {first_col, last_col} <= set(labels) and {first_row, last_row} <= set(labels), (label, labels)
            checked += 1
    assert checked > 10


def test_every_position_is_drawn_whole() -> None:
    """With "every position" (23 options on a page, 8 rows of small grids 3 to a row) the
    picture ran past the canvas: its end was left black."""
    from dataclasses import replace

    view, ctx, d = _place_lists(4)[0]
    d = replace(d, every=True)
    assert len([c for c in planner.step_choices(d, ctx) if not c.value.startswith("@")]) >= 20
    im = draw_plan(view, PLANNER.preview(d, ctx)).convert("RGB")
    bottom = im.crop((0, im.height - 40, im.width, im.height))
    black = bottom.convert("L").point(lambda v: 255 if v == 0 else 0).histogram()[255]  # unpainted
    assert black < bottom.width * bottom.height // 20, black


def test_the_planner_text_names_the_pieces_by_the_pictures_cells() -> None:
    """The planner's text said "offset x +1 y -1" and "at x 0, y 0", the planner's own
    coordinates, which no picture shows: it names the cells as the picture labels them."""
    view, ctx, d = _place_lists(1)[0]
    first = next(c for c in planner.step_choices(d, ctx) if not c.value.startswith("@"))
    review = planner.choose(d, ctx, first.value)
    where = CELLS.search(first.label)
    assert where
    text = planner.describe_draft(review, ctx)
    assert f"Top: Pad B side 1, turned 0°, {where.group(0)}" in text, text
    add = next(c for c in planner.step_choices(review, ctx) if c.value.startswith("+"))
    spot = re.search(r"e\.g\. on (\w+ and \w+):", add.description)
    assert spot, add.description
    pos = planner.choose(review, ctx, add.value)  # its places: the first is the description's "e.g."
    one = next(c for c in planner.step_choices(pos, ctx) if not c.value.startswith("@"))
    text = planner.describe_draft(planner.choose(pos, ctx, one.value), ctx)
    assert f" on {spot.group(1)}, " in text, text
    assert not re.search(r"\b(?:offset|at) x\b", text), text
