"""Who is at the table: Discord's OAuth2 code exchange and the table's session tokens.

As Discord documents it for an Activity: the page's Embedded App SDK ``authorize`` gives a
code; the server exchanges it at the OAuth2 token endpoint (client id and secret from the
environment) and learns the user from ``/users/@me``; the page then calls
``authenticate`` with the access token. Discord is reached only through the bot's own API
base (``api_base()``: discord.py's ``Route.BASE``), so the offline fake Discord serves
OAuth in tests.

The table then hands the page its own session token (random, 256 bits); only its hash
is kept, with the user it names and an expiry. No token (the code, Discord's access
token, the session) is ever logged: a failure is logged by its HTTP status only.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

log = logging.getLogger("boardroom.table")

SESSION_SECONDS = 12 * 3600.0
MAX_SESSIONS = 20_000
MAX_CODE = 512  # an OAuth2 code is ~30 characters


class AuthError(Exception):
    """Sign-in failed; ``str()`` is a message for the page (no token in it)."""


@dataclass(frozen=True)
class User:
    id: int
    name: str


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    """Session token -> user, by the token's hash, for ``SESSION_SECONDS``; the oldest go
    first past ``MAX_SESSIONS``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._by_hash: OrderedDict[str, tuple[User, float]] = OrderedDict()

    def open(self, user: User) -> str:
        token = secrets.token_urlsafe(32)
        self._by_hash[_digest(token)] = (user, self.clock() + SESSION_SECONDS)
        while len(self._by_hash) > MAX_SESSIONS:
            self._by_hash.popitem(last=False)
        return token

    def user(self, token: str | None) -> User | None:
        if not token or len(token) > 128:
            return None
        hit = self._by_hash.get(_digest(token))
        if hit is None:
            return None
        user, until = hit
        if self.clock() >= until:
            self._by_hash.pop(_digest(token), None)
            return None
        return user


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header."""
    if not header or not header.startswith("Bearer "):
        return None
    return header[7:].strip() or None


class Exchange:
    """Trades an Embedded App SDK code for the user it belongs to.

    ``local_code``: a local game's secret code (``boardroom table``, on 127.0.0.1 only)
    that signs in ``local_user`` without Discord, once (the server then signs that browser
    in by a cookie)."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        api_base: Callable[[], str],
        *,
        local_code: str = "",
        local_user: tuple[int, str] = (1, "You"),
        timeout: float = 10.0,
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self.api_base = api_base
        self._local_code = local_code
        self.local_used = False
        self.local_user = User(*local_user)
        self.timeout = timeout

    def __repr__(self) -> str:  # never the secret
        return f"Exchange(client_id={self.client_id!r})"

    async def user_of(self, code: Any) -> tuple[User, str]:
        """(the user, Discord's access token for the page's ``authenticate``)."""
        if not isinstance(code, str) or not code or len(code) > MAX_CODE:
            raise AuthError("Sign-in failed: no code from Discord.")
        if self._local_code and hmac.compare_digest(code, self._local_code):
            if self.local_used:
                raise AuthError(
                    "Sign-in failed: this link was used already. Open it in the browser that opened"
                    " it first, or start boardroom table again for a new link."
                )
            self.local_used = True
            return self.local_user, "local"
        if not self.client_id or not self._secret:
            raise AuthError("The table is not set up for Discord sign-in.")
        base = self.api_base().rstrip("/")
        timeout = aiohttp.ClientTimeout(total=self.timeout)
        async with aiohttp.ClientSession(timeout=timeout) as http:
            form = {
                "client_id": self.client_id,
                "client_secret": self._secret,
                "grant_type": "authorization_code",
                "code": code,
            }
            try:
                async with http.post(f"{base}/oauth2/token", data=form) as resp:
                    if resp.status != 200:
                        log.warning("table sign-in: the token exchange answered %s", resp.status)
                        raise AuthError("Sign-in failed: Discord did not accept the code. Open the table again.")
                    grant = await resp.json(content_type=None)
                access = grant.get("access_token") if isinstance(grant, dict) else None
                if not isinstance(access, str) or not access:
                    raise AuthError("Sign-in failed: Discord gave no access token.")
                async with http.get(f"{base}/users/@me", headers={"Authorization": f"Bearer {access}"}) as resp:
                    if resp.status != 200:
                        log.warning("table sign-in: /users/@me answered %s", resp.status)
                        raise AuthError("Sign-in failed: Discord did not say who you are.")
                    me = await resp.json(content_type=None)
            except (aiohttp.ClientError, TimeoutError):
                log.warning("table sign-in: Discord could not be reached")
                raise AuthError("Sign-in failed: Discord could not be reached. Try again.") from None
        try:
            uid = int(me["id"])
        except (KeyError, TypeError, ValueError):
            raise AuthError("Sign-in failed: Discord did not say who you are.") from None
        name = str(me.get("global_name") or me.get("username") or "player")[:64]
        return User(uid, name), access
