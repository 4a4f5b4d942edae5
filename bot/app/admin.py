"""Administration: settings, quiet hours, pause and resume, abandon, AI takeover, reclaim."""

from __future__ import annotations

from dataclasses import replace

from bot.app.compose import post_row
from bot.app.core import LIVE, Core
from bot.records import AppError, Conflict, Forbidden, GameInfo, NotFound, Outcome
from bot.settings import QuietHours
from bot.storage import INTEGRITY_ERRORS


class AdminOps(Core):
    """Host, admin and player-seat calls of :class:`bot.app.App`."""

    async def update_settings(
        self,
        game_id: int,
        user_id: int,
        *,
        is_admin: bool | int = False,
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

    async def set_dm_every_turn(self, game_id: int, user_id: int, on: bool) -> None:
        """The player's own choice in this game: a DM for every turn of theirs (on), or
        only for the turns inside a phase and the planner (off, the default)."""
        if not isinstance(on, bool):
            raise AppError("dm_every_turn must be on or off (true or false).")
        info = await self.info(game_id)
        mine = info.seat_of(user_id)
        if mine is None:
            raise Forbidden("You have no seat in this game.")
        async with self.storage.transaction() as tx:
            await tx.put_dm_every_turn(game_id, mine.seat, on)

    async def dm_every_turn(self, game_id: int, user_id: int) -> bool:
        info = await self.info(game_id)
        mine = info.seat_of(user_id)
        async with self.storage.read() as q:
            return mine is not None and mine.seat in await q.dm_every_turn(game_id)

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

    async def pause(self, game_id: int, user_id: int, *, is_admin: bool | int = False) -> GameInfo:
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

    async def resume(self, game_id: int, user_id: int, *, is_admin: bool | int = False) -> Outcome:
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
            out.round, out.phase = self.reads.stage(game, state)
            out.new_prompts.update({s: {} for s in self.reads.pending(game, state)})  # prompt everyone again
            await self._run_ai(info, out)
            await self._publish(info, out)
        await self._notify(game_id)
        return out

    async def abandon(self, game_id: int, user_id: int, *, is_admin: bool | int = False) -> GameInfo:
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

    async def move(
        self,
        game_id: int,
        user_id: int,
        channel_id: int,
        thread_id: int | None = None,
        *,
        guild_id: int | None = None,
        is_admin: bool | int = False,
    ) -> GameInfo:
        """``/game move``: the game is played in ``channel_id`` (its ``thread_id``) from now
        on, e.g. after its channel was deleted or the bot lost its permissions there. Its
        waiting posts go there, at once (issue 8 §1)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            self._check_manage(info, user_id, is_admin)
            if info.status not in LIVE:
                raise Conflict(f"The game is {info.status}: there is nothing to move.")
            if guild_id is not None and info.guild_id is not None and guild_id != info.guild_id:
                raise Forbidden("A game moves only within its own server.")
            if (thread_id or channel_id) == info.place_id:
                raise Conflict("The game is already played here.")
            try:
                async with self.storage.transaction() as tx:
                    await tx.update_game(game_id, self.clock(), channel_id=channel_id, thread_id=thread_id)
                    await tx.clear_delivery_block(game_id)
                    await tx.retry_outbox_now(game_id)
            except INTEGRITY_ERRORS:
                raise Conflict("Another game is already played there; pick another channel.") from None
            return await self.info(game_id)

    async def take_over(
        self,
        game_id: int,
        seat: str,
        *,
        user_id: int | None = None,
        is_admin: bool | int = False,
        waiting_since: int | None = None,
        due_at: float | None = None,
    ) -> Outcome | None:
        """The AI plays ``seat`` from now on. ``user_id`` None = the system (the
        reminder scheduler's deadline); otherwise host/admin only. ``waiting_since``
        and ``due_at`` (the deadline's): the state version the deadline's wait began at
        and the due time of the takeover row the scheduler read. Under the game's lock,
        in one read, the takeover must still be due for that wait; if not (the player
        moved while the deadline fired, even a move that left them to move again, which
        starts a new wait with a new deadline), nothing happens and None is returned."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            if user_id is not None:
                self._check_manage(info, user_id, is_admin)
            if info.status != "active":
                raise Conflict(f"The game is {info.status}.")
            if waiting_since is not None or due_at is not None:
                async with self.storage.read() as q:
                    found = await q.takeover_wait(game_id, seat)
                if found is None:
                    return None  # the player moved meanwhile (and owes nothing now)
                wait, due = found
                if (
                    (waiting_since is not None and wait.since_version != waiting_since)
                    or (due_at is not None and due != due_at)
                    or due > self.clock()
                ):
                    return None  # a new wait began (the player moved): its deadline is later
            target = info.seat_named(seat)
            if target is None or not target.is_human:
                raise NotFound(f"There is no human seat {seat!r} in this game.")
            game = self.engine(info.game)
            state = await self._state(info)
            out = Outcome(game_id, status="takeover", seat=seat, version=int(state["version"]))
            out.round, out.phase = self.reads.stage(game, state)
            out.message = f"The AI now plays for {target.display_name}."
            if not target.ai_takeover:
                async with self.storage.transaction() as tx:
                    await tx.set_takeover(game_id, seat, True)
                    await tx.delete_waiting(game_id, seat)
                    # the seat may be pending: a crash before the AI moves is caught up
                    await tx.update_game(game_id, self.clock(), status="active", ai_owed=1)
                    if user_id is None:  # the deadline passed: the channel is told, with the takeover
                        notice = (
                            f"⏱️ {target.display_name} has not moved for a long time: the AI plays their seat"
                            " from now on (they can take it back with `/game reclaim`)."
                        )
                        await tx.put_outbox(
                            game_id, await tx.next_outbox_batch(), *post_row(notice, ordered=False)[:3],
                            ordered=False, at=self.wall(),
                        )
                info = await self.info(game_id)
            await self._run_ai(info, out)
            await self._publish(info, out)
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
                await self._write_rows(tx, info, game, state, out, final=True)
        await self._notify(game_id)
        return out

