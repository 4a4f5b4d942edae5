"""Many active games on one machine: start-up, per-action cost, memory (issue 9).

    .venv/bin/python benchmarks/bench_scale.py --games 10000 [--ai-seats [--owed 0.1]]
        [--acts 2000] [--baseline 10] [--db scale.db] [--profile act.prof]

1. Builds a database of N active Smartphone Inc. games: a few real 3-player games
   are played through the app layer to different points (Planning with a plan
   sealed, the middle of Research, Logistics, Selling, a later round), then their
   rows are copied (ids and channels changed) until there are N. With
   ``--ai-seats`` every game has one rule-bot seat (the greedy player), and
   ``--owed F`` (default 0.1 with ``--ai-seats``) makes that share of the games owe
   the AI a move: their base game stopped right after a player's move that the AI
   must answer (as when the bot died between the two), so start-up must play it.
2. In a fresh process, starts the real bot (``create_bot``, as ``boardroom run``
   does, its garbage collector included: ``bot.runtime.tune_gc`` and ``Collector``,
   which run the collector from the event loop; left automatic, the collector's passes
   fell inside the timed moves and were most of the slowest ones) against the fake
   Discord on loopback and measures: time to ready
   (gateway READY, reminder timer armed; ``ready_s`` from the process's start, its
   imports included; ``ready_in_process_s`` from ``create_bot``), time to done (the start-up catch-up,
   ``advance_all``, finished; ``ai_moves_at_start`` moves played: ``ai_moves_s`` is
   the wall time during which at least one of them was being chosen, applied or
   committed (a few games advance side by side), ``ai_choose_cpu_s`` the CPU time of
   choosing them; ``done_without_ai_moves_s`` = done - ai_moves_s, the issue's
   "≤ 3 s plus the AI moves actually owed"), then ``App.act`` p50/p99 over ``--acts`` moves in
   random copied games, the peak RSS at done (``peak_rss_start_mib``) and the
   process's peak RSS. The bot's deliverer is stopped before the timed moves (the
   baseline app has none; their posts stay in the outbox). Before each timed move the game is put back to its base
   position (untimed) and its state read (as the player's prompt does): every timed
   move is a move from one of the base positions, whatever the number of games, so
   that the two measures of step 3 compare the same work.
3. The same moves on a ``--baseline`` database (default 10 games; 0: skip), opened in
   the same process as the bot opens its own (background checkpoints, the reminder
   timer), one move each in turn so that both see the same load of the machine:
   ``act_p99_growth_pct`` is how much slower p99 is with N games (goal ≤ 20 %). Beside
   it the A/A run: the same moves on an identical copy of the baseline database
   (``aa_p99_spread_pct``): a growth within that spread is noise. A pick whose game
   has no player to move is counted (``acts_skipped_games``) and another game picked:
   every one of ``--acts`` is timed.

``--db`` keeps the database (and reuses it when it exists, skipping the build);
``--profile`` writes cProfile stats of the timed ``App.act`` calls.

Prints one JSON line. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
import resource
import subprocess
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
CORE_LOG = "bot.app.core"  # the logger of bot/app/core.py
STOPS = (1, 12, 25, 38, 50)  # actions played in each base game (several phases and rounds)


def peak_rss_mib() -> float:
    """This process's peak RSS: VmHWM (reset by exec). ``ru_maxrss`` is not: a child
    started by the building process would report the builder's peak."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))]


