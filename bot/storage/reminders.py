"""Reminders and deadlines: who holds a game up since when (``waiting``), the nudges and
AI-takeover deadlines of a waiting seat (``reminders``)."""

from __future__ import annotations

from typing import Any

from bot.storage.base import Stmt, TxCore
from bot.storage.rows import REMINDER_ROWS, ReminderRow, WaitingRow

WAITING_DELETE = "DELETE FROM waiting WHERE game_id = ? AND seat = ?"
WAITING_INSERT = "INSERT INTO waiting (game_id, seat, since_version, since_at) VALUES (?, ?, ?, ?)"
REMINDER_PUT = (
    "INSERT INTO reminders (game_id, seat, kind, due_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = excluded.due_at"
)


def reminders_after(game_id: int, rows: list[ReminderRow], written: list[Stmt]) -> list[ReminderRow] | None:
    """The game's reminder rows (by due time) as ``written`` leaves ``rows``, worked out
    without asking the database again, or None where a statement is not one of this
    module's own waits and reminders (then the caller reads them). A wait deleted takes
    its reminders with it (ON DELETE CASCADE); a new wait has none; a reminder put keeps
    its row's ``sent_at`` and ``count``, a new one has none."""
    out = {(r.seat, r.kind): r for r in rows}
    for sql, args, many in written:
        if "reminders" not in sql and "waiting" not in sql:
            continue
        if many:
            return None
        if sql == WAITING_DELETE:
            if args[0] == game_id:
                out = {k: r for k, r in out.items() if r.seat != args[1]}
        elif sql == REMINDER_PUT:
            if args[0] == game_id:
                old = out.get((args[1], args[2]))
                out[(args[1], args[2])] = ReminderRow(
                    game_id, args[1], args[2], args[3], old.sent_at if old else None, old.count if old else 0
                )
        elif sql != WAITING_INSERT:
            return None
    return sorted(out.values(), key=lambda r: r.due_at)


