"""Configuration from environment variables.

=====================  ==========================================================
``DISCORD_TOKEN``      the bot token (required by ``boardroom run``; never printed)
``BOARDROOM_DB``       SQLite database path (default ``./boardroom.db``)
``BOARDROOM_GUILD_ID`` optional: sync slash commands to this guild only (fast, for
                       development); unset = global commands
``BOARDROOM_LOG_LEVEL`` logging level (default ``INFO``)
=====================  ==========================================================

``boardroom run`` builds a :class:`Config`, then calls
``bot.discord_bot.create_bot(db_path=config.db_path, ...)`` and runs it with the token.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field


class ConfigError(Exception):
    """A configuration problem; the message says what to set (never a secret's value)."""


@dataclass(frozen=True)
class Config:
    token: str = field(repr=False)
    db_path: str = "boardroom.db"
    sync_guild_id: int | None = None
    log_level: str = "INFO"

    def __str__(self) -> str:
        return (
            f"Config(db_path={self.db_path!r}, sync_guild_id={self.sync_guild_id}, "
            f"log_level={self.log_level!r}, token=<hidden>)"
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put the bot token from the Discord developer portal"
                " in the DISCORD_TOKEN environment variable"
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
        )
