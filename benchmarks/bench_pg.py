"""PostgreSQL beside SQLite (issue 37): the cost of an action on each, throughput with
several processes on one PostgreSQL database, and the time to take over a killed
process's work.

    .venv/bin/python benchmarks/bench_pg.py [--games 60] [--seconds 3] [--quick]

The database: ``BOARDROOM_BENCH_DB`` (or ``BOARDROOM_TEST_DB``) names one (a schema of
its own is made in it and dropped after); else a throwaway cluster is started for the
run where PostgreSQL is installed (scripts/pg_cluster.sh, as make test does). Where
there is none, the one figure is ``pg_bench_skipped_no_postgresql``.

The game is the test suite's small game (tests/fakegame.py: picks and takes, 12 moves),
played through ``App.act`` as the bot plays it (one transaction with its outbox rows).

* ``sqlite_act_p50_ms`` / ``_p99``, ``pg_act_p50_ms`` / ``_p99`` (one process, the same
  moves) and ``pg_vs_sqlite_act_p50`` (goal ≤ 2);
* ``pg_cpu_ms_per_act_bot_and_db``: the CPU time of this process and of its PostgreSQL
  backend (``/proc``, the server on this machine) per action;
* ``pg_throughput_{1,2,4}_procs_per_second``: actions a second of 1, 2 and 4 processes
  on one database, each playing its own games for ``--seconds``;
* ``pg_takeover_s``: a process delivering a game's outbox is killed (SIGKILL); the time
  until another process delivers the game's next row (goal ≤ 10 s; the claims' time is
  6 s, looked at every 2 s: bot/claims.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bot.storage import Storage  # noqa: E402
from tests.fakegame import FakeClock, lobby, new_app  # noqa: E402

PORT = 55443


@asynccontextmanager
async def database() -> AsyncIterator[str | None]:
    """A URL of an empty schema (dropped after), or None: no PostgreSQL here."""
    url = os.environ.get("BOARDROOM_BENCH_DB") or os.environ.get("BOARDROOM_TEST_DB")
    cluster = None
    if not url:
        cluster = tempfile.mkdtemp(prefix="boardroom-pg-bench.")
        os.chmod(cluster, 0o755)
        out = subprocess.run(
            [str(ROOT / "scripts" / "pg_cluster.sh"), "start", f"{cluster}/c", str(PORT)],
            capture_output=True, text=True,
        )
        if out.returncode != 0:
            print(f"no PostgreSQL cluster: {out.stderr.strip()[-300:]}", file=sys.stderr)
            yield None
            return
        url = out.stdout.strip()
    schema = f"bench_{os.getpid()}"
    try:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await conn.execute(f"CREATE SCHEMA {schema}")
        yield url + ("&" if "?" in url else "?") + "options=" + quote(f"-csearch_path={schema}")
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        if cluster is not None:
            subprocess.run([str(ROOT / "scripts" / "pg_cluster.sh"), "stop", f"{cluster}/c", str(PORT)])


def backend_cpu_s(pid: int | None) -> float:
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play(target: str, games: int, channel: int = 5000) -> tuple[list[float], float, float]:
    """Each game played out: the acts' times, the process CPU, the backend CPU (seconds)."""
    storage = await Storage.open(target)
    app = await new_app(storage, FakeClock())
    pid = None
    if storage.backend == "postgresql":
        cur = await storage.conn.execute("SELECT pg_backend_pid()")
        pid = int((await cur.fetchone())[0])
    times: list[float] = []
    cpu0, back0 = time.process_time(), backend_cpu_s(pid)
    for n in range(games):
        info = await lobby(app, humans=3, channel=channel + n)
        await app.start(info.id, 1, seed=n)
        for _round in range(2):
            version = (await app.info(info.id)).version
            for u in (1, 2, 3):
                t = time.perf_counter()
                await app.act(info.id, u, None, {"pick": u}, version)
                times.append(time.perf_counter() - t)
            for u in (1, 2, 3):
                version = (await app.info(info.id)).version
                t = time.perf_counter()
                await app.act(info.id, u, None, {"take": 1}, version)
                times.append(time.perf_counter() - t)
    cpu, back = time.process_time() - cpu0, backend_cpu_s(pid) - back0
    await storage.close()
    return times, cpu, back


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))]


async def worker(url: str, seconds: float, channel: int) -> int:
    """One process's share of the throughput run: its own games, played for ``seconds``."""
    storage = await Storage.open(url)
    app = await new_app(storage, FakeClock())
    acts = 0
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        info = await lobby(app, humans=3, channel=channel + n)
        await app.start(info.id, 1, seed=n)
        n += 1
        for _round in range(2):
            version = (await app.info(info.id)).version
            for u in (1, 2, 3):
                await app.act(info.id, u, None, {"pick": u}, version)
                acts += 1
            for u in (1, 2, 3):
                await app.act(info.id, u, None, {"take": 1}, (await app.info(info.id)).version)
                acts += 1
    await storage.close()
    return acts


