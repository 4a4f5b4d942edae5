"""This process's claims on work, several processes on one PostgreSQL database (issue 37):
a game's outbox, a reminder or a deadline is done by one process at a time.

A claim (``claims``, migration 0010) runs ``TTL`` seconds and is renewed while the work
goes on (when less than half of it is left); a killed process's claims expire and
another process takes them over at its next look (the deliverer's sweep runs every
``SWEEP_S`` seconds on a shared database: taken over within TTL + SWEEP_S = 8 s). Each
change of owner gives the claim a new fencing token, and the transaction that records
the work done checks it (:meth:`Claims.fence`): a process that lost its claim while
paused records nothing, and stops. What it may have sent to Discord in that moment is a
post with the row's nonce (``enforce_nonce``): Discord keeps one.

On SQLite (one process: the database's lease) nothing is claimed: :func:`claims_for`
gives None."""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

from bot.storage import Storage, StorageError

# (BOARDROOM_CLAIM_TTL: shorter in the tests that kill processes)
TTL = float(os.environ.get("BOARDROOM_CLAIM_TTL", "") or 6.0)
SWEEP_S = min(2.0, TTL / 3)


class ClaimLost(StorageError):
    """Another process holds the work now (this one's claim expired)."""


def process_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Claims:
    def __init__(
        self, storage: Storage, owner: str | None = None, *, ttl: float = TTL, clock: Callable[[], float] = time.time
    ) -> None:
        self.storage = storage
        self.owner = owner or process_name()
        self.ttl = ttl
        self.clock = clock  # wall time: the claims' expiry is compared across processes
        self.held: dict[tuple[str, str], tuple[int, float]] = {}  # (kind, key) -> (token, expires_at)

    async def hold(self, kind: str, key: str) -> int | None:
        """The claim's token while this process holds it (taken, or renewed when less than
        half its time is left), else None: another live process does the work."""
        now = self.clock()
        got = self.held.get((kind, key))
        if got is not None and got[1] - now > self.ttl / 2:
            return got[0]
        async with self.storage.transaction() as tx:
            token = await tx.claim(kind, key, self.owner, now, self.ttl)
        if token is None:
            self.held.pop((kind, key), None)
            return None
        self.held[(kind, key)] = (token, now + self.ttl)
        return token

    async def fence(self, tx: Any, kind: str, key: str) -> None:
        """In the transaction that records the work: raise :class:`ClaimLost` (and so roll
        it back) unless this process still holds the claim with its token."""
        got = self.held.get((kind, key))
        if got is None or not await tx.holds(kind, key, self.owner, got[0], self.clock()):
            self.held.pop((kind, key), None)
            raise ClaimLost(f"the {kind} of {key} is another process's now")

    async def release(self, kind: str, key: str) -> None:
        if self.held.pop((kind, key), None) is not None:
            async with self.storage.transaction() as tx:
                await tx.release_claim(kind, key, self.owner)


def claims_for(storage: Storage) -> Claims | None:
    """Claims where several processes share the database (PostgreSQL), else None."""
    return Claims(storage) if storage.shared else None
