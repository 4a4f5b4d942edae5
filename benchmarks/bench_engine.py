"""Engine figures: actions/s of random 4-player games, plan enumeration time, state size,
and the cost of one call of the read functions the bot calls after every action
(``view``, ``pending``, ``legal_actions``) and of ``apply``, over every state of
seeded games of every module combination.

Run: .venv/bin/python benchmarks/bench_engine.py [--games N] [--read-games N] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from engine.simulate import apply_rates, module_mix, play_game, simulate
from engine.smartphone_inc import decisions
from engine.smartphone_inc.data import DECK, STARTING
from engine.smartphone_inc.game import GAME


def actions_per_second(games: int) -> dict[str, float]:
    summary = simulate("smartphone-inc", 4, games, 1, {}, "random")
    return {
        "games": games,
        "failures": summary["failures"],
        "actions_per_second_with_random_player": summary["actions_per_second"],
        # apply() alone, on recorded games (without the random player's choosing)
        **apply_rates("smartphone-inc", ["a", "b", "c", "d"], range(min(games, 20))),
    }


LOOK = 25  # outcomes read per call: one page of a list (as benchmarks/bench_plans.py)


def plan_enumeration(runs: int = 7) -> dict[str, float]:
    """Milliseconds of ``distinct_outcomes`` with 0, 3 and 6 Improvements, without and
    with 4G (the goal's case: 6 Improvements and 4G ≤ 50 ms). ``distinct_outcomes``
    builds each outcome and its plan when it is read (issue 9: "build plan dicts only
    for what a player looks at"), so ``..._ms`` times the call *and* reading the first
    page (``LOOK`` outcomes, each with its plan): the work a player's look costs;
    ``..._all_plans_ms`` the call and every outcome read with its plan (no one reads
    them all: the planner shows ``distinct_effects``), ``..._call_ms`` the call alone,
    ``..._refs_ms`` every outcome read without plans, ``distinct_effects_...`` one
    outcome per distinct effect (what the planner and the greedy player call)."""
    out = {}

    def timed(fn: Any) -> float:
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return round(statistics.median(times) * 1000, 2)

    for n in (0, 3, 6):
        owned = [STARTING["green"], *DECK[:n]][:n] if n else []
        for g4 in (False, True):
            tag = f"{n}_improvements" + ("_4g" if g4 else "")
            outcomes = decisions.distinct_outcomes(owned, g4)
            out[f"distinct_outcomes_{tag}_count"] = len(outcomes)
            out[f"distinct_outcomes_{tag}_ms"] = timed(
                lambda o=owned, g=g4: [x["plan"] for x in decisions.distinct_outcomes(o, g)[:LOOK]]
            )
            out[f"distinct_outcomes_{tag}_all_plans_ms"] = timed(
                lambda o=owned, g=g4: [x["plan"] for x in decisions.distinct_outcomes(o, g)]
            )
            out[f"distinct_outcomes_{tag}_call_ms"] = timed(lambda o=owned, g=g4: decisions.distinct_outcomes(o, g))
            out[f"distinct_outcomes_{tag}_refs_ms"] = timed(
                lambda o=owned, g=g4: list(decisions.distinct_outcomes(o, g, with_plans=False))
            )
            out[f"distinct_effects_{tag}_ms"] = timed(lambda o=owned, g=g4: decisions.distinct_effects(o, g))
    return out


def read_calls(games: int, runs: int) -> dict[str, float]:
    """Milliseconds per call of view (every seat and the public view), pending,
    legal_actions (pending seats) and apply, over the states of ``games`` seeded random
    games (``module_mix``: every module combination); the median of ``runs`` runs."""
    recorded: list[tuple[list[str], list[dict], list[tuple[str, dict]]]] = []
    for seed in range(games):
        n, options, steve = module_mix(seed, 0)
        seats = [f"p{i + 1}" for i in range(n)]
        if steve:
            options["automata"] = [seats[-1]]
        states = [GAME.setup(seats, seed, options)]
        _, log, _ = play_game("smartphone-inc", seats, seed, options, "random", on_state=states.append)
        recorded.append((seats, states, log))
    times: dict[str, list[float]] = {"view": [], "pending": [], "legal_actions": [], "apply": []}
    for _ in range(runs):
        calls = dict.fromkeys(times, 0)
        spent = dict.fromkeys(times, 0.0)
        for seats, states, log in recorded:
            t0 = time.perf_counter()
            for state in states:
                for seat in (None, *seats):
                    GAME.view(state, seat)
            spent["view"] += time.perf_counter() - t0
            calls["view"] += len(states) * (len(seats) + 1)
            t0 = time.perf_counter()
            pends = [GAME.pending(state) for state in states]
            spent["pending"] += time.perf_counter() - t0
            calls["pending"] += len(states)
            t0 = time.perf_counter()
            for state, pend in zip(states, pends, strict=True):
                for seat in pend:
                    GAME.legal_actions(state, seat)
                    calls["legal_actions"] += 1
            spent["legal_actions"] += time.perf_counter() - t0
            t0 = time.perf_counter()
            for state, (seat, action) in zip(states, log, strict=False):
                GAME.apply(state, seat, action)
            spent["apply"] += time.perf_counter() - t0
            calls["apply"] += len(log)
        for k in times:
            times[k].append(spent[k] / max(1, calls[k]))
    out: dict[str, float] = {"read_games": games, "read_states": sum(len(s) for _, s, _ in recorded)}
    for k, v in times.items():
        out[f"{k}_ms"] = round(statistics.median(v) * 1000, 4)
    return out


def state_size() -> dict[str, int]:
    biggest = 0

    def track(state):
        nonlocal biggest
        biggest = max(biggest, len(GAME.dump(state).encode()))

    final, _, _ = play_game("smartphone-inc", ["a", "b", "c", "d", "e"], 2, {}, "random", on_state=track)
    return {"largest_state_bytes_5_players": biggest, "final_state_bytes": len(GAME.dump(final).encode())}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--read-games", type=int, default=None, help="games for the read figures (default: min(games, 10))")
    parser.add_argument("--runs", type=int, default=3, help="runs of the read figures (their median)")
    parser.add_argument("--plan-runs", type=int, default=7, help="runs of each plan enumeration figure (their median)")
    args = parser.parse_args()
    read_games = args.read_games if args.read_games is not None else min(args.games, 10)
    figures = {
        **actions_per_second(args.games),
        **plan_enumeration(args.plan_runs),
        **state_size(),
        **read_calls(read_games, args.runs),
    }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
