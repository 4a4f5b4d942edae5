"""Players and settings: a game's reminder settings, a player's quiet hours and time
zone, "DM me every turn", and the player's home across games (issue 36: ratings,
vacations, substitutes, notifications)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.settings import QuietHours, Settings
from bot.storage.base import TxCore, upsert
from bot.storage.games import SETTINGS_SQL
from bot.storage.rows import _GAME_COLS, GameRow, WaitingRow, _game, _settings, out_of_range


class PlayersSql(TxCore):
    """The SQL of players and settings (a part of :class:`bot.storage.Tx`)."""

    # settings
    async def settings(self, game_id: int) -> Settings:
        return _settings(await self._one(SETTINGS_SQL, (game_id,)))

    async def put_settings(self, game_id: int, s: Settings) -> None:
        self._touch(game_id)
        await self._write(
            "INSERT INTO game_settings (game_id, remind_after_hours, repeat_hours, takeover,"
            " takeover_after_hours) VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " remind_after_hours = excluded.remind_after_hours,"
            " repeat_hours = excluded.repeat_hours, takeover = excluded.takeover,"
            " takeover_after_hours = excluded.takeover_after_hours",
            (game_id, s.remind_after_hours, s.repeat_hours, int(s.takeover), s.takeover_after_hours),
        )

    async def quiet_hours(self, user_id: int | None) -> QuietHours | None:
        if user_id is None:
            return None
        return (await self.quiet_hours_of([user_id])).get(user_id)

    async def quiet_hours_of(self, user_ids: Iterable[int | None]) -> dict[int, QuietHours]:
        """The quiet hours of each of these users that has them: one query."""
        query = _quiet_query(user_ids)
        return _quiet_hours(await self._all(*query)) if query else {}

    async def waiting_and_quiet_hours(
        self, game_id: int, user_ids: Iterable[int | None]
    ) -> tuple[list[WaitingRow], dict[int, QuietHours]]:
        """:meth:`waiting_of` and :meth:`quiet_hours_of` in one trip (an action reads both:
        who was waited for, and the quiet hours of those it may wait for now)."""
        query = _quiet_query(user_ids)
        waiting, quiet = await self._fetch(
            ("SELECT game_id, seat, since_version, since_at FROM waiting WHERE game_id = ? ORDER BY seat", (game_id,)),
            query or ("SELECT 1 WHERE FALSE", ()),
        )
        return [WaitingRow(*r) for r in waiting], _quiet_hours(quiet)

    async def put_quiet_hours(self, user_id: int, quiet: QuietHours | None) -> None:
        start, end, tz = (quiet.start, quiet.end, quiet.tz) if quiet else (None, None, "UTC")
        await self._write(
            "INSERT INTO user_settings (user_id, quiet_start, quiet_end, tz) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start,"
            " quiet_end = excluded.quiet_end, tz = excluded.tz",
            (user_id, start, end, tz),
        )

    # the player's home (issue 36; bot.app.home): /games, ratings, vacations, substitutes
    async def home_rows(self, user_id: int, since: float) -> list[list[Any]]:
        """The games ``user_id`` sits in (live, or finished since ``since``) by the index
        ``seats_user_game``, then their seats, waiting seats, reminders, stages and
        vacation policies: one trip."""
        games = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE id IN (SELECT game_id FROM seats"
            f"{self.sql.indexed_by('seats_user_game')} WHERE user_id = ?) AND (status IN ('lobby', 'active', 'paused')"
            " OR (status = 'finished' AND updated_at >= ?)) ORDER BY id",
            (user_id, since),
        )
        ids = tuple(int(r[0]) for r in games)
        marks = ",".join("?" * len(ids)) or "NULL"
        rest = await self._fetch(*(
            (f"SELECT {cols} FROM {table} WHERE game_id IN ({marks})", ids) for table, cols in (
                ("seats", "game_id, seat, position, user_id, ai_kind, display_name, ai_takeover"),
                ("waiting", "game_id, seat, since_version, since_at"),
                ("reminders", "game_id, seat, kind, due_at"),
                ("game_stage", "game_id, round, phase"),
                ("game_vacation", "game_id, policy, cap_days"),
            )
        ))
        return [games, *rest]

    async def put_stage(self, game_id: int, round_: Any, phase: Any) -> None:
        await self._write(
            upsert("game_stage", ("game_id", "round", "phase"), ("game_id",)),
            (game_id, None if round_ is None else str(round_), None if phase is None else str(phase)),
        )

    async def seat_turns(self, game_ids: Iterable[int]) -> list[Any]:
        """(game_id, seat, actor, seq, seconds since the move before) of every log row."""
        ids = tuple(game_ids)
        return await self._all(
            "SELECT game_id, seat, actor, seq, created_at - lag(created_at) OVER (PARTITION BY game_id ORDER BY seq)"
            f" FROM actions WHERE game_id IN ({','.join('?' * len(ids)) or 'NULL'}) ORDER BY game_id, seq",
            ids,
        )

    async def seat_history(self, game_ids: Iterable[int]) -> list[Any]:
        """(game_id, seat, from_seq, user_id, from_round) of these games, in order."""
        ids = tuple(game_ids)
        return await self._all(
            "SELECT game_id, seat, from_seq, user_id, from_round FROM seat_history WHERE game_id IN"
            f" ({','.join('?' * len(ids)) or 'NULL'}) ORDER BY game_id, seat, from_seq",
            ids,
        )

    async def put_seat_holder(self, game_id: int, seat: str, from_seq: int, user_id: int, from_round: Any) -> None:
        await self._write(
            upsert(
                "seat_history", ("game_id", "seat", "from_seq", "user_id", "from_round"), ("game_id", "seat", "from_seq")
            ),
            (game_id, seat, from_seq, user_id, None if from_round is None else str(from_round)),
        )

    async def set_seat_user(self, game_id: int, seat: str, user_id: int, display_name: str) -> None:
        self._touch(game_id)
        await self._write(
            "UPDATE seats SET user_id = ?, display_name = ?, ai_kind = NULL, ai_takeover = 0"
            " WHERE game_id = ? AND seat = ?",
            (user_id, display_name, game_id, seat),
        )

    async def profile_games(self, user_id: int) -> list[GameRow]:
        """Every started game ``user_id`` sits in or sat in (a seat they gave up)."""
        rows = await self._all(
            f"SELECT {_GAME_COLS} FROM games WHERE status != 'lobby' AND id IN (SELECT game_id FROM seats"
            " WHERE user_id = ? UNION SELECT game_id FROM seat_history WHERE user_id = ?) ORDER BY id",
            (user_id, user_id),
        )
        return [g for g in map(_game, rows) if g is not None]

    async def ratings(self, game: str, user_ids: Iterable[int] | None = None) -> dict[int, tuple[float, float, int]]:
        """{user: (mu, sigma, rated games)} of one game (of these users, or everyone's)."""
        ids = tuple(user_ids) if user_ids is not None else None
        where = "" if ids is None else f" AND user_id IN ({','.join('?' * len(ids)) or 'NULL'})"
        rows = await self._all(f"SELECT user_id, mu, sigma, rated FROM ratings WHERE game = ?{where}", (game, *(ids or ())))
        return {int(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def guild_players(self, guild_id: int) -> set[int]:
        """Everyone who sat in a game of this server (its members the bot knows without
        the privileged member list)."""
        rows = await self._all(
            "SELECT s.user_id FROM seats s JOIN games g ON g.id = s.game_id WHERE g.guild_id = ? AND s.user_id IS NOT NULL"
            " UNION SELECT h.user_id FROM seat_history h JOIN games g ON g.id = h.game_id WHERE g.guild_id = ?",
            (guild_id, guild_id),
        )
        return {int(r[0]) for r in rows}

    async def ratings_of_user(self, user_id: int) -> dict[str, tuple[float, float, int]]:
        rows = await self._all("SELECT game, mu, sigma, rated FROM ratings WHERE user_id = ?", (user_id,))
        return {str(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def put_rating(self, user_id: int, game: str, mu: float, sigma: float) -> None:
        await self._write(
            "INSERT INTO ratings (user_id, game, mu, sigma, rated) VALUES (?, ?, ?, ?, 1) ON CONFLICT"
            " (user_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, rated = ratings.rated + 1",
            (user_id, game, mu, sigma),
        )

    async def mark_rated(self, game_id: int, at: float) -> bool:
        """Count a finished game once: False if it was counted already."""
        return bool(await self._rowcount(
            upsert("rated_games", ("game_id", "rated_at"), ("game_id",), ignore=True), (game_id, at)
        ))

    async def home_todo(self, what: str, *, done: bool = False) -> bool:
        """Whether ``what`` is still to do (and, with ``done``, mark it done)."""
        row = await self._one("SELECT 1 FROM home_todo WHERE what = ?", (what,))
        if done:
            await self._write("DELETE FROM home_todo WHERE what = ?", (what,))
        return row is not None

    async def user_home(self, user_id: int) -> tuple[bool, str | None, int | None, float | None]:
        """(hidden, notify, digest hour, next digest) of a player (defaults if never set)."""
        row = await self._one("SELECT hidden, notify, digest_hour, digest_next FROM user_home WHERE user_id = ?", (user_id,))
        return (bool(row[0]), row[1], row[2], row[3]) if row else (False, None, None, None)

    async def put_user_home(self, user_id: int, **fields: Any) -> None:
        if not fields or set(fields) - {"hidden", "notify", "digest_hour", "digest_next"}:
            raise ValueError(f"bad home fields {sorted(fields)}")
        cols = ", ".join(fields)
        sets = ", ".join(f"{k} = excluded.{k}" for k in fields)
        await self._write(
            f"INSERT INTO user_home (user_id, {cols}) VALUES (?{', ?' * len(fields)})"
            f" ON CONFLICT (user_id) DO UPDATE SET {sets}",
            (user_id, *fields.values()),
        )

    async def notify_prefs(self) -> dict[int, str]:
        """{user: notify} of the players who chose how they are told of a turn."""
        rows = await self._all("SELECT user_id, notify FROM user_home WHERE notify IS NOT NULL")
        return {int(r[0]): str(r[1]) for r in rows}

    async def put_tz(self, user_id: int, tz: str) -> None:
        await self._write(
            "INSERT INTO user_settings (user_id, tz) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET tz = excluded.tz",
            (user_id, tz),
        )

    async def user_tz(self, user_id: int) -> str:
        row = await self._one("SELECT tz FROM user_settings WHERE user_id = ?", (user_id,))
        return str(row[0]) if row else "UTC"

    async def put_digest_next(self, rows: list[tuple[float, int]]) -> None:
        await self._write_many("UPDATE user_home SET digest_next = ? WHERE user_id = ?", rows)

    async def hidden_users(self, user_ids: Iterable[int]) -> set[int]:
        ids = tuple(user_ids)
        rows = await self._all(
            f"SELECT user_id FROM user_home WHERE hidden = 1 AND user_id IN ({','.join('?' * len(ids)) or 'NULL'})", ids
        )
        return {int(r[0]) for r in rows}

    async def due_digests(self, now: float, limit: int) -> list[Any]:
        """(user_id, digest_hour, tz) of the players whose daily digest is due."""
        return await self._all(
            "SELECT h.user_id, h.digest_hour, coalesce(u.tz, 'UTC') FROM user_home h"
            f"{self.sql.indexed_by('user_home_digest')}"
            " LEFT JOIN user_settings u ON u.user_id = h.user_id"
            " WHERE h.notify = 'digest' AND h.digest_next <= ? ORDER BY h.digest_next LIMIT ?",
            (now, limit),
        )

    async def waiting_games_of(self, user_ids: Iterable[int]) -> list[Any]:
        """(user_id, game_id, game, guild_id, channel_id, thread_id, since_at) of every
        active game waiting on one of these players (the digest)."""
        ids = tuple(user_ids)
        return await self._all(
            "SELECT s.user_id, g.id, g.game, g.guild_id, g.channel_id, g.thread_id, w.since_at"
            f" FROM seats s{self.sql.indexed_by('seats_user_game')} JOIN waiting w ON w.game_id = s.game_id AND w.seat = s.seat"
            " JOIN games g ON g.id = s.game_id"
            f" WHERE s.user_id IN ({','.join('?' * len(ids)) or 'NULL'}) AND g.status = 'active'"
            " ORDER BY s.user_id, w.since_at",
            ids,
        )

    async def vacation(self, game_id: int) -> tuple[str, int]:
        row = await self._one("SELECT policy, cap_days FROM game_vacation WHERE game_id = ?", (game_id,))
        return (str(row[0]), int(row[1])) if row else ("freeze", 14)

    async def put_vacation(self, game_id: int, policy: str, cap_days: int) -> None:
        await self._write(
            upsert("game_vacation", ("game_id", "policy", "cap_days"), ("game_id",)), (game_id, policy, cap_days)
        )

    async def away_of(self, user_ids: Iterable[int]) -> dict[int, tuple[float, float, str]]:
        """{user: (since, until, versions JSON)} of these players on vacation."""
        ids = tuple(user_ids)
        rows = await self._all(
            f"SELECT user_id, since, until, since_at FROM away WHERE user_id IN ({','.join('?' * len(ids)) or 'NULL'})", ids
        )
        return {int(r[0]): (float(r[1]), float(r[2]), str(r[3])) for r in rows}

    async def put_away(self, user_id: int, since: float, until: float, since_at: str) -> None:
        await self._write(
            upsert("away", ("user_id", "since", "until", "since_at"), ("user_id",)), (user_id, since, until, since_at)
        )

    async def away_seats(self, user_id: int | None = None, due: float | None = None) -> list[Any]:
        """(user_id, game_id, seat, mode, ends_at): of one player, or those ending by ``due``."""
        if user_id is not None:
            return await self._all("SELECT user_id, game_id, seat, mode, ends_at FROM away_seats WHERE user_id = ?", (user_id,))
        return await self._all(
            "SELECT user_id, game_id, seat, mode, ends_at FROM away_seats WHERE ends_at <= ? ORDER BY ends_at", (due,)
        )

    async def put_away_seat(self, user_id: int, game_id: int, seat: str, mode: str, ends_at: float) -> None:
        await self._write(
            upsert("away_seats", ("user_id", "game_id", "seat", "mode", "ends_at"), ("user_id", "game_id")),
            (user_id, game_id, seat, mode, ends_at),
        )

    async def end_away(self, user_id: int, game_id: int | None = None) -> None:
        """The vacation over in one game (or everywhere: then the vacation row goes too)."""
        if game_id is None:
            await self._write("DELETE FROM away_seats WHERE user_id = ?", (user_id,))
            await self._write("DELETE FROM away WHERE user_id = ?", (user_id,))
        else:
            await self._write("DELETE FROM away_seats WHERE user_id = ? AND game_id = ?", (user_id, game_id))

    async def log_away(self, user_id: int, game_id: int, seat: str, from_seq: int, to_seq: int) -> None:
        await self._write(
            upsert("away_log", ("user_id", "game_id", "seat", "from_seq", "to_seq"), ("user_id", "game_id", "from_seq")),
            (user_id, game_id, seat, from_seq, to_seq),
        )

    async def away_log(self, user_id: int) -> list[Any]:
        """(game_id, seat, from_seq, to_seq) of a player's past vacations."""
        return await self._all("SELECT game_id, seat, from_seq, to_seq FROM away_log WHERE user_id = ?", (user_id,))

    async def away_over(self, now: float) -> list[int]:
        """The players whose vacation's time is up."""
        return [int(r[0]) for r in await self._all("SELECT user_id FROM away WHERE until <= ?", (now,))]

    async def away_in_game(self, game_id: int) -> dict[str, float]:
        """{seat: when its player's vacation ends in this game}."""
        rows = await self._all("SELECT seat, ends_at FROM away_seats WHERE game_id = ?", (game_id,))
        return {str(r[0]): float(r[1]) for r in rows}

    async def dm_every_turn(self, game_id: int) -> set[str]:
        """The seats of the game whose players asked for a DM at every turn."""
        rows = await self._all("SELECT seat FROM seat_prefs WHERE game_id = ? AND dm_every_turn = 1", (game_id,))
        return {str(r[0]) for r in rows}

    async def put_dm_every_turn(self, game_id: int, seat: str, on: bool) -> None:
        await self._write(
            "INSERT INTO seat_prefs (game_id, seat, dm_every_turn) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET dm_every_turn = excluded.dm_every_turn",
            (game_id, seat, int(bool(on))),
        )



def _quiet_query(user_ids: Iterable[int | None]) -> tuple[str, tuple[Any, ...]] | None:
    ids = sorted({u for u in user_ids if u is not None and not out_of_range((u,))})
    if not ids:
        return None
    return (
        f"SELECT user_id, quiet_start, quiet_end, tz FROM user_settings WHERE user_id IN ({','.join('?' * len(ids))})",
        tuple(ids),
    )


def _quiet_hours(rows: Iterable[Any]) -> dict[int, QuietHours]:
    return {int(r[0]): QuietHours(r[1], r[2], r[3]) for r in rows if r[1] is not None and r[2] is not None}


