"""Mobile Markets automated players: the greedy player beats random players, and
both only choose legal actions."""

from __future__ import annotations

from engine.ai import choose
from engine.mobile_markets.game import GAME


def test_greedy_beats_random_players():
    wins = 0
    games = 6
    for seed in range(games):
        state = GAME.setup(["g", "r1", "r2"], 100 + seed, {})
        while not GAME.is_over(state):
            seat = sorted(GAME.pending(state))[0]
            kind = "greedy" if seat == "g" else "random"
            state = GAME.apply(state, seat, choose("mobile-markets", state, seat, kind))
        wins += GAME.result(state)["winner"] == "g"
    assert wins >= games // 2 + 1


def test_greedy_plays_solo_against_steve_jr():
    state = GAME.setup(["g", "sj"], 5, {"automata": ["sj"], "difficulty": "medium"})
    while not GAME.is_over(state):
        seat = sorted(GAME.pending(state))[0]
        assert seat == "g"
        state = GAME.apply(state, seat, choose("mobile-markets", state, seat, "greedy"))
    assert GAME.result(state)["winner"] in ("g", "sj")
