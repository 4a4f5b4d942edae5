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
  moves, a game on each backend in turn so that the machine's load weighs on both
  alike) and ``pg_vs_sqlite_act_p50`` / ``_p99`` (goal ≤ 2). Like with like: SQLite's
  WAL with ``synchronous=NORMAL`` writes a commit's log before the commit returns and
  syncs it to disk only at checkpoints; the PostgreSQL sessions do the same
  (``synchronous_commit=on``; ``pg_fsync_on`` says whether the server then syncs it to
  disk too: a throwaway cluster does not, a production server does);
* ``sqlite_trips_per_act`` (to SQLite's thread) and ``pg_round_trips_per_act`` (mean;
  ``_p50``): an action's trips to its database;
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
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from bot.storage import Storage  # noqa: E402
from tests.fakegame import FakeClock, lobby, new_app  # noqa: E402


def free_port() -> int:
    """A port nothing listens on now (two benchmarks at once on a shared machine)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def database() -> AsyncIterator[str | None]:
    """A URL of an empty schema (dropped after), or None: no PostgreSQL here."""
    url = os.environ.get("BOARDROOM_BENCH_DB") or os.environ.get("BOARDROOM_TEST_DB")
    cluster = None
    port = free_port()
    if not url:
        cluster = tempfile.mkdtemp(prefix="boardroom-pg-bench.")
        os.chmod(cluster, 0o755)
        out = subprocess.run(
            [str(ROOT / "scripts" / "pg_cluster.sh"), "start", f"{cluster}/c", str(port)],
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
        # the sessions commit as SQLite's WAL with synchronous=NORMAL does: the commit's log
        # written to the operating system before the commit returns (a crash of the
        # database process loses nothing; of the machine, it may, unless fsync is on). A
        # throwaway cluster turns synchronous_commit off (scripts/pg_cluster.sh): a crash of
        # its server loses the last commits, which SQLite's NORMAL does not
        options = f"-csearch_path={schema} -csynchronous_commit=on"
        yield url + ("&" if "?" in url else "?") + "options=" + quote(options)
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        if cluster is not None:
            subprocess.run([str(ROOT / "scripts" / "pg_cluster.sh"), "stop", f"{cluster}/c", str(port)])
            shutil.rmtree(cluster, ignore_errors=True)


def backend_cpu_s(pid: int | None) -> float:
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Trips:
    """Each trip of a storage's link to its database, counted: PostgreSQL's round trips,
    SQLite's trips to its thread (a batch of statements, a query, a row count)."""

    def __init__(self, storage: Storage) -> None:
        self.count = 0
        link = storage.link
        for name in ("run", "execute", "rowcount", "insert_id"):
            setattr(link, name, self._counted(getattr(link, name)))

    def _counted(self, call: Any) -> Any:
        async def counted(*args: Any, **kw: Any) -> Any:
            self.count += 1
            return await call(*args, **kw)
        return counted


class Player:
    """One backend's share of :func:`play`: its app, the acts' times, round trips and CPU."""

    def __init__(self, storage: Storage, app: Any, pid: int | None) -> None:
        self.storage, self.app, self.pid = storage, app, pid
        self.trips = Trips(storage)
        self.times: list[float] = []
        self.act_trips: list[int] = []
        self.cpu = self.back = 0.0

    @classmethod
    async def open(cls, target: str) -> Player:
        storage = await Storage.open(target)
        pid = None
        if storage.backend == "postgresql":
            cur = await storage.conn.execute("SELECT pg_backend_pid()")
            pid = int((await cur.fetchone())[0])
        return cls(storage, await new_app(storage, FakeClock()), pid)

    async def act(self, game_id: int, user: int, action: dict[str, Any], version: int) -> None:
        t, n = time.perf_counter(), self.trips.count
        await self.app.act(game_id, user, None, action, version)
        self.times.append(time.perf_counter() - t)
        self.act_trips.append(self.trips.count - n)

    async def game(self, n: int, channel: int) -> None:
        """One game of three played out (two rounds: picks on one prompt, then takes)."""
        cpu0, back0 = time.process_time(), backend_cpu_s(self.pid)
        app = self.app
        info = await lobby(app, humans=3, channel=channel + n)
        await app.start(info.id, 1, seed=n)
        for _round in range(2):
            version = (await app.info(info.id)).version
            for u in (1, 2, 3):  # the picks of one round are made on one prompt
                await self.act(info.id, u, {"pick": u}, version)
            for u in (1, 2, 3):
                await self.act(info.id, u, {"take": 1}, (await app.info(info.id)).version)
        self.cpu += time.process_time() - cpu0
        self.back += backend_cpu_s(self.pid) - back0


async def play(targets: list[str], games: int, channel: int = 5000) -> list[Player]:
    """The same games played on each target, one game on each in turn (the order swapped
    every game): the machine's load, which moves from second to second on a shared
    machine, weighs on both alike."""
    players = [await Player.open(t) for t in targets]
    for n in range(games):
        for p in players if n % 2 == 0 else players[::-1]:
            await p.game(n, channel)
    for p in players:
        await p.storage.close()
    return players


async def server_settings(url: str) -> dict[str, float]:
    """The server's durability, as figures (1 on, 0 off): fsync, and the commit's wait."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        cur = await conn.execute("SELECT current_setting('fsync'), current_setting('synchronous_commit')")
        fsync, sync = await cur.fetchone()  # type: ignore[misc]
    return {"pg_fsync_on": int(fsync == "on"), "pg_synchronous_commit_on": int(sync != "off")}


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
        settings = await server_settings(url)
        with tempfile.TemporaryDirectory() as tmp:
            lite, pg = await play([str(Path(tmp) / "bench.db"), url], args.games)
        out = {
            "sqlite_act_p50_ms": round(statistics.median(lite.times) * 1000, 3),
            "sqlite_act_p99_ms": round(pct(lite.times, 0.99) * 1000, 3),
            "pg_act_p50_ms": round(statistics.median(pg.times) * 1000, 3),
            "pg_act_p99_ms": round(pct(pg.times, 0.99) * 1000, 3),
            "sqlite_trips_per_act": round(statistics.mean(lite.act_trips), 2),
            "pg_round_trips_per_act": round(statistics.mean(pg.act_trips), 2),
            "pg_round_trips_per_act_p50": statistics.median(pg.act_trips),
            "sqlite_cpu_ms_per_act_bot": round(lite.cpu * 1000 / len(lite.times), 3),
            "pg_cpu_ms_per_act_bot_and_db": round((pg.cpu + pg.back) * 1000 / len(pg.times), 3),
            "pg_cpu_ms_per_act_db": round(pg.back * 1000 / len(pg.times), 3),
            **settings,
        }
        out["pg_vs_sqlite_act_p50"] = round(out["pg_act_p50_ms"] / out["sqlite_act_p50_ms"], 2)
        out["pg_vs_sqlite_act_p99"] = round(out["pg_act_p99_ms"] / out["sqlite_act_p99_ms"], 2)
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