def spawn(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    full = dict(os.environ, **(env or {}))
    full["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [full.get("PYTHONPATH")])])
    return subprocess.Popen(
        [sys.executable, *args], cwd=ROOT, env=full, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )


async def throughput(url: str, procs: int, seconds: float) -> float:
    start_at = time.time() + 3.0  # every process started and connected
    ps = [
        spawn(__file__, "--worker", url, str(seconds), str(100_000 * (i + 1) + procs * 1_000_000), str(start_at))
        for i in range(procs)
    ]
    total = 0
    for p in ps:
        out, _ = await asyncio.to_thread(p.communicate, None, seconds + 120)
        total += int(out.strip().splitlines()[-1])
    return total / seconds


async def takeover(url: str) -> float:
    """Kill the process delivering a game's outbox; seconds until another delivers it."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("CREATE TABLE IF NOT EXISTS attempts (nonce TEXT NOT NULL, by TEXT NOT NULL, at DOUBLE PRECISION)")
        storage = await Storage.open(url)
        async with storage.transaction() as tx:
            gid = await tx.insert_game("fake", {}, guild_id=1, channel_id=900_001, thread_id=None, host_id=1, at=0)
            await tx.update_game(gid, 0, status="active")
            await tx.insert_seat(gid, "ann", 0, 100, None, "ann")
            batch = await tx.next_outbox_batch()
            await tx.put_outbox_rows(gid, batch, [("dm", "100", {"content": str(i)}, True) for i in range(400)], at=0)
        await storage.close()
        first = spawn("-m", "tests.pg_worker", "serve", url, "first")
        await asyncio.to_thread(first.stdout.readline)  # ready  # type: ignore[union-attr]
        second = spawn("-m", "tests.pg_worker", "serve", url, "second")
        await asyncio.to_thread(second.stdout.readline)  # type: ignore[union-attr]
        try:
            for _ in range(600):  # the first process is delivering
                cur = await conn.execute("SELECT count(*) FROM attempts WHERE by = 'first'")
                if (await cur.fetchone() or [0])[0] >= 5:
                    break
                await asyncio.sleep(0.05)
            first.send_signal(signal.SIGKILL)
            killed_at = time.time()
            first.wait()
            for _ in range(600):
                cur = await conn.execute("SELECT min(at) FROM attempts WHERE by = 'second' AND at > %s", (killed_at,))
                at = (await cur.fetchone() or [None])[0]
                if at is not None:
                    return float(at) - killed_at
                await asyncio.sleep(0.05)
            return float("inf")
        finally:
            for p in (first, second):
                p.kill()
                p.wait()


async def main(args: argparse.Namespace) -> dict[str, float]:
    async with database() as url:
        if url is None:
            return {"pg_bench_skipped_no_postgresql": 1}
        with tempfile.TemporaryDirectory() as tmp:
            lite, lite_cpu, _ = await play(str(Path(tmp) / "bench.db"), args.games)
        pg, pg_cpu, pg_back = await play(url, args.games)
        out = {
            "sqlite_act_p50_ms": round(statistics.median(lite) * 1000, 3),
            "sqlite_act_p99_ms": round(pct(lite, 0.99) * 1000, 3),
            "pg_act_p50_ms": round(statistics.median(pg) * 1000, 3),
            "pg_act_p99_ms": round(pct(pg, 0.99) * 1000, 3),
            "sqlite_cpu_ms_per_act_bot": round(lite_cpu * 1000 / len(lite), 3),
            "pg_cpu_ms_per_act_bot_and_db": round((pg_cpu + pg_back) * 1000 / len(pg), 3),
            "pg_cpu_ms_per_act_db": round(pg_back * 1000 / len(pg), 3),
        }
        out["pg_vs_sqlite_act_p50"] = round(out["pg_act_p50_ms"] / out["sqlite_act_p50_ms"], 2)
        for procs in (1, 2, 4):
            out[f"pg_throughput_{procs}_procs_per_second"] = round(await throughput(url, procs, args.seconds), 1)
        out["pg_takeover_s"] = round(await takeover(url), 2)
        return out


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        url, seconds, channel, start_at = sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
        time.sleep(max(0.0, start_at - time.time()))
        print(asyncio.run(worker(url, seconds, channel)), flush=True)
        sys.exit(0)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--quick", action="store_true", help="small sizes (make bench)")
    a = ap.parse_args()
    if a.quick:
        a.games, a.seconds = 20, 2.0
    print(json.dumps(asyncio.run(main(a))))
