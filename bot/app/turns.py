"""Turns: a player's action, and the AI seats that answer it."""

from __future__ import annotations

from typing import Any

from bot.app.core import Core, _stage, canonical_input, log
from bot.limits import clip_input
from bot.records import AppError, Conflict, Forbidden, Outcome
from engine import IllegalAction


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
        """At start-up: let AI seats catch up where a move is owed (a crash may have
        happened between a player's commit and the AI's answers). One indexed query
        finds those games (``games.ai_owed``, written with every commit); no other
        game is read. A flag found with nothing to do is cleared."""
        async with self.storage.read() as q:
            owed = await q.games_owing_ai()
        outs = []
        for game_id in owed:
            try:
                out = await self.run_ai(game_id)
                if not out.applied:
                    async with self.storage.transaction() as tx:
                        await tx.clear_ai_owed(game_id, out.version)
            except Exception:
                log.exception("game %s: could not advance AI seats", game_id)
                continue
            if out.applied:
                outs.append(out)
        return outs
