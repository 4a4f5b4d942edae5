"""The one error handler: expected errors become a private reply, the rest an apology.

* :class:`engine.IllegalAction`, the app's refusals (``bot.app.AppError``),
  :class:`Denied` (permission) and discord.py check failures are *expected*: the
  player gets their message privately (ephemeral), nothing is logged above INFO.
* Anything else is *unexpected*: the player gets a short apology with an error
  id, the log gets the traceback with the same id.

The handler is installed on the command tree (slash commands, autocomplete)
and called by every component callback (see :mod:`bot.views`), so there is
one place that decides what a player sees when something goes wrong.

:class:`RedactFilter` keeps the bot token out of every log line.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections import OrderedDict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.limits import clip
from bot.records import AppError
from bot.storage import DamagedRecord, StorageUnavailable
from engine import IllegalAction

log = logging.getLogger("boardroom.errors")


class UserError(Exception):
    """Bad input or a request that makes no sense now. The message is for the user."""


class Denied(UserError):
    """The user may not do this (not seated, not the host, ...). The message is for them."""


def unwrap(error: BaseException) -> BaseException:
    """The original exception inside discord.py's wrappers."""
    seen = 0
    while seen < 5:
        seen += 1
        if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
            inner = error.__cause__ or getattr(error, "original", None)
            if inner is None:
                break
            error = inner
        elif isinstance(error, commands.CommandInvokeError):
            error = error.original
        else:
            break
    return error


CANNOT_SAVE = (
    "The bot cannot save right now, so your move was not recorded. "
    "Please try again in a while."
)
UNKNOWN_INTERACTION = 10062  # answered too late (over 3 s) or twice: Discord forgot it
ALREADY_ACKNOWLEDGED = 40060  # a replayed interaction (gateway RESUME) answered before


def expected_message(error: BaseException) -> str | None:
    """The private text for an expected error, or None if the error is unexpected."""
    if isinstance(error, StorageUnavailable):  # the operator got one clear log line
        return CANNOT_SAVE
    if isinstance(error, DamagedRecord):  # the app paused the game and logged it
        return str(error)
    if isinstance(error, (IllegalAction, UserError, AppError)):
        return str(error) or "That is not possible right now."
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Server permission for that."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command works only in a server channel."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use that here."
    if isinstance(error, app_commands.CommandNotFound):
        return "That command is gone or not synced yet; try again in a minute."
    return None


def new_error_id() -> str:
    return secrets.token_hex(4)