class RemindersSql(TxCore):
    """The SQL of waiting seats, reminders and deadlines (a part of :class:`bot.storage.Tx`)."""


    async def waiting_of(self, game_id: int) -> list[WaitingRow]:
        rows = await self._all(
            "SELECT game_id, seat, since_version, since_at FROM waiting WHERE game_id = ?"
            " ORDER BY seat",
            (game_id,),
        )
        return [WaitingRow(*r) for r in rows]

    async def put_waiting(
        self, game_id: int, seat: str, since_version: int, since_at: float, *, absent: bool = False
    ) -> None:
        """The seat's wait, anew. ``absent``: the caller knows it has no row (read or
        deleted in this transaction), so none is deleted first."""
        if not absent:  # the old row goes, and its reminders with it (ON DELETE CASCADE)
            await self._write(WAITING_DELETE, (game_id, seat))
        await self._write(WAITING_INSERT, (game_id, seat, since_version, since_at))

    async def delete_waiting(self, game_id: int, seat: str | None = None) -> None:
        if seat is not None:
            await self._write(WAITING_DELETE, (game_id, seat))
        else:
            await self._delete_of_game("waiting", game_id, "seat", seat)

    async def put_reminder(self, game_id: int, seat: str, kind: str, due_at: float) -> None:
        await self._write(REMINDER_PUT, (game_id, seat, kind, due_at))

    async def delete_reminders(self, game_id: int, kind: str | None = None) -> None:
        await self._delete_of_game("reminders", game_id, "kind", kind)

    async def _delete_of_game(self, table: str, game_id: int, column: str, value: str | None) -> None:
        """The game's rows of ``table``; only those whose ``column`` is ``value`` unless None.
        (``table`` and ``column`` are this module's names, never a caller's text.)"""
        if value is None:
            await self._write(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
        else:
            await self._write(f"DELETE FROM {table} WHERE game_id = ? AND {column} = ?", (game_id, value))

    async def takeover_wait(self, game_id: int, seat: str) -> tuple[WaitingRow, float] | None:
        """The seat's wait and the due time of its takeover deadline, in one read (None:
        the seat is not waited for, or its wait has no takeover deadline). A new wait
        replaces its reminder rows (ON DELETE CASCADE), so the pair is always one wait's."""
        row = await self._one(
            "SELECT w.game_id, w.seat, w.since_version, w.since_at, r.due_at FROM waiting w"
            " JOIN reminders r ON r.game_id = w.game_id AND r.seat = w.seat AND r.kind = 'takeover'"
            " WHERE w.game_id = ? AND w.seat = ?",
            (game_id, seat),
        )
        return (WaitingRow(*row[:4]), float(row[4])) if row else None

    async def reminder(self, game_id: int, seat: str, kind: str) -> ReminderRow | None:
        rows = await self._reminder_rows(" WHERE r.game_id = ? AND r.seat = ? AND r.kind = ?", (game_id, seat, kind))
        return rows[0] if rows else None

    async def reminders_of(self, game_id: int) -> list[ReminderRow]:
        return await self._reminder_rows(" WHERE r.game_id = ? ORDER BY r.due_at", (game_id,))

    async def all_reminders(self) -> list[ReminderRow]:
        """Reminder rows of active games, soonest first."""
        return await self._reminder_rows(
            " JOIN games g ON g.id = r.game_id WHERE g.status = 'active' ORDER BY r.due_at"
        )

    async def _reminder_rows(self, rest: str, args: tuple[Any, ...] = ()) -> list[ReminderRow]:
        """The reminder rows (``r``) that ``rest`` of the query joins, picks and orders."""
        return [ReminderRow(*r) for r in await self._all(REMINDER_ROWS + rest, args)]

    async def earliest_reminder(self, game_id: int | None = None, after: float | None = None) -> float | None:
        """The earliest due time of a reminder row of an active game (of one game; later
        than ``after``).

        Without ``game_id`` the rows are walked in due order (``reminders_due``) up to the
        first of an active game: left to itself SQLite visits every active game instead
        (about 0.45 s with 50,000 games, the storage lock held)."""
        args: list[Any] = []
        if game_id is not None:
            sql = (
                "SELECT min(r.due_at) FROM reminders r JOIN games g ON g.id = r.game_id"
                " WHERE g.status = 'active' AND r.game_id = ?"
            )
            args.append(game_id)
        else:
            sql = (
                f"SELECT r.due_at FROM reminders r{self.sql.indexed_by('reminders_due')}"
                " JOIN games g ON g.id = r.game_id WHERE g.status = 'active'"
            )
        if after is not None:
            sql += " AND r.due_at > ?"
            args.append(after)
        if game_id is None:
            sql += " ORDER BY r.due_at LIMIT 1"
        row = await self._one(sql, tuple(args))
        return float(row[0]) if row and row[0] is not None else None

    async def due_reminders(self, now: float, limit: int) -> list[ReminderRow]:
        """Reminder rows of active games due by ``now``, oldest first."""
        return await self._reminder_rows(
            # in due order, never a walk over every active game
            self.sql.indexed_by("reminders_due")
            + " JOIN games g ON g.id = r.game_id WHERE r.due_at <= ? AND g.status = 'active'"
            " ORDER BY r.due_at LIMIT ?",
            (now, limit),
        )

    async def reschedule_reminder(self, game_id: int, seat: str, kind: str, due_at: float) -> None:
        await self._write(
            "UPDATE reminders SET due_at = ? WHERE game_id = ? AND seat = ? AND kind = ?",
            (due_at, game_id, seat, kind),
        )

    async def mark_reminder_sent(
        self, game_id: int, seat: str, kind: str, sent_at: float, next_due: float
    ) -> bool:
        return await self._rowcount(
            "UPDATE reminders SET sent_at = ?, count = count + 1, due_at = ?"
            " WHERE game_id = ? AND seat = ? AND kind = ?",
            (sent_at, next_due, game_id, seat, kind),
        ) > 0

