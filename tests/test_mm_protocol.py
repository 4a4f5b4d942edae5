"""Mobile Markets through the engine protocol: random full games with invariants,
purity, determinism, dump/load, bad input, the simulate CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from mm_support import PLAN_EX1, all_card_ids, every_card, new_game

from engine import IllegalAction, get_game
from engine.ai import choose
from engine.mobile_markets.data import CUSTOMERS
from engine.mobile_markets.game import GAME
from engine.simulate import simulate
from tests.protocol_support import assert_deterministic_round_trip

INTERNAL_ID = re.compile(r"\b(F|FS|V|R|C|SJ)\d+\b")


def check_invariants(state: dict, before: dict | None) -> None:
    # no internal id in what players read (T/M/E/TS numbers are printed on the cards)
    assert not [line for line in state["log"] if INTERNAL_ID.search(line)]
    steve = state["steve"] is not None
    assert every_card(state) == all_card_ids(steve)  # every card in exactly one place
    for p in state["players"].values():
        assert p["money"] == sum(p["gains"])  # money = the sum of the logged gains
        assert len(p["sales"]) <= p["goods"]  # never more sales than Goods produced
        assert p["progress"] >= 0
        assert all(CUSTOMERS[c]["type"] for c in p["private"])
    # turn order: from Pricing on, left to right on the Price Track
    if state["phase"] in ("technology", "marketing", "production", "sales", "profit"):
        track = [s for col in sorted(state["track"], key=int) for s in state["track"][col]]
        assert state["order"] == track
        prices = [state["players"][s]["price"] for s in state["order"]]
        assert prices == sorted(prices)
    if state["phase"] == "planning" and state["round"] > 1:
        def key(s):
            p = state["players"][s]
            return (p["money"], 0 if p["steve"] else 1, p["initiative"] or 0)

        assert state["order"] == sorted(state["seats"], key=key)


CASES = [(n, {}) for n in (1, 2, 3, 4)] + [(2, {"automata": ["p2"], "difficulty": d}) for d in ("easy", "medium", "hard")]


@pytest.mark.parametrize("n,options", CASES)
def test_random_games_keep_the_invariants(n, options):
    """MM-SET-06 MM-END-01: whole random games end after 5 rounds with every card in
    one place, money = logged gains, sales <= Goods, turn order per the rules."""
    for seed in range(4 if n < 4 else 5):
        seats = [f"p{i + 1}" for i in range(n)]
        state = GAME.setup(seats, seed * 7919 + n, dict(options))
        check_invariants(state, None)
        rounds = set()
        while not GAME.is_over(state):
            seat = sorted(GAME.pending(state))[0]
            before = GAME.dump(state)
            action = choose("mobile-markets", state, seat, "random")
            new = GAME.apply(state, seat, action)
            assert GAME.dump(state) == before  # apply never changes its input
            assert new["version"] == state["version"] + 1
            state = new
            rounds.add(state["round"])
            check_invariants(state, None)
        assert rounds <= {1, 2, 3, 4, 5} and state["round"] == 5
        assert state["events"]["deck"] == [] and len(state["events"]["revealed"]) == 5
        res = GAME.result(state)
        assert [r["money"] for r in res["scores"]] == sorted((r["money"] for r in res["scores"]), reverse=True)


def test_dump_load_and_determinism():
    a = assert_deterministic_round_trip("mobile-markets", ["a", "b", "c"], 11)
    assert a["schema"] == 1 and a["rules"] == 1
    with pytest.raises(ValueError):
        GAME.load(json.dumps({"game": "mobile-markets", "schema": 99, "rules": 1}))


def test_big_seeds_work():
    seed = (1 << 127) + 12345
    s1 = GAME.setup(["a", "b"], seed)
    s2 = GAME.setup(["a", "b"], seed + 1)
    assert GAME.dump(s1) != GAME.dump(s2)
    assert get_game("mobile-markets") is GAME


def test_bad_input_is_refused_and_state_unchanged():
    state = new_game(2)
    before = GAME.dump(state)
    for seat, action in [
        ("zz", {"type": "plan", "plan": PLAN_EX1}),
        ("p1", "plan"),
        ("p1", {"type": "buy", "card": "T1"}),
        ("p1", {"type": "plan", "plan": {"bottom": "C"}}),
        ("p1", {"type": "plan", "plan": {**PLAN_EX1, "cover": []}}),
        ("p1", {"type": "plan", "plan": {**PLAN_EX1, "cover": [0, 1, 2, 3, 4]}}),
        ("p1", {"type": "plan", "plan": {**PLAN_EX1, "cover": [1, 3]}}),
    ]:
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, action)
    assert GAME.dump(state) == before
    with pytest.raises(IllegalAction):
        GAME.setup(["a"] * 2, 1)
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b", "c", "d", "e"], 1)
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], 1, {"automata": ["a", "b"]})
    with pytest.raises(IllegalAction):
        GAME.setup(["a", "b"], 1, {"difficulty": "nightmare"})


def test_simulate_runs_every_player_count():
    summary = simulate("mobile-markets", 0, 8, 3)
    assert summary["failures"] == 0 and summary["games"] == 8
    out = subprocess.run(
        [sys.executable, "-m", "engine", "simulate", "--game", "mobile-markets", "--players", "2", "--games", "3", "--seed", "1"],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["failures"] == 0


def hidden_ids(state: dict) -> set[str]:
    ids = set()
    for pile in state["customers"].values():
        ids |= set(pile["deck"])
    for d in state["displays"].values():
        ids |= set(d["deck"])
    ids |= set(state["events"]["deck"]) | set(state["events"]["box"]) | set(state["box"])
    if state["steve"] is not None:
        ids |= set(state["steve"]["deck"])
    return ids


@pytest.mark.parametrize("options", [{}, {"automata": ["p2"], "difficulty": "hard"}])
def test_views_never_show_deck_order_or_sealed_plans(options):
    """Hidden information: deck order (Customers, displays, Events, Steve Jr.), the box,
    the seed and the generator never appear in any view; another seat's sealed plan
    stays hidden until the reveal."""
    state = GAME.setup(["p1", "p2", "p3"], 5, dict(options))
    checked = 0
    while not GAME.is_over(state):
        if checked % 7 == 0:
            secret = hidden_ids(state)
            for viewer in (None, *state["seats"]):
                text = GAME.dump(GAME.view(state, viewer))
                leaked = [i for i in secret if f'"{i}"' in text]
                assert leaked == [], (viewer, leaked)
                assert '"rng"' not in text and '"seed"' not in text
                if state["phase"] == "planning":
                    for other in state["seats"]:
                        if other != viewer and state["players"][other]["plan"] is not None:
                            assert GAME.view(state, viewer)["players"][other]["plan"] is None
        seat = sorted(GAME.pending(state))[0]
        state = GAME.apply(state, seat, choose("mobile-markets", state, seat, "random"))
        checked += 1
    assert checked > 20


def test_prompts_carry_labels_for_the_bot():
    """Prompts say what a choice costs (after discounts), the points left, Progress
    Tokens, and a product's net profit and buyers."""
    state = GAME.setup(["p1", "p2"], 3, {})
    kinds = set()
    while not GAME.is_over(state) and len(kinds) < 4:
        for seat in GAME.pending(state):
            view = GAME.view(state, seat)
            prompt = view["prompt"]
            kinds.add(prompt["type"])
            if prompt["type"] == "technology":
                assert {"points", "progress", "budget"} <= set(prompt)
                assert all("label" in o and "cost" in o for o in prompt["offers"])
            if prompt["type"] == "marketing":
                assert "points" in prompt and "deck_names" in prompt
            if prompt["type"] == "product":
                assert {"net", "buyers", "profit"} <= set(prompt["preview"])
                assert set(prompt["slot_labels"]) == set(prompt["slots"])
                assert prompt["slot_labels"]["3"] == "Board slot 3 (+1 cost)"
                action = GAME.random_action(state, seat, __import__("engine.rng", fromlist=["Rng"]).Rng(7))
                assert "buyers" in GAME.preview(state, seat, action)
        seat = sorted(GAME.pending(state))[0]
        state = GAME.apply(state, seat, choose("mobile-markets", state, seat, "random"))
    assert {"plan", "technology", "product"} <= kinds