async def _play(app: Any, channel: int, seed: int, stop: int, ai_seat: bool, owe: bool = False) -> int | None:
    """A 3-seat game played ``stop`` random moves in; ``owe``: then human moves (the AI
    not answering) until the AI seat owes a move (``games.ai_owed``; None if it never
    does, e.g. the game ended)."""
    from engine.ai import choose

    info = await app.create_game(GAME, channel_id=channel, host_id=1, host_name="p1")
    await app.join(info.id, 2, "p2")
    if ai_seat:
        await app.add_ai(info.id, 1, "bot")
    else:
        await app.join(info.id, 3, "p3")
    out = await app.start(info.id, 1, seed=seed)
    users = {s.seat: s.user_id for s in (await app.info(info.id)).seats if s.user_id}
    for _ in range(stop):
        if out.over or not out.pending:
            break
        seat = sorted(out.pending)[0]
        state = await app.state(info.id)
        out = await app.act(info.id, users[seat], seat, choose(GAME, state, seat, "random"), int(state["version"]))
    if owe:
        import logging

        quiet = logging.getLogger(CORE_LOG)
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)  # "AI seats made 0 moves in a row": on purpose here
        keep, app.max_ai_actions = app.max_ai_actions, 0  # the AI does not answer: it owes
        try:
            for _ in range(200):
                async with app.storage.read() as q:
                    async with q.conn.execute("SELECT ai_owed FROM games WHERE id = ?", (info.id,)) as cur:
                        (owed,) = await cur.fetchone()
                if owed or out.over or not out.pending:
                    break
                seat = sorted(out.pending)[0]
                state = await app.state(info.id)
                action = choose(GAME, state, seat, "random")
                out = await app.act(info.id, users[seat], seat, action, int(state["version"]))
        finally:
            app.max_ai_actions = keep
            quiet.setLevel(level)
        if not owed:
            return None
    return info.id


