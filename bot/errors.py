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

import logging
import secrets
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


SECRET_MARKERS = ("plan code:", "Bottom: Pad", '"plan":', "'plan':", "Your plan", "Plan sealed")
PAYLOAD_LOGGERS = ("discord.http", "discord.webhook.async_", "discord.gateway", "discord.state")


class SecretFilter(logging.Filter):
    """Hides discord.py's DEBUG dumps of request and event payloads that could hold a
    sealed plan (DM planner messages, ephemeral planners, plan actions)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.DEBUG:
            return True
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001
            return True
        if any(marker in message for marker in SECRET_MARKERS):
            record.msg = f"{record.msg} [payload hidden: it may hold a sealed plan]"
            record.args = ()
        return True


def hide_secret_payloads() -> SecretFilter:
    filt = SecretFilter("secrets")
    for name in PAYLOAD_LOGGERS:
        lg = logging.getLogger(name)
        if not any(isinstance(f, SecretFilter) for f in lg.filters):
            lg.addFilter(filt)
    return filt
