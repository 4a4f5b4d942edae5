"""Engine figures: actions/s of random 4-player games, plan enumeration time, state size.

Run: .venv/bin/python benchmarks/bench_engine.py [--games N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from engine.simulate import play_game, simulate
from engine.smartphone_inc import decisions
from engine.smartphone_inc.data import DECK, STARTING
from engine.smartphone_inc.game import GAME


def actions_per_second(games: int) -> dict[str, float]:
    apply_time = 0.0
    applies = 0
    summary = simulate("smartphone-inc", 4, games, 1, {}, "random")
    # apply() alone, on recorded games (without the random player's choosing)
    for seed in range(min(games, 20)):
        _, log, _ = play_game("smartphone-inc", ["a", "b", "c", "d"], seed, {}, "random")
        state = GAME.setup(["a", "b", "c", "d"], seed, {})
        t0 = time.perf_counter()
        for seat, action in log:
            state = GAME.apply(state, seat, action)
        apply_time += time.perf_counter() - t0
        applies += len(log)
    return {
        "games": games,
        "failures": summary["failures"],
        "actions_per_second_with_random_player": summary["actions_per_second"],
        "apply_per_second": round(applies / apply_time, 1),
    }


def plan_enumeration() -> dict[str, float]:
    out = {}
    for n in (0, 3, 6):
        owned = [STARTING["green"], *DECK[:n]][:n] if n else []
        times = []
        for _ in range(7):
            t0 = time.perf_counter()
            outcomes = decisions.distinct_outcomes(owned, False)
            times.append(time.perf_counter() - t0)
        out[f"distinct_outcomes_{n}_improvements_ms"] = round(statistics.median(times) * 1000, 2)
        out[f"distinct_outcomes_{n}_improvements_count"] = len(outcomes)
        refs = []
        for _ in range(7):  # as the planner and the greedy player call it: plans built on demand
            t0 = time.perf_counter()
            decisions.distinct_outcomes(owned, False, with_plans=False)
            refs.append(time.perf_counter() - t0)
        out[f"distinct_outcomes_{n}_improvements_refs_ms"] = round(statistics.median(refs) * 1000, 2)
        effects = []
        for _ in range(7):  # one outcome per distinct effect: what the planner and the greedy player read
            t0 = time.perf_counter()
            decisions.distinct_effects(owned, False)
            effects.append(time.perf_counter() - t0)
        out[f"distinct_effects_{n}_improvements_ms"] = round(statistics.median(effects) * 1000, 2)
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
    args = parser.parse_args()
    figures = {**actions_per_second(args.games), **plan_enumeration(), **state_size()}
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
