"""A load of many concurrent games on one bot process: throughput, App.act latency, loop stalls.

    .venv/bin/python benchmarks/bench_load.py [--games 200] [--seconds 30] [--rate 43] [--quick]

``--games`` Smartphone Inc. games (3 human seats each) are set up, then played in two
ways, each for ``--seconds``. The players' moves are the random player's
(``engine.ai``), worked out for the whole game during the set-up (:func:`play_out`):
the players think on their own machines, so their thinking is neither on the bot's
event loop nor in its CPU time. The bot still checks every move.

* **saturated**: every game has a player who moves again as soon as the last move
  returned (all games at once; the players make their first moves within the first
  ``START_SPREAD_S``, not in one instant). As in the bot, nobody waits for a picture: the
  deliverer sends the rows and draws each post's pictures (``NullSender`` with the
  painter, as ``bot.posting.DiscordSender`` draws them). Under this load it falls
  behind; when the players stop it is let finish (``saturated_drain_s``), and
  ``cpu_ms_per_action`` is the CPU time of this process over the run *and* the drain
  (every row of those actions delivered) per action. Beside it:
  ``saturated_actions_per_second`` (moves taken while the players played), the CPU of
  the picture workers per action (``picture_workers_cpu_per_action_ms``: on 2 cores
  they are what a sustained load runs out of first), pictures and rows per action,
  the rows sent per second while the players played, latency p50/p99, the longest
  event-loop stall over the run and the drain, and ``saturated_full_gc_ms``: a full
  pass of the garbage collector timed once the players stop, with the load's heap (the
  bot's collector makes one every 10 minutes, or when its heap has doubled past a
  floor: ``bot.runtime.Collector``), not counted as a stall of the run;
* **offered**: moves arrive at ``--rate`` per second (a Poisson process) in games
  picked at random among those not moving already: ``offered_act_p50_ms`` /
  ``offered_act_p99_ms`` (``App.act``), ``offered_act_picture_p99_ms`` (``App.act`` and
  then its board picture, drawn and encoded by ``bot.pictures.PAINTER`` as the bot
  draws it) and the longest loop stall.

As in the bot: the database is opened with its background checkpoints, every move
goes through ``App.act`` (engine, one transaction with its outbox rows) and then the
deliverer (``bot.delivery.Deliverer``, paced 5 writes per 5 s per channel) takes the
rows to a Discord that takes every post at once; pictures are drawn by the painter
(worker processes on 2 cores, at a low priority: ``bot.pictures.WORKER_NICE``). The longest stall is the
longest time a 5 ms sleep of a watcher task overslept (``loop_stall_max_ms``; on a
machine shared with other work this includes the time the process was not scheduled:
``load_avg_1min`` says how busy it was), ``..._gc_pause_max_ms`` the longest garbage
collection. The garbage collector is set as ``boardroom run`` sets it
(``bot.runtime.tune_gc`` and ``bot.runtime.Collector``), and the run is on its event
loop (``bot.runtime.event_loop``: uvloop's where installed; ``event_loop`` says which).

Prints one JSON line. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

try:  # the event loop ``boardroom run`` runs on (bot/runtime.py: uvloop's where installed)
    from bot.runtime import event_loop as bot_loop
except ImportError:  # an older bot (a before-and-after run): asyncio's, as it ran
    from contextlib import nullcontext as bot_loop

GAME = "smartphone-inc"
TICK = 0.005  # the stall watcher's sleep
DRAIN_LIMIT_S = 300.0  # the deliverer must have sent the saturated run's rows by then
START_SPREAD_S = 0.5  # the saturated run's players make their first move within this

try:  # the moves are decoded as fast as the bot decodes what it reads (bot.jsontext)
    from orjson import loads as _loads
except ImportError:
    _loads = json.loads


def play_out(game: Any, state: dict[str, Any], seats: set[str]) -> list[str]:
    """The moves of a whole game from ``state`` on (JSON text ``[seat, action]``), each the
    random player's (``engine.ai``) for the first human seat pending: worked out before
    the clock starts, since the
    players' thinking is not the bot's work (it is neither on its event loop nor in its
    CPU time). The engine is deterministic, so the bot's game takes the same course."""
    from engine.ai import choose

    moves: list[str] = []
    while not game.is_over(state):
        humans = sorted(s for s in game.pending(state) if s in seats)
        if not humans:
            break
        seat = humans[0]
        action = choose(GAME, state, seat, "random")
        moves.append(json.dumps([seat, action]))
        state = game.apply(state, seat, action)
    return moves


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))]


