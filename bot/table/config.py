"""The table's configuration, from environment variables.

``BOARDROOM_TABLE_PORT``    the port the table is served on; unset or empty: no table
``BOARDROOM_TABLE_HOST``    the address it listens on (default ``127.0.0.1``; the Docker
                            image sets ``0.0.0.0``)
``DISCORD_CLIENT_ID``       the application's id (the Activity's OAuth2 client)
``DISCORD_CLIENT_SECRET``   its OAuth2 secret (never logged, never sent to a page)
``BOARDROOM_TABLE_CLIENT_IP_HEADER``  behind a reverse proxy: the header it writes the
                            client's address in (``X-Forwarded-For``: its last entry;
                            ``X-Real-IP``, ``CF-Connecting-IP``); the sign-in's limit per
                            address counts by it. Unset: the connection's own address.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field


class TableConfigError(ValueError):
    pass


@dataclass(frozen=True)
class TableConfig:
    port: int = 0  # 0: any free port (tests)
    host: str = "127.0.0.1"
    client_id: str = ""
    client_secret: str = field(default="", repr=False)
    # a local game (``boardroom table``): this one-time code signs in ``local_user``
    local_code: str = field(default="", repr=False)
    local_user: tuple[int, str] = (1, "You")
    client_ip_header: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> TableConfig | None:
        """The table's settings, or None when ``BOARDROOM_TABLE_PORT`` is not set."""
        env = os.environ if env is None else env
        port_text = env.get("BOARDROOM_TABLE_PORT", "").strip()
        if not port_text:
            return None
        try:
            port = int(port_text)
        except ValueError:
            raise TableConfigError("BOARDROOM_TABLE_PORT must be a port number") from None
        if not 0 <= port <= 65535:
            raise TableConfigError("BOARDROOM_TABLE_PORT must be a port number from 0 to 65535")
        client_id = env.get("DISCORD_CLIENT_ID", "").strip()
        secret = env.get("DISCORD_CLIENT_SECRET", "").strip()
        if not client_id or not secret:
            raise TableConfigError(
                "the table needs DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (the application's "
                "OAuth2 client, from the developer portal)"
            )
        return cls(
            port=port,
            host=env.get("BOARDROOM_TABLE_HOST", "").strip() or "127.0.0.1",
            client_id=client_id,
            client_secret=secret,
            client_ip_header=env.get("BOARDROOM_TABLE_CLIENT_IP_HEADER", "").strip(),
        )
