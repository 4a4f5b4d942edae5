"""Smartphone Inc.'s select options fit Discord's 100 characters as written (issue 34 §4):
16 of 238 descriptions of a 3-player game were cut ("…ut 2 at price 3 · best: price 3 ·
8 Goods · Research 1 · Lo…"), the planner's first screen most of all. Seeded 3-player
games are played with every planner screen and turn option listed (``tests/si_selects``)
while ``bot.text.clip`` cuts nothing, so a text longer than 100 characters is seen
whole, not after its cut."""

from __future__ import annotations

import pytest

from bot.games.smartphone_inc import planner
from tests.si_selects import LIMIT, shown_options, uncut


@pytest.mark.parametrize("seed", [1, 2])
def test_no_option_of_a_seeded_game_is_longer_than_discord_takes(seed: int) -> None:
    cuts: list[tuple[str, int]] = []
    long: list[str] = []
    screens: set[str] = set()
    with uncut(cuts):
        for o in shown_options(3, seed):
            screens.add(o.screen)
            long += [f"{o.screen}: {s}" for s in (o.label, o.description) if len(s) > LIMIT]
    assert {"start", "goal", "place", "review", "imp_pos"} <= screens, screens
    assert not long, long[:5]
    assert not cuts, cuts[:5]


def test_the_first_screen_says_unsold_goods_price_and_markers_in_whole_words() -> None:
    """The best decision of a goal: the Goods left unsold first, with the price; every
    part whole (the old line lost "Logistics 1" to the cut)."""
    ctx = planner.PlanContext(table=None)
    summary = {"price": 3, "goods": 8, "improve": True, "research": 1, "logistics": 1, "detail": "8 prod"}
    line = planner.best_line(summary, ctx)
    assert line == "price 3 · 8 Goods · Improve · Research 1 · Logistics 1 · 8 prod"


@pytest.mark.parametrize("limit", [10, 20, 35, 60])
def test_fit_leaves_out_whole_parts_never_half_a_word(limit: int) -> None:
    parts = ["⚠️ 6 of 8 Goods unsold at price 3", "Improve", "Research 1", "Logistics 1"]
    out = planner.fit(parts, limit)
    assert len(out) <= limit
    if limit >= len(parts[0]):
        assert out.split(" · ") == parts[: len(out.split(" · "))]  # a prefix of whole parts
    else:  # the first part alone is too long: its whole words, then "…"
        assert out.endswith("…") and parts[0].startswith(out[:-1]) and parts[0][len(out) - 1] == " "