class NullSender:
    """A Discord that takes every post at once (message ids 1, 2, ...). With a
    ``painter``, a post's pictures are drawn first, as ``bot.posting.DiscordSender``
    draws them (each picture spec of the post and of the posts merged into it). With an
    ``app``, a post that asks to be remembered (the game's status message) is, as
    ``DiscordSender`` remembers it (the app then edits it instead of looking for its
    post among the pending rows)."""

    def __init__(self, painter: Any = None, app: Any = None) -> None:
        self.sent = 0
        self.painter = painter
        self.app = app
        self.pictures = 0

    async def channel_key(self, row: Any) -> str | None:
        return None if row.kind == "dm" else f"c{row.game_id}"

    async def deliver(self, row: Any, merged: list[Any]) -> int | None:
        if self.painter is not None and row.kind == "post":
            import render

            try:
                from bot.delivery import picture_calls
                from bot.pictures import call_json
            except ImportError:  # an older bot (a before-and-after run): specs stored as dicts
                calls = [self.painter.png(getattr(render, p.get("fn") or "draw", render.draw), *p.get("args") or [])
                         for r in [row, *merged] for p in r.payload.get("pictures") or []]
            else:  # as bot.posting.DiscordSender.pictures
                calls = [self.painter.png(call_json, getattr(render, fn, render.draw), args)
                         for r in [row, *merged] for _, fn, args in picture_calls(r.payload)]
            self.pictures += len(calls)
            await asyncio.gather(*calls)
        self.sent += 1
        if self.app is not None and row.kind == "post" and row.payload.get("remember"):
            await self.app.remember_message(row.game_id, row.payload["remember"], row.game_id, self.sent)
        return self.sent

    async def tell_blocked(self, game_id: int, code: int) -> None:
        return None


