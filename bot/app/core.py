"""The Discord-free application layer: games, seats, actions, what to post.

The layer is split by area like the cogs: :mod:`bot.app.core` (this module: sessions,
locking, committing, AI seats, outcomes), :mod:`bot.app.lobby`, :mod:`bot.app.turns`,
:mod:`bot.app.admin`, :mod:`bot.app.export`; :class:`bot.app.App` composes them.

Nothing here imports ``discord``. The Discord glue (cogs, views) calls an
:class:`App` and turns its results into messages; the CLI demo and the tests
call the same App directly.

Public API (stable; the Discord layer builds on it)
---------------------------------------------------

Construction::

    storage = await Storage.open("boardroom.db")          # bot.storage; runs migrations
    app = App(storage, clock=time.time)                    # games=/presenters=/ai_choose= for tests
    ...
    await storage.close()

Every user-facing call takes the caller's Discord ``user_id`` and, where it
matters, ``is_admin``: the id of the guild in which the member has Manage Server
(Discord computes it), honoured only for that guild's games; ``True`` counts only for
a game outside any guild (CLI, tests).
The records it returns (``GameInfo``, ``Outcome``, ...) and its refusals live in
:mod:`bot.records`. Expected refusals raise :class:`AppError` (or a subclass) whose ``str()`` is a
polite message for the player; the Discord error handler shows it privately.

Lobby (status "lobby")::

    info = await app.create_game("smartphone-inc", guild_id=, channel_id=, host_id=,
                                 host_name=, thread_id=None, options=None, join=True)
    info = await app.join(game_id, user_id, display_name)
    info = await app.leave(game_id, user_id)
    info = await app.add_ai(game_id, user_id, kind="bot", is_admin=False)
        # kind: one of the game's automata (its presenter's ``automata``); a game's own
        # automaton (Steve) is the engine's (options["automata"]; never pending)
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

Games (the registry of :mod:`bot.games`, plus ``presenters=``)::

    names = app.offered_games()                    # what a lobby may open
    p = app.presenter(info.game)                   # the game's Presenter (title, seats, options,
                                                   # AI players, words, planner, /rules)

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
        # each action as the engine's shown_action lets the public see it now (a sealed
        # plan until the reveal, a drafted Specialist until played: {"type", "hidden"});
        # data["redacted"] says how many (0 once the game is over)
    rec = await app.record(game_id, viewer=None)     # the true log, step by step (bot.app.replay)
    view = await app.step_view(game_id, rec, i)      # the public board after step i (-1: setup)
    result = replay_export(data)                     # module function: replays to the result

Messages the bot may edit later::

    await app.remember_message(game_id, kind, channel_id, message_id)
    ref = await app.message(game_id, kind)          # MessageRef or None
    gid = await app.game_of_message(message_id)     # game id or None

A seat's half-built secret decision (the planner's draft; never in a message)::

    row = await app.draft(game_id, seat, decision)  # DraftRow or None ("round 2": which decision)
    await app.save_draft(game_id, seat, decision, text, channel_id=None, message_id=None)

What to post after an action: :class:`Outcome` (see its docstring): ``events``
(new log lines), ``phase_changed``/``round_changed`` + ``public_view`` (post the
picture), ``pending`` + ``mentions`` (one mention message), ``new_prompts`` +
``secret_seats`` (send DMs), ``over`` + ``result``.

The delivery outbox (issue 8 §1, :mod:`bot.delivery`)::

    # What an outcome tells Discord (posts, the status edit, DMs: bot/app/compose.py) is
    # written by the app itself, in the transaction of each action (held back until the
    # chain of AI moves ends, then rewritten, due at once): a crash right after a commit
    # loses none of it. The Discord layer only wakes the deliverer up.
    batch = await app.queue(game_id, [(kind, target, payload, ordered), ...])
        # rows no action carries (a reminder's DM, a notice), in one transaction
    await app.resync(game_id)   # safety net for a "sync" marker of an older version
    block = await app.delivery_block(game_id) # (code, since, told_at) while it cannot post
    info = await app.move(game_id, user_id, channel_id, thread_id, guild_id=, is_admin=)
        # /game move: played there from now on; its waiting posts go there at once

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
import copy
import json
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import fields as dataclass_fields
from dataclasses import replace
from typing import Any

from bot.app.compose import Context, Row, compose, decision_key, status_edit, status_text
from bot.app.reads import EngineReads
from bot.app.reads import stage_of as _stage
from bot.games import Presenter
from bot.games import find as find_presenter
from bot.games import names as offered
from bot.limits import MAX_ACTION_CHARS, json_size, too_deep
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
    SeatInfo,
    canonical,
    is_secret,
)
from bot.reminders import Settings, first_nudge_due, next_nudge_due, takeover_due
from bot.storage import (
    INTEGRITY_ERRORS,
    ActionRow,
    DamagedRecord,
    DraftRow,
    GameRow,
    MessageRef,
    SeatRow,
    Storage,
    StorageUnavailable,
    Tx,
    WaitingRow,
)
from engine import Game, IllegalAction
from engine.errors import StateTooNew
from engine.versions import setup_as

log = logging.getLogger(__name__)

State = dict[str, Any]
AiChoose = Callable[[str, State, str, str], dict[str, Any]]
Listener = Callable[[int], Awaitable[None]]

SEED_BITS = 128  # from the OS: an opening board must not give the seed away (issue 8 §3)
LIVE = ("lobby", "active", "paused")
# The rows an action writes in its own transaction wait this long (real seconds) for the
# end of the chain of AI moves that follows it, which rewrites them and makes them due;
# a crash in between leaves them, due at the next start (Storage.release_held_batches).
CHAIN_HOLD = 300.0
# seconds an edit of the status message after a turn inside a phase (or a planner's first
# change) waits for a newer one to replace it (issue 9: channel writes per phase)
STATUS_SETTLE = 30.0


# --- helpers --------------------------------------------------------------------------

UNDO = "undo"  # the log row of a move taken back: {"type": "undo", "undoes": seq}

RACED = "The game changed while you moved — try again."
RACE_TRIES = 3  # a player's action, read and decided anew while another process writes first
BEFORE_KEPT = 8  # games whose state before their last move is kept (Core._load_before)


class Raced(Conflict):
    """Another process wrote the game's next log row first (two apps on one database
    without the bot's lease: the unique (game, seq) of the log refused ours). Nothing
    of this commit was written; the game is read again from the database."""

    def __init__(self) -> None:
        super().__init__(RACED)


def taken_over_words(still_ai: bool) -> str:
    """What a player is told on a click older than the AI's move for their seat (the AI
    took it over at the deadline, in the middle of their turn): not "already done"."""
    return "🤖 The AI played this turn for you after the deadline." + (
        " Use `/game reclaim` to take your seat back." if still_ai else " Your seat is yours again."
    )


class OldPrompt(Exception):
    """A move on an older prompt turned out, under the game's lock, to be already done or
    out of date (:meth:`Core._judge_old`): its transaction is rolled back, and this is the
    player's answer."""

    def __init__(self, refusal: Outcome) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


