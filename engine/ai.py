"""Automated players for any seat: ``random`` (a random legal action) and ``greedy``
(a simple heuristic). Both are deterministic functions of the game state: the
random choice is drawn from a PRNG seeded by the state's seed, version and seat,
never from process randomness, so a resumed game makes the same choices.
"""

from __future__ import annotations

import hashlib
from typing import Any

from engine import get_game
from engine.errors import IllegalAction
from engine.rng import Rng, seed_state

KINDS = ("random", "greedy")


def _rng(state: dict[str, Any], seat: str, salt: str = "") -> Rng:
    digest = hashlib.sha256(f"{state.get('seed')}|{state.get('version')}|{seat}|{salt}".encode()).digest()
    return Rng(seed_state(int.from_bytes(digest[:8], "big")))


def choose(game_name: str, state: dict[str, Any], seat: str, kind: str = "greedy") -> dict[str, Any]:
    """An action ``apply`` accepts for ``seat`` (which must be pending)."""
    game = get_game(game_name)
    if kind not in KINDS:
        raise ValueError(f"unknown AI kind {kind!r}")
    if kind == "greedy" and hasattr(game, "greedy_action"):  # a game's own rule-following bot
        return game.greedy_action(state, seat)
    rng = _rng(state, seat)
    draw = getattr(game, "random_action", None)
    if draw is not None:  # a game may draw without listing every action
        return draw(state, seat, rng)
    actions = game.legal_actions(state, seat)
    if not actions:
        raise IllegalAction(f"{seat} has nothing to decide")
    return actions[rng.below(len(actions))]
