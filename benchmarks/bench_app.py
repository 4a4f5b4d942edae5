"""Application-layer measurements (figures printed, nothing asserted).

    .venv/bin/python benchmarks/bench_app.py [--games 5] [--startup-games 1000] [--quick]

1. One action handled in-process: ``App.act`` = engine apply + SQLite commit +
   outcome (views, pending, reminders rows, outbox rows), p50/p99, beside a bare
   one-row aiosqlite transaction (BEGIN IMMEDIATE, one INSERT, COMMIT) on the same
   database, timed in turn with the actions (``act_vs_bare_tx``: goal ≤ ×5); the
   trips to the database thread per action (every function aiosqlite's worker thread
   runs for it: goal ≤ 5, ≤ 8 on a phase change, ≤ 12 on a round end); and
   ``act_board``: the same plus the board picture drawn *and* PNG-encoded as the bot
   sends it (``bot.pictures.draw_png``) when the phase changed (goal p99 ≤ 250 ms),
   with the draw and the encode timed apart (goal: draw ≤ encode).
2. Start-up with N stored active games as the bot starts: open the database
   (migrations checked), rebuild the reminder jobs, ``advance_all`` (the bot loads a
   game's state only when it is first used; ``first_load_ms``: one such load).
3. Database bytes per finished game (after VACUUM; the demo's posts delivered and
   the outbox pruned as the deliverer prunes it), and what the log and the snapshots
   weigh (goal ≤ 100 KiB).
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render  # noqa: E402
from bot.app import App  # noqa: E402
from bot.demo import run_demo  # noqa: E402
from bot.reminders import ReminderScheduler  # noqa: E402
from bot.storage import Storage  # noqa: E402

try:  # the event loop ``boardroom run`` runs on (bot/runtime.py: uvloop's where installed)
    from bot.runtime import event_loop as bot_loop
except ImportError:  # an older bot (a before-and-after run): asyncio's, as it ran
    from contextlib import nullcontext as bot_loop

GAME = "smartphone-inc"


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


class Trips:
    """Counts the trips to aiosqlite's worker thread (each queued function) of one
    connection: ``with trips.counting() as n: ...; n[0]``."""

    def __init__(self, conn: Any) -> None:
        self.n = 0
        inner = conn._execute

        async def counted(fn: Any, *args: Any, **kw: Any) -> Any:
            self.n += 1
            return await inner(fn, *args, **kw)

        conn._execute = counted


async def bare_transaction(storage: Storage) -> float:
    """Seconds of one bare one-row write transaction on the storage's connection."""
    conn = storage.conn
    t0 = time.perf_counter()
    async with storage._lock:
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute("INSERT INTO bench_bare (at) VALUES (?)", (t0,))
        await conn.execute("COMMIT")
    return time.perf_counter() - t0


def draw_and_encode(view: dict[str, Any]) -> tuple[float, float, float]:
    """(draw s, encode s, total s) of the board picture as the bot sends it."""
    from bot import pictures

    t0 = time.perf_counter()
    image = render.draw(GAME, view)
    t1 = time.perf_counter()
    data = pictures.png_bytes(image)
    t2 = time.perf_counter()
    assert data
    return t1 - t0, t2 - t1, t2 - t0


@dataclass
class Timings:
    act: list[float] = field(default_factory=list)
    full: list[float] = field(default_factory=list)  # act + board drawn and encoded
    bare: list[float] = field(default_factory=list)
    draw: list[float] = field(default_factory=list)
    encode: list[float] = field(default_factory=list)
    trips: dict[str, list[int]] = field(default_factory=lambda: {"turn": [], "phase": [], "round": []})