async def _active(app: Any, channel: int, seed: int, stop: int, ai_seats: bool, owe: bool = False) -> int | None:
    """A base game still active after its moves: a game that ended (an AI seat leaves
    fewer moves to the players) or never came to owe the AI is played again with the
    next seed and a tenth fewer moves, so that every copy is an active game a player
    can move in."""
    for tries in range(20):
        gid = await _play(app, channel + 1000 * tries, seed + 1000 * tries, stop * (10 - tries // 2) // 10, ai_seats, owe)
        if gid is not None and (await app.info(gid)).status == "active":
            return gid
    if owe:
        return None
    raise RuntimeError(f"no seed keeps a game active after about {stop} moves")


async def _columns(conn: Any, table: str) -> list[str]:
    async with conn.execute(f"PRAGMA table_info({table})") as cur:
        return [r[1] for r in await cur.fetchall()]


CHILDREN = ("game_settings", "seats", "actions", "snapshots", "waiting", "reminders")


async def copy_game(c: Any, gid: int, src: int) -> None:
    """Game ``gid`` becomes a copy of game ``src`` (its own id and channel), in the
    transaction of connection ``c``."""
    gcols = [x for x in await _columns(c, "games") if x not in ("id", "channel_id", "thread_id")]
    await c.execute(
        f"INSERT INTO games (id, channel_id, {', '.join(gcols)})"
        f" SELECT ?, ?, {', '.join(gcols)} FROM games WHERE id = ?",
        (gid, 10_000_000 + gid, src),
    )
    for table in CHILDREN:
        cols = [x for x in await _columns(c, table) if x != "game_id"]
        await c.execute(
            f"INSERT INTO {table} (game_id, {', '.join(cols)})"
            f" SELECT ?, {', '.join(cols)} FROM {table} WHERE game_id = ?",
            (gid, src),
        )
    await c.execute("INSERT OR REPLACE INTO bench_copies (game_id, src) VALUES (?, ?)", (gid, src))


async def fix_checksums(c: Any, gid: int | None = None) -> None:
    """A snapshot's checksum names its game: recompute it for the copies."""
    try:
        from bot.storage import snapshot_checksum as checksum
    except ImportError:
        return
    sql = "SELECT game_id, version, state FROM snapshots"
    async with c.execute(sql + ("" if gid is None else " WHERE game_id = ?"), () if gid is None else (gid,)) as cur:
        rows = await cur.fetchall()
    await c.executemany(
        "UPDATE snapshots SET checksum = ? WHERE game_id = ? AND version = ?",
        [(checksum(g, v, s), g, v) for g, v, s in rows],
    )


async def build(db: Path, n: int, ai_seats: bool, owed: float = 0.0) -> None:
    """N games copied from the base games; a share ``owed`` of them (with ``ai_seats``)
    from base games that owe the AI a move."""
    from bot.app import App
    from bot.storage import Storage

    storage = await Storage.open(db)
    try:
        app = App(storage)
        bases = [await _active(app, 1 + i, 100 + i, stop, ai_seats) for i, stop in enumerate(STOPS)]
        owing = []
        if ai_seats and owed > 0:
            played = [await _active(app, 100 + i, 200 + i, stop, ai_seats, owe=True) for i, stop in enumerate(STOPS)]
            owing = [g for g in played if g is not None]
            if not owing:
                raise RuntimeError("no base game came to owe the AI a move")
        async with storage.read() as q:
            async with q.conn.execute("SELECT max(id) FROM games") as cur:
                (top,) = await cur.fetchone()
    finally:
        await storage.close()
    copies = max(0, n - len(bases) - len(owing))
    want = min(copies, max(0, round(owed * n) - len(owing))) if owing else 0
    plan = []
    for k in range(copies):
        owes = (k + 1) * want // copies > k * want // copies  # spread evenly
        plan.append((top + 1 + k, owing[k % len(owing)] if owes else bases[k % len(bases)]))
    bulk_copy(db, top, plan, owing)


def bulk_copy(db: Path, top: int, plan: list[tuple[int, int]], owing: list[int]) -> None:
    """The copies ``(new id, src)`` of the plan, every game above ``top``, in one
    transaction of a plain sqlite3 connection: one INSERT … SELECT per table (50,000
    games in seconds, where a statement per game and table took minutes)."""
    import sqlite3

    from bot.storage import snapshot_checksum

    conn = sqlite3.connect(db, isolation_level=None)
    try:
        def columns(table: str) -> list[str]:
            return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]

        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE bench_copies (game_id INTEGER PRIMARY KEY, src INTEGER NOT NULL)")
        conn.execute("CREATE TABLE bench_owing (src INTEGER PRIMARY KEY)")  # bases owing the AI
        conn.executemany("INSERT INTO bench_owing (src) VALUES (?)", [(g,) for g in owing])
        conn.executemany("INSERT INTO bench_copies (game_id, src) VALUES (?, ?)", plan)
        gcols = [x for x in columns("games") if x not in ("id", "channel_id", "thread_id")]
        conn.execute(
            f"INSERT INTO games (id, channel_id, {', '.join(gcols)})"
            f" SELECT c.game_id, 10000000 + c.game_id, {', '.join('g.' + x for x in gcols)}"
            " FROM bench_copies c JOIN games g ON g.id = c.src ORDER BY c.game_id"
        )
        for table in CHILDREN:
            cols = [x for x in columns(table) if x != "game_id"]
            conn.execute(
                f"INSERT INTO {table} (game_id, {', '.join(cols)})"
                f" SELECT c.game_id, {', '.join('t.' + x for x in cols)}"
                f" FROM bench_copies c JOIN {table} t ON t.game_id = c.src ORDER BY c.game_id"
            )
        # a snapshot's checksum names its game: recomputed for the copies
        conn.create_function("bench_checksum", 3, snapshot_checksum, deterministic=True)
        conn.execute(
            "UPDATE snapshots SET checksum = bench_checksum(game_id, version, state) WHERE game_id > ?", (top,)
        )
        conn.execute("COMMIT")
    finally:
        conn.close()


async def reset_game(app: Any, gid: int, src: int) -> None:
    """Put copy ``gid`` back to its base position (untimed), so that every timed move is
    a move from one of the base positions, with 10 games as with 50,000."""
    async with app.storage.transaction() as tx:
        await tx.conn.execute("DELETE FROM reminders WHERE game_id = ?", (gid,))
        async with tx.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('outbox', 'delivery_blocks')"
        ) as cur:
            kept = [name for (name,) in await cur.fetchall()]  # the outbox keeps its rows: no cascade
        for table in kept:
            await tx.conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (gid,))
        await tx.conn.execute("DELETE FROM games WHERE id = ?", (gid,))  # the rest cascades
        await copy_game(tx.conn, gid, src)
        await fix_checksums(tx.conn, gid)
    app._cache.pop(gid, None)
    # written behind the storage's back: the app's kept game row is stale too (with 10
    # games it was still kept, and each timed move read the game again)
    getattr(app, "_infos", {}).pop(gid, None)


