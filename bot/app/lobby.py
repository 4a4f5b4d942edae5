"""The lobby: create a game, join, leave, AI seats, options, start."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.app.core import Core
from bot.records import AppError, Conflict, GameInfo, NotFound, Outcome, make_seat_id
from bot.storage import INTEGRITY_ERRORS
from engine import IllegalAction
from engine.versions import edition


class LobbyOps(Core):
    """Lobby calls of :class:`bot.app.App` (status "lobby", then ``start``)."""

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
        opts = self._check_options(game, options or {})
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
        except INTEGRITY_ERRORS:
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
        self, game_id: int, user_id: int, kind: str = "bot", *, is_admin: bool | int = False
    ) -> GameInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            presenter = self.presenter(info.game)
            auto = presenter.automaton(kind)
            if auto is None:
                offered = ", ".join(a.label for a in presenter.automata)
                raise AppError(f"{presenter.title} offers these AI players: {offered}.")
            self._check_manage(info, user_id, is_admin)
            self._check_room(info)
            taken = {s.seat for s in info.seats}
            if auto.seat_name:
                seat, name = make_seat_id(auto.seat_name, taken), auto.seat_name
            else:
                n = 1 + sum(1 for s in info.seats if s.ai_kind in ("bot", "random"))
                seat = make_seat_id(f"bot{n}", taken)
                name = f"Bot {n}" + (" (random)" if kind == "random" else "")
            async with self.storage.transaction() as tx:
                await tx.insert_seat(game_id, seat, len(info.seats), None, kind, name)
                await tx.update_game(game_id, self.clock(), status="lobby")
            return await self.info(game_id)

    async def remove_seat(
        self, game_id: int, user_id: int, seat: str, *, is_admin: bool | int = False
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
        self, game_id: int, user_id: int, options: Mapping[str, Any], *, is_admin: bool | int = False
    ) -> GameInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            self._check_manage(info, user_id, is_admin)
            merged = self._check_options(info.game, {**info.options, **options})
            merged = {k: v for k, v in merged.items() if v is not None}
            async with self.storage.transaction() as tx:
                await tx.update_game(game_id, self.clock(), options=merged)
            return await self.info(game_id)

    async def set_thread(
        self, game_id: int, user_id: int, thread_id: int | None, *, is_admin: bool | int = False
    ) -> GameInfo:
        """Move the game's place to a thread (the bot made one for it)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            self._check_manage(info, user_id, is_admin)
            try:
                async with self.storage.transaction() as tx:
                    await tx.update_game(game_id, self.clock(), thread_id=thread_id)
            except INTEGRITY_ERRORS:
                raise Conflict("That thread already has a game.") from None
            return await self.info(game_id)

    async def start(
        self,
        game_id: int,
        user_id: int,
        *,
        seed: int | None = None,
        is_admin: bool | int = False,
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
            options["automata"] = [s.seat for s in info.seats if s.played_by_engine]
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
                    rules=rules, rng=rng_kind, ai_owed=self._ai_owed(info, game, state),
                )
                await tx.put_snapshot(game_id, version, game.dump(state), now)
                new = await self._sync_waiting(tx, info, game, state, None, version, now)
                out.phase_changed = out.round_changed = True
                out.phase_views.append(pub)
                if isinstance(pub.get("round"), int):  # the scores round 1 starts from
                    await tx.put_round_start(game_id, pub["round"], self.presenter(info.game).scores(pub))
                self._finish_outcome(out, info, game, state, new)
                await self._write_rows(tx, info, game, state, out, final=False)
            self._remember(game_id, state)
            info = await self.info(game_id)
            if run_ai:
                await self._run_ai(info, out)
            await self._publish(info, out)
        await self._notify(game_id)
        return out

