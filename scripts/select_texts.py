"""Issue 34 §4's figure: how many of Smartphone Inc.'s select option descriptions (and
labels) are longer than Discord's 100 characters as written, so that the bot cut them,
over a seeded game played by the greedy AI (``tests/si_selects.py`` lists the options).

    PYTHONPATH=. .venv/bin/python scripts/select_texts.py [--players 3] [--seed 1] [--outcomes]

Prints per screen the descriptions and labels written and those over 100 characters, a
few examples, and one JSON line of the totals.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from tests.si_selects import LIMIT, shown_options, uncut


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--outcomes", action="store_true", help="also the lists of 'Pick from the outcomes'")
    args = ap.parse_args()
    descriptions: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    long_descriptions: Counter[str] = Counter()
    long_labels: Counter[str] = Counter()
    examples: list[str] = []
    cuts: list[tuple[str, int]] = []
    with uncut(cuts):
        for o in shown_options(args.players, args.seed, args.outcomes):
            labels[o.screen] += 1
            if len(o.label) > LIMIT:
                long_labels[o.screen] += 1
                examples.append(f"label {len(o.label)} ({o.screen}): {o.label}")
            if o.description:
                descriptions[o.screen] += 1
                if len(o.description) > LIMIT:
                    long_descriptions[o.screen] += 1
                    examples.append(f"description {len(o.description)} ({o.screen}): {o.description}")
    for screen in sorted(labels):
        print(
            f"{screen:>14}: descriptions {long_descriptions[screen]:>4} of {descriptions[screen]:>6} over {LIMIT};"
            f" labels {long_labels[screen]:>4} of {labels[screen]:>6}"
        )
    for line in examples[:8]:
        print("  " + line)
    print(json.dumps({
        "players": args.players,
        "seed": args.seed,
        "descriptions": sum(descriptions.values()),
        "descriptions_over_100": sum(long_descriptions.values()),
        "labels": sum(labels.values()),
        "labels_over_100": sum(long_labels.values()),
        "texts_clip_would_cut": len(cuts),
    }))


if __name__ == "__main__":
    main()
