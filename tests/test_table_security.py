"""Issue 34 §1: the live table as an attacker or a slow network meets it. A game answers
only its players and the members who can see its channel (404 to anyone else, as for no
game); sign-in, long-polls and connections are bounded; slow clients are cut; a full
disk or a damaged record gets a polite JSON answer with the headers; the local table
answers only its own address and spends its link's code once."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import sqlite3
import time
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest

from bot import errors
from bot.app import App
from bot.cogs.table import discord_can_see
from bot.storage import Storage, Tx
from bot.table import server as table_server
from bot.table.access import Access
from bot.table.config import TableConfig
from bot.table.guard import Limits
from bot.table.server import TableServer
from engine import ai, get_game
from tests.discord_support import running
from tests.fake_discord import Failure, FakeDiscord
from tests.test_table_server import CHANNEL, Client, FakeChannel, world

__all__ = ["world"]

HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")
VIEW_CHANNEL = 1 << 10


def assert_polite(status: int, data: Any, headers: Any) -> None:
    assert isinstance(data, dict) and isinstance(data.get("error"), str) and data["error"], (status, data)
    assert "Traceback" not in data["error"] and "Error" not in data["error"], data
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"
    assert "frame-ancestors" in headers["Content-Security-Policy"]
    assert headers["Content-Type"].startswith("application/json")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- who sees a game --------------------------------------------------------------------


def every_read_and_write(gid: int) -> list[tuple[str, str, Any]]:
    return [
        ("GET", f"/api/table?game={gid}", None),
        ("GET", f"/api/wait?game={gid}&after=-1", None),
        ("GET", f"/api/replay?game={gid}&step=0", None),
        ("GET", f"/api/board.svg?game={gid}", None),
        ("GET", f"/api/mine.svg?game={gid}", None),
        ("GET", f"/api/replay.svg?game={gid}&step=0", None),
        ("GET", f"/api/reveal?game={gid}&since=0", None),
        ("POST", "/api/draft", {"game": gid, "draft": {"x": 1}}),
        ("POST", "/api/act", {"game": gid, "action": {"type": "plan"}, "version": 0}),
        ("POST", "/api/undo", {"game": gid}),
        ("POST", "/api/preview", {"game": gid, "action": {}}),
    ]


async def test_an_outsider_gets_from_every_endpoint_what_a_game_nobody_has_gets(world: dict[str, Any]) -> None:
    fake: FakeDiscord = world["fake"]
    channel: FakeChannel = world["channel"]
    dave = Client(world["anon"].http, world["anon"].base)  # signed in, sits nowhere, cannot see the channel
    dave_user = fake.add_member("dave")
    await dave.sign_in(fake.oauth_code(dave_user))
    gid = world["game"]
    nobody = gid + 1000
    for (method, path, body), (_m, other, other_body) in zip(every_read_and_write(gid), every_read_and_write(nobody), strict=True):
        status, data, headers = await dave.call(method, path, body)
        assert status == 404, (path, data)
        missing = await dave.call(method, other, other_body)
        assert missing[0] == 404 and data == json.loads(json.dumps(missing[1]).replace(str(nobody), str(gid))), (data, missing[1])
        assert_polite(status, data, headers)
    # by channel too: "no game here", word for word what an empty channel answers
    here = await dave.call("GET", f"/api/table?channel={CHANNEL}")
    empty = await dave.call("GET", "/api/table?channel=999")
    assert here[0] == empty[0] == 404 and here[1] == empty[1]
    assert world["server"].live.games == 0  # no waiter was made for him
    assert int(dave_user["id"]) in {uid for uid, _g, _p in channel.asked}  # Discord was asked about him


async def test_a_member_who_sees_the_channel_gets_the_public_view_and_cannot_act(world: dict[str, Any]) -> None:
    carl: Client = world["carl"]
    status, t, _ = await carl.call("GET", f"/api/table?game={world['game']}")
    assert status == 200 and t["you"] is None and t["actions"] == [] and t["view"] == await world["app"].view(world["game"], None)
    status, data, _ = await carl.call("POST", "/api/act", {"game": world["game"], "action": {"type": "plan"}, "version": t["version"]})
    assert status == 403


async def test_discords_answer_is_kept_a_minute_and_asked_again_after() -> None:
    clock = Clock()
    asked: list[int] = []
    answers = {7: True, 8: False}

    async def can_see(user_id: int, guild_id: int | None, place_id: int) -> bool:
        asked.append(user_id)
        return answers[user_id]

    access = Access(can_see, ttl=60, clock=clock)

    class Info:
        id, guild_id, place_id = 1, 5, 6

        def seat_of(self, user_id: int) -> Any:
            return object() if user_id == 9 else None

    info: Any = Info()
    assert await access.allows(info, 9) and asked == []  # a seated player: no question
    assert await access.allows(info, 7) and not await access.allows(info, 8)
    assert await access.allows(info, 7) and not await access.allows(info, 8)
    assert asked == [7, 8]
    answers[7] = False  # 7 lost the channel
    clock.now += 61
    assert not await access.allows(info, 7) and asked == [7, 8, 7]

    async def broken(user_id: int, guild_id: int | None, place_id: int) -> bool:
        raise OSError("Discord unreachable")

    assert not await Access(broken).allows(info, 7)  # an error is a no
    assert not await Access(None).allows(info, 7)  # no way to ask: players only


async def test_through_the_bot_a_user_of_another_server_or_without_the_channel_gets_404(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        ann, mia, carl = fake.add_member("ann"), fake.add_member("mia"), fake.add_member("carl")
        games = fake.channels[fake.channel_id]
        games["permission_overwrites"] = [{"id": carl["id"], "type": 1, "allow": "0", "deny": str(VIEW_CHANNEL)}]
        config = TableConfig(port=0, client_id=fake.application_id, client_secret=fake.client_secret)
        async with running(fake, str(tmp_path / "bot.db"), renderer=None, table=config) as bot:
            zed = fake._make_user("zed")  # of another server: Discord knows no member zed here
            fake.users[zed["id"]] = zed
            fake.fail("GET", f"/guilds/{fake.guild_id}/members/{zed['id']}", Failure(404, 10007, "Unknown Member"), times=None)
            await fake.slash(ann, "game new", {"game": "smartphone-inc"})
            info = await bot.app.game_in_channel(int(fake.channel_id))
            assert info is not None and info.guild_id == int(fake.guild_id)
            gid = info.id
            assert await discord_can_see(bot, int(mia["id"]), info.guild_id, info.place_id)
            assert not await discord_can_see(bot, int(carl["id"]), info.guild_id, info.place_id)
            assert not await discord_can_see(bot, int(zed["id"]), info.guild_id, info.place_id)
            assert not await discord_can_see(bot, int(mia["id"]), None, info.place_id)
            assert not await discord_can_see(bot, int(mia["id"]), 12345, info.place_id)  # a server the bot is not in
            port = bot.get_cog("Table").server.port
            async with aiohttp.ClientSession() as http:
                seen = {}
                for name, user in (("ann", ann), ("mia", mia), ("carl", carl), ("zed", zed)):
                    c = Client(http, f"http://127.0.0.1:{port}")
                    await c.sign_in(fake.oauth_code(user))
                    seen[name] = [(await c.call(m, p, b))[0] for m, p, b in every_read_and_write(gid)[:3]]
                    seen[name].append((await c.call("GET", f"/api/table?channel={fake.channel_id}"))[0])
            assert seen["ann"][0] == 200 and seen["mia"][0] == 200  # the host; a member who sees the channel
            assert seen["carl"] == [404] * 4 and seen["zed"] == [404] * 4, seen


# -- sign-in ----------------------------------------------------------------------------


@pytest.fixture
async def bare(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """A table on an app with one started game, a settable clock and limits to set."""
    async with FakeDiscord() as fake:
        ann, bob = fake.add_member("ann"), fake.add_member("bob")
        storage = await Storage.open(tmp_path / "t.db")
        app = App(storage, clock=time.time, seed_source=lambda: 7)
        info = await app.create_game("smartphone-inc", channel_id=CHANNEL, host_id=int(ann["id"]), host_name="ann")
        await app.join(info.id, int(bob["id"]), "bob")
        await app.start(info.id, int(ann["id"]))
        servers: list[TableServer] = []

        async def serve(limits: Limits | None = None, clock: Clock | None = None, app_: App | None = None) -> str:
            config = TableConfig(port=0, client_id=fake.application_id, client_secret=fake.client_secret)
            srv = TableServer(app_ or app, config, api_base=lambda: f"http://127.0.0.1:{fake.port}/api/v10",
                              clock=clock or time.monotonic, limits=limits)
            servers.append(srv)
            return f"http://127.0.0.1:{await srv.start()}"

        try:
            yield {"fake": fake, "app": app, "storage": storage, "serve": serve, "servers": servers, "game": info.id,
                   "ann": ann, "bob": bob}
        finally:
            for s in servers:
                await s.stop()
            await storage.close()


def forwarded(fake: FakeDiscord) -> int:
    return sum(1 for r in fake.requests if r.path == "/oauth2/token")


async def token_storm(base: str, n: int, source: str = "127.0.0.1") -> list[tuple[int, Any, Any]]:
    connector = aiohttp.TCPConnector(local_addr=(source, 0), limit=16)
    async with aiohttp.ClientSession(connector=connector) as http:
        c = Client(http, base)
        return list(await asyncio.gather(*(c.call("POST", "/api/token", {"code": f"made-up-{i}"}) for i in range(n))))


async def test_300_quick_sign_ins_reach_discord_at_most_at_the_set_rate(bare: dict[str, Any]) -> None:
    fake: FakeDiscord = bare["fake"]
    clock = Clock()
    limits = Limits(token_rate=1.0, token_burst=20, token_rate_per_address=0.2, token_burst_per_address=10)
    base = await bare["serve"](limits, clock)
    answers = await token_storm(base, 300)
    assert forwarded(fake) == 10  # the address's burst; the rest refused before Discord
    refused = [a for a in answers if a[0] == 429]
    assert len(refused) == 290 and all(int(h["Retry-After"]) >= 1 for _s, _d, h in refused)
    assert_polite(*refused[0])
    assert sum(a[0] == 401 for a in answers) == 10  # the made-up codes Discord refused
    await token_storm(base, 300, "127.0.0.2")  # another address: its own burst
    assert forwarded(fake) == 20
    await token_storm(base, 300, "127.0.0.3")  # overall: the burst of all addresses is spent
    assert forwarded(fake) == 20
    clock.now += 10  # 10 s later: 10 more overall, 2 per address
    await token_storm(base, 300, "127.0.0.1")
    assert forwarded(fake) == 22
    await token_storm(base, 300, "127.0.0.4")
    assert forwarded(fake) == 30  # overall rate: burst + 1 a second, whoever asks


async def test_exchanges_in_flight_are_capped(bare: dict[str, Any]) -> None:
    fake: FakeDiscord = bare["fake"]
    base = await bare["serve"](Limits(token_concurrent=2, token_burst_per_address=100, token_burst=100))
    fake.slow("POST", "/oauth2/token", 1.0, times=None)
    answers = await token_storm(base, 6)
    assert sorted(a[0] for a in answers) == [401, 401, 429, 429, 429, 429]
    assert forwarded(fake) == 2


# -- long-polls -------------------------------------------------------------------------


async def test_10000_waits_for_made_up_games_leave_no_waiter_and_no_memory(world: dict[str, Any]) -> None:
    srv: TableServer = world["server"]
    srv.limits = table_server.RateLimit(rate=1e9, burst=1e9)
    auth = {"Authorization": f"Bearer {world['carl'].session}"}

    async def wait(gid: int) -> int:  # the handler itself (all it reads of a request: headers, query)
        request: Any = SimpleNamespace(headers=auth, query={"game": str(gid), "after": "0"})
        return (await srv.api_wait(request)).status

    statuses = [await wait(10**6 + i) for i in range(10_000)]
    assert statuses == [404] * 10_000
    assert srv.live.games == 0 and srv.live.waiting == 0 and srv._waiters == 0 and srv._waiting == {}
    # and the memory the table's code holds, over 2,000 more (tracemalloc is slow)
    gc.collect()
    tracemalloc.start(2)
    first = tracemalloc.take_snapshot()
    statuses = [await wait(2 * 10**6 + i) for i in range(2_000)]
    gc.collect()
    last = tracemalloc.take_snapshot()
    tracemalloc.stop()
    table = [tracemalloc.Filter(True, str(Path(table_server.__file__).parent / "*"), all_frames=True)]
    grown = sum(d.size_diff for d in last.filter_traces(table).compare_to(first.filter_traces(table), "filename"))
    assert statuses == [404] * 2_000
    assert grown < 32 * 1024, grown  # the old table kept ~930 bytes a made-up id: 1.8 MB here


async def test_waiters_are_bounded_per_user_and_overall(world: dict[str, Any]) -> None:
    srv: TableServer = world["server"]
    srv.bounds = Limits(waiters_per_user=2, waiters=3)
    version = (await world["app"].info(world["game"])).version
    path = f"/api/wait?game={world['game']}&after={version}"
    ann, bob, carl = world["ann"], world["bob"], world["carl"]
    held = [asyncio.create_task(c.call("GET", path)) for c in (ann, ann)]
    for _ in range(500):
        if srv.live.waiting == 2:
            break
        await asyncio.sleep(0.01)
    status, data, headers = await ann.call("GET", path)  # a third tab of ann's
    assert status == 429 and int(headers["Retry-After"]) >= 1
    held.append(asyncio.create_task(bob.call("GET", path)))
    for _ in range(500):
        if srv.live.waiting == 3:
            break
        await asyncio.sleep(0.01)
    status, data, headers = await carl.call("GET", path)  # over the overall bound
    assert status == 429 and data["error"]
    app: App = world["app"]
    legal = await app.legal_actions(world["game"], "bob")
    await app.act(world["game"], int(world["users"]["bob"]["id"]), "bob", legal[0], version)
    assert [r[0] for r in await asyncio.wait_for(asyncio.gather(*held), 5)] == [200, 200, 200]
    assert srv.live.games == 0 and srv._waiters == 0


# -- slow and many clients --------------------------------------------------------------


async def closed_within(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, dribble: bytes, bound: float = 5.0) -> tuple[bool, bytes]:
    """Send ``dribble`` a byte every 50 ms until the server closes (True, what it said),
    or ``bound`` seconds pass (False)."""
    got = b""
    loop = asyncio.get_running_loop()
    end = loop.time() + bound
    i = 0
    while loop.time() < end:
        try:
            chunk = await asyncio.wait_for(reader.read(4096), 0.05)
        except TimeoutError:
            chunk = None
        except ConnectionError:
            return True, got
        if chunk == b"":
            return True, got
        if chunk:
            got += chunk
            continue
        try:
            writer.write(dribble[i % len(dribble) : i % len(dribble) + 1])
            await writer.drain()
        except ConnectionError:
            return True, got
        i += 1
    return False, got


async def test_slow_clients_are_cut_and_connections_capped(bare: dict[str, Any]) -> None:
    # the head's deadline well before the idle one (as the bot's: 10 s, 15 s): aiohttp arms
    # its idle timer as a connection opens, just before ours, and at equal times a busy loop
    # ran it first (run 10 of 10: the connection closed as idle, not cut)
    limits = Limits(head_timeout=0.4, body_timeout=0.4, keepalive_timeout=1.2, connections_per_address=4, connections=6)
    base = await bare["serve"](limits)
    port = int(base.rsplit(":", 1)[1])
    srv: TableServer = bare["servers"][0]
    async with aiohttp.ClientSession() as http:
        c = Client(http, base)
        await c.sign_in(bare["fake"].oauth_code(bare["ann"]))
    # headers dribbled a byte at a time
    r, w = await asyncio.open_connection("127.0.0.1", port)
    cut, said = await closed_within(r, w, b"GET /api/config HTTP/1.1\r\nX-Slow: " + b"a" * 500)
    w.close()
    assert cut and said == b"" and srv.connections.cut >= 1
    # a body dribbled a byte at a time: 408 in words, then closed
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"POST /api/act HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n"
            + f"Authorization: Bearer {c.session}\r\n\r\n".encode())
    cut, said = await closed_within(r, w, b"{" + b" " * 398 + b"}")
    w.close()
    assert cut and said.startswith(b"HTTP/1.1 408") and b'"error"' in said and b"nosniff" in said
    # an idle kept-alive connection is closed
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"GET /api/config HTTP/1.1\r\nHost: x\r\n\r\n")
    first = await asyncio.wait_for(r.read(1024), 5)
    assert first.startswith(b"HTTP/1.1 200")
    rest = await asyncio.wait_for(r.read(), 5)  # EOF when the server closes it
    w.close()
    assert b"HTTP/1.1" not in rest
    # caps: 4 from one address, 6 in all (on a server that waits longer for heads: the
    # connections are served one after the other)
    base = await bare["serve"](Limits(head_timeout=30, connections_per_address=4, connections=6))
    port = int(base.rsplit(":", 1)[1])
    srv = bare["servers"][1]
    opened = []
    for source in ["127.0.0.1"] * 5 + ["127.0.0.2"] * 3:
        opened.append(await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)))
    await asyncio.sleep(0.05)
    alive = []
    for r, w in opened:
        w.write(b"GET /api/config HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        try:
            answer = await asyncio.wait_for(r.read(), 5)
        except ConnectionError:
            answer = b""
        alive.append(answer.startswith(b"HTTP/1.1 200"))
        w.close()
    assert alive == [True] * 4 + [False] + [True] * 2 + [False], alive
    assert srv.connections.total == 0 or srv.connections.total <= 6
    async with aiohttp.ClientSession() as http:  # once they are gone, a normal caller is served
        assert (await Client(http, base).call("GET", "/api/config"))[0] == 200


# -- storage faults ---------------------------------------------------------------------


async def test_a_full_disk_answers_act_and_undo_in_words_with_the_headers_and_logs_once(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert table_server.CANNOT_SAVE == errors.CANNOT_SAVE  # what Discord says in the same case
    app: App = world["app"]
    gid = world["game"]
    for seat in ("ann", "bob", "ann"):  # both plan, then ann's first Improvement: a move Undo takes back
        state = await app.state(gid)
        uid = int(world["users"][seat]["id"])
        await app.act(gid, uid, seat, ai.choose("smartphone-inc", state, seat, "greedy"), int(state["version"]))
    assert await app.can_undo(gid, "ann")
    before = (await app.info(gid)).version
    mover = sorted(get_game("smartphone-inc").pending(await app.state(gid)))[0]
    ann: Client = world["ann"]
    t = (await world[mover].call("GET", f"/api/table?game={gid}"))[1]

    async def disk_full(self: Tx) -> None:
        if self._queued:
            raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Tx, "_flush", disk_full)
    caplog.set_level(logging.INFO)
    for _ in range(3):
        answer = await world[mover].call("POST", "/api/act", {"game": gid, "action": t["actions"][0]["action"], "version": t["version"]})
        assert answer[0] == 503 and answer[1]["error"] == errors.CANNOT_SAVE and int(answer[2]["Retry-After"]) >= 1
        assert_polite(*answer)
        answer = await ann.call("POST", "/api/undo", {"game": world["game"]})
        assert answer[0] == 503 and answer[1].get("error") == errors.CANNOT_SAVE, answer[1]
        assert_polite(*answer)
    problems = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(problems) == 1 and "disk is full" in problems[0].getMessage(), [r.getMessage() for r in problems]
    monkeypatch.undo()
    assert (await app.info(gid)).version == before and await app.can_undo(gid, "ann")  # nothing recorded, nothing taken back


async def test_a_damaged_record_answers_table_and_replay_in_words_with_the_headers(
    bare: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    app: App = bare["app"]
    gid = bare["game"]
    legal = await app.legal_actions(gid, "ann")
    await app.act(gid, int(bare["ann"]["id"]), "ann", legal[0], 0)
    storage: Storage = bare["storage"]
    async with storage.transaction() as tx:
        await tx.conn.execute("DROP TRIGGER actions_append_only")
        await tx.conn.execute("UPDATE actions SET action = '{not json' WHERE game_id = ?", (gid,))
        await tx.conn.execute("DELETE FROM snapshots WHERE game_id = ? AND version > 0", (gid,))
    fresh = App(storage, clock=time.time, seed_source=lambda: 7)  # nothing of the game kept in memory
    base = await bare["serve"](app_=fresh)
    caplog.set_level(logging.INFO)
    async with aiohttp.ClientSession() as http:
        c = Client(http, base)
        await c.sign_in(bare["fake"].oauth_code(bare["ann"]))
        for path in (f"/api/replay?game={gid}&step=1", f"/api/table?game={gid}"):
            caplog.clear()
            answer = await c.call("GET", path)
            assert answer[0] == 409 and "damaged" in answer[1]["error"], answer
            assert_polite(*answer)
            causes = [r for r in caplog.records if r.levelno >= logging.ERROR and "damaged" in r.getMessage()]
            assert len(causes) == 1, [r.getMessage() for r in caplog.records]


async def test_any_other_failure_is_a_sentence_with_the_headers_and_one_log_line(
    world: dict[str, Any], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(table_server, "table_payload", broken)
    caplog.set_level(logging.INFO)
    answer = await world["ann"].call("GET", f"/api/table?game={world['game']}")
    assert answer[0] == 500 and answer[1]["error"] == table_server.BROKEN
    assert_polite(*answer)
    logged = [r for r in caplog.records if r.exc_info]
    assert len(logged) == 1 and "boom" in str(logged[0].exc_info[1])


# -- the local table --------------------------------------------------------------------


async def test_the_local_table_answers_only_its_own_address_and_its_code_signs_in_once(tmp_path: Path) -> None:
    from bot.table.local import serve_local

    seen: dict[str, Any] = {}
    stop = asyncio.Event()
    task = asyncio.create_task(serve_local("smartphone-inc", 0, players=2, seed=5, db=tmp_path / "l.db",
                                           echo=lambda _l: None, ready=lambda s, i, u: seen.update(url=u, info=i), stop=stop))
    try:
        for _ in range(400):
            if seen:
                break
            await asyncio.sleep(0.02)
        base = seen["url"].split("/#")[0]
        code = seen["url"].split("#code=")[1].split("&")[0]
        port = base.rsplit(":", 1)[1]
        async with aiohttp.ClientSession() as http:
            for host in (f"rebound.example:{port}", "127.0.0.1:1", f"127.0.0.1.evil:{port}", ""):
                async with http.get(base + "/api/config", headers={"Host": host}) as resp:
                    data = await resp.json()
                    assert 400 <= resp.status < 500 and data["error"], (host, resp.status)
                    assert resp.headers["X-Content-Type-Options"] == "nosniff"
            for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
                async with http.get(base + "/api/config", headers={"Host": host}) as resp:
                    assert resp.status == 200
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as first:
            async with first.post(base + "/api/token", json={"code": code}) as resp:
                assert resp.status == 200
                cookie = resp.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
            async with aiohttp.ClientSession() as second:  # another browser, the same link
                async with second.post(base + "/api/token", json={"code": code}) as resp:
                    assert resp.status == 401 and "used already" in (await resp.json())["error"]
                async with second.post(base + "/api/token", json={"code": code}, headers={"Cookie": "boardroom_table=guess"}) as resp:
                    assert resp.status == 401
            # the first browser, reloaded: its cookie signs it in again
            async with first.post(base + "/api/token", json={"code": code}) as resp:
                assert resp.status == 200
                session = (await resp.json())["session"]
            async with first.get(base + f"/api/table?game={seen['info'].id}", headers={"Authorization": f"Bearer {session}"}) as resp:
                assert resp.status == 200 and (await resp.json())["you"]
    finally:
        stop.set()
        await task


async def test_behind_a_proxy_the_sign_in_limit_counts_by_the_configured_header(bare: dict[str, Any]) -> None:
    fake: FakeDiscord = bare["fake"]
    config = TableConfig(port=0, client_id=fake.application_id, client_secret=fake.client_secret, client_ip_header="X-Forwarded-For")
    srv = TableServer(bare["app"], config, api_base=lambda: f"http://127.0.0.1:{fake.port}/api/v10", clock=Clock(),
                      limits=Limits(token_burst_per_address=2, token_burst=100))
    bare["servers"].append(srv)
    base = f"http://127.0.0.1:{await srv.start()}"
    async with aiohttp.ClientSession() as http:
        for who in ("10.0.0.1", "10.0.0.2"):
            for _ in range(4):  # a client's own header cannot dodge the limit: the proxy's entry counts
                headers = {"X-Forwarded-For": f"1.2.3.{_}, {who}"}
                async with http.post(base + "/api/token", json={"code": "made-up"}, headers=headers) as resp:
                    await resp.read()
    assert forwarded(fake) == 4  # 2 for each address the proxy saw
    assert TableConfig.from_env({"BOARDROOM_TABLE_PORT": "1", "DISCORD_CLIENT_ID": "1", "DISCORD_CLIENT_SECRET": "s",
                                 "BOARDROOM_TABLE_CLIENT_IP_HEADER": "X-Real-IP"}).client_ip_header == "X-Real-IP"  # type: ignore[union-attr]


async def test_a_request_aiohttp_cannot_read_is_answered_in_json_with_the_headers(world: dict[str, Any]) -> None:
    r, w = await asyncio.open_connection("127.0.0.1", world["port"])
    w.write(b"GET /api/config HTTP/1.1\r\nBad Header Without Colon\r\n\r\n")
    answer = await asyncio.wait_for(r.read(), 5)
    w.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0].endswith(b" 400 Bad Request") and b"nosniff" in head and b"frame-ancestors" in head, head
    assert json.loads(body)["error"]
