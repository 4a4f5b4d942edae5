"""Mobile Markets' presenter: lobby facts, words, the plan and product builders, ``/rules``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import BOT, RANDOM, Automaton, Option, PlanningPresenter
from bot.games.mobile_markets import builders, words
from bot.games.mobile_markets import rules as topics

STEVE_JR = Automaton(
    "steve",
    "Steve Jr.",
    "the rulebook's solo opponent (house rule in a 2-4 player game)",
    seat_name="Steve Jr.",
)

OPTIONS = (
    Option(
        "difficulty",
        "Steve Jr. difficulty",
        "how strong Steve Jr. is: 0, 1 or 2 of his cards face up at the start",
        {"easy": "easy (no card face up)", "medium": "medium (1 card face up)", "hard": "hard (2 cards face up)"},
    ),
)

HOUSE_RULE = (
    "Steve Jr. is the rulebook's solo opponent. Letting him fill a seat in a 2-4 player game "
    "is a house rule (at most one Steve Jr. per game)."
)


class MobileMarkets(PlanningPresenter):
    name = "mobile-markets"
    title = "Mobile Markets"
    min_seats = 1
    max_seats = 4
    automata = (STEVE_JR, BOT, RANDOM)
    options = OPTIONS
    wording = words  # phase titles, prompts, actions, keys and values in words
    score_keys = ("money", "vp")  # the final scores and the status count money, not VP
    score_word = "money"
    rules = topics.RULES
    phase_topics = topics.PHASE_TOPIC
    view_labels = True  # the cards of a select with their cost and effect

    def action_words(self, view: Mapping[str, Any]) -> words.ViewWords:
        return words.ViewWords(view)

    # -- lobby ------------------------------------------------------------------------

    def options_in_words(self, options: Mapping[str, Any], names: Mapping[str, str] | None = None) -> list[str]:
        out = super().options_in_words(options, names)
        out.append(HOUSE_RULE)
        return out

    # -- decisions ----------------------------------------------------------------------

    def prompt_picture(self, prompt: Mapping[str, Any] | None) -> str | None:
        """Every turn prompt comes with the seat's desk (800 px wide, no text under 20 px):
        points, Progress tokens, each card's cost after discount, the Customer decks."""
        return "draw" if prompt else None

    def secret_builder(self, prompt: Mapping[str, Any] | None) -> Any:
        """The plan-by-goal builder in Planning, the product builder in Sales; the other
        prompts (Technology, Marketing, a free card) use the generic select, their
        numbers (points, Progress tokens, costs after discount) in the prompt's words."""
        kind = (prompt or {}).get("type")
        if kind == "plan":
            return builders.PLANNER
        if kind == "product":
            return builders.PRODUCT
        return None

    def sealed_done(self, view: Mapping[str, Any], total: int) -> str:
        """The solo game has one plan to seal, not "All 1 plans"."""
        if total == 1:
            return "🔓 Your plan is sealed — revealed below."
        return super().sealed_done(view, total)

    # -- pictures ---------------------------------------------------------------------

    def round_pictures(self, phase_views: Sequence[Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
        """The market at the start of Profit: every company's sales pile is shown before
        Profit discards them."""
        sales = [v for v in phase_views if v.get("phase") == "profit"][-1:]
        return [(f"round-{v.get('round')}-sales.png", v) for v in sales]


PRESENTER = MobileMarkets()
