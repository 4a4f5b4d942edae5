"""Configuration from environment variables.

=====================  ==========================================================
``DISCORD_TOKEN``      the bot token (required by ``boardroom run``; never printed)
``BOARDROOM_DB``       a SQLite database path (default ``./boardroom.db``) or a
                       ``postgresql://user:password@host:port/name`` URL (several
                       processes on one database: docs/scaling.md; never printed
                       with its password)
``BOARDROOM_GUILD_ID`` optional: sync slash commands to this guild only (fast, for
                       development); unset = global commands
``BOARDROOM_LOG_LEVEL`` logging level (default ``INFO``)
``BOARDROOM_MIGRATIONS`` optional: the migrations directory (default: ``migrations/``
                       beside the ``bot`` package; the Docker image sets it)
``BOARDROOM_SHARD_IDS`` optional, with a number in ``BOARDROOM_SHARDS``: the shards this
                       process runs, ``A-B`` or ``0,2,5`` (several processes on one
                       PostgreSQL database: docs/scaling.md); unset = all of them
``BOARDROOM_SHARDS``   optional: ``auto`` (shards, as many as Discord recommends) or a
                       number of shards; unset = shards only when the bot is in more
                       than 2,000 servers (asked of Discord at start)
=====================  ==========================================================

``boardroom run`` first reads a ``.env`` file in the working directory if there is
one (:func:`load_env_file`; variables already set in the environment win), builds a
:class:`Config`, then calls ``bot.discord_bot.create_bot(db_path=config.db_path, ...)``
and runs it with the token.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path


class ConfigError(Exception):
    """A configuration problem; the message says what to set (never a secret's value)."""


def _no_password(db: str) -> str:
    """A database URL as it may be printed: ``postgresql://user:***@host/name``."""
    return re.sub(r"^(\w+://[^:/@]*):.*@", r"\1:***@", db)


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)
    db_path: str = "boardroom.db"
    sync_guild_id: int | None = None
    log_level: str = "INFO"
    shards: int | str | None = None  # "auto", a number of shards, or None: by server count
    shard_ids: list[int] | None = None  # the shards this process runs (None: all)

    def __str__(self) -> str:
        return (
            f"Config(db_path={_no_password(self.db_path)!r}, sync_guild_id={self.sync_guild_id}, "
            f"log_level={self.log_level!r}, shards={self.shards!r}, shard_ids={self.shard_ids!r}, token=<hidden>)"
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put the bot token from the Discord developer portal"
                " in the DISCORD_TOKEN environment variable, or in a .env file here"
                " (see .env.example)"
            )
        guild = env.get("BOARDROOM_GUILD_ID", "").strip()
        try:
            guild_id = int(guild) if guild else None
        except ValueError:
            raise ConfigError("BOARDROOM_GUILD_ID must be a number (a server id)") from None
        level = env.get("BOARDROOM_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ConfigError("BOARDROOM_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR")
        return cls(
            token=token,
            db_path=env.get("BOARDROOM_DB", "").strip() or "boardroom.db",
            sync_guild_id=guild_id,
            log_level=level,
            shards=(shards := parse_shards(env.get("BOARDROOM_SHARDS", ""))),
            shard_ids=parse_shard_ids(env.get("BOARDROOM_SHARD_IDS", ""), shards),
        )


MAX_SHARDS = 4096  # far above any real need: a typo should not open thousands of gateways


def parse_shards(text: str) -> int | str | None:
    """``BOARDROOM_SHARDS``: empty = None (decided by the server count at start),
    ``auto`` = Discord's recommended number of shards, or a number of shards."""
    value = text.strip().lower()
    if not value:
        return None
    if value == "auto":
        return "auto"
    try:
        count = int(value)
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_SHARDS:
        raise ConfigError(f"BOARDROOM_SHARDS must be auto or a number of shards from 1 to {MAX_SHARDS}")
    return count


def parse_shard_ids(text: str, shards: int | str | None) -> list[int] | None:
    """``BOARDROOM_SHARD_IDS`` (``--shards``): ``A-B`` (both included) or ``0,2,5``, each
    below the number of shards, which must be given as a number; empty = None (all)."""
    value = text.strip()
    if not value:
        return None
    if not isinstance(shards, int):
        raise ConfigError("BOARDROOM_SHARD_IDS (--shards) needs the number of shards in BOARDROOM_SHARDS (--shard-count)")
    try:
        if "-" in value:
            first, last = (int(x) for x in value.split("-", 1))
            ids = list(range(first, last + 1))
        else:
            ids = sorted({int(x) for x in value.split(",")})
    except ValueError:
        ids = []
    if not ids or not all(0 <= i < shards for i in ids):
        raise ConfigError(
            f"BOARDROOM_SHARD_IDS (--shards) must be A-B or a list like 0,2,5 of shards from 0 to {shards - 1}"
        )
    return ids


SHARD_ABOVE_GUILDS = 2000  # more servers than this: shard (issue 9)


def shards_for(setting: int | str | None, guilds: int | None) -> int | str | None:
    """What ``create_bot(shards=)`` gets: ``BOARDROOM_SHARDS`` when it is set, else
    ``"auto"`` when the bot is in more than :data:`SHARD_ABOVE_GUILDS` servers, else
    None (one gateway connection). ``guilds`` None: the count is unknown."""
    if setting is not None:
        return setting
    if guilds is not None and guilds > SHARD_ABOVE_GUILDS:
        return "auto"
    return None


_ENV_LINE = re.compile(r"^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$")


def parse_env_file(text: str) -> dict[str, str]:
    """``KEY=VALUE`` lines of a ``.env`` file (stdlib only, the common subset): blank
    lines and ``#`` comments are skipped, ``export`` before a name is allowed, a value
    may be in matching single or double quotes (kept as written), an unquoted value
    ends at `` #``. A malformed line raises :class:`ConfigError` naming its number
    only (the line may hold a secret)."""
    out: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _ENV_LINE.match(line)
        if m is None:
            raise ConfigError(f".env line {number} is not NAME=value")
        name, value = m.group(1), m.group(2).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].rstrip()
        out[name] = value
    return out


def load_env_file(
    path: str | Path = ".env", env: MutableMapping[str, str] | None = None
) -> list[str]:
    """Set the variables of ``path`` (if the file exists) that ``env`` (default
    ``os.environ``) does not have yet; return their names (never the values)."""
    env = os.environ if env is None else env
    p = Path(path)
    if not p.is_file():
        return []
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {p}: {type(exc).__name__}") from None
    names = []
    for name, value in parse_env_file(text).items():
        if name not in env:
            env[name] = value
            names.append(name)
    return names
