"""Taking a sealed plan back while Planning is open (issue 7, "Confirming"), and which
actions may be undone (``GAME.undoable``: BGA's rule, nothing revealed, no chance used)."""

from __future__ import annotations

import json

import pytest
from si_support import PLAN, new_game

from engine import IllegalAction
from engine.smartphone_inc.game import GAME


def _without_counters(state: dict) -> str:
    """The state's dump without the action counter and the last action's log lines."""
    return json.dumps({k: v for k, v in state.items() if k not in ("version", "log")}, sort_keys=True)


def test_unseal_restores_the_state_before_the_seal_SI_PLAN_01():
    state = new_game(3)
    sealed = GAME.apply(state, "p1", {"type": "plan", "plan": PLAN})
    back = GAME.apply(sealed, "p1", {"type": "unseal"})
    assert _without_counters(back) == _without_counters(state)
    assert back["version"] == state["version"] + 2
    assert "p1" in GAME.pending(back) and GAME.pending(back)["p1"]["type"] == "plan"
    # it can be sealed again, differently
    other = dict(PLAN, top=dict(PLAN["top"], x=1))
    again = GAME.apply(back, "p1", {"type": "plan", "plan": other})
    assert again["players"]["p1"]["plan"]["top"]["x"] == 1


def test_unseal_reveals_nothing_SI_PLAN_01():
    state = GAME.apply(new_game(3), "p1", {"type": "plan", "plan": PLAN})
    back = GAME.apply(state, "p1", {"type": "unseal"})
    text = " ".join(GAME.events(back))
    assert "took their plan back" in text and "bottom" not in text and "side" not in text
    for seat in (None, "p2", "p3"):
        assert GAME.view(back, seat)["players"]["p1"]["sealed"] is False


def test_unseal_only_a_sealed_plan_while_planning_is_open_SI_PLAN_12():
    state = new_game(2)
    with pytest.raises(IllegalAction):
        GAME.apply(state, "p1", {"type": "unseal"})  # nothing sealed
    state = GAME.apply(state, "p1", {"type": "plan", "plan": PLAN})
    with pytest.raises(IllegalAction):
        GAME.apply(state, "p2", {"type": "unseal"})
    state = GAME.apply(state, "p2", {"type": "plan", "plan": PLAN})  # the last plan: revealed
    assert state["phase"] != "planning"
    with pytest.raises(IllegalAction):
        GAME.apply(state, "p1", {"type": "unseal"})  # SI-PLAN-12: fixed after Phase 1


def test_unseal_is_canonical_and_refuses_junk():
    state = GAME.setup(["p1", "p2"], 5)
    assert GAME.canonical_action(state, "p1", {"type": "unseal"}) == ({"type": "unseal"}, [])
    assert GAME.canonical_action(state, "p1", {"type": "unseal", "x": 1})[1] == ["x"]


def test_undoable_not_across_the_reveal_nor_chance():
    state = GAME.apply(new_game(2), "p1", {"type": "plan", "plan": PLAN})
    revealed = GAME.apply(state, "p2", {"type": "plan", "plan": PLAN})
    assert not GAME.undoable(state, revealed, "p2")  # the plans were revealed
    # a turn that uses no chance may be undone; one that moved the generator may not
    seen: set[bool] = set()
    for _ in range(200):
        seat, _prompt = next(iter(GAME.pending(revealed).items()))
        nxt = GAME.apply(revealed, seat, GAME.legal_actions(revealed, seat)[0])
        same_rng = nxt["rng"] == revealed["rng"] and nxt["pile"] == revealed["pile"]
        assert GAME.undoable(revealed, nxt, seat) == same_rng
        seen.add(same_rng)
        revealed = nxt
        if revealed["phase"] == "planning":
            break
    assert True in seen  # most turns use no chance
