"""The Discord-free application layer: games, seats, actions, what to post.

Nothing here imports ``discord``. The Discord glue (cogs, views) calls an
:class:`App` and turns its results into messages; the CLI demo and the tests
call the same App directly.

Public API (stable; the Discord layer builds on it)
---------------------------------------------------

Construction::

    storage = await Storage.open("boardroom.db")          # bot.storage; runs migrations
    app = App(storage, clock=time.time)                    # games=/ai_choose= for tests
    ...
    await storage.close()

Every user-facing call takes the caller's Discord ``user_id`` and, where it
matters, ``is_admin`` (the member has Manage Server; Discord computes it).
The records it returns (``GameInfo``, ``Outcome``, ...) and its refusals live in
:mod:`bot.records`. Expected refusals raise :class:`AppError` (or a subclass) whose ``str()`` is a
polite message for the player; the Discord error handler shows it privately.

Lobby (status "lobby")::

    info = await app.create_game("smartphone-inc", guild_id=, channel_id=, host_id=,
                                 host_name=, thread_id=None, options=None, join=True)
    info = await app.join(game_id, user_id, display_name)
    info = await app.leave(game_id, user_id)
    info = await app.add_ai(game_id, user_id, kind="bot", is_admin=False)
        # kind "steve": the engine's automaton (options["automata"]; never pending)
        # kind "bot" (greedy) / "random": a rule bot the app plays via engine.ai
    info = await app.remove_seat(game_id, user_id, seat, is_admin=False)   # host/admin
    info = await app.set_options(game_id, user_id, {"...": ...}, is_admin=False)
    outcome = await app.start(game_id, user_id, seed=None, is_admin=False, run_ai=True)
    info = await app.set_thread(game_id, user_id, thread_id, is_admin=False)

Play (status "active")::

    outcome = await app.act(game_id, user_id, seat, action, expected_version)
        # seat None = the caller's own seat. The caller passes the state version its
        # prompt showed. outcome.status is one of
        #   "applied"  - committed (then AI seats ran until a human is pending)
        #   "already"  - the same action was already applied (double click): nothing done
        #   "stale"    - the prompt is out of date: nothing done, show a fresh prompt
        #   "illegal"  - engine.IllegalAction: outcome.message says why; nothing changed
    view  = await app.view(game_id, seat)          # engine view (seat None = public)
    p     = await app.prompt(game_id, seat)        # this seat's pending prompt or None
    acts  = await app.legal_actions(game_id, seat)
    info  = await app.info(game_id)                # GameInfo (seats, settings, status, version)
    info  = await app.game_in_channel(channel_id)  # the live game here (lobby/active/paused) or None
    seat  = info.seat_of(user_id)                  # SeatInfo or None
    games = await app.games_of_user(user_id)       # live GameInfos the user sits in
    games = await app.games_with_status("active")  # GameInfos by status
    state = await app.state(game_id)               # raw engine state (read-only; CLI/tests)

Administration::

    info = await app.update_settings(game_id, user_id, is_admin=False, remind_after_hours=,
                                     repeat_hours=, takeover=, takeover_after_hours=)
    await app.set_quiet_hours(user_id, "22:00", "07:00", tz="Europe/Paris")  # or None, None
    info = await app.pause(game_id, user_id, is_admin=False)
    outcome = await app.resume(game_id, user_id, is_admin=False)
    info = await app.abandon(game_id, user_id, is_admin=False)
    outcome = await app.take_over(game_id, seat, user_id=None, is_admin=False)
        # the AI plays this seat from now on; user_id None = the system (reminder
        # deadline), else host/admin only. outcome.status "takeover"
    outcome = await app.reclaim(game_id, user_id)    # the player plays their seat again
    holdups = await app.holdups(game_id)             # [Holdup(seat, user_id, since_at, since_version)]
    deadlines = await app.deadlines(game_id)         # [Deadline(seat, kind, due_at, ...)], by due_at
        # kind "nudge" (the next reminder) or "takeover" (the AI takes the seat over)
    outcomes = await app.advance_all()               # at start-up: let AI seats catch up
    outcome = await app.run_ai(game_id)              # the same for one game
    outcome = await app.step_ai(game_id)             # one AI action, or None (the demo paces)
    data = await app.export(game_id)                 # JSON-able dict (no Discord ids; seed once over)
    data = await app.export(game_id, with_seed=True) # operator/internal: always with the seed
        # never holds a sealed, unrevealed secret decision: while a secret simultaneous
        # decision (a prompt with "secret": True) is open, its decisions already made are
        # left out; data["redacted_open_decisions"] says how many (0: the full log)
    result = replay_export(data)                     # module function: replays to the result

Messages the bot may edit later::

    await app.remember_message(game_id, kind, channel_id, message_id)
    ref = await app.message(game_id, kind)          # MessageRef or None
    gid = await app.game_of_message(message_id)     # game id or None

What to post after an action: :class:`Outcome` (see its docstring): ``events``
(new log lines), ``phase_changed``/``round_changed`` + ``public_view`` (post the
picture), ``pending`` + ``mentions`` (one mention message), ``new_prompts`` +
``secret_seats`` (send DMs), ``over`` + ``result``.

Time: the app never reads the clock directly; it calls ``clock()`` (seconds
since the epoch, default ``time.time``).

Storage rules kept here: an action counts only once its log row is committed
(the cache and the Outcome come after the commit); every AI action is its own
commit; a snapshot is written every ``snapshot_every`` actions, at each phase
change and at the end (a cache: loading = newest snapshot + replay of the later
log rows). ``listeners`` (async callables taking a game id) run after changes
that may move reminders; :class:`bot.reminders.ReminderScheduler` registers one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.exports import check_export
from bot.limits import MAX_ACTION_CHARS, clip_input, json_size, too_deep
from bot.records import (
    AppError,
    Applied,
    Conflict,
    Deadline,
    Forbidden,
    GameInfo,
    Holdup,
    NotFound,
    Outcome,
    ReplayMismatch,
    SeatInfo,
    canonical,
    is_secret,
    make_seat_id,
)
from bot.reminders import QuietHours, Settings, first_nudge_due, next_nudge_due, takeover_due
from bot.storage import ActionRow, GameRow, MessageRef, SeatRow, Storage, Tx
from engine import Game, IllegalAction
from engine.errors import StateTooNew
from engine.versions import edition, export_edition, setup_as

log = logging.getLogger(__name__)

State = dict[str, Any]
AiChoose = Callable[[str, State, str, str], dict[str, Any]]
Listener = Callable[[int], Awaitable[None]]

AI_KINDS = ("steve", "bot", "random")
SEED_BITS = 128
MAX_SEATS = {"smartphone-inc": 5}
LIVE = ("lobby", "active", "paused")


# --- helpers --------------------------------------------------------------------------


def _stage(view: Mapping[str, Any]) -> tuple[Any, Any]:
    return view.get("round"), view.get("phase")


def default_ai_choose(game_name: str, state: State, seat: str, kind: str) -> dict[str, Any]:
    from engine import ai  # the engine's AI players (imported lazily)

    return ai.choose(game_name, state, seat, kind)


def _info(row: GameRow, seats: list[SeatRow], settings: Settings) -> GameInfo:
    return GameInfo.of(
        row,
        tuple(SeatInfo(s.seat, s.position, s.user_id, s.ai_kind, s.display_name, s.ai_takeover) for s in seats),
        settings,
    )


# --- the app ----------------------------------------------------------------------------


def _phase_views(game: Game, old: State, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
    """The public view at the end of each phase the action completed, automatic phases
    included, where the engine can trace them (``game.trace``); else nothing."""
    trace = getattr(game, "trace", None)
    if trace is None:
        return []
    try:
        return list(trace(old, seat, action))
    except Exception:  # pictures are a nicety; the action is already committed
        log.exception("tracing the phases of an action failed")
        return []


class App:
    """The application layer; see the module docstring for the API."""

    def __init__(
        self,
        storage: Storage,
        *,
        games: Mapping[str, Game] | None = None,
        ai_choose: AiChoose | None = None,
        clock: Callable[[], float] = time.time,
        seed_source: Callable[[], int] | None = None,
        snapshot_every: int = 25,
        keep_snapshots: int = 2,
        cache_size: int = 256,
        max_ai_actions: int = 100_000,
    ) -> None:
        self.storage = storage
        self.games = dict(games or {})
        self.ai_choose = ai_choose or default_ai_choose
        self.clock = clock
        # 128 bits from the OS: an opening board must not give the seed away (issue 8 §3)
        self.seed_source = seed_source or (lambda: secrets.randbits(SEED_BITS))
        self.snapshot_every = max(1, snapshot_every)
        self.keep_snapshots = max(1, keep_snapshots)
        self.cache_size = cache_size
        self.max_ai_actions = max_ai_actions
        self.listeners: list[Listener] = []  # awaited with a game id after reminder changes
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: OrderedDict[int, State] = OrderedDict()

    # -- engines ------------------------------------------------------------------

    def engine(self, name: str) -> Game:
        if name in self.games:
            return self.games[name]
        from engine import get_game

        try:
            return get_game(name)
        except KeyError:
            known = sorted(set(self.games) | set(_engine_names()))
            raise NotFound(f"I don't know the game {name!r}. Known: {', '.join(known)}.") from None

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # -- reading -------------------------------------------------------------------

    async def info(self, game_id: int) -> GameInfo:
        async with self.storage.read() as q:
            return await self._info_q(q, game_id)

    async def _info_q(self, q: Tx, game_id: int) -> GameInfo:
        row = await q.game_row(game_id)
        if row is None:
            raise NotFound(f"There is no game #{game_id}.")
        return _info(row, await q.seats(game_id), await q.settings(game_id))

    async def game_in_channel(self, place_id: int) -> GameInfo | None:
        async with self.storage.read() as q:
            row = await q.live_game_at(place_id)
            return None if row is None else await self._info_q(q, row.id)

    async def games_of_user(self, user_id: int) -> list[GameInfo]:
        async with self.storage.read() as q:
            return [await self._info_q(q, r.id) for r in await q.games_of_user(user_id)]

    async def games_with_status(self, *statuses: str) -> list[GameInfo]:
        async with self.storage.read() as q:
            return [await self._info_q(q, r.id) for r in await q.games_with_status(*statuses)]

    async def state(self, game_id: int) -> State:
        """The current (committed) engine state. Treat it as read-only."""
        info = await self.info(game_id)
        if info.status == "lobby":
            raise Conflict("The game has not started yet.")
        return await self._state(info)

    async def view(self, game_id: int, seat: str | None) -> dict[str, Any]:
        info = await self.info(game_id)
        if info.status == "lobby":
            raise Conflict("The game has not started yet.")
        return self.engine(info.game).view(await self._state(info), seat)

    async def prompt(self, game_id: int, seat: str) -> dict[str, Any] | None:
        info = await self.info(game_id)
        if info.status not in ("active", "paused"):
            return None
        return self.engine(info.game).pending(await self._state(info)).get(seat)

    async def legal_actions(self, game_id: int, seat: str) -> list[dict[str, Any]]:
        info = await self.info(game_id)
        if info.status not in ("active", "paused"):
            return []
        return self.engine(info.game).legal_actions(await self._state(info), seat)

    async def holdups(self, game_id: int) -> list[Holdup]:
        info = await self.info(game_id)
        out = []
        for w in await self.storage.waiting_of(game_id):
            s = info.seat_named(w.seat)
            if s is not None:
                out.append(Holdup(w.seat, s.user_id, s.display_name, w.since_at, w.since_version))
        return sorted(out, key=lambda h: (h.since_at, h.seat))

    async def deadlines(self, game_id: int) -> list[Deadline]:
        """The scheduled reminders of the game (next nudge, AI takeover), soonest first.
        Empty when nobody is waited for, or the game is paused, finished or abandoned."""
        async with self.storage.read() as q:
            info = await self._info_q(q, game_id)
            rows = await q.reminders_of(game_id)
        out = []
        for r in rows:
            s = info.seat_named(r.seat)
            if s is not None:
                out.append(Deadline(r.seat, s.user_id, s.display_name, r.kind, r.due_at, r.count))
        return sorted(out, key=lambda d: (d.due_at, d.seat, d.kind))

    # -- lobby -----------------------------------------------------------------------

    async def create_game(
        self,
        game: str,
        *,
        channel_id: int,
        host_id: int,
        host_name: str,
        guild_id: int | None = None,
        thread_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        join: bool = True,
    ) -> GameInfo:
        self.engine(game)
        opts = self._check_options(options or {})
        now = self.clock()
        try:
            async with self.storage.transaction() as tx:
                busy = await tx.live_game_at(thread_id or channel_id)
                if busy is not None:
                    raise Conflict(
                        f"This channel already has a {busy.game} game (#{busy.id}, {busy.status});"
                        " finish or abandon it first, or use another channel or thread."
                    )
                gid = await tx.insert_game(
                    game, opts, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id,
                    host_id=host_id, at=now,
                )
                if join:
                    await tx.insert_seat(gid, make_seat_id(host_name, set()), 0, host_id, None, host_name)
        except sqlite3.IntegrityError:
            raise Conflict("This channel already has a game.") from None
        return await self.info(gid)

    async def join(self, game_id: int, user_id: int, display_name: str) -> GameInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is not None:
                raise Conflict("You are already in this game.")
            self._check_room(info)
            taken = {s.seat for s in info.seats}
            async with self.storage.transaction() as tx:
                await tx.insert_seat(
                    game_id, make_seat_id(display_name, taken), len(info.seats), user_id, None,
                    display_name,
                )
                await tx.update_game(game_id, self.clock(), status="lobby")
            return await self.info(game_id)

    async def leave(self, game_id: int, user_id: int) -> GameInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            me = info.seat_of(user_id)
            if me is None:
                raise Conflict("You are not in this game.")
            now = self.clock()
            async with self.storage.transaction() as tx:
                await tx.delete_seat(game_id, me.seat)
                if user_id == info.host_id:
                    heirs = [s for s in info.seats if s.is_human and s.user_id != user_id]
                    if heirs and heirs[0].user_id is not None:
                        await tx.update_game(game_id, now, host_id=heirs[0].user_id)
                    else:
                        await tx.update_game(game_id, now, status="abandoned")
            return await self.info(game_id)

    async def add_ai(
        self, game_id: int, user_id: int, kind: str = "bot", *, is_admin: bool = False
    ) -> GameInfo:
        if kind not in AI_KINDS:
            raise AppError(f"AI seats are {', '.join(AI_KINDS)}; not {kind!r}.")
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            self._check_manage(info, user_id, is_admin)
            self._check_room(info)
            taken = {s.seat for s in info.seats}
            if kind == "steve":
                seat, name = make_seat_id("steve", taken), "Steve"
            else:
                n = 1 + sum(1 for s in info.seats if s.ai_kind in ("bot", "random"))
                seat = make_seat_id(f"bot{n}", taken)
                name = f"Bot {n}" + (" (random)" if kind == "random" else "")
            async with self.storage.transaction() as tx:
                await tx.insert_seat(game_id, seat, len(info.seats), None, kind, name)
                await tx.update_game(game_id, self.clock(), status="lobby")
            return await self.info(game_id)

    async def remove_seat(
        self, game_id: int, user_id: int, seat: str, *, is_admin: bool = False
    ) -> GameInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            self._check_manage(info, user_id, is_admin)
            target = info.seat_named(seat)
            if target is None:
                raise NotFound(f"There is no seat {seat!r} in this game.")
            if target.user_id == info.host_id:
                raise Conflict("The host cannot be removed; the host may leave instead.")
            async with self.storage.transaction() as tx:
                await tx.delete_seat(game_id, seat)
                await tx.update_game(game_id, self.clock(), status="lobby")
            return await self.info(game_id)

    async def set_options(
        self, game_id: int, user_id: int, options: Mapping[str, Any], *, is_admin: bool = False
    ) -> GameInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            self._check_manage(info, user_id, is_admin)
            merged = self._check_options({**info.options, **options})
            merged = {k: v for k, v in merged.items() if v is not None}
            async with self.storage.transaction() as tx:
                await tx.update_game(game_id, self.clock(), options=merged)
            return await self.info(game_id)

    async def set_thread(
        self, game_id: int, user_id: int, thread_id: int | None, *, is_admin: bool = False
    ) -> GameInfo:
        """Move the game's place to a thread (the bot made one for it)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            self._check_manage(info, user_id, is_admin)
            try:
                async with self.storage.transaction() as tx:
                    await tx.update_game(game_id, self.clock(), thread_id=thread_id)
            except sqlite3.IntegrityError:
                raise Conflict("That thread already has a game.") from None
            return await self.info(game_id)

    async def start(
        self,
        game_id: int,
        user_id: int,
        *,
        seed: int | None = None,
        is_admin: bool = False,
        run_ai: bool = True,
    ) -> Outcome:
        """Set the game up (seed: given, else random) and, unless ``run_ai`` is False,
        let AI seats act until a human is pending."""
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            self._check_manage(info, user_id, is_admin)
            if not info.seats:
                raise Conflict("Nobody has joined yet.")
            game = self.engine(info.game)
            seed = int(seed if seed is not None else self.seed_source())
            options = dict(info.options)
            options["automata"] = [s.seat for s in info.seats if s.ai_kind == "steve"]
            players = [s.seat for s in info.seats]
            try:
                state = game.setup(players, seed, options)
            except (IllegalAction, ValueError) as exc:
                raise AppError(f"The game cannot start: {exc}") from None
            version = int(state.get("version", 0))
            rules, rng_kind = edition(state)  # kept by the game until it ends
            now = self.clock()
            out = Outcome(game_id, status="started", version=version)
            pub = game.view(state, None)
            async with self.storage.transaction() as tx:
                await tx.update_game(
                    game_id, now, status="active", seed=seed, options=options, version=version,
                    rules=rules, rng=rng_kind,
                )
                await tx.put_snapshot(game_id, version, game.dump(state), now)
                new = await self._sync_waiting(tx, info, game, state, None, version, now)
            self._remember(game_id, state)
            info = await self.info(game_id)
            out.phase_changed = out.round_changed = True
            out.phase_views.append(pub)
            self._finish_outcome(out, info, game, state, new)
            if run_ai:
                await self._run_ai(info, out)
        await self._notify(game_id)
        return out

    # -- play --------------------------------------------------------------------------

    async def act(
        self,
        game_id: int,
        user_id: int,
        seat: str | None,
        action: dict[str, Any],
        expected_version: int,
    ) -> Outcome:
        """Apply ``action`` for the caller's seat; see the module docstring."""
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise AppError("That prompt is out of date; open your turn again.")
        async with self.lock(game_id):
            info = await self.info(game_id)
            if info.status in ("lobby", "abandoned"):
                raise Conflict(f"The game is {info.status}; no moves now.")
            mine = info.seat_of(user_id) if seat is None else info.seat_named(seat)
            if mine is None or mine.user_id != user_id:
                raise Forbidden("You can only act for your own seat.")
            seat = mine.seat
            game = self.engine(info.game)
            state = await self._state(info)
            version = int(state["version"])
            pending = game.pending(state)
            try:
                action, unknown = canonical_input(game, action)
            except IllegalAction as exc:
                return self._refusal(info, game, state, seat, "illegal", str(exc))
            if expected_version != version:
                refusal = await self._check_old(info, seat, action, expected_version, pending)
                if refusal is not None and (refusal.status == "already" or info.status == "active"):
                    return refusal  # a repeat click stays "already done", even after the end
            if info.status == "paused":
                raise Conflict("The game is paused; the host can resume it.")
            if info.status != "active":
                raise Conflict(f"The game is {info.status}; no more moves.")
            if seat not in pending:
                return self._refusal(
                    info, game, state, seat, "illegal", "You have nothing to decide right now."
                )
            if mine.ai_takeover:
                return self._refusal(
                    info, game, state, seat, "illegal",
                    "The AI is playing your seat; use reclaim to play it yourself again.",
                )
            if unknown:
                return self._refusal(
                    info, game, state, seat, "illegal",
                    f"That move has field(s) this game does not know: {clip_input(', '.join(unknown))}.",
                )
            try:
                new_state = game.apply(state, seat, action)
            except IllegalAction as exc:
                return self._refusal(info, game, state, seat, "illegal", str(exc))
            out = Outcome(game_id, seat=seat, version=version)
            out.round, out.phase = _stage(game.view(state, None))
            await self._commit(info, game, state, new_state, seat, action, "player", out)
            await self._run_ai(info, out)
        await self._notify(game_id)
        return out

    async def step_ai(self, game_id: int) -> Outcome | None:
        """Apply at most one AI action (the demo uses this to pace itself)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            if info.status != "active":
                return None
            out = await self._ai_once(info, self.engine(info.game))
        if out is not None:
            await self._notify(game_id)
        return out

    async def run_ai(self, game_id: int) -> Outcome:
        """Let AI seats act until a human is pending or the game is over."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            game = self.engine(info.game)
            state = await self._state(info)
            out = Outcome(game_id, status="advanced", version=int(state["version"]))
            out.round, out.phase = _stage(game.view(state, None))
            if info.status == "active":
                await self._run_ai(info, out)
            else:
                self._finish_outcome(out, info, game, state, set())
        await self._notify(game_id)
        return out

    async def advance_all(self) -> list[Outcome]:
        """At start-up: let AI seats catch up in every active game (a crash may have
        happened between a player's commit and the AI's answers)."""
        outs = []
        for info in await self.games_with_status("active"):
            if not any(s.played_by_app_ai for s in info.seats):
                continue  # only humans and engine automata: nothing can be owed
            try:
                out = await self.run_ai(info.id)
            except Exception:
                log.exception("game %s: could not advance AI seats", info.id)
                continue
            if out.applied:
                outs.append(out)
        return outs

    # -- administration ------------------------------------------------------------------

    async def update_settings(
        self,
        game_id: int,
        user_id: int,
        *,
        is_admin: bool = False,
        remind_after_hours: float | None = None,
        repeat_hours: float | None = None,
        takeover: bool | None = None,
        takeover_after_hours: float | None = None,
    ) -> GameInfo:
        async with self.lock(game_id):
            info = await self.info(game_id)
            self._check_manage(info, user_id, is_admin)
            changes = {
                k: v
                for k, v in {
                    "remind_after_hours": remind_after_hours, "repeat_hours": repeat_hours,
                    "takeover": takeover, "takeover_after_hours": takeover_after_hours,
                }.items()
                if v is not None
            }
            settings = replace(info.settings, **changes)
            try:
                settings.validate()
            except ValueError as exc:
                raise AppError(str(exc)) from None
            async with self.storage.transaction() as tx:
                await tx.put_settings(game_id, settings)
                if info.status == "active":
                    await self._reset_reminders(tx, game_id, settings, fresh=False)
            out = await self.info(game_id)
        await self._notify(game_id)
        return out

    async def set_quiet_hours(
        self, user_id: int, start: str | None, end: str | None, tz: str = "UTC"
    ) -> None:
        quiet = None
        if start is not None or end is not None:
            if start is None or end is None:
                raise AppError("Give both the start and the end of your quiet hours.")
            quiet = QuietHours(start, end, tz)
            try:
                quiet.validate()
            except ValueError as exc:
                raise AppError(str(exc)) from None
        async with self.storage.transaction() as tx:
            await tx.put_quiet_hours(user_id, quiet)

    async def pause(self, game_id: int, user_id: int, *, is_admin: bool = False) -> GameInfo:
        async with self.lock(game_id):
            info = await self.info(game_id)
            self._check_manage(info, user_id, is_admin)
            if info.status != "active":
                raise Conflict(f"Only a running game can be paused (this one is {info.status}).")
            async with self.storage.transaction() as tx:
                await tx.update_game(game_id, self.clock(), status="paused")
                await tx.delete_reminders(game_id)
            out = await self.info(game_id)
        await self._notify(game_id)
        return out

    async def resume(self, game_id: int, user_id: int, *, is_admin: bool = False) -> Outcome:
        async with self.lock(game_id):
            info = await self.info(game_id)
            self._check_manage(info, user_id, is_admin)
            if info.status != "paused":
                raise Conflict(f"Only a paused game can be resumed (this one is {info.status}).")
            async with self.storage.transaction() as tx:
                await tx.update_game(game_id, self.clock(), status="active")
                await self._reset_reminders(tx, game_id, info.settings, fresh=True)
            info = await self.info(game_id)
            game = self.engine(info.game)
            state = await self._state(info)
            out = Outcome(game_id, status="resumed", version=int(state["version"]))
            out.phase_changed = True
            out.new_prompts.update({s: {} for s in game.pending(state)})  # prompt everyone again
            await self._run_ai(info, out)
        await self._notify(game_id)
        return out

    async def abandon(self, game_id: int, user_id: int, *, is_admin: bool = False) -> GameInfo:
        async with self.lock(game_id):
            info = await self.info(game_id)
            self._check_manage(info, user_id, is_admin)
            if info.status not in LIVE:
                raise Conflict(f"The game is already {info.status}.")
            async with self.storage.transaction() as tx:
                await tx.update_game(game_id, self.clock(), status="abandoned")
                await tx.delete_waiting(game_id)
            out = await self.info(game_id)
        await self._notify(game_id)
        return out

    async def take_over(
        self,
        game_id: int,
        seat: str,
        *,
        user_id: int | None = None,
        is_admin: bool = False,
        waiting_since: int | None = None,
    ) -> Outcome | None:
        """The AI plays ``seat`` from now on. ``user_id`` None = the system (the
        reminder scheduler's deadline); otherwise host/admin only. ``waiting_since``:
        the state version the deadline's wait began at; if the seat no longer owes
        that decision (the player moved while the deadline fired), nothing happens and
        None is returned."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            if user_id is not None:
                self._check_manage(info, user_id, is_admin)
            if info.status != "active":
                raise Conflict(f"The game is {info.status}.")
            if waiting_since is not None:
                async with self.storage.read() as q:
                    wait = next((w for w in await q.waiting_of(game_id) if w.seat == seat), None)
                if wait is None or wait.since_version != waiting_since:
                    return None  # the player moved meanwhile
            target = info.seat_named(seat)
            if target is None or not target.is_human:
                raise NotFound(f"There is no human seat {seat!r} in this game.")
            game = self.engine(info.game)
            state = await self._state(info)
            out = Outcome(game_id, status="takeover", seat=seat, version=int(state["version"]))
            out.round, out.phase = _stage(game.view(state, None))
            out.message = f"The AI now plays for {target.display_name}."
            if not target.ai_takeover:
                async with self.storage.transaction() as tx:
                    await tx.set_takeover(game_id, seat, True)
                    await tx.delete_waiting(game_id, seat)
                    await tx.update_game(game_id, self.clock(), status="active")
                info = await self.info(game_id)
            await self._run_ai(info, out)
        await self._notify(game_id)
        return out

    async def reclaim(self, game_id: int, user_id: int) -> Outcome:
        """A player whose seat the AI took over plays it again."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            me = info.seat_of(user_id)
            if me is None:
                raise Forbidden("You are not in this game.")
            if not me.ai_takeover:
                raise Conflict("Your seat is already yours.")
            if info.status not in ("active", "paused"):
                raise Conflict(f"The game is {info.status}.")
            game = self.engine(info.game)
            state = await self._state(info)
            now = self.clock()
            async with self.storage.transaction() as tx:
                await tx.set_takeover(game_id, me.seat, False)
                info = await self._info_q(tx, game_id)
                new = await self._sync_waiting(tx, info, game, state, None, int(state["version"]), now)
            out = Outcome(game_id, status="reclaimed", seat=me.seat, version=int(state["version"]))
            self._finish_outcome(out, info, game, state, new)
        await self._notify(game_id)
        return out

    # -- export ----------------------------------------------------------------------------

    async def export(self, game_id: int, *, with_seed: bool | None = None) -> dict[str, Any]:
        """The game as JSON-able data: game, options, seed, seats, action log, result.
        Discord ids are left out; display names stay. While a secret simultaneous
        decision is open, the decisions already sealed in it are left out of the log
        (``redacted_open_decisions`` says how many, ``note`` says why): an export never
        shows a plan before the reveal.

        The seed fixes every shuffle (the order of the Improvement pile), so by default
        it is given only once the game has ended; ``with_seed=True`` (the operator's CLI,
        the bot's own replays for pictures) always includes it."""
        async with self.storage.read() as q:
            info = await self._info_q(q, game_id)
            rows = await q.actions(game_id)
        hidden = await self._sealed_open_decisions(info, rows)
        shown = rows[: len(rows) - hidden]
        data: dict[str, Any] = {
            "format": "boardroom-game",
            "format_version": 2,
            "id": info.id,
            "game": info.game,
            "rules": info.rules,  # the rules version and generator the game runs under
            "rng": info.rng,
            "status": info.status,
            "options": info.options,
            "seed": info.seed if (with_seed or info.status in ("finished", "abandoned")) else None,
            "seats": [
                {"seat": s.seat, "position": s.position, "name": s.display_name,
                 "kind": s.ai_kind or "human", "ai_takeover": s.ai_takeover}
                for s in info.seats
            ],
            "actions": [
                {"seq": r.seq, "seat": r.seat, "action": r.action, "actor": r.actor}
                for r in shown
            ],
            "version": info.version,
            "redacted_open_decisions": hidden,
            "result": info.result,
        }
        notes = []
        if hidden:
            notes.append(
                f"{hidden} sealed decision(s) of the secret decision still open are left out"
                " until the reveal."
            )
        if data["seed"] is None and info.seed is not None:
            data["seed_withheld"] = True
            notes.append("The seed is given once the game is over: it fixes the order of the cards still hidden.")
        if notes:
            data["note"] = " ".join(notes)
        return data

    async def _sealed_open_decisions(self, info: GameInfo, rows: list[ActionRow]) -> int:
        """How many trailing log rows are decisions of a secret simultaneous decision that
        is still open (made, but not revealed yet).

        The open decision is the longest tail of the log in which each action answered a
        secret prompt (``is_secret``) at the stage (round, phase) the game is in now, by
        a seat that is no longer pending, each seat once. Anything older was revealed."""
        if info.seed is None or info.status == "lobby" or not rows:
            return 0
        game = self.engine(info.game)
        state = await self._state(info)
        if game.is_over(state):
            return 0
        pending = game.pending(state)
        if not any(is_secret(p, pending) for p in pending.values()):
            return 0
        stage = _stage(game.view(state, None))
        seen: set[str] = set()
        first = len(rows)
        while first > 0 and rows[first - 1].seat not in pending and rows[first - 1].seat not in seen:
            seen.add(rows[first - 1].seat)
            first -= 1
        if first == len(rows):
            return 0
        before = await self._load(replace(info, version=rows[first].seq - 1))
        secret: list[bool] = []
        for r in rows[first:]:
            now_pending = game.pending(before)
            prompt = now_pending.get(r.seat)
            secret.append(
                prompt is not None
                and is_secret(prompt, now_pending)
                and _stage(game.view(before, None)) == stage
            )
            before = game.apply(before, r.seat, r.action)
        hidden = 0
        for flag in reversed(secret):
            if not flag:
                break
            hidden += 1
        return hidden

    # -- messages ------------------------------------------------------------------------

    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        async with self.storage.transaction() as tx:
            await tx.put_message(game_id, kind, channel_id, message_id, self.clock())

    async def message(self, game_id: int, kind: str) -> MessageRef | None:
        async with self.storage.read() as q:
            return await q.message(game_id, kind)

    async def game_of_message(self, message_id: int) -> int | None:
        async with self.storage.read() as q:
            return await q.game_of_message(message_id)

    # -- internals ---------------------------------------------------------------------

    async def _lobby(self, game_id: int) -> GameInfo:
        info = await self.info(game_id)
        if info.status != "lobby":
            raise Conflict(f"The game has left the lobby (it is {info.status}).")
        return info

    def _check_manage(self, info: GameInfo, user_id: int, is_admin: bool) -> None:
        if not info.can_manage(user_id, is_admin):
            raise Forbidden("Only the host or a server manager can do that.")

    def _check_room(self, info: GameInfo) -> None:
        most = getattr(self.engine(info.game), "max_players", MAX_SEATS.get(info.game))
        if most is not None and len(info.seats) >= int(most):
            raise Conflict(f"The game is full ({most} seats).")

    @staticmethod
    def _check_options(options: Mapping[str, Any]) -> dict[str, Any]:
        if "automata" in options:
            raise AppError("Add AI seats with add-ai kind steve instead of setting automata.")
        try:
            return json.loads(json.dumps(dict(options)))
        except (TypeError, ValueError):
            raise AppError("Options must be plain JSON values.") from None

    def _remember(self, game_id: int, state: State) -> None:
        self._cache[game_id] = state
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    async def _state(self, info: GameInfo) -> State:
        cached = self._cache.get(info.id)
        if cached is not None and int(cached["version"]) == info.version:
            self._cache.move_to_end(info.id)
            return cached
        state = await self._load(info)
        if cached is None or int(cached["version"]) < int(state["version"]):
            self._remember(info.id, state)
        return state

    async def _load(self, info: GameInfo) -> State:
        """Newest snapshot at or before the committed version + replay of later rows."""
        game = self.engine(info.game)
        async with self.storage.read() as q:
            snap = await q.latest_snapshot(info.id, info.version)
            rows = await q.actions(info.id, after=snap[0] if snap else 0, upto=info.version)
        state: State | None = None
        if snap is not None:
            try:
                state = game.load(snap[1])  # upgraded to the current schema by the engine
            except StateTooNew as exc:
                raise Conflict(f"Game #{info.id} cannot go on here: {exc}.") from None
            except Exception:
                log.warning("game %s: snapshot %s unreadable; replaying the log", info.id, snap[0])
        if state is None or int(state.get("version", -1)) != (snap[0] if snap else -1):
            if info.seed is None:
                raise Conflict("The game has not started yet.")
            try:  # under the rules and generator the game started with
                state = setup_as(
                    game, [s.seat for s in info.seats], info.seed, info.options, rules=info.rules, rng=info.rng
                )
            except StateTooNew as exc:
                raise Conflict(f"Game #{info.id} cannot go on here: {exc}.") from None
            async with self.storage.read() as q:
                rows = await q.actions(info.id, upto=info.version)
        for r in rows:
            state = game.apply(state, r.seat, r.action)
            if int(state["version"]) != r.seq:
                raise RuntimeError(
                    f"game {info.id}: replaying seq {r.seq} gave version {state['version']}"
                )
        return state

    def _refusal(
        self, info: GameInfo, game: Game, state: State, seat: str, status: str, message: str
    ) -> Outcome:
        out = Outcome(info.id, status=status, message=message, seat=seat)
        out.version = int(state["version"])
        pending = game.pending(state)
        out.prompt = pending.get(seat)
        out.pending = self._pending_humans(info, pending)
        out.public_view = game.view(state, None)
        out.round, out.phase = _stage(out.public_view)
        out.over = game.is_over(state)
        return out

    async def _check_old(
        self,
        info: GameInfo,
        seat: str,
        action: dict[str, Any],
        expected: int,
        pending: Mapping[str, Any],
    ) -> Outcome | None:
        """The caller's prompt showed an older version: already done, stale, or still valid."""
        game = self.engine(info.game)
        state = await self._state(info)
        current = int(state["version"])
        if expected > current or expected < 0:
            return self._refusal(info, game, state, seat, "stale", "That prompt is out of date.")
        async with self.storage.read() as q:
            later = await q.actions(info.id, after=expected, upto=current)
            waiting = {w.seat: w for w in await q.waiting_of(info.id)}
        mine = [r for r in later if r.seat == seat]
        if mine:
            if canonical(mine[0].action) == canonical(action):
                return self._refusal(info, game, state, seat, "already", "Already done: that move was recorded.")
            return self._refusal(
                info, game, state, seat, "stale",
                "You already made a move on that prompt; here is the current one.",
            )
        w = waiting.get(seat)
        if seat in pending and w is not None and w.since_version <= expected:
            return None  # only other seats acted since: the prompt still stands
        return self._refusal(
            info, game, state, seat, "stale", "The game has moved on since that prompt."
        )

    def _pending_humans(self, info: GameInfo, pending: Mapping[str, Any]) -> dict[str, int | None]:
        out: dict[str, int | None] = {}
        for s in info.seats:
            if s.seat in pending and s.is_human and not s.ai_takeover:
                out[s.seat] = s.user_id
        return out

    async def _sync_waiting(
        self,
        tx: Tx,
        info: GameInfo,
        game: Game,
        state: State,
        acted: str | None,
        version: int,
        now: float,
    ) -> set[str]:
        """Make the waiting rows match who the game waits for; return newly waiting seats."""
        humans = set() if game.is_over(state) else set(self._pending_humans(info, game.pending(state)))
        existing = {w.seat for w in await tx.waiting_of(info.id)}
        for s in existing:
            if s not in humans or s == acted:
                await tx.delete_waiting(info.id, s)
        new = {s for s in humans if s not in existing or s == acted}
        if new:
            settings = await tx.settings(info.id)
            for s in sorted(new):
                await tx.put_waiting(info.id, s, version, now)
                await self._put_reminders(tx, info, s, settings, now)
        return new

    async def _put_reminders(
        self, tx: Tx, info: GameInfo, seat: str, settings: Settings, since: float
    ) -> None:
        holder = info.seat_named(seat)
        quiet = await tx.quiet_hours(holder.user_id if holder else None)
        await tx.put_reminder(info.id, seat, "nudge", first_nudge_due(settings, since, quiet))
        due = takeover_due(settings, since)
        if due is not None:
            await tx.put_reminder(info.id, seat, "takeover", due)

    async def _reset_reminders(self, tx: Tx, game_id: int, settings: Settings, *, fresh: bool) -> None:
        """Recompute the reminder rows of every waiting seat (fresh: the wait starts now)."""
        info = await self._info_q(tx, game_id)
        now = self.clock()
        await tx.delete_reminders(game_id, "takeover")
        for w in await tx.waiting_of(game_id):
            if fresh:
                await tx.put_waiting(game_id, w.seat, w.since_version, now)
                await self._put_reminders(tx, info, w.seat, settings, now)
                continue
            old = await tx.reminder(game_id, w.seat, "nudge")
            await self._put_reminders(tx, info, w.seat, settings, w.since_at)
            if old is not None and old.sent_at is not None:
                holder = info.seat_named(w.seat)
                quiet = await tx.quiet_hours(holder.user_id if holder else None)
                due = next_nudge_due(settings, old.sent_at, quiet)
                await tx.reschedule_reminder(game_id, w.seat, "nudge", due)

    async def _commit(
        self,
        info: GameInfo,
        game: Game,
        old: State,
        new: State,
        seat: str,
        action: dict[str, Any],
        actor: str,
        out: Outcome,
    ) -> None:
        """Append one applied action to the log and commit; only then is it real."""
        seq = int(new["version"])
        if seq != int(old["version"]) + 1:
            raise RuntimeError(f"engine gave version {seq} after {old['version']}")
        pub = game.view(new, None)
        stage = _stage(pub)
        phase_changed = stage != (out.round, out.phase)
        round_changed = stage[0] != out.round
        over = game.is_over(new)
        result = game.result(new) if over else None
        now = self.clock()
        async with self.storage.transaction() as tx:
            await tx.append_action(info.id, seq, seat, action, actor, now)
            fields: dict[str, Any] = {"version": seq}
            if over:
                fields.update(status="finished", result=result)
            await tx.update_game(info.id, now, **fields)
            if over or phase_changed or seq % self.snapshot_every == 0:
                await tx.put_snapshot(info.id, seq, game.dump(new), now)
                await tx.prune_snapshots(info.id, 1 if over else self.keep_snapshots)
            new_waiting = await self._sync_waiting(tx, info, game, new, seat, seq, now)
        self._remember(info.id, new)
        out.applied.append(Applied(seq, seat, action, actor))
        out.events.extend(game.events(new))
        if phase_changed:
            out.phase_changed = True
            out.round_changed = out.round_changed or round_changed
            views = await asyncio.to_thread(_phase_views, game, old, seat, action)
            out.phase_views.extend(views or [pub])
        out.round, out.phase = stage
        out.public_view = pub
        out.version = seq
        out.new_prompts.update({s: {} for s in new_waiting})  # filled in by _finish_outcome
        if over:
            out.over, out.result = True, result

    def _finish_outcome(
        self, out: Outcome, info: GameInfo, game: Game, state: State, new: set[str]
    ) -> None:
        pending = {} if game.is_over(state) else game.pending(state)
        humans = self._pending_humans(info, pending)
        fresh = (set(out.new_prompts) | set(new)) & set(humans)
        out.version = int(state["version"])
        out.pending = humans
        out.new_prompts = {s: pending[s] for s in sorted(fresh, key=_position(info))}
        out.secret_seats = [s for s in out.new_prompts if is_secret(pending[s], pending)]
        out.secret_started = bool(out.secret_seats)
        # whoever just acted and goes on with the same turn (step by step, same phase) is
        # at the keyboard: their next step is shown to them at once, no second ping
        last = out.applied[-1] if out.applied else None
        actor = last.seat if last and last.actor == "player" and not out.phase_changed else None
        out.mentions = [uid for s, uid in humans.items() if s in fresh and s != actor and uid is not None]
        out.public_view = game.view(state, None)
        out.round, out.phase = _stage(out.public_view)
        if out.phase_changed and not out.phase_views:
            out.phase_views.append(out.public_view)
        out.over = game.is_over(state)
        if out.over:
            out.result = game.result(state)

    async def _ai_once(self, info: GameInfo, game: Game) -> Outcome | None:
        state = await self._state(info)
        out = Outcome(info.id, status="advanced", version=int(state["version"]))
        out.round, out.phase = _stage(game.view(state, None))
        if not await self._ai_step(info, game, out):
            return None
        self._finish_outcome(out, info, game, await self._state(self._bump(info, out)), set())
        return out

    @staticmethod
    def _bump(info: GameInfo, out: Outcome) -> GameInfo:
        return replace(info, version=out.version)

    async def _ai_step(self, info: GameInfo, game: Game, out: Outcome) -> bool:
        """One AI action for the first pending AI-played seat, committed. False if none."""
        state = await self._state(info)
        if game.is_over(state):
            return False
        pending = game.pending(state)
        movers = [s for s in info.seats if s.seat in pending and s.played_by_app_ai]
        if not movers:
            return False
        s = movers[0]
        kind = "random" if s.ai_kind == "random" else "greedy"
        # the choice may take a while (a bot's plan): off the event loop
        action = await asyncio.to_thread(self.ai_choose, info.game, state, s.seat, kind)
        try:
            new = game.apply(state, s.seat, action)
        except IllegalAction:
            log.exception("game %s: AI chose an illegal action for %s", info.id, s.seat)
            action = game.legal_actions(state, s.seat)[0]
            new = game.apply(state, s.seat, action)
        if out.status == "advanced":
            out.seat = out.seat or s.seat
        actor = "takeover" if s.is_human else "bot"
        await self._commit(info, game, state, new, s.seat, action, actor, out)
        return True

    async def _run_ai(self, info: GameInfo, out: Outcome) -> None:
        """AI seats act (each action committed) until a human is pending or the game ends."""
        game = self.engine(info.game)
        for _ in range(self.max_ai_actions):
            if not await self._ai_step(self._bump(info, out), game, out):
                break
        else:
            log.error("game %s: AI seats made %s moves in a row; stopping", info.id, self.max_ai_actions)
        self._finish_outcome(out, info, game, await self._state(self._bump(info, out)), set())

    async def _notify(self, game_id: int) -> None:
        for listener in list(self.listeners):
            try:
                await listener(game_id)
            except Exception:
                log.exception("listener failed for game %s", game_id)


