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
  user who closed their DMs;
* enforces Discord's payload limits (content, embeds, components, custom_id,
  files, flags, allowed_mentions, autocomplete choices, command registration):
  400 with code 50035 and an ``errors`` object, as the real API (see
  :func:`check_message`, :func:`check_commands`; refused requests are listed in
  :attr:`FakeDiscord.limit_errors`, :meth:`FakeDiscord.assert_clean` fails on them);
* enforces the 3 s acknowledgement deadline of an interaction (10062 after it;
  a token never acknowledged cannot post follow-ups: 10015);
* injects faults per route (:meth:`FakeDiscord.fail` and its shorthands)::

      fake.rate_limit("POST", "/channels/{channel}/messages", retry_after=0.3)   # next one 429
      fake.global_rate_limit(retry_after=0.3)                                   # global 429
      fake.fail("POST", "/channels/{c}/messages", SERVER_ERROR, times=None)      # persistent 500
      fake.fail("POST", f"/channels/{dm}/messages", CANNOT_DM)                   # 50007
      fake.deny(channel_id)                                                      # 50013 on writes
      fake.fail("POST", f"/channels/{cid}/messages", UNKNOWN_CHANNEL)            # 10003 (channel gone)
      fake.fail("PATCH", "/channels/{c}/messages/{m}", UNKNOWN_MESSAGE)          # 10008 (message gone)
      fake.fail("POST", "/interactions/{id}/{token}/callback", UNKNOWN_INTERACTION)  # 10062
      fake.slow_ack(3.5)                                                         # late ack -> 10062
      await fake.disconnect()            # gateway drop; RESUME replays missed events
      await fake.disconnect(replay_from=seq)  # ... or replays from an older sequence

  A rule answers ``times`` requests (None: until ``rule.stop()``), ``when=`` narrows it
  by the recorded request; ``rule.hits`` lists what it answered. Route templates:
  ``{name}`` is one path segment, a final ``*`` any rest.

* honours a message ``nonce`` with ``enforce_nonce`` as Discord does: the same nonce
  again in that channel gets the first message back, not a second one
  (:attr:`FakeDiscord.nonce_hits`);
* on request, paces each channel like Discord's message bucket
  (:meth:`FakeDiscord.pace_channels`: X-RateLimit-* headers on every write, 429 over
  the limit) and measures the bot's pacing (:meth:`FakeDiscord.writes_per_window`).

It does not enforce intents or permissions (but see :meth:`FakeDiscord.deny`).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
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
CREATE_PUBLIC_THREADS = 1 << 35
ALL_PERMS = (1 << 53) - 1


def _now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000+00:00", time.gmtime())


def _json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only if Content-Type is exactly application/json.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


async def _request_body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    """The request's JSON body (or form, or multipart ``payload_json``) and its files.

    The Content-Type and the parts of discord.py's multipart bodies are read here
    (:func:`_simple_parts`); any part that is not that simple is read by aiohttp's own
    multipart reader, as before (aiohttp parses each header with the ``email`` package:
    that was a third of the fake's work)."""
    ctype = request.headers.get("Content-Type", "").partition(";")[0].strip().lower()
    if ctype == "application/json":
        return await request.json(), []
    if ctype == "application/x-www-form-urlencoded":
        return dict(await request.post()), []
    if not ctype.startswith("multipart/"):
        return None, []
    raw = await request.read()
    parts = _simple_parts(request.headers.get("Content-Type", ""), raw)
    if parts is None:
        parts = await _aiohttp_parts(request.headers, raw)
    body: Any = None
    files: list[tuple[str, bytes]] = []
    for name, filename, data in parts:
        if name == "payload_json":
            body = json.loads(data.decode("utf-8"))
        else:
            files.append((filename or name or "file", data))
    return body, files


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
# a part's headers as aiohttp's FormData writes them for discord.py (quote_fields=False):
# plain quoted names, no escapes (anything else goes to aiohttp's reader)
_PART_HEADER = re.compile(r"(content-type|content-disposition): (.*)", re.IGNORECASE)
_DISPOSITION = re.compile(r'form-data; name="([^"\\%]*)"(?:; filename="([^"\\%]*)")?')
_CHARSET = re.compile(r";\s*charset=\"?([^\";]+)\"?", re.IGNORECASE)


def _simple_parts(content_type: str, raw: bytes) -> list[tuple[str | None, str | None, bytes]] | None:
    """(name, filename, bytes) of each part of a multipart body, or None where a part is
    not of the simple kind discord.py sends (then aiohttp's reader reads the body)."""
    m = _BOUNDARY.search(content_type)
    if m is None:
        return None
    delim = b"--" + m.group(1).encode("latin-1")
    chunks = raw.split(b"\r\n" + delim)
    first = chunks[0]
    if not first.startswith(delim) or not chunks[-1].startswith(b"--"):
        return None
    chunks[0] = first[len(delim):]
    out: list[tuple[str | None, str | None, bytes]] = []
    for chunk in chunks[:-1]:
        if not chunk.startswith(b"\r\n"):
            return None
        head, sep, data = chunk[2:].partition(b"\r\n\r\n")
        if not sep:
            return None
        name = filename = None
        for line in head.decode("latin-1").split("\r\n"):
            hm = _PART_HEADER.fullmatch(line)
            if hm is None:
                return None
            if hm.group(1).lower() == "content-disposition":
                dm = _DISPOSITION.fullmatch(hm.group(2))
                if dm is None:
                    return None
                name, filename = dm.group(1), dm.group(2)
            else:
                cs = _CHARSET.search(hm.group(2))
                if cs is not None and cs.group(1).lower() not in ("utf-8", "utf8"):
                    return None
        out.append((name, filename, data))
    return out


async def _aiohttp_parts(headers: Any, raw: bytes) -> list[tuple[str | None, str | None, bytes]]:
    """What aiohttp's multipart reader makes of ``raw`` (the fake's reader of old)."""
    from aiohttp import MultipartReader, StreamReader

    class _Quiet:  # the whole body is in: there is no socket to pause
        def pause_reading(self, *args: Any, **kw: Any) -> None: ...
        def resume_reading(self, *args: Any, **kw: Any) -> None: ...

    stream = StreamReader(_Quiet(), 2**30, loop=asyncio.get_running_loop())  # type: ignore[arg-type]
    stream.feed_data(raw)
    stream.feed_eof()
    out: list[tuple[str | None, str | None, bytes]] = []
    async for part in MultipartReader(headers, stream):
        if part.name == "payload_json":
            out.append((part.name, None, (await part.text()).encode("utf-8")))
        else:
            out.append((part.name, part.filename, bytes(await part.read())))
    return out


def _error(status: int, code: int, message: str) -> web.Response:
    return _json_response({"code": code, "message": message}, status=status)


