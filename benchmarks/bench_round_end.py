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
worker processes started).

``round_end_pictures_ms``, the figure of issue 9 (goal ≤ 300 ms), is measured on the
real delivery path instead: 5 players play Smartphone Inc. through the bot and the fake
Discord (``tests/fake_discord.py``, the real renderer); the actions are the random
player's, applied as the Play cog applies a player's (``App.act``, then
``Play.publish``: outbox rows, the deliverer, ``bot.posting``, the pictures). For the
last action of each of ``--runs`` rounds the figure is the time from ``App.act`` to
the last request of its messages reaching the fake Discord (``BENCH_TRACE=1``: each
request's time on stderr, when ``App.act`` returned and the CPU time this process spent
(worker processes not counted); ``BENCH_PROFILE=path``: cProfile stats of each, event loop only): the round's post with its
pictures, the status edit and 5 planner DMs each with its picture (drawn with the
planner's first screen). Before each measured action the deliverer is idle and the
channels' pace windows (5 writes per 5 s) are empty, as when players take their time;
the median, p99 and max. Then as many round ends that land while the posts of the
moves before them are still pacing out (``round_end_while_pacing_*``: the players move
as fast as the bot answers, nothing waits). Each game's end counts as a round end;
more games are played as needed. ``--pictures-only`` skips it; ``--e2e-only`` skips the pictures-alone figures.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:  # the event loop ``boardroom run`` runs on (bot/runtime.py: uvloop's where installed)
    from bot.runtime import event_loop as bot_loop
except ImportError:  # an older bot (a before-and-after run): asyncio's, as it ran
    from contextlib import nullcontext as bot_loop

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
    # the pictures alone, drawn as the bot's painter draws them (BOARDROOM_PICTURES);
    # main() names it pictures_alone_ms: round_end_pictures_ms is the delivery path's
    figures["round_end_pictures_ms"] = figures[f"{pictures.Painter().mode}_pool_ms"]
    return figures


async def round_end_e2e(runs: int, per: float | None = None) -> dict[str, Any]:
    """(see the module docstring) the time from the round-ending ``App.act`` to its last
    message: ``runs`` round ends after a pause (the pace windows empty), then ``runs``
    that land while the posts of the moves before are still pacing out (the players
    move as fast as the bot answers). A game has 4 round ends and its end (counted
    too); more games are played as needed. ``per``: the pace window in seconds (the
    bot's 5 s unless given: the suite's smoke run gives the tests' short one)."""
    import tempfile

    from engine.ai import choose as ai_choose
    from tests.discord_support import PACED, running
    from tests.fake_discord import FakeDiscord

    series: dict[str, list[float]] = {"calm": [], "busy": []}
    counts: list[int] = []
    async with FakeDiscord() as fake:
        users = {name: fake.add_member(name) for name in SEATS}
        with tempfile.TemporaryDirectory() as tmp:
            async with running(fake, str(Path(tmp) / "round-end.db"), delivery={**PACED, **({"per": per} if per else {})}) as bot:
                app, play = bot.app, bot.get_cog("Play")

                async def new_game() -> int:
                    before = len(await app.games_with_status("active", "finished"))
                    ix = await fake.slash(users["a"], "game new", {"game": NAME})
                    for name in SEATS[1:]:
                        await fake.click(users[name], ix.original, "Join")
                    await fake.click(users["a"], ix.original, "Start")
                    await fake.wait_for(
                        lambda: all(fake.dm_messages(u) for u in users.values()), 30, what="planners"
                    )
                    games = await app.games_with_status("active")
                    assert len(games) == 1 and before + 1 == len(await app.games_with_status("active", "finished"))
                    await bot.delivery.idle()
                    return games[0].id

                gid = await new_game()
                for kind in ("calm", "busy"):
                    times = series[kind]
                    while len(times) < runs:
                        state = await app.state(gid)
                        pending = GAME.pending(state)
                        if not pending:  # the game ended: the next one
                            gid = await new_game()
                            continue
                        seat = sorted(pending)[0]
                        action = ai_choose(NAME, state, seat, "random")
                        after = GAME.apply(state, seat, action)
                        ending = after["round"] != state["round"] or GAME.is_over(after)
                        if ending:
                            if kind == "calm":  # as after a pause: nothing in flight, the pace windows empty
                                await bot.delivery.idle()
                                await asyncio.sleep(bot.delivery.per + 0.2)
                            first = len(fake.requests)
                            prof = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
                            if prof is not None:
                                prof.enable()
                            start = time.monotonic()
                            cpu0 = time.process_time()
                        info = await app.info(gid)
                        out = await app.act(gid, int(users[seat]["id"]), seat, action, info.version)
                        acted = time.monotonic()
                        await play.publish(out)
                        if ending:
                            while any(not t.done() for t in bot.delivery._tasks.values()):
                                await asyncio.sleep(0.002)
                            if prof is not None:
                                prof.disable()
                                prof.dump_stats(f"{os.environ['BENCH_PROFILE']}.{kind}.{len(times)}")
                            sent = [r for r in fake.requests[first:]
                                    if r.method in ("POST", "PATCH") and "/messages" in r.path]
                            times.append((max(r.at for r in sent) - start) * 1000)
                            if os.environ.get("BENCH_TRACE"):
                                print(f"{kind}: {(acted - start) * 1000:8.1f} App.act returned", file=sys.stderr)
                                print(f"{(time.process_time() - cpu0) * 1000:8.1f} ms CPU in this process",
                                      file=sys.stderr)
                                for r in fake.requests[first:]:
                                    print(f"{(r.at - start) * 1000:8.1f} {r.method} {r.path}", file=sys.stderr)
                            if kind == "calm":
                                counts.append(len(sent))
                        elif kind == "calm":
                            await bot.delivery.idle()
    calm, busy = series["calm"], series["busy"]
    return {
        "round_end_pictures_ms": round(statistics.median(calm), 1),
        "round_end_p99_ms": round(pct(calm, 99), 1),
        "round_end_max_ms": round(max(calm), 1),
        "round_end_ms_each": [round(t, 1) for t in calm],
        "round_end_while_pacing_ms": round(statistics.median(busy), 1),
        "round_end_while_pacing_p99_ms": round(pct(busy, 99), 1),
        "round_end_while_pacing_max_ms": round(max(busy), 1),
        "round_end_while_pacing_ms_each": [round(t, 1) for t in busy],
        "round_end_messages": max(counts),
    }


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--pictures-only", action="store_true", help="only the pictures drawn alone")
    ap.add_argument("--e2e-only", action="store_true", help="only the round end through the fake Discord")
    ap.add_argument("--pace", type=float, default=None, help="seconds per 5 channel writes (default: the bot's 5)")
    args = ap.parse_args()
    figures: dict[str, Any] = {}
    if not args.e2e_only:
        figures = run(args.runs)
        figures["pictures_alone_ms"] = figures.pop("round_end_pictures_ms")
    if not args.pictures_only:
        with bot_loop():
            figures.update(asyncio.run(round_end_e2e(args.runs, args.pace)))
    if args.json:
        print(json.dumps(figures))
        return
    print(f"a round end (5 companies), median of {args.runs} runs")
    for key, value in figures.items():
        print(f"{key:>14}: {value}")
    print(json.dumps(figures))  # the last line, for benchmarks/run_all.py


if __name__ == "__main__":
    main()
