"""Age of Automaton's options fit Discord and name cards, over whole games (issue 22).

Discord cuts a select option's label and description at 100 characters (a button's
label at 80: the AoA buttons are fixed words). Over whole games played by the random
player (2, 3 and 4 players), every option of every decision, as the presenter lists it
(the turn grouped by board column, the questions, the draft), keeps within 100
characters before any clipping, and no text a player reads holds a card code (P10,
E01, D17, S12, H03). The whole-game run through the fake Discord is
tests/test_playtest_aoa.py's, checked with tests/cut_support.py."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import text
from bot.choices import ActionPath
from bot.games.age_of_automaton.presenter import AgeOfAutomaton
from engine.age_of_automaton.data import SPECIALISTS
from engine.age_of_automaton.game import GAME
from engine.ai import choose
from tests.aoa_support import NAMES

CODE = re.compile(r"(?<![\w-])[PEDSH]\d\d(?![\w-])")
PRESENTER = AgeOfAutomaton()


def _options(prompt: dict[str, Any], actions: list[dict[str, Any]], words: Any) -> list[tuple[str, str]]:
    """(label, description) of every option the lists of this decision show, opened one
    level down (a group of the turn, a folded list of mixes)."""
    out = []
    first = PRESENTER.action_step(prompt, actions, ActionPath(), words)
    for c in first.choices:
        out.append((c.label, c.description))
        if not c.value.startswith("="):
            inner = PRESENTER.action_step(prompt, actions, ActionPath().then(c.value), words)
            out += [(d.label, d.description) for d in inner.choices]
    return out


@pytest.fixture
def unclipped(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    cut: list[str] = []
    clip = text.clip

    def recording(words: str, n: int) -> str:
        if len(words) > n:
            cut.append(f"cut at {n}: {words!r}")
        return clip(words, n)

    monkeypatch.setattr(text, "clip", recording)
    return cut


@pytest.mark.parametrize(("players", "seed"), [(2, 61), (3, 62), (4, 63)])
def test_every_option_of_whole_games_fits_and_names_no_card(players: int, seed: int, unclipped: list[str]) -> None:
    state = GAME.setup(NAMES[:players], seed, {})
    seen = 0
    for _ in range(5000):
        if state["phase"] == "over":
            break
        seat = sorted(GAME.pending(state))[0]
        view = GAME.view(state, seat)
        words = PRESENTER.action_words(view)
        actions = GAME.legal_actions(state, seat)
        for label, desc in _options(view["prompt"], actions, words):
            seen += 1
            assert len(label) <= 100 and len(desc) <= 100, (label, desc)
            assert not CODE.search(label) and not CODE.search(desc), (label, desc)
        for a in actions:  # the "Done: …" line of each
            done = words.describe_action(a)
            assert not CODE.search(done), done
        assert not CODE.search(PRESENTER.describe_prompt(view["prompt"])), view["prompt"]
        state = GAME.apply(state, seat, choose("age-of-automaton", state, seat, "random"))
    assert state["phase"] == "over" and seen > 500
    assert not unclipped, "\n".join(sorted(set(unclipped))[:20])


def test_every_specialist_fits_a_draft_option() -> None:
    from engine.age_of_automaton.view import _card

    words = PRESENTER.action_words({"draft": {"hand": [_card("specialist", c) for c in SPECIALISTS]}})
    for card in SPECIALISTS:
        action = {"type": "draft", "card": card}
        label, desc = words.describe_action(action), words.describe_detail(action)
        assert len(label) <= 100 and 0 < len(desc) <= 100, (label, desc)
        assert SPECIALISTS[card]["name"] in label and "discard for" in desc