# ------------------------------------------------------------------ payload limits
# Discord answers a payload over a limit with 400, code 50035 "Invalid Form Body" and an
# ``errors`` object that mirrors the payload (schemas ErrorResponse / ErrorDetails /
# InnerErrors of Discord's OpenAPI description, github.com/discord/discord-api-spec,
# specs/openapi.json). The limits below come from that description; the schema each
# one is read from is named beside it.
CONTENT_MAX = 2000  # IncomingWebhookInteractionRequest.content (MessageCreateRequest says 4000: Nitro users; a bot gets 2000)
EMBEDS_MAX = 10  # MessageCreateRequest.embeds maxItems
EMBED_TITLE_MAX = 256  # RichEmbed.title
EMBED_DESCRIPTION_MAX = 4096  # RichEmbed.description
EMBED_FIELDS_MAX = 25  # RichEmbed.fields maxItems
FIELD_NAME_MAX = 256  # RichEmbedField.name
FIELD_VALUE_MAX = 1024  # RichEmbedField.value
FOOTER_TEXT_MAX = 2048  # RichEmbedFooter.text
AUTHOR_NAME_MAX = 256  # RichEmbedAuthor.name
EMBED_TOTAL_MAX = 6000  # all embeds of a message together (docs "Embed Limits"; not in the schema)
ACTION_ROWS_MAX = 5  # docs "Action Rows": 5 rows per message (MessageCreateRequest.components maxItems 40 is for Components V2)
ROW_ITEMS_MAX = 5  # ActionRowComponentForMessageRequest.components maxItems
CUSTOM_ID_MAX = 100  # ButtonComponentForMessageRequest.custom_id / StringSelectComponentForMessageRequest.custom_id
BUTTON_LABEL_MAX = 80  # ButtonComponentForMessageRequest.label
PLACEHOLDER_MAX = 150  # StringSelectComponentForMessageRequest.placeholder
SELECT_OPTIONS_MAX = 25  # StringSelectComponentForMessageRequest.options maxItems
OPTION_LABEL_MAX = 100  # StringSelectOptionForRequest.label
OPTION_VALUE_MAX = 100  # StringSelectOptionForRequest.value
OPTION_DESCRIPTION_MAX = 100  # docs "Select Option Structure" (not in the schema)
ATTACHMENTS_MAX = 10  # MessageCreateRequest.attachments maxItems
UPLOAD_MAX = 25 * 1024 * 1024  # docs "Uploading Files": 25 MiB per file for a bot (HTTP 413, code 40005)
MENTION_IDS_MAX = 100  # MessageAllowedMentionsRequest.users / .roles maxItems
MENTION_PARSE = {"users", "roles", "everyone"}  # AllowedMentionTypes
MODAL_TITLE_MAX = 45  # ModalInteractionCallbackRequestData.title
CHOICES_MAX = 25  # InteractionApplicationCommandAutocompleteCallbackStringData.choices maxItems
CHOICE_NAME_MAX = 100  # ApplicationCommandOptionStringChoice.name
CHOICE_VALUE_MAX = 6000  # ApplicationCommandOptionStringChoice.value
COMMAND_NAME_MAX = 32  # ApplicationCommandCreateRequest.name, ApplicationCommand*Option.name
COMMAND_DESCRIPTION_MAX = 100  # ApplicationCommandCreateRequest.description, ApplicationCommand*Option.description
COMMAND_OPTIONS_MAX = 25  # ApplicationCommandCreateRequest.options maxItems
STRING_OPTION_LENGTH_MAX = 6000  # ApplicationCommandStringOption.max_length / min_length
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")  # docs "Application Command Naming" (lower case for slash commands)
# Message flags a bot may set (docs "Message Object > Message Flags"): SUPPRESS_EMBEDS,
# EPHEMERAL (interaction replies only), SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2.
SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2 = 1 << 2, 1 << 12, 1 << 15
LOADING = 1 << 7



# How long a test waits for a message the bot should send: a guard against one that never
# comes, not a measure of speed (on a busy machine the first pictures wait for the picture
# workers, which run niced behind everything else).
HANG = 60.0

# The bot's work in flight, by its tasks' names: discord.py's event handlers and view and
# command callbacks, the deliverer's senders and its delivered-marks writer, the Play cog's
# sweeps of old prompts, the pictures drawn ahead of a post.
BUSY = (
    "discord.py: ", "discord-ui-", "CommandTree-invoker", "boardroom-deliver-", "boardroom-delivered", "boardroom-play-"
)
# Turns of the event loop with no new request and no busy task that count as quiet: a
# message on the loopback socket is read within one or two (a click's own answer is
# awaited by :meth:`FakeDiscord.click`).
TURNS = 20


def busy_tasks() -> list[asyncio.Task[Any]]:
    """The bot's tasks still running (:data:`BUSY`), this one left out."""
    me = asyncio.current_task()
    return [t for t in asyncio.all_tasks() if t is not me and not t.done() and t.get_name().startswith(BUSY)]

