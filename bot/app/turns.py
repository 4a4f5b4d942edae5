"""Turns: a player's action, and the AI seats that answer it."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.app.core import (
    RACE_TRIES,
    UNDO,
    Core,
    OldPrompt,
    Raced,
    apply_traced,
    canonical_input,
    is_undo,
    log,
    taken_over_words,
)
from bot.limits import clip_input
from bot.records import AppError, Conflict, Forbidden, GameInfo, Outcome, SeatInfo, is_secret
from engine import IllegalAction

# games the start-up catch-up advances side by side (App.advance_all)
CATCH_UP_AT_ONCE = 4
UNDO_CHECKS_KEPT = 8  # verdicts of _undo_check kept (the last games and seats asked)


def own_seat(info: GameInfo, user_id: int, seat: str | None, refusal: str) -> SeatInfo:
    """The seat ``seat`` names (None: the caller's own), if the caller sits there; else
    Forbidden, saying ``refusal``."""
    mine = info.seat_of(user_id) if seat is None else info.seat_named(seat)
    if mine is None or mine.user_id != user_id:
        raise Forbidden(refusal)
    return mine


class TurnOps(Core):
    """Play calls of :class:`bot.app.App` (status "active")."""

    async def act(
        self,
        game_id: int,
        user_id: int,
        seat: str | None,
        action: dict[str, Any],
        expected_version: int,
    ) -> Outcome:
        """Apply ``action`` for the caller's seat; see the module docstring. Where another
        process logged a move first (two apps on one database without the bot's lease),
        the game is read again and the action decided anew, as this process decides one
        that waited for the game's lock (applied if its prompt still stands, else "already"
        or "stale"); after :data:`RACE_TRIES` such races, :class:`Raced` ("try again")."""
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise AppError("That prompt is out of date; open your turn again.")
        for _ in range(RACE_TRIES - 1):
            try:
                return await self._act(game_id, user_id, seat, action, expected_version)
            except Raced:
                continue
        return await self._act(game_id, user_id, seat, action, expected_version)

    async def _act(
        self, game_id: int, user_id: int, seat: str | None, action: dict[str, Any], expected_version: int
    ) -> Outcome:
        async with self.lock(game_id):
            info = await self.info(game_id)
            if expected_version > info.version:  # a prompt newer than this process knows of the
                self._forget(game_id)  # game: another process wrote it since (no lease); read again
                info = await self.info(game_id)
            if info.status in ("lobby", "abandoned"):
                raise Conflict(f"The game is {info.status}; no moves now.")
            mine = own_seat(info, user_id, seat, "You can only act for your own seat.")
            seat = mine.seat
            game = self.engine(info.game)
            state = await self._state(info)
            version = int(state["version"])
            pending = self.reads.pending(game, state)
            try:
                action, unknown = canonical_input(game, state, seat, action)
            except IllegalAction as exc:
                return self._refusal(info, game, state, seat, "illegal", str(exc))
            if is_undo(action) or action.get("type") == UNDO:
                return self._refusal(info, game, state, seat, "illegal", "Use the Undo button to take a move back.")
            taking_back = action.get("type") == "unseal"  # a sealed secret decision, taken back
            old = expected_version != version and not taking_back
            try:
                decided = self._decide(info, game, state, mine, action, unknown, pending, taking_back)
            except Conflict:
                # a prompt already answered or out of date says so first
                refusal = await self._old_refusal(info, seat, action, expected_version, pending) if old else None
                if refusal is not None:
                    return refusal
                raise
            if isinstance(decided, Outcome):
                refusal = await self._old_refusal(info, seat, action, expected_version, pending) if old else None
                return refusal or decided
            new_state, views = decided
            out = Outcome(game_id, seat=seat, version=version)
            out.round, out.phase = self.reads.stage(game, state)
            try:
                # an older prompt is judged with the commit's first read (one round trip
                # fewer than reading the log first), under the game's lock
                await self._commit(
                    info, game, state, new_state, seat, action, "player", out, views=views,
                    old_prompt=(expected_version, pending) if old else None,
                )
            except OldPrompt as refused:
                return refused.refusal
            await self._answer(info, out)  # (a disk full from here on: the move still counts)
        await self._notify(game_id)
        return out

    async def _old_refusal(
        self, info: GameInfo, seat: str, action: dict[str, Any], expected: int, pending: Any
    ) -> Outcome | None:
        """The refusal of a move on an older prompt, if it has one that comes before the
        others (already done; out of date while the game is active)."""
        refusal = await self._check_old(info, seat, action, expected, pending)
        if refusal is not None and (refusal.status == "already" or info.status == "active"):
            return refusal
        return None

    def _decide(
        self, info: GameInfo, game: Any, state: Any, mine: SeatInfo, action: dict[str, Any],
        unknown: list[str], pending: Any, taking_back: bool,
    ) -> Outcome | tuple[Any, Any]:
        """The action's new state and views, or its refusal (or Conflict raised): every
        check of :meth:`_act` but the older prompt's."""
        seat = mine.seat
        if info.status == "paused":
            raise Conflict("The game is paused; the host can resume it.")
        if info.status != "active":
            raise Conflict(f"The game is {info.status}; no more moves.")
        if seat not in pending and not taking_back:
            return self._refusal(info, game, state, seat, "illegal", "You have nothing to decide right now.")
        if mine.ai_takeover:
            return self._refusal(
                info, game, state, seat, "illegal",
                "🤖 The AI plays your seat now. Use `/game reclaim` to play it yourself again.",
            )
        if unknown:
            return self._refusal(
                info, game, state, seat, "illegal",
                f"That move has field(s) this game does not know: {clip_input(', '.join(unknown))}.",
            )
        try:
            return apply_traced(game, state, seat, action)
        except IllegalAction as exc:
            return self._refusal(info, game, state, seat, "illegal", str(exc))

    async def undo(
        self, game_id: int, user_id: int, seat: str | None = None, version: int | None = None
    ) -> Outcome:
        """Take back the caller's last move (BGA's rule): only their own last logged move,
        before any other seat acts, within the same phase, and only where the engine says
        nothing hidden was revealed and no chance was used (its optional
        ``undoable(before, after, seat)``). ``version``: the state version the Undo button
        was shown at (the move it takes back); None: the last move, whatever it was. The
        log keeps the move and appends an undo row marking it; replay skips it
        (:func:`bot.app.core.replay_row`)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            if info.status != "active":
                raise Conflict(f"The game is {info.status}; no moves now.")
            mine = own_seat(info, user_id, seat, "You can only take back your own move.")
            seat = mine.seat
            game = self.engine(info.game)
            found = await self._undo_check(info, seat, version)
            if isinstance(found, str):
                raise Conflict(found)
            state, before, last = found
            new = {**before, "version": info.version + 1}
            out = Outcome(game_id, seat=seat, version=info.version)
            out.round, out.phase = self.reads.stage(game, state)
            took_back = [f"{mine.display_name} took back their last move."]
            await self._commit(
                info, game, state, new, seat, {"type": UNDO, "undoes": last.seq}, "player", out, events=took_back,
                settle=False,
            )
            self._finish_outcome(out, info, game, new, {seat})
            await self._publish(info, out)
        await self._notify(game_id)
        return out

    async def can_undo(self, game_id: int, seat: str, version: int | None = None) -> bool:
        """Whether :meth:`undo` would take back ``seat``'s move now (the move that made
        ``version``, if given): the bot offers "↩ Undo" only then."""
        info = await self.info(game_id)
        if info.status != "active":
            return False
        return not isinstance(await self._undo_check(info, seat, version), str)

    async def _undo_check(self, info: GameInfo, seat: str, version: int | None) -> str | tuple[Any, Any, Any]:
        """(state, the state before the move, its log row) if ``seat``'s last move may be
        taken back now, else why not (a sentence)."""
        game = self.engine(info.game)
        check = getattr(game, "undoable", None)
        if check is None:
            return "This game does not let a move be taken back."
        if version is not None and version != info.version:
            return "Too late to take that move back: the game has moved on since."
        holder = info.seat_named(seat)
        if holder is not None and holder.ai_takeover:
            return "🤖 The AI plays your seat now. Use `/game reclaim` to play it yourself again."
        # the rest reads only the log up to info.version (never rewritten) and the states
        # it makes: kept per version and seat while the state of that version is the
        # cached one (the bot asks after each move, and again when it sweeps old prompts)
        key = (info.id, info.version, seat)
        kept = self._undo_seen.get(key)
        if kept is not None and kept[0] is self._cache.get(info.id):
            return kept[1]  # type: ignore[no-any-return]
        verdict = await self._undo_verdict(info, seat, game, check)
        now = self._cache.get(info.id)
        if now is not None and int(now["version"]) == info.version:
            self._undo_seen[key] = (now, verdict)
            self._undo_seen.move_to_end(key)
            while len(self._undo_seen) > UNDO_CHECKS_KEPT:
                self._undo_seen.popitem(last=False)
        return verdict

    async def _undo_verdict(self, info: GameInfo, seat: str, game: Any, check: Any) -> str | tuple[Any, Any, Any]:
        async with self.storage.read() as q:
            rows = await q.actions(info.id, after=info.version - 1, upto=info.version)
        last = rows[-1] if rows else None
        if last is None or last.seat != seat or last.actor != "player" or is_undo(last.action):
            return "Too late to take it back: someone else has moved since (or it was already taken back)."
        if last.action.get("type") == "unseal":
            return "A sealed decision is changed with its own button, not taken back."
        state = await self._state(info)
        before = await self._load_before(info)
        pending = game.pending(before)
        if seat not in pending or is_secret(pending[seat], pending):
            return "A sealed decision is changed with its own button, not taken back."
        if self._stage_before(game, info, before) != self.reads.stage(game, state):
            return "Too late to take it back: the phase is over."
        if not check(before, state, seat):
            return "That move cannot be taken back: it revealed something hidden or used chance."
        return state, before, last

    async def moved_since(self, game_id: int, seat: str, version: int) -> int | None:
        """The version of ``seat``'s own latest move after ``version`` (a move, an undo, an
        unseal, or the AI's move for the seat), or None: a message shown at ``version`` is
        older than the seat's last move when it is not None (a repeat click is "already
        done", whatever the decision looks like now)."""
        async with self.storage.read() as q:
            later = await q.actions(game_id, after=version)
        mine = [r.seq for r in later if r.seat == seat]
        return max(mine) if mine else None

    async def taken_over_since(self, game_id: int, seat: str, version: int) -> str | None:
        """If the seat's first move after ``version`` was the AI's (it took the seat over
        at the deadline): what to tell the player who clicks a message shown at
        ``version`` (not "already done": they did not move); else None."""
        async with self.storage.read() as q:
            later = await q.actions(game_id, after=version)
        mine = [r for r in later if r.seat == seat and not is_undo(r.action)]
        if not mine or mine[0].actor != "takeover":
            return None
        holder = (await self.info(game_id)).seat_named(seat)
        return taken_over_words(holder is not None and holder.ai_takeover)

    async def previews(self, game_id: int, seat: str, limit: int = 200) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
        """(action, seat's view before, seat's view after) for each legal action of
        ``seat``: what each option would do, by the engine's own rules (the labels of a
        turn's options carry these numbers). Nothing is committed."""
        info = await self.info(game_id)
        game = self.engine(info.game)
        state = await self._state(info)
        if seat not in game.pending(state):
            return []
        return self.reads.previews(game, state, seat, limit)

    async def step_ai(self, game_id: int) -> Outcome | None:
        """Apply at most one AI action (the demo uses this to pace itself)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            if info.status != "active":
                return None
            out = await self._ai_once(info, self.engine(info.game))
            if out is not None:
                await self._publish(info, out)
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
            out.round, out.phase = self.reads.stage(game, state)
            if info.status == "active":
                await self._run_ai(info, out)
                await self._publish(info, out)
            else:
                self._finish_outcome(out, info, game, state, set())
        await self._notify(game_id)
        return out

    async def advance_all(self) -> list[Outcome]:
        """At start-up: let AI seats catch up where a move is owed (a crash may have
        happened between a player's commit and the AI's answers). One indexed query
        finds those games (``games.ai_owed``, written with every commit); no other
        game is read. A flag found with nothing to do is cleared."""
        async with self.storage.read() as q:
            owed = await q.games_owing_ai()
        done: dict[int, Outcome] = {}
        queue = iter(owed)

        async def worker() -> None:
            # a few games at once: one game's database round trips and AI thread overlap
            # another's engine work (one after another, the loop waited a third of the time)
            for game_id in queue:
                try:
                    out = await self.run_ai(game_id)
                    if not out.applied:
                        async with self.storage.transaction() as tx:
                            await tx.clear_ai_owed(game_id, out.version)
                except Exception:
                    log.exception("game %s: could not advance AI seats", game_id)
                    continue
                if out.applied:
                    done[game_id] = out

        await asyncio.gather(*(worker() for _ in range(min(CATCH_UP_AT_ONCE, len(owed)))))
        return [done[g] for g in owed if g in done]