class GcPauses:
    """The longest garbage-collector pause (a full collection of a big heap stalls the loop)."""

    def __init__(self) -> None:
        import gc

        self.worst = 0.0
        self._t = 0.0
        gc.callbacks.append(self._cb)

    def _cb(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t = time.perf_counter()
        else:
            self.worst = max(self.worst, time.perf_counter() - self._t)


class Stalls:
    """The longest oversleep of a ``TICK`` sleep on the event loop, since :meth:`reset`."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    def reset(self) -> None:
        self.worst = 0.0

    async def _watch(self) -> None:
        # (the clock, not the loop's time: uvloop's is in whole milliseconds, read once per
        # pass of the loop)
        while True:
            t = time.perf_counter()
            await asyncio.sleep(TICK)
            self.worst = max(self.worst, time.perf_counter() - t - TICK)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


def worker_cpu_s(painter: Any) -> float:
    """CPU seconds (user + system) the painter's worker processes have used so far."""
    pool = getattr(painter, "_processes", None)
    if hasattr(pool, "pids"):
        procs: Any = pool.pids()
    else:  # an older bot (a before-and-after run): a ProcessPoolExecutor
        procs = getattr(pool, "_processes", None) or {}
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in list(procs):
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            continue
    return total


class Table:
    """One game and the player who moves in it."""

    def __init__(self, gid: int, users: dict[str, int]) -> None:
        self.gid, self.users = gid, users
        self.busy = False
        self.over = False
        # the player's moves in order, each as JSON text [seat, action]: as objects, a
        # whole game's moves for every game were more objects for the bot's garbage
        # collector to walk than the bot's own (the players' memory is not the bot's)
        self.script: list[str] = []
        self.next = 0


class Load:
    def __init__(self, app: Any, deliverer: Any, painter: Any, seed: int) -> None:
        self.app, self.deliverer, self.painter = app, deliverer, painter
        self.rng = random.Random(seed)
        self.tables: list[Table] = []
        self.act: list[float] = []
        self.act_picture: list[float] = []
        self.errors = 0
        # offered run: the board picture is drawn right after the act (act + picture
        # latency); saturated run: the deliverer draws the posts' pictures, as the bot does
        self.draw_in_move = True

    async def setup(self, games: int) -> None:
        app = self.app
        for g in range(games):
            info = await app.create_game(GAME, channel_id=5000 + g, host_id=1 + 10 * g, host_name="p1")
            await app.join(info.id, 2 + 10 * g, "p2")
            await app.join(info.id, 3 + 10 * g, "p3")
            await app.start(info.id, 1 + 10 * g, seed=g)
            users = {s.seat: s.user_id for s in (await app.info(info.id)).seats}
            table = Table(info.id, users)
            table.script = play_out(app.engine(GAME), await app.state(info.id), set(users))
            self.tables.append(table)
        for t in self.tables:
            self.deliverer.kick(t.gid)
        await self.deliverer.idle()

    async def move(self, t: Table) -> None:
        """The next move of table ``t``'s script: App.act, the deliverer kicked, the board
        drawn on a phase change (``draw_in_move``)."""
        import render
        from bot.records import AppError

        app = self.app
        t.busy = True
        try:
            if t.next >= len(t.script):
                t.over = True
                return
            seat, action = _loads(t.script[t.next])  # (the player's move, read: not the bot's work)
            state = await app.state(t.gid)  # what the player looks at (one read: the game and its state)
            t0 = time.perf_counter()
            try:
                out = await app.act(t.gid, t.users[seat], seat, action, int(state["version"]))
            except AppError:
                self.errors += 1
                return
            t1 = time.perf_counter()
            if out.status != "applied":  # the script and the game parted: a bug of the benchmark or the bot
                self.errors += 1
                t.over = True
                return
            t.next += 1
            self.act.append(t1 - t0)
            self.deliverer.kick(t.gid)
            if self.draw_in_move and out.phase_changed and out.public_view is not None:
                await self.painter.png(render.draw, GAME, out.public_view)
            self.act_picture.append(time.perf_counter() - t0)
            if out.over:
                t.over = True
        finally:
            t.busy = False

    async def saturated(self, seconds: float) -> int:
        end = time.perf_counter() + seconds
        done = 0

        async def player(t: Table, start: float) -> None:
            nonlocal done
            await asyncio.sleep(start)
            while time.perf_counter() < end and not t.over:
                await self.move(t)
                done += 1

        await asyncio.gather(*(player(t, self.rng.uniform(0, START_SPREAD_S)) for t in self.tables))
        return done

    async def offered(self, seconds: float, rate: float) -> int:
        end = time.perf_counter() + seconds
        tasks: set[asyncio.Task[None]] = set()
        started = 0
        next_at = time.perf_counter()
        while time.perf_counter() < end:
            next_at += self.rng.expovariate(rate)
            delay = next_at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            free = [t for t in self.tables if not t.busy and not t.over]
            if not free:
                continue
            task = asyncio.get_running_loop().create_task(self.move(self.rng.choice(free)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            started += 1
        if tasks:
            await asyncio.gather(*tasks)
        return started


async def run(games: int, seconds: float, rate: float, per: float = 5.0) -> dict[str, Any]:
    from bot import pictures
    from bot.app import App
    from bot.delivery import Deliverer
    from bot.storage import Storage

    collector: Any = None
    try:
        from bot.runtime import tune_gc
    except ImportError:  # an older bot (a before-and-after run): its garbage collector as it was
        pass
    else:
        tune_gc()  # as ``boardroom run`` does before it starts
        try:
            from bot.runtime import Collector
        except ImportError:
            pass
        else:
            collector = Collector()  # and then the bot's collector runs on its loop
            collector.start()

    out: dict[str, Any] = {"games": games, "seconds": seconds, "pace_window_s": per}
    with tempfile.TemporaryDirectory() as d:
        storage = await Storage.open(Path(d) / "load.db")
        storage.start_checkpoints()
        painter = pictures.Painter()
        sender = NullSender()
        deliverer = Deliverer(storage, sender, per=per)
        stalls = Stalls()
        gcs = GcPauses()
        try:
            app = App(storage)
            sender.app = app
            load = Load(app, deliverer, painter, 1)
            t = time.perf_counter()
            await load.setup(games)
            out["setup_s"] = round(time.perf_counter() - t, 1)
            painter.warm_up()
            await painter.png(__import__("render").draw, GAME, app.engine(GAME).view(await app.state(1), None))
            stalls.start()

            # saturated: every player moves again as soon as their act returns (nobody waits
            # for a picture in the bot); the deliverer sends the rows and draws each post's
            # pictures, as the bot does. Under this load it falls behind: once the players
            # stop, it is let finish (``saturated_drain_s``), and the CPU of the whole
            # (the acts, the delivery of all their rows) is divided by the actions.
            load.draw_in_move, sender.painter = False, painter
            stalls.reset()
            cpu0, w0 = time.process_time(), worker_cpu_s(painter)
            rows0, pics0 = sender.sent, sender.pictures
            t0 = time.perf_counter()
            n = await load.saturated(seconds)
            wall = time.perf_counter() - t0
            rows_in_window = sender.sent - rows0
            # what a full pass of the garbage collector costs with this load's heap (the
            # bot's collector makes one every 10 minutes, or when the heap has doubled past
            # its floor: bot.runtime.Collector), timed here, not counted as a stall of the run
            import gc

            worst, gc_worst, t = stalls.worst, gcs.worst, time.perf_counter()
            gc.collect()
            full_gc = time.perf_counter() - t
            await asyncio.sleep(4 * TICK)  # the watcher wakes up late by the pass: not counted
            stalls.worst, gcs.worst = worst, gc_worst
            t1 = time.perf_counter()
            await asyncio.wait_for(deliverer.idle(), DRAIN_LIMIT_S)
            drain = time.perf_counter() - t1
            cpu = time.process_time() - cpu0
            workers = worker_cpu_s(painter) - w0
            out.update({
                "saturated_actions": n,
                "saturated_actions_per_second": round(n / wall, 1),
                "cpu_ms_per_action": round(cpu / n * 1000, 2),
                "picture_workers_cpu_per_action_ms": round(workers / n * 1000, 2),
                "saturated_pictures_per_action": round((sender.pictures - pics0) / n, 3),
                "saturated_rows_per_action": round((sender.sent - rows0) / n, 2),
                "saturated_rows_sent_in_window_per_second": round(rows_in_window / wall, 1),
                "saturated_drain_s": round(drain, 1),
                "saturated_p50_ms": round(pct(load.act, 50) * 1000, 2),
                "saturated_p99_ms": round(pct(load.act, 99) * 1000, 2),
                "saturated_loop_stall_max_ms": round(stalls.worst * 1000, 1),
                "saturated_gc_pause_max_ms": round(gcs.worst * 1000, 1),
                "saturated_full_gc_ms": round(full_gc * 1000, 1),
            })
            gcs.worst = 0.0

            # offered
            sender.painter, load.draw_in_move = None, True
            load.act.clear()
            load.act_picture.clear()
            stalls.reset()
            t0 = time.perf_counter()
            n = await load.offered(seconds, rate)
            wall = time.perf_counter() - t0
            out.update({
                "offered_rate_per_second": rate,
                "offered_actions": n,
                "offered_done_per_second": round(n / wall, 1),
                "offered_act_p50_ms": round(pct(load.act, 50) * 1000, 2),
                "offered_act_p99_ms": round(pct(load.act, 99) * 1000, 2),
                "offered_act_picture_p50_ms": round(pct(load.act_picture, 50) * 1000, 2),
                "offered_act_picture_p99_ms": round(pct(load.act_picture, 99) * 1000, 2),
                "offered_loop_stall_max_ms": round(stalls.worst * 1000, 1),
                "offered_gc_pause_max_ms": round(gcs.worst * 1000, 1),
                "errors": load.errors,
                "games_ended": sum(t.over for t in load.tables),
            })
        finally:
            stalls.stop()
            if collector is not None:
                collector.stop()
            await deliverer.close()
            painter.close()
            await storage.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds of each run")
    ap.add_argument("--rate", type=float, default=43.0, help="moves per second offered in the second run")
    ap.add_argument("--quick", action="store_true", help="10 s each")
    ap.add_argument("--per", type=float, default=5.0, help="the pace's window: 5 writes per PER s in a channel (the bot's: 5)")
    args = ap.parse_args()
    if args.quick:
        args.seconds = 10.0
    with bot_loop() as loop_name:
        out = asyncio.run(run(args.games, args.seconds, args.rate, args.per))
    out["event_loop"] = loop_name
    out["load_avg_1min"] = round(os.getloadavg()[0], 2)  # other work on the machine
    print(json.dumps(out))


if __name__ == "__main__":
    main()
