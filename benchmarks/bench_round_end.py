"""The pictures of the last message of a round-ending action: draw + encode all 7, serial vs concurrent.

Run: ``.venv/bin/python benchmarks/bench_round_end.py [--runs N] [--json]``.

When the last company sells in a 5-company game, the bot posts the round's sales
picture and the new board in the game's channel and DMs each of the 5 companies its
private picture with its planner: 7 pictures (``bot/cogs/play.py`` ``publish`` and
``send_secret_prompts``). The views come from a seeded 5-player game played by the
random player: the board as the last Selling step left it, the board of the next
round's Planning and the 5 private views of that Planning.

Each picture is drawn and encoded as the bot does (``bot.pictures.draw_png``):

* ``serial_level6``: one after another, PNG at the former zlib level 6 (the bot before);
* ``serial``: one after another, as ``bot.pictures.png_bytes`` encodes now (level 3);
* ``threads``: ``bot.pictures.Painter(mode="thread")``, all 7 at once;
* ``processes``: ``bot.pictures.Painter(mode="process")`` (2 worker processes).

Figures are medians of ``--runs`` runs after one warm-up run per way (fonts, icons,
worker processes started). The bar is 300 ms from the interaction to the message.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render  # noqa: E402
from bot import pictures  # noqa: E402
from engine.simulate import choose  # noqa: E402
from engine.smartphone_inc.game import GAME  # noqa: E402

NAME = "smartphone-inc"
SEATS = ["a", "b", "c", "d", "e"]


def round_end_jobs(seed: int = 3) -> list[tuple[str, dict[str, Any]]]:
    """(picture name, view) of the pictures of the first round's end."""
    state = GAME.setup(SEATS, seed, {})
    while True:
        seat = sorted(GAME.pending(state))[0]
        action = choose(NAME, state, seat, "random")
        new = GAME.apply(state, seat, action)
        if new["round"] == 2:
            break
        state = new
    # as bot/cogs/play.py selling_results: the board at the start of Phase 8
    sales = [v for v in GAME.trace(state, seat, action) if v.get("phase") == "vp"][-2:]
    jobs = [("sales", v) for v in sales] + [("board", GAME.view(new, None))]
    jobs += [(f"private-{s}", GAME.view(new, s)) for s in SEATS]
    return jobs


def serial(jobs: list[tuple[str, dict[str, Any]]]) -> list[int]:
    return [len(pictures.draw_png(render.draw, (NAME, view)) or b"") for _name, view in jobs]


def serial_level6(jobs: list[tuple[str, dict[str, Any]]]) -> list[int]:
    sizes = []
    for _name, view in jobs:
        buf = io.BytesIO()
        render.draw(NAME, view).save(buf, format="PNG", optimize=False)
        sizes.append(len(buf.getvalue()))
    return sizes


async def concurrent(painter: pictures.Painter, jobs: list[tuple[str, dict[str, Any]]]) -> list[int]:
    done = await asyncio.gather(*(painter.png(render.draw, NAME, view) for _name, view in jobs))
    return [len(d or b"") for d in done]


def _ms(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def run(runs: int = 5) -> dict[str, Any]:
    jobs = round_end_jobs()
    figures: dict[str, Any] = {"pictures": len(jobs)}
    sizes = serial(jobs)  # warm-up: fonts and icons
    figures["largest_kib"] = round(max(sizes) / 1024)
    figures["total_kib"] = round(sum(sizes) / 1024)
    figures["total_kib_level6"] = round(sum(serial_level6(jobs)) / 1024)
    figures["serial_level6_ms"] = round(statistics.median(_ms(lambda: serial_level6(jobs)) for _ in range(runs)), 1)
    figures["serial_ms"] = round(statistics.median(_ms(lambda: serial(jobs)) for _ in range(runs)), 1)
    for mode in ("thread", "process"):
        painter = pictures.Painter(mode=mode)
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(concurrent(painter, jobs))  # warm-up: workers started
            times = [_ms(lambda p=painter, lp=loop: lp.run_until_complete(concurrent(p, jobs))) for _ in range(runs)]
        finally:
            painter.close()
            loop.close()
        figures[f"{mode}_pool_ms"] = round(statistics.median(times), 1)
    # what the bot does (BOARDROOM_PICTURES, default thread): the pictures of a round end
    figures["round_end_pictures_ms"] = figures[f"{pictures.Painter().mode}_pool_ms"]
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    figures = run(args.runs)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"7 pictures of a round end (5 companies), median of {args.runs} runs")
    for key, value in figures.items():
        print(f"{key:>14}: {value}")
    print(json.dumps(figures))  # the last line, for benchmarks/run_all.py


if __name__ == "__main__":
    main()