def _position(info: GameInfo) -> Callable[[str], int]:
    order = {s.seat: s.position for s in info.seats}
    return lambda seat: order.get(seat, 99)


def _engine_names() -> list[str]:
    try:
        from engine import game_names

        return list(game_names())
    except Exception:
        return []


def canonical_input(game: Game, action: Any) -> tuple[dict[str, Any], list[str]]:
    """A player's action checked for size and shape, in the engine's canonical form (what
    the log stores), with the names of fields the engine does not know."""
    if not isinstance(action, dict):
        raise IllegalAction("A move is a JSON object with a 'type'.")
    size = None if too_deep(action) else json_size(action)
    if size is None or size > MAX_ACTION_CHARS:
        raise IllegalAction("That is too large to be a move in this game.")
    canonical = getattr(game, "canonical_action", None)
    return canonical(action) if canonical is not None else (action, [])


def replay_export(
    data: Mapping[str, Any], *, games: Mapping[str, Game] | None = None, verify: bool = True
) -> dict[str, Any]:
    """Replay an :meth:`App.export` dict from its seed and log; return the result
    (``{"over": False, "version": n}`` for an unfinished game). With ``verify``, a
    recorded result that differs raises :class:`ReplayMismatch`."""
    check_export(data)
    name = str(data["game"])
    game = (games or {}).get(name)
    if game is None:
        from engine import get_game

        game = get_game(name)
    if data.get("seed") is None:
        if data.get("seed_withheld"):
            raise AppError("This export of a running game has no seed; export it again once the game is over.")
        raise AppError("The game never started; there is nothing to replay.")
    seats = sorted(data["seats"], key=lambda s: s["position"])
    rules, rng_kind = export_edition(data)
    state = setup_as(
        game, [s["seat"] for s in seats], int(data["seed"]), dict(data["options"]), rules=rules, rng=rng_kind
    )
    for row in sorted(data["actions"], key=lambda r: r["seq"]):
        state = game.apply(state, row["seat"], row["action"])
        if int(state["version"]) != int(row["seq"]):
            raise ReplayMismatch(f"replaying seq {row['seq']} gave version {state['version']}")
    result = game.result(state) if game.is_over(state) else {"over": False, "version": state["version"]}
    recorded = data.get("result")
    if verify and recorded is not None and canonical(recorded) != canonical(result):
        raise ReplayMismatch("The replayed result differs from the recorded one.")
    return result
