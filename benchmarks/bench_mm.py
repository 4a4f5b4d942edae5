"""Mobile Markets engine figures: actions/s (with the random player, and apply() alone
on recorded games), and the dumped state size.

Run: .venv/bin/python benchmarks/bench_mm.py [--games N]

Times are CPU time of this process (``time.process_time``), so that other work on a
shared machine does not count. Targets (issue "Mobile Markets"): >= 5,000 actions/s,
dumped state <= 20 KiB.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import choose  # noqa: E402
from engine.mobile_markets.game import GAME  # noqa: E402
from engine.simulate import apply_rates, play_game  # noqa: E402

SEATS = ["a", "b", "c", "d"]


def with_random_player(games: int) -> dict[str, float]:
    actions = 0
    t0 = time.process_time()
    for seed in range(games):
        state = GAME.setup(SEATS, seed, {})
        while not GAME.is_over(state):
            seat = sorted(GAME.pending(state))[0]
            state = GAME.apply(state, seat, choose("mobile-markets", state, seat, "random"))
            actions += 1
    spent = time.process_time() - t0
    return {"games": games, "actions": actions, "actions_per_second_with_random_player": round(actions / spent, 1)}


def apply_alone(games: int) -> dict[str, float]:
    biggest = 0
    for seed in range(min(games, 10)):  # the largest dumped state along whole games
        for opts in ({}, {"automata": ["d"], "difficulty": "hard"}):
            seats = SEATS if not opts else ["a", "d"]

            def track(s: dict) -> None:
                nonlocal biggest
                biggest = max(biggest, len(GAME.dump(s).encode()))

            play_game("mobile-markets", seats, seed, opts, "random", on_state=track)
    return {
        **apply_rates("mobile-markets", SEATS, range(games), clock=time.process_time),
        "largest_state_bytes": biggest,
        "largest_state_kib": round(biggest / 1024, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    print(json.dumps({**with_random_player(args.games), **apply_alone(args.games)}, indent=1))


if __name__ == "__main__":
    main()
