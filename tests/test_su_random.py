"""Random games over the Update 1.1 module combinations (Hardcore, Directives, New
Technologies, the 2-3 player board with 1-3 seats, Steve), every state checked against
the invariants. A few games here (CI time); the report runs 1,000 with
``python -m engine simulate --games 1000 --mix``."""

from __future__ import annotations

import pytest

from engine.simulate import module_mix, play_game, simulate
from engine.smartphone_inc import invariants
from engine.smartphone_inc.game import GAME


@pytest.mark.parametrize("seed", range(6))
def test_random_module_games_keep_the_invariants(seed):
    n, options, steve = module_mix(500 + seed, 0)
    seats = [f"p{i + 1}" for i in range(n)]
    if steve:
        options["automata"] = [seats[-1]]
    final, log, _ = play_game("smartphone-inc", seats, 500 + seed, options, "random", on_state=invariants.check)
    res = GAME.result(final)
    assert sorted(r["seat"] for r in res["scores"]) == sorted(seats)
    for r in res["scores"]:
        extra = r["patent_vp"] + r["retailer_vp"] + r.get("directive_vp", 0)
        assert r["vp"] == final["players"][r["seat"]]["vp"] + extra
    # same seed, same actions: the same bytes
    again = GAME.setup(seats, 500 + seed, options)
    for seat, action in log:
        again = GAME.apply(again, seat, action)
    assert GAME.dump(again) == GAME.dump(final)


def test_the_mix_covers_every_module_and_the_small_board_sizes():
    drawn = [module_mix(s, 0) for s in range(200)]
    keys = {k for _, o, _ in drawn for k in o}
    assert keys == {"board", "hardcore", "directives", "technologies"}
    assert {n for n, o, _ in drawn if o.get("board") == "small"} == {1, 2, 3}
    assert {n for n, o, _ in drawn if "board" not in o} == {1, 2, 3, 4, 5}
    assert any(steve for _, o, steve in drawn if o.get("board") == "small")
    assert any(isinstance(o.get("technologies"), list) for _, o, _ in drawn)


def test_simulate_mix_summary():
    summary = simulate("smartphone-inc", 0, 4, 77, mix=True)
    assert summary["failures"] == 0 and sum(summary["combinations"].values()) == 4


def test_the_invariants_catch_a_broken_state():
    state = GAME.setup(["a", "b"], 1, {"directives": True})
    invariants.check(state)
    state["players"]["a"]["goods"] += 1  # a Goods marker from nowhere
    with pytest.raises(invariants.Broken):
        invariants.check(state)


JUNK = [None, 0, -1, 7, 99, True, "x", "north-africa", "africa", [], {}, ["north-africa", 0], ["africa", 9], {"a": 1}, "M1", "R4"]
KEYS = ("take", "id", "region", "retailer", "side", "research", "logistics", "sell", "regions", "colour", "ceo", "token", "place")
TYPES = ("directive", "mini_upgrade", "place_retailer", "blitz", "ceo_sell", "second_sell", "company", "start_region",
         "start_retailer", "logistics", "research", "sell")


@pytest.mark.parametrize("options", [
    {"board": "small", "directives": True, "technologies": "overproduction"},
    {"directives": True, "hardcore": True, "technologies": "first-add-on-game"},
    {"technologies": "i-want-some-space"},
])
def test_junk_payloads_of_the_new_decisions_never_crash(options):
    """Any payload for the module decisions is either legal or refused with
    IllegalAction, and a refused one leaves the state unchanged."""
    from engine import IllegalAction
    from engine.rng import Rng

    rng = Rng(12345)
    states = []

    def keep(state):
        prompts = GAME.pending(state).values()
        if any(p["type"] in TYPES[:9] or "ceo" in p or "token" in p for p in prompts) and len(states) < 30:
            states.append(state)

    for seed in range(9, 15):
        play_game("smartphone-inc", ["p1", "p2", "p3"], seed, options, "random", on_state=keep)
    assert states
    for state in states:
        for seat, prompt in GAME.pending(state).items():
            before = GAME.dump(state)
            for _ in range(40):
                kind = prompt["type"] if rng.below(2) else TYPES[rng.below(len(TYPES))]
                action = {"type": kind}
                for key in KEYS:
                    if rng.below(3) == 0:
                        action[key] = JUNK[rng.below(len(JUNK))]
                try:
                    GAME.apply(state, seat, action)
                except IllegalAction:
                    pass
                assert GAME.dump(state) == before
