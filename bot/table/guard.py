"""The table's defences against a busy or hostile network (issue 34 §1).

- :class:`Buckets`: token buckets by key (a user, a client address, "all") that say how
  long to wait when empty (the ``Retry-After`` of a 429);
- :class:`Limits`: every number of the table's limits in one place (tests shorten the
  timeouts);
- :class:`GuardedRunner`: aiohttp's ``AppRunner`` whose connections are capped per
  client address and overall, and cut when a request's head (its line and headers) is
  not in within ``head_timeout`` seconds of the connection (or of the first byte of the
  next request on a kept-alive connection). aiohttp's own ``keepalive_timeout`` closes an
  idle kept-alive connection; the body's read timeout is the server's (``read_body``).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_server import Server


@dataclass(frozen=True)
class Limits:
    # sign-in (/api/token, each one a request to Discord's OAuth2 with the client secret)
    # (Discord bans an address after 10,000 refused requests in 10 minutes: 2 a second is
    # 1,200; the Activity's requests may all come from a few proxy addresses of Discord's)
    token_rate: float = 2.0  # exchanges a second, all clients together (sustained)
    token_burst: float = 30.0
    token_rate_per_address: float = 0.5  # one every 2 s from one address (sustained)
    token_burst_per_address: float = 20.0
    token_concurrent: int = 4  # exchanges in flight at once
    # live updates (/api/wait)
    waiters_per_user: int = 4  # a few tabs
    waiters: int = 2_000  # all users together
    # slow or many clients
    head_timeout: float = 10.0  # seconds for a request's line and headers
    body_timeout: float = 10.0  # seconds for a request's body
    keepalive_timeout: float = 15.0  # an idle kept-alive connection is closed after this
    requests_per_connection: int = 1_000  # then the connection is closed after the answer
    connections_per_address: int = 64
    connections: int = 1_024


class Buckets:
    """A token bucket per key: ``rate`` tokens a second, at most ``burst`` held. Keys
    whose bucket is full again are forgotten past ``max_keys``."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic, max_keys: int = 50_000) -> None:
        self.rate, self.burst, self.clock, self.max_keys = rate, burst, clock, max_keys
        self._buckets: dict[Any, tuple[float, float]] = {}

    def _level(self, key: Any, now: float) -> float:
        level, at = self._buckets.get(key, (self.burst, now))
        return min(self.burst, level + (now - at) * self.rate)

    def wait(self, key: Any) -> float:
        """0 if ``key`` may go now, else the seconds until it may (nothing taken)."""
        level = self._level(key, self.clock())
        return 0.0 if level >= 1.0 else (1.0 - level) / self.rate if self.rate > 0 else math.inf

    def take(self, key: Any) -> None:
        now = self.clock()
        self._buckets[key] = (self._level(key, now) - 1.0, now)
        if len(self._buckets) > self.max_keys:  # forget the full buckets (idle keys)
            self._buckets = {k: (lv, at) for k, (lv, at) in self._buckets.items() if self._level(k, now) < self.burst}

    def allow(self, key: Any) -> bool:
        if self.wait(key) > 0:
            return False
        self.take(key)
        return True


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))


class Connections:
    """Open connections, counted per client address and overall."""

    def __init__(self, limits: Limits, unreadable: Callable[[int], web.StreamResponse] | None = None) -> None:
        self.limits = limits
        self.unreadable = unreadable  # the answer to a request that cannot be parsed, by status
        self.by_address: dict[str, int] = {}
        self.total = 0
        self.refused = 0
        self.cut = 0  # closed for a head not in on time

    def open(self, address: str) -> bool:
        if self.total >= self.limits.connections or self.by_address.get(address, 0) >= self.limits.connections_per_address:
            self.refused += 1
            return False
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.total += 1
        return True

    def close(self, address: str) -> None:
        self.total -= 1
        left = self.by_address.get(address, 1) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)


class GuardedHandler(RequestHandler):
    """aiohttp's protocol for one connection, with the caps and the head's deadline."""

    def __init__(self, manager: Server, *, connections: Connections, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self._connections = connections
        self._address: str | None = None
        self._head_timer: asyncio.TimerHandle | None = None
        self._heads = 0
        self._awaiting_head = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if not self._connections.open(address):
            self._manager = None  # connection_lost does nothing for a connection never served
            transport.abort()
            return
        self._address = address
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self._loop.call_later(self._connections.limits.head_timeout, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        self._connections.cut += 1
        self.force_close()
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._awaiting_head and data:
            self._arm()  # a new request begins: its head has head_timeout from now
        before = self._request_count
        super().data_received(data)
        if self._request_count != before:  # a whole head came in
            self._disarm()
            self._awaiting_head = False
            self._heads += 1

    async def finish_response(self, request: Any, resp: web.StreamResponse, start_time: float | None) -> Any:
        if self._heads >= self._connections.limits.requests_per_connection:
            resp.force_close()
        try:
            return await super().finish_response(request, resp, start_time)
        finally:
            self._awaiting_head = True  # the next request's head, when its first byte comes

    def handle_error(
        self, request: Any, status: int = 500, exc: BaseException | None = None, message: str | None = None
    ) -> web.StreamResponse:
        plain = super().handle_error(request, status, exc, message)  # logs it; text/plain
        if self._connections.unreadable is None:
            return plain
        resp = self._connections.unreadable(status)
        resp.force_close()
        return resp

    def connection_lost(self, exc: BaseException | None) -> None:
        self._disarm()
        if self._address is not None:
            self._connections.close(self._address)
            self._address = None
        super().connection_lost(exc)


class GuardedServer(Server):
    """aiohttp's ``Server`` (the protocol factory) making :class:`GuardedHandler` s."""

    _guard: Connections

    def __call__(self) -> RequestHandler:
        return GuardedHandler(self, connections=self._guard, loop=self._loop, **self._kwargs)


class GuardedRunner(web.AppRunner):
    """An ``AppRunner`` whose connections go through :class:`GuardedHandler`."""

    def __init__(self, app: web.Application, connections: Connections, **kwargs: Any) -> None:
        super().__init__(app, keepalive_timeout=connections.limits.keepalive_timeout, lingering_time=1.0, **kwargs)
        self.connections = connections

    async def _make_server(self) -> Server:
        server = await super()._make_server()  # aiohttp's own, built as aiohttp builds it
        server.__class__ = GuardedServer  # the same object; only its protocol factory differs
        server._guard = self.connections  # type: ignore[attr-defined]
        return server
