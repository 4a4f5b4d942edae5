"""Leases: the process lease that keeps a second bot process off a SQLite database."""

from __future__ import annotations

from bot.storage.base import TxCore


class LeasesSql(TxCore):
    """The SQL of leases (a part of :class:`bot.storage.Tx`)."""

    async def take_lease(self, owner: str, now: float, ttl: float) -> str | None:
        """Take (or renew) the lease on this database for ``owner``. Returns None when
        taken, else the live holder's name (its heartbeat is younger than ``ttl``)."""
        row = await self._one("SELECT owner, heartbeat_at FROM lease WHERE id = 1")
        if row is not None and row[0] != owner and now - float(row[1]) < ttl:
            return str(row[0])
        await self._write(
            "INSERT INTO lease (id, owner, heartbeat_at) VALUES (1, ?, ?) ON CONFLICT (id)"
            " DO UPDATE SET owner = excluded.owner, heartbeat_at = excluded.heartbeat_at",
            (owner, now),
        )
        return None

    async def release_lease(self, owner: str) -> None:
        await self._write("DELETE FROM lease WHERE id = 1 AND owner = ?", (owner,))