def test_legal_actions_are_accepted():
    state = GAME.setup(["p1", "p2", "p3"], 8, {})
    steps = 0
    while not GAME.is_over(state) and steps < 200:
        seat = sorted(GAME.pending(state))[0]
        actions = GAME.legal_actions(state, seat)
        assert actions
        for a in actions[:: max(1, len(actions) // 5)]:
            GAME.apply(state, seat, a)  # every listed action is accepted
        state = GAME.apply(state, seat, actions[-1])
        steps += 1


def test_steve_jr_fills_a_seat_in_a_bigger_game():
    """A house rule: Steve Jr. may fill an empty seat of a 3-4 company game."""
    state = GAME.setup(["p1", "p2", "p3", "sj"], 21, {"automata": ["sj"], "difficulty": "medium"})
    while not GAME.is_over(state):
        pend = GAME.pending(state)
        assert "sj" not in pend
        seat = sorted(pend)[0]
        state = GAME.apply(state, seat, choose("mobile-markets", state, seat, "random"))
        check_invariants(state, None)
    assert len(GAME.result(state)["ranking"]) == 4


def test_trace_gives_a_view_at_the_end_of_each_phase():
    state = GAME.setup(["p1"], 4, {})
    views = GAME.trace(state, "p1", {"type": "plan", "plan": PLAN_EX1})
    assert [v["phase"] for v in views][:2] == ["planning", "pricing"]
    assert all(v["you"] is None for v in views)


def test_junk_actions_only_raise_illegal_action():
    """apply validates everything: malformed actions raise IllegalAction (never another
    error) and leave the state unchanged."""
    import random

    junk = [None, 1, -1, True, "x", [], ["x"], {}, {"a": 1}, "T1", "F1", "regular", "R1", 1.5, [0], {"1": "F1"}, {"T9": "FS1"}]
    types = ["plan", "buy", "done", "customer", "place", "product", "free_card", "zzz", None, 3]
    keys = ["plan", "card", "deck", "customer", "slots", "tokens"]
    rnd = random.Random(5)
    for g in range(3):
        state = GAME.setup(["a", "b", "c"], g, {"automata": ["c"]} if g % 2 else {})
        while not GAME.is_over(state):
            seat = sorted(GAME.pending(state))[0]
            before = GAME.dump(state)
            for _ in range(6):
                action = {"type": rnd.choice(types)}
                for k in rnd.sample(keys, rnd.randint(0, 3)):
                    action[k] = rnd.choice(junk)
                if action["type"] == "plan" and rnd.random() < 0.5:
                    action["plan"] = {
                        "bottom": rnd.choice(["A", "B", None]),
                        "bottom_side": rnd.choice([0, 1, 2, True]),
                        "top_side": rnd.choice([0, 1, None]),
                        "cover": rnd.choice([[0], [3, 4], "x", [1.5], None, [True]]),
                    }
                try:
                    GAME.apply(state, rnd.choice([seat, "zz", "a"]), action)
                except IllegalAction:
                    pass
            assert GAME.dump(state) == before
            state = GAME.apply(state, seat, choose("mobile-markets", state, seat, "random"))