class Mover:
    """Timed moves in the copied games of one app: each from a base position."""

    def __init__(self, app: Any, copies: list[tuple[int, int]], seed: int) -> None:
        self.app, self.rng = app, random.Random(seed)
        self.by_base: dict[int, list[int]] = {}
        for gid, src in copies:
            self.by_base.setdefault(src, []).append(gid)
        self.bases = sorted(self.by_base)
        self.times: list[float] = []
        self.skipped = 0  # picks whose game had no player to move (another is picked)

    async def move(self, prof: cProfile.Profile | None = None) -> None:
        """One timed move: a game without a player to move is counted and another is
        picked, so that every call times a move."""
        from engine.ai import choose

        app = self.app
        for _ in range(100):
            # the base position first, then one of its copies: two movers with the same seed
            # over databases built alike time the same moves, whatever their number of games
            src = self.bases[self.rng.randrange(len(self.bases))]
            copies = self.by_base[src]
            gid = copies[self.rng.randrange(len(copies))]
            await reset_game(app, gid, src)
            holdups = await app.holdups(gid)
            if holdups:
                break
            self.skipped += 1
        else:
            raise RuntimeError("no copied game has a player to move")
        h = holdups[0]
        state = await app.state(gid)  # the player opened the prompt: the state is warm
        action = choose(GAME, state, h.seat, "random")
        if prof is not None:
            prof.enable()
        t = time.perf_counter()
        await app.act(gid, h.user_id, h.seat, action, int(state["version"]))
        self.times.append(time.perf_counter() - t)
        if prof is not None:
            prof.disable()


async def copies_of(storage: Any) -> list[tuple[int, int]]:
    """The copies of the base games that owe nothing (the timed moves' games)."""
    async with storage.read() as q:
        async with q.conn.execute(
            "SELECT game_id, src FROM bench_copies WHERE src NOT IN (SELECT src FROM bench_owing) ORDER BY game_id"
        ) as cur:
            return [(int(g), int(s)) for g, s in await cur.fetchall()]


