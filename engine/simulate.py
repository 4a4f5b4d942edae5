"""Play many games with automated players and summarize (used by the CLI and tests)."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Iterable
from typing import Any

from engine import get_game
from engine.ai import choose
from engine.rng import Rng, seed_state
from engine.smartphone_inc.data import NEW_TECHS, TECH_ORDER, TECH_SETS
from engine.smartphone_inc.invariants import check


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


def apply_rates(
    game_name: str, seats: list[str], seeds: Iterable[int], clock: Callable[[], float] = time.perf_counter
) -> dict[str, float]:
    """``apply`` alone, timed by ``clock``, replaying the random player's games of ``seeds``
    (without the player's choosing): applies per second over them all, and in the
    slowest game (the total hides a slow one)."""
    game = get_game(game_name)
    spent = 0.0
    applies = 0
    slowest = float("inf")
    for seed in seeds:
        _, log, _ = play_game(game_name, seats, seed, {}, "random")
        state = game.setup(seats, seed, {})
        started = clock()
        for seat, action in log:
            state = game.apply(state, seat, action)
        took = clock() - started
        spent += took
        applies += len(log)
        if took > 0:
            slowest = min(slowest, len(log) / took)
    return {"apply_per_second": round(applies / spent, 1), "slowest_game_apply_per_second": round(slowest, 1)}


def module_mix(seed: int, players: int) -> tuple[int, dict[str, Any], bool]:
    """A Smartphone Inc. module combination drawn from ``seed`` (Update 1.1: Hardcore,
    Directives, New Technologies, the 2-3 player board; Steve): (seats, options, Steve)."""
    rng = Rng(seed_state(seed))
    small = rng.below(4) == 0
    n = players if players > 0 else 1 + rng.below(3 if small else 5)
    if small:
        n = min(n, 3)
    opts: dict[str, Any] = {}
    if small:
        opts["board"] = "small"
    if rng.below(2):
        opts["hardcore"] = True
    if rng.below(2):
        opts["directives"] = True
    pick = rng.below(6)
    if pick < 3:
        opts["technologies"] = sorted(TECH_SETS)[pick]
    elif pick == 3:  # a custom mix: one Technology per symbol, any side
        by_symbol = {t: [f"{t}:0", f"{t}:1"] + [k for k, v in NEW_TECHS.items() if v[0] == t] for t in TECH_ORDER}
        opts["technologies"] = [rng.choice(by_symbol[t]) for t in TECH_ORDER]
    steve = n >= 2 and rng.below(3) == 0
    return n, opts, steve


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    options: dict[str, Any] | None = None,
    kind: str = "random",
    steve: bool = False,
    mix: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games; with ``mix`` (Smartphone Inc.) each game draws its own module
    combination (``module_mix``) on top of ``options`` and every state is checked
    against ``smartphone_inc.invariants``."""
    failures: list[dict[str, Any]] = []
    vp_total = 0.0
    vp_count = 0
    actions = 0
    started = time.perf_counter()
    combos: dict[str, int] = {}
    on_state = check if mix else None
    lo, hi = getattr(get_game(game_name), "player_range", (1, 5))
    for g in range(games):
        n = players if players > 0 else lo + (g % (hi - lo + 1))
        opts = dict(options or {})
        with_steve = steve
        if mix:
            n, drawn, with_steve = module_mix(seed + g, players)
            opts.update(drawn)
            name = "+".join(sorted(k for k in drawn)) or "base"
            combos[name] = combos.get(name, 0) + 1
        seats = [f"p{i + 1}" for i in range(n)]
        if with_steve and n >= 2:
            opts["automata"] = [seats[-1]]
        try:
            state, _, count = play_game(game_name, seats, seed + g, opts, kind, on_state=on_state)
            actions += count
            for row in get_game(game_name).result(state)["scores"]:
                vp_total += row["vp"]
                vp_count += 1
        except Exception as exc:  # a failure is data for the summary
            failures.append(
                {"seed": seed + g, "players": n, "options": opts, "error": repr(exc), "trace": traceback.format_exc(limit=3)}
            )
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
        **({"combinations": dict(sorted(combos.items()))} if mix else {}),
    }
