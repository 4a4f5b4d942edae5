"""Two corrections to the base game (issue 12), played by games of rules version 2 on
(``state["rules"]``; a state without it is version 1 and keeps the old behaviour):
the starting VP of each colour (FAQ) and cells covered by an Improvement (SI-PROD-02)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

from si_support import act, new_game, outcome, reveal_with

from engine.jsonstate import dumps
from engine.smartphone_inc import pads, preparation, scoring
from engine.smartphone_inc.data import COLOURS, START_VP
from engine.smartphone_inc.game import GAME

DATA_DIR = Path(__file__).resolve().parent.parent / "engine" / "smartphone_inc" / "data"

# The example: bottom A0, top B0 at x=1 (covers 4 bottom cells), I07 "under" on
# (1,0)-(2,0), S-green face down. Visible Production: A (0,0) and B's third cell: 2.
I07_UNDER = {
    "bottom": {"pad": "A", "side": 0},
    "top": {"side": 0, "rot": 0, "x": 1, "y": 0},
    "improvements": [{"id": "I07", "x": 1, "y": 0, "rot": 0, "layer": "under"}],
}
PLAN_4 = {"bottom": {"pad": "A", "side": 0}, "top": {"side": 0, "rot": 0, "x": 2, "y": 1}, "improvements": []}


def version_1(state: dict) -> dict:
    """The same table as a game started before the corrections: no rules key, 0 VP."""
    state = copy.deepcopy(state)
    del state["rules"]
    for p in state["players"].values():
        p["vp"] = 0
    return state


def test_new_games_play_rules_version_2():
    state = new_game(3)
    assert state["rules"] == preparation.RULES == 2
    assert GAME.view(state, None)["rules"] == 2
    assert GAME.view(version_1(state), None)["rules"] == 1


def test_each_colour_starts_on_its_scoreboard_space_SI_PRIO_03():
    """Correction 1 (FAQ): the colours start on different VP, rising in scoreboard order
    (green, blue, black, yellow, red), as recorded in companies.json."""
    data = json.loads((DATA_DIR / "companies.json").read_text())["colours"]
    start = {c["id"]: c["start_vp"] for c in data}
    assert [c["id"] for c in data] == COLOURS == ["green", "blue", "black", "yellow", "red"]
    assert [start[c] for c in COLOURS] == sorted(set(start.values()))  # the least VP on the left
    state = new_game(5)
    for seat in state["seats"]:
        p = state["players"][seat]
        assert p["vp"] == start[p["colour"]] == START_VP[p["colour"]]
    # colours given out of order: the colour decides, not the seat
    state = GAME.setup(["a", "b"], 1, {"colours": {"a": "red", "b": "green"}})
    assert state["players"]["a"]["vp"] == start["red"] and state["players"]["b"]["vp"] == start["green"]


def test_starting_vp_decide_priority_ties_and_count_at_the_end_SI_PRIO_02_SI_END_02():
    """Correction 1: equal prices in round 1: the colour that started with the least VP
    goes first (on VP, before the starting-position rule is needed); the starting VP
    are part of the final score."""
    state = new_game(3)
    # p3 (black) lowers its price; p1 (green) and p2 (blue) tie on price 5
    state = reveal_with(state, {"p3": outcome(down=1)}, "improve")
    assert state["turn"]["order"] == ["p3", "p1", "p2"]
    # a blue that has 1 VP less than green goes first: it is VP, not the seat
    state = new_game(3)
    state["players"]["p2"]["vp"] = state["players"]["p1"]["vp"] - 1
    state = reveal_with(state, {}, "improve")
    assert state["turn"]["order"][:2] == ["p2", "p1"]
    # the final score counts from the starting space
    state = new_game(3)
    rows = {r["seat"]: r for r in scoring.final_scores(state)["scores"]}
    assert [rows[s]["vp"] for s in ("p1", "p2", "p3")] == [START_VP["green"], START_VP["blue"], START_VP["black"]]
    assert scoring.final_scores(state)["winners"] == ["p3"]


def test_version_1_games_keep_zero_and_their_bytes():
    """A game begun before the corrections keeps its rules: applying actions adds no
    rules key, and its VP are not moved."""
    state = version_1(new_game(3))
    for seat in state["seats"]:
        state = act(state, seat, {"type": "plan", "plan": PLAN_4})
    assert "rules" not in state
    assert "\"rules\"" not in dumps(state)
    assert all(state["players"][s]["vp"] == 0 for s in state["seats"])


def _goods_with_i07(state: dict) -> int:
    state["players"]["p1"]["improvements"].append("I07")
    for seat in state["seats"]:
        state = act(state, seat, {"type": "plan", "plan": I07_UNDER if seat == "p1" else PLAN_4})
    assert state["phase"] == "improve"
    return state["players"]["p1"]["goods"]


def test_cells_under_an_improvement_make_no_goods_SI_PROD_02():
    """Correction 2 (literal reading of "cells covered by Improvements do not produce
    additional Goods"): the issue's example gives 2 Production + 2 covered cells (the 2
    under I07 make nothing) + 1 face down = 5 in version 2; 7 in version 1."""
    assert _goods_with_i07(new_game(3)) == 2 + 2 + 1
    assert _goods_with_i07(version_1(new_game(3))) == 2 + 4 + 1
    ev = pads.evaluate(I07_UNDER, ["S-green", "I07"], False, literal_cover=True)
    assert ev["covered"] == 2 and ev["active"]["prod"] == 2 and ev["face_down"] == ["S-green"]
    assert pads.evaluate(I07_UNDER, ["S-green", "I07"], False)["covered"] == 4
    # an "over" Improvement covers the top Pad, not the bottom cells: still 4 covered
    over = copy.deepcopy(I07_UNDER)
    over["improvements"][0]["layer"] = "over"
    assert pads.evaluate(over, ["S-green", "I07"], False, literal_cover=True)["covered"] == 4


def test_the_private_preview_follows_the_games_rules_SI_PROD_02():
    """The planner's preview of a sealed plan counts Goods as the reveal will."""
    for state, goods in ((new_game(3), 5), (version_1(new_game(3)), 7)):
        state["players"]["p1"]["improvements"].append("I07")
        state = act(state, "p1", {"type": "plan", "plan": I07_UNDER})
        assert GAME.view(state, "p1")["my_plan_outcome"]["yields"]["goods"] == goods