async def play_humans(app: App, players: int, seed: int, channel: int, *, upto: int | None = None,
                      t: Timings | None = None, trips: Trips | None = None, pictures: bool = False) -> int:
    """A game whose seats are all humans (users 1..players) acting through App.act.
    Returns the game id; fills ``t`` (act, act + picture, a bare transaction after each)."""
    from engine.ai import choose

    t = t if t is not None else Timings()
    info = await app.create_game(GAME, channel_id=channel, host_id=1, host_name="p1")
    for uid in range(2, players + 1):
        await app.join(info.id, uid, f"p{uid}")
    out = await app.start(info.id, 1, seed=seed)
    users = {s.seat: s.user_id for s in (await app.info(info.id)).seats}
    n = 0
    while not out.over and (upto is None or n < upto):
        seat = sorted(out.pending)[0]
        state = await app.state(info.id)
        action = choose(GAME, state, seat, "random")
        before = trips.n if trips is not None else 0
        t0 = time.perf_counter()
        out = await app.act(info.id, users[seat], seat, action, int(state["version"]))
        t1 = time.perf_counter()
        if trips is not None:
            kind = "round" if out.round_changed or out.over else "phase" if out.phase_changed else "turn"
            t.trips[kind].append(trips.n - before)
        drawn = 0.0
        if pictures and out.phase_changed and out.public_view is not None:
            d, e, drawn = draw_and_encode(out.public_view)
            t.draw.append(d)
            t.encode.append(e)
        assert out.status == "applied", out.message
        t.act.append(t1 - t0)
        t.full.append(t1 - t0 + drawn)
        if trips is not None:  # the bare transaction, in turn with the actions (same load)
            t.bare.append(await bare_transaction(app.storage))
        n += 1
    return info.id


async def bench_actions(tmp: Path, games: int) -> dict[str, float]:
    storage = await Storage.open(tmp / "actions.db")
    t = Timings()
    try:
        await storage.conn.execute("CREATE TABLE bench_bare (id INTEGER PRIMARY KEY, at REAL)")
        trips = Trips(storage.conn)
        app = App(storage)
        for g in range(games):
            await play_humans(app, 4, 100 + g, 1000 + g, t=t, trips=trips, pictures=True)
    finally:
        await storage.close()
    act50, act99, bare50 = pct(t.act, 50), pct(t.act, 99), pct(t.bare, 50)
    print(f"[action] {len(t.act)} actions in {games} 4-player games (all seats human, App.act)")
    print(f"[action] act (engine + commit + outcome): p50 {ms(act50)}  p99 {ms(act99)}"
          f"  mean {ms(statistics.fmean(t.act))}")
    print(f"[action] a bare one-row transaction: p50 {ms(bare50)}: act p50 is x{act50 / bare50:.1f} of it")
    trips = {k: (statistics.median(v) if v else 0, max(v) if v else 0) for k, v in t.trips.items()}
    print("[action] trips to the database thread per act (median, max): "
          + ", ".join(f"{k} {m:g} / {x}" for k, (m, x) in trips.items()))
    print(f"[action] act + board drawn and encoded on phase change: p50 {ms(pct(t.full, 50))}"
          f"  p99 {ms(pct(t.full, 99))}  ({len(t.draw)} pictures: draw p50 {ms(pct(t.draw, 50))},"
          f" encode p50 {ms(pct(t.encode, 50))})")
    return {
        "act_p50_ms": round(act50 * 1000, 2), "act_p99_ms": round(act99 * 1000, 2),
        "bare_tx_p50_ms": round(bare50 * 1000, 3), "act_vs_bare_tx": round(act50 / bare50, 1),
        "trips_per_act": trips["turn"][0], "trips_per_act_max": trips["turn"][1],
        "trips_per_act_phase_change": trips["phase"][0], "trips_per_act_phase_change_max": trips["phase"][1],
        "trips_per_act_round_end": trips["round"][0], "trips_per_act_round_end_max": trips["round"][1],
        "act_board_p50_ms": round(pct(t.full, 50) * 1000, 2), "act_board_p99_ms": round(pct(t.full, 99) * 1000, 2),
        "board_draw_p50_ms": round(pct(t.draw, 50) * 1000, 2), "board_encode_p50_ms": round(pct(t.encode, 50) * 1000, 2),
        "board_draw_vs_encode": round(pct(t.draw, 50) / pct(t.encode, 50), 2),
    }


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
        gid = await play_humans(app, 4, 7, 1, upto=37)
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
    outs = await app.advance_all()
    t3 = time.perf_counter()
    active = await app.games_with_status("active")
    loads = []
    for info in active[:50]:  # a game's state is loaded when it is first used
        t = time.perf_counter()
        await app.state(info.id)
        loads.append(time.perf_counter() - t)
    sched.shutdown()
    await storage.close()
    print(f"[startup] {len(active)} active games, database {size / 1e6:.1f} MB")
    print(f"[startup] open + migrations check: {ms(t1 - t0)}; rebuild {jobs} reminder jobs: {ms(t2 - t1)};"
          f" advance_all (nothing to do, {len(outs)} advanced): {ms(t3 - t2)}; total {ms(t3 - t0)}")
    print(f"[startup] a game's first load (snapshot + replay), p50 of {len(loads)}: {ms(pct(loads, 50))}")
    return {"startup_games": len(active), "startup_ms": round((t3 - t0) * 1000, 1),
            "first_load_ms": round(pct(loads, 50) * 1000, 2)}


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


