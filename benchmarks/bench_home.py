"""The player's home (issue 36): ``/games`` among many stored games, and the daily digest.

Builds a database of ``--games`` stored games (50,000) straight through SQLite: one
player sits in 50 of them (20 waiting on them, 20 running, 5 paused, 5 finished this
week); 10,000 other players chose the daily digest, due now, each awaited in a few of
the others. Then:

- ``home_games_p99_ms``: ``App.home_games`` of that player (what ``/games`` shows),
  p50/p99 over ``--calls`` calls; goal ≤ 50 ms p99 (an index lookup, not a scan);
- ``digest_prepare_s``: the 10,000 digests prepared (who is due, every game waiting on
  each, the DM's text); goal ≤ 5 s. ``digest_write_s``: the same and their outbox rows
  written, in one transaction (the deliverer sends them, paced like every DM).

Run: ``.venv/bin/python benchmarks/bench_home.py [--games N] [--calls N] [--digests N]``;
prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import App  # noqa: E402
from bot.storage import Storage  # noqa: E402

GAME = "smartphone-inc"
PLAYER = 1


def build(db: Path, games: int, digests: int, now: float) -> None:
    """The stored games, seats, waits, deadlines and stages, in one transaction."""
    conn = sqlite3.connect(db)
    try:
        conn.execute("BEGIN")
        g_rows, s_rows, w_rows, r_rows, st_rows = [], [], [], [], []
        for gid in range(1, games + 1):
            mine = gid <= 50
            status = "active"
            if mine and gid > 40:
                status = "paused" if gid <= 45 else "finished"
            result = '{"scores": [{"seat": "p0", "rank": 1}, {"seat": "p1", "rank": 2}, {"seat": "p2", "rank": 3}]}'
            g_rows.append((gid, GAME, "{}", 7, 10_000 + gid, None, PLAYER if mine else 2, status, 12,
                           result if status == "finished" else None, now - 86400, now - 3600, "1", 1, "blake2b"))
            users = [PLAYER if mine else 2 + gid % digests, 20_000 + gid % 30_000, 60_000 + gid % 30_000]
            for pos, uid in enumerate(users):
                s_rows.append((gid, f"p{pos}", pos, uid, None, f"Player {uid}", 0))
            st_rows.append((gid, "2", "planning"))
            if status == "active":
                waiting = "p0" if (not mine or gid <= 20) else "p1"
                w_rows.append((gid, waiting, 12, now - 7200))
                r_rows.append((gid, waiting, "takeover", now + 86400))
        conn.executemany(
            "INSERT INTO games (id, game, options, guild_id, channel_id, thread_id, host_id, status, version, result,"
            " created_at, updated_at, seed, rules, rng) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", g_rows)
        conn.executemany("INSERT INTO seats (game_id, seat, position, user_id, ai_kind, display_name, ai_takeover)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?)", s_rows)
        conn.executemany("INSERT INTO waiting (game_id, seat, since_version, since_at) VALUES (?, ?, ?, ?)", w_rows)
        conn.executemany("INSERT INTO reminders (game_id, seat, kind, due_at) VALUES (?, ?, ?, ?)", r_rows)
        conn.executemany("INSERT INTO game_stage (game_id, round, phase) VALUES (?, ?, ?)", st_rows)
        conn.executemany(
            "INSERT INTO user_home (user_id, notify, digest_hour, digest_next) VALUES (?, 'digest', 9, ?)",
            [(2 + i, now - 60) for i in range(digests)],
        )
        conn.executemany("INSERT INTO user_settings (user_id, tz) VALUES (?, ?)",
                         [(2 + i, ("Europe/Paris", "Asia/Tokyo", "UTC")[i % 3]) for i in range(digests)])
        conn.execute("DELETE FROM home_todo")
        conn.execute("COMMIT")
        conn.execute("ANALYZE")
    finally:
        conn.close()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def measure(games: int, calls: int, digests: int) -> dict[str, float]:
    now = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "home.db"
        storage = await Storage.open(db)
        await storage.close()
        t0 = time.perf_counter()
        build(db, games, digests, now)
        built = time.perf_counter() - t0
        storage = await Storage.open(db)
        try:
            app = App(storage)
            listed = await app.home_games(PLAYER)
            assert len(listed) == 50 and sum(g.mine for g in listed) == 20, (len(listed), sum(g.mine for g in listed))
            for _ in range(10):
                await app.home_games(PLAYER)
            times = []
            for _ in range(calls):
                t = time.perf_counter()
                await app.home_games(PLAYER)
                times.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            async with storage.read() as q:
                prepared, nexts = await app.prepare_digests(q, now)
            prepare = time.perf_counter() - t
            assert len(prepared) == digests and len(nexts) == digests, (len(prepared), len(nexts))
            t = time.perf_counter()
            sent = await app.send_digests()
            write = time.perf_counter() - t
            assert len(sent) == digests
        finally:
            await storage.close()
    return {
        "stored_games": games,
        "build_s": round(built, 2),
        "home_games_p50_ms": round(pct(times, 50), 2),
        "home_games_p99_ms": round(pct(times, 99), 2),
        "digests": digests,
        "digest_prepare_s": round(prepare, 3),
        "digest_write_s": round(write, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50_000, help="stored games (at least 51)")
    parser.add_argument("--calls", type=int, default=300, help="timed calls of App.home_games")
    parser.add_argument("--digests", type=int, default=10_000, help="players with a digest due")
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(measure(max(51, args.games), max(1, args.calls), max(1, args.digests)))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