async def measure(
    db: Path, acts: int, profile: str | None = None, baseline: Path | None = None,
    spawned_at: float | None = None,
) -> dict[str, Any]:
    from bot.app import App
    from bot.discord_bot import create_bot
    from bot.reminders import ReminderScheduler
    from bot.storage import Storage
    from tests.discord_support import TOKEN as token
    from tests.fake_discord import FakeDiscord

    out: dict[str, Any] = {}
    async with FakeDiscord():
        t0 = time.perf_counter()
        # the garbage collector as ``boardroom run`` sets it (an older bot: as it was)
        try:
            from bot.runtime import Collector, tune_gc
        except ImportError:
            gc_kw: dict[str, Any] = {}
            tune_gc = None
        else:
            gc_kw = {"collector": Collector()}
        bot = create_bot(db_path=str(db), guild_ready_timeout=0.05, sync_commands=False, **gc_kw)
        if tune_gc is not None:
            tune_gc()
        marks: dict[str, float] = {}
        after_ready = bot._after_ready

        ai = {"moves": 0, "s": 0.0, "busy": 0, "since": 0.0, "choose_s": 0.0}

        async def timed() -> None:
            # the AI moves start-up plays (advance_all), counted; ai_moves_s: the wall time
            # during which at least one of them was being chosen, applied or committed
            # (several games advance side by side); choose_s: the CPU time of choosing
            step, choose = bot.app._ai_step, bot.app.ai_choose

            async def counted(*args: Any, **kw: Any) -> bool:
                if ai["busy"] == 0:
                    ai["since"] = time.perf_counter()
                ai["busy"] += 1
                try:
                    moved = await step(*args, **kw)
                finally:
                    ai["busy"] -= 1
                    if ai["busy"] == 0:
                        ai["s"] += time.perf_counter() - ai["since"]
                ai["moves"] += bool(moved)
                return moved

            def chosen(*args: Any, **kw: Any) -> Any:
                t = time.thread_time()
                try:
                    return choose(*args, **kw)
                finally:
                    ai["choose_s"] += time.thread_time() - t

            bot.app._ai_step, bot.app.ai_choose = counted, chosen
            try:
                await after_ready()
            finally:
                bot.app._ai_step, bot.app.ai_choose = step, choose
            marks["done"] = time.perf_counter()
            async with bot.app.storage.read() as q:
                async with q.conn.execute("SELECT count(*) FROM games WHERE ai_owed = 1") as cur:
                    (ai["still_owed"],) = await cur.fetchone()

        bot._after_ready = timed  # type: ignore[method-assign]
        startup_prof = cProfile.Profile() if os.environ.get("BENCH_PROFILE_STARTUP") else None
        if startup_prof is not None:  # the event loop from start-up until done
            startup_prof.enable()
        task = asyncio.create_task(bot.start(token))
        base_storage = base_sched = None
        extra_storages: list[Any] = []
        try:
            await asyncio.wait_for(bot.ready_event.wait(), 600)
            marks["ready"] = time.perf_counter()
            marks["ready_wall"] = time.time()
            while "done" not in marks:
                await asyncio.sleep(0.01)
            if startup_prof is not None:
                startup_prof.disable()
                startup_prof.dump_stats(os.environ["BENCH_PROFILE_STARTUP"])
            rss_start = peak_rss_mib()
            async with bot.app.storage.read() as q:
                async with q.conn.execute("SELECT count(*) FROM games WHERE status = 'active'") as cur:
                    (active,) = await cur.fetchone()
            movers = [Mover(bot.app, await copies_of(bot.app.storage), 1)]
            if baseline is not None:
                # the same moves on a small database, set up as the bot sets its own up,
                # in this process, one move each in turn: both see the same machine load
                base_storage = await Storage.open(baseline)
                base_storage.start_checkpoints()
                base_app = App(base_storage)

                async def no_send(nudge: Any) -> None:
                    return None

                base_sched = ReminderScheduler(base_app, no_send)
                await base_sched.start()
                movers.append(Mover(base_app, await copies_of(base_storage), 1))
                async with base_storage.read() as q:
                    async with q.conn.execute("SELECT count(*) FROM games WHERE status = 'active'") as cur:
                        (out["baseline_games"],) = await cur.fetchone()
                # the A/A run: an identical copy of the baseline, the same moves: how much
                # two p99s of the same work differ here (the noise of the growth figure)
                aa = baseline.with_name(baseline.stem + "-aa.db")
                aa_storage = await Storage.open(aa)
                aa_storage.start_checkpoints()
                extra_storages.append(aa_storage)
                movers.append(Mover(App(aa_storage), await copies_of(aa_storage), 1))
            # App.act alone, as the baseline app (which has no deliverer) has it: the bot's
            # deliverer would send each move's posts and draw their pictures beside the
            # next timed move (the copies' channels are not in the fake Discord either)
            await bot.delivery.close()
            prof = cProfile.Profile() if profile else None
            for _ in range(acts):
                for i, mover in enumerate(movers):
                    await mover.move(prof if i == 0 else None)
            if prof is not None:
                prof.dump_stats(profile)
        finally:
            if base_sched is not None:
                base_sched.shutdown()
            if base_storage is not None:
                await base_storage.close()
            for extra in extra_storages:
                await extra.close()
            await bot.close()
            task.cancel()
    rss = peak_rss_mib()
    times = movers[0].times
    out.update({
        "games": active,
        # from the process's start (imports included) when the parent said when it started it
        "ready_s": round(marks["ready_wall"] - spawned_at, 3) if spawned_at else round(marks["ready"] - t0, 3),
        "ready_in_process_s": round(marks["ready"] - t0, 3),
        "done_s": round(marks["done"] - t0, 3),
        "ai_moves_at_start": ai["moves"],
        "ai_moves_s": round(ai["s"], 3),
        "ai_choose_cpu_s": round(ai["choose_s"], 3),
        "done_without_ai_moves_s": round(marks["done"] - t0 - ai["s"], 3),
        "games_still_owing_ai": ai.get("still_owed"),
        "act_p50_ms": round(pct(times, 50) * 1000, 2) if times else None,
        "act_p99_ms": round(pct(times, 99) * 1000, 2) if times else None,
        "acts": len(times),
        "acts_skipped_games": movers[0].skipped,
        "peak_rss_start_mib": round(rss_start, 1),
        "peak_rss_mib": round(rss, 1),
    })
    if baseline is not None and movers[1].times and times:
        base = movers[1].times
        out["baseline_act_p50_ms"] = round(pct(base, 50) * 1000, 2)
        out["baseline_act_p99_ms"] = round(pct(base, 99) * 1000, 2)
        out["act_p99_growth_pct"] = round((pct(times, 99) / pct(base, 99) - 1) * 100, 1)
        if len(movers) > 2 and movers[2].times:
            out["aa_act_p99_ms"] = round(pct(movers[2].times, 99) * 1000, 2)
            out["aa_p99_spread_pct"] = round((pct(movers[2].times, 99) / pct(base, 99) - 1) * 100, 1)
    return out


