"""Smartphone Inc. through the engine protocol: secrecy, purity, determinism, bad input,
random full games with invariants, the simulate CLI."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from si_support import PLAN, new_game

from engine import IllegalAction, get_game
from engine.ai import choose
from engine.simulate import play_game, simulate
from engine.smartphone_inc.common import offices_used
from engine.smartphone_inc.data import GOODS_SUPPLY, OFFICE_MARKERS, REGIONS
from engine.smartphone_inc.game import GAME
from tests.protocol_support import assert_deterministic_round_trip


def test_plans_are_secret_until_all_sealed_SI_PLAN_01():
    """SI-PLAN-01: simultaneous secret plans, revealed together."""
    state = new_game(3)
    assert set(GAME.pending(state)) == {"p1", "p2", "p3"}
    state = GAME.apply(state, "p2", {"type": "plan", "plan": PLAN})
    assert set(GAME.pending(state)) == {"p1", "p3"}  # any order
    for seat in (None, "p1", "p3"):
        view = GAME.view(state, seat)
        assert view["players"]["p2"]["plan"] is None and view["players"]["p2"]["sealed"]
        assert "my_plan_outcome" not in view
        assert "bottom" not in GAME.dump(view["players"]["p2"])
    mine = GAME.view(state, "p2")
    assert mine["players"]["p2"]["plan"] is not None and mine["my_plan_outcome"]["covered"] == 2
    text = " ".join(GAME.events(state))
    assert "bottom" not in text and "sealed" in text
    state = GAME.apply(state, "p1", {"type": "plan", "plan": PLAN})
    assert GAME.view(state, "p3")["players"]["p1"]["plan"] is None
    state = GAME.apply(state, "p3", {"type": "plan", "plan": PLAN})
    assert (state["round"], state["phase"]) == (1, "improve")  # PLAN leaves Improve active
    view = GAME.view(state, None)
    assert all(view["players"][s]["plan"] == PLAN for s in ("p1", "p2", "p3"))  # all revealed together


def test_sealed_plan_cannot_change_SI_PLAN_12():
    """SI-PLAN-12 (FAQ): a decision cannot be changed once made."""
    state = new_game(3)
    state = GAME.apply(state, "p1", {"type": "plan", "plan": PLAN})
    with pytest.raises(IllegalAction):
        GAME.apply(state, "p1", {"type": "plan", "plan": PLAN})


def test_apply_never_mutates_and_versions_count():
    state = new_game(3)
    before = GAME.dump(state)
    new = GAME.apply(state, "p1", {"type": "plan", "plan": PLAN})
    assert GAME.dump(state) == before
    assert new["version"] == state["version"] + 1


def test_dump_load_round_trip_and_determinism():
    assert_deterministic_round_trip("smartphone-inc", ["a", "b", "c"], 7)
    with pytest.raises(ValueError):
        GAME.load(json.dumps({"game": "other"}))


def test_out_of_turn_and_wrong_type_actions_are_refused():
    state = new_game(3)
    for seat, action in [
        ("zz", {"type": "plan", "plan": PLAN}),
        ("p1", {"type": "research", "place": {}}),
        ("p1", "plan"),
        ("p1", {"type": "plan"}),
        ("p1", {"type": "plan", "plan": {"bottom": "A"}}),
    ]:
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, action)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
action_payloads = st.fixed_dictionaries(
    {"type": st.sampled_from(["plan", "improvement", "research", "logistics", "wifi", "nfc", "sell", "retailer_bonus", "gamepad_office", "x"])},
    optional={
        "plan": json_values,
        "place": json_values,
        "id": json_values,
        "region": json_values,
        "sell": json_values,
        "regions": json_values,
        "extra": json_values,
        "use": json_values,
        "delta": json_values,
        "from": json_values,
        "to": json_values,
    },
)


def _states():
    """A few states at different decisions (built once)."""
    out = []

    def keep(s):
        if len(out) < 40 and GAME.pending(s):
            out.append(s)

    play_game("smartphone-inc", ["a", "b", "c"], 11, {"tech_sides": "random"}, "random", on_state=keep)
    return out


STATES = _states()


@settings(max_examples=300, deadline=None)
@given(idx=st.integers(0, len(STATES) - 1), payload=action_payloads | json_values)
def test_random_payloads_are_illegal_or_legal_never_crash(idx, payload):
    """Any JSON payload: either a legal action or IllegalAction, and the state unchanged."""
    state = STATES[idx]
    before = GAME.dump(state)
    for seat in list(GAME.pending(state)) + ["a"]:
        try:
            GAME.apply(state, seat, payload)
        except IllegalAction:
            pass
    assert GAME.dump(state) == before


def check_invariants(state):
    offices_cap = {r: None for r in REGIONS}
    for rid, reg in state["regions"].items():
        ret = reg["retailer"]
        from engine.smartphone_inc.common import region_capacity

        assert len(reg["offices"]) <= region_capacity(state, rid), rid
        offices_cap[rid] = len(reg["offices"])
        for seat in set(reg["offices"]):
            n = reg["offices"].count(seat)
            assert n <= 2 and (n == 1 or ret is None)
    for seat, p in state["players"].items():
        on_board = sum(reg["sold"].count(seat) for reg in state["regions"].values())
        assert p["supply"] + p["goods"] + on_board == GOODS_SUPPLY, seat
        assert p["supply"] >= 0 and p["goods"] >= 0 and p["price"] >= 1
        assert len(set(p["techs"])) == len(p["techs"])
        assert offices_used(state, seat) <= OFFICE_MARKERS  # Office markers are limited
    patents = [t for t, v in state["techs"].items() if v["patent"]]
    assert sorted(patents) == sorted(t for p in state["players"].values() for t in p["patents"])
    owned = [i for p in state["players"].values() for i in p["improvements"] if not i.startswith("S-")]
    assert len(owned) == len(set(owned))
    assert not set(owned) & set(state["block"] + state["pile"])


@pytest.mark.parametrize(
    ("n", "with_steve"), [(n, False) for n in range(1, 6)] + [(n, True) for n in range(2, 6)]
)
def test_random_full_games_keep_invariants(n, with_steve):
    seats = [f"s{i}" for i in range(n)]
    options = {"automata": [seats[-1]], "tech_sides": "random"} if with_steve else {"tech_sides": "random"}
    for seed in range(3):
        vp_seen = {s: 0 for s in seats}

        def check(state, vp_seen=vp_seen):
            check_invariants(state)
            for s in seats:
                assert state["players"][s]["vp"] >= vp_seen[s]  # VP only grow in the base game
                vp_seen[s] = state["players"][s]["vp"]

        final, _, _ = play_game("smartphone-inc", seats, 100 + seed, options, "random", on_state=check)
        res = GAME.result(final)
        assert sorted(r["seat"] for r in res["scores"]) == sorted(seats)
        for r in res["scores"]:
            assert r["vp"] == final["players"][r["seat"]]["vp"] + r["patent_vp"] + r["retailer_vp"]


def test_vp_consistent_with_the_log():
    """Every VP change of Phase 8 is announced in the log with the total."""
    seen = {}

    def check(state):
        for line in state["log"]:
            if " in all." in line:
                seat = line.split(" ")[0]
                seen[seat] = int(line.rsplit(",", 1)[1].split()[0])
        for seat, vp in seen.items():
            if state["phase"] == "planning":
                assert state["players"][seat]["vp"] == vp

    play_game("smartphone-inc", ["a", "b"], 5, {}, "random", on_state=check)
    assert seen


def test_ai_players_are_deterministic_from_state():
    state = new_game(3)
    assert choose("smartphone-inc", state, "p1", "random") == choose("smartphone-inc", copy.deepcopy(state), "p1", "random")
    assert choose("smartphone-inc", state, "p1", "greedy") == choose("smartphone-inc", state, "p1", "greedy")
    GAME.apply(state, "p1", choose("smartphone-inc", state, "p1", "greedy"))


def test_simulate_summary_has_no_failures():
    summary = simulate("smartphone-inc", 0, 10, 1)
    assert summary["failures"] == 0 and summary["games"] == 10 and summary["actions"] > 0
    assert summary["mean_vp"] > 0


def test_simulate_cli_prints_json():
    out = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--game", "smartphone-inc", "--players", "2", "--games", "2", "--seed", "3", "--options", '{"tech_sides": "random"}'],
        capture_output=True, text=True, check=True,
    )
    data = json.loads(out.stdout)
    assert data["games"] == 2 and data["failures"] == 0 and "actions_per_second" in data


def test_registry():
    assert get_game("smartphone-inc") is GAME
    with pytest.raises(KeyError):
        get_game("chess")
