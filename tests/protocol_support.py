"""Checks of the common game protocol (``engine.Game``) that every game's protocol test
makes the same way."""

from __future__ import annotations

from typing import Any

from engine import get_game
from engine.simulate import play_game


def assert_deterministic_round_trip(name: str, seats: list[str], seed: int) -> dict[str, Any]:
    """The random player's game of ``name`` played twice from ``seed`` gives the same
    bytes and the same log; its end state survives dump and load; the log replayed from
    the set-up gives the same bytes again. Returns the end state."""
    game = get_game(name)
    a, log_a, _ = play_game(name, seats, seed, {}, "random")
    b, log_b, _ = play_game(name, seats, seed, {}, "random")
    assert game.dump(a) == game.dump(b) and log_a == log_b
    assert game.load(game.dump(a)) == a
    state = game.setup(seats, seed, {})  # replay from seed + log gives the same bytes
    for seat, action in log_a:
        state = game.apply(state, seat, action)
    assert game.dump(state) == game.dump(a)
    return a
