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


    # claims on work, several processes on one database (0010; bot.storage.claims)
    async def claim(self, kind: str, key: str, owner: str, now: float, ttl: float) -> int | None:
        """Claim ``kind``/``key`` for ``owner`` until ``now + ttl``: free, expired, or its
        own already (then renewed). Returns the fencing token (the same while the owner
        keeps it, one more at each change of owner), or None while another owner's claim
        runs. One statement: of two processes claiming at once, one gets it."""
        row = await self._one(
            "INSERT INTO claims (kind, key, owner, token, expires_at) VALUES (?, ?, ?, 1, ?)"
            " ON CONFLICT (kind, key) DO UPDATE SET owner = excluded.owner,"
            " token = claims.token + CASE WHEN claims.owner = excluded.owner THEN 0 ELSE 1 END,"
            " expires_at = excluded.expires_at"
            " WHERE claims.owner = excluded.owner OR claims.expires_at <= ? RETURNING token",
            (kind, key, owner, now + ttl, now),
        )
        return int(row[0]) if row else None

    async def holds(self, kind: str, key: str, owner: str, token: int, now: float) -> bool:
        """Whether ``owner`` still holds the claim with ``token`` (not expired): the fence,
        in the transaction that records the work. On PostgreSQL the claim's row is locked
        until it commits, so it cannot change owner meanwhile."""
        row = await self._one(
            "SELECT 1 FROM claims WHERE kind = ? AND key = ? AND owner = ? AND token = ? AND expires_at > ?"
            + self.sql.for_update,
            (kind, key, owner, token, now),
        )
        return row is not None

    async def release_claim(self, kind: str, key: str, owner: str) -> None:
        """Let the claim go now (the work is done): expired at once, its token kept."""
        await self._write(
            "UPDATE claims SET expires_at = 0 WHERE kind = ? AND key = ? AND owner = ?", (kind, key, owner)
        )
