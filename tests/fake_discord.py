"""A small fake Discord (REST + gateway) on loopback for end-to-end bot tests.

The real discord.py client talks to this aiohttp server; nothing leaves
127.0.0.1. discord.py reads two class attributes that make this possible
(see ``shared/notes/discord-offline-testing.md``)::

    discord.http.Route.BASE = "http://127.0.0.1:PORT/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws://127.0.0.1:PORT/")

What it does:

* answers the REST routes the bot uses (login, application info, command
  sync, channel and DM messages with files, interaction callbacks and
  follow-ups, users, members) and records **every** request, JSON and
  multipart files alike, so a test can open the PNGs the bot sent;
* answers any other route with 404 and records it in :attr:`unknown`, so a test
  fails loudly (see :meth:`FakeDiscord.assert_no_unknown`);
* runs a gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, and
  lets a test push INTERACTION_CREATE (slash commands, buttons, selects,
  modals, autocomplete);
* keeps the current state of every message (edits applied), including
  ephemeral replies, which are visible only to the user who triggered them;
* a user listed with ``dms_closed=True`` gets error 50007 on a DM, like a real
  user who closed their DMs.

It does not enforce intents, permissions, rate limits or payload limits.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import discord
import yarl
from aiohttp import WSMsgType, web

API = "/api/v10"
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
EPHEMERAL = 1 << 6
DEFAULT_PERMS = (1 << 10) | (1 << 11) | (1 << 31)  # view channel, send messages, use app commands


def _now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only if Content-Type is exactly application/json.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json_response({"code": code, "message": message}, status=status)


@dataclass
class Recorded:
    """One REST request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, bytes]]
    status: int = 0
    response: Any = None
    at: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:  # short, for assertion messages
        files = f" files={[n for n, _ in self.files]}" if self.files else ""
        return f"<{self.method} {self.path} -> {self.status}{files}>"


@dataclass
class FakeInteraction:
    """An interaction the test sent; collects the bot's answers to it."""

    id: str
    token: str
    user: dict[str, Any]
    channel_id: str
    payload: dict[str, Any]
    callbacks: list[Recorded] = field(default_factory=list)
    followups: list[dict[str, Any]] = field(default_factory=list)
    original: dict[str, Any] | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    webhook_used: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def callback_type(self) -> int | None:
        return self.callbacks[0].json.get("type") if self.callbacks else None

    @property
    def callback_data(self) -> dict[str, Any]:
        return (self.callbacks[0].json or {}).get("data") or {} if self.callbacks else {}

    def texts(self) -> list[str]:
        """Every text the user saw in answer: original reply and follow-ups (current state)."""
        out: list[str] = []
        for msg in ([self.original] if self.original else []) + self.followups:
            out.append(message_text(msg))
        if self.callback_type == 9:  # a modal
            out.append(json.dumps(self.callback_data))
        return out

    def all_text(self) -> str:
        return "\n".join(self.texts())

    def messages(self) -> list[dict[str, Any]]:
        return ([self.original] if self.original else []) + self.followups


def message_text(msg: dict[str, Any]) -> str:
    """Content plus embed texts of a message, for assertions."""
    parts = [msg.get("content") or ""]
    for emb in msg.get("embeds") or []:
        parts.append(emb.get("title") or "")
        parts.append(emb.get("description") or "")
        for f in emb.get("fields") or []:
            parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
        if emb.get("footer"):
            parts.append(emb["footer"].get("text") or "")
    return "\n".join(p for p in parts if p)