class Problems:
    """Collects errors in Discord's nested ``errors`` shape: {"embeds": {"0": {"title": {"_errors": [...]}}}}."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def text(self, path: tuple[str | int, ...], value: Any, limit: int, *, required: bool = False) -> None:
        if value is None:
            if required:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, str):
            self.add(path, "BASE_TYPE_STRING", "Must be a string.")
        elif len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        elif required and not value:
            self.add(path, "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")

    def items(self, path: tuple[str | int, ...], value: Any, limit: int) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
            return []
        if len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
        return value

    def __bool__(self) -> bool:
        return bool(self.errors)


def _embed_size(emb: dict[str, Any]) -> int:
    size = len(emb.get("title") or "") + len(emb.get("description") or "")
    size += len((emb.get("footer") or {}).get("text") or "") + len((emb.get("author") or {}).get("name") or "")
    for f in emb.get("fields") or []:
        size += len(f.get("name") or "") + len(f.get("value") or "")
    return size


def check_embeds(p: Problems, embeds: Any) -> None:
    total = 0
    for i, emb in enumerate(p.items(("embeds",), embeds, EMBEDS_MAX)):
        if not isinstance(emb, dict):
            p.add(("embeds", i), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        p.text(("embeds", i, "title"), emb.get("title"), EMBED_TITLE_MAX)
        p.text(("embeds", i, "description"), emb.get("description"), EMBED_DESCRIPTION_MAX)
        if emb.get("footer"):
            p.text(("embeds", i, "footer", "text"), emb["footer"].get("text"), FOOTER_TEXT_MAX)
        if emb.get("author"):
            p.text(("embeds", i, "author", "name"), emb["author"].get("name"), AUTHOR_NAME_MAX)
        for j, f in enumerate(p.items(("embeds", i, "fields"), emb.get("fields"), EMBED_FIELDS_MAX)):
            p.text(("embeds", i, "fields", j, "name"), f.get("name"), FIELD_NAME_MAX, required=True)
            p.text(("embeds", i, "fields", j, "value"), f.get("value"), FIELD_VALUE_MAX, required=True)
        total += _embed_size(emb)
    if total > EMBED_TOTAL_MAX:
        p.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")


def check_components(p: Problems, rows: Any, flags: int = 0) -> None:
    if flags & IS_COMPONENTS_V2:
        return  # Components V2 layouts are not used by the bot; not checked here
    seen: set[str] = set()
    for r, row in enumerate(p.items(("components",), rows, ACTION_ROWS_MAX)):
        at = ("components", r)
        if not isinstance(row, dict) or row.get("type") != 1:
            p.add(at, "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).")  # top level: action rows only
            continue
        items = row.get("components")
        if not isinstance(items, list) or not items:
            p.add((*at, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
            continue
        p.items((*at, "components"), items, ROW_ITEMS_MAX)
        selects = [c for c in items if isinstance(c, dict) and c.get("type") in (3, 5, 6, 7, 8)]
        if selects and len(items) > 1:
            p.add((*at, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
        for c, comp in enumerate(items):
            cat = (*at, "components", c)
            if not isinstance(comp, dict):
                p.add(cat, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
                continue
            cid = comp.get("custom_id")
            if comp.get("type") == 2 and comp.get("style") == 5:  # a link button: url, no custom_id
                if cid is not None:
                    p.add((*cat, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_URL_MUTUALLY_EXCLUSIVE", "A custom id and url cannot both be specified")
                p.text((*cat, "url"), comp.get("url"), 512, required=True)
            else:
                p.text((*cat, "custom_id"), cid, CUSTOM_ID_MAX, required=True)
                if isinstance(cid, str):
                    if cid in seen:
                        p.add((*cat, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
                    seen.add(cid)
            if comp.get("type") == 2:
                p.text((*cat, "label"), comp.get("label"), BUTTON_LABEL_MAX)
                if not comp.get("label") and not comp.get("emoji"):
                    p.add((*cat,), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or an emoji is required")
            elif comp.get("type") == 3:
                p.text((*cat, "placeholder"), comp.get("placeholder"), PLACEHOLDER_MAX)
                opts = comp.get("options")
                if not isinstance(opts, list) or not opts:
                    p.add((*cat, "options"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
                    opts = []
                p.items((*cat, "options"), opts, SELECT_OPTIONS_MAX)
                values: set[str] = set()
                for o, opt in enumerate(opts):
                    oat = (*cat, "options", o)
                    p.text((*oat, "label"), opt.get("label"), OPTION_LABEL_MAX, required=True)
                    p.text((*oat, "value"), opt.get("value"), OPTION_VALUE_MAX, required=True)
                    p.text((*oat, "description"), opt.get("description"), OPTION_DESCRIPTION_MAX)
                    if opt.get("value") in values:
                        p.add((*oat, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Component option values must be unique")
                    values.add(opt.get("value"))
                hi = comp.get("max_values", 1)
                lo = comp.get("min_values", 1)
                if not (0 <= lo <= hi <= min(25, max(len(opts), 1))):
                    p.add((*cat, "max_values"), "BASE_TYPE_BAD_INT", "max_values must be between min_values and the number of options")
            elif comp.get("type") in (4,):
                p.add(cat, "COMPONENT_TYPE_INVALID", "Text inputs are only allowed in modals")


def check_allowed_mentions(p: Problems, am: Any) -> None:
    if am is None:
        return
    if not isinstance(am, dict):
        p.add(("allowed_mentions",), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    parse = p.items(("allowed_mentions", "parse"), am.get("parse"), 3)
    for i, kind in enumerate(parse):
        if kind not in MENTION_PARSE:
            p.add(("allowed_mentions", "parse", i), "BASE_TYPE_CHOICES", f"Value must be one of {sorted(MENTION_PARSE)}.")
    for key in ("users", "roles"):
        ids = p.items(("allowed_mentions", key), am.get(key), MENTION_IDS_MAX)
        if ids and key in parse:  # the real error: parse:users and users are mutually exclusive
            p.add(("allowed_mentions",), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", f"parse:[\"{key}\"] and {key}: [ids...] are mutually exclusive.")


def check_message(
    payload: Any, files: list[tuple[str, bytes]], *, create: bool, interaction: bool
) -> tuple[int, dict[str, Any]] | None:
    """None if Discord would take this message payload, else (HTTP status, error body)."""
    payload = payload if isinstance(payload, dict) else {}
    if len(files) > ATTACHMENTS_MAX:
        return 400, {"code": 50035, "message": "Invalid Form Body", "errors": {"files": {"_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {ATTACHMENTS_MAX} or fewer in length."}]}}}
    if any(len(data) > UPLOAD_MAX for _n, data in files):
        return 413, {"code": 40005, "message": "Request entity too large"}
    p = Problems()
    p.text(("content",), payload.get("content"), CONTENT_MAX)
    check_embeds(p, payload.get("embeds"))
    flags = int(payload.get("flags") or 0)
    check_components(p, payload.get("components"), flags)
    check_allowed_mentions(p, payload.get("allowed_mentions"))
    allowed = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2 | (EPHEMERAL if interaction else 0)
    if flags & ~allowed & ~LOADING:
        p.add(("flags",), "MESSAGE_FLAGS_INVALID", "Invalid message flags" + ("" if interaction else ": EPHEMERAL only on interaction replies"))
    p.items(("attachments",), payload.get("attachments"), ATTACHMENTS_MAX)
    if p:
        return 400, {"code": 50035, "message": "Invalid Form Body", "errors": p.errors}
    if create and not (payload.get("content") or payload.get("embeds") or payload.get("components") or files
                       or payload.get("sticker_ids") or payload.get("poll")):
        return 400, {"code": 50006, "message": "Cannot send an empty message"}
    return None


def check_callback(payload: Any, files: list[tuple[str, bytes]]) -> tuple[int, dict[str, Any]] | None:
    """An interaction callback (InteractionCallbackTypes 1, 4-9, 12)."""
    payload = payload if isinstance(payload, dict) else {}
    kind = payload.get("type")
    data = payload.get("data") or {}
    if kind == 4:
        return check_message(data, files, create=True, interaction=True)
    if kind in (5, 6, 12):  # 12: LAUNCH_ACTIVITY (no data)
        return None
    if kind == 7:
        return check_message(data, files, create=False, interaction=True)
    p = Problems()
    if kind == 8:
        for i, ch in enumerate(p.items(("data", "choices"), data.get("choices"), CHOICES_MAX)):
            p.text(("data", "choices", i, "name"), ch.get("name"), CHOICE_NAME_MAX, required=True)
            if isinstance(ch.get("value"), str):
                p.text(("data", "choices", i, "value"), ch.get("value"), CHOICE_VALUE_MAX)
    elif kind == 9:
        p.text(("data", "title"), data.get("title"), MODAL_TITLE_MAX, required=True)
        p.text(("data", "custom_id"), data.get("custom_id"), CUSTOM_ID_MAX, required=True)
    elif kind != 1:
        p.add(("type",), "BASE_TYPE_CHOICES", "Value must be a known interaction callback type.")
    if p:
        return 400, {"code": 50035, "message": "Invalid Form Body", "errors": {"data": p.errors.get("data", p.errors)}}
    return None


def _check_options(p: Problems, at: tuple[str | int, ...], options: Any, depth: int) -> None:
    seen_optional = False
    names: set[str] = set()
    for i, opt in enumerate(p.items((*at, "options"), options, COMMAND_OPTIONS_MAX)):
        oat = (*at, "options", i)
        name = opt.get("name")
        p.text((*oat, "name"), name, COMMAND_NAME_MAX, required=True)
        if isinstance(name, str) and (not COMMAND_NAME.match(name) or name != name.lower()):
            p.add((*oat, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        if name in names:
            p.add((*oat, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
        names.add(name)
        p.text((*oat, "description"), opt.get("description"), COMMAND_DESCRIPTION_MAX, required=True)
        kind = opt.get("type")
        if kind in (1, 2):
            if depth >= 2 or (kind == 2 and depth >= 1):
                p.add(oat, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-command nesting is too deep")
            _check_options(p, oat, opt.get("options"), depth + 1)
            continue
        if opt.get("required"):
            if seen_optional:
                p.add(oat, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
        else:
            seen_optional = True
        for j, ch in enumerate(p.items((*oat, "choices"), opt.get("choices"), CHOICES_MAX)):
            p.text((*oat, "choices", j, "name"), ch.get("name"), CHOICE_NAME_MAX, required=True)
            if isinstance(ch.get("value"), str):
                p.text((*oat, "choices", j, "value"), ch.get("value"), CHOICE_VALUE_MAX)
        for key in ("min_length", "max_length"):
            v = opt.get(key)
            if v is not None and not (0 <= v <= STRING_OPTION_LENGTH_MAX and (key == "min_length" or v >= 1)):
                p.add((*oat, key), "NUMBER_TYPE_MAX", f"int value should be less than or equal to {STRING_OPTION_LENGTH_MAX}.")
        if opt.get("autocomplete") and opt.get("choices"):
            p.add((*oat, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES", "Autocomplete cannot be set with choices")


def check_commands(commands: Any) -> dict[str, Any] | None:
    """The errors object for a bulk command registration, or None if Discord would take it."""
    p = Problems()
    names: set[tuple[int, str]] = set()
    for i, cmd in enumerate(p.items((), commands, 110)):  # 100 slash + 5 user + 5 message commands
        kind = cmd.get("type") or 1
        name = cmd.get("name")
        p.text((i, "name"), name, COMMAND_NAME_MAX, required=True)
        if kind == 1:
            if isinstance(name, str) and (not COMMAND_NAME.match(name) or name != name.lower()):
                p.add((i, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            p.text((i, "description"), cmd.get("description"), COMMAND_DESCRIPTION_MAX, required=True)
            _check_options(p, (i,), cmd.get("options"), 0)
        if (kind, name) in names:
            p.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        names.add((kind, name))
    return p.errors or None


@dataclass
class Recorded:
    """One REST request the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[tuple[str, bytes]]
    status: int = 0
    at: float = field(default_factory=time.monotonic)
    fault: FaultRule | None = None  # the injected fault that answered it, if any
    auth: str | None = None  # the Authorization header (the table's OAuth calls)
    # the answer's body as sent; :attr:`response` decodes it when first read (most
    # answers are never looked at: decoding each one was a tenth of the fake's work)
    _body: bytes | None = field(default=None, repr=False)
    _decoded: bool = field(default=False, repr=False)
    _response: Any = field(default=None, repr=False)

    @property
    def response(self) -> Any:
        """The answer's JSON body (None if it had none, or not JSON)."""
        if not self._decoded:
            self._decoded = True
            if self._body:
                try:
                    self._response = json.loads(self._body)
                except (TypeError, ValueError):
                    self._response = None
            self._body = None
        return self._response

    def __repr__(self) -> str:  # short, for assertion messages
        files = f" files={[n for n, _ in self.files]}" if self.files else ""
        fault = " (injected)" if self.fault else ""
        return f"<{self.method} {self.path} -> {self.status}{fault}{files}>"

    @property
    def code(self) -> int | None:
        """The Discord error code of the answer (None for a success)."""
        return self.response.get("code") if isinstance(self.response, dict) and self.status >= 400 else None


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
    created: float = field(default_factory=time.monotonic)
    refused: list[Recorded] = field(default_factory=list)  # callbacks answered with an error
    settled: asyncio.Event = field(default_factory=asyncio.Event)  # answered, or a callback refused

    @property
    def failed(self) -> bool:
        """What the user sees "This interaction failed" for: no acknowledgement succeeded."""
        return not self.callbacks

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