async def reply_private(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral reply that works whether or not the interaction was answered already
    (cut to Discord's 2,000 characters: a refusal may quote what the user typed)."""
    text = clip(text)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", getattr(interaction.user, "id", "?"))


async def handle(interaction: discord.Interaction[Any], error: BaseException) -> str | None:
    """Answer ``interaction`` for ``error``. Returns the error id of an unexpected error."""
    error = unwrap(error)
    if interaction.type is discord.InteractionType.autocomplete:
        log.warning("autocomplete failed: %s", type(error).__name__)
        return None
    if isinstance(error, discord.HTTPException) and error.code in (UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED):
        # a late acknowledgement, or a click the gateway replayed after a RESUME (already
        # answered): nothing we can answer, nothing broken
        log.info("interaction %s expired or was already answered (%s)", getattr(interaction, "id", "?"), error.code)
        return None
    text = expected_message(error)
    if text is not None:
        log.info("refused for user %s: %s", getattr(interaction.user, "id", "?"), text)
        await reply_private(interaction, text)
        return None
    error_id = new_error_id()
    where = _describe(interaction)
    log.error("unexpected error %s in %s", error_id, where, exc_info=error)
    await reply_private(
        interaction,
        f"Sorry, something went wrong on our side (error id `{error_id}`). "
        "Nothing was changed unless a message said so. Please try again, or tell the operator the id.",
    )
    return error_id


def _describe(interaction: discord.Interaction[Any]) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data = interaction.data or {}
    cid = data.get("custom_id") if isinstance(data, dict) else None
    return f"component {cid}" if cid else f"interaction type {interaction.type}"


def install(tree: app_commands.CommandTree[Any]) -> None:
    """Route every app-command error of ``tree`` through :func:`handle`."""

    async def on_error(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        await handle(interaction, error)

    tree.on_error = on_error  # type: ignore[method-assign]


class RedactFilter(logging.Filter):
    """Replaces the given secrets in every log record by ``[redacted]``."""

    def __init__(self, *secrets_: str) -> None:
        super().__init__("redact")
        self.secrets = [s for s in secrets_ if s and len(s) >= 8]

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secrets:
            return True
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken record is not ours to fix
            return True
        changed = False
        for s in self.secrets:
            if s in text:
                text = text.replace(s, "[redacted]")
                changed = True
        if record.exc_text:
            for s in self.secrets:
                record.exc_text = record.exc_text.replace(s, "[redacted]")
        if changed:
            record.msg, record.args = text, None
        return True


def redact_token_everywhere(token: str) -> RedactFilter:
    """Install a :class:`RedactFilter` on the root logger's handlers (and the root logger)."""
    filt = RedactFilter(token)
    root = logging.getLogger()
    root.addFilter(filt)
    for handler in root.handlers:
        handler.addFilter(filt)
    for name in ("discord", "discord.http", "discord.gateway", "discord.client", "boardroom"):
        logging.getLogger(name).addFilter(filt)
    return filt


PAYLOAD_LOGGERS = ("discord.http", "discord.webhook.async_", "discord.gateway", "discord.state")
EPHEMERAL_FLAG = 64  # Discord's message flag: only the asker sees it
DM_CHANNEL = 1  # Discord's channel type of a DM
_CHANNEL_IN_URL = re.compile(r"/channels/(\d+)")
_TOKEN_IN_URL = re.compile(r"/(?:interactions/\d+|webhooks/\d+)/([A-Za-z0-9_.-]{20,})")
_KEPT = 4096  # private channel ids and interaction tokens remembered
_DM_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "INTERACTION_CREATE")


class SecretFilter(logging.Filter):
    """Hides discord.py's DEBUG dumps of every private message: what a DM or an
    ephemeral reply carries (the engine's secrets go only there: a secret prompt, a
    seat's own view, hand and plan), whatever the game. Nothing here knows a game's
    words: a record is private when its payload is a DM or ephemeral one, which the
    filter learns from the payloads themselves (a DM channel, the ephemeral flag, an
    interaction on a DM or an ephemeral message) and remembers (the channel, the
    interaction's token), so that a later edit of the same message, whose payload says
    neither, is hidden too. ``private_channel`` lets the bot name a DM channel it opened."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.channels: OrderedDict[str, None] = OrderedDict()
        self.tokens: OrderedDict[str, None] = OrderedDict()

    def private_channel(self, channel_id: int | str) -> None:
        _remember(self.channels, str(channel_id))

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.DEBUG:
            return True
        args = record.args if isinstance(record.args, tuple) else (record.args,) if record.args else ()
        texts = [a for a in args if isinstance(a, str)] + ([record.msg] if isinstance(record.msg, str) else [])
        objects = [a for a in args if isinstance(a, (dict, list))]
        for t in texts:
            if t[:1] in "{[":
                try:
                    objects.append(json.loads(t))
                except ValueError:
                    pass
        private = any(self._private_object(o, 0) for o in objects)
        tokens = [m.group(1) for t in texts for m in _TOKEN_IN_URL.finditer(t)]
        channels = [m.group(1) for t in texts for m in _CHANNEL_IN_URL.finditer(t)]
        if private:
            for tok in tokens:
                _remember(self.tokens, tok)
        elif any(tok in self.tokens for tok in tokens) or any(c in self.channels for c in channels):
            private = True
        elif any("/users/@me/channels" in t for t in texts):  # opening a DM
            private = True
        if private:
            record.msg = "[a private message's payload is hidden]"
            record.args = ()
        return True

    def _private_object(self, obj: Any, depth: int) -> bool:
        """Whether ``obj`` (a payload, an event) is or belongs to a private message;
        learns DM channel ids and interaction tokens on the way."""
        if depth > 6:
            return False
        if isinstance(obj, list):
            return any(self._private_object(o, depth + 1) for o in obj[:50])
        if not isinstance(obj, dict):
            return False
        found = False
        flags = obj.get("flags")
        if isinstance(flags, int) and flags & EPHEMERAL_FLAG:
            found = True
        if obj.get("type") == DM_CHANNEL and "recipients" in obj and obj.get("id") is not None:
            _remember(self.channels, str(obj["id"]))
            found = True
        channel = obj.get("channel")
        if isinstance(channel, dict) and channel.get("type") == DM_CHANNEL:
            if channel.get("id") is not None:
                _remember(self.channels, str(channel["id"]))
            found = True
        if str(obj.get("channel_id")) in self.channels:
            found = True
        event = obj.get("d")
        if obj.get("t") in _DM_EVENTS and isinstance(event, dict) and event.get("guild_id") is None:
            found = True  # a gateway event of a DM (guild events carry their guild)
            if event.get("channel_id") is not None:
                _remember(self.channels, str(event["channel_id"]))
        for key in ("d", "data", "message", "resource", "messages"):
            if key in obj and self._private_object(obj[key], depth + 1):
                found = True
        if found and isinstance(obj.get("token"), str):
            _remember(self.tokens, obj["token"])
        return found


def _remember(kept: OrderedDict[str, None], key: str) -> None:
    kept[key] = None
    kept.move_to_end(key)
    while len(kept) > _KEPT:
        kept.popitem(last=False)


_FILTER: SecretFilter | None = None


def secret_filter() -> SecretFilter:
    """The one filter the payload loggers share (``hide_secret_payloads`` installs it)."""
    global _FILTER
    if _FILTER is None:
        _FILTER = SecretFilter("secrets")
    return _FILTER


def hide_secret_payloads() -> SecretFilter:
    filt = secret_filter()
    for name in PAYLOAD_LOGGERS:
        lg = logging.getLogger(name)
        if not any(isinstance(f, SecretFilter) for f in lg.filters):
            lg.addFilter(filt)
    return filt
