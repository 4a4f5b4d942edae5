"""Prompts and buttons of whole games through the fake Discord (issues 20 part 2, 21).

Run: ``.venv/bin/python benchmarks/bench_prompts.py [--games smartphone-inc,...] [--seed N]``
(``--quick``: Mobile Markets only, the quickest whole game; all three take ~10 minutes).

Each game (Smartphone Inc., Mobile Markets with Steve Jr., Age of Automaton; two
players) is played to its end by :class:`tests.prompt_driver.Driver`, which answers every
decision from the newest live prompt (or "Open my turn"), presses every "↩ Undo" it is
offered (not the redo right after an undo), takes one sealed plan back per player, and
clicks every Confirm twice (the second time on the message as it was). Printed, one
JSON object per game:

- ``dm_posts_per_player_per_round`` (and the most in one player's round): messages the
  bot posted in a player's DM channel; ``dm_messages_*``: new messages there, the
  replies to the player's clicks in the DM included;
- ``live_prompts_max_per_seat``: the most messages with a live control of a decision
  one seat had at once, after any step; ``seat_steps_with_more_than_one_live_prompt``;
- ``undo_offered`` / ``undo_pressed`` / ``undo_accepted``;
- ``repeated_confirms`` / ``repeated_confirms_applied``: second clicks that applied a move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_discord import FakeDiscord  # noqa: E402
from tests.prompt_driver import GAMES, play_whole_game  # noqa: E402


async def one(game: str, seed: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            t0 = time.perf_counter()
            stats = await play_whole_game(fake, str(Path(tmp) / "bench.db"), game, seed)
            out = stats.figures()
            out["seconds"] = round(time.perf_counter() - t0, 1)
            out["examples_of_two_live_prompts"] = stats.examples[:3]
            out["undo_refusals"] = stats.undo_refusals[:3]
            out["repeats_applied_what"] = stats.repeat_applied_what[:5]
            out["trouble"] = stats.trouble[:3]
            return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="one game (Mobile Markets)")
    args = ap.parse_args()
    for game in (["mobile-markets"] if args.quick else args.games.split(",")):
        print(json.dumps(asyncio.run(one(game, args.seed))), flush=True)


if __name__ == "__main__":
    main()
