"""A substitute (``/game sub``, issue 36): a seat handed to another member mid-game.

The host (or a server manager) offers a seat the app's AI plays (a rule bot, or a
player's seat the AI took over) or that of an idle player (one the game waits for); a
player offers their own seat (they are leaving). The new player accepts with a button;
then the seat is theirs: its prompts and private view go to them, the channel is told
from which round they play, and ``seat_history`` keeps who played it from which move
(profiles credit each player for their own moves; the result counts for the one who
finished: :mod:`bot.app.home`).
"""

from __future__ import annotations

from bot.app.compose import post_row
from bot.app.core import Core
from bot.records import Conflict, Forbidden, GameInfo, NotFound, Outcome, SeatInfo


class SubOps(Core):
    """Offering and taking a seat (see the module docstring)."""

    async def check_sub(
        self, game_id: int, user_id: int, seat: str | None, new_user: int, *, is_admin: bool | int = False
    ) -> SeatInfo:
        """The seat ``user_id`` may offer to ``new_user`` now (their own if ``seat`` is
        None); a clear refusal otherwise. Nothing changes."""
        info = await self.info(game_id)
        if info.status not in ("active", "paused"):
            raise Conflict("A seat can be handed over only in a running game.")
        target = info.seat_of(user_id) if seat is None else info.seat_named(seat)
        if target is None:
            raise NotFound("You have no seat in this game: name the seat to hand over." if seat is None
                           else "There is no such seat in this game.")
        if info.seat_of(new_user) is not None:
            raise Conflict("That member already plays in this game.")
        if target.played_by_engine:
            raise Conflict(f"{target.display_name} is the game's own automaton: its seat cannot be handed over.")
        if target.user_id == user_id:
            return target  # a player hands over their own seat
        if not info.can_manage(user_id, is_admin):
            raise Forbidden("Only the host, or the seat's own player, can hand a seat over.")
        if target.is_human and not target.ai_takeover and not await self._idle(info, target):
            raise Conflict(
                f"{target.display_name} plays their seat and the game is not waiting for them:"
                " only they can hand it over."
            )
        return target

    async def _idle(self, info: GameInfo, seat: SeatInfo) -> bool:
        async with self.storage.read() as q:
            return any(w.seat == seat.seat for w in await q.waiting_of(info.id))

    async def take_seat(self, game_id: int, seat: str, holder: int | None, new_user: int, name: str) -> Outcome:
        """``new_user`` accepts ``seat`` (offered while ``holder`` held it: None for the
        AI): the seat is theirs from the next move on."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            target = info.seat_named(seat)
            if info.status not in ("active", "paused"):
                raise Conflict(f"The game is {info.status}: the seat cannot be taken any more.")
            if target is None or target.user_id != holder or target.played_by_engine:
                raise Conflict("This offer is out of date: the seat changed hands since.")
            if info.seat_of(new_user) is not None:
                raise Conflict("You already play in this game.")
            game = self.engine(info.game)
            state = await self._state(info)
            version = int(state["version"])
            round_ = self.reads.stage(game, state)[0]
            now = self.clock()
            async with self.storage.transaction() as tx:
                if target.user_id is not None and not any(r[1] == seat for r in await tx.seat_history([game_id])):
                    await tx.put_seat_holder(game_id, seat, 0, target.user_id, None)  # who played it so far
                await tx.put_seat_holder(game_id, seat, version + 1, new_user, round_)
                await tx.set_seat_user(game_id, seat, new_user, name)
                await tx.delete_waiting(game_id, seat)  # their wait begins now
                info = await self._info_q(tx, game_id)
                new = await self._sync_waiting(tx, info, game, state, None, version, now)
                out = Outcome(game_id, status="reclaimed", seat=seat, version=version)
                self._finish_outcome(out, info, game, state, new)
                await self._write_rows(tx, info, game, state, out, final=True)
                when = f"round {round_}" if round_ is not None else "now"
                await tx.put_outbox(
                    game_id, await tx.next_outbox_batch(),
                    *post_row(f"🔁 {name} plays {target.display_name}'s seat from {when}.", ordered=False)[:3],
                    ordered=False, at=self.wall(),
                )
        await self._notify(game_id)
        return out
