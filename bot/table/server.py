"""The table's HTTP server (aiohttp), on the bot's own :class:`bot.app.App`.

Routes (every ``/api/`` call but ``config`` and ``token`` needs ``Authorization: Bearer
<session>``; the session names one Discord user, and every call checks that user's seat
in the game asked for)::

    GET  /                         the page (static/index.html)
    GET  /static/<file>            its script, style and the bundled Embedded App SDK
    GET  /games/<game>.js          a game's drawing module (bot/games/<game>/table.js)
    GET  /api/config               {"client_id"} for the SDK
    POST /api/token   {"code"}     -> {"session", "access_token", "user"} (OAuth2 code exchange)
    GET  /api/table?channel=&game= -> the caller's table (bot.table.payload)
    GET  /api/wait?game=&after=    -> {"version"} once the game is past ``after`` (long-poll)
    POST /api/act     {"game", "action", "version"}  -> {"status", "message", "table"}
    POST /api/undo    {"game"}                       -> the same
    POST /api/preview {"game", "action"}             -> the game's preview of a draft
    GET  /api/replay?game=&step=   -> {"step", "last", "view", "lines", "added", "round",
                                      "phase"}: the public board and every log line (names,
                                      never seat ids) after that many actions (the slider)
    GET  /api/replay.svg?game=&step=  -> that step's public board as SVG (bot.table.replay)
    GET  /api/reveal?game=&since=  -> {"lines", "results"}: what the steps after version
                                      ``since`` showed (the plans revealed, round results)
    POST /api/draft   {"game", "draft"}  -> {"ok"}: the caller's own half-built decision
                                      (bot.table.drafts), read back in its /api/table
    GET  /api/board.svg?game=      -> the public board as SVG (bot.table.board)
    GET  /api/mine.svg?game=[&draft=] -> the caller's own area as SVG, from their seat's view
                                      only (bot.table.mine); ``draft``: a half-built decision
                                      (JSON) the game draws on it

Who sees a game (:mod:`bot.table.access`): its seated players, and members who can see
its channel or thread on Discord; to anyone else every call about the game answers 404,
word for word what a game id nobody has gets. A bystander gets the public view only.

Limits (:class:`bot.table.guard.Limits`): bodies of at most 16 KiB, read within
``body_timeout``; per user a token bucket (``RATE`` requests a second, ``BURST`` at once);
``/api/token`` (each one a request to Discord with the client secret) rate-limited per
client address and overall, with a cap on exchanges in flight (429 with ``Retry-After``);
long-polls bounded per user and overall; connections capped per address and overall and
cut when a request's head is late (:class:`bot.table.guard.GuardedRunner`).

Every answer carries a Content-Security-Policy that lets only Discord's clients frame the
page, ``nosniff`` and ``no-referrer``, and the API's answers are never cached. Every
error is JSON ``{"error": sentence}``: a full disk says what Discord says ("your move was
not recorded"), a damaged record says so, anything else a plain sentence, its cause
logged once. Tokens are never logged (the access log shows the method, path and status;
no token travels in a URL).

A local game (``boardroom table``) answers only requests for ``127.0.0.1:PORT`` or
``localhost:PORT`` (no DNS rebinding), and its link's code signs in once: it sets an
HttpOnly, SameSite=Strict cookie that signs the same browser in again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.app import App
from bot.games import table_parts
from bot.limits import MAX_ACTION_CHARS, json_size, too_deep
from bot.records import AppError, GameInfo
from bot.storage import DamagedRecord, StorageUnavailable
from bot.table import drafts
from bot.table.access import Access, CanSee
from bot.table.auth import AuthError, Exchange, Sessions, User, bearer
from bot.table.board import board_svg
from bot.table.config import TableConfig
from bot.table.guard import Buckets, Connections, GuardedRunner, Limits, retry_after
from bot.table.live import Live
from bot.table.mine import mine_svg
from bot.table.payload import preview, table_payload
from bot.table.replay import replay_at, replay_svg, reveal_since

log = logging.getLogger("boardroom.table")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
RATE = 8.0  # requests a second per user, sustained
BURST = 40.0
WAITERS = Limits.waiters_per_user  # open long-polls per user (a few tabs)
MAX_GAME_ID = (1 << 63) - 1
# what Discord says in the same case (bot.errors.CANNOT_SAVE; a test keeps them equal)
CANNOT_SAVE = "The bot cannot save right now, so your move was not recorded. Please try again in a while."
BROKEN = "The table could not answer that just now. Please try again in a moment."
NO_GAME_HERE = "There is no game here. Start one with /game new, then open the table again."
LOCAL_COOKIE = "boardroom_table"
FRAME_ANCESTORS = (
    "'self' https://discord.com https://*.discord.com https://discordapp.com "
    "https://*.discordapp.com https://*.discordsays.com"
)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    f"frame-ancestors {FRAME_ANCESTORS}"
)
USER_KEY = web.AppKey("user", User)


class RateLimit(Buckets):
    """A token bucket per user."""

    def __init__(self, rate: float = RATE, burst: float = BURST, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(rate, burst, clock)


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        text=json.dumps(data, separators=(",", ":")), status=status, content_type="application/json"
    )


def _refuse(status: int, message: str, *, wait: float | None = None) -> web.Response:
    resp = _json({"error": message}, status)
    if wait is not None:
        resp.headers["Retry-After"] = retry_after(wait)
    return resp


def _no_game(game_id: int) -> web.Response:
    """What a game id nobody has gets, and a game the caller may not see."""
    return _refuse(404, f"There is no game #{game_id}.")


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        resp = await handler(request)
    except web.HTTPRequestEntityTooLarge:
        resp = _refuse(413, "That request is too large.")
    except web.HTTPException as exc:
        if exc.status >= 400:
            resp = _refuse(exc.status, exc.reason or "Not found.")
        else:
            raise
    except StorageUnavailable:  # the storage logged it (once per outage)
        resp = _refuse(503, CANNOT_SAVE, wait=30)
    except DamagedRecord as exc:  # its message is for players; logged where it was found
        resp = _refuse(409, str(exc))
    except Exception:
        log.exception("table: %s %s failed", request.method, request.path)
        resp = _refuse(500, BROKEN)
    return _dress(resp, api=request.path.startswith("/api/"))


def _dress(resp: web.StreamResponse, *, api: bool = True) -> web.StreamResponse:
    """The headers every answer carries."""
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    if api:
        resp.headers["Cache-Control"] = "no-store"
    return resp


def _unreadable(status: int) -> web.StreamResponse:
    """The answer to a request aiohttp could not even read (a bad request line or header)."""
    return _dress(_refuse(status, "That request is not one the table understands."))


class TableServer:
    """The table over HTTP for ``app``. ``api_base()``: the Discord API base the OAuth
    exchange goes through (the bot's own, so the fake Discord serves it in tests)."""

    def __init__(
        self,
        app: App,
        config: TableConfig,
        api_base: Callable[[], str] = lambda: "https://discord.com/api/v10",
        *,
        clock: Callable[[], float] = time.monotonic,
        after_move: Callable[[Any], Awaitable[None]] | None = None,
        can_see: CanSee | None = None,
        limits: Limits | None = None,
    ) -> None:
        """``can_see(user_id, guild_id, place_id)``: whether a user who sits in a game may
        see its channel or thread on Discord (None: only the seated players see a game)."""
        self.app = app
        # what a move from the table tells Discord is in the outbox already (the app wrote
        # it); ``after_move(outcome)`` wakes the deliverer, as a click in Discord does
        self.after_move = after_move
        self.config = config
        self.exchange = Exchange(
            config.client_id, config.client_secret, api_base,
            local_code=config.local_code, local_user=config.local_user,
        )
        self.sessions = Sessions(clock)
        self.limits = RateLimit(clock=clock)
        self.bounds = limits or Limits()
        self.access = Access(can_see, clock=clock)
        self.token_by_address = Buckets(self.bounds.token_rate_per_address, self.bounds.token_burst_per_address, clock)
        self.token_all = Buckets(self.bounds.token_rate, self.bounds.token_burst, clock)
        self._exchanging = 0
        self.connections = Connections(self.bounds, _unreadable)
        self.live = Live()
        self._waiting: dict[int, int] = {}
        self._waiters = 0
        self._drawings: set[asyncio.Future[str]] = set()  # boards drawn ahead of the page asking
        self._local_cookies: set[str] = set()  # hashes of the local game's sign-in cookies
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        self.web = self._build()

    def _build(self) -> web.Application:
        w = web.Application(client_max_size=MAX_BODY, middlewares=[_headers, self._local_host])
        r = w.router
        r.add_get("/", self.index)
        r.add_get("/favicon.ico", self.no_icon)
        r.add_get("/static/{name:[A-Za-z0-9_./-]+}", self.static)
        r.add_get("/games/{game:[a-z0-9-]+}.js", self.game_script)
        r.add_get("/api/config", self.api_config)
        r.add_post("/api/token", self.api_token)
        r.add_get("/api/table", self.api_table)
        r.add_get("/api/wait", self.api_wait)
        r.add_post("/api/act", self.api_act)
        r.add_post("/api/undo", self.api_undo)
        r.add_post("/api/preview", self.api_preview)
        r.add_get("/api/replay", self.api_replay)
        r.add_get("/api/replay.svg", self.api_replay_svg)
        r.add_get("/api/reveal", self.api_reveal)
        r.add_post("/api/draft", self.api_draft)
        r.add_get("/api/board.svg", self.api_board_svg)
        r.add_get("/api/mine.svg", self.api_mine_svg)
        return w

    # -- life ------------------------------------------------------------------------

    async def start(self) -> int:
        """Listen on the configured host and port; the port actually bound."""
        if self.live.changed not in self.app.listeners:
            self.app.listeners.append(self.live.changed)
        self.live.closed = False
        self._runner = GuardedRunner(self.web, self.connections, access_log_format='%a "%r" %s %b %Tfs')
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.host, self.config.port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1]) if sockets else self.config.port
        log.info("the table listens on %s:%s", self.config.host, self.port)
        return self.port

    async def stop(self) -> None:
        if self.live.changed in self.app.listeners:
            self.app.listeners.remove(self.live.changed)
        self.live.close()  # the long-polls answer now; the runner's clean-up waits for them
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _local_host(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """A local game answers only for its own address (a page elsewhere that rebinds
        its name to 127.0.0.1 sends its own name as the Host)."""
        if self.config.local_code:
            hosts = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
            if self.port is None or request.headers.get("Host", "").lower() not in hosts:
                return _refuse(421, f"This table answers only at http://127.0.0.1:{self.port}/.")
        return await handler(request)

    # -- static ----------------------------------------------------------------------

    async def index(self, request: web.Request) -> web.StreamResponse:
        resp = web.FileResponse(STATIC / "index.html")
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def no_icon(self, request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = (STATIC / name).resolve()
        if ".." in name or not path.is_file() or STATIC.resolve() not in path.parents:
            raise web.HTTPNotFound(reason="Not found.")
        resp = web.FileResponse(path)
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    async def game_script(self, request: web.Request) -> web.StreamResponse:
        _hooks, script = table_parts(request.match_info["game"])
        if script is None:
            raise web.HTTPNotFound(reason="Not found.")
        resp = web.FileResponse(script, headers={"Content-Type": "text/javascript"})
        resp.headers["Cache-Control"] = "no-cache"
        return resp

    # -- sign-in ---------------------------------------------------------------------

    async def api_config(self, request: web.Request) -> web.Response:
        return _json({"client_id": self.config.client_id, "local": bool(self.config.local_code)})

    async def api_token(self, request: web.Request) -> web.Response:
        if self.config.local_code and self._local_cookie(request):
            return self._signed_in(self.exchange.local_user, "local")
        address = self._address(request)
        wait = max(self.token_by_address.wait(address), self.token_all.wait("all"))
        if wait > 0 or self._exchanging >= self.bounds.token_concurrent:
            return _refuse(429, "Too many sign-ins just now; open the table again in a moment.", wait=wait or 1.0)
        self.token_by_address.take(address)
        self.token_all.take("all")
        self._exchanging += 1
        try:
            body = await self._body(request)
            if isinstance(body, web.Response):
                return body
            user, access = await self.exchange.user_of(body.get("code"))
        except AuthError as exc:
            return _refuse(401, str(exc))
        finally:
            self._exchanging -= 1
        resp = self._signed_in(user, access)
        if access == "local":  # the link's code is spent: this browser signs in by its cookie
            cookie = secrets.token_urlsafe(32)
            self._local_cookies.add(hashlib.sha256(cookie.encode()).hexdigest())
            resp.set_cookie(LOCAL_COOKIE, cookie, httponly=True, samesite="Strict", path="/")
        return resp

    def _signed_in(self, user: User, access: str) -> web.Response:
        session = self.sessions.open(user)
        return _json({"session": session, "access_token": access, "user": {"id": str(user.id), "name": user.name}})

    def _local_cookie(self, request: web.Request) -> bool:
        cookie = request.cookies.get(LOCAL_COOKIE, "")
        return bool(cookie) and len(cookie) < 128 and hashlib.sha256(cookie.encode()).hexdigest() in self._local_cookies

    def _address(self, request: web.Request) -> str:
        """The client's address: the connection's, or behind a proxy what the configured
        header says (the last entry: the one the proxy itself added)."""
        header = self.config.client_ip_header
        if header:
            said = request.headers.get(header, "").split(",")[-1].strip()
            if said:
                return said[:64]
        return request.remote or "?"

    def _user(self, request: web.Request) -> User | web.Response:
        user = self.sessions.user(bearer(request.headers.get("Authorization")))
        if user is None:
            return _refuse(401, "Please open the table again to sign in.")
        wait = self.limits.wait(user.id)
        if wait > 0:
            return _refuse(429, "Too many requests; wait a moment.", wait=wait)
        self.limits.take(user.id)
        return user

    async def _body(self, request: web.Request) -> dict[str, Any] | web.Response:
        if request.content_length is not None and request.content_length > MAX_BODY:
            return _refuse(413, "That request is too large.")
        try:
            raw = await asyncio.wait_for(request.read(), self.bounds.body_timeout)
        except TimeoutError:
            resp = _refuse(408, "That request came in too slowly; try again.")
            resp.force_close()
            return resp
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            return _refuse(400, "That request is not JSON.")
        if not isinstance(body, dict) or too_deep(body):
            return _refuse(400, "That request is not what the table sends.")
        return body

    # -- the game ----------------------------------------------------------------------

    async def _asked(
        self, request: web.Request, *, posted: bool = False, by_channel: bool = False
    ) -> tuple[User, dict[str, Any], GameInfo] | web.Response:
        """The caller, the request's JSON body (``posted``; else ``{}``) and the game it names
        (``game=`` of the body or the query; ``channel=`` too where ``by_channel``), each
        checked: else the answer to send instead."""
        user = self._user(request)
        if isinstance(user, web.Response):
            return user
        body: dict[str, Any] = {}
        if posted:
            got = await self._body(request)
            if isinstance(got, web.Response):
                return got
            body = got
        asked = body if posted else request.query
        info = await self._game(user, asked.get("game"), request.query.get("channel") if by_channel else None)
        if isinstance(info, web.Response):
            return info
        return user, body, info

    async def _game(self, user: User, game: Any, channel: Any) -> GameInfo | web.Response:
        """The game asked for: by id, else the live game of the channel (or thread) the
        Activity runs in, else the caller's only live game (an Activity opened in a DM).
        Only a game the caller may see (:mod:`bot.table.access`); any other is answered
        as a game that does not exist."""
        try:
            if game not in (None, ""):
                game_id = int(game)
                if not 0 < game_id <= MAX_GAME_ID:
                    return _no_game(game_id)
                try:
                    info = await self.app.info(game_id)
                except AppError:
                    return _no_game(game_id)
                return info if await self.access.allows(info, user.id) else _no_game(game_id)
            if channel not in (None, ""):
                place = int(channel)
                found = await self.app.game_in_channel(place) if 0 < abs(place) <= MAX_GAME_ID else None
                if found is not None and await self.access.allows(found, user.id):
                    return found
            mine = [g for g in await self.app.games_of_user(user.id) if g.status in ("active", "paused", "lobby")]
            if len(mine) == 1:
                return mine[0]
        except (TypeError, ValueError):
            return _refuse(400, "That is not a game number.")
        if channel not in (None, "") or not mine:
            return _refuse(404, NO_GAME_HERE)
        return _refuse(404, "You sit in several games: open the table from the game's own channel.")

    async def _table(self, info: GameInfo, user: User) -> dict[str, Any]:
        return await table_payload(self.app, info, user.id)

    async def api_table(self, request: web.Request) -> web.Response:
        asked = await self._asked(request, by_channel=True)
        if isinstance(asked, web.Response):
            return asked
        user, _body, info = asked
        return _json(await self._table(info, user))

    async def api_wait(self, request: web.Request) -> web.Response:
        user = self._user(request)
        if isinstance(user, web.Response):
            return user
        try:
            game_id, after = int(request.query["game"]), int(request.query["after"])
        except (KeyError, ValueError):
            return _refuse(400, "Which game, after which version?")
        if self._waiting.get(user.id, 0) >= self.bounds.waiters_per_user:
            return _refuse(429, "Too many open tables; close one.", wait=1.0)
        if self._waiters >= self.bounds.waiters:
            return _refuse(429, "The table is very busy; it will update in a moment.", wait=1.0)
        self._waiting[user.id] = self._waiting.get(user.id, 0) + 1
        self._waiters += 1
        try:
            info = await self._game(user, game_id, None)  # none waits on a game they may not see
            if isinstance(info, web.Response):
                return info

            async def version() -> int:
                return int((await self.app.info(game_id)).version)

            try:
                now = await self.live.wait(game_id, after, version)
            except AppError:
                return _no_game(game_id)
        finally:
            self._waiters -= 1
            self._waiting[user.id] -= 1
            if not self._waiting[user.id]:
                del self._waiting[user.id]
        return _json({"version": now})

    async def _move(self, request: web.Request, undo: bool) -> web.Response:
        asked = await self._asked(request, posted=True)
        if isinstance(asked, web.Response):
            return asked
        user, body, info = asked
        mine = info.seat_of(user.id)
        if mine is None or mine.ai_kind is not None:
            return _refuse(403, "You have no seat in this game; you can watch.")
        try:
            if undo:
                out = await self.app.undo(info.id, user.id, mine.seat)
            else:
                action = body.get("action")
                if not isinstance(action, Mapping) or (json_size(action) or MAX_ACTION_CHARS + 1) > MAX_ACTION_CHARS:
                    return _refuse(400, "That is not a move of this game.")
                version = body.get("version")
                if isinstance(version, bool) or not isinstance(version, int):
                    return _refuse(400, "Which version of the table did you see?")
                out = await self.app.act(info.id, user.id, mine.seat, dict(action), version)
            status, message = out.status, out.message
            if status == "applied":  # the seat's half-built decision is made (or taken back)
                await drafts.drop(self.app.storage, info.id, mine.seat)
            if self.after_move is not None:
                try:
                    await self.after_move(out)
                except Exception:
                    log.exception("could not wake the deliverer after a move from the table")
        except AppError as exc:
            status, message = "refused", str(exc)
        if status == "already":
            message = message or "Already done."
        elif status == "stale":
            message = message or "The game moved on; here is the table as it is now."
        fresh = await self.app.info(info.id)
        if status == "applied" and fresh.status != "lobby":
            self._draw_soon(fresh)  # the board the page asks for next, drawn meanwhile
        return _json({"status": status, "message": message, "table": await self._table(fresh, user)})

    def _draw_soon(self, info: GameInfo) -> None:
        """Start drawing the game's new board now (bot.table.board keeps it), beside the
        caller's table being made: the page's /api/board.svg then finds it drawn."""
        task = asyncio.ensure_future(board_svg(self.app, info))
        self._drawings.add(task)
        task.add_done_callback(self._drawn)

    def _drawn(self, task: asyncio.Future[str]) -> None:
        self._drawings.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("could not draw the board of a game as SVG: %s", task.exception())

    async def api_act(self, request: web.Request) -> web.Response:
        return await self._move(request, undo=False)

    async def api_undo(self, request: web.Request) -> web.Response:
        return await self._move(request, undo=True)

    def _step(self, request: web.Request, name: str, default: int) -> int | web.Response:
        try:
            return max(0, min(int(request.query.get(name, default)), 1 << 30))
        except ValueError:
            return _refuse(400, "Which step of the game?")

    async def api_replay(self, request: web.Request) -> web.Response:
        asked = await self._asked(request)
        if isinstance(asked, web.Response):
            return asked
        _user, _body, info = asked
        step = self._step(request, "step", 1 << 30)
        if isinstance(step, web.Response):
            return step
        if info.status == "lobby":
            return _refuse(409, "The game has not started yet: there is nothing to replay.")
        try:
            view, _lines, _last = await self.app.public_view_at(info.id, step)
            out = await replay_at(self.app, info, step)
        except AppError as exc:
            return _refuse(409, str(exc))
        except DamagedRecord as exc:  # the record's reader says nothing (a game's state read logs it)
            log.error("table: game %s's record is damaged at move %s (its replay)", exc.game_id, exc.seq)
            raise
        return _json({**out, "view": view})

    async def api_replay_svg(self, request: web.Request) -> web.StreamResponse:
        """The public board after a step of the replay, as SVG."""
        asked = await self._asked(request)
        if isinstance(asked, web.Response):
            return asked
        _user, _body, info = asked
        step = self._step(request, "step", 1 << 30)
        if isinstance(step, web.Response):
            return step
        if info.status == "lobby":
            return _refuse(409, "The game has not started yet: there is no board to show.")
        try:
            text = await replay_svg(self.app, info, step)
        except DamagedRecord:
            raise
        except Exception:
            log.exception("could not draw step %s of game %s as SVG", step, info.id)
            return _refuse(500, "That step's board could not be drawn; its log lines still tell it.")
        return web.Response(text=text, content_type="image/svg+xml")

    async def api_reveal(self, request: web.Request) -> web.Response:
        asked = await self._asked(request)
        if isinstance(asked, web.Response):
            return asked
        _user, _body, info = asked
        since = self._step(request, "since", 0)
        if isinstance(since, web.Response):
            return since
        if info.status == "lobby":
            return _refuse(409, "The game has not started yet.")
        return _json(await reveal_since(self.app, info, since))

    async def _deciding(self, request: web.Request) -> tuple[dict[str, Any], GameInfo, Any] | web.Response:
        """The JSON body, the game and the caller's own seat in it, for a request about the
        caller's decision: a seat of theirs (not an AI's) in an active game, else the answer."""
        asked = await self._asked(request, posted=True)
        if isinstance(asked, web.Response):
            return asked
        user, body, info = asked
        mine = info.seat_of(user.id)
        if mine is None or mine.ai_kind is not None or info.status != "active":
            return _refuse(403, "You have no decision in this game.")
        return body, info, mine

    async def api_draft(self, request: web.Request) -> web.Response:
        """Keep the caller's own half-built decision (only their seat's, for the decision
        they have now)."""
        asked = await self._deciding(request)
        if isinstance(asked, web.Response):
            return asked
        body, info, mine = asked
        draft = body.get("draft")
        if not drafts.acceptable(draft):
            return _refuse(400, "That plan is too large to keep; it is still on your screen.")
        view = await self.app.view(info.id, mine.seat)
        key = drafts.decision_key(view, view.get("prompt") or await self.app.prompt(info.id, mine.seat))
        if key is None:
            return _refuse(409, "You have nothing to decide right now.")
        await drafts.save(self.app.storage, info.id, mine.seat, key, draft, time.time())
        return _json({"ok": True})

    async def api_preview(self, request: web.Request) -> web.Response:
        asked = await self._deciding(request)
        if isinstance(asked, web.Response):
            return asked
        body, info, mine = asked
        view = await self.app.view(info.id, mine.seat)
        prompt = view.get("prompt")
        try:
            result = preview(self.app, info.game, prompt, view, mine.seat, body.get("action"))
        except (ValueError, KeyError, TypeError):
            result = None
        return _json({"preview": result})

    async def api_board_svg(self, request: web.Request) -> web.StreamResponse:
        """The public board of the game as SVG, after the same checks as /api/table."""
        asked = await self._asked(request, by_channel=True)
        if isinstance(asked, web.Response):
            return asked
        _user, _body, info = asked
        if info.status == "lobby":
            return _refuse(409, "The game has not started yet: there is no board to show.")
        try:
            text = await board_svg(self.app, info)
        except Exception:
            log.exception("could not draw the board of game %s as SVG", info.id)
            return _refuse(500, "The board could not be drawn; your decisions below still work.")
        return web.Response(text=text, content_type="image/svg+xml")

    async def api_mine_svg(self, request: web.Request) -> web.StreamResponse:
        """The caller's own area as SVG: their seat's view only (a bystander has none)."""
        asked = await self._asked(request, by_channel=True)
        if isinstance(asked, web.Response):
            return asked
        user, _body, info = asked
        mine = info.seat_of(user.id)
        if mine is None or mine.ai_kind is not None:
            return _refuse(403, "You have no seat in this game, so no area of your own; you can watch.")
        if info.status == "lobby":
            return _refuse(409, "The game has not started yet: there is no board to show.")
        draft: Any = None
        said = request.query.get("draft")
        if said:  # the page's half-built decision, drawn on the area (Smartphone Inc.'s plan being laid)
            try:
                draft = json.loads(said) if len(said) <= drafts.MAX_CHARS else None
            except ValueError:
                draft = None
            if not drafts.acceptable(draft):
                draft = None
        try:
            text = await mine_svg(self.app, info, mine.seat, draft)
        except Exception:
            log.exception("could not draw a seat's own area of game %s as SVG", info.id)
            return _refuse(500, "Your area could not be drawn; your decisions still work.")
        return web.Response(text=text, content_type="image/svg+xml")
