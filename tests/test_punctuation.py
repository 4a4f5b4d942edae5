"""Messages end with one full stop, never two (found by playing through the fake Discord:
"Added Steve Jr..", "…before or after).." in a turn DM), and a count of 1 is singular."""

from __future__ import annotations

from bot import text
from bot.games.base import Presenter


def test_sentence_adds_a_full_stop_only_where_none_is() -> None:
    assert text.sentence("Added Steve Jr.") == "Added Steve Jr."
    assert text.sentence("Added Bot 2") == "Added Bot 2."
    assert text.sentence("Your move: sell (before or after).") == "Your move: sell (before or after)."
    assert text.sentence("Ready?") == "Ready?"
    assert text.sentence("More …") == "More …"
    assert text.sentence("trailing space ") == "trailing space."


def test_the_reveal_line_of_a_single_sealed_plan_is_singular() -> None:
    p = Presenter()
    assert p.sealed_done({}, 1) == "🔓 The plan is sealed — revealed below."
    assert p.sealed_done({}, 3) == "🔓 All 3 plans sealed — revealed below."


def test_a_player_name_ending_a_log_line_keeps_one_full_stop() -> None:
    from types import SimpleNamespace

    seats = [SimpleNamespace(seat="ann", display_name="Ann"), SimpleNamespace(seat="steve", display_name="Steve Jr.")]
    info = SimpleNamespace(seats=seats)
    assert text.with_player_names(["Turn order: ann, steve.", "steve sets the price at 4."], info) == [
        "Turn order: Ann, Steve Jr.",
        "Steve Jr. sets the price at 4.",
    ]
