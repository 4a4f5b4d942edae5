"""Every select option a Smartphone Inc. player can be shown in a seeded game, with its
texts as written (before any cut to Discord's 100 characters): shared by
``tests/test_si_select_fit.py`` and ``scripts/select_texts.py``.

A seeded game is played by the engine's greedy AI; at each plan prompt the planner's
screens a player can open are listed (the first screen, each goal's list, each by-hand
Pad pair's top-Pad places, the plan after the first place, each Improvement's places on
it; with ``outcomes`` also the price, Goods and outcome lists of "Pick from the
outcomes"), and at each turn prompt every legal action as its option reads
(``describe_option`` on the engine's own views before and after it).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from bot import text
from bot.choices import Choice
from bot.games.smartphone_inc import planner
from bot.games.smartphone_inc.presenter import PRESENTER
from engine.ai import choose
from engine.smartphone_inc.game import GAME
from tests.si_support import new_game

LIMIT = 100  # Discord's most characters of a select option's label or description


@dataclass(frozen=True)
class Shown:
    """One option as written: the screen it is on, its label and its description."""

    screen: str
    label: str
    description: str


@contextmanager
def uncut(cuts: list[tuple[str, int]]) -> Iterator[None]:
    """``bot.text.clip`` cuts nothing while open: each text it would have cut is added to
    ``cuts`` (with the limit) and returned whole, so the options read as written."""
    original = text.clip

    def whole(s: str, n: int) -> str:
        if len(s) > n:
            cuts.append((s, n))
        return s

    text.clip = whole
    try:
        yield
    finally:
        text.clip = original


def planner_screens(ctx: planner.PlanContext, outcomes: bool = False) -> Iterator[tuple[str, list[Choice]]]:
    start = planner.Draft(step="start")
    first = planner.step_choices(start, ctx)
    yield "start", first
    for c in first:
        d = planner.choose(start, ctx, c.value)
        options = planner.step_choices(d, ctx)
        yield d.step, options
        if d.step != "place":
            continue
        places = [o for o in options if not o.value.startswith("@")]
        if not places:
            continue
        review = planner.choose(d, ctx, places[0].value)
        listed = planner.step_choices(review, ctx)
        yield "review", listed
        for o in listed:
            if o.value.startswith("+"):
                yield "imp_pos", planner.step_choices(planner.choose(review, ctx, o.value), ctx)
    if outcomes:
        price = planner.Draft(step="price")
        prices = planner.step_choices(price, ctx)
        yield "price", prices
        for p in prices:
            goods = planner.choose(price, ctx, p.value)
            counts = planner.step_choices(goods, ctx)
            yield "goods", counts
            for g in counts:
                yield "outcome", planner.step_choices(planner.choose(goods, ctx, g.value), ctx)


def shown_options(players: int = 3, seed: int = 1, outcomes: bool = False, **options: Any) -> Iterator[Shown]:
    """Every option of a seeded game's selects, as written (call inside :func:`uncut`)."""
    state = new_game(players, seed=seed, **options)
    for _ in range(5000):
        pending = GAME.pending(state)
        if state["phase"] == "over" or not pending:
            return
        seat, prompt = next(iter(pending.items()))
        if prompt["type"] == "plan":
            view = GAME.view(state, seat)
            ctx = planner.PlanContext.from_prompt(view["prompt"], view, seat)
            for screen, listed in planner_screens(ctx, outcomes):
                for c in listed:
                    yield Shown(screen, c.label, c.description)
        else:
            before = GAME.view(state, seat)
            for a in GAME.legal_actions(state, seat):
                after = GAME.view(GAME.apply(state, seat, a), seat)
                yield Shown(str(prompt["type"]), PRESENTER.describe_option(a, before, after, seat), "")
        state = GAME.apply(state, seat, choose("smartphone-inc", state, seat, "greedy"))
    raise AssertionError("the game did not end")