def test_games_recorded_before_the_corrections_replay_byte_for_byte():
    """Rules version 1 stays byte-identical: four random games recorded with the engine
    before the corrections (commit d1455f7: 1, 2 + Steve, 3, 5 companies) are replayed
    from their saved first state; every action is accepted and the last state has the
    same bytes. Several plans put an "under" Improvement on covered cells, where
    version 2 would count fewer Goods."""
    games = json.loads((Path(__file__).resolve().parent / "reference" / "rules-v1-games.json").read_text())
    literal_differs = 0
    for g in games:
        state = GAME.load(g["initial"])  # loading upgrades the old shape: rules 1, schema 2
        assert state["rules"] == 1
        for seat, action in g["actions"]:
            if action["type"] == "plan":
                owned = state["players"][seat]["improvements"]
                literal_differs += (
                    pads.evaluate(action["plan"], owned, True)["covered"]
                    != pads.evaluate(action["plan"], owned, True, literal_cover=True)["covered"]
                )
            state = GAME.apply(state, seat, action)
        assert GAME.is_over(state)
        # the old engine's bytes: the same state in the shape it was saved in (schema 1
        # had no "rules" key: migrations.py adds it on load, nothing else)
        old_shape = {k: v for k, v in state.items() if k != "rules"} | {"schema": 1}
        assert hashlib.sha256(GAME.dump(old_shape).encode()).hexdigest() == g["final_sha256"]
    assert literal_differs > 0
