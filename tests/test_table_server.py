"""The live table's HTTP API without a browser: sign-in through the fake Discord's OAuth2
(the bot's own API base), the caller's own seat only, versions (stale, double), limits
and headers, live updates, and no token in any log line."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import App
from bot.storage import Storage
from bot.table import server as table_server
from bot.table.config import TableConfig
from bot.table.server import TableServer
from tests.fake_discord import FakeDiscord

CHANNEL = 5150


class Client:
    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http, self.base, self.session = http, base, ""

    async def call(self, method: str, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any, Any]:
        headers = {"Authorization": f"Bearer {self.session}"} if self.session else {}
        kw: dict[str, Any] = {"headers": headers}
        if raw is not None:
            kw["data"] = raw
            headers["Content-Type"] = "application/json"
        elif body is not None:
            kw["json"] = body
        async with self.http.request(method, self.base + path, **kw) as resp:
            text = await resp.text()
            try:
                data = json.loads(text)
            except ValueError:
                data = text
            return resp.status, data, resp.headers

    async def sign_in(self, code: str) -> dict[str, Any]:
        status, data, _ = await self.call("POST", "/api/token", {"code": code})
        assert status == 200, data
        self.session = data["session"]
        return data


class FakeChannel:
    """Discord's answer to "may this user see the game's channel": the members in
    ``seers`` see channel ``CHANNEL`` (of no guild: the games here have none); every
    question asked is recorded."""

    def __init__(self, seers: set[int]) -> None:
        self.seers = seers
        self.asked: list[tuple[int, int | None, int]] = []

    async def can_see(self, user_id: int, guild_id: int | None, place_id: int) -> bool:
        self.asked.append((user_id, guild_id, place_id))
        return user_id in self.seers and place_id == CHANNEL


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    async with FakeDiscord() as fake:
        ann, bob, carl = fake.add_member("ann"), fake.add_member("bob"), fake.add_member("carl")
        storage = await Storage.open(tmp_path / "table.db")
        app = App(storage, clock=time.time, seed_source=lambda: 7)
        info = await app.create_game("smartphone-inc", channel_id=CHANNEL, host_id=int(ann["id"]), host_name="ann")
        await app.join(info.id, int(bob["id"]), "bob")
        await app.start(info.id, int(ann["id"]))
        config = TableConfig(port=0, client_id=fake.application_id, client_secret=fake.client_secret)
        channel = FakeChannel({int(u["id"]) for u in (ann, bob, carl)})  # carl sees the channel, sits in no seat
        srv = TableServer(app, config, api_base=lambda: f"http://127.0.0.1:{fake.port}/api/v10", can_see=channel.can_see)
        port = await srv.start()
        async with aiohttp.ClientSession() as http:
            clients = {}
            for name, user in (("ann", ann), ("bob", bob), ("carl", carl)):
                c = Client(http, f"http://127.0.0.1:{port}")
                await c.sign_in(fake.oauth_code(user))
                clients[name] = c
            yield {"fake": fake, "app": app, "server": srv, "game": info.id, "users": {"ann": ann, "bob": bob, "carl": carl},
                   **clients, "anon": Client(http, f"http://127.0.0.1:{port}"), "channel": channel, "port": port}
        await srv.stop()
        await storage.close()


async def table_of(c: Client) -> dict[str, Any]:
    status, data, _ = await c.call("GET", f"/api/table?channel={CHANNEL}")
    assert status == 200, data
    return data  # type: ignore[no-any-return]


async def test_sign_in_goes_through_the_bots_api_base_and_a_code_works_once(world: dict[str, Any]) -> None:
    fake: FakeDiscord = world["fake"]
    exchanges = [r for r in fake.requests if r.path == "/oauth2/token"]
    assert len(exchanges) == 3 and all(r.json["grant_type"] == "authorization_code" for r in exchanges)
    mes = [r for r in fake.requests if r.path == "/users/@me" and (r.auth or "").startswith("Bearer access-")]
    assert len(mes) == 3
    code = fake.oauth_code(world["users"]["ann"])
    assert (await world["anon"].call("POST", "/api/token", {"code": code}))[0] == 200
    status, data, _ = await world["anon"].call("POST", "/api/token", {"code": code})  # the same code again
    assert status == 401 and "Sign-in failed" in data["error"]
    status, data, _ = await world["anon"].call("POST", "/api/token", {"code": 12})
    assert status == 401


async def test_every_call_needs_a_session(world: dict[str, Any]) -> None:
    anon: Client = world["anon"]
    for method, path, body in (
        ("GET", f"/api/table?channel={CHANNEL}", None),
        ("GET", f"/api/wait?game={world['game']}&after=0", None),
        ("POST", "/api/act", {"game": world["game"], "action": {"type": "plan"}, "version": 0}),
        ("POST", "/api/undo", {"game": world["game"]}),
        ("POST", "/api/preview", {"game": world["game"], "action": {}}),
    ):
        status, data, _ = await anon.call(method, path, body)
        assert status == 401, (path, data)
    anon.session = "not-a-session"
    assert (await anon.call("GET", f"/api/table?channel={CHANNEL}"))[0] == 401


async def test_each_caller_gets_their_own_seats_view_and_a_bystander_the_public_one(world: dict[str, Any]) -> None:
    app: App = world["app"]
    ann, bob, carl = await table_of(world["ann"]), await table_of(world["bob"]), await table_of(world["carl"])
    assert (ann["you"], bob["you"], carl["you"]) == ("ann", "bob", None)
    assert ann["view"] == await app.view(world["game"], "ann")
    assert carl["view"] == await app.view(world["game"], None) and carl["actions"] == []
    # the numbered options are the engine's legal actions in order, as the Discord select lists them
    legal = await app.legal_actions(world["game"], "ann")
    assert [a["action"] for a in ann["actions"]] == legal and [a["n"] for a in ann["actions"]][:3] == [1, 2, 3]
    # ann seals a plan by hand; bob's and carl's tables never hold it before the reveal
    plan = {"bottom": {"pad": "B", "side": 1}, "top": {"side": 1, "rot": 1, "x": 2, "y": 0},
            "improvements": [{"id": "S-green", "x": 0, "y": 0, "rot": 0, "layer": "over"}]}
    status, out, _ = await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": {"type": "plan", "plan": plan}, "version": ann["version"]})
    assert status == 200 and out["status"] == "applied", out
    assert out["table"]["view"]["players"]["ann"]["plan"]["top"] == plan["top"]
    for who in ("bob", "carl"):
        t = await table_of(world[who])
        assert t["view"]["players"]["ann"]["sealed"] is True
        assert t["view"]["players"]["ann"]["plan"] is None
        text = json.dumps({k: v for k, v in t.items() if k != "actions"})
        assert json.dumps(plan["top"]) not in text and '"B", "side": 1' not in text


async def test_a_stale_page_gets_a_fresh_table_and_a_double_click_already_done(world: dict[str, Any]) -> None:
    ann = await table_of(world["ann"])
    action = ann["actions"][0]["action"]
    first = await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": action, "version": ann["version"]})
    assert first[1]["status"] == "applied"
    again = await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": action, "version": ann["version"]})
    assert again[1]["status"] == "already" and "already" in again[1]["message"].lower(), again[1]
    # another plan from the same old page: stale, with the table as it is now
    other = ann["actions"][1]["action"]
    stale = await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": other, "version": ann["version"]})
    assert stale[1]["status"] == "stale" and stale[1]["table"]["version"] == ann["version"] + 1, stale[1]
    assert (await world["app"].view(world["game"], "ann"))["players"]["ann"]["plan"] == {
        **action["plan"], "improvements": action["plan"]["improvements"]
    }


async def test_nobody_acts_for_another_seat_or_in_a_game_they_do_not_sit_in(world: dict[str, Any]) -> None:
    carl: Client = world["carl"]
    bob = await table_of(world["bob"])
    status, data, _ = await carl.call("POST", "/api/act", {"game": world["game"], "action": bob["actions"][0]["action"], "version": bob["version"]})
    assert status == 403 and "no seat" in data["error"]
    status, data, _ = await carl.call("POST", "/api/preview", {"game": world["game"], "action": bob["actions"][0]["action"]})
    assert status == 403
    # a crafted "seat" field is ignored: the session names the user, the user names the seat
    status, out, _ = await world["bob"].call(
        "POST", "/api/act", {"game": world["game"], "seat": "ann", "action": bob["actions"][0]["action"], "version": bob["version"]}
    )
    assert out["status"] == "applied"
    view = await world["app"].view(world["game"], None)
    assert view["players"]["bob"]["sealed"] is True and view["players"]["ann"]["sealed"] is False


async def test_bad_input_is_refused_in_words_and_changes_nothing(world: dict[str, Any]) -> None:
    ann: Client = world["ann"]
    version = (await table_of(ann))["version"]
    for body in (
        {"game": world["game"], "action": "plan", "version": version},
        {"game": world["game"], "action": {"type": "plan"}, "version": "0"},
        {"game": "x", "action": {"type": "plan"}, "version": version},
    ):
        status, data, _ = await ann.call("POST", "/api/act", body)
        assert status == 400 and data["error"] and "Traceback" not in json.dumps(data), (body, data)
    status, out, _ = await ann.call("POST", "/api/act", {"game": world["game"], "action": {"type": "plan", "plan": {"bottom": 1}}, "version": version})
    assert out["status"] == "illegal" and out["message"]
    assert (await ann.call("POST", "/api/act", raw=b"{not json"))[0] == 400
    assert (await ann.call("POST", "/api/act", raw=b"[" * 5000 + b"]" * 5000))[0] in (400, 413)
    assert (await ann.call("POST", "/api/act", raw=b'{"a": "' + b"x" * 20_000 + b'"}'))[0] == 413
    assert (await table_of(ann))["version"] == version


async def test_headers_let_only_discord_frame_the_page_and_the_api_is_never_cached(world: dict[str, Any]) -> None:
    status, _page, headers = await world["anon"].call("GET", "/")
    assert status == 200
    csp = headers["Content-Security-Policy"]
    assert "frame-ancestors 'self' https://discord.com" in csp and "https://*.discordsays.com" in csp
    assert "script-src 'self'" in csp and "unsafe" not in csp
    status, _data, headers = await world["anon"].call("GET", "/api/config")
    assert headers["Cache-Control"] == "no-store" and headers["X-Content-Type-Options"] == "nosniff"
    status, _data, _ = await world["anon"].call("GET", "/static/../server.py")
    assert status == 404
    status, script, headers = await world["anon"].call("GET", "/games/smartphone-inc.js")
    assert status == 200 and "text/javascript" in headers["Content-Type"] and "export function decision" in script
    assert (await world["anon"].call("GET", "/games/no-such-game.js"))[0] == 404


async def test_a_user_is_rate_limited(world: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    srv: TableServer = world["server"]
    srv.limits = table_server.RateLimit(rate=0.001, burst=5)
    codes = [(await world["carl"].call("GET", f"/api/table?channel={CHANNEL}"))[0] for _ in range(8)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
    assert (await world["bob"].call("GET", f"/api/table?channel={CHANNEL}"))[0] == 200  # per user


async def test_a_move_made_elsewhere_reaches_a_waiting_table_within_a_second(world: dict[str, Any]) -> None:
    app: App = world["app"]
    carl = await table_of(world["carl"])
    waiting = asyncio.create_task(world["carl"].call("GET", f"/api/wait?game={world['game']}&after={carl['version']}"))
    await asyncio.sleep(0.2)
    assert not waiting.done()
    legal = await app.legal_actions(world["game"], "bob")
    started = time.monotonic()
    await app.act(world["game"], int(world["users"]["bob"]["id"]), "bob", legal[0], carl["version"])  # as from Discord
    status, data, _ = await asyncio.wait_for(waiting, 2)
    assert status == 200 and data["version"] == carl["version"] + 1
    assert time.monotonic() - started < 1.0


async def test_undo_follows_the_apps_rules(world: dict[str, Any]) -> None:
    status, out, _ = await world["ann"].call("POST", "/api/undo", {"game": world["game"]})
    assert status == 200 and out["status"] == "refused" and out["message"]
    assert out["table"]["version"] == 0


async def test_no_token_reaches_a_log_line(world: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake: FakeDiscord = world["fake"]
    anon: Client = world["anon"]
    code = fake.oauth_code(world["users"]["bob"])
    data = await anon.sign_in(code)
    await anon.call("GET", f"/api/table?channel={CHANNEL}")
    await anon.call("POST", "/api/token", {"code": "code-wrong"})
    secrets_ = [code, data["session"], data["access_token"], fake.client_secret]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert logged  # the access log and the failed sign-in were logged
    for s in secrets_:
        assert s not in logged
    assert fake.client_secret not in repr(world["server"].exchange) and fake.client_secret not in repr(world["server"].config)


async def test_the_replay_shows_the_public_board_at_each_step_and_keeps_a_sealed_plan_hidden(world: dict[str, Any]) -> None:
    ann = await table_of(world["ann"])
    plan = ann["actions"][5]["action"]
    await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": plan, "version": ann["version"]})
    status, step1, _ = await world["carl"].call("GET", f"/api/replay?game={world['game']}&step=1")
    assert status == 200 and step1["step"] == 1 and step1["last"] == 1
    assert step1["view"]["players"]["ann"]["sealed"] is True and step1["view"]["players"]["ann"]["plan"] is None
    assert json.dumps(plan["plan"]["top"]) not in json.dumps(step1)
    status, step0, _ = await world["carl"].call("GET", f"/api/replay?game={world['game']}&step=0")
    assert step0["step"] == 0 and step0["view"]["players"]["ann"]["sealed"] is False
    bob = await table_of(world["bob"])
    await world["bob"].call("POST", "/api/act", {"game": world["game"], "action": bob["actions"][0]["action"], "version": bob["version"]})
    # after the reveal the replay shows both plans at the step of the reveal
    status, step2, _ = await world["carl"].call("GET", f"/api/replay?game={world['game']}&step=2")
    assert step2["view"]["players"]["ann"]["plan"]["top"] == plan["plan"]["top"]
    status, far, _ = await world["carl"].call("GET", f"/api/replay?game={world['game']}&step=999")
    assert far["step"] == far["last"]
    assert (await world["anon"].call("GET", f"/api/replay?game={world['game']}&step=0"))[0] == 401


async def test_a_sealed_plan_is_unsealed_from_the_table_until_the_last_plan_is_in(world: dict[str, Any]) -> None:
    ann = await table_of(world["ann"])
    await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": ann["actions"][0]["action"], "version": ann["version"]})
    sealed = await table_of(world["ann"])
    assert sealed["view"]["players"]["ann"]["sealed"] is True and sealed["actions"] == []
    status, out, _ = await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": {"type": "unseal"}, "version": sealed["version"]})
    assert out["status"] == "applied" and out["table"]["view"]["players"]["ann"]["sealed"] is False
    assert out["table"]["actions"]  # planning again
    again = out["table"]
    await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": again["actions"][1]["action"], "version": again["version"]})
    bob = await table_of(world["bob"])
    await world["bob"].call("POST", "/api/act", {"game": world["game"], "action": bob["actions"][0]["action"], "version": bob["version"]})
    late = await table_of(world["ann"])
    status, out, _ = await world["ann"].call("POST", "/api/act", {"game": world["game"], "action": {"type": "unseal"}, "version": late["version"]})
    assert out["status"] != "applied" and out["message"], out  # the last plan is in: revealed


@pytest.mark.parametrize("game", ["smartphone-inc", "mobile-markets", "age-of-automaton"])
async def test_boardroom_table_serves_a_local_game_with_its_link_on_a_line_of_its_own(game: str, tmp_path: Path) -> None:
    from bot.table.local import serve_local

    lines: list[str] = []
    stop = asyncio.Event()
    seen: dict[str, Any] = {}

    def ready(srv: TableServer, info: Any, url: str) -> None:
        seen.update(server=srv, info=info, url=url)

    task = asyncio.create_task(
        serve_local(game, 0, players=2, seed=5, db=tmp_path / "local.db", echo=lines.append, ready=ready, stop=stop)
    )
    try:
        for _ in range(200):
            if seen:
                break
            await asyncio.sleep(0.05)
        url = seen["url"]
        assert url in lines and url.startswith("http://127.0.0.1:") and " " not in url
        code = url.split("#code=")[1].split("&")[0]
        async with aiohttp.ClientSession() as http:
            c = Client(http, url.split("/#")[0])
            assert (await c.call("GET", "/"))[0] == 200
            await c.sign_in(code)
            status, t, _ = await c.call("GET", f"/api/table?game={seen['info'].id}")
            assert status == 200 and t["you"] and t["actions"], t  # the human seat decides first
            assert [s["ai"] for s in t["seats"]] == [False, True]
            status, _d, _ = await Client(http, url.split("/#")[0]).call("POST", "/api/token", {"code": "guess"})
            assert status == 401
    finally:
        stop.set()
        await task
