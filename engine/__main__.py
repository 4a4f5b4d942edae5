"""``python -m engine simulate --game smartphone-inc --players N --games K --seed S``."""

from __future__ import annotations

import argparse
import json
import sys

from engine.simulate import simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play games with automated players and print a JSON summary")
    sim.add_argument("--game", default="smartphone-inc")
    sim.add_argument("--players", type=int, default=0, help="seats per game (0: cycle through the counts the game allows, 1-5 for Smartphone Inc.)")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--options", default="{}", help="engine options as JSON")
    sim.add_argument("--ai", choices=["random", "greedy"], default="random")
    sim.add_argument("--steve", action="store_true", help="the last seat is Steve (2+ seats)")
    sim.add_argument(
        "--mix",
        action="store_true",
        help="Smartphone Inc.: each game draws Update 1.1 modules (Hardcore, Directives, New Technologies, "
        "the 2-3 player board with 1-3 seats, Steve) and every state is checked against the invariants",
    )
    args = parser.parse_args(argv)
    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as exc:
        parser.error(f"--options is not JSON: {exc}")
    summary = simulate(args.game, args.players, args.games, args.seed, options, args.ai, args.steve, args.mix)
    print(json.dumps(summary))
    return 1 if summary["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
