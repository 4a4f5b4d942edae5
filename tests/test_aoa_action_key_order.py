"""Same actions, same bytes: an Age of Automaton state never depends on the order in
which an action object lists its keys. The app stores every action as canonical JSON
(keys sorted), so a game played live and the replay of its stored log must agree; the
Donation, the pick of resources and the discard above the limit once logged the
resources in the action's own key order ("donates 1 red, 2 blue" live, "donates 2 blue,
1 red" on replay): now always in the stored order. AA-DON-01, AA-SET-12."""

from __future__ import annotations

import json
from typing import Any

from engine.age_of_automaton.game import GAME
from engine.ai import choose
from engine.jsonstate import dumps
from tests.aoa_support import drafted


def at_donation(rules: int | None = None) -> dict[str, Any]:
    """The first donor of round 1 (random play up to there), holding 2 of each colour."""
    state = drafted(2, seed=4, rules=rules)
    while state["phase"] != "donation":
        (seat,) = GAME.pending(state)
        state = GAME.apply(state, seat, choose(GAME.name, state, seat, "random"))
    (seat,) = GAME.pending(state)
    state["players"][seat]["res"] = {"red": 2, "blue": 2, "yellow": 2}
    state["players"][seat]["credits"] = 3
    return state


def both_orders(state: dict[str, Any], action: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    (seat,) = GAME.pending(state)
    stored = json.loads(dumps(action))  # what the app's log gives back: keys sorted
    return GAME.apply(state, seat, action), GAME.apply(state, seat, stored)


def test_a_donation_does_not_depend_on_the_key_order_AA_DON_01() -> None:
    for rules in (1, 2):
        state = at_donation(rules)
        live, replayed = both_orders(state, {"type": "donate", "give": {"yellow": 1, "credits": 0, "red": 1}})
        assert dumps(live) == dumps(replayed)
        assert any("donates 1 red, 1 yellow." in line for line in live["log"])


def test_a_discard_above_the_limit_does_not_depend_on_the_key_order_AA_SET_12() -> None:
    state = at_donation()
    (seat,) = GAME.pending(state)
    state["players"][seat]["res"] = {"red": 5, "blue": 4, "yellow": 4}
    state["asks"] = [{"seat": seat, "kind": "discard", "n": 3}]
    live, replayed = both_orders(state, {"type": "discard", "drop": {"yellow": 1, "red": 2}})
    assert dumps(live) == dumps(replayed)
    assert f"{seat} discards 2 red, 1 yellow (the limit is 10 resource tokens)." in live["log"]


def test_a_pick_of_resources_does_not_depend_on_the_key_order() -> None:
    state = at_donation()
    (seat,) = GAME.pending(state)
    state["asks"] = [{"seat": seat, "kind": "pick", "n": 2, "of": ["red", "blue", "yellow", "credits"], "why": "a test"}]
    live, replayed = both_orders(state, {"type": "pick", "take": {"yellow": 1, "blue": 1}})
    assert dumps(live) == dumps(replayed)
    assert f"{seat} gains 1 blue, 1 yellow (a test)." in live["log"]
