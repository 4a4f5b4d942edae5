"""A mix of amounts with more options than one select (issue 22: the R&D bonus of 4+ took
two picks, "Take red: 2" then the mix). The simplest mixes are options of the first
list, the rest open by number of kinds; every mix is reachable exactly once."""

from __future__ import annotations

from typing import Any

import pytest

from bot.choices import ActionPath
from bot.games.age_of_automaton import turns
from engine import IllegalAction
from engine.age_of_automaton.common import compositions
from engine.age_of_automaton.labels import describe

KINDS = ["red", "blue", "yellow", "credits"]


class Words:
    def describe_action(self, action: dict[str, Any]) -> str:
        return str(describe(action))


def _reachable(actions: list[dict[str, Any]], prompt: dict[str, Any]) -> list[tuple[int, int]]:
    """(clicks, action index) of every option the lists reach."""
    first = turns.step(prompt, actions, ActionPath(), Words())
    assert 0 < len(first.choices) <= 25
    out = []
    for c in first.choices:
        assert len(c.label) <= 100 and len(c.description) <= 100
        path = ActionPath().then(c.value)
        got = turns.step(prompt, actions, path, Words())
        if got.action is not None:
            assert got.at_once
            out.append((1, actions.index(got.action)))
            continue
        assert 0 < len(got.choices) <= 25
        for d in got.choices:
            chosen = turns.step(prompt, actions, path.then(d.value), Words()).action
            assert chosen is not None
            out.append((2, actions.index(chosen)))
    return out


def test_an_rnd_bonus_of_4_lists_the_simple_mixes_at_once() -> None:
    actions = [{"type": "pick", "take": c} for c in compositions(4, KINDS)]
    assert len(actions) == 35  # more than one select holds
    reached = _reachable(actions, {"type": "pick"})
    assert sorted(i for _, i in reached) == list(range(35))  # each once
    one_click = [actions[i]["take"] for n, i in reached if n == 1]
    assert {"red": 4} in one_click and {"red": 2, "yellow": 2} in one_click and {"blue": 3, "credits": 1} in one_click
    assert {"red": 1, "blue": 1, "yellow": 1, "credits": 1} in one_click  # alone of its kind
    assert len(one_click) == 23  # only the 12 mixes of three kinds take a second pick


def test_a_donation_of_up_to_4_reaches_every_amount() -> None:
    caps = {"red": 4, "blue": 4, "yellow": 4, "credits": 9}
    actions = [{"type": "donate", "give": c} for t in range(4, -1, -1) for c in compositions(t, KINDS, caps)]
    reached = _reachable(actions, {"type": "donate"})
    assert sorted(i for _, i in reached) == list(range(len(actions)))
    one_click = [actions[i]["give"] for n, i in reached if n == 1]
    assert not any(one_click[0].values())  # "Donate nothing" first
    assert {"blue": 4} in one_click and {"credits": 1} in one_click


def test_a_stale_pick_is_refused() -> None:
    actions = [{"type": "pick", "take": c} for c in compositions(4, KINDS)]
    with pytest.raises(IllegalAction):
        turns.step({"type": "pick"}, actions, ActionPath().then("=99"), Words())
    with pytest.raises(IllegalAction):
        turns.step({"type": "pick"}, actions, ActionPath().then("7"), Words())
