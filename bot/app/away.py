"""A player's vacation (``/away days:N``, issue 36) and each game's vacation policy.

Each game follows its host's policy (``/game new``, ``/game settings``):

- ``freeze``: the away player's deadlines wait: a reminder or AI takeover of their seat
  counts from the end of the vacation in that game (a wait that begins meanwhile too:
  :meth:`AwayOps._put_reminders`, the hook every new wait goes through);
- ``ai``: the AI plays their seat meanwhile (the takeover of ``/game kick``);
- ``none``: no vacation in this game: deadlines run as usual.

A cap per game (14 days unless the host says otherwise) ends the vacation there sooner,
so a game never stalls for long. When it ends (:meth:`AwayOps.end_vacations`, run every
minute by the cog) the seat is the player's again, and they are told what happened.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bot import jsontext
from bot.app.admin import AdminOps
from bot.app.compose import post_row
from bot.app.core import _READ
from bot.records import AppError, Conflict, GameInfo, Outcome, SeatInfo
from bot.settings import Settings
from bot.storage import Tx

DAY = 86400.0
MAX_DAYS = 30
POLICIES = {
    "freeze": "deadlines frozen for the away player",
    "ai": "the AI plays for the away player",
    "none": "vacations not allowed",
}


@dataclass(frozen=True)
class AwayGame:
    """What a vacation does in one game."""

    game_id: int
    title: str
    mode: str  # freeze | ai | none
    ends_at: float | None


@dataclass(frozen=True)
class AwayEnded:
    """A vacation over in some games: the DM that tells the player."""

    user_id: int
    game_id: int  # the outbox row's game (the first of them)
    text: str
    games: tuple[int, ...] = ()  # the games it ended in (their posts to deliver)


def stamp(at: float) -> str:
    return f"<t:{int(at)}:D>"


class AwayOps(AdminOps):
    """``/away`` and the vacation policy (see the module docstring)."""

    _frozen_seats: dict[tuple[int, str], float] | None = None

    async def _frozen(self, q: Tx) -> dict[tuple[int, str], float]:
        """{(game, seat): end of the freeze} (read once; this process is the one writer)."""
        if self._frozen_seats is None:
            rows = await q.away_seats(due=math.inf)
            self._frozen_seats = {(int(g), str(s)): float(e) for _, g, s, mode, e in rows if mode == "freeze"}
        return self._frozen_seats

    async def _put_reminders(
        self, tx: Tx, info: GameInfo, seat: str, settings: Settings, since: float, *,
        asked: float | None = None, quiet: Any = _READ,
    ) -> None:
        ends = (await self._frozen(tx)).get((info.id, seat))
        if ends is not None:  # frozen: the clock of this wait starts when the vacation ends
            since, asked = max(since, ends), None if asked is None else max(asked, ends)
        await super()._put_reminders(tx, info, seat, settings, since, asked=asked, quiet=quiet)

    # -- the policy --------------------------------------------------------------------

    async def set_vacation_policy(
        self, game_id: int, user_id: int, *, policy: str | None = None, cap_days: int | None = None,
        is_admin: bool | int = False,
    ) -> tuple[str, int]:
        info = await self.info(game_id)
        self._check_manage(info, user_id, is_admin)
        if policy is not None and policy not in POLICIES:
            raise AppError("The vacation policy is one of: freeze, ai, none.")
        if cap_days is not None and (isinstance(cap_days, bool) or not isinstance(cap_days, int) or not 1 <= cap_days <= MAX_DAYS):
            raise AppError(f"The vacation cap is a number of days from 1 to {MAX_DAYS}.")
        async with self.storage.transaction() as tx:
            old = await tx.vacation(game_id)
            new = (policy or old[0], cap_days or old[1])
            await tx.put_vacation(game_id, *new)
        return new

    async def vacation_policy(self, game_id: int) -> tuple[str, int]:
        async with self.storage.read() as q:
            return await q.vacation(game_id)

    async def away_in_game(self, game_id: int) -> dict[str, float]:
        """{seat: end of its player's vacation here} (``/game status``)."""
        async with self.storage.read() as q:
            return await q.away_in_game(game_id)

    async def away_until(self, user_id: int) -> float | None:
        async with self.storage.read() as q:
            found = (await q.away_of([user_id])).get(user_id)
        return found[1] if found else None

    # -- /away -------------------------------------------------------------------------

    async def go_away(self, user_id: int, days: int) -> tuple[float, list[AwayGame]]:
        """Start a vacation of ``days`` (1-30) in every running game of the player: (its
        end, what it does in each game). ``days`` 0: see :meth:`come_back`."""
        if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= MAX_DAYS:
            raise AppError(f"days must be a whole number from 0 to {MAX_DAYS} (0 ends your vacation).")
        if days == 0:
            raise AppError("days:0 ends a vacation; use it to come back early.")
        now = self.clock()
        until = now + days * DAY
        already = await self.away_until(user_id)
        if already is not None:
            raise Conflict(f"You are away until {stamp(already)} already: `/away days:0` ends that vacation first.")
        games = [g for g in await self.games_of_user(user_id) if g.status in ("active", "paused")]
        plan: list[tuple[GameInfo, str, float]] = []
        async with self.storage.transaction() as tx:
            for info in games:
                policy, cap = await tx.vacation(info.id)
                seat = info.seat_of(user_id)
                if seat is None:
                    continue
                ends = min(until, now + cap * DAY)
                mode = policy
                if policy == "ai" and (info.status != "active" or seat.ai_takeover):
                    mode = "freeze"  # a paused game, or a seat the AI holds already: its clock waits
                if mode != "none":
                    await tx.put_away_seat(user_id, info.id, seat.seat, mode, ends)
                plan.append((info, mode, ends))
            versions = {str(info.id): info.version for info, _, _ in plan}
            await tx.put_away(user_id, now, until, jsontext.dumps(versions))
        frozen = self._frozen_seats
        out = []
        for info, mode, ends in plan:
            seat = info.seat_of(user_id)
            assert seat is not None
            if mode == "freeze" and frozen is not None:
                frozen[(info.id, seat.seat)] = ends
            if mode == "freeze":
                await self._restart_clock(info.id, seat.seat)
            elif mode == "ai":
                try:
                    await self.take_over(info.id, seat.seat, user_id=info.host_id)
                except AppError:  # the game ended or paused meanwhile: its clock runs as before
                    pass
            if mode != "none":
                what = "the AI plays their seat meanwhile" if mode == "ai" else "their deadlines wait"
                await self.queue(info.id, [post_row(
                    f"🏖️ {seat.display_name} is away until {stamp(ends)}: {what}.", ordered=False)])
            out.append(AwayGame(info.id, self.presenter(info.game).title, mode, None if mode == "none" else ends))
        return until, out

    async def resume(self, game_id: int, user_id: int, *, is_admin: bool | int = False) -> Outcome:
        """A paused game goes on; the players away in it under the "ai" policy, whose
        seats froze while it was paused, are played by the AI from now to their return."""
        out = await super().resume(game_id, user_id, is_admin=is_admin)
        await self._ai_for_the_away(game_id)
        return out

    async def _ai_for_the_away(self, game_id: int) -> None:
        info = await self.info(game_id)
        now = self.clock()
        moved: list[tuple[SeatInfo, float]] = []
        async with self.storage.transaction() as tx:
            policy, _cap = await tx.vacation(game_id)
            if policy != "ai":
                return
            for name, ends in (await tx.away_in_game(game_id)).items():
                seat = next((s for s in info.seats if s.seat == name), None)
                if seat is None or seat.user_id is None or seat.ai_takeover or ends <= now:
                    continue
                await tx.put_away_seat(seat.user_id, game_id, name, "ai", ends)
                moved.append((seat, ends))
        for seat, ends in moved:
            if self._frozen_seats is not None:
                self._frozen_seats.pop((game_id, seat.seat), None)
            try:
                await self.take_over(game_id, seat.seat, user_id=info.host_id)
            except AppError:  # the game ended meanwhile
                continue
            await self.queue(game_id, [post_row(
                f"🏖️ {seat.display_name} is away until {stamp(ends)}: the AI plays their seat meanwhile.", ordered=False)])

    async def _restart_clock(self, game_id: int, seat: str) -> None:
        """The seat's reminders again from when its wait began (a frozen seat: from the
        end of the freeze; :meth:`_put_reminders`)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            async with self.storage.transaction() as tx:
                wait = next((w for w in await tx.waiting_of(game_id) if w.seat == seat), None)
                if wait is not None:  # frozen: shifted to the freeze's end; thawed: from now
                    frozen = (game_id, seat) in await self._frozen(tx)
                    since = wait.since_at if frozen else self.clock()
                    await self._put_reminders(tx, info, seat, info.settings, since, asked=since)
        await self._notify(game_id)

    async def come_back(self, user_id: int) -> list[AwayEnded]:
        """``/away days:0``: the vacation ends now, in every game."""
        if (await self.away_until(user_id)) is None:
            raise Conflict("You are not away.")
        return await self._end(user_id, None)

    async def end_vacations(self) -> list[AwayEnded]:
        """End the vacations whose time is up (in each game at its cap); the players' DMs."""
        now = self.clock()
        async with self.storage.read() as q:
            due = await q.away_seats(due=now)
            over = await q.away_over(now)
        out = []
        for user in sorted({int(r[0]) for r in due} | set(over)):
            out += await self._end(user, [int(r[1]) for r in due if int(r[0]) == user])
        return out

    async def _end(self, user_id: int, game_ids: list[int] | None) -> list[AwayEnded]:
        """End the vacation in ``game_ids`` (None: everywhere, and the vacation itself)."""
        async with self.storage.read() as q:
            rows = [r for r in await q.away_seats(user_id) if game_ids is None or int(r[1]) in game_ids]
            away = (await q.away_of([user_id])).get(user_id)
        versions = jsontext.loads(away[2]) if away else {}
        lines = []
        for _, gid, seat, mode, _ in rows:
            gid, seat = int(gid), str(seat)
            if self._frozen_seats is not None:
                self._frozen_seats.pop((gid, seat), None)
            if mode == "ai":
                try:
                    await self.reclaim(gid, user_id)
                except AppError:
                    pass  # the game ended or paused meanwhile, or the seat is theirs already
            else:
                await self._restart_clock(gid, seat)
            lines.append(await self._meanwhile(user_id, gid, seat, int(versions.get(str(gid), 0))))
        async with self.storage.transaction() as tx:
            if game_ids is None:
                await tx.end_away(user_id)
            else:
                for gid in game_ids:
                    await tx.end_away(user_id, gid)
                if away and away[1] <= self.clock() and not [r for r in await tx.away_seats(user_id) if int(r[1]) not in game_ids]:
                    await tx.end_away(user_id)
        if not rows:
            return []
        head = "🏖️ Welcome back: your seats are yours again. Meanwhile:"
        return [AwayEnded(user_id, int(rows[0][1]), "\n".join([head, *lines]), tuple(int(r[1]) for r in rows))]

    async def _meanwhile(self, user_id: int, game_id: int, seat: str, since: int) -> str:
        """One line: what happened in a game since the vacation began (move ``since``)."""
        info = await self.info(game_id)
        async with self.storage.transaction() as tx:
            turns = [t for t in await tx.seat_turns([game_id]) if int(t[3]) > since]
            if info.version > since:
                await tx.log_away(user_id, game_id, seat, since + 1, info.version)
            waiting = {w.seat for w in await tx.waiting_of(game_id)}
        by_ai = sum(1 for t in turns if t[1] == seat and t[2] == "takeover")
        title = self.presenter(info.game).title
        moves = f"{len(turns)} move{'s' if len(turns) != 1 else ''} made"
        if by_ai:
            moves += f", {by_ai} of them by the AI for you"
        if info.status == "finished":
            now = "the game is over"
        elif seat in waiting:
            now = "it is your move now"
        else:
            now = f"the game is {info.status}" if info.status != "active" else "not your move yet"
        return f"• #{game_id} {title}: {moves}; {now}."
