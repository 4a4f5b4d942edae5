"""Application-layer measurements (figures printed, nothing asserted).

    .venv/bin/python benchmarks/bench_app.py [--games 5] [--startup-games 1000] [--quick]

1. One action handled in-process: ``App.act`` = engine apply + SQLite commit +
   outcome (views, pending, reminders rows), p50/p99; and the same plus drawing
   the public picture when the phase changed, if ``render.draw`` exists.
2. Start-up with N stored active games: open the database (migrations checked),
   rebuild the reminder jobs, load every game's state (snapshot + replay).
3. Database bytes per finished game (after VACUUM), and what the log and the
   snapshots weigh.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render  # noqa: E402
from bot.app import App  # noqa: E402
from bot.demo import run_demo  # noqa: E402
from bot.reminders import ReminderScheduler  # noqa: E402
from bot.storage import Storage  # noqa: E402

GAME = "smartphone-inc"


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


async def play_humans(app: App, players: int, seed: int, channel: int, *, upto: int | None = None,
                      draw: Any = None) -> tuple[int, list[float], list[float]]:
    """A game whose seats are all humans (users 1..players) acting through App.act.
    Returns (game id, act times, act+draw times)."""
    from engine.ai import choose

    info = await app.create_game(GAME, channel_id=channel, host_id=1, host_name="p1")
    for uid in range(2, players + 1):
        await app.join(info.id, uid, f"p{uid}")
    out = await app.start(info.id, 1, seed=seed)
    users = {s.seat: s.user_id for s in (await app.info(info.id)).seats}
    act_t: list[float] = []
    full_t: list[float] = []
    n = 0
    while not out.over and (upto is None or n < upto):
        seat = sorted(out.pending)[0]
        state = await app.state(info.id)
        action = choose(GAME, state, seat, "random")
        t0 = time.perf_counter()
        out = await app.act(info.id, users[seat], seat, action, int(state["version"]))
        t1 = time.perf_counter()
        if draw is not None and out.phase_changed and out.public_view is not None:
            draw(GAME, out.public_view)
        t2 = time.perf_counter()
        assert out.status == "applied", out.message
        act_t.append(t1 - t0)
        full_t.append(t2 - t0)
        n += 1
    return info.id, act_t, full_t


async def bench_actions(tmp: Path, games: int) -> dict[str, float]:
    draw = render.draw
    storage = await Storage.open(tmp / "actions.db")
    try:
        app = App(storage)
        act_t: list[float] = []
        full_t: list[float] = []
        for g in range(games):
            _, a, f = await play_humans(app, 4, 100 + g, 1000 + g, draw=draw)
            act_t += a
            full_t += f
    finally:
        await storage.close()
    print(f"[action] {len(act_t)} actions in {games} 4-player games (all seats human, App.act)")
    print(f"[action] act (engine + commit + outcome): p50 {ms(pct(act_t, 50))}  p99 {ms(pct(act_t, 99))}"
          f"  mean {ms(statistics.fmean(act_t))}")
    if draw is not None:
        drawn = [f - a for f, a in zip(full_t, act_t, strict=True) if f - a > 1e-4]
        print(f"[action] act + render.draw on phase change: p50 {ms(pct(full_t, 50))}  p99 {ms(pct(full_t, 99))}"
              f"  ({len(drawn)} pictures, p50 {ms(pct(drawn, 50))} each)")
    else:
        print("[action] render.draw not available: no picture timing")
    return {"act_p50_ms": round(pct(act_t, 50) * 1000, 2), "act_p99_ms": round(pct(act_t, 99) * 1000, 2)}


async def clone_games(storage: Storage, source: int, copies: int) -> None:
    """Copy one game's rows ``copies`` times (ids and places changed)."""
    async with storage.transaction() as tx:
        c = tx.conn
        [(base,)] = await tx._all("SELECT max(id) FROM games")
        for i in range(1, copies + 1):
            gid = base + i
            await c.execute(
                "INSERT INTO games (id, game, options, seed, guild_id, channel_id, thread_id, host_id,"
                " status, version, result, created_at, updated_at) SELECT ?, game, options, seed,"
                " guild_id, ?, NULL, host_id, status, version, result, created_at, updated_at"
                " FROM games WHERE id = ?", (gid, 10_000_000 + gid, source))
            for table, cols in (
                ("game_settings", "remind_after_hours, repeat_hours, takeover, takeover_after_hours"),
                ("seats", "seat, position, user_id, ai_kind, display_name, ai_takeover"),
                ("actions", "seq, seat, action, actor, created_at"),
                ("snapshots", "version, state, created_at"),
                ("waiting", "seat, since_version, since_at"),
                ("reminders", "seat, kind, due_at, sent_at, count"),
            ):
                await c.execute(
                    f"INSERT INTO {table} (game_id, {cols}) SELECT ?, {cols} FROM {table}"
                    " WHERE game_id = ?", (gid, source))


