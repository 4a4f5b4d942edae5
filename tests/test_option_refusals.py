"""Issue 20 §4: lobby options that contradict themselves are refused, and every options
refusal is one short sentence (it never quotes the whole of what was typed), in every
game (``Presenter.parse_options``: bot/text.py, bot/games/base.py, the presenters)."""

from __future__ import annotations

import json
import re

import pytest

from bot.games import find
from bot.games.base import option_text

GAMES = ("smartphone-inc", "mobile-markets", "age-of-automaton")
LONGEST = 300  # characters: a sentence, not a page
X = "x" * 6000  # the issue's refusal quoted all of it (6,037 characters)
HOSTILE = [
    X, "=" + X, X + "=1", "difficulty=" + X, "tech_sides=" + X, "technologies=" + X, "colours=" + X,
    "technologies=" + "+".join(["gps:0"] * 1000), "{" + X, '{"' + X + '": 1}', '{"difficulty": "' + X + '"}',
    " ".join(f"k{i}=v" for i in range(1000)), "block_size=" + "9" * 3000, '{"tech_sides": {"' + X + '": 1}}',
    '{"technologies": ["' + X + '"]}', "[1, 2]", '{"a": 1, "a": 2}', "board=tiny", "directives=maybe",
    "technologies=everything", "technologies=spatial-vp+ceo-wi-fi",
]


def one_sentence(message: str) -> bool:
    """One sentence: it ends once, with a full stop (the games' own names keep theirs)."""
    plain = message.replace("Smartphone Inc.", "Smartphone Inc").replace("Steve Jr.", "Steve Jr")
    return bool(re.fullmatch(r"[^\n]*[.!?]", plain)) and not re.search(r"[.!?]\s", plain)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("typed", HOSTILE, ids=range(len(HOSTILE)))
def test_an_options_refusal_is_one_short_sentence(name: str, typed: str) -> None:
    presenter = find(name)
    assert presenter is not None
    with pytest.raises(ValueError) as err:
        presenter.parse_options(typed)
    message = str(err.value)
    assert len(message) <= LONGEST, (len(message), message[:200])
    assert one_sentence(message), message
    assert "x" * 41 not in message  # what was typed is quoted in short, if at all


@pytest.mark.parametrize("name", GAMES)
def test_an_option_given_twice_with_two_values_is_refused(name: str) -> None:
    """``difficulty=hard difficulty=easy`` was taken, the last one silently winning."""
    presenter = find(name)
    assert presenter is not None
    tried = 0
    for option in presenter.options:
        values = [v for v in option.values if not isinstance(v, (dict, list))]
        if len(values) < 2:
            continue
        first, then = option_text(values[0]), option_text(values[-1])
        for typed in (
            f"{option.name}={first} {option.name}={then}",
            f"{option.name}={first},{option.name.upper()}={then}",  # the same name, written otherwise
            "{" + f'"{option.name}": {json.dumps(values[0])}, "{option.name}": {json.dumps(values[-1])}' + "}",
        ):
            with pytest.raises(ValueError, match="given twice") as err:
                presenter.parse_options(typed)
            assert one_sentence(str(err.value)) and option.name in str(err.value)
            tried += 1
        # the same value twice says one thing: taken
        assert presenter.parse_options(f"{option.name}={first} {option.name}={first}") == {option.name: values[0]}
    assert tried >= 3, f"{name} has no option with two values to contradict"


def test_the_issues_case() -> None:
    presenter = find("mobile-markets")
    assert presenter is not None
    with pytest.raises(ValueError, match=re.escape("difficulty is given twice (hard, then easy)")):
        presenter.parse_options("difficulty=hard difficulty=easy")
    assert presenter.parse_options("difficulty=easy") == {"difficulty": "easy"}
