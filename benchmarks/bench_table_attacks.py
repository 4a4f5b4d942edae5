"""The live table as an attacker meets it (issue 34 §1), offline on 127.0.0.1.

Run: ``.venv/bin/python benchmarks/bench_table_attacks.py [--quick]`` (about 30 s;
``--quick`` fewer calls and a shorter slow-client watch). It runs on any version of the
table's server (the options a newer one takes are passed only where it has them), so
the same command measures before and after a change.

Set-up: the table's own :class:`bot.table.server.TableServer` on a real
:class:`bot.app.App` (a database in a temporary folder), signing in through the fake
Discord's OAuth2 (``tests/fake_discord.py``). Three Smartphone Inc. games in three
servers; ``eve`` signs in and sits in none of them, nor may she see their channels (where
the server asks Discord, the stand-in says no). Printed: a line per figure, then one
JSON object:

- ``outsider_reads_answered`` of ``outsider_reads``: ``/api/table`` (by game and by
  channel), ``/api/replay`` and ``/api/wait`` for each game, as eve; ``member_reads_answered``
  the same reads by a member who may see the channels (a bystander): these must stay 200;
- ``token_forwarded`` of ``token_requests``: quick ``/api/token`` calls (50 at a time,
  made-up codes) that reached the fake's OAuth2 token endpoint, ``token_429`` refused;
- ``wait_kib_per_1000_fake_ids``: memory kept (tracemalloc, after a collection) per
  1,000 ``/api/wait`` calls for game ids nobody has, and ``wait_events_left`` the
  waiter entries left behind (the per-user request limit is lifted for this part and
  the next);
- ``slow_open_after_s``: of ``slow_clients`` raw sockets dribbling a request one byte
  every 0.25 s (4 in the headers, 3 in a POST's body), those still open after
  ``slow_watch_s`` seconds;
- ``flood_open`` of ``flood``: idle connections from one address still open 1 s after
  they were made;
- ``disk_full_polite`` of ``disk_full_calls``: ``/api/act`` (a legal move) and
  ``/api/undo`` (of a move Undo takes back) answers while every write fails with SQLite's
  "database or disk is full", that are JSON with a sentence and the security headers;
- ``local_foreign_host_answered`` (a request to the local table with another Host
  header answered 200) and ``local_code_reuse_accepted`` (the link's code accepted by a
  second browser).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import json
import logging
import socket
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from bot.app import App  # noqa: E402
from bot.storage import Storage, Tx  # noqa: E402
from bot.table import server as table_server  # noqa: E402
from bot.table.config import TableConfig  # noqa: E402
from bot.table.server import TableServer  # noqa: E402
from engine import ai, get_game  # noqa: E402
from tests.fake_discord import FakeDiscord  # noqa: E402

HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


async def call(http: aiohttp.ClientSession, method: str, url: str, session: str = "", body: Any = None) -> tuple[int, Any, Any]:
    headers = {"Authorization": f"Bearer {session}"} if session else {}
    async with http.request(method, url, headers=headers, json=body) as resp:
        text = await resp.text()
        try:
            data = json.loads(text)
        except ValueError:
            data = text
        return resp.status, data, resp.headers


def note(what: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {what}", file=sys.stderr, flush=True)


def polite(status: int, data: Any, headers: Any) -> bool:
    return isinstance(data, dict) and bool(data.get("error") or data.get("message")) and all(h in headers for h in HEADERS)


async def sign_in(http: aiohttp.ClientSession, base: str, fake: FakeDiscord, user: dict[str, Any]) -> str:
    status, data, _ = await call(http, "POST", base + "/api/token", body={"code": fake.oauth_code(user)})
    assert status == 200, data
    return str(data["session"])


def still_open(sock: socket.socket) -> bool:
    try:
        data = sock.recv(4096, socket.MSG_DONTWAIT | socket.MSG_PEEK)
    except BlockingIOError:
        return True
    except OSError:
        return False
    return bool(data)  # b"": the server closed it (an answer waiting to be read: open)


async def slow_clients(port: int, watch: float, session: str) -> tuple[int, int]:
    """(sockets still open after ``watch`` s, sockets)."""
    loop = asyncio.get_running_loop()
    heads = [b"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 400 + b"\r\n\r\n"] * 4
    bodies = [
        b"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 900\r\n"
        + f"Authorization: Bearer {session}\r\n\r\n".encode()
    ] * 3
    socks: list[tuple[socket.socket, bytes, int]] = []
    for text in heads:
        socks.append((await connect(port), text, 0))
    for text in bodies:
        s = await connect(port)
        await loop.sock_sendall(s, text)
        socks.append((s, b"{" + b" " * 898 + b"}", 0))
    closed = [False] * len(socks)
    deadline = loop.time() + watch
    i = 0
    while loop.time() < deadline:
        for k, (s, text, _) in enumerate(socks):
            if closed[k]:
                continue
            try:
                s.send(text[i % len(text) : i % len(text) + 1])
            except OSError:
                closed[k] = True
        i += 1
        await asyncio.sleep(0.25)
    open_ = sum(1 for k, (s, _t, _i) in enumerate(socks) if not closed[k] and still_open(s))
    for s, _t, _i in socks:
        s.close()
    return open_, len(socks)


async def connect(port: int) -> socket.socket:
    """A raw non-blocking socket connected to the table (the server runs on this loop)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        await asyncio.wait_for(asyncio.get_running_loop().sock_connect(s, ("127.0.0.1", port)), 2.0)
    except BaseException:
        s.close()
        raise
    return s


