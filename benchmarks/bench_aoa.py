"""Age of Automaton figures: actions/s of random games, apply() alone, the largest dumped
state, the rule-following bot against random players, and the pictures (draw + encode).

Run: .venv/bin/python benchmarks/bench_aoa.py [--games N] [--bot-games M] [--picture-runs R] [--quick]
"""

from __future__ import annotations

import argparse
import json
import time

from engine.age_of_automaton.game import GAME
from engine.ai import choose
from engine.simulate import play_game, simulate

NAME = "age-of-automaton"


def actions_per_second(games: int) -> dict[str, float]:
    summary = simulate(NAME, 4, games, 1, {}, "random")
    apply_time = 0.0
    apply_cpu = 0.0
    applies = 0
    slowest = float("inf")
    biggest = 0
    for seed in range(min(games, 20)):
        seats = ["a", "b", "c", "d"][: 2 + seed % 3]
        _, log, _ = play_game(NAME, seats, seed, {}, "random")
        state = GAME.setup(seats, seed, {})
        t0, c0 = time.perf_counter(), time.process_time()
        for seat, action in log:
            state = GAME.apply(state, seat, action)
        took = time.perf_counter() - t0
        apply_time += took
        apply_cpu += time.process_time() - c0
        applies += len(log)
        slowest = min(slowest, len(log) / took) if took > 0 else slowest
        biggest = max(biggest, len(GAME.dump(state).encode()))
    return {
        "games": games,
        "failures": summary["failures"],
        "actions_per_second_with_random_player": summary["actions_per_second"],
        "apply_per_second": round(applies / apply_time, 1),
        "slowest_game_apply_per_second": round(slowest, 1),  # the total hides a slow game
        # per second of this process's CPU time: the figure on a machine shared with other jobs
        "apply_per_cpu_second": round(applies / apply_cpu, 1) if apply_cpu > 0 else None,
        "largest_final_state_bytes": biggest,
    }


def largest_state() -> dict[str, int]:
    biggest = 0

    def track(state):
        nonlocal biggest
        biggest = max(biggest, len(GAME.dump(state).encode()))

    play_game(NAME, ["a", "b", "c", "d"], 2, {"limited_common_specialists": True}, "random", on_state=track)
    return {"largest_state_bytes_4_players": biggest}


def bot_against_random(games: int) -> dict[str, float]:
    """One bot seat (rotating) against random seats, 2-4 players."""
    bot_vp = random_vp = 0.0
    wins = 0
    for g in range(games):
        n = 2 + g % 3
        seats = [f"p{i + 1}" for i in range(n)]
        bot = seats[g % n]
        state = GAME.setup(seats, 10_000 + g, {})
        while not GAME.is_over(state):
            seat = sorted(GAME.pending(state))[0]
            state = GAME.apply(state, seat, choose(NAME, state, seat, "greedy" if seat == bot else "random"))
        result = GAME.result(state)
        vp = {r["seat"]: r["vp"] for r in result["scores"]}
        bot_vp += vp[bot]
        random_vp += sum(v for s, v in vp.items() if s != bot) / (n - 1)
        wins += bot in result["winners"]
    return {
        "bot_games": games,
        "bot_mean_vp": round(bot_vp / games, 1) if games else 0,
        "random_mean_vp": round(random_vp / games, 1) if games else 0,
        "bot_win_rate": round(wins / games, 3) if games else 0,
    }


def pictures(runs: int) -> dict[str, float]:
    """Draw + PNG encode (as the bot does) of the stored reference views (public board,
    private draft, private dice): the worst median over the views, and the largest PNG."""
    import statistics
    from pathlib import Path

    import render

    ref = Path(__file__).resolve().parent.parent / "tests" / "reference"
    worst, largest = 0.0, 0
    for name in ("aoa-board-r3", "aoa-private-draft", "aoa-private-dice"):
        view = json.loads((ref / f"{name}.json").read_text("utf-8"))
        render.draw(NAME, view)  # warm: fonts and the printed board parts
        times = []
        for _ in range(max(1, runs)):
            t0 = time.perf_counter()
            data = render.png_bytes(render.draw(NAME, view))  # encoded as the bot does (zlib level 3)
            times.append((time.perf_counter() - t0) * 1000)
            largest = max(largest, len(data or b""))
        worst = max(worst, statistics.median(times))
    return {"aoa_render_worst_ms": round(worst, 1), "aoa_render_largest_png_kib": round(largest / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot-games", type=int, default=200)
    parser.add_argument("--picture-runs", type=int, default=9)
    parser.add_argument("--quick", action="store_true", help="small sizes (make bench's default run)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.bot_games, args.picture_runs = 10, 10, 3
    figures = {
        **actions_per_second(args.games),
        **largest_state(),
        **bot_against_random(args.bot_games),
        **pictures(args.picture_runs),
    }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