def iter_components(msg: dict[str, Any]) -> Iterable[dict[str, Any]]:
    """Every interactive component (buttons, selects) of a message, in order."""

    def walk(items: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
        for c in items:
            if c.get("components"):
                yield from walk(c["components"])
            elif "custom_id" in c:
                yield c

    return walk(msg.get("components") or [])


class FakeDiscord:
    """The fake server. ``async with FakeDiscord() as fake:`` starts and stops it."""

    def __init__(self) -> None:
        self._ids = itertools.count(int(time.time() * 1000 - 1420070400000) << 22)
        self.bot_user = {
            "id": self.new_id(),
            "username": "boardroom",
            "discriminator": "0",
            "global_name": "Boardroom",
            "avatar": None,
            "bot": True,
        }
        self.application_id = self.bot_user["id"]
        self.owner = self._make_user("owner")
        self.guild_id = self.new_id()
        self.users: dict[str, dict[str, Any]] = {self.owner["id"]: self.owner}
        self.member_perms: dict[str, int] = {self.owner["id"]: ADMINISTRATOR | MANAGE_GUILD}
        self.dms_closed: set[str] = set()
        self.channels: dict[str, dict[str, Any]] = {}
        self.dm_channels: dict[str, str] = {}  # user id -> DM channel id
        self.messages: dict[str, list[dict[str, Any]]] = {}
        self.requests: list[Recorded] = []
        self.unknown: list[Recorded] = []
        self.commands: list[dict[str, Any]] = []
        self.interactions: dict[str, FakeInteraction] = {}
        self.gateway_events: list[dict[str, Any]] = []
        self.identifies = 0
        self.channel_id = self.add_channel("games")["id"]
        self._ws: web.WebSocketResponse | None = None
        self._ws_ready = asyncio.Event()
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self._changed = asyncio.Condition()
        self.port = 0

    # ------------------------------------------------------------------ world
    def new_id(self) -> str:
        return str(next(self._ids))

    def _make_user(self, name: str) -> dict[str, Any]:
        return {
            "id": self.new_id(),
            "username": name,
            "discriminator": "0",
            "global_name": name.title(),
            "avatar": None,
        }

    def add_member(
        self, name: str, *, manage_guild: bool = False, dms_closed: bool = False
    ) -> dict[str, Any]:
        """A guild member; call before the bot connects to have them in GUILD_CREATE."""
        user = self._make_user(name)
        self.users[user["id"]] = user
        self.member_perms[user["id"]] = DEFAULT_PERMS | (MANAGE_GUILD if manage_guild else 0)
        if dms_closed:
            self.dms_closed.add(user["id"])
        return user

    def add_channel(self, name: str) -> dict[str, Any]:
        ch = {
            "id": self.new_id(),
            "type": 0,
            "name": name,
            "guild_id": self.guild_id,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        self.channels[ch["id"]] = ch
        self.messages[ch["id"]] = []
        return ch

    def _member_payload(self, user: dict[str, Any]) -> dict[str, Any]:
        return {
            "user": user,
            "roles": [],
            "joined_at": _now_iso(),
            "deaf": False,
            "mute": False,
            "nick": None,
            "flags": 0,
            "permissions": str(self.member_perms.get(user["id"], DEFAULT_PERMS)),
        }

    def _guild_payload(self) -> dict[str, Any]:
        members = [self._member_payload(u) for u in self.users.values()]
        members.append(self._member_payload(self.bot_user))
        return {
            "id": self.guild_id,
            "name": "Boardroom test guild",
            "icon": None,
            "owner_id": self.owner["id"],
            "unavailable": False,
            "large": False,
            "member_count": len(members),  # == len(members), or discord.py chunks and waits
            "members": members,
            "roles": [
                {
                    "id": self.guild_id,
                    "name": "@everyone",
                    "permissions": str(DEFAULT_PERMS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                }
            ],
            "channels": [c for c in self.channels.values() if c["type"] == 0],
            "threads": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "joined_at": _now_iso(),
            "nsfw_level": 0,
        }

    # ------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"http://127.0.0.1:{self.port}{API}"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/")

    async def stop(self) -> None:
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def assert_no_unknown(self) -> None:
        assert not self.unknown, f"bot called routes the fake does not know: {self.unknown}"

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # --------------------------------------------------------------- gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        self._ws_ready.clear()
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op in (2, 6):  # IDENTIFY, RESUME: always start a fresh session
                self.identifies += 1
                await self._send_event(
                    "READY",
                    {
                        "v": 10,
                        "user": self.bot_user,
                        "guilds": [{"id": self.guild_id, "unavailable": True}],
                        "session_id": f"session-{self.identifies}",
                        "resume_gateway_url": f"ws://127.0.0.1:{self.port}/",
                        "shard": [0, 1],
                        "application": {"id": self.application_id, "flags": 0},
                        "private_channels": [],
                        "relationships": [],
                    },
                )
                await self._send_event("GUILD_CREATE", self._guild_payload())
                self._ws_ready.set()
        if self._ws is ws:
            self._ws = None
        return ws

    async def _send_event(self, name: str, data: dict[str, Any]) -> None:
        assert self._ws is not None, "bot is not connected"
        self._seq += 1
        self.gateway_events.append({"t": name, "d": data})
        await self._ws.send_json({"op": 0, "t": name, "s": self._seq, "d": data})

    async def wait_connected(self, timeout: float = 10) -> None:
        await asyncio.wait_for(self._ws_ready.wait(), timeout)

    # ------------------------------------------------------------------ REST
    _ROUTES: list[tuple[str, re.Pattern[str], str]] = []

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: list[tuple[str, bytes]] = []
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append((part.filename or part.name or "file", await part.read()))
        rec = Recorded(request.method, path, dict(request.query), body, files)
        self.requests.append(rec)
        for method, pattern, handler in self._table():
            if method != request.method:
                continue
            m = pattern.fullmatch(path)
            if m:
                resp = await getattr(self, handler)(rec, **m.groupdict())
                break
        else:
            self.unknown.append(rec)
            resp = _error(404, 0, f"fake discord: unknown route {request.method} {path}")
        rec.status = resp.status
        if isinstance(resp, web.Response) and resp.body:
            try:
                rec.response = json.loads(resp.body)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                rec.response = None
        await self._notify()
        return resp

    def _table(self) -> list[tuple[str, re.Pattern[str], str]]:
        if not FakeDiscord._ROUTES:
            s = r"(?P<%s>\d+)"
            spec = [
                ("GET", "/gateway", "r_gateway"),
                ("GET", "/gateway/bot", "r_gateway"),
                ("GET", "/users/@me", "r_me"),
                ("GET", "/oauth2/applications/@me", "r_appinfo"),
                ("GET", "/applications/@me", "r_appinfo"),
                ("PUT", f"/applications/{s % 'app'}/commands", "r_sync"),
                ("PUT", f"/applications/{s % 'app'}/guilds/{s % 'guild'}/commands", "r_sync"),
                ("GET", f"/applications/{s % 'app'}/commands", "r_get_commands"),
                ("GET", f"/applications/{s % 'app'}/guilds/{s % 'guild'}/commands", "r_get_commands"),
                ("POST", "/users/@me/channels", "r_create_dm"),
                ("GET", f"/users/{s % 'user'}", "r_user"),
                ("GET", f"/guilds/{s % 'guild'}/members/{s % 'user'}", "r_member"),
                ("GET", f"/channels/{s % 'channel'}", "r_channel"),
                ("POST", f"/channels/{s % 'channel'}/messages", "r_send"),
                ("GET", f"/channels/{s % 'channel'}/messages/{s % 'message'}", "r_get_message"),
                ("PATCH", f"/channels/{s % 'channel'}/messages/{s % 'message'}", "r_edit"),
                ("DELETE", f"/channels/{s % 'channel'}/messages/{s % 'message'}", "r_delete"),
                ("POST", f"/channels/{s % 'channel'}/typing", "r_no_content"),
                ("POST", f"/interactions/{s % 'iid'}/(?P<token>[^/]+)/callback", "r_callback"),
                ("POST", f"/webhooks/{s % 'app'}/(?P<token>[^/]+)", "r_followup"),
                ("GET", f"/webhooks/{s % 'app'}/(?P<token>[^/]+)/messages/(?P<mid>@original|\\d+)", "r_wh_get"),
                ("PATCH", f"/webhooks/{s % 'app'}/(?P<token>[^/]+)/messages/(?P<mid>@original|\\d+)", "r_wh_edit"),
                ("DELETE", f"/webhooks/{s % 'app'}/(?P<token>[^/]+)/messages/(?P<mid>@original|\\d+)", "r_wh_delete"),
            ]
            FakeDiscord._ROUTES = [(m, re.compile(p), h) for m, p, h in spec]
        return FakeDiscord._ROUTES

    async def r_gateway(self, rec: Recorded) -> web.Response:
        return _json_response(
            {
                "url": f"ws://127.0.0.1:{self.port}/",
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def r_me(self, rec: Recorded) -> web.Response:
        return _json_response(self.bot_user)

    async def r_appinfo(self, rec: Recorded) -> web.Response:
        return _json_response(
            {
                "id": self.application_id,
                "name": "boardroom",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "rpc_origins": [],
                "team": None,
                "interactions_endpoint_url": None,
            }
        )

    async def r_sync(self, rec: Recorded, app: str, guild: str | None = None) -> web.Response:
        out = []
        for cmd in rec.json or []:
            c = dict(cmd)
            c.update(
                id=self.new_id(),
                application_id=self.application_id,
                version=self.new_id(),
                default_member_permissions=c.get("default_member_permissions"),
            )
            if guild:
                c["guild_id"] = guild
            out.append(c)
        self.commands = out
        return _json_response(out)

    async def r_get_commands(self, rec: Recorded, app: str, guild: str | None = None) -> web.Response:
        return _json_response(self.commands)

    async def r_user(self, rec: Recorded, user: str) -> web.Response:
        if user in self.users:
            return _json_response(self.users[user])
        return _error(404, 10013, "Unknown User")

    async def r_member(self, rec: Recorded, guild: str, user: str) -> web.Response:
        if user in self.users:
            return _json_response(self._member_payload(self.users[user]))
        return _error(404, 10007, "Unknown Member")

    async def r_channel(self, rec: Recorded, channel: str) -> web.Response:
        if channel in self.channels:
            return _json_response(self.channels[channel])
        return _error(404, 10003, "Unknown Channel")

    async def r_create_dm(self, rec: Recorded) -> web.Response:
        uid = str((rec.json or {}).get("recipient_id"))
        if uid not in self.users:
            return _error(400, 50033, "Invalid Recipient(s)")
        if uid not in self.dm_channels:
            ch = {
                "id": self.new_id(),
                "type": 1,
                "recipients": [self.users[uid]],
                "last_message_id": None,
                "_user_id": uid,
            }
            self.channels[ch["id"]] = ch
            self.messages[ch["id"]] = []
            self.dm_channels[uid] = ch["id"]
        ch = dict(self.channels[self.dm_channels[uid]])
        ch.pop("_user_id", None)
        return _json_response(ch)

    def _build_message(
        self,
        channel_id: str,
        payload: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        ephemeral_for: str | None = None,
        interaction: FakeInteraction | None = None,
    ) -> dict[str, Any]:
        payload = payload or {}
        msg: dict[str, Any] = {
            "id": self.new_id(),
            "channel_id": channel_id,
            "author": self.bot_user,
            "content": payload.get("content") or "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": int(payload.get("flags") or 0),
            "_files": [],
            "_ephemeral_for": ephemeral_for,
        }
        ch = self.channels.get(channel_id)
        if ch is not None and ch.get("guild_id"):
            msg["guild_id"] = ch["guild_id"]
        if interaction is not None:
            msg["interaction_metadata"] = {
                "id": interaction.id,
                "type": interaction.payload["type"],
                "user": interaction.user,
                "authorizing_integration_owners": {},
            }
        self._add_files(msg, files)
        return msg

    def _add_files(self, msg: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        for name, data in files:
            att_id = self.new_id()
            msg["attachments"].append(
                {
                    "id": att_id,
                    "filename": name,
                    "size": len(data),
                    "url": f"http://127.0.0.1:{self.port}/attachments/{att_id}/{name}",
                    "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{att_id}/{name}",
                }
            )
            msg["_files"].append((att_id, name, data))

    def _apply_edit(self, msg: dict[str, Any], payload: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        payload = payload or {}
        for key in ("content", "embeds", "components", "flags"):
            if key in payload:
                msg[key] = payload[key] if payload[key] is not None else ([] if key != "content" else "")
        if "attachments" in payload:
            keep = {str(a.get("id")) for a in payload["attachments"] or []}
            msg["attachments"] = [a for a in msg["attachments"] if a["id"] in keep]
            msg["_files"] = [f for f in msg["_files"] if f[0] in keep]
        self._add_files(msg, files)
        msg["edited_timestamp"] = _now_iso()
        msg["_edits"] = msg.get("_edits", 0) + 1

    @staticmethod
    def public(msg: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in msg.items() if not k.startswith("_")}

    def _find(self, channel: str, message: str) -> dict[str, Any] | None:
        for m in self.messages.get(channel, []):
            if m["id"] == message:
                return m
        return None

    async def r_send(self, rec: Recorded, channel: str) -> web.Response:
        ch = self.channels.get(channel)
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        if ch["type"] == 1 and ch["_user_id"] in self.dms_closed:
            return _error(403, 50007, "Cannot send messages to this user")
        msg = self._build_message(channel, rec.json, rec.files)
        self.messages[channel].append(msg)
        return _json_response(self.public(msg))

    async def r_get_message(self, rec: Recorded, channel: str, message: str) -> web.Response:
        msg = self._find(channel, message)
        return _json_response(self.public(msg)) if msg else _error(404, 10008, "Unknown Message")

    async def r_edit(self, rec: Recorded, channel: str, message: str) -> web.Response:
        msg = self._find(channel, message)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        self._apply_edit(msg, rec.json, rec.files)
        return _json_response(self.public(msg))

    async def r_delete(self, rec: Recorded, channel: str, message: str) -> web.Response:
        msg = self._find(channel, message)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        self.messages[channel].remove(msg)
        return web.Response(status=204)

    async def r_no_content(self, rec: Recorded, **_: str) -> web.Response:
        return web.Response(status=204)

    # ----------------------------------------------------- interaction REST
    async def r_callback(self, rec: Recorded, iid: str, token: str) -> web.Response:
        ix = self.interactions.get(iid)
        if ix is None or ix.token != token:
            return _error(404, 10062, "Unknown interaction")
        if ix.callbacks:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        ix.callbacks.append(rec)
        kind = int((rec.json or {}).get("type", 0))
        data = (rec.json or {}).get("data") or {}
        resource: dict[str, Any] = {"type": kind}
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        if kind in (4, 5):  # a new reply (5: "thinking...")
            msg = self._build_message(
                ix.channel_id,
                data if kind == 4 else {"flags": data.get("flags", 0)},
                rec.files,
                ephemeral_for=ix.user["id"] if ephemeral else None,
                interaction=ix,
            )
            if kind == 5:
                msg["flags"] |= 1 << 7  # loading
            self.messages.setdefault(ix.channel_id, []).append(msg)
            ix.original = msg
            resource["message"] = self.public(msg)
        elif kind in (6, 7):  # acknowledge / update the message the component is on
            src = ix.payload.get("message")
            msg = self._find(src["channel_id"], src["id"]) if src else None
            if msg is not None:
                if kind == 7:
                    self._apply_edit(msg, data, rec.files)
                ix.original = msg
                resource["message"] = self.public(msg)
        resp = {
            "interaction": {
                "id": iid,
                "type": ix.payload["type"],
                "response_message_id": ix.original["id"] if ix.original else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            },
            "resource": resource,
        }
        ix.answered.set()
        return _json_response(resp)

    def _ix_by_token(self, token: str) -> FakeInteraction | None:
        for ix in self.interactions.values():
            if ix.token == token:
                return ix
        return None

    async def r_followup(self, rec: Recorded, app: str, token: str) -> web.Response:
        ix = self._ix_by_token(token)
        if ix is None:
            return _error(404, 10015, "Unknown Webhook")
        ix.webhook_used.set()
        data = rec.json or {}
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        if ix.original is not None and ix.original["flags"] & (1 << 7) and not ix.followups:
            # the first follow-up after a "thinking" defer replaces the loading message
            msg = ix.original
            eph = bool(msg["flags"] & EPHEMERAL)
            msg["flags"] = msg["flags"] & ~(1 << 7)
            self._apply_edit(msg, data, rec.files)
            if eph:
                msg["flags"] |= EPHEMERAL
            ix.followups.append(msg)
        else:
            msg = self._build_message(
                ix.channel_id, data, rec.files, ephemeral_for=ix.user["id"] if ephemeral else None, interaction=ix
            )
            self.messages.setdefault(ix.channel_id, []).append(msg)
            ix.followups.append(msg)
        return _json_response(self.public(msg))

    def _wh_target(self, token: str, mid: str) -> dict[str, Any] | None:
        ix = self._ix_by_token(token)
        if ix is None:
            return None
        ix.webhook_used.set()
        if mid == "@original":
            return ix.original
        for m in ix.messages():
            if m["id"] == mid:
                return m
        return self._find(ix.channel_id, mid)

    async def r_wh_get(self, rec: Recorded, app: str, token: str, mid: str) -> web.Response:
        msg = self._wh_target(token, mid)
        return _json_response(self.public(msg)) if msg else _error(404, 10008, "Unknown Message")

    async def r_wh_edit(self, rec: Recorded, app: str, token: str, mid: str) -> web.Response:
        msg = self._wh_target(token, mid)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        msg["flags"] = msg["flags"] & ~(1 << 7)
        self._apply_edit(msg, rec.json, rec.files)
        return _json_response(self.public(msg))

    async def r_wh_delete(self, rec: Recorded, app: str, token: str, mid: str) -> web.Response:
        msg = self._wh_target(token, mid)
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        lst = self.messages.get(msg["channel_id"], [])
        if msg in lst:
            lst.remove(msg)
        return web.Response(status=204)

    # --------------------------------------------------- sending interactions
    def _user_of(self, user: dict[str, Any] | str) -> dict[str, Any]:
        return self.users[user] if isinstance(user, str) else user

    def _base_interaction(
        self, kind: int, user: dict[str, Any], channel_id: str, data: dict[str, Any]
    ) -> dict[str, Any]:
        ch = self.channels[channel_id]
        payload: dict[str, Any] = {
            "id": self.new_id(),
            "application_id": self.application_id,
            "type": kind,
            "data": data,
            "token": f"tok{self.new_id()}",
            "version": 1,
            "locale": "en-US",
            "attachment_size_limit": 25 * 1024 * 1024,
            "app_permissions": str((1 << 53) - 1),
            "entitlements": [],
            "authorizing_integration_owners": {"0": self.guild_id},
        }
        if ch["type"] == 1:
            payload["user"] = user
            payload["context"] = 1
            payload["channel"] = {"id": channel_id, "type": 1, "recipients": [user]}
            payload["channel_id"] = channel_id
        else:
            payload["guild_id"] = self.guild_id
            payload["guild_locale"] = "en-US"
            payload["member"] = self._member_payload(user)
            payload["context"] = 0
            payload["channel"] = {k: v for k, v in ch.items() if not k.startswith("_")}
            payload["channel_id"] = channel_id
        return payload

    async def _send_interaction(
        self, payload: dict[str, Any], user: dict[str, Any], channel_id: str, wait: bool, timeout: float
    ) -> FakeInteraction:
        ix = FakeInteraction(payload["id"], payload["token"], user, channel_id, payload)
        self.interactions[ix.id] = ix
        await self._send_event("INTERACTION_CREATE", payload)
        if wait:
            try:
                await asyncio.wait_for(ix.answered.wait(), timeout)
            except TimeoutError:
                raise AssertionError(
                    f"bot did not answer interaction {payload.get('data')} in {timeout}s; "
                    f"unknown routes: {self.unknown}"
                ) from None
            if ix.callback_type in (5, 6):
                # deferred: the real answer is a follow-up or an edit of the original
                try:
                    await asyncio.wait_for(ix.webhook_used.wait(), timeout)
                except TimeoutError:
                    raise AssertionError(
                        f"bot deferred interaction {payload.get('data')} but never followed up"
                    ) from None
                await asyncio.sleep(0)
        return ix

    @staticmethod
    def _option(name: str, value: Any) -> dict[str, Any]:
        if isinstance(value, bool):
            kind = 5
        elif isinstance(value, int):
            kind = 4
        elif isinstance(value, float):
            kind = 10
        else:
            kind = 3
        return {"name": name, "type": kind, "value": value}

    def _command_data(self, command: str, options: dict[str, Any], focused: str | None) -> dict[str, Any]:
        parts = command.split()
        opts = []
        for k, v in options.items():
            o = self._option(k, v)
            if k == focused:
                o["focused"] = True
                o["type"] = 3 if not isinstance(v, int) or isinstance(v, bool) else o["type"]
            opts.append(o)
        for sub in reversed(parts[1:]):
            opts = [{"name": sub, "type": 1, "options": opts}]
        registered = next((c for c in self.commands if c["name"] == parts[0]), None)
        data: dict[str, Any] = {
            "id": registered["id"] if registered else self.new_id(),
            "name": parts[0],
            "type": 1,
            "options": opts,
        }
        if registered and registered.get("guild_id"):
            data["guild_id"] = registered["guild_id"]
        return data

    async def slash(
        self,
        user: dict[str, Any] | str,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel_id: str | None = None,
        timeout: float = 10,
    ) -> FakeInteraction:
        """Run ``/command sub`` as ``user``; returns once the bot answered the interaction."""
        u = self._user_of(user)
        data = self._command_data(command, options or {}, None)
        payload = self._base_interaction(2, u, channel_id or self.channel_id, data)
        return await self._send_interaction(payload, u, channel_id or self.channel_id, True, timeout)

    async def autocomplete(
        self,
        user: dict[str, Any] | str,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        channel_id: str | None = None,
        timeout: float = 10,
    ) -> list[dict[str, Any]]:
        u = self._user_of(user)
        data = self._command_data(command, options, focused)
        payload = self._base_interaction(4, u, channel_id or self.channel_id, data)
        ix = await self._send_interaction(payload, u, channel_id or self.channel_id, True, timeout)
        return ix.callback_data.get("choices", [])

    def find_component(self, msg: dict[str, Any], match: str | Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """A component of ``msg`` whose label or custom_id contains ``match`` (or a predicate)."""
        for c in iter_components(msg):
            if callable(match):
                if match(c):
                    return c
            elif match in (c.get("label") or "") or match in c.get("custom_id", ""):
                return c
        raise AssertionError(
            f"no component {match!r} on message; have {[(c.get('label'), c.get('custom_id')) for c in iter_components(msg)]}"
        )

    async def click(
        self,
        user: dict[str, Any] | str,
        msg: dict[str, Any],
        match: str | Callable[[dict[str, Any]], bool],
        *,
        values: list[str] | None = None,
        timeout: float = 10,
    ) -> FakeInteraction:
        """Press a button (or choose ``values`` in a select) on ``msg`` as ``user``."""
        u = self._user_of(user)
        comp = self.find_component(msg, match)
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": comp["type"]}
        if comp["type"] != 2:
            data["values"] = list(values or [])
        channel_id = msg["channel_id"]
        payload = self._base_interaction(3, u, channel_id, data)
        payload["message"] = self.public(msg)
        return await self._send_interaction(payload, u, channel_id, True, timeout)

    async def submit_modal(
        self,
        user: dict[str, Any] | str,
        custom_id: str,
        fields: dict[str, str],
        *,
        channel_id: str | None = None,
        message: dict[str, Any] | None = None,
        timeout: float = 10,
    ) -> FakeInteraction:
        u = self._user_of(user)
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in fields.items()
        ]
        cid = channel_id or (message["channel_id"] if message else self.channel_id)
        payload = self._base_interaction(5, u, cid, {"custom_id": custom_id, "components": rows})
        if message is not None:
            payload["message"] = self.public(message)
        return await self._send_interaction(payload, u, cid, True, timeout)

    # ------------------------------------------------------------- queries
    def channel_messages(self, channel_id: str | None = None, *, for_user: str | None = None) -> list[dict[str, Any]]:
        """Messages in a channel; ephemeral ones only for ``for_user`` (never for None)."""
        out = []
        for m in self.messages.get(channel_id or self.channel_id, []):
            eph = m.get("_ephemeral_for")
            if eph is None or eph == for_user:
                out.append(m)
        return out

    def public_messages(self, channel_id: str | None = None) -> list[dict[str, Any]]:
        """What everybody in the channel sees (no ephemeral replies)."""
        return self.channel_messages(channel_id)

    def dm_messages(self, user: dict[str, Any] | str) -> list[dict[str, Any]]:
        uid = self._user_of(user)["id"]
        ch = self.dm_channels.get(uid)
        return list(self.messages.get(ch, [])) if ch else []

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 10, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate()`` returns something truthy (re-checked after each request)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise AssertionError(f"timed out waiting for {what}; unknown routes: {self.unknown}")
            async with self._changed:
                try:
                    await asyncio.wait_for(self._changed.wait(), min(remaining, 0.25))
                except TimeoutError:
                    pass

    async def idle(self, quiet: float = 0.3, timeout: float = 15) -> None:
        """Wait until the bot has made no request for ``quiet`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            n = len(self.requests)
            await asyncio.sleep(quiet)
            if len(self.requests) == n:
                return
        raise AssertionError("bot never went quiet")

    def files_sent(self) -> list[tuple[str, str, bytes]]:
        """(channel id, filename, bytes) of every file the bot uploaded, in order."""
        out = []
        for rec in self.requests:
            for name, data in rec.files:
                m = re.match(r"/(?:channels|webhooks|interactions)/(\d+)", rec.path)
                out.append((m.group(1) if m else "", name, data))
        return out
