"""The fake Discord itself: each injected fault and each payload limit answers as the
real Discord does (issue 8, "Tests"). Talks to the fake with plain aiohttp, with
discord.py's own HTTP client (to show it reads the rate-limit answers), and with a
bare discord.py gateway client (disconnect, RESUME, replay)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_support import TOKEN, fast_backoff
from tests.fake_discord import (
    ACK_DEADLINE,
    BAD_GATEWAY,
    CANNOT_DM,
    EPHEMERAL,
    SERVER_ERROR,
    UNKNOWN_CHANNEL,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    FakeDiscord,
)


@pytest.fixture
async def fake() -> Any:
    async with FakeDiscord() as f:
        yield f


@pytest.fixture
async def http(fake: FakeDiscord) -> Any:
    async with aiohttp.ClientSession(base_url=f"http://127.0.0.1:{fake.port}") as session:
        yield session


API = "/api/v10"


async def post(http: aiohttp.ClientSession, path: str, payload: Any) -> tuple[int, Any, Any]:
    async with http.post(API + path, json=payload) as r:
        body = await r.text()
        try:
            data = json.loads(body)
        except ValueError:
            data = body
        return r.status, data, r.headers


def send_path(fake: FakeDiscord) -> str:
    return f"/channels/{fake.channel_id}/messages"


# ----------------------------------------------------------------------------- 429


async def test_route_429_has_discords_headers_and_body(fake: FakeDiscord, http: Any) -> None:
    rule = fake.rate_limit("POST", "/channels/{channel}/messages", retry_after=0.25)
    status, body, headers = await post(http, send_path(fake), {"content": "hi"})
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 0.25, "global": False, "code": 0}
    assert headers["Retry-After"] == "1"  # whole seconds
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "0"
    assert float(headers["X-RateLimit-Reset-After"]) == 0.25
    assert abs(float(headers["X-RateLimit-Reset"]) - (time.time() + 0.25)) < 2
    assert headers["X-RateLimit-Bucket"] and headers["X-RateLimit-Scope"] == "user"
    assert headers["Via"] and "X-RateLimit-Global" not in headers
    # times=1: the next request goes through and nothing was posted by the refused one
    status, _body, _h = await post(http, send_path(fake), {"content": "hi"})
    assert status == 200 and len(rule.hits) == 1 and len(fake.public_messages()) == 1
    assert fake.injected() == rule.hits and rule.hits[0].status == 429


async def test_global_429_says_global(fake: FakeDiscord, http: Any) -> None:
    fake.global_rate_limit(retry_after=0.5, times=2)
    for path in (send_path(fake), "/users/@me/channels"):
        status, body, headers = await post(http, path, {"content": "x", "recipient_id": fake.owner["id"]})
        assert status == 429 and body["global"] is True and body["retry_after"] == 0.5
        assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
        assert "X-RateLimit-Bucket" not in headers and headers["Retry-After"] == "1"
    assert (await post(http, send_path(fake), {"content": "x"}))[0] == 200


async def discord_http() -> discord.http.HTTPClient:
    client = discord.http.HTTPClient(asyncio.get_running_loop())
    await client.static_login(TOKEN)
    return client


async def send_with_discord_py(client: discord.http.HTTPClient, channel_id: str, content: str) -> Any:
    with discord.http.handle_message_parameters(content=content) as params:
        return await client.send_message(int(channel_id), params=params)


@pytest.mark.parametrize("scope", ["user", "shared", "global"])
async def test_discord_py_waits_retry_after_then_retries(fake: FakeDiscord, scope: str) -> None:
    fake.rate_limit("POST", "/channels/{channel}/messages", retry_after=0.3, scope=scope)
    client = await discord_http()
    try:
        msg = await send_with_discord_py(client, fake.channel_id, "after a 429")
    finally:
        await client.close()
    sends = [r for r in fake.requests if r.method == "POST" and r.path.endswith("/messages")]
    assert [r.status for r in sends] == [429, 200]
    assert sends[1].at - sends[0].at >= 0.3  # retry_after honoured
    assert msg["content"] == "after a 429" and len(fake.public_messages()) == 1


# ------------------------------------------------------------------------- 5xx


async def test_500_and_502_persistent_and_transient(fake: FakeDiscord, http: Any) -> None:
    fake.fail("POST", send_path(fake), SERVER_ERROR, times=1)
    fake.fail("POST", send_path(fake), BAD_GATEWAY, times=1)
    status, body, _h = await post(http, send_path(fake), {"content": "a"})
    assert status == 500 and body == {"code": 0, "message": "Internal Server Error"} or isinstance(body, str)
    status, body, _h = await post(http, send_path(fake), {"content": "a"})
    assert status == 502 and "Bad Gateway" in str(body)
    assert (await post(http, send_path(fake), {"content": "a"}))[0] == 200
    with fast_backoff():
        client = await discord_http()
        try:
            fake.fail("POST", send_path(fake), SERVER_ERROR, times=2)  # transient: discord.py retries through it
            await send_with_discord_py(client, fake.channel_id, "third time lucky")
            rule = fake.fail("POST", send_path(fake), BAD_GATEWAY, times=None)  # persistent: it gives up
            with pytest.raises(discord.DiscordServerError):
                await send_with_discord_py(client, fake.channel_id, "never")
        finally:
            await client.close()
    assert len(rule.hits) == 5  # discord.py's five tries
    assert [message["content"] for message in fake.public_messages()] == ["a", "third time lucky"]


# ------------------------------------------------------------ Discord error codes


async def test_cannot_dm_missing_permissions_unknown_channel(fake: FakeDiscord, http: Any) -> None:
    ann = fake.add_member("ann")
    status, dm, _h = await post(http, "/users/@me/channels", {"recipient_id": ann["id"]})
    fake.fail("POST", f"/channels/{dm['id']}/messages", CANNOT_DM)
    status, body, _h = await post(http, f"/channels/{dm['id']}/messages", {"content": "psst"})
    assert (status, body["code"]) == (403, 50007)
    # a closed-DM member: always 50007
    cid = fake.add_member("cid", dms_closed=True)
    status, dm2, _h = await post(http, "/users/@me/channels", {"recipient_id": cid["id"]})
    assert (await post(http, f"/channels/{dm2['id']}/messages", {"content": "x"}))[1]["code"] == 50007

    rule = fake.deny(fake.channel_id)
    status, body, _h = await post(http, send_path(fake), {"content": "x"})
    assert (status, body["code"], body["message"]) == (403, 50013, "Missing Permissions")
    async with http.get(f"{API}/channels/{fake.channel_id}") as r:
        assert r.status == 200  # reading is still allowed
    rule.stop()
    assert (await post(http, send_path(fake), {"content": "x"}))[0] == 200

    other = fake.add_channel("other")["id"]
    fake.fail("POST", f"/channels/{other}/messages", UNKNOWN_CHANNEL)
    status, body, _h = await post(http, f"/channels/{other}/messages", {"content": "x"})
    assert (status, body["code"]) == (404, 10003)
    assert other not in fake.channels  # really gone: every later request agrees
    async with http.patch(f"{API}/channels/{other}/messages/1", json={"content": "y"}) as r:
        assert r.status == 404 and (await r.json())["code"] == 10003


async def test_unknown_message_deletes_the_message(fake: FakeDiscord, http: Any) -> None:
    _s, board, _h = await post(http, send_path(fake), {"content": "the board"})
    path = f"{send_path(fake)}/{board['id']}"
    fake.fail("PATCH", "/channels/{c}/messages/{m}", UNKNOWN_MESSAGE)
    async with http.patch(API + path, json={"content": "new board"}) as r:
        assert r.status == 404 and (await r.json())["code"] == 10008
    assert fake.public_messages() == [] and fake.deleted_messages[0]["content"] == "the board"
    async with http.patch(API + path, json={"content": "again"}) as r:  # no rule left: still gone
        assert (await r.json())["code"] == 10008
    # deleting by hand does the same
    _s, counter, _h = await post(http, send_path(fake), {"content": "Plans sealed 0/2"})
    fake.delete_message(fake.channel_id, counter["id"])
    async with http.get(f"{API}{send_path(fake)}/{counter['id']}") as r:
        assert (await r.json())["code"] == 10008


# ---------------------------------------------------------------- interactions


def callback_path(ix: Any) -> str:
    return f"/interactions/{ix.id}/{ix.token}/callback"


async def test_unknown_interaction_on_the_callback(fake: FakeDiscord, http: Any) -> None:
    ix = fake.make_interaction(fake.owner)
    fake.fail("POST", "/interactions/{id}/{token}/callback", UNKNOWN_INTERACTION)
    status, body, _h = await post(http, callback_path(ix), {"type": 5})
    assert (status, body["code"]) == (404, 10062)
    assert ix.failed and ix.refused and ix.settled.is_set()
    # never acknowledged: its token cannot post follow-ups either
    status, body, _h = await post(http, f"/webhooks/{fake.application_id}/{ix.token}", {"content": "late"})
    assert (status, body["code"]) == (404, 10015)


async def test_slow_ack_past_three_seconds_is_unknown_interaction(fake: FakeDiscord, http: Any) -> None:
    assert ACK_DEADLINE == 3.0  # Discord's deadline; shortened below only to keep the test fast
    fake.ack_deadline = 0.3
    late = fake.make_interaction(fake.owner)
    fake.slow_ack(0.4)
    status, body, _h = await post(http, callback_path(late), {"type": 4, "data": {"content": "hi"}})
    assert (status, body["code"]) == (404, 10062) and late.failed
    assert time.monotonic() - late.created >= 0.4
    quick = fake.make_interaction(fake.owner)
    fake.slow_ack(0.1)
    started = time.monotonic()
    status, _b, _h = await post(http, callback_path(quick), {"type": 4, "data": {"content": "hi"}})
    assert status == 200 and not quick.failed and time.monotonic() - started >= 0.1
    # a second acknowledgement is refused, as on Discord
    status, body, _h = await post(http, callback_path(quick), {"type": 5})
    assert (status, body["code"]) == (400, 40060)


async def test_default_deadline_is_three_seconds(fake: FakeDiscord, http: Any) -> None:
    ix = fake.make_interaction(fake.owner)
    ix.created -= ACK_DEADLINE + 0.01  # created just over 3 s ago
    status, body, _h = await post(http, callback_path(ix), {"type": 5})
    assert (status, body["code"]) == (404, 10062)
    ix2 = fake.make_interaction(fake.owner)
    ix2.created -= ACK_DEADLINE - 0.5
    assert (await post(http, callback_path(ix2), {"type": 5}))[0] == 200


async def test_rules_match_method_route_and_predicate(fake: FakeDiscord, http: Any) -> None:
    rule = fake.fail("POST", "/channels/{c}/messages", SERVER_ERROR, times=None, when=lambda r: "reveal" in r.json["content"])
    assert (await post(http, send_path(fake), {"content": "board"}))[0] == 200
    assert (await post(http, send_path(fake), {"content": "the reveal"}))[0] == 500
    async with http.get(f"{API}/channels/{fake.channel_id}") as r:
        assert r.status == 200
    any_rule = fake.fail("*", f"/channels/{fake.channel_id}/*", SERVER_ERROR, times=1)
    async with http.delete(f"{API}{send_path(fake)}/123") as r:
        assert r.status == 500
    assert len(rule.hits) == 1 and len(any_rule.hits) == 1 and not any_rule.active


# ------------------------------------------------------------------- gateway


class Listener(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.seen: list[str] = []
        self.resumed_count = 0

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.seen.append(str(interaction.id))

    async def on_resumed(self) -> None:
        self.resumed_count += 1


async def test_gateway_disconnect_resume_and_replay(fake: FakeDiscord) -> None:
    client = Listener()
    task = asyncio.create_task(client.start(TOKEN))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        first = fake._base_interaction(3, fake.owner, fake.channel_id, {"custom_id": "x", "component_type": 2})
        await fake._send_event("INTERACTION_CREATE", first)
        await fake.wait_for(lambda: client.seen, what="the first event")
        # drop the connection; an event sent meanwhile is kept and replayed on RESUME
        await fake.disconnect()
        missed = fake._base_interaction(3, fake.owner, fake.channel_id, {"custom_id": "y", "component_type": 2})
        await fake._send_event("INTERACTION_CREATE", missed)
        await fake.wait_connected()
        await fake.wait_for(lambda: len(client.seen) == 2, what="the missed event")
        assert fake.identifies == 1 and fake.resumes == 1
        assert client.seen == [first["id"], missed["id"]]  # the missed one once, the first not again
        assert [f["t"] for f in fake.replayed] == ["INTERACTION_CREATE"]
        await fake.wait_for(lambda: client.resumed_count == 1, what="RESUMED")

        # at-least-once: replay from an older sequence gives the bot an event it already had
        before = fake.last_seq
        again = fake._base_interaction(3, fake.owner, fake.channel_id, {"custom_id": "z", "component_type": 2})
        await fake._send_event("INTERACTION_CREATE", again)
        await fake.wait_for(lambda: len(client.seen) == 3, what="the third event")
        await fake.disconnect(replay_from=before)
        await fake.wait_connected()
        await fake.wait_for(lambda: len(client.seen) == 4, what="the replayed event")
        assert client.seen[-1] == again["id"] and fake.resumes == 2

        # an invalidated session: INVALID_SESSION, then a fresh IDENTIFY
        await fake.disconnect(resumable=False)
        await fake.wait_for(lambda: fake.identifies == 2, what="a new IDENTIFY")
        await fake.wait_connected()

        # op 7 RECONNECT: the client resumes
        await fake.request_reconnect()
        await fake.wait_for(lambda: fake.resumes == 3, what="a RESUME after RECONNECT")
    finally:
        await client.close()
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(task, 5)


# -------------------------------------------------------------------- limits

BIG = 2000


def _row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def _button(cid: str = "b", label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": cid, "label": label}


def _select(cid: str = "s", n: int = 2, **over: Any) -> dict[str, Any]:
    opts = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n)]
    return {"type": 3, "custom_id": cid, "options": opts, **over}


def _opt(**over: Any) -> dict[str, Any]:
    return {"label": "a", "value": "a", **over}


LIMIT_CASES: list[tuple[str, dict[str, Any], dict[str, Any], tuple[str, ...]]] = [
    # name, payload at the limit (accepted), payload over it (refused), error path
    ("content", {"content": "x" * 2000}, {"content": "x" * 2001}, ("content",)),
    ("embeds", {"embeds": [{"title": "t"}] * 10}, {"embeds": [{"title": "t"}] * 11}, ("embeds",)),
    ("title", {"embeds": [{"title": "t" * 256}]}, {"embeds": [{"title": "t" * 257}]}, ("embeds", "0", "title")),
    ("description", {"embeds": [{"description": "d" * 4096}]}, {"embeds": [{"description": "d" * 4097}]},
     ("embeds", "0", "description")),
    ("fields", {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 25}]},
     {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, ("embeds", "0", "fields")),
    ("field name", {"embeds": [{"fields": [{"name": "n" * 256, "value": "v"}]}]},
     {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, ("embeds", "0", "fields", "0", "name")),
    ("field value", {"embeds": [{"fields": [{"name": "n", "value": "v" * 1024}]}]},
     {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, ("embeds", "0", "fields", "0", "value")),
    ("footer", {"embeds": [{"footer": {"text": "f" * 2048}}]}, {"embeds": [{"footer": {"text": "f" * 2049}}]},
     ("embeds", "0", "footer", "text")),
    ("author", {"embeds": [{"author": {"name": "a" * 256}}]}, {"embeds": [{"author": {"name": "a" * 257}}]},
     ("embeds", "0", "author", "name")),
    ("embed total", {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3000}]},
     {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3001}]}, ("embeds",)),
    ("rows", {"components": [_row(_button(f"b{i}")) for i in range(5)]},
     {"components": [_row(_button(f"b{i}")) for i in range(6)]}, ("components",)),
    ("buttons per row", {"components": [_row(*[_button(f"b{i}") for i in range(5)])]},
     {"components": [_row(*[_button(f"b{i}") for i in range(6)])]}, ("components", "0", "components")),
    ("select takes a row", {"components": [_row(_select()), _row(_button())]},
     {"components": [_row(_select(), _button())]}, ("components", "0", "components")),
    ("options", {"components": [_row(_select(n=25))]}, {"components": [_row(_select(n=26))]},
     ("components", "0", "components", "0", "options")),
    ("option label", {"components": [_row(_select(options=[_opt(label="l" * 100)]))]},
     {"components": [_row(_select(options=[_opt(label="l" * 101)]))]},
     ("components", "0", "components", "0", "options", "0", "label")),
    ("option value", {"components": [_row(_select(options=[_opt(value="v" * 100)]))]},
     {"components": [_row(_select(options=[_opt(value="v" * 101)]))]},
     ("components", "0", "components", "0", "options", "0", "value")),
    ("option description", {"components": [_row(_select(options=[_opt(description="d" * 100)]))]},
     {"components": [_row(_select(options=[_opt(description="d" * 101)]))]},
     ("components", "0", "components", "0", "options", "0", "description")),
    ("placeholder", {"components": [_row(_select(placeholder="p" * 150))]},
     {"components": [_row(_select(placeholder="p" * 151))]}, ("components", "0", "components", "0", "placeholder")),
    ("button label", {"components": [_row(_button(label="l" * 80))]}, {"components": [_row(_button(label="l" * 81))]},
     ("components", "0", "components", "0", "label")),
    ("custom_id", {"components": [_row(_button("c" * 100))]}, {"components": [_row(_button("c" * 101))]},
     ("components", "0", "components", "0", "custom_id")),
    ("custom_id unique", {"components": [_row(_button("a"), _button("b"))]},
     {"components": [_row(_button("a")), _row(_button("a"))]}, ("components", "1", "components", "0", "custom_id")),
    ("top level is a row", {"components": [_row(_button())]}, {"components": [_button()]}, ("components", "0")),
    ("allowed_mentions", {"content": "x", "allowed_mentions": {"parse": ["users"]}},
     {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, ("allowed_mentions",)),
    ("allowed_mentions parse", {"content": "x", "allowed_mentions": {"parse": ["everyone"]}},
     {"content": "x", "allowed_mentions": {"parse": ["nobody"]}}, ("allowed_mentions", "parse", "0")),
    ("ephemeral outside interactions", {"content": "x", "flags": 1 << 12}, {"content": "x", "flags": EPHEMERAL},
     ("flags",)),
]


def error_at(body: dict[str, Any], path: tuple[str, ...]) -> list[dict[str, Any]]:
    node: Any = body["errors"]
    for key in path:
        node = node[key]
    return node["_errors"]


@pytest.mark.parametrize(("name", "good", "bad", "path"), LIMIT_CASES, ids=[c[0] for c in LIMIT_CASES])
async def test_message_limits(fake: FakeDiscord, http: Any, name: str, good: dict, bad: dict, path: tuple) -> None:
    status, body, _h = await post(http, send_path(fake), good)
    assert status == 200, body
    status, body, _h = await post(http, send_path(fake), bad)
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert error_at(body, path), body
    assert len(fake.public_messages()) == 1 and fake.limit_errors[-1].status == 400  # nothing posted
    # the same limits on an edit, a follow-up and an interaction reply
    msg_id = fake.public_messages()[0]["id"]
    async with http.patch(f"{API}{send_path(fake)}/{msg_id}", json=bad) as r:
        assert r.status == 400 or name == "ephemeral outside interactions"
    if name != "ephemeral outside interactions":
        ix = fake.make_interaction(fake.owner)
        status, body, _h = await post(http, callback_path(ix), {"type": 4, "data": bad})
        assert status == 400 and ix.failed
        assert (await post(http, callback_path(ix), {"type": 5}))[0] == 200
        status, body, _h = await post(http, f"/webhooks/{fake.application_id}/{ix.token}", bad)
        assert status == 400 and body["code"] == 50035


async def test_ephemeral_flag_is_fine_on_interaction_replies(fake: FakeDiscord, http: Any) -> None:
    ix = fake.make_interaction(fake.owner)
    status, _b, _h = await post(http, callback_path(ix), {"type": 4, "data": {"content": "psst", "flags": EPHEMERAL}})
    assert status == 200 and ix.original["_ephemeral_for"] == fake.owner["id"]


async def test_empty_message_and_files(fake: FakeDiscord, http: Any) -> None:
    status, body, _h = await post(http, send_path(fake), {"content": ""})
    assert (status, body["code"]) == (400, 50006)

    async def upload(files: list[tuple[str, bytes]]) -> tuple[int, Any]:
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps({"content": "pics"}), content_type="application/json")
        for i, (name, data) in enumerate(files):
            form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
        async with http.post(API + send_path(fake), data=form) as r:
            return r.status, await r.json()

    assert (await upload([(f"{i}.png", b"x") for i in range(10)]))[0] == 200
    status, body = await upload([(f"{i}.png", b"x") for i in range(11)])
    assert status == 400 and body["code"] == 50035 and "files" in body["errors"]
    status, body = await upload([("big.png", b"x" * (25 * 1024 * 1024 + 1))])
    assert (status, body["code"]) == (413, 40005)
    assert len(fake.public_messages()) == 1


def _command(**over: Any) -> dict[str, Any]:
    return {"name": "game", "description": "Games", "type": 1, "options": [], **over}


def _string_option(**over: Any) -> dict[str, Any]:
    return {"name": "game", "description": "Which", "type": 3, **over}


COMMAND_CASES = [
    ("name length", _command(name="g" * 32), _command(name="g" * 33), ("0", "name")),
    ("name lower case", _command(name="game-new"), _command(name="Game"), ("0", "name")),
    ("description", _command(description="d" * 100), _command(description="d" * 101), ("0", "description")),
    ("options", _command(options=[_string_option(name=f"o{i}") for i in range(25)]),
     _command(options=[_string_option(name=f"o{i}") for i in range(26)]), ("0", "options")),
    ("choices", _command(options=[_string_option(choices=[{"name": "c", "value": str(i)} for i in range(25)])]),
     _command(options=[_string_option(choices=[{"name": "c", "value": str(i)} for i in range(26)])]),
     ("0", "options", "0", "choices")),
    ("max_length", _command(options=[_string_option(max_length=6000)]),
     _command(options=[_string_option(max_length=6001)]), ("0", "options", "0", "max_length")),
    ("option description", _command(options=[_string_option(description="d" * 100)]),
     _command(options=[_string_option(description="d" * 101)]), ("0", "options", "0", "description")),
    ("required first", _command(options=[_string_option(name="a", required=True), _string_option(name="b")]),
     _command(options=[_string_option(name="a"), _string_option(name="b", required=True)]), ("0", "options", "1")),
]


@pytest.mark.parametrize(("name", "good", "bad", "path"), COMMAND_CASES, ids=[c[0] for c in COMMAND_CASES])
async def test_command_registration_limits(fake: FakeDiscord, http: Any, name: str, good: dict, bad: dict, path: tuple) -> None:
    route = f"{API}/applications/{fake.application_id}/commands"
    async with http.put(route, json=[good]) as r:
        assert r.status == 200, await r.text()
    async with http.put(route, json=[bad]) as r:
        body = await r.json()
        assert r.status == 400 and body["code"] == 50035
    assert error_at(body, path)
    assert fake.commands[0]["name"] == good["name"]  # the refused sync changed nothing


async def test_autocomplete_choices_limit(fake: FakeDiscord, http: Any) -> None:
    ix = fake.make_interaction(fake.owner, kind=4)
    choices = [{"name": "n", "value": str(i)} for i in range(26)]
    status, body, _h = await post(http, callback_path(ix), {"type": 8, "data": {"choices": choices}})
    assert status == 400 and error_at(body, ("data", "choices"))
    status, _b, _h = await post(http, callback_path(ix), {"type": 8, "data": {"choices": choices[:25]}})
    assert status == 200


# ------------------------------------------------------------------- pacing


async def test_paced_channel_answers_429_over_the_bucket(fake: FakeDiscord, http: Any) -> None:
    fake.pace_channels(limit=2, per=1.0)
    results = [await post(http, send_path(fake), {"content": str(i)}) for i in range(3)]
    assert [r[0] for r in results] == [200, 200, 429]
    assert results[0][2]["X-RateLimit-Remaining"] == "1" and results[1][2]["X-RateLimit-Remaining"] == "0"
    assert 0 < results[2][1]["retry_after"] <= 1.0 and results[2][1]["global"] is False
    assert fake.writes_per_window(fake.channel_id, 1.0) == 2 and len(fake.paced) == 1
    other = fake.add_channel("other")["id"]  # the bucket is per channel
    assert (await post(http, f"/channels/{other}/messages", {"content": "x"}))[0] == 200


async def test_discord_py_keeps_to_the_paced_bucket(fake: FakeDiscord) -> None:
    fake.pace_channels(limit=2, per=0.5)
    client = await discord_http()
    started = time.monotonic()
    try:
        for i in range(5):
            await send_with_discord_py(client, fake.channel_id, f"m{i}")
    finally:
        await client.close()
    assert [m["content"] for m in fake.public_messages()] == [f"m{i}" for i in range(5)]  # none lost
    assert fake.writes_per_window(fake.channel_id, 0.5) <= 2
    assert time.monotonic() - started >= 1.0  # two full windows waited