class NeedsEarlier(RuntimeError):
    """An undo row met without the state before the move it undoes: replay from earlier."""


def is_undo(action: Any) -> bool:
    return isinstance(action, Mapping) and action.get("type") == UNDO and "undoes" in action


def replay_row(
    game: Game, state: State, before: State | None, seat: str, action: dict[str, Any], seq: int
) -> tuple[State, State | None]:
    """One logged row replayed: (the state after it, the state before it). An undo row
    (BGA's undo: the log keeps the move taken back, and marks it with this row) goes back
    to the state before the move it undoes, which keeps its place in the count."""
    if is_undo(action):
        if before is None or int(action["undoes"]) != int(state["version"]):
            raise NeedsEarlier(f"the undo at seq {seq} needs the state before seq {action['undoes']}")
        return {**before, "version": seq}, None
    new = game.apply(state, seat, action)
    if int(new["version"]) != seq:
        raise RuntimeError(f"replaying seq {seq} gave version {new['version']}")
    return new, state


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


_READ = object()  # "not read yet" (Core._put_reminders)


def apply_traced(game: Game, state: State, seat: str, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """``game.apply`` and the public view at the end of each phase the move completed,
    automatic phases included, in one pass where the engine can trace them
    (``game.apply_traced``); else no views (the outcome then shows its last view)."""
    traced = getattr(game, "apply_traced", None)
    if traced is None:
        return game.apply(state, seat, action), []
    new, views = traced(state, seat, action)
    return new, list(views)


class Core:
    """What every area of the application layer shares: the engines and presenters, the
    per-game locks, the state cache (a session: newest snapshot + replay), committing an
    action with its waiting seats and reminder rows, running AI seats, and building the
    :class:`Outcome`. :class:`bot.app.App` composes the areas (lobby, turns, admin,
    export) on top of it; see the module docstring for the API."""

    def __init__(
        self,
        storage: Storage,
        *,
        games: Mapping[str, Game] | None = None,
        presenters: Mapping[str, Presenter] | None = None,
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
        self.presenters = dict(presenters or {})
        self.ai_choose = ai_choose or default_ai_choose
        self.clock = clock
        # 128 bits from the OS: an opening board must not give the seed away (issue 8 §3)
        self.seed_source = seed_source or (lambda: secrets.randbits(SEED_BITS))
        self.snapshot_every = max(1, snapshot_every)
        self.keep_snapshots = max(1, keep_snapshots)
        self.cache_size = cache_size
        self.max_ai_actions = max_ai_actions
        self.listeners: list[Listener] = []  # awaited with a game id after reminder changes
        # real time (not the game clock) for the outbox rows, and how long a chain's wait
        self.wall: Callable[[], float] = time.time
        self.chain_hold = CHAIN_HOLD
        self.status_settle = STATUS_SETTLE
        # a game's lock lives while someone holds or awaits it: idle games cost nothing
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._cache: OrderedDict[int, State] = OrderedDict()
        self._infos: OrderedDict[int, tuple[int, GameInfo]] = OrderedDict()  # see info()
        # view, pending, is_over of recent states, once each. Two states per cached game
        # (the one an action starts from and the one it makes): with many games acting at
        # once, a smaller memo is thrashed between an action's reads (issue 25: 200 busy
        # games drew each public view 2.8 times per action with 32 slots)
        self.reads = EngineReads(size=2 * cache_size)
        # the state each of the last games acted on was at before its last move (the
        # undo check's "before"; a state is made only by the log, which is never rewritten)
        self._before: OrderedDict[int, tuple[State, tuple[Any, Any] | None]] = OrderedDict()  # (state, its stage)
        # (game, version, seat) -> (the state of that version, TurnOps._undo_check's verdict)
        self._undo_seen: OrderedDict[tuple[int, int, str], tuple[State, Any]] = OrderedDict()

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

    def presenter(self, name: str) -> Presenter:
        """How the bot presents ``name`` (``presenters=`` first, then the registry of
        :mod:`bot.games`; a plain presenter for an engine no presenter is registered for)."""
        if name in self.presenters:
            return self.presenters[name]
        found = find_presenter(name)
        if found is not None:
            return found
        most = getattr(self.engine(name), "max_players", None)
        return Presenter(name, max_seats=most)

    def offered_games(self) -> list[str]:
        """The games a lobby may open: the registry's (:func:`bot.games.names`), then
        those given with ``presenters=``."""
        names = offered()
        return names + [n for n in self.presenters if n not in names]

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # -- reading -------------------------------------------------------------------

    async def info(self, game_id: int) -> GameInfo:
        """The game's row, seats and settings as committed. Kept for the games read last
        (issue 25: an action and the bot around it read them several times, one trip to
        the database thread each) while no write has touched them since: every write of a
        game's row, seats or settings goes through :class:`bot.storage.Tx`, which counts
        it (``Storage.game_epoch``) before it is even sent."""
        epoch = self.storage.game_epoch(game_id)
        kept = self._infos.get(game_id)
        if kept is not None and kept[0] == epoch:
            self._infos.move_to_end(game_id)
            return kept[1]
        async with self.storage.read() as q:
            info = await self._info_q(q, game_id)
        self._keep_info(epoch, info)  # the number from before the read: a write since voids it
        return info

    def _keep_info(self, epoch: int, info: GameInfo) -> None:
        self._infos[info.id] = (epoch, info)
        self._infos.move_to_end(info.id)
        while len(self._infos) > self.cache_size:
            self._infos.popitem(last=False)

    async def _info_q(self, q: Tx, game_id: int) -> GameInfo:
        row, seats, settings = await q.game_with_seats(game_id)  # one trip
        if row is None:
            raise NotFound(f"There is no game #{game_id}.")
        return _info(row, seats, settings)

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
        return self.reads.seat_view(self.engine(info.game), await self._state(info), seat)

    async def prompt(self, game_id: int, seat: str) -> dict[str, Any] | None:
        info = await self.info(game_id)
        if info.status not in ("active", "paused"):
            return None
        return self.engine(info.game).pending(await self._state(info)).get(seat)

    async def legal_actions(self, game_id: int, seat: str) -> list[dict[str, Any]]:
        info = await self.info(game_id)
        if info.status not in ("active", "paused"):
            return []
        return self.reads.legal_actions(self.engine(info.game), await self._state(info), seat)

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

    # -- messages ------------------------------------------------------------------------

    async def remember_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int
    ) -> None:
        async with self.storage.transaction() as tx:
            await tx.put_message(game_id, kind, channel_id, message_id, self.clock())

    async def message(self, game_id: int, kind: str) -> MessageRef | None:
        async with self.storage.read() as q:
            return await q.message(game_id, kind)

    # -- the delivery outbox (bot/delivery.py) -------------------------------------------

    async def queue(self, game_id: int, rows: list[Row]) -> int:
        """Store what to tell Discord that no action carries (a reminder's DM, a notice):
        ``(kind, target, payload, ordered)`` rows of one batch, in one transaction; the
        deliverer sends them. Returns the batch. (What an action tells Discord is written
        by the app itself, in the action's own transaction: :meth:`_write_rows`.)"""
        now = self.wall()
        async with self.storage.transaction() as tx:
            batch = await tx.next_outbox_batch()
            for kind, target, payload, ordered in rows:
                await tx.put_outbox(game_id, batch, kind, target, payload, ordered=ordered, at=now)
        return batch

    async def _write_rows(
        self, tx: Tx, info: GameInfo, game: Game, state: State, out: Outcome, *, final: bool
    ) -> None:
        """In the transaction of an action (or of the end of its chain): the outbox rows of
        ``out`` as it stands, replacing the rows this outcome wrote before (its ``batch``).
        Not ``final``: the outcome is finished on a copy, and the rows are held back
        (``CHAIN_HOLD``) so that the chain's end rewrites them before anything is sent; a
        crash before that end leaves them to be sent after the restart."""
        if not out.ok or (out.status == "advanced" and not out.applied and not out.phase_changed):
            return
        done = out
        if not final:
            done = replace(out, phase_views=list(out.phase_views))
            self._finish_outcome(done, info, game, state, set())
        ctx, next_batch = await self._compose_context_and_batch(tx, info, game, state, done)
        for seat in ctx.last_one:  # told once: kept when the chain's end rewrites the rows
            if seat not in out.told:
                out.told.append(seat)
        ctx.last_one = list(dict.fromkeys([*ctx.last_one, *out.told]))
        rows = compose(info, self.presenter(info.game), done, done.public_view or self.reads.public(game, state), ctx)
        kept = None  # (a batch dropped: the number read with the context may be stale)
        if out.batch is not None:
            kept = await tx.drop_outbox_batch(info.id, out.batch)
            if kept:  # some of it went out already (a chain slower than CHAIN_HOLD): go on anew
                log.warning("game %s: a long chain of moves; %s of its posts were already sent", info.id, kept)
                out.batch = None
        if out.batch is None:
            out.batch = next_batch if kept is None else await tx.next_outbox_batch()
        wall = self.wall()
        not_before = 0.0 if final else wall + self.chain_hold
        await tx.put_outbox_rows(info.id, out.batch, rows, at=wall, not_before=not_before, settle=self.status_settle)

    async def _compose_context(
        self, tx: Tx, info: GameInfo, game: Game, state: State, out: Outcome, *, notices: bool = True
    ) -> Context:
        """What :func:`bot.app.compose.compose` needs besides the outcome, read in ``tx``."""
        ctx, _batch = await self._compose_context_and_batch(tx, info, game, state, out, notices=notices)
        return ctx

    async def _compose_context_and_batch(
        self, tx: Tx, info: GameInfo, game: Game, state: State, out: Outcome, *, notices: bool = True
    ) -> tuple[Context, int]:
        """:meth:`_compose_context` and the next outbox batch number, read in one trip."""
        has_status, reminders, every, batch = await tx.compose_reads(info.id, out.batch)
        ctx = Context(has_status=has_status)
        if out.over:
            return ctx, batch
        presenter = self.presenter(info.game)
        view = out.public_view or self.reads.public(game, state)
        for r in reminders:  # the clock on every prompt (issue 7)
            ctx.deadlines.setdefault(r.seat, {})[r.kind] = r.due_at
        ctx.every_turn = {s.user_id for s in info.seats if s.seat in every and s.user_id is not None}
        if presenter.secret_phase(view):
            pending = self.reads.pending(game, state)
            _sealed, _total, waiting = presenter.sealed_counts(view)
            drafts = await tx.drafts(info.id) if waiting else {}  # one query for every seat
            for seat in waiting:
                if self._untouched_draft(presenter, pending.get(seat), drafts.get(seat), view):
                    ctx.untouched.append(seat)
            if notices:
                ctx.last_one = await self._last_one(tx, info, out, pending, waiting, view)
        return ctx, batch

    async def _untouched(
        self, tx: Tx, info: GameInfo, presenter: Presenter, prompt: Any, seat: str, view: Mapping[str, Any]
    ) -> bool:
        """Whether ``seat``'s planner still shows a fresh draft (they changed nothing yet)."""
        if presenter.secret_builder(prompt) is None:
            return False
        return self._untouched_draft(presenter, prompt, await tx.draft(info.id, seat), view)

    @staticmethod
    def _untouched_draft(presenter: Presenter, prompt: Any, row: DraftRow | None, view: Mapping[str, Any]) -> bool:
        """:meth:`_untouched` with the seat's draft row read already."""
        builder = presenter.secret_builder(prompt)
        if builder is None:
            return False
        return row is None or row.decision != decision_key(view) or row.draft == builder.encode(builder.decode(None))

    async def _last_one(
        self, tx: Tx, info: GameInfo, out: Outcome, pending: Mapping[str, Any], waiting: list[str],
        view: Mapping[str, Any],
    ) -> list[str]:
        """"You are the last one": the one player a simultaneous decision of several players
        still waits for, told once per decision (``told``), unless they just acted."""
        humans = [s for s in info.seats if s.is_human and not s.ai_takeover and s.user_id is not None]
        if len(waiting) != 1 or len(humans) < 2:
            return []
        seat = waiting[0]
        holder = info.seat_named(seat)
        if holder is None or holder not in humans or seat not in pending:
            return []
        last = out.applied[-1] if out.applied else None
        if last is not None and last.seat == seat and last.actor == "player":
            return []  # they are at the keyboard (e.g. they just took their plan back)
        if not await tx.tell_once(info.id, seat, f"last:{decision_key(view)}"):
            return []
        return [seat]

    async def _publish(self, info: GameInfo, out: Outcome) -> None:
        """The end of an outcome's chain: its final rows, due now, in one transaction
        (replacing those its actions' transactions held back)."""
        if not out.ok or (out.settled is not None and out.settled == out.version):
            return  # (settled: the last commit wrote the final rows)
        info = await self.info(info.id)  # under the game's lock: nothing changes meanwhile
        if info.status == "lobby":
            return
        game = self.engine(info.game)
        state = await self._state(info)
        async with self.storage.transaction() as tx:
            await self._write_rows(tx, info, game, state, out, final=True)

    async def resync(self, game_id: int) -> None:
        """A safety net: a "sync" marker of an older version (written with an action whose
        posts were queued later) was left pending by a crash: post the current phase as
        if it had just begun (picture, who must act, the private decisions again)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            if info.status not in ("active", "paused", "finished"):
                return
            log.warning("game %s: posts of an action were lost in a crash; posting the current state", game_id)
            game = self.engine(info.game)
            state = await self._state(info)
            out = Outcome(game_id, status="advanced", version=int(state["version"]))
            out.phase_changed = True
            pending = self.reads.pending(game, state)
            self._finish_outcome(out, info, game, state, set(self._pending_humans(info, pending)))
            await self._publish(info, out)

    async def delivery_block(self, game_id: int) -> tuple[int, float, float | None] | None:
        """(Discord error code, since, told at) while the game cannot post, else None."""
        async with self.storage.read() as q:
            return await q.delivery_block(game_id)

    async def game_of_message(self, message_id: int) -> int | None:
        async with self.storage.read() as q:
            return await q.game_of_message(message_id)

    async def draft(self, game_id: int, seat: str, decision: str) -> DraftRow | None:
        """The seat's half-built secret decision for ``decision`` (None: none yet, or one
        left from an earlier decision)."""
        async with self.storage.read() as q:
            row = await q.draft(game_id, seat)
        return row if row is not None and row.decision == decision else None

    async def save_draft(
        self, game_id: int, seat: str, decision: str, draft: str,
        channel_id: int | None = None, message_id: int | None = None,
    ) -> bool:
        """Keep the seat's draft (and, when given, the planner message that shows it).
        The seat's first change of a secret decision also queues an edit of the status
        message (its "changed nothing yet" list); True then: the caller wakes the
        deliverer up."""
        info = await self.info(game_id)
        presenter = self.presenter(info.game)
        if info.status == "active" and presenter.secret_phase(await self.view(game_id, None)):
            async with self.storage.read() as q:
                row = await q.draft(game_id, seat)
            fresh = row is None or row.decision != decision
            builder = presenter.secret_builder(await self.prompt(game_id, seat))
            if builder is not None and not fresh:
                fresh = row is not None and row.draft == builder.encode(builder.decode(None))
            if builder is not None and fresh and draft != builder.encode(builder.decode(None)):
                async with self.lock(game_id):  # the first change: the status says so at once
                    return await self._save_and_refresh(game_id, seat, decision, draft, channel_id, message_id)
        async with self.storage.transaction() as tx:
            await tx.put_draft(game_id, seat, decision, draft, channel_id, message_id, self.clock())
        return False

    async def remember_draft_message(
        self, game_id: int, seat: str, decision: str, fresh: str, channel_id: int, message_id: int
    ) -> None:
        """The planner message now showing the seat's draft of ``decision``. Only the
        message is written: a draft saved meanwhile (a quick click) stays; ``fresh`` is
        the draft where the seat has none of this decision yet."""
        async with self.storage.transaction() as tx:
            await tx.put_draft_message(game_id, seat, decision, fresh, channel_id, message_id, self.clock())

    async def _save_and_refresh(
        self, game_id: int, seat: str, decision: str, draft: str, channel_id: int | None, message_id: int | None
    ) -> bool:
        info = await self.info(game_id)
        game = self.engine(info.game)
        state = await self._state(info)
        out = Outcome(game_id, status="advanced", version=int(state["version"]))
        self._finish_outcome(out, info, game, state, set())
        view = out.public_view or self.reads.public(game, state)
        async with self.storage.transaction() as tx:
            await tx.put_draft(game_id, seat, decision, draft, channel_id, message_id, self.clock())
            ctx = await self._compose_context(tx, info, game, state, out, notices=False)
            if not ctx.has_status:
                return False
            words = status_text(info, self.presenter(info.game), out, view, ctx)
            await tx.put_outbox_rows(
                game_id, await tx.next_outbox_batch(), [status_edit(words)], at=self.wall(), settle=self.status_settle
            )
        return True

    # -- internals ---------------------------------------------------------------------

    async def _lobby(self, game_id: int) -> GameInfo:
        info = await self.info(game_id)
        if info.status != "lobby":
            raise Conflict(f"The game has left the lobby (it is {info.status}).")
        return info

    def _check_manage(self, info: GameInfo, user_id: int, is_admin: bool | int) -> None:
        if not info.can_manage(user_id, is_admin):
            raise Forbidden("Only the host or a server manager can do that.")

    def _check_room(self, info: GameInfo) -> None:
        most = self.presenter(info.game).max_seats
        if len(info.seats) >= int(most):
            raise Conflict(f"The game is full ({most} seats).")

    def _check_options(self, game: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options as plain JSON, checked by the game's presenter."""
        if too_deep(dict(options)):
            raise AppError("Those options are nested too deeply.")
        try:
            plain = json.loads(json.dumps(dict(options)))
        except (TypeError, ValueError):
            raise AppError("Options must be plain JSON values.") from None
        try:
            return self.presenter(game).check_options(plain)
        except ValueError as exc:
            raise AppError(str(exc)) from None

    def _remember(self, game_id: int, state: State) -> None:
        old = self._cache.get(game_id)
        if old is not None and old is not state:
            if int(old["version"]) == int(state["version"]) - 1:  # the state a move was made on
                self._before[game_id] = (old, self.reads.known_stage(old))
                self._before.move_to_end(game_id)
                while len(self._before) > BEFORE_KEPT:
                    self._before.popitem(last=False)
            self.reads.forget(old)
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

    async def _load_before(self, info: GameInfo) -> State:
        """The state of the version before ``info.version``: the one the last move was made
        on, if this process made it (kept by :meth:`_remember`), else read by :meth:`_load`."""
        kept = self._before.get(info.id)
        if kept is not None and int(kept[0]["version"]) == info.version - 1:
            return kept[0]
        return await self._load(replace(info, version=info.version - 1))

    def _stage_before(self, game: Game, info: GameInfo, before: State) -> tuple[Any, Any]:
        """(round, phase) of ``before`` (:meth:`_load_before`'s state): kept with it when
        the move's commit had worked it out, else from its public view."""
        kept = self._before.get(info.id)
        if kept is not None and kept[0] is before and kept[1] is not None:
            return kept[1]
        return _stage(game.view(before, None))

    async def _load(self, info: GameInfo) -> State:
        """Newest snapshot at or before the committed version + replay of later rows. A
        row that cannot be read or replayed (the record damaged) pauses the game and
        raises :class:`bot.storage.DamagedRecord` (its message is for the players)."""
        try:
            return await self._load_record(info)
        except DamagedRecord as exc:
            await self._damaged(info, exc)
            raise

    async def _damaged(self, info: GameInfo, exc: DamagedRecord) -> None:
        log.error("game %s: its record is damaged at seq %s; the game is paused", info.id, exc.seq)
        async with self.storage.transaction() as tx:
            row = await tx.game_row(info.id)
            if row is not None and row.status == "active":
                await tx.update_game(info.id, self.clock(), status="paused")
                await tx.delete_reminders(info.id)

    async def _load_record(self, info: GameInfo) -> State:
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
        try:
            return _replay(game, state, rows)
        except NeedsEarlier:  # a snapshot between a move and its undo: from the start
            state = setup_as(
                game, [s.seat for s in info.seats], int(info.seed or 0), info.options, rules=info.rules, rng=info.rng
            )
            async with self.storage.read() as q:
                rows = await q.actions(info.id, upto=info.version)
            return _replay(game, state, rows)

    def _refusal(
        self, info: GameInfo, game: Game, state: State, seat: str, status: str, message: str
    ) -> Outcome:
        out = Outcome(info.id, status=status, message=message, seat=seat)
        out.version = int(state["version"])
        pending = self.reads.pending(game, state)
        out.prompt = pending.get(seat)
        out.pending = self._pending_humans(info, pending)
        out.public_view = self.reads.public(game, state)
        out.round, out.phase = _stage(out.public_view)
        out.over = self.reads.over(game, state)
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
        state = await self._state(info)
        current = int(state["version"])
        if expected > current or expected < 0:
            return self._judge_old(info, state, seat, action, expected, pending, [], [])
        async with self.storage.read() as q:  # one trip
            later, waiting_rows = await q.actions_and_waiting(info.id, expected, current)
        return self._judge_old(info, state, seat, action, expected, pending, later, waiting_rows)

    def _judge_old(
        self,
        info: GameInfo,
        state: State,
        seat: str,
        action: dict[str, Any],
        expected: int,
        pending: Mapping[str, Any],
        later: list[ActionRow],
        waiting_rows: list[WaitingRow],
    ) -> Outcome | None:
        """:meth:`_check_old`'s decision, from the log after ``expected`` and the waiting
        rows (read by the caller: on their own, or with the action's own first read)."""
        game = self.engine(info.game)
        current = int(state["version"])
        if expected > current or expected < 0:
            return self._refusal(info, game, state, seat, "stale", "That prompt is out of date.")
        waiting = {w.seat: w for w in waiting_rows}
        undone = {int(r.action["undoes"]) for r in later if is_undo(r.action)}
        mine = [r for r in later if r.seat == seat and not is_undo(r.action) and r.seq not in undone]
        repeat = bool(mine) and mine[0].actor != "takeover" and canonical(mine[0].action) == canonical(action)
        if not repeat and any(r.actor == "takeover" for r in mine):  # the AI's move for the seat
            holder = info.seat_named(seat)
            still_ai = holder is not None and holder.ai_takeover
            return self._refusal(info, game, state, seat, "illegal", taken_over_words(still_ai))
        if mine:
            if repeat:
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
        *,
        read: tuple[list[WaitingRow], dict[int, Any]] | None = None,
    ) -> set[str]:
        """Make the waiting rows match who the game waits for; return newly waiting seats.
        ``read``: what :meth:`_waiting_read` gave in this transaction, before any write
        to the waiting rows (else it is read here)."""
        humans = self._pending_humans(info, self.reads.pending(game, state))
        waiting, quiet = read if read is not None else await self._waiting_read(tx, info, game, state)
        existing = {w.seat for w in waiting}
        for s in existing:
            if s not in humans or s == acted:
                await tx.delete_waiting(info.id, s)
        new = {s for s in humans if s not in existing or s == acted}
        if new:
            settings = info.settings  # read with the game, under its lock
            # a secret decision's clock runs from when it was first asked: one read for all
            first = await tx.first_asked_of(info.id, self._secret_asks(game, state, new), now)
            for s in sorted(new):
                asked = first.get(s, now)
                await tx.put_waiting(info.id, s, version, asked, absent=True)  # (not there, or deleted above)
                holder = info.seat_named(s)
                await self._put_reminders(
                    tx, info, s, settings, now, asked=asked,
                    quiet=quiet.get(holder.user_id) if holder and holder.user_id else None,
                )
        return new

    async def _waiting_read(
        self, tx: Tx, info: GameInfo, game: Game, state: State
    ) -> tuple[list[WaitingRow], dict[int, Any]]:
        """Who was waited for, and the quiet hours of those ``state`` may wait for: one trip."""
        humans = self._pending_humans(info, self.reads.pending(game, state))
        tx.first_asked_ahead(info.id, self._secret_asks(game, state, humans))  # (those that may be new)
        return await tx.waiting_and_quiet_hours(info.id, humans.values())

    def _secret_asks(self, game: Game, state: State, seats: Any) -> dict[str, str]:
        """Of ``seats``, those ``state`` asks a secret decision of, and its name in ``told``
        (a decision the engine numbers in steps, a draft's pass, is a new one each step)."""
        pending = self.reads.pending(game, state)
        stage = self.reads.stage(game, state)
        return {
            s: f"asked:{stage[0]}:{stage[1]}:{pending[s].get('pass', '')}"
            for s in sorted(seats) if s in pending and is_secret(pending[s], pending)
        }

    async def _put_reminders(
        self, tx: Tx, info: GameInfo, seat: str, settings: Settings, since: float, *,
        asked: float | None = None, quiet: Any = _READ,
    ) -> None:
        """The seat's next reminder (from ``since``) and AI takeover (from ``asked``: when
        its decision was first asked; a secret decision taken back and sealed again keeps
        its first deadline, issue 21 "The AI-takeover clock"). ``quiet``: the holder's quiet
        hours (or None) when the caller read them already; else they are read here."""
        if quiet is _READ:
            holder = info.seat_named(seat)
            quiet = await tx.quiet_hours(holder.user_id if holder else None)
        await tx.put_reminder(info.id, seat, "nudge", first_nudge_due(settings, since, quiet))
        due = takeover_due(settings, since if asked is None else asked)
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
        *,
        views: list[dict[str, Any]] | None = None,
        events: list[str] | None = None,
        settle: bool = True,
        old_prompt: tuple[int, Mapping[str, Any]] | None = None,
    ) -> None:
        """Append one applied action to the log and commit; only then is it real. The same
        transaction writes what the outcome so far tells Discord. When no AI move follows
        (``settle``, and the new state owes the app's AI nothing) the chain ends here: the
        outcome is finished and its rows are final, due at once (``out.settled``; then
        :meth:`_publish` has nothing left to do). Otherwise they are held back until the
        chain of AI moves after it ends (:meth:`_publish` rewrites them then; after a
        crash they are delivered as they are). ``settle=False``: the caller finishes the
        outcome itself (an undo). ``views``: the public views at the end of each phase
        the move completed (:func:`apply_traced`). ``old_prompt``: the version of the
        older prompt the player answered and who ``old`` waits for; the move is judged
        (:meth:`_judge_old`) with the transaction's first read, and :class:`OldPrompt`
        raised if it is already done or out of date (nothing written)."""
        seq = int(new["version"])
        if seq != int(old["version"]) + 1:
            raise RuntimeError(f"engine gave version {seq} after {old['version']}")
        pub = self.reads.public(game, new)
        stage = _stage(pub)
        phase_changed = stage != (out.round, out.phase)
        round_changed = stage[0] != out.round
        over = self.reads.over(game, new)
        result = game.result(new) if over else None
        views = (views or []) if phase_changed else []
        now = self.clock()
        kept = {f.name: copy.copy(getattr(out, f.name)) for f in dataclass_fields(out)}  # (a race puts these back)
        try:
            async with self.storage.transaction() as tx:
                await tx.lock_game(info.id)  # several processes (PostgreSQL): one action at a time
                await tx.append_action(info.id, seq, seat, action, actor, now)
                fields: dict[str, Any] = {"version": seq}
                fields["ai_owed"] = self._ai_owed(info, game, new)  # issue 9: start-up's one query
                if over:
                    fields.update(status="finished", result=result)
                await tx.update_game(info.id, now, **fields)
                if over or phase_changed:  # the stage /games shows; a finished game rated (bot.app.home)
                    await self._stage_changed(tx, info, stage, result, now)
                if over or phase_changed or seq % self.snapshot_every == 0:
                    await tx.put_snapshot(info.id, seq, game.dump(new), now)
                    await tx.prune_snapshots(info.id, 1 if over else self.keep_snapshots)
                if out.batch is None:  # its posts' first rows: what composing reads, with the next read
                    tx.compose_reads_ahead(info.id)
                if over or round_changed:  # (read by _round_ended)
                    tx.round_start_ahead(info.id)
                read = None
                if old_prompt is not None:  # judged with the first read, under the game's lock
                    expected, pending_before = old_prompt
                    tx.actions_ahead(info.id, expected, seq - 1)
                    read = await self._waiting_read(tx, info, game, new)
                    refusal = self._judge_old(
                        info, old, seat, action, expected, pending_before,
                        await tx.actions_read(info.id, expected, seq - 1), read[0],
                    )
                    if refusal is not None:
                        raise OldPrompt(refusal)
                new_waiting = await self._sync_waiting(tx, info, game, new, seat, seq, now, read=read)
                out.applied.append(Applied(seq, seat, action, actor))
                out.events.extend(game.events(new) if events is None else events)
                if phase_changed:
                    out.phase_changed = True
                    out.round_changed = out.round_changed or round_changed
                    out.phase_views.extend(views or [pub])
                out.round, out.phase = stage
                out.public_view = pub
                out.version = seq
                out.new_prompts.update({s: {} for s in new_waiting})  # filled in by _finish_outcome
                if over:
                    out.over, out.result = True, result
                if over or round_changed:
                    await self._round_ended(tx, info, stage[0], views or [pub], pub, out, ended=over)
                if settle and not fields["ai_owed"]:
                    self._finish_outcome(out, info, game, new, set())
                    await self._write_rows(tx, info, game, new, out, final=True)
                    out.settled = seq
                else:
                    await self._write_rows(tx, info, game, new, out, final=False)
        except INTEGRITY_ERRORS:
            # another process logged this seq first: nothing was written, and what this
            # one knew of the game is stale (its caches count only its own writes)
            log.info("game %s: seq %s was logged by another process first", info.id, seq)
            self._forget(info.id)
            for name, value in kept.items():
                setattr(out, name, value)
            raise Raced() from None
        if not over:  # the game's row as this commit left it (nothing else wrote it: its lock)
            self._keep_info(self.storage.game_epoch(info.id), info.at_version(seq, now))
        self._remember(info.id, new)

    def _forget(self, game_id: int) -> None:
        """Drop what this process keeps of the game (read again from the database)."""
        self._infos.pop(game_id, None)
        old = self._cache.pop(game_id, None)
        if old is not None:
            self.reads.forget(old)

    async def _stage_changed(self, tx: Tx, info: GameInfo, stage: tuple[Any, Any], result: Any, now: float) -> None:
        """A hook in the commit's transaction when the phase changed or the game ended
        (``result`` not None): :class:`bot.app.home.HomeOps` keeps the stage and rates."""

    async def _round_ended(
        self, tx: Tx, info: GameInfo, new_round: Any, views: list[dict[str, Any]], pub: dict[str, Any],
        out: Outcome, *, ended: bool,
    ) -> None:
        """A round ended in this action (or the game did): its "Round N results" go with
        the outcome, and the scores the next round starts from are kept (``round_starts``)."""
        presenter = self.presenter(info.game)
        start = await tx.round_start(info.id)
        if start is not None and isinstance(start[0], int) and (ended or start[0] != new_round):
            after = next((v for v in views if v.get("round") != start[0]), pub)
            if ended:
                after = pub
            text_ = presenter.round_results(start[0], start[1], after, lambda s: _name(info, s))
            if text_:
                out.results.append(text_)
        if not ended and isinstance(new_round, int) and (start is None or start[0] != new_round):
            scores = presenter.scores(next((v for v in views if v.get("round") == new_round), pub))
            await tx.put_round_start(info.id, new_round, scores)

    def _ai_owed(self, info: GameInfo, game: Game, state: State) -> int:
        """1 if ``state`` waits for a seat the app plays (``games.ai_owed``, written with
        every commit: :meth:`bot.app.App.advance_all` finds these games by one query)."""
        pending = self.reads.pending(game, state)
        return int(any(s.seat in pending and s.played_by_app_ai for s in info.seats))

    def _finish_outcome(
        self, out: Outcome, info: GameInfo, game: Game, state: State, new: set[str]
    ) -> None:
        pending = self.reads.pending(game, state)
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
        out.public_view = self.reads.public(game, state)
        out.round, out.phase = _stage(out.public_view)
        if out.phase_changed and not out.phase_views:
            out.phase_views.append(out.public_view)
        out.over = self.reads.over(game, state)
        if out.over:
            out.result = game.result(state)

    async def _ai_once(self, info: GameInfo, game: Game) -> Outcome | None:
        state = await self._state(info)
        out = Outcome(info.id, status="advanced", version=int(state["version"]))
        out.round, out.phase = self.reads.stage(game, state)
        if not await self._ai_step(info, game, out):
            return None
        self._finish_outcome(out, info, game, await self._state(self._bump(info, out)), set())
        return out

    @staticmethod
    def _bump(info: GameInfo, out: Outcome) -> GameInfo:
        return info.at_version(out.version)

    async def _ai_step(self, info: GameInfo, game: Game, out: Outcome) -> bool:
        """One AI action for the first pending AI-played seat, committed. False if none."""
        state = await self._state(info)
        pending = self.reads.pending(game, state)
        movers = [s for s in info.seats if s.seat in pending and s.played_by_app_ai]
        if not movers:
            return False
        s = movers[0]
        kind = "random" if s.ai_kind == "random" else "greedy"
        # the choice may take a while (a bot's plan): off the event loop
        action = await asyncio.to_thread(self.ai_choose, info.game, state, s.seat, kind)
        try:
            new, views = apply_traced(game, state, s.seat, action)
        except IllegalAction:
            log.exception("game %s: AI chose an illegal action for %s", info.id, s.seat)
            action = game.legal_actions(state, s.seat)[0]
            new, views = apply_traced(game, state, s.seat, action)
        if out.status == "advanced":
            out.seat = out.seat or s.seat
        actor = "takeover" if s.is_human else "bot"
        try:
            await self._commit(info, game, state, new, s.seat, action, actor, out, views=views)
        except Raced:  # another process moved the game on: the AI's answer is that process's
            return False
        return True

    async def _answer(self, info: GameInfo, out: Outcome) -> None:
        """After a player's committed move: the AI seats' answer, then the posts. A
        database that cannot take the AI's writes (disk full) does not undo or hide the
        move: the outcome stays "applied" with what was saved, the AI's answer is left to
        the next sweep (``games.ai_owed`` was written with the move:
        :meth:`bot.app.App.advance_all`), and the move's posts, held back for the end of
        the chain, are released now instead of after ``chain_hold``."""
        try:
            await self._run_ai(info, out)
            await self._publish(info, out)
        except StorageUnavailable:
            log.warning(
                "game %s: the AI's answer to move %s could not be saved; the next sweep plays it", info.id, out.version
            )
            game = self.engine(info.game)
            self._finish_outcome(out, info, game, await self._state(self._bump(info, out)), set())
            if out.batch is not None and out.settled != out.version:
                try:
                    async with self.storage.transaction() as tx:
                        await tx.release_batch(info.id, out.batch)
                except StorageUnavailable:
                    log.warning("game %s: its posts wait %.0f s (the database cannot take writes)", info.id, self.chain_hold)

    async def _run_ai(self, info: GameInfo, out: Outcome) -> None:
        """AI seats act (each action committed) until a human is pending or the game ends."""
        game = self.engine(info.game)
        for _ in range(self.max_ai_actions):
            if not await self._ai_step(self._bump(info, out), game, out):
                break
        else:
            log.error("game %s: AI seats made %s moves in a row; stopping", info.id, self.max_ai_actions)
        if out.settled is None or out.settled != out.version:  # (a settled commit finished it)
            self._finish_outcome(out, info, game, await self._state(self._bump(info, out)), set())

    async def _notify(self, game_id: int) -> None:
        """Tell the listeners (the live table) that the game changed; then its state is at
        rest and its public view is let go (:meth:`EngineReads.rest`)."""
        for listener in list(self.listeners):
            try:
                await listener(game_id)
            except Exception:
                log.exception("listener failed for game %s", game_id)
        state = self._cache.get(game_id)
        if state is not None:
            self.reads.rest(state)