def select_menu(msg: dict[str, Any]) -> dict[str, Any] | None:
    """The message's first select menu (component type 3), or None."""
    return next((c for c in iter_components(msg) if c["type"] == 3), None)


# ------------------------------------------------------------------ faults
ACK_DEADLINE = 3.0  # seconds: an interaction not acknowledged by then is gone (10062)


@dataclass(frozen=True)
class Failure:
    """What an injected fault answers: an HTTP status, a Discord error code and message,
    optionally a 429's ``retry_after`` and scope (``"user"``, ``"shared"`` or ``"global"``)."""

    status: int
    code: int = 0
    message: str = ""
    retry_after: float | None = None
    scope: str | None = None

    def response(self, bucket: str) -> web.Response:
        if self.status != 429:
            body: dict[str, Any] = {"code": self.code, "message": self.message}
            if self.status >= 500 and self.code == 0:  # a bare gateway error page, as Cloudflare sends
                return web.Response(status=self.status, text=f"{self.status}: {self.message or 'Server Error'}")
            return _json_response(body, status=self.status)
        retry = float(self.retry_after if self.retry_after is not None else 0.2)
        is_global = self.scope == "global"
        # RatelimitedResponse: {message, code, retry_after, global}; headers as the docs' "Rate Limits" page
        body = {"message": "You are being rate limited.", "retry_after": retry, "global": is_global, "code": 0}
        headers = {
            "Content-Type": "application/json",
            "Retry-After": str(max(1, math.ceil(retry))),  # whole seconds, as Discord sends it
            "X-RateLimit-Scope": self.scope or "user",
            "Via": "1.1 google",  # discord.py takes a 429 without Via for a Cloudflare ban
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(
                {
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                    "X-RateLimit-Reset-After": f"{retry:.3f}",
                    "X-RateLimit-Bucket": bucket,
                }
            )
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)


def rate_limited(retry_after: float = 0.2, scope: str = "user") -> Failure:
    """A 429 of one route's bucket (``scope`` "user" or "shared") or, with ``scope="global"``, the global limit."""
    return Failure(429, 0, "You are being rate limited.", retry_after, scope)


SERVER_ERROR = Failure(500, 0, "Internal Server Error")
BAD_GATEWAY = Failure(502, 0, "Bad Gateway")
CANNOT_DM = Failure(403, 50007, "Cannot send messages to this user")
MISSING_PERMISSIONS = Failure(403, 50013, "Missing Permissions")
UNKNOWN_CHANNEL = Failure(404, 10003, "Unknown Channel")  # firing it deletes the channel for good
UNKNOWN_MESSAGE = Failure(404, 10008, "Unknown Message")  # firing it deletes the message for good
UNKNOWN_INTERACTION = Failure(404, 10062, "Unknown interaction")
UNKNOWN_WEBHOOK = Failure(404, 10015, "Unknown Webhook")


def _route_regex(route: str) -> re.Pattern[str]:
    """``/channels/{channel}/messages`` -> a regex: ``{name}`` is one path segment, a final
    ``*`` any rest; everything else literal (so ids can be written in with an f-string)."""
    rest = route.endswith("*")
    parts = re.split(r"(\{[^}/]*\})", route[:-1] if rest else route)
    rx = "".join("[^/]+" if p.startswith("{") and p.endswith("}") else re.escape(p) for p in parts)
    return re.compile(rx + (".*" if rest else ""))