async def flood(port: int, n: int) -> int:
    socks = []
    for _ in range(n):
        try:
            socks.append(await connect(port))
        except (OSError, TimeoutError):
            continue
    await asyncio.sleep(1.0)
    open_ = sum(1 for s in socks if still_open(s))
    for s in socks:
        s.close()
    return open_


async def run(quick: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    tmp = tempfile.mkdtemp(prefix="bench-attacks-")
    async with FakeDiscord() as fake:
        ann, bob, eve, mia = (fake.add_member(n) for n in ("ann", "bob", "eve", "mia"))
        storage = await Storage.open(Path(tmp) / "table.db")
        app = App(storage, clock=time.time, seed_source=lambda: 7)
        games, channels = [], []
        for k in range(3):
            channel = 9100 + k
            info = await app.create_game("smartphone-inc", channel_id=channel, host_id=int(ann["id"]), host_name="ann")
            await app.join(info.id, int(bob["id"]), "bob")
            await app.start(info.id, int(ann["id"]))
            games.append(info.id)
            channels.append(channel)
        config = TableConfig(port=0, client_id=fake.application_id, client_secret=fake.client_secret)
        kwargs: dict[str, Any] = {"api_base": lambda: f"http://127.0.0.1:{fake.port}/api/v10"}
        params = inspect.signature(TableServer).parameters

        async def can_see(user_id: int, guild_id: int | None, place_id: int) -> bool:
            return user_id == int(mia["id"])  # mia sees the channels; eve is of another server

        if "can_see" in params:
            kwargs["can_see"] = can_see
        srv = TableServer(app, config, **kwargs)
        port = await srv.start()
        base = f"http://127.0.0.1:{port}"
        try:
            async with aiohttp.ClientSession() as http:
                eve_s = await sign_in(http, base, fake, eve)
                mia_s = await sign_in(http, base, fake, mia)
                ann_s = await sign_in(http, base, fake, ann)
                bob_s = await sign_in(http, base, fake, bob)
                slow_s = await sign_in(http, base, fake, eve)
                waiters = [eve_s] + [await sign_in(http, base, fake, fake.add_member(f"w{k}")) for k in range(3)]

                async def reads(session: str) -> tuple[int, int]:
                    answered = total = 0
                    for gid, channel in zip(games, channels, strict=True):
                        for path in (f"/api/table?game={gid}", f"/api/table?channel={channel}",
                                     f"/api/replay?game={gid}&step=0", f"/api/wait?game={gid}&after=-1"):
                            status, _d, _h = await call(http, "GET", base + path, session)
                            total += 1
                            answered += status == 200
                    return answered, total

                out["outsider_reads_answered"], out["outsider_reads"] = await reads(eve_s)
                out["member_reads_answered"], _ = await reads(mia_s)

                note("/api/token")
                # -- /api/token
                before = sum(1 for r in fake.requests if r.path == "/oauth2/token")
                n_token = 300
                statuses: list[int] = []
                for start in range(0, n_token, 50):
                    batch = [call(http, "POST", base + "/api/token", body={"code": f"code-made-up-{start + i}"}) for i in range(50)]
                    statuses += [s for s, _d, _h in await asyncio.gather(*batch)]
                out["token_requests"] = n_token
                out["token_forwarded"] = sum(1 for r in fake.requests if r.path == "/oauth2/token") - before
                out["token_429"] = statuses.count(429)

                note("/api/wait for made-up ids")
                # -- /api/wait for made-up ids (the per-user request limit lifted)
                srv.limits = table_server.RateLimit(rate=1e9, burst=1e9)
                n_wait = 2_000 if quick else 10_000

                async def waits(first: int, count: int) -> None:
                    # 4 at a time per user (the cap on open long-polls of the old server)
                    sems = [(asyncio.Semaphore(4), who) for who in waiters]

                    async def one(i: int) -> None:
                        sem, who = sems[i % len(sems)]
                        async with sem:
                            await call(http, "GET", base + f"/api/wait?game={first + i}&after=0", who)

                    await asyncio.gather(*(one(i) for i in range(count)))

                await waits(5_000_000, 200)  # warm-up: pools, caches
                gc.collect()
                tracemalloc.start(4)
                first = tracemalloc.take_snapshot()
                await waits(1_000_000, n_wait)
                gc.collect()
                last = tracemalloc.take_snapshot()
                tracemalloc.stop()
                # what the table's code allocated and still holds (the client's and
                # aiohttp's own churn left out: a trace counts if a frame is in bot/table/,
                # but not the HTTP parser's bounded caches, reached through guard.py's
                # protocol where there is one)
                table_only = [
                    tracemalloc.Filter(True, str(ROOT / "bot" / "table" / "*"), all_frames=True),
                    tracemalloc.Filter(False, str(ROOT / "bot" / "table" / "guard.py"), all_frames=True),
                ]
                grown = sum(d.size_diff for d in last.filter_traces(table_only).compare_to(first.filter_traces(table_only), "filename"))
                out["wait_calls"] = n_wait
                out["wait_kib_per_1000_fake_ids"] = round(grown / 1024 / (n_wait / 1000), 1)
                events = getattr(srv.live, "_events", {})
                out["wait_events_left"] = len(events)

                note("a full disk")
                # -- a full disk
                real = Tx._flush
                gid = games[1]
                sessions = {"ann": ann_s, "bob": bob_s}
                users = {"ann": ann, "bob": bob}
                for seat in ("ann", "bob", "ann"):  # both plan, then ann's first Improvement: Undo takes it back
                    state = await app.state(gid)
                    move = ai.choose("smartphone-inc", state, seat, "greedy")
                    await app.act(gid, int(users[seat]["id"]), seat, move, int(state["version"]))
                mover = sorted(get_game("smartphone-inc").pending(await app.state(gid)))[0]

                async def disk_full(self: Any) -> None:  # every write transaction, as SQLite says it
                    if self._queued:
                        raise sqlite3.OperationalError("database or disk is full")

                Tx._flush = disk_full  # type: ignore[method-assign]
                try:
                    polite_n = calls = 0
                    n_act, n_undo = (15, 5) if quick else (75, 25)
                    status, table, _ = await call(http, "GET", base + f"/api/table?game={gid}", sessions[mover])
                    action = table["actions"][0]["action"]
                    for _ in range(n_act):
                        r = await call(http, "POST", base + "/api/act", sessions[mover],
                                       {"game": gid, "action": action, "version": table["version"]})
                        calls += 1
                        polite_n += polite(*r)
                    for _ in range(n_undo):  # ann's Improvement, placed before the disk filled
                        r = await call(http, "POST", base + "/api/undo", ann_s, {"game": gid})
                        calls += 1
                        polite_n += polite(*r)
                    out["disk_full_calls"], out["disk_full_polite"] = calls, polite_n
                finally:
                    Tx._flush = real  # type: ignore[method-assign]
                    srv.limits = table_server.RateLimit()
            note("slow clients and a flood")
            # -- slow clients and a flood of connections
            watch = 11.5 if quick else 14.0
            out["slow_open_after_s"], out["slow_clients"] = await slow_clients(port, watch, slow_s)
            out["slow_watch_s"] = watch
            out["flood"] = 300
            out["flood_open"] = await flood(port, 300)
        finally:
            await srv.stop()
            await storage.close()
    out.update(await local_table(tmp))
    return out


async def local_table(tmp: str) -> dict[str, Any]:
    from bot.table.local import serve_local

    seen: dict[str, Any] = {}
    stop = asyncio.Event()
    task = asyncio.create_task(serve_local("smartphone-inc", 0, players=2, seed=5, db=Path(tmp) / "local.db",
                                           echo=lambda _l: None, ready=lambda s, i, u: seen.update(url=u), stop=stop))
    try:
        for _ in range(400):
            if seen:
                break
            await asyncio.sleep(0.05)
        base = seen["url"].split("/#")[0]
        code = seen["url"].split("#code=")[1].split("&")[0]
        port = base.rsplit(":", 1)[1]
        async with aiohttp.ClientSession() as http:
            async with http.get(base + "/api/config", headers={"Host": f"rebound.example:{port}"}) as resp:
                foreign = resp.status == 200
        async with aiohttp.ClientSession() as first:
            async with first.post(base + "/api/token", json={"code": code}) as resp:
                assert resp.status == 200, await resp.text()
        async with aiohttp.ClientSession() as second:
            async with second.post(base + "/api/token", json={"code": code}) as resp:
                reused = resp.status == 200
    finally:
        stop.set()
        await task
    return {"local_foreign_host_answered": int(foreign), "local_code_reuse_accepted": int(reused)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls, a shorter watch of the slow clients")
    args = parser.parse_args()
    logging.getLogger().addHandler(logging.NullHandler())  # the servers' error lines: not this report
    started = time.monotonic()
    out = asyncio.run(run(args.quick))
    out["seconds"] = round(time.monotonic() - started, 1)
    for key, value in out.items():
        print(f"{key:32} {value}")
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