def _replay(game: Game, state: State, rows: list[Any]) -> State:
    before: State | None = None
    for r in rows:
        try:
            state, before = replay_row(game, state, before, r.seat, r.action, r.seq)
        except NeedsEarlier:
            raise
        except (IllegalAction, KeyError, TypeError, ValueError, AttributeError, IndexError, RuntimeError):
            # a row that reads as JSON but not as the move that was made: the record is damaged
            raise DamagedRecord(r.game_id, r.seq) from None
    return state


def _name(info: GameInfo, seat: str) -> str:
    s = info.seat_named(seat)
    return s.display_name if s is not None else seat


def _position(info: GameInfo) -> Callable[[str], int]:
    order = {s.seat: s.position for s in info.seats}
    return lambda seat: order.get(seat, 99)


def _engine_names() -> list[str]:
    try:
        from engine import game_names

        return list(game_names())
    except Exception:
        return []


def canonical_input(game: Game, state: State, seat: str, action: Any) -> tuple[dict[str, Any], list[str]]:
    """A player's action checked for size and shape, in the engine's canonical form (what
    the log stores), with the names of fields the engine does not know. The app's own
    undo row (refused from a player by the caller) passes as it is."""
    if not isinstance(action, dict):
        raise IllegalAction("A move is a JSON object with a 'type'.")
    size = None if too_deep(action) else json_size(action)
    if size is None or size > MAX_ACTION_CHARS:
        raise IllegalAction("That is too large to be a move in this game.")
    canonical = getattr(game, "canonical_action", None)
    if canonical is None or action.get("type") == UNDO:
        return action, []
    return canonical(state, seat, action)