class NullSender:
    """A Discord that takes every post (message ids 1, 2, ...)."""

    def __init__(self) -> None:
        self.sent = 0

    async def channel_key(self, row: Any) -> str | None:
        return None if row.kind == "dm" else f"c{row.game_id}"

    async def deliver(self, row: Any, merged: list[Any]) -> int | None:
        self.sent += 1
        return self.sent

    async def tell_blocked(self, game_id: int, code: int) -> None:
        return None


async def deliver_all(db: Path) -> int:
    """Deliver every pending outbox row as the bot's deliverer does (no pacing waits)."""
    from bot.delivery import Deliverer

    storage = await Storage.open(db)
    try:
        sender = NullSender()
        deliverer = Deliverer(storage, sender, pace=10**9, per=1.0)
        async with storage.read() as q:
            games = await q.games_with_pending_outbox()
        for gid in games:
            deliverer.kick(gid)
        await deliverer.idle()
        await deliverer.close()
        return sender.sent
    finally:
        await storage.close()


async def bench_bytes(tmp: Path, games: int) -> dict[str, float]:
    empty = await vacuumed_size(tmp / "empty.db")
    db = tmp / "bytes.db"
    for g in range(games):
        await run_demo(game=GAME, players=4, seed=500 + g, db=db, renderer=None, echo=lambda _: None)
    sent = await deliver_all(db)  # the posts went out: the database as it is after the game
    storage = await Storage.open(db)
    try:
        async with storage.transaction() as tx:
            [(n_actions, action_bytes)] = await tx._all(
                "SELECT count(*), sum(length(action)) FROM actions")
            [(n_snaps, snap_bytes)] = await tx._all("SELECT count(*), sum(length(state)) FROM snapshots")
            [(n_rows, row_bytes)] = await tx._all("SELECT count(*), coalesce(sum(length(payload)), 0) FROM outbox")
    finally:
        await storage.close()
    size = await vacuumed_size(db)
    print(f"[bytes] {games} finished 4-player games (greedy bots): {n_actions / games:.0f} actions/game,"
          f" {sent / games:.0f} messages/game delivered")
    print(f"[bytes] database file after VACUUM: {(size - empty) / games / 1024:.1f} KiB per finished"
          f" game ({size} bytes for {games} games; the empty schema is {empty} bytes)")
    print(f"[bytes] action JSON {action_bytes / games / 1024:.1f} KiB/game;"
          f" kept snapshots {n_snaps / games:.1f}/game, {snap_bytes / games / 1024:.1f} KiB/game;"
          f" outbox rows kept {n_rows / games:.0f}/game, payloads {row_bytes / games / 1024:.1f} KiB/game")
    return {"database_kib_per_finished_game": round((size - empty) / games / 1024, 1),
            "outbox_kib_per_finished_game": round(row_bytes / games / 1024, 1)}


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
    with bot_loop():
        asyncio.run(main())
