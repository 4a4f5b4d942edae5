"""Play many games with automated players and summarize (used by the CLI and tests)."""

from __future__ import annotations

import time
import traceback
from typing import Any

from engine import get_game
from engine.ai import choose


def play_game(
    game_name: str,
    seats: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    kind: str = "random",
    max_actions: int = 20000,
    on_state: Any = None,
) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]], int]:
    """Play one game; return (final state, action log, actions applied)."""
    game = get_game(game_name)
    state = game.setup(seats, seed, options or {})
    log: list[tuple[str, dict[str, Any]]] = []
    while not game.is_over(state):
        pend = game.pending(state)
        if not pend:
            raise RuntimeError(f"nobody is pending but the game is not over (phase {state.get('phase')})")
        seat = sorted(pend)[0]
        action = choose(game_name, state, seat, kind)
        state = game.apply(state, seat, action)
        log.append((seat, action))
        if on_state is not None:
            on_state(state)
        if len(log) > max_actions:
            raise RuntimeError("the game does not end")
    return state, log, len(log)


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    kind: str = "random",
    steve: bool = False,
) -> dict[str, Any]:
    failures: list[dict[str, Any]] = []
    vp_total = 0.0
    vp_count = 0
    actions = 0
    started = time.perf_counter()
    most = getattr(get_game(game_name), "max_players", 5)
    for g in range(games):
        n = players if players > 0 else 1 + (g % most)
        seats = [f"p{i + 1}" for i in range(n)]
        opts = dict(options or {})
        if steve and n >= 2:
            opts["automata"] = [seats[-1]]
        try:
            state, _, count = play_game(game_name, seats, seed + g, opts, kind)
            actions += count
            for row in get_game(game_name).result(state)["scores"]:
                vp_total += row["vp"]
                vp_count += 1
        except Exception as exc:  # a failure is data for the summary
            failures.append({"seed": seed + g, "players": n, "error": repr(exc), "trace": traceback.format_exc(limit=3)})
    elapsed = time.perf_counter() - started
    return {
        "game": game_name,
        "games": games,
        "failures": len(failures),
        "failure_examples": failures[:3],
        "mean_vp": round(vp_total / vp_count, 2) if vp_count else None,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_second": round(actions / elapsed, 1) if elapsed > 0 else None,
    }