def run(
    db: Path, games: int, ai_seats: bool, acts: int, profile: str | None = None,
    baseline: tuple[Path, int] | None = None, owed: float = 0.0,
) -> dict[str, Any]:
    """Build ``db`` (unless it exists) and the baseline database, then measure in a
    fresh process."""
    built = None
    if not db.exists():
        t = time.perf_counter()
        asyncio.run(build(db, games, ai_seats, owed))
        built = round(time.perf_counter() - t, 1)
    cmd = [sys.executable, __file__, "--measure", str(db), "--acts", str(acts)]
    if profile:
        cmd += ["--profile", profile]
    if baseline is not None:
        import shutil

        asyncio.run(build(baseline[0], baseline[1], ai_seats))
        shutil.copyfile(baseline[0], baseline[0].with_name(baseline[0].stem + "-aa.db"))  # the A/A twin
        cmd += ["--baseline-db", str(baseline[0])]
    cmd += ["--spawned-at", repr(time.time())]
    child = subprocess.run(
        cmd, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    if child.returncode != 0:
        sys.stderr.write(child.stderr[-3000:])
        raise SystemExit(child.returncode)
    out = json.loads(child.stdout.strip().splitlines()[-1])
    out.update(build_s=built, db_mib=round(os.path.getsize(db) / 2**20, 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ai-seats", action="store_true")
    parser.add_argument("--owed", type=float, default=None, metavar="F",
                        help="with --ai-seats: the share of games owing the AI a move at start-up (default 0.1)")
    parser.add_argument("--acts", type=int, default=2000,
                        help="timed moves (enough for a stable p99: compare aa_p99_spread_pct)")
    parser.add_argument("--baseline", type=int, default=10, metavar="G",
                        help="also measure App.act on G games (0: no) and report the p99 growth")
    parser.add_argument("--db", type=Path, help="keep the database here (reused if it exists)")
    parser.add_argument("--profile", help="write cProfile stats of the timed App.act calls here")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the child process
    parser.add_argument("--baseline-db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--spawned-at", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        with bot_loop() as loop_name:
            result = asyncio.run(measure(Path(args.measure), args.acts, args.profile, args.baseline_db, args.spawned_at))
        result["event_loop"] = loop_name
        print(json.dumps(result))
        return
    with tempfile.TemporaryDirectory() as d:
        db = args.db or Path(d) / "scale.db"
        baseline = (Path(d) / "baseline.db", args.baseline) if args.baseline else None
        owed = (0.1 if args.owed is None else args.owed) if args.ai_seats else 0.0
        out = run(db, args.games, args.ai_seats, args.acts, args.profile, baseline, owed)
        out.update(bench="scale", ai_seats=args.ai_seats, owed_share=owed)
        print(json.dumps(out))


if __name__ == "__main__":
    main()