async def bench_startup(tmp: Path, n: int) -> dict[str, float]:
    db = tmp / "startup.db"
    storage = await Storage.open(db)
    try:
        app = App(storage)
        # mid-game, between snapshots: a load is a snapshot plus a replay of a few rows
        gid, _, _ = await play_humans(app, 4, 7, 1, upto=37)
        await clone_games(storage, gid, n - 1)
    finally:
        await storage.close()
    size = os.path.getsize(db)

    t0 = time.perf_counter()
    storage = await Storage.open(db)
    t1 = time.perf_counter()
    app = App(storage, cache_size=n + 10)

    async def send(_: Any) -> None:
        return None

    sched = ReminderScheduler(app, send)
    jobs = await sched.start()
    t2 = time.perf_counter()
    active = await app.games_with_status("active")
    for info in active:
        await app.state(info.id)
    t3 = time.perf_counter()
    outs = await app.advance_all()
    t4 = time.perf_counter()
    sched.shutdown()
    await storage.close()
    print(f"[startup] {len(active)} active games, database {size / 1e6:.1f} MB")
    print(f"[startup] open + migrations check: {ms(t1 - t0)}; rebuild {jobs} reminder jobs: {ms(t2 - t1)};"
          f" load all states: {ms(t3 - t2)} ({ms((t3 - t2) / len(active))}/game)")
    print(f"[startup] total to all games loaded: {ms(t3 - t0)}; advance_all (nothing to do, {len(outs)}"
          f" advanced): {ms(t4 - t3)}")
    return {"startup_games": len(active), "startup_all_loaded_ms": round((t3 - t0) * 1000, 1),
            "startup_advance_all_ms": round((t4 - t3) * 1000, 1)}


async def vacuumed_size(db: Path) -> int:
    storage = await Storage.open(db)
    try:
        async with storage.read() as q:
            await q._all("PRAGMA wal_checkpoint(TRUNCATE)")
            await q.conn.execute("VACUUM")
            await q._all("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        await storage.close()
    return os.path.getsize(db)


async def bench_bytes(tmp: Path, games: int) -> dict[str, float]:
    empty = await vacuumed_size(tmp / "empty.db")
    db = tmp / "bytes.db"
    for g in range(games):
        await run_demo(game=GAME, players=4, seed=500 + g, db=db, renderer=None, echo=lambda _: None)
    storage = await Storage.open(db)
    try:
        async with storage.transaction() as tx:
            [(n_actions, action_bytes)] = await tx._all(
                "SELECT count(*), sum(length(action)) FROM actions")
            [(n_snaps, snap_bytes)] = await tx._all("SELECT count(*), sum(length(state)) FROM snapshots")
    finally:
        await storage.close()
    size = await vacuumed_size(db)
    print(f"[bytes] {games} finished 4-player games (greedy bots): {n_actions / games:.0f} actions/game")
    print(f"[bytes] database file after VACUUM: {(size - empty) / games / 1024:.1f} KiB per finished"
          f" game ({size} bytes for {games} games; the empty schema is {empty} bytes)")
    print(f"[bytes] action JSON {action_bytes / games / 1024:.1f} KiB/game;"
          f" kept snapshots {n_snaps / games:.1f}/game, {snap_bytes / games / 1024:.1f} KiB/game")
    return {"database_kib_per_finished_game": round((size - empty) / games / 1024, 1)}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5, help="games for the action and byte figures")
    parser.add_argument("--startup-games", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="1 game, 100 stored games")
    args = parser.parse_args()
    if args.quick:
        args.games, args.startup_games = 1, 100
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        figures = await bench_actions(tmp, args.games)
        figures |= await bench_startup(tmp, args.startup_games)
        figures |= await bench_bytes(tmp, args.games)
    print(json.dumps({**figures, "python": sys.version.split()[0]}))  # the last line, for run_all.py


if __name__ == "__main__":
    asyncio.run(main())