@dataclass
class FaultRule:
    """One injected fault: requests matching ``method`` and ``route`` (and ``when``) get
    ``failure`` (after ``delay`` seconds), ``times`` times (None: until removed)."""

    method: str
    route: str
    failure: Failure | None
    times: int | None = 1
    delay: float = 0.0
    when: Callable[[Recorded], bool] | None = None
    hits: list[Recorded] = field(default_factory=list)
    _rx: re.Pattern[str] | None = None

    def matches(self, rec: Recorded) -> bool:
        if self.times is not None and len(self.hits) >= self.times:
            return False
        if self.method not in ("*", rec.method):
            return False
        if self._rx is None:
            self._rx = _route_regex(self.route)
        if not self._rx.fullmatch(rec.path):
            return False
        return self.when is None or bool(self.when(rec))

    @property
    def active(self) -> bool:
        return self.times is None or len(self.hits) < self.times

    def stop(self) -> None:
        """No more hits from now on (the rule stays listed, with its hits)."""
        self.times = len(self.hits)


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
        self.approximate_guild_count = 1  # what application info says (sharding above 2,000)
        # the Activity (the live table): its OAuth2 client secret, codes and access tokens
        # given out (-> user id), and each LAUNCH_ACTIVITY answered (user, channel, code)
        self.client_secret = "fake-client-secret"
        self.oauth_codes: dict[str, str] = {}
        self.oauth_tokens: dict[str, str] = {}
        self.launches: list[dict[str, str]] = []
        self.users: dict[str, dict[str, Any]] = {self.owner["id"]: self.owner}
        self.member_perms: dict[str, int] = {self.owner["id"]: ADMINISTRATOR | MANAGE_GUILD}
        self.dms_closed: set[str] = set()
        self.channels: dict[str, dict[str, Any]] = {}
        self.dm_channels: dict[str, str] = {}  # user id -> DM channel id
        self.deleted_channels: dict[str, dict[str, Any]] = {}
        self.deleted_messages: list[dict[str, Any]] = []
        self.limit_errors: list[Recorded] = []  # requests refused for a payload limit
        self.messages: dict[str, list[dict[str, Any]]] = {}
        self.requests: list[Recorded] = []
        self.unknown: list[Recorded] = []
        self.commands: list[dict[str, Any]] = []
        self.interactions: dict[str, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}  # the interactions by token (see _ix_by_token)
        self.gateway_events: list[dict[str, Any]] = []
        self.identifies = 0
        self.resumes = 0
        self.replayed: list[dict[str, Any]] = []  # gateway frames sent again on a RESUME
        self.heartbeat_seq: int | None = None  # the sequence the bot's last heartbeat acknowledged
        self.session_id: str | None = None
        self.resumable = True
        self._replay_from: int | None = None
        self._session_events: list[tuple[int, dict[str, Any]]] = []
        self.faults: list[FaultRule] = []
        self.enforce_limits = True  # payload limits of real Discord (400 / 50035)
        self.ack_deadline: float | None = ACK_DEADLINE  # 10062 for a callback later than this
        self.channel_bucket: tuple[int, float] | None = None  # see pace_channels
        self._channel_writes: dict[str, list[float]] = {}
        self.paced: list[Recorded] = []  # writes refused with 429 by pace_channels
        self.nonce_hits: list[Recorded] = []  # posts answered with an earlier message (same nonce)
        # the bot's permissions in the channel (interaction app_permissions): everything but
        # Create Public Threads, unless a test calls allow_threads()
        self.app_permissions = ALL_PERMS & ~CREATE_PUBLIC_THREADS
        self.threads: list[dict[str, Any]] = []  # threads the bot started
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

    def assert_within_limits(self) -> None:
        """No request was refused for a payload limit (real Discord would have said 400)."""
        detail = [(r, r.response) for r in self.limit_errors]
        assert not self.limit_errors, f"bot sent payloads over Discord's limits: {detail}"

    def assert_clean(self) -> None:
        self.assert_no_unknown()
        self.assert_within_limits()

    def ack_times(self) -> list[float]:
        """Seconds from each interaction's creation to its first successful acknowledgement."""
        return [ix.callbacks[0].at - ix.created for ix in self.interactions.values() if ix.callbacks]

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
                self.heartbeat_seq = data.get("d")
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:  # IDENTIFY: a fresh session
                await self._identify(ws)
            elif op == 6:  # RESUME
                await self._resume(ws, data.get("d") or {})
        if self._ws is ws:
            self._ws = None
            self._ws_ready.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse) -> None:
        self.identifies += 1
        self.session_id = f"session-{self.identifies}"
        self.resumable = True
        self._seq = 0
        self._session_events = []
        await self._send_event(
            "READY",
            {
                "v": 10,
                "user": self.bot_user,
                "guilds": [{"id": self.guild_id, "unavailable": True}],
                "session_id": self.session_id,
                "resume_gateway_url": f"ws://127.0.0.1:{self.port}/",
                "shard": [0, 1],
                "application": {"id": self.application_id, "flags": 0},
                "private_channels": [],
                "relationships": [],
            },
            ws=ws,
        )
        await self._send_event("GUILD_CREATE", self._guild_payload(), ws=ws)
        self._ws_ready.set()

    async def _resume(self, ws: web.WebSocketResponse, d: dict[str, Any]) -> None:
        """As Discord: replay the session's events after the given sequence, then RESUMED;
        an unknown or invalidated session gets INVALID_SESSION (d=false) and must IDENTIFY."""
        if not self.resumable or d.get("session_id") != self.session_id or self.session_id is None:
            await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
            return
        self.resumes += 1
        start = int(d.get("seq") or 0) if self._replay_from is None else self._replay_from
        self._replay_from = None
        for seq, frame in list(self._session_events):
            if seq > start:
                self.replayed.append(frame)
                await ws.send_json(frame)
        self._seq += 1
        await ws.send_json({"op": 0, "t": "RESUMED", "s": self._seq, "d": {}})
        self._ws_ready.set()

    async def _send_event(self, name: str, data: dict[str, Any], *, ws: web.WebSocketResponse | None = None) -> None:
        """Dispatch an event. While the bot is away (after :meth:`disconnect`) events of a
        resumable session are kept and replayed on RESUME, as Discord does."""
        self._seq += 1
        frame = {"op": 0, "t": name, "s": self._seq, "d": data}
        self.gateway_events.append({"t": name, "d": data})
        self._session_events.append((self._seq, frame))
        target = ws or (self._ws if self._ws_ready.is_set() else None)
        if target is None or target.closed:
            assert self.session_id is not None and self.resumable, "bot is not connected"
            return
        await target.send_json(frame)

    @property
    def last_seq(self) -> int:
        """The sequence number of the last event dispatched."""
        return self._seq

    async def disconnect(self, code: int = 4000, *, replay_from: int | None = None, resumable: bool = True) -> None:
        """Close the gateway connection like a Discord-side fault (close code 4000 "unknown
        error" is resumable; discord.py reconnects and sends RESUME at once). On RESUME the
        fake replays the events after the sequence the bot names, as Discord does; with
        ``replay_from`` it replays from that sequence instead (events the bot already had:
        at-least-once delivery). ``resumable=False`` invalidates the session (INVALID_SESSION,
        then a new IDENTIFY)."""
        ws = self._ws
        assert ws is not None, "bot is not connected"
        self.resumable = resumable
        self._replay_from = replay_from
        self._ws_ready.clear()
        await ws.close(code=code, message=b"fake disconnect")

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT, as Discord does before it moves a session; the bot RESUMEs."""
        assert self._ws is not None, "bot is not connected"
        self._ws_ready.clear()
        await self._ws.send_json({"op": 7, "d": None, "s": None, "t": None})

    async def wait_connected(self, timeout: float = 10) -> None:
        await asyncio.wait_for(self._ws_ready.wait(), timeout)

    # ---------------------------------------------------------------- faults
    def fail(
        self,
        method: str,
        route: str,
        failure: Failure,
        *,
        times: int | None = 1,
        when: Callable[[Recorded], bool] | None = None,
        delay: float = 0.0,
    ) -> FaultRule:
        """The next ``times`` requests (None: every one until ``rule.stop()``) that match
        ``method`` ("*" for any) and ``route`` get ``failure``. ``route`` is a path under
        /api/v10 where ``{name}`` stands for one segment and a final ``*`` for any rest,
        e.g. ``"/channels/{channel}/messages"`` or ``f"/channels/{fake.channel_id}/*"``;
        ``when(recorded_request)`` narrows it further (e.g. by content). Rules are tried in
        the order they were added; the first one that matches answers."""
        rule = FaultRule(method.upper(), route, failure, times, delay, when)
        self.faults.append(rule)
        return rule

    def slow(
        self, method: str, route: str, delay: float, *, times: int | None = 1, when: Callable[[Recorded], bool] | None = None
    ) -> FaultRule:
        """Matching requests are answered normally, but only after ``delay`` seconds."""
        return self.fail(method, route, None, times=times, when=when, delay=delay)  # type: ignore[arg-type]

    def slow_ack(self, delay: float = ACK_DEADLINE + 0.5, *, times: int | None = 1) -> FaultRule:
        """Interaction callbacks are handled ``delay`` s late; past the 3 s deadline from the
        interaction's creation the answer is 10062 Unknown interaction, as on real Discord."""
        return self.slow("POST", "/interactions/{id}/{token}/callback", delay, times=times)

    def rate_limit(
        self, method: str, route: str, *, retry_after: float = 0.2, times: int | None = 1, scope: str = "user"
    ) -> FaultRule:
        """429 on a route's bucket (``scope`` "user" or "shared") with the X-RateLimit-* headers."""
        return self.fail(method, route, rate_limited(retry_after, scope), times=times)

    def global_rate_limit(self, *, retry_after: float = 0.2, times: int | None = 1, route: str = "*") -> FaultRule:
        """429 with ``"global": true`` and X-RateLimit-Global: discord.py holds every request for ``retry_after``."""
        return self.fail("*", route, rate_limited(retry_after, "global"), times=times)

    def deny(self, channel_id: str, *, times: int | None = None) -> FaultRule:
        """The bot lost its permissions in a channel: every write there gets 50013 Missing Permissions."""
        return self.fail("*", f"/channels/{channel_id}/*", MISSING_PERMISSIONS, times=times, when=lambda r: r.method != "GET")

    def pace_channels(self, limit: int = 5, per: float = 5.0) -> None:
        """Enforce Discord's message bucket of each channel: ``limit`` writes (post, edit,
        delete) per ``per`` seconds. Every answer carries X-RateLimit-Limit / -Remaining /
        -Reset / -Reset-After / -Bucket (discord.py waits on them by itself); a write over the
        limit gets 429 with ``retry_after``, as on Discord."""
        self.channel_bucket = (limit, per)

    def writes_per_window(self, channel_id: str, per: float = 5.0) -> int:
        """The most successful writes (post, edit, delete) the bot made to a channel within
        any ``per`` seconds: the pacing the issue asks for is at most 5 per 5 s."""
        times = sorted(
            r.at
            for r in self.requests
            if r.method in ("POST", "PATCH", "DELETE")
            and re.fullmatch(rf"/channels/{channel_id}/messages(/\d+)?", r.path)
            and 200 <= r.status < 300
        )
        best, lo = 0, 0
        for hi, t in enumerate(times):
            while t - times[lo] >= per:
                lo += 1
            best = max(best, hi - lo + 1)
        return best

    def _bucket(self, rec: Recorded) -> tuple[str, list[float], int, float] | None:
        if self.channel_bucket is None or rec.method not in ("POST", "PATCH", "DELETE"):
            return None
        m = re.fullmatch(r"/channels/(\d+)/messages(?:/\d+)?", rec.path)
        if not m:
            return None
        limit, per = self.channel_bucket
        now = time.monotonic()
        writes = [t for t in self._channel_writes.get(m.group(1), []) if now - t < per]
        self._channel_writes[m.group(1)] = writes
        return m.group(1), writes, limit, per

    @staticmethod
    def _bucket_headers(resp: web.StreamResponse, writes: list[float], limit: int, per: float) -> None:
        reset_after = (writes[0] + per - time.monotonic()) if writes else per
        resp.headers.update(
            {
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Remaining": str(max(0, limit - len(writes))),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{max(0.0, reset_after):.3f}",
                "X-RateLimit-Bucket": "fake-channel-messages",
            }
        )

    def close_dms(self, user: dict[str, Any] | str, *, times: int | None = None) -> FaultRule:
        """A member closes their DMs now: every message to their DM channel gets 50007."""
        uid = self._user_of(user)["id"]

        def to_them(rec: Recorded) -> bool:
            m = re.match(r"/channels/(\d+)/messages$", rec.path)
            return bool(m) and self.channels.get(m.group(1), {}).get("_user_id") == uid

        return self.fail("POST", "/channels/{channel}/messages", CANNOT_DM, times=times, when=to_them)

    def delete_message(self, channel_id: str, message_id: str) -> None:
        """A user deleted a message (a board or the sealed counter): requests for it get 10008 from now on."""
        msg = self._find(channel_id, message_id)
        if msg is not None:
            self.messages[channel_id].remove(msg)
            self.deleted_messages.append(msg)

    def delete_channel(self, channel_id: str) -> None:
        """A moderator deleted a channel: it and its messages are gone (10003 from now on)."""
        ch = self.channels.pop(channel_id, None)
        if ch is None:
            return
        self.deleted_messages.extend(self.messages.pop(channel_id, []))
        self.deleted_channels[channel_id] = ch
        if self._ws_ready.is_set() and ch.get("guild_id"):
            public = {k: v for k, v in ch.items() if not k.startswith("_")}
            asyncio.ensure_future(self._send_event("CHANNEL_DELETE", public))

    def injected(self) -> list[Recorded]:
        """Requests that an injected fault answered with an error."""
        return [r for r in self.requests if r.fault is not None and r.fault.failure is not None]

    def _fault_effect(self, failure: Failure, rec: Recorded) -> None:
        """An injected "it is gone" error makes it really gone, so later requests agree."""
        m = re.match(r"/channels/(\d+)(?:/messages/(\d+))?", rec.path)
        if failure.code == 10003 and m:
            self.delete_channel(m.group(1))
        elif failure.code == 10008:
            if m and m.group(2):
                self.delete_message(m.group(1), m.group(2))
            w = re.match(r"/webhooks/\d+/([^/]+)/messages/(@original|\d+)", rec.path)
            if w:
                msg = self._wh_target(w.group(1), w.group(2))
                if msg is not None:
                    self.delete_message(msg["channel_id"], msg["id"])
        cb = re.match(r"/interactions/(\d+)/[^/]+/callback", rec.path)
        if cb and cb.group(1) in self.interactions:
            ix = self.interactions[cb.group(1)]
            ix.refused.append(rec)
            ix.settled.set()

    # ------------------------------------------------------------------ REST
    _ROUTES: list[tuple[str, re.Pattern[str], str]] = []

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await _request_body(request)
        rec = Recorded(request.method, path, dict(request.query), body, files, auth=request.headers.get("Authorization"))
        self.requests.append(rec)
        rule = next((f for f in self.faults if f.matches(rec)), None)
        if rule is not None:
            rule.hits.append(rec)
            rec.fault = rule
            if rule.delay:
                await asyncio.sleep(rule.delay)
        bucket = self._bucket(rec) if rule is None or rule.failure is None else None
        if rule is not None and rule.failure is not None:
            resp = rule.failure.response(bucket=f"fake-{abs(hash((rule.method, rule.route))) % 10**8:08d}")
            self._fault_effect(rule.failure, rec)
        elif bucket is not None and len(bucket[1]) >= bucket[2]:
            _cid, writes, limit, per = bucket
            retry = max(0.001, writes[0] + per - time.monotonic())
            resp = rate_limited(round(retry, 3), "user").response("fake-channel-messages")
            self.paced.append(rec)
        else:
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
            if bucket is not None:
                if 200 <= resp.status < 300:
                    bucket[1].append(time.monotonic())
                self._bucket_headers(resp, bucket[1], bucket[2], bucket[3])
        rec.status = resp.status
        if isinstance(resp, web.Response) and resp.body:
            body = resp.body
            rec._body = body if isinstance(body, bytes) else None  # decoded when read (Recorded.response)
        await self._notify()
        return resp

    def _table(self) -> list[tuple[str, re.Pattern[str], str]]:
        if not FakeDiscord._ROUTES:
            s = r"(?P<%s>\d+)"
            spec = [
                ("GET", "/gateway", "r_gateway"),
                ("GET", "/gateway/bot", "r_gateway"),
                ("GET", "/users/@me", "r_me"),
                ("POST", "/oauth2/token", "r_oauth_token"),
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
                ("POST", f"/channels/{s % 'channel'}/messages/{s % 'message'}/threads", "r_start_thread"),
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
        if rec.auth and rec.auth.startswith("Bearer "):  # an Activity's user (OAuth2 access token)
            uid = self.oauth_tokens.get(rec.auth[7:])
            if uid is None:
                return _error(401, 0, "401: Unauthorized")
            return _json_response(self.users[uid])
        return _json_response(self.bot_user)

    # -- the Activity's OAuth2 (the Embedded App SDK's authorize, then the code exchange)

    def oauth_code(self, user: dict[str, Any] | str) -> str:
        """What the Discord client's ``authorize`` gives an Activity for ``user``: a code,
        good once, that the app's server exchanges at /oauth2/token."""
        code = f"code-{self.new_id()}"
        self.oauth_codes[code] = self._user_of(user)["id"]
        return code

    async def r_oauth_token(self, rec: Recorded) -> web.Response:
        form = rec.json if isinstance(rec.json, dict) else {}
        uid = self.oauth_codes.pop(str(form.get("code")), None)
        if (
            form.get("grant_type") != "authorization_code"
            or form.get("client_id") != self.application_id
            or form.get("client_secret") != self.client_secret
            or uid is None
        ):
            return _error(400, 0, "invalid_grant")
        access = f"access-{self.new_id()}"
        self.oauth_tokens[access] = uid
        return _json_response({"access_token": access, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"})

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
                "approximate_guild_count": self.approximate_guild_count,
            }
        )

    def _refuse(self, rec: Recorded, bad: tuple[int, dict[str, Any]] | None) -> web.Response | None:
        """The 400/413 answer for a payload over Discord's limits (None if it is fine)."""
        if bad is None or not self.enforce_limits:
            return None
        self.limit_errors.append(rec)
        return _json_response(bad[1], status=bad[0])

    async def r_sync(self, rec: Recorded, app: str, guild: str | None = None) -> web.Response:
        errors = check_commands(rec.json or [])
        if errors and self.enforce_limits:
            self.limit_errors.append(rec)
            return _json_response({"code": 50035, "message": "Invalid Form Body", "errors": errors}, status=400)
        entry_points = [c for c in self.commands if c.get("type") == 4]  # an Activity's Entry Point
        if not guild and entry_points and not any((c.get("type") or 1) == 4 for c in rec.json or []):
            return _error(400, 50240, "You cannot remove this app's Entry Point command in a bulk update operation.")
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
        for m in reversed(self.messages.get(channel, [])):  # ids are unique; the newest are asked for most
            if m["id"] == message:
                return m
        return None

    async def r_send(self, rec: Recorded, channel: str) -> web.Response:
        ch = self.channels.get(channel)
        if ch is None:
            return _error(404, 10003, "Unknown Channel")
        if ch["type"] == 1 and ch["_user_id"] in self.dms_closed:
            return _error(403, 50007, "Cannot send messages to this user")
        bad = self._refuse(rec, check_message(rec.json, rec.files, create=True, interaction=False))
        if bad is not None:
            return bad
        nonce = (rec.json or {}).get("nonce")
        if nonce is not None and (rec.json or {}).get("enforce_nonce"):
            # Discord: a message with the same nonce by the same author within a few
            # minutes is answered with that message instead of a second one
            same = next((m for m in self.messages[channel] if m.get("_nonce") == str(nonce)), None)
            if same is not None:
                self.nonce_hits.append(rec)
                return _json_response(self.public(same))
        msg = self._build_message(channel, rec.json, rec.files)
        if nonce is not None:
            msg["_nonce"] = str(nonce)
        self.messages[channel].append(msg)
        return _json_response(self.public(msg))

    async def r_start_thread(self, rec: Recorded, channel: str, message: str) -> web.Response:
        """A public thread started from a message (the bot needs Create Public Threads)."""
        parent = self.channels.get(channel)
        if parent is None:
            return _error(404, 10003, "Unknown Channel")
        if not self.app_permissions & CREATE_PUBLIC_THREADS:
            return _error(403, 50013, "Missing Permissions")
        if self._find(channel, message) is None:
            return _error(404, 10008, "Unknown Message")
        if message in self.channels:  # Discord allows one thread per message
            return _error(400, 160004, "A thread has already been created for this message")
        th = {
            "id": message,  # Discord gives a thread started from a message that message's id
            "type": 11,
            "name": str((rec.json or {}).get("name") or "thread")[:100],
            "guild_id": parent.get("guild_id"),
            "parent_id": channel,
            "owner_id": self.bot_user["id"],
            "member_count": 1,
            "message_count": 0,
            "rate_limit_per_user": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "locked": False,
                                "archive_timestamp": _now_iso()},
        }
        self.channels[th["id"]] = th
        self.messages[th["id"]] = []
        self.threads.append(th)
        return _json_response(th, status=201)

    def allow_threads(self) -> None:
        """The bot may create public threads in the channel (interaction app_permissions)."""
        self.app_permissions |= CREATE_PUBLIC_THREADS

    async def r_get_message(self, rec: Recorded, channel: str, message: str) -> web.Response:
        if channel not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        msg = self._find(channel, message)
        return _json_response(self.public(msg)) if msg else _error(404, 10008, "Unknown Message")

    async def r_edit(self, rec: Recorded, channel: str, message: str) -> web.Response:
        if channel not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        return self._edit(rec, self._find(channel, message), interaction=False)

    def _edit(self, rec: Recorded, msg: dict[str, Any] | None, *, interaction: bool) -> web.Response:
        """The request's edit of ``msg`` (None: Unknown Message), if Discord would take the
        payload. An interaction's edit (its webhook) also ends the "thinking" state (flag 1 << 7)."""
        if msg is None:
            return _error(404, 10008, "Unknown Message")
        bad = self._refuse(rec, check_message(rec.json, rec.files, create=False, interaction=interaction))
        if bad is not None:
            return bad
        if interaction:
            msg["flags"] = msg["flags"] & ~(1 << 7)
        self._apply_edit(msg, rec.json, rec.files)
        return _json_response(self.public(msg))

    async def r_delete(self, rec: Recorded, channel: str, message: str) -> web.Response:
        if channel not in self.channels:
            return _error(404, 10003, "Unknown Channel")
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
            ix.refused.append(rec)
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if self.ack_deadline is not None and time.monotonic() - ix.created > self.ack_deadline:
            # an interaction must be acknowledged within 3 s of its creation; then it is gone
            ix.refused.append(rec)
            ix.settled.set()
            return _error(404, 10062, "Unknown interaction")
        bad = self._refuse(rec, check_callback(rec.json, rec.files))
        if bad is not None:
            ix.refused.append(rec)
            ix.settled.set()
            return bad
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
        elif kind == 12:  # LAUNCH_ACTIVITY: the client opens the Activity and authorizes it
            self.launches.append(
                {"user_id": ix.user["id"], "channel_id": ix.channel_id, "code": self.oauth_code(ix.user["id"])}
            )
            resource["activity_instance"] = {"id": f"i-{self.new_id()}"}
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
        ix.settled.set()
        return _json_response(resp)

    def _ix_by_token(self, token: str) -> FakeInteraction | None:
        ix = self._by_token.get(token)
        if ix is not None and self.interactions.get(ix.id) is ix:
            return ix
        for ix in self.interactions.values():  # one the index does not know (added by hand)
            if ix.token == token:
                self._by_token[token] = ix
                return ix
        return None

    async def r_followup(self, rec: Recorded, app: str, token: str) -> web.Response:
        ix = self._ix_by_token(token)
        if ix is None or not ix.callbacks:  # a token is usable only once the interaction was acknowledged
            return _error(404, 10015, "Unknown Webhook")
        bad = self._refuse(rec, check_message(rec.json, rec.files, create=True, interaction=True))
        if bad is not None:
            return bad
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
        if ix is None or not ix.callbacks:
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
        ix = self._ix_by_token(token)
        if ix is None or not ix.callbacks:
            return _error(404, 10015, "Unknown Webhook")
        return self._edit(rec, self._wh_target(token, mid), interaction=True)

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
            "app_permissions": str(self.app_permissions),
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

    def make_interaction(
        self, user: dict[str, Any] | str, *, kind: int = 2, data: dict[str, Any] | None = None, channel_id: str | None = None
    ) -> FakeInteraction:
        """An interaction the fake knows (its callback route works) without sending it to the bot."""
        u = self._user_of(user)
        cid = channel_id or self.channel_id
        payload = self._base_interaction(kind, u, cid, data or {"id": self.new_id(), "name": "test", "type": 1})
        ix = FakeInteraction(payload["id"], payload["token"], u, cid, payload)
        self.interactions[ix.id] = ix
        self._by_token[ix.token] = ix
        return ix

    async def _send_interaction(
        self, payload: dict[str, Any], user: dict[str, Any], channel_id: str, wait: bool, timeout: float
    ) -> FakeInteraction:
        ix = FakeInteraction(payload["id"], payload["token"], user, channel_id, payload)
        self.interactions[ix.id] = ix
        self._by_token[ix.token] = ix
        await self._send_event("INTERACTION_CREATE", payload)
        if wait:
            try:
                await asyncio.wait_for(ix.settled.wait(), timeout)
            except TimeoutError:
                raise AssertionError(
                    f"bot did not answer interaction {payload.get('data')} in {timeout}s; "
                    f"unknown routes: {self.unknown}"
                ) from None
            if ix.failed:  # the acknowledgement was refused (late, 10062, bad payload): the user saw a failure
                return ix
            if ix.callback_type in (5, 6):
                # deferred: the real answer is a follow-up or an edit of the original (Discord
                # waits 15 minutes for it; HANG is a guard against one that never comes)
                try:
                    await asyncio.wait_for(ix.webhook_used.wait(), max(timeout, HANG))
                except TimeoutError:
                    raise AssertionError(
                        f"bot deferred interaction {payload.get('data')} but never followed up"
                    ) from None
                await asyncio.sleep(0)
        return ix

    @staticmethod
    def _option(name: str, value: Any) -> dict[str, Any]:
        if isinstance(value, dict) and "username" in value:  # a user option: its id (resolved beside)
            return {"name": name, "type": 6, "value": value["id"]}
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
        users = [v for v in options.values() if isinstance(v, dict) and "username" in v]
        if users:  # what Discord resolves for user options: the user, and the member if in the guild
            data["resolved"] = {
                "users": {u["id"]: u for u in users},
                "members": {
                    u["id"]: {k: v for k, v in self._member_payload(u).items() if k != "user"}
                    for u in users if u["id"] in self.users or u.get("bot")
                },
            }
        return data

    async def slash(
        self,
        user: dict[str, Any] | str,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel_id: str | None = None,
        timeout: float = HANG,
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
        timeout: float = HANG,
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
        timeout: float = HANG,
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
        timeout: float = HANG,
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

    def posted_in(self, rec: Recorded, channel_id: str | None = None) -> bool:
        """Whether ``rec`` is a post that went through into the channel, for everyone:
        ``POST /channels/{id}/messages``, or a public follow-up of a click there (issue 37:
        the bot posts a game's messages through a live click's token)."""
        channel = str(channel_id or self.channel_id)
        if rec.method != "POST" or not 200 <= rec.status < 300:
            return False
        if rec.path == f"/channels/{channel}/messages":
            return True
        return (
            re.fullmatch(rf"/webhooks/{self.application_id}/[^/]+", rec.path) is not None
            and str((rec.response or {}).get("channel_id")) == channel
            and not int((rec.json or {}).get("flags") or 0) & 64
        )

    def public_messages(self, channel_id: str | None = None) -> list[dict[str, Any]]:
        """What everybody in the channel sees (no ephemeral replies)."""
        return self.channel_messages(channel_id)

    def dm_messages(self, user: dict[str, Any] | str) -> list[dict[str, Any]]:
        uid = self._user_of(user)["id"]
        ch = self.dm_channels.get(uid)
        return list(self.messages.get(ch, [])) if ch else []

    async def wait_for(
        self, predicate: Callable[[], Any], timeout: float = HANG, what: str = "condition"
    ) -> Any:
        """Wait until ``predicate()`` returns something truthy (re-checked after each request).
        ``timeout`` guards against what never comes; it is no measure of speed (a game's
        first post and planners, after the bot's cold start, took over 10 s on 2 busy cores)."""
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

    async def idle(self, quiet: float | None = None, timeout: float = HANG) -> None:
        """Wait until the bot is done with what it was set off to do: no handler, sender or
        sweep of its running (:func:`busy_tasks`), and no request made while the event loop
        turned over a few times. No clock time passes for nothing (issue 38: the fixed
        0.3 s silence was most of a whole game's time).

        ``quiet`` keeps the old meaning for the tests whose point is time (the pace of
        Discord's rate limits, backoffs): wait until no request came for ``quiet`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            if quiet is not None:
                n = len(self.requests)
                await asyncio.sleep(quiet)
                if len(self.requests) == n:
                    return
                continue
            busy = busy_tasks()
            if busy:
                await asyncio.wait(busy, timeout=min(1.0, max(0.01, deadline - loop.time())))
                continue
            n = len(self.requests)
            for _ in range(TURNS):
                await asyncio.sleep(0)
            if len(self.requests) == n and not busy_tasks():
                return
        raise AssertionError("bot never went quiet")

    def files_sent(self) -> list[tuple[str, str, bytes]]:
        """(channel id, filename, bytes) of every file the bot uploaded, in order (a public
        follow-up of a click: the channel it landed in; another answer to a click: the
        interaction's or the application's id, no channel's)."""
        out = []
        for rec in self.requests:
            for name, data in rec.files:
                m = re.match(r"/(?:channels|webhooks|interactions)/(\d+)", rec.path)
                where = m.group(1) if m else ""
                if rec.path.startswith("/webhooks/") and self.posted_in(rec, str((rec.response or {}).get("channel_id"))):
                    where = str(rec.response["channel_id"])
                out.append((where, name, data))
        return out
